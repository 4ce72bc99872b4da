"""The version of nbx, written here only: ``pyproject.toml`` reads it when a wheel is built (setuptools' dynamic
``version``), ``nbx.__version__`` and ``nbx --version`` import it. CHANGELOG.md says what each version changed."""

__version__ = "0.2.0"
