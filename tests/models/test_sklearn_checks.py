"""scikit-learn's common estimator checks (``parametrize_with_checks``) over every nbx learner and transformer,
found in nbx.models and nbx.discretize (tests/estimators.py), so a new one is checked without being listed.

Discrete learners run twice: alone, with their ``categorical`` input tag honoured (the checks then feed
integer codes), and inside ``make_pipeline(MDLDiscretizer(), learner)`` on the checks' continuous data
(NaiveBayes by default, the other learners with ``pytest -m slow``).
Every check must pass except those listed below, each with its reason; ``xfail_strict`` makes a listed
check that starts passing fail too, so the list stays exact. Skipped without scikit-learn.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("sklearn")

from estimators import WEIGHTS_ARE_NOT_COPIES, estimator_classes
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from nbx.discretize import MDLDiscretizer
from nbx.models.naive_bayes import NaiveBayes

CONTINUOUS = (
    "the check feeds continuous X without honouring the categorical input tag; a discrete learner "
    "needs integer codes (the pipeline run covers the rest; weights as copies are tested on integer codes for "
    "every learner in tests/bad_inputs/test_weights.py)"
)

# Checks a discrete learner fails when run alone (integer codes, NaN and negative codes = missing).
DISCRETE = {
    "check_positive_only_tag_during_fit": "the check subtracts the mean from float codes, so the codes stop "
    "being integers (negative codes would be read as missing)",
    "check_sample_weight_equivalence_on_dense_data": CONTINUOUS,
    "check_classifiers_one_label_sample_weights": CONTINUOUS,
    "check_decision_proba_consistency": CONTINUOUS,
}
# Checks scikit-learn's own Pipeline fails, whatever its steps.
PIPELINE = {
    "check_estimators_overwrite_params": "Pipeline fits its steps in place (scikit-learn's own pipelines fail it)",
    "check_dont_overwrite_parameters": "Pipeline fits its steps in place (scikit-learn's own pipelines fail it)",
    "check_estimators_nan_inf": "Pipeline's tags do not forward allow_nan; its nbx steps read NaN as missing",
}
# Options for the checks' tiny, often separable data: max_iter bounds each of HBayes's many inner Newton fits;
# LogisticRegression's ridge 1e-6: at the default 1e-8 the optimum on separable data lies far out where the
# objective is flat, so two fits that each stop within the gradient tolerance (the weighted one and the one on
# repeated rows, check_sample_weight_equivalence_on_dense_data) differ by ~1e-7 in their decision values.
CHECK_OPTIONS = {"HBayesNB": {"max_iter": 50}, "HBayesTAN": {"max_iter": 50}, "LogisticRegression": {"ridge": 1e-6}}


def for_checks(cls, seeded: bool = False):
    """An instance with the checks' options; ``seeded``: a fixed random_state (scikit-learn only seeds a
    top-level one, not a pipeline's steps)."""
    estimator = cls(**CHECK_OPTIONS.get(cls.__name__, {}))
    return estimator.set_params(random_state=0) if seeded and "random_state" in estimator.get_params() else estimator


LEARNERS = [for_checks(cls) for cls in estimator_classes("nbx.models")]
TRANSFORMERS = [for_checks(cls) for cls in estimator_classes("nbx.discretize")]
# Discrete learners also run after MDL discretization, on the checks' continuous data; NaiveBayes by default.
PIPELINES = sorted(
    (
        make_pipeline(MDLDiscretizer(), for_checks(type(est), seeded=True))
        for est in LEARNERS
        if est.input_kind == "discrete"
    ),
    key=lambda pipe: not isinstance(pipe[-1], NaiveBayes),
)


def expected_failed_checks(estimator) -> dict:
    if hasattr(estimator, "steps"):
        return PIPELINE
    name = type(estimator).__name__
    out = dict(DISCRETE) if getattr(estimator, "input_kind", None) == "discrete" and name != "NoDiscretizer" else {}
    if not hasattr(estimator, "decision_function"):
        out.pop("check_decision_proba_consistency", None)
    if name == "NoDiscretizer":
        out["check_sample_weight_equivalence_on_dense_data"] = CONTINUOUS
    if name in WEIGHTS_ARE_NOT_COPIES:  # the property itself, whatever the input
        out["check_sample_weight_equivalence_on_dense_data"] = WEIGHTS_ARE_NOT_COPIES[name]
    return out


with warnings.catch_warnings():  # "does not inherit from sklearn.base.BaseEstimator": by design
    warnings.simplefilter("ignore", UserWarning)
    CHECKS = parametrize_with_checks(
        LEARNERS + TRANSFORMERS + PIPELINES[:1], expected_failed_checks=expected_failed_checks, xfail_strict=True
    )
    PIPELINE_CHECKS = parametrize_with_checks(
        PIPELINES[1:], expected_failed_checks=expected_failed_checks, xfail_strict=True
    )


@CHECKS
def test_sklearn_common_checks(estimator, check):
    check(estimator)


@pytest.mark.slow  # mostly scikit-learn's Pipeline and MDLDiscretizer again (pytest -m slow)
@PIPELINE_CHECKS
def test_sklearn_common_checks_in_pipelines(estimator, check):
    check(estimator)
