"""ReportContext's per-split accuracies: the one-pass index gives what filtering the whole splits table gives."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from nbx.report.context import ReportContext


def _filtered(splits: pd.DataFrame, dataset: str, learner: str) -> np.ndarray:
    rows = splits[(splits["dataset"] == dataset) & (splits["learner"] == learner)]
    return rows.sort_values("split")["accuracy"].to_numpy()


def test_split_accuracies_equal_the_table_filtered_for_each_pair():
    rng = np.random.default_rng(0)
    cells = [(ds, x, s) for ds in ("iris", "zoo", "vote") for x in ("nb", "tan") for s in range(7)]
    cells = [c for c in cells if c[:2] != ("vote", "tan")]  # a learner that did not run on a data set
    order = rng.permutation(len(cells))  # the table in no particular order
    splits = pd.DataFrame(
        {
            "dataset": pd.array([cells[i][0] for i in order], dtype="string"),
            "learner": [cells[i][1] for i in order],
            "split": [cells[i][2] for i in order],
            "accuracy": rng.random(len(cells)),
        }
    )
    exp = SimpleNamespace(datasets={"Iris": "iris", "Zoo": "zoo", "Vote": "vote"}, learners=["nb", "tan"])
    ctx = ReportContext({}, exp)
    ctx.__dict__["splits"] = splits
    for paper, ds in exp.datasets.items():
        for learner in exp.learners:
            got, want = ctx.split_acc(paper, learner), _filtered(splits, ds, learner)
            assert got.dtype == want.dtype and np.array_equal(got, want)
    assert ctx.split_acc("Vote", "tan").size == 0 and ctx.shown == {"nb", "tan"}
    assert not ctx.split_acc("Iris", "nb").flags.writeable  # shared between calls, so no caller can change it
