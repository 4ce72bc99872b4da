"""nbx: naive Bayes and its extensions, rebuilt from five papers as a DVC pipeline."""


def __getattr__(name: str):
    # nbx.__version__ comes from nbx/_version.py, loaded by name on first use rather than imported here: every
    # pipeline stage runs this file, and each stage's code digest (nbx.pipeline.code) covers the nbx files it
    # imports, so a version bump written in or imported by this file would re-run the whole pipeline for nothing.
    if name == "__version__":
        from importlib import import_module

        return import_module(f"{__name__}._version").__version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
