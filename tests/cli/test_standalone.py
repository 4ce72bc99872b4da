"""``nbx`` outside a clone of the repository (the installed package alone) and ``--format table|json|csv``.

Outside a clone the commands read the params.yaml the package ships (src/nbx/_shipped/params.yaml, a link to the
repository's, whose content the wheel carries: one source of truth, which `dvc exp run -S` edits in place). The json
and csv outputs hold the table's numbers.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest
from cli_run import nbx

from nbx.cli.common import SHIPPED_PARAMS

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_params_yaml_is_the_repositorys():
    assert SHIPPED_PARAMS == REPO / "src" / "nbx" / "_shipped" / "params.yaml"
    assert SHIPPED_PARAMS.is_symlink() and SHIPPED_PARAMS.resolve() == (REPO / "params.yaml").resolve()
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["nbx"]
    assert "_shipped/params.yaml" in package_data


@pytest.fixture
def outside(tmp_path, monkeypatch) -> Path:
    """A folder outside any clone, with a generated data file (two classes, a numeric and a nominal column)."""
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 90)
    x = np.round(rng.normal(1.5 * y, 1.0), 2)
    colour = np.where(rng.random(90) < 0.75, np.where(y == 1, "red", "blue"), "green")
    lines = ["x,colour,label"] + [f"{a},{c},{'yes' if b else 'no'}" for a, c, b in zip(x, colour, y)]
    (tmp_path / "toy.csv").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_learners_and_datasets_read_the_shipped_params_outside_a_clone(capsys, outside):
    code, out, err = nbx(capsys, "learners", "nb_laplace")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        f"{SHIPPED_PARAMS}:{_line_of('nb_laplace')}: learners.nb_laplace:",
        "nb_laplace: {class: NaiveBayes, prior: laplace, alpha: 1.0}",
    ]
    code, out, err = nbx(capsys, "datasets", "--experiment", "kang2006")
    assert code == 0, err
    assert re.search(r"^iris +uci +(mirror|download) +150 +4 +3 +\S.*kang2006", out, re.M)
    assert "No data/ folder here: nothing is cached; the files are fetched (sha256-checked) on first use." in out
    assert f"Experiments: {SHIPPED_PARAMS} (the copy shipped with nbx" in out


def _line_of(learner: str) -> int:
    lines = (REPO / "params.yaml").read_text().splitlines()
    start = lines.index("learners:")
    return next(i + 1 for i in range(start, len(lines)) if lines[i].startswith(f"  {learner}:"))


def table_rows(out: str) -> dict[str, tuple[str, float, float, str, float]]:
    """evaluate's table: learner -> (input, accuracy, std, mark, fit seconds)."""
    rows = {}
    for line in out.splitlines():
        if m := re.fullmatch(r"(\S+) +(discrete|mixed) +([\d.]+) ± +([\d.]+) ([ v*]) +([\d.]+)", line):
            rows[m[1]] = (m[2], float(m[3]), float(m[4]), m[5].strip(), float(m[6]))
    return rows


def test_evaluate_takes_shipped_learner_names_and_prints_the_tables_numbers_as_json_and_csv(capsys, outside):
    argv = ("evaluate", "toy.csv", "--learners", "nb_laplace,c45,tan", "--cv", "3")
    code, out, err = nbx(capsys, *argv)
    assert code == 0, err
    table = table_rows(out)
    assert list(table) == ["nb_laplace", "c45", "tan"] and table["c45"][0] == "mixed"
    code, out, err = nbx(capsys, *argv, "--format", "json")
    assert code == 0, err
    records = json.loads(out)
    keys = ["learner", "input", "accuracy", "accuracy_std", "mark", "fit_seconds"]
    assert all(list(r) == keys for r in records)
    assert [r["learner"] for r in records] == list(table)
    for r in records:  # the same numbers; fit seconds are this machine's, measured anew by each run
        assert (r["input"], r["accuracy"], r["accuracy_std"], r["mark"]) == table[r["learner"]][:4]
    code, out, err = nbx(capsys, *argv, "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0] == ",".join(keys)
    assert [(r["learner"], r["input"], float(r["accuracy"]), float(r["accuracy_std"]), r["mark"]) for r in rows] == [
        (x, *table[x][:4]) for x in table
    ]


def test_results_outside_a_clone_says_what_it_needs(capsys, outside):
    code, _, err = nbx(capsys, "results", "kang2006")
    assert code == 1
    assert err == (
        "nbx: error: no results of kang2006 here: neither data/results/kang2006.csv nor metrics/kang2006/ "
        "(committed in the repository); run in the root of a clone of nbx, where `dvc repro evaluate@kang2006` "
        "writes the results\n"
    )


@pytest.fixture
def fresh_clone(tmp_path, monkeypatch) -> Path:
    """What a fresh clone has of the results: params.yaml and the committed metrics/, no data/results/."""
    shutil.copy(REPO / "params.yaml", tmp_path / "params.yaml")
    shutil.copytree(REPO / "metrics" / "kang2006", tmp_path / "metrics" / "kang2006")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_results_in_a_fresh_clone_reads_the_committed_metrics(capsys, fresh_clone):
    code, out, err = nbx(capsys, "results", "kang2006", "--learner", "tan,c45_kang")
    assert code == 0, err
    metrics = {x: json.loads((REPO / "metrics" / "kang2006" / f"{x}.json").read_text()) for x in ("tan", "c45_kang")}
    lines = out.splitlines()
    tan = metrics["tan"]
    assert (
        f"tan {tan['acc']:.3f} {tan['rank']:.3f} {tan['wins']} {tan['ties']} {tan['losses']} {tan['log_loss']:.4f} "
        f"{tan['brier']:.4f} {tan['ece']:.4f} {tan['auc']:.4f} {tan['sets']}"
    ) in [" ".join(line.split()) for line in lines]
    assert [line.split()[0] for line in lines if re.match(r"\S+ +\d+\.\d{3} ", line)] == [
        "nb_laplace",
        "tan",
        "c45_kang",
    ]
    assert lines[-1].startswith("Per data set: reports/kang2006.md (the paper's tables), or this command once")
    code, out, err = nbx(capsys, "results", "kang2006", "--learner", "tan,c45_kang", "--format", "json")
    records = json.loads(out)
    assert [r["learner"] for r in records] == ["nb_laplace", "tan", "c45_kang"]
    assert records[1] == {"experiment": "kang2006", "learner": "tan", **{k: tan[k] for k in records[1] if k in tan}}
    code, out, err = nbx(capsys, "results", "kang2006", "--learner", "tan", "--format", "csv")
    assert list(csv.DictReader(io.StringIO(out)))[1] == {"experiment": "kang2006", "learner": "tan"} | {
        k: str(v) for k, v in records[1].items() if k in tan
    }
    code, _, err = nbx(capsys, "results", "kang2006", "--dataset", "iris")
    assert code == 1 and err.startswith("nbx: error: --dataset: per-data-set results need data/results/kang2006.csv")


def test_results_per_data_set_as_json_and_csv_hold_the_tables_numbers(capsys, fresh_clone):
    rng = np.random.default_rng(4)
    lines = ["dataset,learner,split,repeat,test_rows,accuracy"]
    for ds in ("iris", "wine"):
        for x in ("nb_laplace", "tan"):
            lines += [f"{ds},{x},{s},0,15,{a:.6f}" for s, a in enumerate(rng.uniform(0.7, 0.95, 10))]
    (fresh_clone / "data" / "results").mkdir(parents=True)
    (fresh_clone / "data" / "results" / "kang2006.csv").write_text("\n".join(lines) + "\n")
    code, out, err = nbx(capsys, "results", "kang2006")
    assert code == 0, err
    cells = {}
    for line in out.splitlines():
        if m := re.fullmatch(r"(\w+) \((\d+)\) +([\d.]+) ± +([\d.]+) +([\d.]+) ± +([\d.]+) ?([v*]?)", line.rstrip()):
            cells[(m[1], "nb_laplace")] = (int(m[2]), float(m[3]), float(m[4]), "")
            cells[(m[1], "tan")] = (int(m[2]), float(m[5]), float(m[6]), m[7])
    assert len(cells) == 4
    code, out, err = nbx(capsys, "results", "kang2006", "--format", "json")
    records = json.loads(out)
    assert [list(r) for r in records] == [
        ["experiment", "dataset", "splits", "learner", "accuracy", "accuracy_std", "mark"]
    ] * 4
    assert {
        (r["dataset"], r["learner"]): (r["splits"], r["accuracy"], r["accuracy_std"], r["mark"]) for r in records
    } == cells
    code, out, err = nbx(capsys, "results", "kang2006", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [{k: str(v) for k, v in r.items()} for r in records] == rows
