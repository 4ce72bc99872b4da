"""Learners that optimize never return a useless model quietly: LogisticRegression (Newton on Weka's standardized
design, nbx.models.logistic) fits values near 1e306 and 1e-300, mixed scales and constant columns as it fits the
same data at ordinary magnitudes (standardization is exact under scaling a column by a power of two, and it is
done so beyond 2**±256); a fit that stops without converging at a model no better than the class prior raises;
infinity is refused by input validation, naming the column. The other optimizing learners take integer codes:
HBayes (its logistic fits run on indicator columns, within range by construction) and the hierarchical mixture
(EM on counts); a code too large to be one is refused (nbx.core.base.as_codes) instead of being cast into a
missing value. Runs without scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from nbx.core.validation import ConvergenceWarning
from nbx.models.hbayes import HBayesNB
from nbx.models.logistic import LogisticRegression

RNG = np.random.default_rng(3)
Y = np.repeat([0, 1, 2], 50)
X = RNG.normal(size=(150, 4)) + Y[:, None] * [1.5, -1.0, 0.5, 0.0]


def fitted(X, y=Y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no convergence warning
        return LogisticRegression(**params).fit(X, y)


BASE = fitted(X)


def test_the_reference_fit_is_a_useful_model():
    assert BASE.converged_ and BASE.score(X, Y) > 0.7  # 0.333 is the prior's accuracy


@pytest.mark.parametrize("exponent", [1017, -997, 300, -300])
def test_a_power_of_two_scale_gives_the_same_model_bit_for_bit(exponent):
    """2**1017 ~ 1.4e306 and 2**-997 ~ 7.5e-301: the standardized design is the same bits, so is everything."""
    scaled = np.ldexp(X, exponent)
    model = fitted(scaled)
    np.testing.assert_array_equal(model.theta_, BASE.theta_)
    np.testing.assert_array_equal(model.predict_proba(scaled), BASE.predict_proba(X))
    np.testing.assert_array_equal(model.coef_, np.ldexp(BASE.coef_, -exponent))


@pytest.mark.parametrize("scale", [1e306, 1e-300])
def test_values_near_the_ends_of_the_float_range_fit_like_ordinary_ones(scale):
    """Before: training accuracy 0.333 (1e306: overflow, one convergence warning; 1e-300: the column left
    unscaled and ignored, no warning at all). Any scale: the same model up to the rounding of X * scale."""
    model = fitted(X * scale)
    assert model.score(X * scale, Y) == BASE.score(X, Y)
    np.testing.assert_allclose(model.predict_proba(X * scale), BASE.predict_proba(X), atol=1e-9)


def test_mixed_scales_in_one_design():
    scales = np.array([1e306, 1.0, 1e-300, 1e-5])
    model = fitted(X * scales)
    np.testing.assert_allclose(model.predict_proba(X * scales), BASE.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(model.coef_ * scales[:, None], BASE.coef_, rtol=1e-6)


@pytest.mark.parametrize("value", [0.0, 1.0, 0.1, 2.0**1000, 1e306, 2.0**-1000, 1e-300])
def test_a_constant_column_changes_nothing(value):
    """A constant column has deviation 0 (or one of rounding size) and is left unstandardized, as Weka leaves
    it (divided by its power of two beyond 2**±256, where 1e306 would overflow the scores): it is collinear with
    the intercept and the ridge shares the intercept between them, so the predictions move by rounding only."""
    with_constant = np.column_stack([X, np.full(150, value)])
    model = fitted(with_constant)  # and no overflow warning
    assert np.all(np.isfinite(model.theta_))
    np.testing.assert_allclose(model.predict_proba(with_constant), BASE.predict_proba(X), atol=1e-9)


def test_a_column_of_infinity_is_refused_naming_it():
    bad = X.copy()
    bad[:, 2] = np.inf
    with pytest.raises(ValueError, match=r"Input X contains infinity .* Columns: \[2\]\.$"):
        LogisticRegression().fit(bad, Y)


def test_a_model_no_better_than_the_prior_is_never_returned_behind_a_convergence_warning():
    """One Newton step from a start far on the wrong side (warm start from minus 50 times the fitted
    coefficients) ends below the class prior's training log-likelihood: fit raises."""
    model = LogisticRegression(warm_start=True, max_iter=1)
    with pytest.warns(ConvergenceWarning):
        model.fit(X, Y)
    model.theta_ = -50 * BASE.theta_
    with pytest.raises(ValueError, match="no better than the class prior on the training data"):
        model.fit(X, Y)


def test_a_useful_model_that_did_not_converge_only_warns():
    with pytest.warns(ConvergenceWarning, match="stopped after 1 iterations"):
        model = LogisticRegression(max_iter=1).fit(X, Y)
    assert not model.converged_ and model.score(X, Y) > 1 / 3


def test_a_discrete_learner_refuses_a_code_too_large_to_be_one():
    """1e306 as a code: the int64 cast used to make it a missing value, silently."""
    codes = RNG.integers(0, 3, size=(40, 3)).astype(float)
    codes[5, 1] = 1e306
    with pytest.raises(ValueError, match=r"HBayesNB got codes above 2147483647 in columns \[1\]"):
        HBayesNB().fit(codes, RNG.integers(0, 2, 40))
