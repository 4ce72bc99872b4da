"""Every learner's predict, predict_proba, predict_log_proba and decision_function come from one hook
(nbx.core.base): ``_class_scores`` for learners that score classes on the log scale, ``predict_proba``
for the others. Checked over every learner class in nbx.models, found by walking the package."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import nbx.models
from nbx.core.base import ClassifierMixin, DecisionMixin, LogScoreMixin
from nbx.core.counting import log_normalize, log_softmax
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1
from nbx.models.nbtree import NBTree
from nbx.models.tan import TAN


def learner_classes() -> list[type]:
    found = set()
    for info in pkgutil.iter_modules(nbx.models.__path__):
        module = importlib.import_module(f"nbx.models.{info.name}")
        found |= {cls for name, cls in vars(module).items() if inspect.isclass(cls) and issubclass(cls, ClassifierMixin)
                  and cls.__module__ == module.__name__ and not name.startswith("_")}
    return sorted(found, key=lambda c: c.__name__)


LEARNERS = learner_classes()


def test_the_walk_finds_every_family():
    names = {c.__name__ for c in LEARNERS}
    assert {"NaiveBayes", "TAN", "GeneralNB", "NBTree", "SelfAdaptiveNBTree", "C45Tree", "LogisticRegression",
            "HBayesNB", "HBayesTAN", "HierarchicalMixtureNB", "Bagging", "AdaBoostM1", "MUV", "MUVofMUV",
            "LeveledNBTree"} <= names


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


def _data(k=3, n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 4)).astype(float)
    y = (X[:, 0] + (X[:, 1] > 0) + rng.integers(0, 2, n)) % k
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("k", [2, 3])
def test_the_four_methods_agree(cls, k):
    X, y = _data(k)
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
    X, y = _data(3)
    tree = C45Tree().fit(X, y)
    pure = tree.predict_proba(X) == 0
    assert pure.any() and np.all(np.isneginf(tree.predict_log_proba(X)[pure]))


@pytest.mark.parametrize("est", [NBTree(random_state=0), AdaBoostM1(TAN(), random_state=0)],
                         ids=["NBTree", "AdaBoostM1"])
def test_predict_log_proba_of_probability_learners_is_the_log(est):
    X, y = _data(3)
    est.fit(X, y)
    with np.errstate(divide="ignore"):
        assert est.predict_log_proba(X).tobytes() == np.log(est.predict_proba(X)).tobytes()
