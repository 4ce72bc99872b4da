"""The ``nbx`` command: run learners on your own file, save and inspect models, and read the pipeline's results.

One module per command group: :mod:`.evaluate` (``evaluate``), :mod:`.model` (``fit``, ``predict``),
:mod:`.show` (``show``), :mod:`.listing` (``datasets``, ``learners``), :mod:`.add_data` (``add-data``),
:mod:`.results` (``results``, ``timings``). Each has ``register(subparsers)``, which adds its parser with
``func`` set to the function that runs it.

Every error is printed as one line ``nbx: error: ...`` and exits 1: the ones a user can cause (a bad option, an
unknown name, a malformed file, a file that cannot be written) say what to fix, any other says ``internal
error``; Ctrl-C prints ``nbx: interrupted`` and exits 130. ``NBX_DEBUG=1`` also prints the traceback
(:func:`nbx.core.errors.run_reported`).
"""

from __future__ import annotations

import argparse
import re
import sys

from nbx._version import __version__
from nbx.core.errors import NbxError, run_reported

GROUPS = ("evaluate", "model", "show", "listing", "add_data", "results")


class UsageError(NbxError, ValueError):
    """The command line is wrong (unknown command or option, missing argument)."""


# reST markup of the docstrings the help text is cut from: ``literal``, :role:`target` (also :role:`~a.b`,
# :role:`title <target>`)
_LITERAL = re.compile(r"``(.+?)``", re.S)
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`([^`<]*?)\s*(?:<([^`>]*)>)?`")


def plain(text: str) -> str:
    """Help text without reST markup: ``x`` -> x; :func:`nbx.a.f` -> nbx.a.f; :mod:`.sub` -> sub;
    :class:`~a.b.C` -> C; :ref:`title <target>` -> title."""

    def role(m: re.Match) -> str:
        shown = m[1] or m[2] or ""
        return shown.rpartition(".")[2] if shown.startswith("~") else shown.lstrip(".")

    return _LITERAL.sub(r"\1", _ROLE.sub(role, text))


class PlainHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, with :func:`plain` applied to descriptions, epilogs and every option's help."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain(text))

    def _expand_help(self, action) -> str:
        return plain(super()._expand_help(action))


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a one-line :class:`UsageError` (exit 1) with a did-you-mean, and the help
    text is plain (:class:`PlainHelpFormatter`: the descriptions come from docstrings)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", PlainHelpFormatter)
        super().__init__(*args, **kwargs)

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
    parser.add_argument("--version", action="version", version=f"nbx {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    from importlib import import_module

    for group in GROUPS:
        import_module(f"{__name__}.{group}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code: 0, 1 after printing an error as one line, 130 after Ctrl-C."""

    def run():
        args = build_parser().parse_args(argv)
        try:
            args.func(args)
        except BrokenPipeError:  # `nbx ... | head`: the reader has all it wanted
            sys.stderr.close()

    return run_reported(run, "nbx: error", "nbx: interrupted")
