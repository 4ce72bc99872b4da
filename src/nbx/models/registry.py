"""Learner names used in params.yaml -> classes, and construction from a params block.

A params block is a mapping with ``class`` (a key of :data:`CLASSES`) and the constructor's keyword
arguments. Any nested mapping with a ``class`` key (for example a meta-learner's ``base``) is built the
same way, so ``{class: Bagging, base: {class: NaiveBayes, alpha: 0.1}, n_estimators: 10}`` works.
Classes are imported lazily, so a learner's module is only loaded when it is used.
"""
from __future__ import annotations

import importlib

from ..errors import NbxError

CLASSES = {
    "NaiveBayes": "nbx.models.naive_bayes:NaiveBayes",
    "HierarchicalMixtureNB": "nbx.models.hierarchical_mixture:HierarchicalMixtureNB",
    "Bagging": "nbx.models.ensembles:Bagging",
    "AdaBoostM1": "nbx.models.ensembles:AdaBoostM1",
    "C45Tree": "nbx.models.c45:C45Tree",
    "NBTree": "nbx.models.nbtree:NBTree",
    "GeneralNB": "nbx.models.kernel_nb:GeneralNB",
    "SelfAdaptiveNBTree": "nbx.models.snbtree:SelfAdaptiveNBTree",
    "TAN": "nbx.models.tan:TAN",
    "MUV": "nbx.models.muv:MUV",
    "MUVofMUV": "nbx.models.muv:MUVofMUV",
    "LogisticRegression": "nbx.models.logistic:LogisticRegression",
    "HBayesNB": "nbx.models.hbayes:HBayesNB",
    "HBayesTAN": "nbx.models.hbayes:HBayesTAN",
    "LeveledNBTree": "nbx.models.leveled_tree:LeveledNBTree",
}


class UnknownLearnerError(NbxError, ValueError):
    """A params block names a learner class that does not exist."""


def learner_class(name: str, where: str = "params"):
    if name not in CLASSES:
        raise UnknownLearnerError(f"{where}: unknown learner class {name!r}; known: {sorted(CLASSES)}")
    module, _, attr = CLASSES[name].partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownLearnerError(f"{where}: learner class {name!r} is not implemented yet ({exc})") from None


def make_learner(spec: dict, where: str = "params"):
    """Build an estimator from a params block (see the module docstring)."""
    if not isinstance(spec, dict) or "class" not in spec:
        raise UnknownLearnerError(f"{where}: a learner block needs a 'class' key, got {spec!r}")
    cls = learner_class(spec["class"], where)
    kwargs = {}
    for key, value in spec.items():
        if key == "class":
            continue
        kwargs[key] = make_learner(value, f"{where}.{key}") if isinstance(value, dict) and "class" in value \
            else value
    valid = set(cls._param_names())
    unknown = set(kwargs) - valid
    if unknown:
        raise UnknownLearnerError(f"{where}: {spec['class']} has no parameter(s) {sorted(unknown)}; "
                                  f"valid: {sorted(valid)}")
    return cls(**kwargs)


def input_kind(estimator) -> str:
    """'discrete' (integer codes, all attributes discretized) or 'mixed' (numeric columns kept). Every nbx
    learner declares it; an estimator from elsewhere (e.g. scikit-learn's) gets the numeric values."""
    return getattr(estimator, "input_kind", "mixed")
