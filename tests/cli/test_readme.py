"""Every command README.md shows is run, and its output compared with what README prints.

The ```console blocks: each ``$ `` line is run by bash (``nbx`` is ``python -m nbx`` of this source tree) in a
workspace like a fresh clone (params.yaml, the committed metrics/, an empty data/local/, no data/results/), with
``flowers.csv`` (UCI's iris.data below a header line, as README says) there and in ``$HOME``; its stdout must equal
the lines below it in README, numbers included. Two things are not compared: the seconds a fit took (this machine's,
the ``fit s`` column and ``fit_seconds``), and what a ``...`` line of README elides (any lines). The command table of
"The `nbx` command": every command in it has an example here (:data:`TABLE_EXAMPLES`) using only options its row
names, run the same way.

README's sample outputs are never edited by hand: ``python tests/cli/test_readme.py --write`` runs the blocks and
writes their output into README.md (a ``...`` block that still matches is kept as it is).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
SRC = REPO / "src"
IRIS = "machine-learning-databases/iris/iris.data"  # its path in the UCI archive and in a mirror of it
FLOWERS_HEADER = "sepal_length,sepal_width,petal_length,petal_width,species"


@dataclass
class Example:
    command: str
    expected: list[str]
    start: int  # offsets of the expected output in README.md's text
    end: int


def console_blocks(text: str) -> list[list[Example]]:
    """The ```console blocks that hold commands (``$ `` lines), each as its commands and their outputs."""
    blocks = []
    for block in re.finditer(r"^```console\n(.*?)^```$", text, re.M | re.S):
        examples: list[Example] = []
        offset = block.start(1)
        for line in block[1].splitlines(keepends=True):
            if line.startswith("$ "):
                examples.append(Example(line[2:].rstrip("\n"), [], offset + len(line), offset + len(line)))
            elif examples:
                examples[-1].expected.append(line.rstrip("\n"))
                examples[-1].end = offset + len(line)
            offset += len(line)
        if examples:
            blocks.append(examples)
    return blocks


# this machine's seconds: a fit time at the end of an evaluate table row, and fit_seconds in json and csv
_SECONDS = [
    (re.compile(r"^(.+ (?:discrete|mixed) +\d+\.\d\d ± +\d+\.\d\d [ v*] +)\d+\.\d\d$"), r"\1#"),
    (re.compile(r'^( *"fit_seconds": )[0-9.e-]+$'), r"\1#"),
]


def masked(line: str) -> str:
    for pattern, repl in _SECONDS:
        line = pattern.sub(repl, line)
    return line


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line after :func:`masked`; a ``...`` line of ``expected`` stands for any lines (none included)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and masked(expected[0]) == masked(actual[0]) and matches(expected[1:], actual[1:])


def make_workspace(dest: Path, iris: Path) -> Path:
    """A folder like a fresh clone's root (see the module docstring); returns it."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "params.yaml", dest / "params.yaml")
    shutil.copytree(REPO / "metrics", dest / "metrics")
    (dest / "data" / "local").mkdir(parents=True)
    (dest / "home").mkdir()
    rows = [line for line in iris.read_text().splitlines() if line.strip()]
    for where in (dest, dest / "home"):
        (where / "flowers.csv").write_text("\n".join([FLOWERS_HEADER] + rows) + "\n")
    return dest


def run(command: str, workspace: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(workspace / "home"), PYTHONPATH=str(SRC), COLUMNS="160")
    env.pop("NBX_DEBUG", None)
    script = f'nbx() {{ "{sys.executable}" -m nbx "$@"; }}\n{command}'
    return subprocess.run(["bash", "-c", script], cwd=workspace, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory, raw_dir) -> Path:
    return make_workspace(tmp_path_factory.mktemp("readme") / "clone", raw_dir / IRIS)


BLOCKS = console_blocks(README.read_text())


def test_readme_has_the_examples_this_test_runs():
    commands = [x.command for block in BLOCKS for x in block]
    assert any(c.startswith("nbx evaluate flowers.csv --learners 'nb_laplace,tan,c45,hbayes_nb,") for c in commands)
    assert any("--format json" in c for c in commands) and any("--format csv" in c for c in commands)
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a", "...", "d"], ["a", "b"])


@pytest.mark.parametrize("block", BLOCKS, ids=[block[-1].command[:60] for block in BLOCKS])
def test_readme_console_block_prints_what_readme_shows(workspace, block):
    for example in block:
        done = run(example.command, workspace)
        assert done.returncode == 0, f"$ {example.command}\n{done.stderr}"
        actual = done.stdout.splitlines()
        assert matches(example.expected, actual), (
            f"$ {example.command}\nREADME shows:\n"
            + "\n".join(example.expected)
            + "\nthe command prints:\n"
            + "\n".join(actual)
            + "\n(python tests/cli/test_readme.py --write updates README.md)"
        )


# ------------------------------------------------------------------------------------------ command table
# One runnable example per row of README's command table (run in the workspace, after the console blocks)
TABLE_EXAMPLES = {
    "evaluate": "nbx evaluate flowers.csv --learners nb_laplace,c45 --cv 3 --seed 2 --class species --format csv",
    "fit": "nbx fit flowers.csv --learner c45 --save c45.nbx",
    "predict": "nbx predict c45.nbx flowers.csv -o predicted.csv",
    "show": "nbx show c45.nbx",
    "datasets": "nbx datasets --experiment kang2006",
    "learners": "nbx learners --experiment kang2006",
    "add-data": "nbx add-data flowers.csv --name flowers2 --class species",
    "results": "nbx results kang2006 --learner tan --format json",
    "timings": "nbx timings",
}


def command_table(text: str) -> dict[str, str]:
    """Command -> its row's syntax cell, from the table of "The `nbx` command"."""
    section = text.split("## The `nbx` command", 1)[1]
    return {m[1]: m[0] for m in re.finditer(r"^\| `nbx ([a-z-]+)(.*?)` \|", section, re.M)}


def test_every_command_of_the_table_has_an_example():
    assert set(command_table(README.read_text())) == set(TABLE_EXAMPLES)


@pytest.mark.parametrize("name", list(TABLE_EXAMPLES))
def test_command_table_examples_run_with_the_options_their_row_names(workspace, name):
    syntax = command_table(README.read_text())[name]
    command = TABLE_EXAMPLES[name]
    for option in re.findall(r"(?<= )(--?[a-z][a-z-]*)", command):
        assert option in syntax, f"{option} of `{command}` is not in README's row {syntax}"
    if name in ("predict", "show") and not (workspace / "c45.nbx").exists():
        assert run(TABLE_EXAMPLES["fit"], workspace).returncode == 0
    if name == "add-data":
        shutil.copy(workspace / "flowers.csv", workspace / "data" / "local" / "flowers.csv")
        command = command.replace("flowers.csv", "data/local/flowers.csv")
    done = run(command, workspace)
    assert done.returncode == 0, f"$ {command}\n{done.stderr}"
    printed = (workspace / "predicted.csv").read_text() if name == "predict" else done.stdout
    assert printed.strip() and "error" not in done.stderr
    if name == "predict":
        assert printed.startswith("line,actual,predicted,P(Iris-setosa),") and len(printed.splitlines()) == 151


# ------------------------------------------------------------------------------------------- regeneration
def write_readme(iris: Path) -> None:
    """Run every console block in a fresh workspace and write the outputs into README.md."""
    import tempfile

    text = README.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        ws = make_workspace(Path(tmp) / "clone", iris)
        pieces, at = [], 0
        for block in console_blocks(text):
            for example in block:
                done = run(example.command, ws)
                if done.returncode != 0:
                    sys.exit(f"$ {example.command}\n{done.stderr}")
                actual = done.stdout.splitlines()
                keep = matches(example.expected, actual) and "..." in example.expected
                lines = example.expected if keep else actual
                pieces += [text[at : example.start], "".join(line + "\n" for line in lines)]
                at = example.end
        pieces.append(text[at:])
    README.write_text("".join(pieces))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/cli/test_readme.py --write  (rewrites README.md's console outputs)")
    mirror = os.environ.get("NBX_UCI_MIRROR") or str(REPO.parent / "shared" / "uci")
    if not (Path(mirror) / IRIS).is_file():
        sys.exit(f"no {IRIS} in {mirror}: set NBX_UCI_MIRROR to a folder mirror of the UCI archive")
    write_readme(Path(mirror) / IRIS)
