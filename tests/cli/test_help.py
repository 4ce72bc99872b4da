"""`nbx --help` and every `nbx COMMAND --help` in plain text (their descriptions are cut from reST docstrings),
`nbx --version`, and `python -m nbx` as the `nbx` command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import nbx
from nbx.cli import build_parser, main, plain

REPO = Path(__file__).resolve().parents[2]
MARKUP = re.compile(r"``|:(?:mod|func|class|meth|attr|data|obj|exc|ref|doc|py:\w+):`")


def helps() -> dict[str, str]:
    """{command: its --help text} for the top level ("") and every command."""
    parser = build_parser()
    (sub,) = (a for a in parser._actions if a.dest == "command")
    return {"": parser.format_help()} | {name: p.format_help() for name, p in sub.choices.items()}


def test_plain_turns_rest_markup_into_text():
    assert plain("The ``nbx`` command") == "The nbx command"
    assert plain("(:mod:`.show_trees`) and :func:`nbx.core.errors.run_reported`") == (
        "(show_trees) and nbx.core.errors.run_reported"
    )
    assert plain(":class:`~nbx.models.tan.TAN`, :ref:`the pipeline <pipeline>`, :py:func:`f`") == (
        "TAN, the pipeline, f"
    )
    assert plain("``a`` or\n``b c``; `nbx fit` stays") == "a or\nb c; `nbx fit` stays"


def test_no_help_text_shows_rest_markup():
    texts = helps()
    assert {"", "evaluate", "fit", "predict", "show", "datasets", "learners", "add-data", "results"} <= set(texts)
    for command, text in texts.items():
        assert not MARKUP.search(text), (command, MARKUP.search(text)[0])
    # the words the markup wrapped are still there
    assert "The nbx command: run learners" in " ".join(texts[""].split())
    assert "cached (in data/raw/ already)" in " ".join(texts["datasets"].split())


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"nbx {nbx.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", nbx.__version__)


def test_the_changelog_ends_at_this_version():
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (REPO / "CHANGELOG.md").read_text(), re.M)
    assert releases and releases[0] == nbx.__version__ and len(set(releases)) == len(releases)


def test_python_m_nbx_is_the_nbx_command():
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}
    for argv, code, out in (
        (["--version"], 0, f"nbx {nbx.__version__}\n"),
        (["evalute"], 1, ""),  # a usage error: one line, exit 1, with a did-you-mean
    ):
        done = subprocess.run([sys.executable, "-m", "nbx", *argv], capture_output=True, text=True, env=env, cwd=REPO)
        assert (done.returncode, done.stdout) == (code, out), done.stderr
    assert done.stderr.count("\n") == 1 and "did you mean evaluate" in done.stderr
