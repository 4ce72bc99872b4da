"""A row of weight 0 is an absent row, for every learner and discretizer (nbx.core.validation.drop_absent_rows):
fitting with some zero weights equals fitting on those rows removed, a class whose rows all weigh 0 is not in
``classes_``, a code seen only in rows of weight 0 is not in the inferred ``n_values_``, and fitting with
integer weights equals fitting on the rows repeated that often (scikit-learn's
``check_sample_weight_equivalence_on_dense_data``, here also for the discrete learners, on integer codes), except
where tests/estimators.py's WEIGHTS_ARE_NOT_COPIES says why it cannot hold. Runs without scikit-learn.

The estimators are found in nbx.models and nbx.discretize (tests/estimators.py), so a new one is tested without
being listed. Outputs are compared bit for bit: dropping rows of weight 0 removes terms +0.0 from sequential
sums; repeated rows are the same terms in sequential sums (bincount) but not in pairwise or BLAS ones: the
iterative LogisticRegression sums over rows in BLAS products (rtol 1e-10) and StdDevDiscretizer's weighted mean
and deviation are pairwise sums (its cut points within rtol 1e-14; TOLERANCE)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from estimators import WEIGHTS_ARE_NOT_COPIES, estimator_classes

from nbx.core.base import clone
from nbx.discretize import NoDiscretizer
from nbx.models.naive_bayes import NaiveBayes

LEARNERS = estimator_classes("nbx.models")
TRANSFORMERS = estimator_classes("nbx.discretize")
# relative, where the weighted and the repeated sums add in another order; every other estimator: identical bits
TOLERANCE = {"LogisticRegression": 1e-10, "StdDevDiscretizer": 1e-14}
OPTIONS = {"HBayesNB": {"max_iter": 50}, "HBayesTAN": {"max_iter": 50}}  # bounds the inner fits on tiny data

RNG = np.random.default_rng(7)
N = 240
Y = RNG.integers(0, 3, N)
CODES = (RNG.integers(0, 3, size=(N, 4)) + (Y[:, None] == np.arange(4)[None, :]) * RNG.integers(0, 2, (N, 4))) % 3
NUMERIC = RNG.normal(size=(N, 4)) + Y[:, None] * [0.8, -0.5, 0.3, 0.0]
WEIGHTS = RNG.integers(0, 4, N).astype(float)  # integer weights, about a quarter of them 0
ZERO = WEIGHTS == 0
# a code and the extreme numeric values only in rows of weight 0: they must not reach n_values_ or a cut point
CODES[np.flatnonzero(ZERO)[:2], 1] = 5
NUMERIC[np.flatnonzero(ZERO)[:2], 2] = [40.0, -40.0]


def make(cls):
    est = cls(**OPTIONS.get(cls.__name__, {}))
    return est.set_params(random_state=0) if "random_state" in est.get_params() else est


def data(cls):
    """The estimator's input: integer codes for discrete learners and NoDiscretizer, else numeric columns."""
    return CODES if getattr(cls(), "input_kind", "mixed") == "discrete" or cls is NoDiscretizer else NUMERIC


def fit(est, X, y, w):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings of the tiny inner fits
        return est.fit(X, y, sample_weight=w)


def output(est, X):
    return est.predict_proba(X) if hasattr(est, "predict_proba") else est.transform(X)


def assert_same(cls, a, b, X):
    for name in ("classes_", "n_values_"):
        if hasattr(b, name):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    rtol = TOLERANCE.get(cls.__name__)
    for ca, cb in zip(getattr(a, "cut_points_", []), getattr(b, "cut_points_", [])):
        if rtol is None or ca is None:
            np.testing.assert_array_equal(ca, cb, err_msg="cut_points_")
        else:
            np.testing.assert_allclose(ca, cb, rtol=rtol, err_msg="cut_points_")
    if rtol is None:
        np.testing.assert_array_equal(output(a, X), output(b, X))
    else:
        np.testing.assert_allclose(output(a, X), output(b, X), rtol=rtol, atol=1e-14)


ALL = LEARNERS + TRANSFORMERS
IDS = [cls.__name__ for cls in ALL]


@pytest.mark.parametrize("cls", ALL, ids=IDS)
def test_rows_of_weight_zero_are_absent_rows(cls):
    X = data(cls)
    keep = ~ZERO
    weighted = fit(make(cls), X, Y, WEIGHTS)
    removed = fit(make(cls), X[keep], Y[keep], WEIGHTS[keep])
    assert_same(cls, weighted, removed, X)  # also on the rows of weight 0 (code 5 unseen: missing)


SUPERVISED = LEARNERS + [cls for cls in TRANSFORMERS if getattr(cls, "supervised", False)]


@pytest.mark.parametrize("cls", SUPERVISED, ids=[cls.__name__ for cls in SUPERVISED])
def test_a_class_whose_rows_all_weigh_zero_is_not_a_class(cls):
    X = data(cls)
    w = np.where(Y == 1, 0.0, WEIGHTS + 1)
    est = fit(make(cls), X, Y, w)
    np.testing.assert_array_equal(est.classes_, [0, 2])
    assert_same(cls, est, fit(make(cls), X[Y != 1], Y[Y != 1], w[Y != 1]), X)
    if hasattr(est, "predict_proba"):
        assert est.predict_proba(X).shape == (N, 2) and set(est.predict(X)) <= {0, 2}


def test_every_estimator_is_covered_and_the_exceptions_are_estimators():
    names = {cls.__name__ for cls in ALL}
    assert len(LEARNERS) >= 15 and len(TRANSFORMERS) >= 5
    assert set(WEIGHTS_ARE_NOT_COPIES) <= names


COPIES = [
    pytest.param(cls, marks=pytest.mark.xfail(reason=WEIGHTS_ARE_NOT_COPIES[cls.__name__], strict=True))
    if cls.__name__ in WEIGHTS_ARE_NOT_COPIES
    else cls
    for cls in ALL
]


@pytest.mark.parametrize("cls", COPIES, ids=IDS)
def test_integer_weights_are_repeated_rows(cls):
    """scikit-learn's weight equivalence: weights 0, 1, 2, 3 = the row removed, kept, doubled, tripled."""
    X = data(cls)
    k = WEIGHTS.astype(int)
    weighted = fit(make(cls), X, Y, WEIGHTS)
    repeated = fit(make(cls), np.repeat(X, k, axis=0), np.repeat(Y, k), None)
    assert_same(cls, weighted, repeated, X)


def test_given_classes_keep_a_class_whose_rows_all_weigh_zero():
    """The ``classes`` parameter (Wiering's counters for every class) still wins: that class keeps its prior."""
    w = np.where(Y == 1, 0.0, 1.0)
    model = NaiveBayes(classes=[0, 1, 2]).fit(CODES, Y, sample_weight=w)
    np.testing.assert_array_equal(model.classes_, [0, 1, 2])
    assert model.class_count_[1] == 0
    np.testing.assert_array_equal(
        model.predict_proba(CODES), NaiveBayes(classes=[0, 1, 2]).fit(CODES[Y != 1], Y[Y != 1]).predict_proba(CODES)
    )


def test_partial_fit_drops_rows_of_weight_zero():
    model = NaiveBayes().partial_fit(CODES[:40], Y[:40], classes=[0, 1, 2], sample_weight=WEIGHTS[:40])
    model.partial_fit(CODES[40:], Y[40:], sample_weight=WEIGHTS[40:])
    keep = ~ZERO
    plain = NaiveBayes().partial_fit(CODES[:40][keep[:40]], Y[:40][keep[:40]], classes=[0, 1, 2])
    plain.partial_fit(CODES[40:][keep[40:]], Y[40:][keep[40:]], sample_weight=WEIGHTS[40:][keep[40:]])
    plain_first = NaiveBayes().partial_fit(
        CODES[:40][keep[:40]], Y[:40][keep[:40]], classes=[0, 1, 2], sample_weight=WEIGHTS[:40][keep[:40]]
    )
    plain_first.partial_fit(CODES[40:][keep[40:]], Y[40:][keep[40:]], sample_weight=WEIGHTS[40:][keep[40:]])
    np.testing.assert_array_equal(model.n_values_, plain_first.n_values_)  # code 5 only in rows of weight 0
    np.testing.assert_array_equal(model.feature_count_, plain_first.feature_count_)
    np.testing.assert_array_equal(model.predict_proba(CODES), plain_first.predict_proba(CODES))


def test_every_row_of_weight_zero_is_an_error_also_inside_an_ensemble():
    from nbx.models.ensembles import Bagging

    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number."):
        clone(Bagging()).fit(CODES, Y, sample_weight=np.zeros(N))
