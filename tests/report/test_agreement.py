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
