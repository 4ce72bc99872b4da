"""What every script in stages/ does: parse its arguments (with a --help that lists the valid experiments and
learners), read params.yaml, run one stage function, and report any error as one line naming the stage and its
arguments, ``train ting2003/blnbt3: data set splice, split 3: ValueError: ...`` (exit 1; Ctrl-C: ``...:
interrupted``, exit 130; ``NBX_DEBUG=1`` adds the traceback, :func:`nbx.core.errors.run_reported`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nbx.core.errors import NbxError, run_reported
from nbx.pipeline import config


def _choices(params, arg: str, experiment: str | None) -> str:
    if arg == "experiment":
        return ", ".join(params["experiments"])
    if experiment in params["experiments"]:
        return ", ".join(params["experiments"][experiment].get("learners", []))
    return ", ".join(params["learners"])


class _Parser(argparse.ArgumentParser):
    """A wrong command line is one line too (argparse prints the usage and exits 2)."""

    def error(self, message):
        raise NbxError(f"{message} (see `{self.prog} --help`)")


def run_stage(stage, description: str, args: tuple[str, ...] = ("experiment",), argv: list[str] | None = None):
    """Exit with :func:`main`'s code."""
    sys.exit(main(stage, description, args, argv))


def main(stage, description: str, args: tuple[str, ...] = ("experiment",), argv: list[str] | None = None) -> int:
    """Call ``stage(params, *args)`` with the arguments of ``argv`` (default ``sys.argv``: the script, then one
    value per name of ``args``); return the exit code: 0, 1 after one line naming the stage (the script's name)
    and its arguments, 130 after Ctrl-C."""
    script, *given = sys.argv if argv is None else argv
    name = Path(script).stem
    params, values, load_error = None, {}, None

    def parse():
        nonlocal params, load_error
        try:
            params = config.load_params()
        except NbxError as exc:  # reported after --help had its chance
            load_error = exc
        parser = _Parser(prog=f"python {script}", description=description)
        for arg in args:  # a name ending in * takes any number of values (none: all)
            valid = _choices(params, arg, given[0] if given else None) if params else "(params.yaml unreadable)"
            if arg.endswith("*"):
                parser.add_argument(arg[:-1], nargs="*", help=f"any of: {valid} (none: all)")
            else:
                parser.add_argument(arg, help=f"one of: {valid}")
        values.update(vars(parser.parse_args(given)))

    if code := run_reported(parse, name, f"{name}: interrupted"):
        return code
    single = [values[a] for a in args if not a.endswith("*")]
    label = " ".join([name, "/".join(single)]).strip()

    def run():
        if load_error is not None:
            raise load_error
        stage(params, *single, *(v for a in args if a.endswith("*") for v in values[a[:-1]]))

    return run_reported(run, label, f"{label}: interrupted")
