"""The ``nbx`` command: run learners on your own file, save and inspect models, and read the pipeline's results.

One module per command group: :mod:`.evaluate` (``evaluate``), :mod:`.model` (``fit``, ``predict``),
:mod:`.show` (``show``), :mod:`.listing` (``datasets``, ``learners``), :mod:`.add_data` (``add-data``),
:mod:`.results` (``results``, ``timings``). Each has ``register(subparsers)``, which adds its parser with
``func`` set to the function that runs it.

Every error a user can cause (a bad option, an unknown name, a malformed file) is printed as one line
``nbx: error: ...`` and exits 1; ``NBX_DEBUG=1`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from nbx.core.errors import NbxError

GROUPS = ("evaluate", "model", "show", "listing", "add_data", "results")


class UsageError(NbxError, ValueError):
    """The command line is wrong (unknown command or option, missing argument)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a one-line :class:`UsageError` (exit 1) with a did-you-mean."""

    def error(self, message):
        if m := re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message):
            from nbx.core.errors import did_you_mean

            what = "command" if m[1] == "COMMAND" else m[1]
            choices = [c.strip(" '") for c in m[3].split(",")]
            message = f"unknown {what} {m[2]!r}{did_you_mean(m[2], choices)}"
        message = re.sub(r"^argument (\S+): ", r"\1: ", message)
        command = self.prog.removeprefix("nbx").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} (see `{self.prog} --help`)")


def build_parser() -> Parser:
    parser = Parser(prog="nbx", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    from importlib import import_module

    for group in GROUPS:
        import_module(f"{__name__}.{group}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code (0, or 1 after printing a user's error as one line)."""
    try:
        args = build_parser().parse_args(argv)
        args.func(args)
    except NbxError as exc:
        if os.environ.get("NBX_DEBUG"):
            raise
        print(f"nbx: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `nbx ... | head`
        sys.stderr.close()
    return 0
