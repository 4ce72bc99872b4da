"""The agreement section of a report: mean |ours - published| leaves out the paper module's NOT_COMPARABLE data sets
(the plot keeps them) and speaks of error points when every published table gives errors."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from nbx.report.experiment_report import agreement_section


def _ctx(metric):
    ours = {"A": 80.0, "B": 70.0, "C": 60.0}
    published = {"A": 78.0, "B": 71.0, "C": 40.0}  # |diff| 2, 1, 20
    return SimpleNamespace(
        datasets={"A": "a", "B": "b", "C": "c"},
        learners=["nb"],
        exp=SimpleNamespace(name="demo", published=[{"table": "t.csv", "metric": metric}]),
        acc=lambda p, x: ours[p],
        published_acc=lambda p, x: published[p],
    )


@pytest.mark.parametrize(("metric", "unit"), [("accuracy_pct", "accuracy"), ("error_pct", "error")])
def test_not_comparable_sets_are_left_out_of_the_mean(tmp_path, monkeypatch, metric, unit):
    monkeypatch.chdir(tmp_path)
    module = SimpleNamespace(NOT_COMPARABLE={"C": "the paper's features differ"})
    out = agreement_section(_ctx(metric), module)
    assert "Not comparable, left out of the means (shown in the plots): C (see above)." in out
    assert f"- `nb`: mean |ours − published| = **1.50** {unit} points over 2 data sets." in out
    assert (tmp_path / "reports" / "figures" / "demo" / "nb_vs_published.png").stat().st_size > 1000
    # a paper module without NOT_COMPARABLE: every data set counts, (2 + 1 + 20) / 3
    out = agreement_section(_ctx(metric), SimpleNamespace())
    assert f"- `nb`: mean |ours − published| = **7.67** {unit} points over 3 data sets." in out


def _cells_ctx():
    """Two published columns; the second is held by two readings of which `alt` is listed second."""
    ours = {("A", "nb"): 80.0, ("B", "nb"): 70.0, ("C", "nb"): 60.0, ("D", "nb"): 50.0}
    ours |= {("A", "tree"): 75.0, ("B", "tree"): 60.0, ("C", "tree"): 61.0, ("D", "tree"): 52.0}
    ours |= {(p, "alt"): 0.0 for p in "ABCD"}
    std = {"A": 1.0, "B": 5.0, "C": 1.0, "D": 1.0}
    published = {
        "nb": {"A": 78.0, "B": 79.0, "C": 40.0, "D": 50.0},
        "tree": {"A": 75.0, "B": 71.0, "C": 61.0, "D": 62.0},
    }
    published["alt"] = published["tree"]
    spec = {
        "table": "t.csv",
        "metric": "accuracy_pct",
        "columns": {"nb": "nb_acc", "tree": "tree_acc", "alt": "tree_acc"},
    }
    return SimpleNamespace(
        datasets=dict.fromkeys("ABCD", "x"),
        learners=["nb", "tree", "alt"],
        exp=SimpleNamespace(name="demo", published=[spec]),
        acc=lambda p, x: ours[(p, x)],
        acc_std=lambda p, x: std[p],
        published_acc=lambda p, x: published[x][p],
    )


def test_published_cells_are_counted_once_beside_their_default_reading():
    from nbx.report.experiment_report import default_readings, published_cells

    ctx = _cells_ctx()
    assert default_readings(ctx.exp.published) == {"t.csv:nb_acc": "nb", "t.csv:tree_acc": "tree"}
    cells = published_cells(ctx, list("ABCD"))
    assert [(c.dataset, c.learner) for c in cells] == [(p, x) for x in ("nb", "tree") for p in "ABCD"]
    # |gap| nb: 2, 9 (std 5: tolerance 10), 20, 0; tree: 0, 11 (tolerance 10), 0, 10 (tolerance 3)
    assert [c.agrees for c in cells] == [True, True, False, True, True, False, True, False]


def test_the_three_largest_gaps_carry_the_papers_measured_cause(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = SimpleNamespace(GAPS={"C": lambda ctx: ["Measured: the paper's C has other classes."]})
    out = agreement_section(_cells_ctx(), module)
    assert "**5 of 8** published numbers" in " ".join(out)
    gaps = [line for line in out if line.startswith("- **")]
    # data sets by their largest |gap|: C (20), B (11), D (10); A (2) is not listed
    assert [line.split("**")[1] for line in gaps] == ["C", "B", "D"]
    assert gaps[1] == "- **B**: `tree` 60.0 ± 5.0 vs *pub.* 71.0 (-11.0 accuracy points)."
    assert out[out.index(gaps[0]) + 1] == "  Measured: the paper's C has other classes."
    assert out[out.index(gaps[1]) + 1] == "  Unexplained: this report has no measured cause for it."


def test_std_agrees_is_the_f_test_with_the_printed_rounding():
    """Two stds over 50 splits agree when the F-test of equal variances does not reject at 5% (ratio of variances
    within about 0.57-1.76 for 49 df each); the printed rounding widens the paper's value."""
    from nbx.report.experiment_report import std_agrees

    assert std_agrees(1.0, 1.0, 50, 0.0)
    assert std_agrees(1.3, 1.0, 50, 0.0)  # variance ratio 1.69 < 1.76
    assert not std_agrees(1.4, 1.0, 50, 0.0)  # 1.96 > 1.76
    assert std_agrees(1.4, 1.0, 50, 0.1)  # the paper's 1.0 may be 1.1: 1.62
    assert not std_agrees(0.5, 1.0, 50, 0.05)
    assert std_agrees(1.9, 1.0, 10, 0.0)  # 9 df each: the F range is wider (ratio of variances up to 4.03)


def test_tally_lines_sum_every_row():
    from nbx.report.experiment_report import Tally, tally_lines

    lines = tally_lines([Tally("T1", "a", 10, 8, 6, "exact"), Tally("T1", "b", 4, 0, 0, "not compared here", "why")])
    assert lines[0].startswith("Every number the paper publishes, per table: 14 published, 8 compared")
    assert "**6 of 8**" in lines[0]
    assert "| T1 | b | 4 | 0 | 0 | not compared here; why |" in lines
