"""Data sets: catalogue, download, parsing, derivation and typed preparation."""
