"""Per-learner summaries of evaluate@<experiment> when a learner ran on some data sets only (``limited``)."""

import numpy as np
import pytest

from nbx.pipeline.evaluate import PROBABILITY_SCORES, learner_summaries


def test_a_limited_learner_is_summarized_over_its_data_sets_and_leaves_the_others_unchanged():
    acc = {
        "d1": {"A": [0.8, 0.7], "B": [0.9, 0.95], "L": [0.7, 0.6]},
        "d2": {"A": [0.6, 0.65], "B": [0.5, 0.45], "L": [0.9, 0.85]},
        "d3": {"A": [0.5, 0.55], "B": [0.7, 0.75]},
    }  # L did not run on d3
    split_acc = {ds: {x: np.array(v) for x, v in row.items()} for ds, row in acc.items()}
    scores = {ds: {x: {name: np.ones(2) for name in PROBABILITY_SCORES} for x in row} for ds, row in acc.items()}
    fraction = dict.fromkeys(acc, 0.5)
    out = learner_summaries(["A", "B", "L"], "A", split_acc, fraction, scores)
    # A and B ran everywhere: ranked between themselves over d1-d3 (d1: B, A; d2: A, B; d3: B, A)
    assert out["A"]["rank"] == pytest.approx(5 / 3, abs=1e-3) and out["B"]["rank"] == pytest.approx(4 / 3, abs=1e-3)
    assert out["A"]["acc"] == pytest.approx((75 + 62.5 + 52.5) / 3, abs=1e-3) and out["A"]["sets"] == 3
    # L: over d1 and d2 only, ranked among all three there (d1: B, A, L; d2: L, A, B)
    assert (
        out["L"]["rank"] == pytest.approx(2.0)
        and out["L"]["acc"] == pytest.approx((65 + 87.5) / 2)
        and out["L"]["sets"] == 2
    )
    assert out["L"]["wins"] + out["L"]["ties"] + out["L"]["losses"] == 2
    # the same as an experiment without L
    alone = learner_summaries(
        ["A", "B"],
        "A",
        {ds: {x: v for x, v in row.items() if x != "L"} for ds, row in split_acc.items()},
        fraction,
        scores,
    )
    assert alone == {x: out[x] for x in ("A", "B")}
