"""The DVC pipeline: params.yaml (``config``, checked whole by ``check``), learners from params blocks
(``learners``), where artifacts live (``layout``), the code digests (``code``), a train cell's finished splits
(``checkpoints``) and the work of each stage, one module per stage (the scripts in stages/ only call these).

Kept import-free so that a stage's code dependencies are its own module's imports only.
"""
