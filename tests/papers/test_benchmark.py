"""The cross-paper benchmark's report: it follows the paper contract with no claims (it is beyond the papers), and
its sections on a hand-built experiment where one learner is best on every data set and metric."""

import json

import numpy as np
import pandas as pd
from hand_built import write_plans

from nbx.papers.benchmark import report as benchmark
from nbx.pipeline import layout
from nbx.protocol.table import Table
from nbx.report import paper
from nbx.report.context import ReportContext
from nbx.report.paper import CLAIMS_SECTION
from nbx.report.published import folder


def test_contract_without_claims():
    assert benchmark.CLAIMS == {}
    assert CLAIMS_SECTION not in benchmark.SECTIONS and all(callable(s) for s in benchmark.SECTIONS)
    assert {p.name for p in folder("benchmark").iterdir()} <= {"README.md", "paper.yaml"}


BASE = {"good": 0.9, "mid": 0.8, "bad": 0.7, "lim": 0.95}  # accuracy of each learner on every data set
SHAPES = {"d40": (40, 2, 0), "d50": (50, 2, 0), "d60": (60, 3, 3), "d70": (70, 3, 4)}  # rows, classes, numeric of 4
FOLDS = 5


def _accuracy(learner: str, split: int) -> float:
    """BASE with a split-to-split wobble of at most 0.02 that differs between learners (no constant gaps)."""
    return BASE[learner] + 0.01 * ((split * (list(BASE).index(learner) + 1)) % 3)


def _benchmark(root) -> dict:
    """A hand-built benchmark: prepared tables of SHAPES, stored predictions, per-split results of every metric (all
    of them ordering the learners as BASE does), and a params block where `lim` runs on the data sets of at most 50
    rows."""
    rng = np.random.default_rng(0)
    layout.prepared("benchmark").mkdir(parents=True)
    for ds, (n, k, numeric) in SHAPES.items():
        attrs = [
            {
                "name": f"a{j}",
                "kind": "numeric" if j < numeric else "nominal",
                "values": [] if j < numeric else ["x", "y"],
            }
            for j in range(4)
        ]
        Table(ds, rng.integers(0, 2, (n, 4)).astype(float), np.arange(n) % k, attrs, [str(c) for c in range(k)]).save(
            layout.prepared("benchmark", ds)
        )
        y = np.arange(n) % k
        for x in BASE:  # stored predictions: the label's probability .7 on every row (bin 10 of the ECE's 15), hit
            if x != "lim" or n <= 50:
                proba = np.full((n, k), 0.3 / (k - 1), np.float32)
                proba[np.arange(n), y] = 0.7
                layout.predictions("benchmark", x).mkdir(parents=True, exist_ok=True)
                split = (np.arange(n) % FOLDS).astype(np.int32)
                np.savez(
                    layout.predictions("benchmark", x, ds), proba=proba, split=split, row=np.arange(n, dtype=np.int32)
                )
    layout.availability("benchmark").write_text(json.dumps({ds: {"available": True, "reason": ""} for ds in SHAPES}))
    rows = [
        {
            "dataset": ds,
            "learner": x,
            "split": s,
            "repeat": 0,
            "test_rows": SHAPES[ds][0] // FOLDS,
            "accuracy": a,
            "log_loss": 1 - a,
            "brier": (1 - a) / 2,
            "ece": (1 - a) / 10,
            "auc": a,
        }
        for ds in SHAPES
        for x in BASE
        for s in range(FOLDS)
        if x != "lim" or SHAPES[ds][0] <= 50
        for a in [_accuracy(x, s)]
    ]
    layout.RESULTS.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(layout.results("benchmark"), index=False)
    write_plans("benchmark", pd.DataFrame(rows), test_fraction=1 / FOLDS)
    block = {
        "datasets": list(SHAPES),
        "protocol": {"kind": "cv", "folds": FOLDS, "repeats": 1},
        "discretizer": {"kind": "mdl"},
        "impute": "mode",
        "learners": list(BASE),
        "reference": "mid",
        "limited": {"learners": ["lim"], "max_rows": 50},
    }
    return {"seed": 0, "learners": {x: {"class": "NaiveBayes"} for x in BASE}, "experiments": {"benchmark": block}}


def test_sections_on_a_hand_built_benchmark(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = "\n".join(paper.render(benchmark, ReportContext.load(_benchmark(tmp_path), "benchmark")))
    assert text.startswith("3 learners on 4 data sets (40–70 rows, 2–3 classes)")
    assert "`lim` run on the smaller data sets only" in text and "Protocol: 1 x 5-fold CV" in text
    # ranks 1, 2, 3 on every data set (N = 4, k = 3): Friedman chi2 = 12 N / (k (k + 1)) (sum R^2 - k (k + 1)^2 / 4)
    # = 8, p = exp(-8 / 2); Nemenyi CD = q_0.05 sqrt(k (k + 1) / (6 N)) = 2.343 sqrt(1 / 2)
    assert text.count("| `good` | 1.00 |") == 1 and "| `bad` | 3.00 |" in text
    assert "- accuracy (%): 4 data sets, Friedman χ² = 8.0 (p = 0.018)" in text
    assert "accuracy (%): CD = 1.66; groups: {good, mid}; {mid, bad}." in text
    # Wilcoxon over 4 data sets all won: exact two-sided p = 2 / 2**4, Holm over 3 pairs with equal p: 3 x 0.125
    assert "| `good` | `mid` | +9.80 | 0.125 | 0.375 | no |" in text
    # good is significantly more accurate than mid and bad on all 4 data sets; bad loses everywhere
    assert "| `good` | · | 4–0 | 4–0 |" in text and "| `bad` | 0–4 | 0–4 | · |" in text
    assert "- < 500 rows (4 data sets): best mean ranks `good` (1.0), `mid` (2.0), `bad` (3.0)." in text
    assert "- no numeric attributes (2 data sets)" in text and "- mostly numeric (> 50%) (2 data sets)" in text
    assert "| d40 | 90.8 v | 81.0 | 70.0 * |" in text  # mean of _accuracy over the folds, marks vs mid
    # the last section ranks all four over the two data sets lim ran on, lim first
    assert "## All 4 learners on the 2 data sets within the size limits" in text and "at most 50 rows" in text
    assert "| `lim` | 1.00 |" in text
    assert "## Published claims" not in text
    # the figures beside the tables, and the reliability diagrams from the stored predictions
    assert "## Reliability diagrams" in text
    for name in ("win_loss", "bayes_pairs", "rank_by_group", "reliability"):
        assert f"(figures/benchmark/{name}.png)" in text
        assert (tmp_path / "reports" / "figures" / "benchmark" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"


def test_reliability_sums_weigh_each_data_set_the_same(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ctx = ReportContext.load(_benchmark(tmp_path), "benchmark")
    sums = benchmark.reliability_sums(ctx.view(learners=["good"]), "good")
    expected = np.zeros((3, 15))
    expected[:, 10] = [4, 4 * 0.7, 4]  # 4 data sets of weight 1 each, top probability .7, every row a hit
    np.testing.assert_allclose(sums, expected, rtol=1e-6)
