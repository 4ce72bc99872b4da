"""Learners from params blocks: the learner classes of nbx.models, construction, and the pipeline's keys.

A params block is a mapping with ``class`` (a key of :data:`CLASSES`) and the constructor's keyword
arguments. Any nested mapping with a ``class`` key (for example a meta-learner's ``base``, or the items of
MUVofMUV's ``members`` list) is built the same way, so ``{class: Bagging, base: {class: NaiveBayes, alpha:
0.1}, n_estimators: 10}`` works. params.yaml (:func:`build_learner`) and the command line
(:mod:`nbx.cli.common`, whose ``Class(option=value)`` text is parsed into a block) share :func:`build`.

Every hyperparameter is checked while the block is built (the class's ``_parameter_constraints``, nested
blocks at their own level), so a mistake surfaces as a :class:`~nbx.protocol.spec.BlockError` naming the key
inside the block before any data is read. Classes are imported by name when a block uses them: a train cell
loads only its learners' modules, and the code digests of :mod:`nbx.pipeline.code` do not see the others.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from nbx.core.base import input_kind, ordinal_params, validate_params
from nbx.core.errors import did_you_mean
from nbx.pipeline.config import Params, as_params, block_error
from nbx.protocol.spec import BlockError

MODELS = Path(__file__).resolve().parents[1] / "models"
_CLASS_LINE = re.compile(r"^class\s+(\w+)\s*\(([^)]*)\)\s*:", re.MULTILINE)


def discover_learners() -> dict[str, str]:
    """Learner class name -> ``"module:Name"``: the public top-level classes of nbx/models/*.py that derive
    from ``BaseEstimator``, directly or through other classes there (``Bagging(_Ensemble)``). Read from the
    files' ``class`` lines, not imported: importing every model would add about 0.4 s to each train stage, this
    takes a few milliseconds (tests/pipeline/test_learners.py checks it against the imported classes)."""
    bases, module_of = {}, {}
    for path in sorted(MODELS.glob("*.py")):
        for name, args in _CLASS_LINE.findall(path.read_text()):
            bases[name] = {arg.strip().rpartition(".")[2] for arg in args.split(",")}
            module_of[name] = path.stem
    estimators = {"BaseEstimator"}
    while new := {name for name, of in bases.items() if name not in estimators and of & estimators}:
        estimators |= new
    return {
        name: f"nbx.models.{module_of[name]}:{name}"
        for name in sorted(estimators - {"BaseEstimator"})
        if not name.startswith("_")
    }


CLASSES = discover_learners()


def learner_class(name, keys: tuple = ()):
    if not isinstance(name, str) or name not in CLASSES:
        raise BlockError(keys + ("class",), f"unknown learner class {name!r}{did_you_mean(name, CLASSES)}")
    module, _, attr = CLASSES[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def make_learner(spec: dict, keys: tuple = (), pipeline_keys: tuple = ()):
    """Build an estimator from a params block (see the module docstring), its hyperparameters checked. The
    block's keys are ``class`` and the class's parameters; ``pipeline_keys`` are further keys the caller has
    already taken out of it (offered by the did-you-mean of an unknown key)."""
    if not isinstance(spec, dict) or "class" not in spec:
        raise BlockError(keys, f"{spec!r} must be a mapping with a 'class' key")
    cls = learner_class(spec["class"], keys)
    valid = cls._param_names()
    for key in spec:
        if key != "class" and key not in valid:
            known = ("class", *valid, *pipeline_keys)
            message = f"{spec['class']} has no parameter {key!r}{did_you_mean(key, known)}"
            raise BlockError(keys + (key,), message, known, f" ({spec['class']})")
    # nested blocks were checked when they were built, so a failure here is about this block's own keys
    return checked(cls(**{key: _built(value, keys + (key,)) for key, value in spec.items() if key != "class"}), keys)


def checked(estimator, keys: tuple = ()):
    """``estimator`` once its parameters satisfy its class's ``_parameter_constraints``; else a
    :class:`~nbx.protocol.spec.BlockError` at the key of the first parameter that does not (``keys``: the block's
    path)."""
    try:
        validate_params(estimator)
    except (ValueError, TypeError) as exc:
        param = re.match(r"The '(\w+)' parameter of", str(exc))
        raise BlockError(keys + ((param[1],) if param else ()), str(exc)) from None
    return estimator


def _built(value, keys: tuple):
    """A parameter value with every nested params block (also in a list, e.g. MUVofMUV's ``members``) built."""
    if isinstance(value, dict) and "class" in value:
        return make_learner(value, keys)
    if isinstance(value, list) and any(isinstance(v, dict) and "class" in v for v in value):
        return [_built(v, keys + (i,)) for i, v in enumerate(value)]
    return value


# ------------------------------------------------------------------------------------ params.yaml learners
INPUTS = ("discrete", "mixed")
FLAGS = ("all_classes", "numeric_ordinal")
PIPELINE_KEYS = ("input", "seed_as", *FLAGS)  # what build() takes out of a block before the class's parameters


@dataclass
class LearnerSetup:
    estimator: object
    input: str  # "discrete": the experiment's per-split codes; "mixed": numeric columns kept
    seed_name: str  # the name random seeds are derived from
    all_classes: bool = False  # the runner sets ``classes`` to every class of the data set
    numeric_ordinal: bool = False  # the runner sets ``ordinal`` to the data set's numeric columns


def learner_spec(params: Params, name: str) -> dict:
    """The block ``learners.<name>`` of params.yaml (a did-you-mean when there is none)."""
    params = as_params(params)
    if name not in params["learners"]:
        raise params.error(("learners",), f"unknown learner {name!r}{did_you_mean(name, params['learners'])}")
    return params["learners"][name]


def build(block, name: str) -> LearnerSetup:
    """The estimator of a learner block and how the pipeline runs it; ``name`` is the learner's name (random
    seeds derive from it). Besides the constructor's arguments a block may hold four pipeline keys:

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

    Raises :class:`~nbx.protocol.spec.BlockError` (the key at fault inside the block) for any mistake.
    """
    if not isinstance(block, dict):
        raise BlockError((), f"{block!r} must be a mapping with a 'class' key")
    spec = dict(block)
    kind, seed_name = spec.pop("input", None), spec.pop("seed_as", name)
    flags = {key: spec.pop(key, False) for key in FLAGS}
    if kind is not None and kind not in INPUTS:
        raise BlockError(("input",), f"{kind!r} must be one of {INPUTS}")
    if not isinstance(seed_name, str):
        raise BlockError(("seed_as",), f"{seed_name!r} must be a name")
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise BlockError((key,), f"{value!r} must be true or false")
    learner = make_learner(spec, pipeline_keys=PIPELINE_KEYS)
    if flags["all_classes"] and "classes" not in learner.get_params(deep=False):
        raise BlockError(("all_classes",), f"{type(learner).__name__} has no 'classes' parameter to set")
    if flags["numeric_ordinal"] and not ordinal_params(learner):
        raise BlockError(("numeric_ordinal",), f"{type(learner).__name__} has no 'ordinal' parameter to set")
    return LearnerSetup(learner, kind or input_kind(learner), seed_name, **flags)


def build_learner(params: Params, name: str) -> LearnerSetup:
    """:func:`build` of ``learners.<name>``; a mistake is a ConfigError naming params.yaml's line and key."""
    params = as_params(params)
    try:
        return build(learner_spec(params, name), name)
    except BlockError as exc:
        raise block_error(params, ("learners", name), exc) from None


def check_learners(params: Params) -> None:
    """Build every learner of params.yaml, so the first stage of ``dvc repro`` stops at any bad block."""
    for name in as_params(params)["learners"]:
        build_learner(params, name)
