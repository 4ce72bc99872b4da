"""Wiering (2003) report: the paper-report contract (nbx.report.paper), paper.yaml against the published
Table 2, and the sections and claims on a small hand-built experiment directory."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hand_built import write_results

from nbx.papers.wiering2003 import report as W
from nbx.pipeline import config
from nbx.report import paper
from nbx.report.claims import NOT_TESTABLE, PARTLY, REPRODUCED
from nbx.report.context import ReportContext
from nbx.report.published import folder

REPO = Path(__file__).resolve().parents[2]


def test_module_follows_the_paper_report_contract():
    claims_md = (folder("wiering2003") / "claims.md").read_text()
    ids = re.findall(r"^- ([A-Z]\d+) ", claims_md, re.MULTILINE)
    assert list(W.CLAIMS) == ids == ["W1", "W2", "W3", "W4", "W5", "W6"]
    assert W.SECTIONS.count(paper.CLAIMS_SECTION) == 1
    assert all(callable(s) for s in W.SECTIONS if s != paper.CLAIMS_SECTION)
    data = paper.paper_data("wiering2003")
    named = (
        set(data["learners"] + data["attribute_total"] + data["training_half_classes"])
        | set(data["names"])
        | set(data["mark_columns"])
        | {x for row in ("average_accuracy", "error_reduction", "win_loss") for x in data["printed"][row]}
    )
    learners = config.load_params(REPO / "params.yaml")["experiments"]["wiering2003"]["learners"]
    assert named <= set(learners)
    assert set(data["names"]) == set(data["learners"])
    # every data set paper.yaml names is one of Table 2's
    sets = (
        set(data["not_comparable"]) | set(data["boosting_wins"] + data["boosting_overfits"]) | {data["boosting_stuck"]}
    )
    assert sets <= set(config.load_params(REPO / "params.yaml")["experiments"]["wiering2003"]["datasets"])


def test_printed_summary_matches_the_published_table():
    """paper.yaml's summary rows are Table 2's: averages and error reductions of its columns over all 19 data
    sets up to the printed rounding, and the HMs' win:loss counted from its marks."""
    table = pd.read_csv(folder("wiering2003") / "wiering2003_table2.csv")
    printed = W.PRINTED
    assert len(table) == printed["data_sets"] == 19
    columns = {x: col.replace("_sig", "_acc") for x, col in W.SIG_COLUMNS.items()} | {W.NB: "nbc_acc"}
    for x, value in printed["average_accuracy"].items():
        assert table[columns[x]].mean() == pytest.approx(value, abs=0.05)
    e_nb = 100 - table["nbc_acc"]
    for x, value in printed["error_reduction"].items():
        assert 100 * np.mean((e_nb - (100 - table[columns[x]])) / e_nb) == pytest.approx(value, abs=0.1)
    for x, (wins, losses) in printed["win_loss"].items():
        marks = table[W.SIG_COLUMNS[x]].astype(str)
        assert (marks.str.contains(r"\+").sum(), marks.str.contains("-").sum()) == (wins, losses)


# ------------------------------------------------------------------------------------------ sections
def _experiment(datasets, accuracy, splits):
    """A hand-built wiering2003 directory (cwd) with Table 2's five learners: accuracy(dataset, learner, split)."""
    rows = [
        {"dataset": ds, "learner": x, "split": s, "repeat": s, "test_rows": 10, "accuracy": accuracy(ds, x, s)}
        for ds in datasets.values()
        for x in W.LEARNERS
        for s in range(splits)
    ]
    write_results("wiering2003", rows, splits)
    published = config.load_params(REPO / "params.yaml")["experiments"]["wiering2003"]["published"]
    return {
        "seed": 0,
        "learners": {x: {"class": "NaiveBayes"} for x in W.LEARNERS},
        "experiments": {
            "wiering2003": {
                "datasets": datasets,
                "protocol": {"kind": "holdout", "repeats": splits, "test_fraction": 0.5},
                "discretizer": {"kind": "stddev"},
                "impute": None,
                "learners": W.LEARNERS,
                "published": published,
            }
        },
    }


def test_sections_and_claims_on_a_hand_built_experiment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    datasets = {"Abalone": "abalone", "Car": "car", "Vote": "vote"}
    # the HMs gain 5 points and boosting 4 on Car and Vote, bagging loses 5 everywhere; split noise differs
    # per learner so that every paired t-test has a spread
    gain = {W.NB: 0.0, W.HM14: 0.05, W.HM22: 0.05, W.BAG: -0.05, W.BOOST: 0.04}

    def accuracy(ds, x, s):
        k = W.LEARNERS.index(x)
        return 0.7 + (gain[x] if ds != "abalone" or x == W.BAG else 0.0) + 0.002 * ((s * (k + 1)) % 5)

    ctx = ReportContext.load(_experiment(datasets, accuracy, 10), "wiering2003")
    text = "\n".join(paper.render(W, ctx))
    claim_rows = re.findall(r"^\| (W\d) \| \*\*(.*)\*\* \|$", text, re.MULTILINE)
    assert claim_rows == [
        ("W1", NOT_TESTABLE),
        ("W2", REPRODUCED),
        ("W3", PARTLY),
        ("W4", REPRODUCED),
        ("W5", REPRODUCED),
        ("W6", NOT_TESTABLE),
    ]
    # W2: 2:0 for both HMs over Car and Vote, as the paper's marks there; its printed 8:2 counts Abalone in
    assert "paper on the same data sets 2:0 and 2:0; 8:2 and 8:2 with Abalone)" in text
    # W3: the order holds, but our 70 % are far from the paper's 87-94 % on Car and Vote
    assert "printed over all 19: 76.8, 78.1, 78.3, 76.7, 77.5)" in text
    assert "printed over all 19: 6.7, 6.6, -1.5, 3.2)" in text
    assert "both HMs beat NBC too on 2 of them (paper: Car, Chess, Vote)." in text
    assert "Breast Cancer, Hepatitis and Spam were not run." in text
    assert "run `dvc repro analyse@wiering2003`." in text
    # Abalone is shown, marked not comparable, and left out of the averages of Table 2
    assert "**Not comparable: Abalone** — the paper's Table 1 lists 9 features" in text
    # (the HMs' 75.4 is Car and Vote's; with Abalone it would be 73.7; the paper's NBC 87.7 = (84.8 + 90.6) / 2)
    assert (
        "| **average** | **70.4** | 87.7 | **75.4** | 91.1 | **75.4** | 90.8 | **65.4** | 86.8 | **74.0** | 92.0 |"
        in text
    )
    assert "| average accuracy, all 3 (with Abalone) | 70.4 / 81.3 | 73.7 / 84.6 |" in text
    # the mark table beside the paper's: bagging's -- on Vote is the one cell against the paper's =
    assert "| Abalone (not comparable) | = / ++ | = / ++ | -- / = | -- / = |" in text
    assert "Same direction of significance in 7 of 8 cells of the comparable data sets." in text
    # the marks vs NBC are computed once and shared by the sections and the claims
    assert {(W.our_marks,), (W.published_marks,)} <= set(ctx._memo)
    assert ctx._memo[(W.our_marks,)][W.HM14] == {"Abalone": "=", "Car": "++", "Vote": "++"}
