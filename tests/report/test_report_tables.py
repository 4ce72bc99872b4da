"""Report building blocks on a hand-made context: marks, win:loss, error reduction, claims rendering."""

import numpy as np
import pytest

from nbx.papers.wiering2003 import evidence as wiering2003
from nbx.report import claims, tables


class FakeContext:
    """Two data sets, per-split accuracies given by hand."""

    def __init__(self, accs: dict, learners):
        self.accs, self.learners = accs, list(learners)
        self.datasets = {p: p.lower() for p in next(iter(accs.values()))}
        self.exp = type("E", (), {"datasets": self.datasets, "name": "fake"})()

    def has(self, *learners):
        return all(x in self.learners for x in learners)

    def split_acc(self, p, x):
        return np.asarray(self.accs[x][p])

    def acc(self, p, x):
        return 100 * float(np.mean(self.accs[x][p]))

    def acc_std(self, p, x):
        return 100 * float(np.std(self.accs[x][p], ddof=1))

    def published_acc(self, p, x):
        return float("nan")


CTX = FakeContext(
    {
        "nb": {"A": [0.80, 0.82, 0.81, 0.79], "B": [0.50, 0.52, 0.48, 0.50]},
        "x": {"A": [0.90, 0.91, 0.92, 0.90], "B": [0.50, 0.53, 0.47, 0.50]},
        "y": {"A": [0.70, 0.71, 0.69, 0.70], "B": [0.60, 0.62, 0.58, 0.60]},
    },
    ["nb", "x", "y"],
)


def test_marks_and_win_loss():
    assert tables.marks(CTX, "x", "nb") == {"A": "++", "B": "="}
    assert tables.marks(CTX, "y", "nb") == {"A": "--", "B": "++"}
    assert tables.win_loss({"A": "++", "B": "-", "C": "=", "D": "+"}) == (2, 1)


def test_error_reduction_is_bauer_kohavi_mean_of_ratios():
    # A: e_nb = 19.5, e_y = 30 -> (19.5 - 30) / 19.5; B: e_nb = 50, e_y = 40 -> 0.2
    expected = 100 * np.mean([(19.5 - 30) / 19.5, (50 - 40) / 50])
    assert tables.error_reduction(CTX, "y", "nb") == pytest.approx(expected)


def test_comparison_table_rows_and_summary():
    lines = tables.comparison_table(CTX, ["nb", "x", "y"], baseline="nb")
    assert lines[0] == "| data set | nb | x | y |"
    assert "| A | 80.5 ± 1.3 | 90.8 ± 1.0 ++ | 70.0 ± 0.8 -- |" in lines
    assert "| **average** | **65.2** | **70.4** | **65.0** |" in lines
    assert any(line.startswith("| significant win:loss vs nb | ref | 1:0 | 1:1 |") for line in lines)


def test_comparison_table_average_over_a_subset():
    """Wiering's Abalone is shown but left out of the average and win:loss rows."""
    lines = tables.comparison_table(CTX, ["nb", "x", "y"], baseline="nb", average_over=["A"])
    assert "| B | 50.0 ± 1.6 | 50.0 ± 2.4 = | 60.0 ± 1.6 ++ |" in lines
    assert "| **average** | **80.5** | **90.8** | **70.0** |" in lines
    assert any(line.startswith("| significant win:loss vs nb | ref | 1:0 | 0:1 |") for line in lines)


def test_wiering_leaves_abalone_out():
    ctx = FakeContext({"nb": {"Abalone": [0.4, 0.41], "Car": [0.8, 0.82]}}, ["nb"])
    assert wiering2003.comparable(ctx) == ["Car"]


def test_claim_texts_come_from_claims_md_and_render():
    texts = claims.claim_texts()
    assert {"W1", "S3", "L7", "K2", "T5"} <= set(texts)
    out = claims.render([claims.Verdict("W2", claims.PARTLY, "numbers"), claims.missing("W3", "hm14")])
    assert "| W2 | **partly reproduced** |" in out
    assert any("`hm14` not in this run" in line for line in out)


def test_wiering_mark_direction():
    assert [wiering2003.direction(m) for m in ("++", "+", "=", "-", "--", "ref")] == [1, 1, 0, -1, -1, 0]
