"""Kohavi-Wolpert decomposition (Ting & Zheng eq. 5) and the §6 linear form of boosted naive Bayes."""

import numpy as np
import pytest

from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.naive_bayes import NaiveBayes
from nbx.stats.bias_variance import (
    boosted_nb_linear_form,
    kohavi_wolpert,
    linear_form_score,
    nb_linear_form,
)


# ------------------------------------------------------------------------------ Kohavi-Wolpert
def test_hand_computed_example():
    y = np.array([0, 2])
    preds = np.array([[0, 2], [0, 2], [1, 2], [2, 2]])  # case 0: P_H = (.5, .25, .25); case 1: always right
    bv = kohavi_wolpert(y, preds, n_classes=3)
    # case 0: bias2 = 1/2 (.5^2 + .25^2 + .25^2) = .1875, variance = 1/2 (1 - .375) = .3125, error = .5
    np.testing.assert_allclose(bv.case_bias2, [0.1875, 0.0])
    np.testing.assert_allclose(bv.case_variance, [0.3125, 0.0])
    np.testing.assert_allclose(bv.case_error, [0.5, 0.0])
    assert (bv.error, bv.bias2, bv.variance, bv.n_cases) == pytest.approx((0.25, 0.09375, 0.15625, 2))


def test_identity_and_error_on_random_predictions_with_gaps():
    rng = np.random.default_rng(0)
    r, n, k = 10, 500, 4
    y = rng.integers(0, k, n)
    preds = np.where(rng.random((r, n)) < 0.6, y, rng.integers(0, k, (r, n))).astype(float)
    preds[rng.random((r, n)) < 0.1] = np.nan  # not predicted in some repetitions
    preds[:, :3] = np.nan  # never predicted: excluded
    bv = kohavi_wolpert(y, preds, k)
    np.testing.assert_allclose(bv.case_error[3:], bv.case_bias2[3:] + bv.case_variance[3:], atol=1e-12)
    assert bv.error == pytest.approx(bv.bias2 + bv.variance, abs=1e-12)
    assert bv.n_cases == n - 3 and np.all(np.isnan(bv.case_error[:3]))
    # error is the plain zero-one loss averaged per case over the repetitions that predicted it
    hit = np.where(np.isnan(preds), np.nan, preds != y)
    assert bv.error == pytest.approx(np.nanmean(np.nanmean(hit[:, 3:], axis=0)), abs=1e-12)
    # variance by its definition, brute force for one case
    j = 10
    seen = preds[~np.isnan(preds[:, j]), j]
    p = np.array([np.mean(seen == c) for c in range(k)])
    assert bv.case_variance[j] == pytest.approx(0.5 * (1 - (p**2).sum()))
    assert bv.case_bias2[j] == pytest.approx(0.5 * ((np.eye(k)[y[j]] - p) ** 2).sum())


def test_stable_learner_has_no_variance():
    y = np.array([0, 1, 1, 0])
    preds = np.tile([0, 0, 1, 1], (5, 1))  # same prediction in every repetition
    bv = kohavi_wolpert(y, preds, 2)
    assert bv.variance == 0.0 and bv.bias2 == bv.error == 0.5


def test_minus_one_means_not_predicted():
    y = np.array([1, 0])
    bv = kohavi_wolpert(y, np.array([[1, 0], [-1, 1]]), 2)  # case 0 predicted once (right)
    np.testing.assert_array_equal(bv.case_error, [0.0, 0.5])
    np.testing.assert_array_equal(bv.case_variance, [0.0, 0.25])


@pytest.mark.parametrize(
    "y, preds, match",
    [
        (np.array([0, 3]), np.zeros((2, 2), int), "y_true"),
        (np.array([0, 1]), np.array([[0, 5], [0, 1]]), "n_classes"),
        (np.array([0, 1]), np.zeros((2, 3), int), "columns"),
        (np.array([0, 1]), np.zeros(2, int), "shape"),
        (np.array([0, 1]), np.array([[0.5, 1.0]]), "class codes"),
    ],
)
def test_bad_input(y, preds, match):
    with pytest.raises(ValueError, match=match):
        kohavi_wolpert(y, preds, 2)


# --------------------------------------------------------------------- §6 linear form (claim T5)
def _data(n=300, k=2, seed=0):
    rng = np.random.default_rng(seed)
    nv = np.array([2, 3, 4, 2, 3])
    X = (rng.random((n, len(nv))) * nv).astype(np.int64)
    y = (X[:, 0] + (X[:, 1] == X[:, 2]) + (rng.random(n) < 0.2)) % k
    X[rng.random(X.shape) < 0.05] = -1
    return X, y, nv


def _weighted_models(make, X, y, nv, t=6, seed=1):
    rng = np.random.default_rng(seed)
    models = [make().fit(X, y, sample_weight=rng.exponential(1.0, len(y)), n_values=nv) for _ in range(t)]
    return models, rng.uniform(0.1, 2.0, t)


def _one_hot(X, nv):
    """Indicator features [x_j = v] for every attribute value (missing: all zero)."""
    offsets = np.concatenate([[0], np.cumsum(nv)[:-1]])
    phi = np.zeros((X.shape[0], nv.sum()))
    rows, cols = np.nonzero(X >= 0)
    phi[rows, offsets[cols] + X[rows, cols]] = 1.0
    return phi


def test_boosted_nb_log_odds_is_one_linear_function():
    X, y, nv = _data()
    models, alphas = _weighted_models(lambda: NaiveBayes(prior="m_estimate"), X, y, nv)
    # eq. (6): H(v) = Σ_t α_t log P_t(1|v) / P_t(0|v), from each model's own posteriors
    H = sum(a * (m.predict_log_proba(X)[:, 1] - m.predict_log_proba(X)[:, 0]) for m, a in zip(models, alphas))
    intercept, table, index = nb_linear_form(models, alphas)
    score = linear_form_score(intercept, table, index, X)
    np.testing.assert_allclose(score[:, 1] - score[:, 0], H, rtol=1e-10, atol=1e-10)
    # eq. (7): the same numbers as b + Σ_i w_{i, v_i} on explicit indicator features
    b = intercept[1] - intercept[0]
    w = table[:-1, 1] - table[:-1, 0]
    np.testing.assert_allclose(b + _one_hot(X, nv) @ w, H, rtol=1e-10, atol=1e-10)
    # and w is the α-weighted sum of each NB's per-attribute log-likelihood ratios
    w_ref = sum(a * (m.log_table_[:-1, 1] - m.log_table_[:-1, 0]) for m, a in zip(models, alphas))
    np.testing.assert_allclose(w, w_ref)


def test_multiclass_scores_differ_from_weighted_log_posteriors_by_a_class_constant():
    X, y, nv = _data(k=3, seed=2)
    models, alphas = _weighted_models(lambda: NaiveBayes(prior="m_estimate"), X, y, nv, seed=3)
    real = sum(a * m.predict_log_proba(X) for m, a in zip(models, alphas))
    score = linear_form_score(*nb_linear_form(models, alphas), X)
    gap = real - score
    np.testing.assert_allclose(gap, gap[:, :1].repeat(3, axis=1), atol=1e-9)


def test_trees_break_the_linear_form():
    """A least-squares fit on indicator features reproduces the NB vote exactly but not the LNBT vote."""
    X, y, nv = _data(n=400, seed=4)
    phi = np.column_stack([np.ones(len(y)), _one_hot(X, nv)])

    def residual(make):
        models, alphas = _weighted_models(make, X, y, nv, seed=5)
        H = sum(a * np.diff(m.predict_log_proba(X), axis=1)[:, 0] for m, a in zip(models, alphas))
        coef = np.linalg.lstsq(phi, H, rcond=None)[0]
        return np.abs(phi @ coef - H).max()

    assert residual(lambda: NaiveBayes(prior="m_estimate")) < 1e-8
    assert residual(lambda: LeveledNBTree(max_depth=2)) > 1e-2


def test_linear_form_input_checks():
    X, y, nv = _data()
    models, alphas = _weighted_models(lambda: NaiveBayes(prior="m_estimate"), X, y, nv, t=2)
    with pytest.raises(ValueError, match="alpha"):
        nb_linear_form(models, alphas[:1])
    tree = LeveledNBTree(max_depth=1).fit(X, y, n_values=nv)
    with pytest.raises(ValueError):
        nb_linear_form([models[0], tree], alphas)


def test_boosted_nb_linear_form_on_adaboost_if_available():
    ens = pytest.importorskip("nbx.models.ensembles")
    X, y, nv = _data(seed=6)
    boost = ens.AdaBoostM1(base=NaiveBayes(prior="m_estimate"), n_estimators=10, random_state=0)
    boost.fit(X, y, n_values=nv)
    intercept, table, index = boosted_nb_linear_form(boost)
    H = sum(
        a * (m.predict_log_proba(X)[:, 1] - m.predict_log_proba(X)[:, 0])
        for m, a in zip(boost.estimators_, boost.estimator_weights_)
    )
    score = linear_form_score(intercept, table, index, X)
    np.testing.assert_allclose(score[:, 1] - score[:, 0], H, rtol=1e-9, atol=1e-9)
