"""What every script in stages/ does: parse its arguments (with a --help that lists the valid experiments and
learners), read params.yaml, run one stage function, and print a user's error as one line."""

from __future__ import annotations

import argparse
import os
import sys

from nbx.core.errors import NbxError
from nbx.pipeline import config


def _choices(params, arg: str, experiment: str | None) -> str:
    if arg == "experiment":
        return ", ".join(params["experiments"])
    if experiment in params["experiments"]:
        return ", ".join(params["experiments"][experiment].get("learners", []))
    return ", ".join(params["learners"])


def run_stage(stage, description: str, args: tuple[str, ...] = ("experiment",)) -> None:
    """Call ``stage(params, *args)``; errors the user can fix exit with one line (NBX_DEBUG=1: traceback)."""
    try:
        params = config.load_params()
    except NbxError as exc:
        params = None
        load_error = exc
    parser = argparse.ArgumentParser(prog=f"python {sys.argv[0]}", description=description)
    given = sys.argv[1:]
    for _i, arg in enumerate(args):
        valid = _choices(params, arg, given[0] if given else None) if params else "(params.yaml unreadable)"
        parser.add_argument(arg, help=f"one of: {valid}")
    values = vars(parser.parse_args())
    try:
        if params is None:
            raise load_error
        stage(params, *(values[a] for a in args))
    except NbxError as exc:
        if os.environ.get("NBX_DEBUG"):
            raise
        sys.exit(f"error: {exc}")
