"""What users of scikit-learn's own estimators look for, checked against the scikit-learn estimator each mirrors:
``predict_joint_log_proba``, ``class_prior``/``fit_prior``, GaussianNB's ``theta_``/``var_``, a decision tree's
``feature_importances_``/``get_depth``/``get_n_leaves``/``export_text``, KBinsDiscretizer's ``bin_edges_`` and
quantile bins, and the feature-name warnings (skipped without scikit-learn)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("sklearn")

import pandas as pd
from scipy.special import logsumexp
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import KBinsDiscretizer

from nbx.discretize import EqualFrequencyDiscretizer, EqualWidthDiscretizer, MDLDiscretizer
from nbx.models.c45 import C45Tree, export_text
from nbx.models.kernel_nb import GeneralNB
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN


@pytest.fixture(scope="module")
def codes():
    rng = np.random.default_rng(0)
    X = rng.integers(0, [3, 4, 2, 5], size=(300, 4))
    y = np.where(X[:, 0] + rng.integers(0, 3, 300) > 2, "b", "a")
    y[:20] = "c"
    return X, y


@pytest.fixture(scope="module")
def numeric():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 400)
    X = rng.normal(size=(400, 3)) * [1.0, 5.0, 0.1] + y[:, None] * [1.0, 2.0, 0.05]
    return X, y


# ------------------------------------------------------------------ naive Bayes: joint, class_prior, fit_prior
def test_naive_bayes_joint_log_proba_equals_categorical_nb(codes):
    X, y = codes
    prior = [0.2, 0.5, 0.3]
    ours = NaiveBayes(class_prior=prior).fit(X, y)
    theirs = CategoricalNB(alpha=1.0, class_prior=prior, min_categories=ours.n_values_).fit(X, y)
    np.testing.assert_allclose(ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), rtol=1e-12)
    np.testing.assert_allclose(ours.class_log_prior_, theirs.class_log_prior_, rtol=1e-12)
    ours = NaiveBayes(fit_prior=False).fit(X, y)
    theirs = CategoricalNB(alpha=1.0, fit_prior=False, min_categories=ours.n_values_).fit(X, y)
    np.testing.assert_allclose(ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), rtol=1e-12)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-12)


def test_naive_bayes_prior_defaults_unchanged(codes):
    X, y = codes
    base = NaiveBayes().fit(X, y)
    np.testing.assert_array_equal(
        NaiveBayes(class_prior=None, fit_prior=True).fit(X, y).predict_proba(X), base.predict_proba(X)
    )
    joint = base.predict_joint_log_proba(X)
    np.testing.assert_allclose(joint - logsumexp(joint, axis=1, keepdims=True), base.predict_log_proba(X), atol=1e-12)
    with pytest.raises(ValueError, match="Number of priors"):
        NaiveBayes(class_prior=[0.5, 0.5]).fit(X, y)


def test_naive_bayes_class_prior_survives_partial_fit(codes):
    X, y = codes
    prior = [0.1, 0.1, 0.8]
    model = NaiveBayes(class_prior=prior)
    for rows in np.array_split(np.arange(len(y)), 3):
        model.partial_fit(X[rows], y[rows], classes=["a", "b", "c"])
    np.testing.assert_array_equal(model.class_log_prior_, np.log(prior))


def test_tan_joint_log_proba(codes):
    X, y = codes
    model = TAN().fit(X, y)
    joint = model.predict_joint_log_proba(X)
    assert joint.shape == (len(y), 3)
    np.testing.assert_allclose(joint - logsumexp(joint, axis=1, keepdims=True), model.predict_log_proba(X), atol=1e-12)


# ------------------------------------------------------------------ Gaussian GeneralNB
def test_gaussian_general_nb_theta_var_joint_equal_gaussian_nb(numeric):
    X, y = numeric
    prior = [0.3, 0.3, 0.4]
    ours = GeneralNB(density="gaussian", class_prior=prior).fit(X, y)
    theirs = GaussianNB(var_smoothing=0.0, priors=prior).fit(X, y)
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-10)
    np.testing.assert_allclose(ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), rtol=1e-10)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-10)
    # GaussianNB's default var_smoothing adds 1e-9 x the largest column variance: a difference of that order
    default = GaussianNB().fit(X, y)
    np.testing.assert_allclose(ours.var_, default.var_ - default.epsilon_, rtol=1e-10)


def test_general_nb_fit_prior_false_and_theta_on_mixed_columns(numeric):
    X, y = numeric
    X = np.column_stack([X, (X[:, 0] > 0).astype(float)])
    model = GeneralNB(density="gaussian", fit_prior=False).fit(X, y, n_values=[0, 0, 0, 2])
    np.testing.assert_array_equal(model.class_log_prior_, np.full(3, -np.log(3)))
    assert model.theta_.shape == model.var_.shape == (3, 4)
    assert np.isnan(model.theta_[:, 3]).all() and np.isfinite(model.theta_[:, :3]).all()
    with pytest.raises(AttributeError, match="gaussian"):
        GeneralNB().fit(X[:50, :3], y[:50]).theta_  # noqa: B018


def test_general_nb_prior_defaults_unchanged(numeric):
    X, y = numeric
    for density in ("gaussian", "kernel"):
        a = GeneralNB(density=density).fit(X[:120], y[:120]).predict_proba(X)
        b = GeneralNB(density=density, class_prior=None, fit_prior=True).fit(X[:120], y[:120]).predict_proba(X)
        np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------ C4.5: depth, leaves, importances, text
def _brute(node, depth=0):
    """(depth, leaves) of a tree by walking its nodes."""
    if node.is_leaf:
        return depth, 1
    below = [_brute(c, depth + 1) for c in node.children]
    return max(d for d, _ in below), sum(n for _, n in below)


@pytest.mark.parametrize("prune", [True, False])
def test_c45_depth_leaves_importances(numeric, prune):
    from sklearn.tree import DecisionTreeClassifier

    X, y = numeric
    model = C45Tree(prune=prune).fit(X, y)
    assert (model.get_depth(), model.get_n_leaves()) == _brute(model.tree_)
    imp = model.feature_importances_
    assert imp.shape == (3,) and np.all(imp >= 0) and imp.sum() == pytest.approx(1.0)
    tested = {n.attr for n in _walk(model.tree_) if not n.is_leaf}
    assert set(np.flatnonzero(imp > 0)) <= tested
    # a stump's importance is all on its one attribute, as scikit-learn's
    stump = DecisionTreeClassifier(max_depth=1, criterion="entropy").fit(X, y)
    assert stump.feature_importances_.shape == imp.shape


def test_c45_importances_equal_sklearn_entropy_tree_on_a_stump():
    from sklearn.tree import DecisionTreeClassifier

    X = np.array([[0.0, 5.0], [1.0, 4.0], [2.0, 3.0], [3.0, 2.0], [4.0, 1.0], [5.0, 0.0]] * 5)
    X[:, 1] += np.arange(30) % 2  # noise, no split on it pays
    y = (X[:, 0] > 2).astype(int)
    ours = C45Tree().fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_)
    assert ours.get_depth() == theirs.get_depth() and ours.get_n_leaves() == theirs.get_n_leaves()


def test_c45_export_text_is_what_nbx_show_prints(numeric):
    from nbx.cli.show_trees import c45
    from nbx.cli.view import View

    X, y = numeric
    model = C45Tree().fit(X, y)
    names = ["a", "b", "c"]
    text = export_text(model, feature_names=names)
    view = View(names, [[], [], []], [str(c) for c in model.classes_], {})
    assert text.splitlines() == c45(model, view)[2:]
    assert text.count("\n") == sum(1 for n in _walk(model.tree_) if n is not model.tree_)
    default = export_text(model)
    assert "feature_0" in default or "feature_1" in default
    frame = pd.DataFrame(X, columns=["x0", "x1", "x2"])
    assert "x" in export_text(C45Tree().fit(frame, y)).split()[0]


def test_c45_export_text_nominal_values():
    X = np.array([[0], [1], [2], [0], [1], [2]] * 4)
    y = np.array(["p", "q", "q", "p", "q", "q"] * 4)
    model = C45Tree().fit(X, y, n_values=[3])
    text = export_text(model, feature_names=["colour"], value_names=[["red", "green", "blue"]])
    assert text.splitlines()[0] == "colour = red: p (8.0)"


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


# ------------------------------------------------------------------ discretizers
def test_bin_edges_like_kbins_discretizer(numeric):
    X, _ = numeric
    ours = EqualWidthDiscretizer(bins=5).fit(X)
    theirs = KBinsDiscretizer(n_bins=5, strategy="uniform", encode="ordinal").fit(X)
    assert ours.bin_edges_.dtype == object and ours.bin_edges_.shape == (3,)
    for j in range(3):
        assert ours.bin_edges_[j][0] == -np.inf and ours.bin_edges_[j][-1] == np.inf
        np.testing.assert_allclose(ours.bin_edges_[j][1:-1], theirs.bin_edges_[j][1:-1], rtol=1e-12)
        np.testing.assert_array_equal(ours.bin_edges_[j][1:-1], ours.cut_points_[j])
    nominal = MDLDiscretizer(n_values=[0, 0, 0, 2]).fit(np.column_stack([X, X[:, 0] > 0]), _)
    assert nominal.bin_edges_[3] is None


@pytest.mark.parametrize("bins", [2, 4, 7])
def test_equal_frequency_codes_equal_kbins_quantile(numeric, bins):
    X, _ = numeric
    X = np.round(X, 1)  # ties and values on the edges
    ours = EqualFrequencyDiscretizer(bins=bins).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = KBinsDiscretizer(n_bins=bins, strategy="quantile", quantile_method="linear", encode="ordinal").fit(X)
    Z = np.vstack([X, np.round(np.random.default_rng(5).normal(size=(50, 3)) * 4, 1)])
    np.testing.assert_array_equal(ours.transform(Z), theirs.transform(Z).astype(np.int64))
    for j in range(3):
        np.testing.assert_array_equal(ours.bin_edges_[j][1:-1], theirs.bin_edges_[j][1:-1])
    np.testing.assert_array_equal(ours.n_values_, theirs.n_bins_)


def test_equal_frequency_weights_are_copies(numeric):
    X, _ = numeric
    w = np.random.default_rng(2).integers(0, 3, len(X))
    a = EqualFrequencyDiscretizer(bins=4).fit(X, sample_weight=w)
    b = EqualFrequencyDiscretizer(bins=4).fit(np.repeat(X, w, axis=0))
    for j in range(3):
        np.testing.assert_array_equal(a.cut_points_[j], b.cut_points_[j])


# ------------------------------------------------------------------ feature names, both ways
def test_feature_name_warnings_both_ways(codes):
    X, y = codes
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    with pytest.warns(UserWarning, match="X has feature names, but NaiveBayes was fitted without feature names"):
        NaiveBayes().fit(X, y).predict(frame)
    with pytest.warns(UserWarning, match="X does not have valid feature names, but NaiveBayes was fitted with"):
        NaiveBayes().fit(frame, y).predict(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NaiveBayes().fit(frame, y).predict(frame)
        NaiveBayes().fit(X, y).predict(X)


# ------------------------------------------------------------------ logistic regression: layout, class_weight
def _standardized(X):
    return (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)  # nbx's standardization is then the identity


def test_logistic_coef_equals_sklearn_binary(numeric):
    from sklearn.linear_model import LogisticRegression as SkLogistic

    from nbx.models.logistic import LogisticRegression

    X, y = numeric
    X, y = _standardized(X), np.where(y == 2, "b", "a")
    ridge = 0.5  # nbx: ridge * |beta|^2 on standardized columns; scikit-learn: |beta|^2 / (2C) on the raw ones
    ours = LogisticRegression(ridge=ridge).fit(X, y)
    theirs = SkLogistic(C=1 / (2 * ridge), tol=1e-12, max_iter=10_000).fit(X, y)
    assert ours.coef_.shape == theirs.coef_.shape == (1, 3) and ours.intercept_.shape == (1,)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-7)
    np.testing.assert_array_equal(ours.coef_, -ours.coef_weka_.T)
    # class_weight as scikit-learn's: the weighted standardization changes the penalty's scale, so compare where
    # the ridge is negligible (1e-8, the default), and the multipliers with compute_class_weight's
    from sklearn.utils.class_weight import compute_class_weight

    ours = LogisticRegression(class_weight="balanced").fit(X, y)
    theirs = SkLogistic(C=1 / (2 * 1e-8), class_weight="balanced", tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-6)
    multipliers = compute_class_weight("balanced", classes=ours.classes_, y=y)
    w = multipliers[np.searchsorted(ours.classes_, y)]
    plain = LogisticRegression().fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ours.predict_proba(X), plain.predict_proba(X))


def test_logistic_coef_layout_multiclass_gives_predict_proba(numeric):
    from scipy.special import softmax

    from nbx.models.logistic import LogisticRegression

    X, y = numeric
    X = np.column_stack([X, (X[:, 0] > 0).astype(float)])
    model = LogisticRegression(ridge=0.1).fit(X, y, n_values=[0, 0, 0, 2])
    assert model.coef_.shape == (3, 5) and model.intercept_.shape == (3,)  # 3 numeric + 2 indicators
    assert model.coef_weka_.shape == (5, 2) and model.intercept_weka_.shape == (2,)
    design = np.column_stack([X[:, :3], X[:, 3] == 0, X[:, 3] == 1])
    np.testing.assert_allclose(softmax(design @ model.coef_.T + model.intercept_, axis=1), model.predict_proba(X))


def test_class_weight_is_a_sample_weight_multiplier(numeric):
    from nbx.models.logistic import LogisticRegression

    X, y = numeric
    cw = {0: 2.0, 1: 0.5, 2: 1.0}
    w = np.array([cw[c] for c in y])
    for make in (lambda **k: LogisticRegression(ridge=0.1, **k), lambda **k: C45Tree(**k)):
        a = make(class_weight=cw).fit(X, y).predict_proba(X)
        np.testing.assert_array_equal(a, make().fit(X, y, sample_weight=w).predict_proba(X))
        np.testing.assert_array_equal(
            make(class_weight=None).fit(X, y).predict_proba(X), make().fit(X, y).predict_proba(X)
        )
    with pytest.raises(ValueError, match="not among the classes"):
        C45Tree(class_weight={7: 1.0}).fit(X, y)


# ------------------------------------------------------------------ Gaussian GeneralNB: partial_fit
def test_gaussian_partial_fit_gives_the_model_of_one_fit(numeric, tmp_path):
    from nbx.cli.modelfile import read_model, write_model

    X, y = numeric
    rng = np.random.default_rng(3)
    X = np.column_stack([X, (X[:, 0] > 0).astype(float)])
    X[rng.random(X.shape) < 0.05] = np.nan
    w = rng.uniform(0.5, 2.0, len(y))
    nv = [0, 0, 0, 2]
    whole = GeneralNB(density="gaussian").fit(X, y, sample_weight=w, n_values=nv)
    batches = GeneralNB(density="gaussian")
    for rows in np.array_split(np.arange(len(y)), 7):
        batches.partial_fit(X[rows], y[rows], classes=[0, 1, 2], sample_weight=w[rows], n_values=nv)
    np.testing.assert_allclose(batches.theta_, whole.theta_, rtol=1e-13)
    np.testing.assert_allclose(batches.var_, whole.var_, rtol=1e-12)
    np.testing.assert_allclose(batches.class_count_, whole.class_count_, rtol=1e-14)
    np.testing.assert_allclose(batches.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    write_model(tmp_path / "g.nbx", batches)
    np.testing.assert_array_equal(read_model(tmp_path / "g.nbx").predict_proba(X), batches.predict_proba(X))


def test_gaussian_partial_fit_like_gaussian_nb(numeric):
    X, y = numeric
    ours, theirs = GeneralNB(density="gaussian"), GaussianNB(var_smoothing=0.0)
    for rows in np.array_split(np.arange(len(y)), 4):
        ours.partial_fit(X[rows], y[rows], classes=[0, 1, 2])
        theirs.partial_fit(X[rows], y[rows], classes=[0, 1, 2])
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-10)


def test_gaussian_partial_fit_refusals(numeric):
    X, y = numeric
    with pytest.raises(ValueError, match="classes must be passed"):
        GeneralNB(density="gaussian").partial_fit(X, y)
    assert not hasattr(GeneralNB(), "partial_fit") and hasattr(GeneralNB(density="gaussian"), "partial_fit")
    with pytest.raises(ValueError, match="fitted by fit"):
        GeneralNB(density="gaussian").fit(X, y).partial_fit(X, y)
