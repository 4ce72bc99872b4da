"""benchmarks/limit.py's choice of data sets: per learner of an experiment's ``limited`` block, exactly those the
train stage leaves out, read from params.yaml and the catalogue; and its table's sums. Nothing here times anything."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from benchmark_scripts import in_folder

from nbx.pipeline import config
from nbx.pipeline.prepare import catalogue

REPO = Path(__file__).resolve().parents[2]
LIMITED = """    limited:
      learners:
      - lr_kang
      - hbayes_nb
      - hbayes_tan
      max_rows: 5000
      max_attributes: 40
"""


@pytest.fixture
def limit(monkeypatch):
    pytest.importorskip("matplotlib")
    yield from in_folder(monkeypatch, "limit")


def _params(tmp_path: Path, limited: str) -> config.Params:
    """The repository's params.yaml with the benchmark's ``limited`` block replaced."""
    text = (REPO / "params.yaml").read_text()
    assert text.count(LIMITED) == 1
    (tmp_path / "params.yaml").write_text(text.replace(LIMITED, limited))
    return config.load_params(tmp_path / "params.yaml")


def test_the_benchmarks_limit_leaves_out_the_eight_sets_of_the_readme(limit):
    # benchmarks/README.md's size-limit table: the sets over 5,000 rows or 40 attributes, for each of the three
    eight = ["audiology", "letter", "nursery", "optdigits", "satimage", "sonar", "spambase", "splice"]
    params = config.load_params(REPO / "params.yaml")
    assert limit.excluded(params, "benchmark") == {"lr_kang": eight, "hbayes_nb": eight, "hbayes_tan": eight}


def test_each_limited_learner_gets_the_sets_outside_its_own_limit(limit, tmp_path):
    # one learner limited by classes only: the sets of more than 10 classes, by the catalogue; the others run on all
    params = _params(tmp_path, "    limited: {learners: [hbayes_tan], max_classes: 10}\n")
    entries = catalogue(params)
    many = [ds for ds in config.experiment(params, "benchmark").datasets.values() if entries[ds].classes > 10]
    assert many and "yeast" not in many  # yeast has exactly 10: within
    assert limit.excluded(params, "benchmark") == {"hbayes_tan": many}


def test_an_experiment_without_a_limit_has_nothing_to_measure(limit):
    assert limit.excluded(config.load_params(REPO / "params.yaml"), "kang2006") == {}


def test_the_table_sums_each_learner_and_scales_to_all_splits(limit, capsys):
    costs = [
        {
            "learner": "a",
            "dataset": "s1",
            "cpu": 2.0,
            "splits": 1,
            "of_splits": 10,
            "rows": 9,
            "attributes": 2,
            "classes": 2,
        },
        {
            "learner": "a",
            "dataset": "s2",
            "cpu": 1.0,
            "splits": 2,
            "of_splits": 10,
            "rows": 7,
            "attributes": 3,
            "classes": 4,
        },
        {
            "learner": "b",
            "dataset": "s1",
            "cpu": 0.5,
            "splits": 1,
            "of_splits": 10,
            "rows": 9,
            "attributes": 2,
            "classes": 2,
        },
    ]
    limit.print_table(costs)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["s1", "(9,", "2,", "2)", "2.0", "0.5"]
    assert lines[3].split() == ["s2", "(7,", "3,", "4)", "1.0", "-"]  # b did not run on s2
    assert lines[4].split()[-2:] == ["3.0", "0.5"]  # the splits run
    assert lines[5].split()[-2:] == ["25.0", "5.0"]  # 2 x 10 + 1 x 10 / 2, and 0.5 x 10
    assert lines[6] == "all learners, all splits (estimated): 30 CPU s"


def test_datasets_within_the_limit_are_refused_before_anything_runs(limit, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sys, "argv", ["limit.py", "--datasets", "sonar,iris,zoo"])
    monkeypatch.setattr(limit, "measure", lambda *a: pytest.fail("measured"))
    with pytest.raises(SystemExit):
        limit.main()
    assert "--datasets: iris, zoo not outside the size limit of benchmark" in capsys.readouterr().err
