"""params.yaml is written in the form DVC's own writer keeps: ``dvc exp run -S key=value`` rewrites the whole file
through ruamel (``dvc.utils.hydra.apply_overrides``, which ``dvc exp run`` calls), replacing every list and
scalar. Run on the committed file, that code must change exactly the line of the key it sets and keep every
comment."""

import difflib
import shutil
from pathlib import Path

import pytest
import yaml

hydra = pytest.importorskip("dvc.utils.hydra", reason="DVC (the pipeline extra) sets params")
REPO = Path(__file__).resolve().parents[2]
TEXT = (REPO / "params.yaml").read_text()
FULL_COMMENT = "# the full protocol: `dvc exp run -S experiments.benchmark.protocol.full=true` (cost below)"


def set_params(tmp_path: Path, *overrides: str) -> str:
    path = tmp_path / "params.yaml"
    shutil.copy(REPO / "params.yaml", path)
    hydra.apply_overrides(path, list(overrides))
    return path.read_text()


def changed_lines(new: str) -> tuple[list[str], list[str]]:
    diff = list(difflib.unified_diff(TEXT.splitlines(), new.splitlines(), lineterm="", n=0))
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    return removed, added


def test_setting_a_value_it_already_has_rewrites_nothing(tmp_path):
    assert set_params(tmp_path, f"seed={yaml.safe_load(TEXT)['seed']}") == TEXT


@pytest.mark.parametrize(
    "override, removed, added",
    [
        ("learners.nb_laplace.alpha=2", ["    alpha: 1.0"], ["    alpha: 2"]),
        ("experiments.benchmark.protocol.repeats=3", ["      repeats: 1"], ["      repeats: 3"]),
        (  # the benchmark's full protocol, one switch (README, "The pipeline"); the comment stays, one column on
            "experiments.benchmark.protocol.full=true",
            [f"      full: false   {FULL_COMMENT}"],
            [f"      full: true    {FULL_COMMENT}"],
        ),
        ("analyses.ting2003.min_split=20", ["    min_split: 30"], ["    min_split: 20"]),
        ("experiments.wiering2003.impute=mode", ["    impute:"], ["    impute: mode"]),
    ],
)
def test_one_value_changes_one_line_and_keeps_every_comment(tmp_path, override, removed, added):
    new = set_params(tmp_path, override)
    assert changed_lines(new) == (removed, added)
    key, value = override.split("=")
    block = yaml.safe_load(new)
    *path, last = key.split(".")
    for part in path:
        block = block[part]
    assert block[last] == yaml.safe_load(value)


def test_adding_a_learner_to_an_experiment_adds_one_line(tmp_path):
    learners = yaml.safe_load(TEXT)["experiments"]["kang2006"]["learners"]
    new = set_params(tmp_path, f"experiments.kang2006.learners=[{','.join(learners + ['nb_ting'])}]")
    assert changed_lines(new) == ([], ["    - nb_ting"])
    assert yaml.safe_load(new)["experiments"]["kang2006"]["learners"] == learners + ["nb_ting"]


def test_comments_stand_where_the_writer_keeps_them():
    """A comment line right after a list item belongs to the list, which the writer replaces: none may stand there."""
    lines = TEXT.splitlines()
    for before, line in zip(lines, lines[1:]):
        if line.lstrip().startswith("#"):
            assert not before.lstrip().startswith("- "), (
                f"a comment after a list item is dropped by `dvc exp run -S`: {line}"
            )
