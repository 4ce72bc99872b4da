"""Learners that optimize never return a useless model quietly: LogisticRegression (Newton on Weka's standardized
design, nbx.models.logistic) fits values near 1e306 and 1e-300, mixed scales and constant columns as it fits the
same data at ordinary magnitudes (standardization is exact under scaling a column by a power of two, and it is
done so beyond 2**±256); a fit that stops without converging at a model no better than the class prior raises;
infinity is refused by input validation, naming the column. The other optimizing learners take integer codes:
HBayes (its logistic fits run on indicator columns, within range by construction) and the hierarchical mixture
(EM on counts); a code too large to be one is refused (nbx.core.base.as_codes) instead of being cast into a
missing value, and so is an integer code above 2**31 - 1 (a uint64 of 2**64-1 was cast to a missing value, an
int64 of 10**12 asked for terabytes of counters) or a given n_values above 2**31, naming the column.

Magnitudes at the edges of the float range: the density learners (GeneralNB's kernel and Gaussian readings, the
S-NBTree), the equal-width and std-dev discretizers and the mean imputer compute a column beyond 1e±100 on
x * 2**-e (nbx.discretize.base.magnitude_exponents), so values near ±1.7e308 are separated as C4.5, logistic
regression and MDL + naive Bayes separate them, and scaling the data changes no std-dev class (Wiering 2003) and
no GNB posterior (Wang et al. 2006). Weights are relative: a largest weight beyond [1e-100, 1e100] is divided out
(nbx.core.validation.relative_weights), so a uniform weight of 1e307 or 1e-310 fits the model of unit weights.
All these guards leave ordinary data (|x| and weights within 1e±100) to the computations they always had, bit
for bit (the last test switches them off and compares). Runs without scikit-learn."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from estimators import estimator_classes

from nbx.core.base import clone
from nbx.core.validation import ConvergenceWarning
from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, ModeImputer, NoDiscretizer, StdDevDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.hbayes import HBayesNB
from nbx.models.kernel_nb import GeneralNB
from nbx.models.logistic import LogisticRegression
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.snbtree import SelfAdaptiveNBTree

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
    np.testing.assert_array_equal(model.coef_weka_, np.ldexp(BASE.coef_weka_, -exponent))


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
    np.testing.assert_allclose(model.coef_weka_ * scales[:, None], BASE.coef_weka_, rtol=1e-6)


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


# ----------------------------------------------------------------------------------- magnitudes at the edges
# A column whose classes sit near ±1.7e308 (and one at subnormal magnitudes): C4.5, ridge logistic regression and
# naive Bayes after MDL separate it; the kernel/Gaussian GNB and the S-NBTree predicted the class prior (53.3 %)
# with at most a RuntimeWarning, the equal-width and std-dev discretizers made one bin. The density learners and
# the discretizers now compute beyond 1e±100 on x * 2**-e (nbx.discretize.base.magnitude_exponents).
EDGE_Y = np.repeat([0, 1], [70, 80])
EDGE_X = np.where(EDGE_Y == 1, 1.7e308, -1.7e308)[:, None] * RNG.uniform(0.5, 1.0, (150, 1))
EDGE_X[::7] = np.where(EDGE_Y[::7] == 1, 1.7e308, -1.7e308)[:, None]  # and the largest values themselves
SEPARABLE = np.repeat([0, 1, 2], 40)
ORDINARY = RNG.normal(0.0, 0.3, (120, 2)) + SEPARABLE[:, None] * [1.0, -1.0]
DENSITY_LEARNERS = {
    "kernel": lambda: GeneralNB(),
    "kernel, std units": lambda: GeneralNB(scale="std"),
    "gaussian": lambda: GeneralNB(density="gaussian"),
    "S-NBTree": lambda: SelfAdaptiveNBTree(),
    "S-NBTree, gaussian leaves": lambda: SelfAdaptiveNBTree(leaf=GeneralNB(density="gaussian")),
}


def quiet_fit(est, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no invalid value
        return est.fit(X, y, **kwargs)


def discretized_nb_score(disc, X, y) -> float:
    """Training accuracy of NaiveBayes on the codes of ``disc`` (a pipeline, without scikit-learn)."""
    codes = quiet_fit(disc, X, y).transform(X)
    return quiet_fit(NaiveBayes(n_values=disc.n_values_), codes, y).score(codes, y)


def test_the_other_learners_separate_the_extreme_column():
    for est in (C45Tree(), LogisticRegression()):
        assert quiet_fit(est, EDGE_X, EDGE_Y).score(EDGE_X, EDGE_Y) == 1.0
    assert discretized_nb_score(MDLDiscretizer(), EDGE_X, EDGE_Y) == 1.0


@pytest.mark.parametrize("learner", DENSITY_LEARNERS)
def test_density_learners_separate_values_near_the_largest_float(learner):
    """Before: 0.533, the class prior (70/150 vs 80/150), the ranges and squared distances overflowing."""
    model = quiet_fit(DENSITY_LEARNERS[learner](), EDGE_X, EDGE_Y)
    assert model.score(EDGE_X, EDGE_Y) == 1.0
    assert np.all(np.isfinite(model.predict_proba(EDGE_X)))


@pytest.mark.parametrize("learner", DENSITY_LEARNERS)
@pytest.mark.parametrize("scale", [2.0**1000, 1e300, 1e200, 1e-200, 1e-310])
def test_density_learners_are_scale_invariant(learner, scale):
    """Kernel bandwidths in range or std units and Gaussian deviations scale with x, so the posterior does not
    depend on the unit. Before: the prior at 1e300 and 1e-310 (overflowing or vanishing deviations), and the
    Gaussian reading also at 1e±200 (its variance)."""
    base = quiet_fit(DENSITY_LEARNERS[learner](), ORDINARY, SEPARABLE)
    model = quiet_fit(DENSITY_LEARNERS[learner](), ORDINARY * scale, SEPARABLE)
    np.testing.assert_array_equal(model.predict(ORDINARY * scale), base.predict(ORDINARY))
    np.testing.assert_allclose(model.predict_proba(ORDINARY * scale), base.predict_proba(ORDINARY), atol=1e-6)


def test_the_s_nbtree_keeps_its_cut_points_in_the_units_of_x():
    base = SelfAdaptiveNBTree(split_root=True).fit(ORDINARY, SEPARABLE)
    model = SelfAdaptiveNBTree(split_root=True).fit(np.ldexp(ORDINARY, 1000), SEPARABLE)
    assert base.tree_.cuts is not None
    np.testing.assert_array_equal(model.tree_.cuts, np.ldexp(base.tree_.cuts, 1000))


@pytest.mark.parametrize("disc", [EqualWidthDiscretizer(), StdDevDiscretizer()], ids=type)
def test_discretizers_cut_values_near_the_largest_float(disc):
    """Before: max - min (equal width) and the mean's sum and squared deviations (std-dev) overflowed: one bin."""
    assert discretized_nb_score(clone(disc), EDGE_X, EDGE_Y) == 1.0
    cuts = clone(disc).fit(EDGE_X).cut_points_[0]
    assert len(cuts) and np.all(np.isfinite(cuts)) and cuts.min() > EDGE_X.min() and cuts.max() < EDGE_X.max()


@pytest.mark.parametrize("scale", [2.0**1000, 1e300, 1e200, 1e-200, 1e-310, 2.0**-1060])
def test_std_dev_classes_are_scale_invariant(scale):
    """Wiering (2003)'s classes are relative to the mean and standard deviation. Before: 1e300 and 1e200 gave one
    bin (std = inf), 1e-310 and 1e-200 codes of vanished or subnormal deviations."""
    X = RNG.normal(size=(200, 3))
    for rounding in ("floor", "trunc"):
        disc = StdDevDiscretizer(rounding=rounding)
        np.testing.assert_array_equal(clone(disc).fit_transform(X * scale), clone(disc).fit_transform(X))


def test_equal_width_bins_are_scale_invariant():
    X = RNG.normal(size=(200, 3))
    for scale in (2.0**1000, 2.0**-1000):
        np.testing.assert_array_equal(
            EqualWidthDiscretizer().fit_transform(X * scale), EqualWidthDiscretizer().fit_transform(X)
        )


def test_the_mean_imputer_fills_values_near_the_largest_float():
    """Before: the fill value was inf (the weighted sum overflowed), which the next learner refuses as infinity."""
    X = np.array([[1.7e308, 1.0], [1.6e308, 2.0], [np.nan, np.nan], [1.5e308, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        filled = ModeImputer().fit(X).fill_values_
    np.testing.assert_allclose(filled, [1.6e308, 2.0], rtol=1e-15)


# ------------------------------------------------------------------------------------------ weights at the edges
def _learners_and_discretizers():
    return estimator_classes("nbx.models") + estimator_classes("nbx.discretize")


def _weighted_output(cls, weight):
    est = cls(**({"max_iter": 50} if cls.__name__.startswith("HBayes") else {}))
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    X = WEIGHT_CODES if getattr(est, "input_kind", "mixed") == "discrete" or cls is NoDiscretizer else ORDINARY
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("error", RuntimeWarning)
        est.fit(X, SEPARABLE, sample_weight=weight)
    return est.predict_proba(X) if hasattr(est, "predict_proba") else est.transform(X)


WEIGHT_CODES = (ORDINARY > 0).astype(np.int64) + (ORDINARY > 1)


@pytest.mark.parametrize("weight", [1e307, 1e-310, "array of 1.7e308"])
@pytest.mark.parametrize("cls", _learners_and_discretizers(), ids=lambda c: c.__name__)
def test_a_uniform_weight_gives_the_model_of_unit_weights(cls, weight):
    """Weights are relative (nbx.core.validation.relative_weights). Before, 1e307 gave NaN probabilities in ten
    learners (overflowing sums) and an error in three more; 1e-310 let the pseudo-counts outweigh the data."""
    weight = np.full(len(SEPARABLE), 1.7e308) if isinstance(weight, str) else weight
    np.testing.assert_array_equal(_weighted_output(cls, weight), _weighted_output(cls, None))


def test_partial_fit_refuses_weights_it_cannot_make_relative():
    model = NaiveBayes().partial_fit(WEIGHT_CODES[:60], SEPARABLE[:60], classes=[0, 1, 2])
    with pytest.raises(ValueError, match=r"^sample_weight of partial_fit must have its largest value in \[1e-100, "):
        model.partial_fit(WEIGHT_CODES[60:], SEPARABLE[60:], sample_weight=np.full(60, 1e307))
    with pytest.raises(ValueError, match=r"largest value in \[1e-100, 1e100\], got 1e-310"):
        NaiveBayes().partial_fit(WEIGHT_CODES, SEPARABLE, classes=[0, 1, 2], sample_weight=1e-310)


# --------------------------------------------------------------------------------------------- codes too large
DISCRETE = [cls for cls in estimator_classes("nbx.models") if getattr(cls(), "input_kind", "") == "discrete"]


@pytest.mark.parametrize(
    "dtype, code", [(np.uint64, 2**64 - 1), (np.int64, 10**12), (np.int64, 2**31)], ids=["uint64", "1e12", "2^31"]
)
@pytest.mark.parametrize("cls", DISCRETE, ids=lambda c: c.__name__)
def test_an_integer_code_too_large_is_refused_naming_the_column(cls, dtype, code):
    """Before: a uint64 of 2**64-1 became a missing value (the int64 cast gives -1), an int64 of 10**12 asked
    for terabytes of counters (MemoryError)."""
    X = np.zeros((20, 4), dtype)
    X[3, 3] = code
    message = (
        f"X column 3: code {code} exceeds 2147483647, the largest code {cls.__name__} takes (n_values = largest "
        "code + 1 counters per class); recode the column as 0..n-1 or discretize it"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        cls().fit(X, np.arange(20) % 2)


@pytest.mark.parametrize("est", [NaiveBayes(), GeneralNB(), EqualWidthDiscretizer()], ids=type)
def test_a_given_n_values_too_large_is_refused_naming_the_column(est):
    est = clone(est).set_params(n_values=[2, 10**12])
    message = "n_values[1] = 1000000000000 exceeds 2147483648, the most values a nominal column may have"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        est.fit(np.zeros((4, 2)), [0, 1, 0, 1])


# ------------------------------------------------------------------------- ordinary results are left as they were
# The guards act only beyond ordinary magnitudes (|x| and the largest weight outside [1e-100, 1e100]); switched
# off, the estimators compute what they computed before them: the same bits must come out on ordinary data, the
# UCI tables included, with columns at 1e±90 and weights up to 1e99 and down to 1e-97.
GUARDED = [GeneralNB(), GeneralNB(density="gaussian"), GeneralNB(scale="std"), SelfAdaptiveNBTree()]
GUARDED += [EqualWidthDiscretizer(), StdDevDiscretizer(), StdDevDiscretizer(rounding="trunc"), ModeImputer()]


def _unguarded(monkeypatch):
    import nbx.core.validation as validation
    import nbx.discretize.equal_width as equal_width
    import nbx.discretize.impute as impute
    import nbx.discretize.stddev as stddev
    import nbx.models.kernel_nb as kernel_nb

    monkeypatch.setattr(validation, "relative_weights", lambda w: w)
    monkeypatch.setattr(kernel_nb, "numeric_exponents", lambda X, nv: None)
    monkeypatch.setattr(equal_width, "magnitude_exponent", lambda x: 0)
    monkeypatch.setattr(stddev, "magnitude_exponent", lambda x: 0)
    monkeypatch.setattr(impute, "magnitude_exponents", lambda X: None)


def _outputs(est, X, y, w):
    est = clone(est).fit(X, y, sample_weight=w)
    return est.predict_proba(X) if hasattr(est, "predict_proba") else est.transform(X)


@pytest.mark.parametrize("est", GUARDED, ids=repr)
def test_ordinary_data_give_the_bits_of_the_unguarded_code(est, load_dataset, monkeypatch):
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, 150)
    mixed_scales = (rng.normal(size=(150, 3)) + y[:, None] * [0.5, 1.0, -0.7]) * [1e-90, 1.0, 1e90]
    mixed_scales[rng.random(mixed_scales.shape) < 0.05] = np.nan  # the imputer's input
    cases = [(mixed_scales, y, rng.uniform(1.0, 1e99, 150)), (mixed_scales, y, rng.uniform(1e-99, 1e-97, 150))]
    for name in ("iris", "wine"):
        table = load_dataset(name)
        cases.append((np.asarray(table.X, float), np.asarray(table.y), None))
    guarded = [_outputs(est, *case) for case in cases]
    _unguarded(monkeypatch)
    for case, out in zip(cases, guarded):
        assert _outputs(est, *case).tobytes() == out.tobytes()
