"""Probability metrics: a hand-computed example, per-split equals per-subset, and scikit-learn agreement."""

import numpy as np
import pytest

from nbx.protocol import scoring

# 3 classes; row 3 ties classes 0 and 1 (argmax picks 0); row 4's true class has probability 0
P = np.array([[0.70, 0.20, 0.10], [0.20, 0.50, 0.30], [0.50, 0.50, 0.00], [0.65, 0.35, 0.00]])
Y = np.array([0, 2, 1, 2])


def test_hand_computed_example():
    assert scoring.accuracy(P, Y)[0] == pytest.approx(0.25)
    # -(ln .7 + ln .3 + ln .5 + ln eps) / 4, eps = 2.220446e-16
    assert scoring.log_loss(P, Y)[0] == pytest.approx((0.356675 + 1.203973 + 0.693147 + 36.043653) / 4, abs=1e-6)
    # rows: .09+.04+.01, .04+.25+.49, .25+.25, .4225+.1225+1
    assert scoring.brier(P, Y)[0] == pytest.approx(2.965 / 4)
    # 15 bins: conf .7 (bin 10, hit), .5 and .5 (bin 7, misses), .65 (bin 9, miss): (.3 + 1 + .65) / 4
    assert scoring.ece(P, Y)[0] == pytest.approx(1.95 / 4)
    assert scoring.ece(P, Y, n_bins=1)[0] == pytest.approx(abs(1 - 2.35) / 4)
    # one-vs-rest AUC: class 0 = 1; class 1: .5 vs (.2, .5, .35) = 2.5/3; class 2: (.3, 0) vs (.1, 0) = 2.5/4
    assert scoring.macro_auc(P, Y)[0] == pytest.approx((1 + 2.5 / 3 + 2.5 / 4) / 3)


def test_reliability_bins_are_the_ece_bins_by_hand():
    # the rows of the hand-computed example: bin 10 = (10/15, 11/15] holds .7 (hit), bin 9 = (.6, 2/3] holds .65
    # (miss), bin 7 = (7/15, 8/15] holds .5 and .5 (misses); every other bin is empty
    r = scoring.reliability_bins(P, Y)
    assert r.shape == (3, 15)
    expected = np.zeros((3, 15))
    expected[:, 10] = [1, 0.7, 1]
    expected[:, 9] = [1, 0.65, 0]
    expected[:, 7] = [2, 1.0, 0]
    np.testing.assert_allclose(r, expected)
    assert np.abs(r[2] - r[1]).sum() / r[0].sum() == pytest.approx(scoring.ece(P, Y)[0])
    # the upper edge belongs to its bin: 1/3 is in bin 4 = (4/15, 5/15], 1 in bin 14, 0 in bin 0
    conf, hit, bins = scoring.top_label_bins([[1 / 3, 1 / 3, 1 / 3], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [2, 0, 1])
    np.testing.assert_array_equal(bins, [4, 14, 0])
    np.testing.assert_array_equal(hit, [0.0, 1.0, 0.0])  # ties go to the lowest class index
    # weights scale each row's share: the rows of bin 7 weigh 2 and 3
    w = scoring.reliability_bins(P, Y, weight=[1, 2, 3, 1])
    np.testing.assert_allclose(w[:, 7], [5, 2.5, 0])


def test_reliability_bins_give_the_ece_on_random_predictions():
    rng = np.random.default_rng(1)
    proba, y, _ = _random_predictions(rng, 500, 3, 1)
    for n_bins in (1, 10, 15):
        r = scoring.reliability_bins(proba, y, n_bins)
        assert r[0].sum() == 500
        assert np.abs(r[2] - r[1]).sum() / 500 == pytest.approx(scoring.ece(proba, y, n_bins=n_bins)[0], abs=1e-12)


def test_absent_class_is_skipped_and_single_class_split_is_nan():
    # class 1 never occurs: the macro AUC averages class 0 (.7 vs .2, .65: 1) and class 2 (.3, 0 vs .1: 1/2)
    p, y = P[[0, 1, 3]], Y[[0, 1, 3]]
    assert scoring.macro_auc(p, y)[0] == pytest.approx((1 + 0.5) / 2)
    assert np.isnan(scoring.macro_auc(P[:1], Y[:1])[0])


def _random_predictions(rng, n, k, n_splits):
    """Scores on a 0.01 grid (many ties); the last column makes each row sum to 1."""
    proba = np.floor(rng.dirichlet(np.ones(k), n) * 100) / 100
    proba[:, -1] = 1 - proba[:, :-1].sum(axis=1)
    return proba, rng.integers(0, k, n), rng.integers(0, n_splits, n)


def test_per_split_equals_each_subset_alone():
    rng = np.random.default_rng(0)
    proba, y, split = _random_predictions(rng, 400, 4, 5)
    row = rng.permutation(400)
    labels = np.empty(400, np.int64)
    labels[row] = y  # stored rows point into the data set's labels
    out = scoring.split_scores(proba.astype(np.float32), split, row, labels, 5)
    assert set(out) == set(scoring.METRICS)
    p32 = proba.astype(np.float32).astype(np.float64)
    first_max = np.array([min(np.flatnonzero(r == r.max())) for r in p32])  # ties go to the lowest class index
    np.testing.assert_array_equal(
        out["accuracy"], [np.sum(first_max[split == s] == y[split == s]) / np.sum(split == s) for s in range(5)]
    )
    for s in range(5):
        m = split == s
        for name, fn in [
            ("accuracy", scoring.accuracy),
            ("log_loss", scoring.log_loss),
            ("brier", scoring.brier),
            ("ece", scoring.ece),
            ("auc", scoring.macro_auc),
        ]:
            assert out[name][s] == pytest.approx(fn(p32[m], y[m])[0], rel=1e-12), name


@pytest.mark.parametrize("n_splits", [1, 7, 300])
def test_macro_auc_is_the_rank_formula_per_split_and_class_to_the_bit(n_splits):
    """Against scipy's average ranks per (split, class) and the same formula: many tied scores (rounded, as float32
    probabilities are), classes absent from some splits, and more (split, class) groups than a byte holds."""
    from scipy.stats import rankdata

    rng = np.random.default_rng(n_splits)
    n, k = 3000, 5
    proba = np.round(rng.dirichlet(np.ones(k), size=n), 2).astype(np.float32).astype(np.float64)
    y, split = rng.integers(0, k - 1, n), rng.integers(0, n_splits, n)  # class k-1 is never the true one
    expected = []
    for s in range(n_splits):
        p, t = proba[split == s], y[split == s]
        aucs = []
        for c in range(k):
            n_pos = float(np.sum(t == c))
            n_neg = len(t) - n_pos
            if n_pos and n_neg:
                rank_sum = rankdata(p[:, c])[t == c].sum()
                aucs.append((rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
        expected.append(np.sum(aucs) / len(aucs) if aucs else np.nan)
    np.testing.assert_array_equal(scoring.macro_auc(proba, y, split, n_splits), expected)


def test_empty_split_is_an_error():
    with pytest.raises(ValueError):
        scoring.accuracy(P, Y, np.array([0, 0, 2, 2]), 3)


def test_agrees_with_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(1)
    for k in (2, 3, 5):
        proba, y, _ = _random_predictions(rng, 300, k, 1)
        labels = list(range(k))
        assert scoring.accuracy(proba, y)[0] == pytest.approx(metrics.accuracy_score(y, proba.argmax(1)))
        assert scoring.log_loss(proba, y)[0] == pytest.approx(metrics.log_loss(y, proba, labels=labels))
        auc = (
            metrics.roc_auc_score(y, proba[:, 1])
            if k == 2
            else metrics.roc_auc_score(y, proba, multi_class="ovr", average="macro", labels=labels)
        )
        assert scoring.macro_auc(proba, y)[0] == pytest.approx(auc, abs=1e-12)
        half = (
            metrics.brier_score_loss(y, proba[:, 1]) * 2
            if k == 2
            else metrics.brier_score_loss(y, proba, labels=labels, scale_by_half=False)
        )
        assert scoring.brier(proba, y)[0] == pytest.approx(half)
    # a column of zeros (class never seen in training) that is the true class: both clip at float64 eps
    assert scoring.log_loss(P, Y)[0] == pytest.approx(metrics.log_loss(Y, P, labels=[0, 1, 2]))
