"""The work of each DVC stage, one module per stage (the scripts in stages/ only call these).

Kept import-free so that a train cell's code dependencies are its own module's imports only.
"""
