"""Entry point shared by the stage scripts: parse params.yaml, run one stage, report errors in one line."""
from __future__ import annotations

import sys

from . import config
from .data.catalogue import CatalogueError
from .data.fetch import FetchError
from .data.parsers import DataFormatError
from .models.registry import UnknownLearnerError

EXPECTED = (config.ConfigError, CatalogueError, FetchError, DataFormatError, UnknownLearnerError)


def run_stage(stage, n_args: int = 0) -> None:
    """Call ``stage(params, *argv[1:])``; a known error (bad params, data or download) exits with its message."""
    args = sys.argv[1:]
    if len(args) != n_args:
        sys.exit(f"usage: {sys.argv[0]} {' '.join(['EXPERIMENT', 'LEARNER'][:n_args])}")
    try:
        stage(config.load_params(), *args)
    except EXPECTED as exc:
        sys.exit(f"error: {exc}")
