"""Learners from params blocks: class names -> classes, construction, and the pipeline's keys of a block.

A params block is a mapping with ``class`` (a key of :data:`CLASSES`) and the constructor's keyword
arguments. Any nested mapping with a ``class`` key (for example a meta-learner's ``base``) is built the
same way, so ``{class: Bagging, base: {class: NaiveBayes, alpha: 0.1}, n_estimators: 10}`` works.
Classes are imported lazily, so a learner's module is only loaded when it is used.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from nbx.core.base import input_kind, ordinal_params, validate_params
from nbx.core.errors import NbxError, did_you_mean
from nbx.pipeline.config import Params, as_params

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
    kwargs = {key: _built(value, f"{where}.{key}") for key, value in spec.items() if key != "class"}
    valid = set(cls._param_names())
    unknown = set(kwargs) - valid
    if unknown:
        raise UnknownLearnerError(f"{where}: {spec['class']} has no parameter(s) {sorted(unknown)}; "
                                  f"valid: {sorted(valid)}")
    return cls(**kwargs)


def _built(value, where: str):
    """A parameter value with every nested params block (also in a list, e.g. MUVofMUV's ``members``) built."""
    if isinstance(value, dict) and "class" in value:
        return make_learner(value, where)
    if isinstance(value, list) and any(isinstance(v, dict) and "class" in v for v in value):
        return [_built(v, f"{where}.{i}") for i, v in enumerate(value)]
    return value


# ------------------------------------------------------------------------------------ params.yaml learners
INPUTS = ("discrete", "mixed")
PIPELINE_KEYS = ("input", "seed_as", "all_classes", "numeric_ordinal")  # read by the pipeline, not constructor args


@dataclass
class LearnerSetup:
    estimator: object
    input: str         # "discrete": the experiment's per-split codes; "mixed": numeric columns kept
    seed_name: str     # the name random seeds are derived from
    all_classes: bool = False  # the runner sets ``classes`` to every class of the data set
    numeric_ordinal: bool = False  # the runner sets ``ordinal`` to the data set's numeric columns


def learner_spec(params: Params, name: str) -> dict:
    params = as_params(params)
    if name not in params["learners"]:
        raise params.error(("learners",), f"unknown learner {name!r}{did_you_mean(name, params['learners'])}")
    spec = params["learners"][name]
    if not isinstance(spec, dict):
        raise params.error(("learners", name), f"{spec!r} must be a mapping with a 'class' key")
    return spec


def build_learner(params: Params, name: str) -> LearnerSetup:
    """The estimator of ``learners.<name>`` and how the pipeline runs it. Three optional block keys:

    - ``input: discrete | mixed`` overrides the learner's own input kind; ``input: discrete`` feeds a
      mixed-input learner such as C4.5 the experiment's discretized codes (Kang & Tian discretize for all).
    - ``seed_as: NAME`` derives the learner's per-split random seeds from NAME instead of its own name, so
      learners that differ only in how they combine (Lee et al.'s js/mle/SumVote... MUVs, or AdaBoost vs
      MUV over AdaBoost's models) get the same random samples and are compared on the same members.
    - ``all_classes: true`` makes the runner set the learner's ``classes`` parameter to every class of the
      data set, so it keeps counters also for classes missing from a split's training part (Wiering §2.2
      starts every counter, of every class, at γ); without it a learner knows only the classes it saw.
    - ``numeric_ordinal: true`` makes the runner set the learner's ``ordinal`` parameters (nested ones too)
      to the data set's numeric columns: their discretized codes are ordered intervals, which Ting &
      Zheng's leveled trees split by threshold tests (Fig. 1, "Temperature > 70°C").

    Constructor arguments are checked here (types and ranges, when the learner declares them), so a bad
    value stops the stage before any data is read, with the line of params.yaml that holds it.
    """
    params = as_params(params)
    spec = dict(learner_spec(params, name))
    kind, seed_name = spec.pop("input", None), spec.pop("seed_as", name)
    flags = {key: spec.pop(key, False) for key in ("all_classes", "numeric_ordinal")}
    if kind is not None and kind not in INPUTS:
        raise params.error(("learners", name, "input"), f"{kind!r} must be one of {INPUTS}")
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise params.error(("learners", name, key), f"{value!r} must be true or false")
    try:
        learner = make_learner(spec, f"learners.{name}")
        validate_params(learner)
    except (UnknownLearnerError, ValueError, TypeError) as exc:
        raise _learner_error(params, name, str(exc)) from None
    if flags["all_classes"] and "classes" not in learner.get_params(deep=False):
        raise params.error(("learners", name, "all_classes"),
                           f"{type(learner).__name__} has no 'classes' parameter to set")
    if flags["numeric_ordinal"] and not ordinal_params(learner):
        raise params.error(("learners", name, "numeric_ordinal"),
                           f"{type(learner).__name__} has no 'ordinal' parameter to set")
    return LearnerSetup(learner, kind or input_kind(learner), str(seed_name), **flags)


def _learner_error(params: Params, name: str, message: str) -> ConfigError:
    """Point a learner construction error at the key it is about (the class, the parameter)."""
    keys: tuple = ("learners", name)
    where, sep, rest = message.partition(": ")
    if sep and where.startswith(f"learners.{name}"):
        keys, message = tuple(where.split(".")), rest
    if m := re.match(r"unknown learner class '([^']*)'", message):
        return params.error(keys + ("class",), f"unknown learner class {m[1]!r}{did_you_mean(m[1], CLASSES)}")
    if m := re.search(r"has no parameter\(s\) \['([^']*)'", message) or re.search(r"'(\w+)' parameter", message):
        keys += (m[1],)
    return params.error(keys, message)
