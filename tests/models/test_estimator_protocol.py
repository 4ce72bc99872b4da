"""scikit-learn's estimator protocol (nbx.core.base, nbx.discretize.base), over every learner class in nbx.models
(found by walking the package): predict, predict_proba, predict_log_proba and decision_function from one hook
per learner; the changed-only repr and the notebook HTML; set_output on every transformer; metadata routing of
sample_weight through cross_validate and Pipeline; warnings scikit-learn's filters catch; the ensembles' input
tags."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from estimators import estimator_classes

from nbx.core.base import ClassifierMixin, DecisionMixin, LogScoreMixin, clone
from nbx.core.counting import log_normalize, log_softmax
from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, ModeImputer, StdDevDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1, Bagging
from nbx.models.hbayes import HBayesNB
from nbx.models.logistic import LogisticRegression
from nbx.models.muv import MUV
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.nbtree import NBTree
from nbx.models.tan import TAN

TRANSFORMERS = [MDLDiscretizer, StdDevDiscretizer, EqualWidthDiscretizer, ModeImputer]


def _mixed(n=90, seed=0):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n), rng.normal(size=n)])
    y = (X[:, 0] + X[:, 1] + rng.normal(size=n) > 1).astype(int)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def _codes(k=3, n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 4)).astype(float)
    y = (X[:, 0] + (X[:, 1] > 0) + rng.integers(0, 2, n)) % k
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


# ------------------------------------------------------------------------------------------ predictions
LEARNERS = estimator_classes("nbx.models")


def _defined_by(cls, name):
    return next((k for k in cls.__mro__ if name in vars(k)), None)


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_one_hook_per_learner(cls):
    """predict and predict_log_proba come from the mixins; a learner implements ``_class_scores`` (log
    scale) or ``predict_proba``, and ``decision_function`` exists only where there are class scores."""
    assert _defined_by(cls, "predict") is ClassifierMixin
    log_scale = issubclass(cls, LogScoreMixin)
    assert _defined_by(cls, "predict_log_proba") is (LogScoreMixin if log_scale else ClassifierMixin)
    if log_scale:
        assert _defined_by(cls, "_class_scores") not in (None, LogScoreMixin)
    else:
        assert _defined_by(cls, "predict_proba") not in (None, ClassifierMixin, LogScoreMixin)
    assert hasattr(cls, "decision_function") == issubclass(cls, DecisionMixin)
    if hasattr(cls, "decision_function"):
        assert _defined_by(cls, "decision_function") is DecisionMixin


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("k", [2, 3])
def test_the_four_methods_agree(cls, k):
    X, y = _codes(k)
    est = cls(**({"random_state": 0} if "random_state" in cls._param_names() else {}))
    est.fit(X[:80], y[:80])
    Xt = X[80:]
    proba = est.predict_proba(Xt)
    np.testing.assert_array_equal(est.predict(Xt), est.classes_[np.argmax(proba, axis=1)])
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(est.predict_log_proba(Xt), np.log(proba), rtol=1e-12, atol=1e-12)
    if isinstance(est, LogScoreMixin):  # the same operations as the hook's consumers, bit for bit
        scores = est._class_scores(Xt)
        assert est.predict_log_proba(Xt).tobytes() == log_softmax(scores).tobytes()
        if type(est).__name__ != "LogisticRegression":  # exp of the log-softmax there (its own predict_proba)
            assert proba.tobytes() == log_normalize(scores).tobytes()
    if isinstance(est, DecisionMixin):
        scores = est._class_scores(Xt)
        expected = scores[:, 1] - scores[:, 0] if k == 2 else scores
        assert est.decision_function(Xt).tobytes() == expected.tobytes()


def test_probability_learners_log_zero_probabilities_as_minus_infinity():
    X, y = _codes(3)
    tree = C45Tree().fit(X, y)
    pure = tree.predict_proba(X) == 0
    assert pure.any() and np.all(np.isneginf(tree.predict_log_proba(X)[pure]))


@pytest.mark.parametrize(
    "est", [NBTree(random_state=0), AdaBoostM1(TAN(), random_state=0)], ids=["NBTree", "AdaBoostM1"]
)
def test_predict_log_proba_of_probability_learners_is_the_log(est):
    X, y = _codes(3)
    est.fit(X, y)
    with np.errstate(divide="ignore"):
        assert est.predict_log_proba(X).tobytes() == np.log(est.predict_proba(X)).tobytes()


# ------------------------------------------------------------------------------------------------ repr
def test_repr_shows_only_changed_parameters_nested_too():
    assert repr(NaiveBayes()) == "NaiveBayes()"
    assert repr(NaiveBayes(alpha=0.5, prior="laplace")) == "NaiveBayes(alpha=0.5)"
    boost = AdaBoostM1(TAN(alpha=0.1), n_estimators=5, random_state=0)
    assert repr(boost) == "AdaBoostM1(base=TAN(alpha=0.1), n_estimators=5, random_state=0)"
    assert repr(MDLDiscretizer(n_values=[0, 3])) == "MDLDiscretizer(n_values=[0, 3])"


@pytest.mark.parametrize(
    "est",
    [
        NaiveBayes(prior="kang", classes=np.array([0, 1])),
        AdaBoostM1(TAN(alpha=0.1)),
        HBayesNB(max_iter=7),
        C45Tree(min_leaf=3),
        MUV(n_estimators=3),
    ],
    ids=repr,
)
def test_repr_rebuilds_the_estimator(est):
    rebuilt = eval(repr(est), {**globals(), "array": np.array})  # (an array parameter's repr names array)
    assert repr(rebuilt.get_params()) == repr(est.get_params())


def test_html_repr_is_scikit_learns_diagram():
    pytest.importorskip("sklearn")
    boost = AdaBoostM1(NaiveBayes(prior="kang"), n_estimators=5)
    html = boost._repr_html_()
    assert "sk-top-container" in html and "base: NaiveBayes" in html  # the nested estimator gets its box
    assert "AdaBoostM1(base=NaiveBayes(prior=&#x27;kang&#x27;), n_estimators=5)" in html  # escaped repr
    bundle = boost._repr_mimebundle_()
    assert bundle["text/plain"] == repr(boost) and "sk-top-container" in bundle["text/html"]
    import sklearn

    with sklearn.config_context(display="text"):
        assert set(boost._repr_mimebundle_()) == {"text/plain"}


def test_html_repr_without_scikit_learn_is_the_escaped_text(monkeypatch):
    for name in ("sklearn", "sklearn.utils"):  # importing them now raises ImportError
        monkeypatch.setitem(sys.modules, name, None)
    model = NaiveBayes(classes=["<b>", "a&b"])
    expected = "<pre>NaiveBayes(classes=[&#x27;&lt;b&gt;&#x27;, &#x27;a&amp;b&#x27;])</pre>"
    assert model._repr_html_() == expected
    assert model._repr_mimebundle_() == {"text/plain": repr(model), "text/html": expected}


# ------------------------------------------------------------------------------------------ set_output
@pytest.mark.parametrize("cls", TRANSFORMERS, ids=lambda c: c.__name__)
def test_set_output_pandas_gives_the_same_values_named_by_get_feature_names_out(cls):
    pd = pytest.importorskip("pandas")
    X, y = _mixed()
    df = pd.DataFrame(X, columns=["a", "b", "c"], index=np.arange(100, 100 + len(X)))
    params = {"n_values": [0, 3, 0]}
    plain = cls(**params).fit(df, y).transform(df)
    est = cls(**params).set_output(transform="pandas")
    for out in (est.fit_transform(df, y), est.transform(df)):
        assert isinstance(out, pd.DataFrame)
        assert list(out.columns) == list(est.get_feature_names_out()) == ["a", "b", "c"]
        np.testing.assert_array_equal(out.index, df.index)
        np.testing.assert_array_equal(out.to_numpy(), plain)
    unnamed = cls(**params).set_output(transform="pandas").fit(X, y).transform(X)  # ndarray in: x0, x1, ...
    assert list(unnamed.columns) == ["x0", "x1", "x2"] and list(unnamed.index) == list(range(len(X)))
    assert isinstance(clone(est).fit(X, y).transform(X), pd.DataFrame)  # clone keeps the configuration
    back = est.set_output(transform="default").transform(df)
    assert isinstance(back, np.ndarray) and back.tobytes() == plain.tobytes()
    with pytest.raises(ValueError, match="set_output"):
        est.set_output(transform="arrow")


def test_scikit_learns_global_and_pipeline_output_options():
    sklearn = pytest.importorskip("sklearn")
    pd = pytest.importorskip("pandas")
    from sklearn.base import clone as sk_clone
    from sklearn.pipeline import make_pipeline

    X, y = _mixed()
    with sklearn.config_context(transform_output="pandas"):
        assert isinstance(MDLDiscretizer().fit(X, y).transform(X), pd.DataFrame)
    assert isinstance(MDLDiscretizer().fit(X, y).transform(X), np.ndarray)
    pipe = make_pipeline(ModeImputer(n_values=[0, 3, 0]), MDLDiscretizer(n_values=[0, 3, 0])).set_output(
        transform="pandas"
    )
    out = pipe.fit_transform(X, y)
    assert isinstance(out, pd.DataFrame) and list(out.columns) == ["x0", "x1", "x2"]
    assert isinstance(sk_clone(pipe).fit(X, y).transform(X), pd.DataFrame)


# -------------------------------------------------------------------------------------- metadata routing
@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_cross_validate_routes_sample_weight_as_a_fit_by_hand(cls):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.model_selection import KFold, cross_validate

    X, y = _codes(seed=3)
    w = np.random.default_rng(0).random(len(y)) * 2
    folds = KFold(3, shuffle=True, random_state=0)
    seeded = {"random_state": 0} if "random_state" in cls._param_names() else {}
    with sklearn.config_context(enable_metadata_routing=True):
        est = cls(**seeded).set_fit_request(sample_weight=True).set_score_request(sample_weight=True)
        out = cross_validate(
            est, X, y, params={"sample_weight": w}, cv=folds, return_estimator=True, error_score="raise"
        )
    assert np.all(np.isfinite(out["test_score"]))
    for (train, test), fitted, score in zip(folds.split(X), out["estimator"], out["test_score"]):
        by_hand = cls(**seeded).fit(X[train], y[train], sample_weight=w[train])
        assert fitted.predict_proba(X[test]).tobytes() == by_hand.predict_proba(X[test]).tobytes()
        assert score == by_hand.score(X[test], y[test], sample_weight=w[test])


def test_routing_in_a_pipeline_and_unrequested_weights():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.exceptions import UnsetMetadataPassedError
    from sklearn.model_selection import KFold, cross_validate
    from sklearn.pipeline import make_pipeline

    X, y = _mixed(150, seed=2)
    w = np.random.default_rng(1).random(len(y)) * 2
    folds = KFold(3, shuffle=True, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            MDLDiscretizer().set_fit_request(sample_weight=True),
            NaiveBayes().set_fit_request(sample_weight=True).set_score_request(sample_weight=True),
        )
        out = cross_validate(
            pipe, X, y, params={"sample_weight": w}, cv=folds, return_estimator=True, error_score="raise"
        )
        for (train, test), fitted, score in zip(folds.split(X), out["estimator"], out["test_score"]):
            disc = MDLDiscretizer().fit(X[train], y[train], sample_weight=w[train])
            nb = NaiveBayes().fit(disc.transform(X[train]), y[train], sample_weight=w[train])
            assert fitted.predict_proba(X[test]).tobytes() == nb.predict_proba(disc.transform(X[test])).tobytes()
            assert score == nb.score(disc.transform(X[test]), y[test], sample_weight=w[test])
        with pytest.raises(UnsetMetadataPassedError, match="NaiveBayes.fit"):  # unrequested: an error
            cross_validate(NaiveBayes(), X[:, 1:2], y, params={"sample_weight": w}, cv=folds, error_score="raise")
        with pytest.raises(TypeError, match="Unexpected args"):
            NaiveBayes().set_fit_request(weights=True)
        nb = NaiveBayes().set_partial_fit_request(sample_weight=True, classes=True)
        assert nb.get_metadata_routing().partial_fit.requests == {
            "classes": True,
            "sample_weight": True,
            "n_values": None,
        }
    with pytest.raises(RuntimeError, match="enable_metadata_routing"):
        NaiveBayes().set_fit_request(sample_weight=True)


# -------------------------------------------------------------------------------------------- warnings
def test_convergence_warnings_are_scikit_learns():
    pytest.importorskip("sklearn")
    from sklearn.exceptions import ConvergenceWarning

    for est, (fit_X, y) in ((LogisticRegression(max_iter=1), _mixed()), (HBayesNB(max_iter=1), _codes())):
        with pytest.warns(ConvergenceWarning, match="max_iter=1"):
            est.fit(fit_X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.filterwarnings("ignore", category=ConvergenceWarning)  # scikit-learn's filter silences it
            est.fit(fit_X, y)


# ------------------------------------------------------------------------------------------- input tags
def test_ensembles_claim_only_what_they_and_their_base_accept():
    pytest.importorskip("sklearn")
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression as SkLogistic
    from sklearn.tree import DecisionTreeClassifier
    from sklearn.utils import get_tags

    X, y = _mixed()
    tree_tags = get_tags(DecisionTreeClassifier()).input_tags
    assert tree_tags.sparse  # the base takes sparse input, the ensemble does not
    for ensemble in (
        Bagging(DecisionTreeClassifier(), random_state=0),
        AdaBoostM1(DecisionTreeClassifier(max_depth=1), random_state=0),
    ):
        tags = get_tags(ensemble).input_tags
        assert not tags.sparse and tags.allow_nan == tree_tags.allow_nan
        with pytest.raises(TypeError, match="Sparse data"):
            ensemble.fit(sparse.csr_matrix(np.nan_to_num(X)), y)
        if tags.allow_nan:
            assert np.all(np.isfinite(ensemble.fit(X, y).predict_proba(X)))
    logistic = Bagging(SkLogistic(), random_state=0)
    assert not get_tags(logistic).input_tags.allow_nan
    with pytest.raises(ValueError, match="NaN"):
        logistic.fit(X, y)
    assert get_tags(Bagging()).input_tags.allow_nan and get_tags(Bagging()).input_tags.categorical
