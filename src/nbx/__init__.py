"""nbx: naive Bayes and its extensions, rebuilt from five papers as a DVC pipeline."""

__version__ = "0.1.0"
