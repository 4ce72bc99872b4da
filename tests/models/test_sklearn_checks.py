"""scikit-learn's common estimator checks (``parametrize_with_checks``) over every nbx learner and transformer.

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

from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, ModeImputer, NoDiscretizer, StdDevDiscretizer
from nbx.models.c45 import C45Tree  # noqa: E402
from nbx.models.ensembles import AdaBoostM1, Bagging  # noqa: E402
from nbx.models.hbayes import HBayesNB, HBayesTAN  # noqa: E402
from nbx.models.hierarchical_mixture import HierarchicalMixtureNB  # noqa: E402
from nbx.models.kernel_nb import GeneralNB  # noqa: E402
from nbx.models.leveled_tree import LeveledNBTree  # noqa: E402
from nbx.models.logistic import LogisticRegression  # noqa: E402
from nbx.models.muv import MUV, MUVofMUV  # noqa: E402
from nbx.models.naive_bayes import NaiveBayes  # noqa: E402
from nbx.models.nbtree import NBTree  # noqa: E402
from nbx.models.snbtree import SelfAdaptiveNBTree  # noqa: E402
from nbx.models.tan import TAN  # noqa: E402

CONTINUOUS = ("the check feeds continuous X without honouring the categorical input tag; a discrete learner "
              "needs integer codes (the pipeline run covers the rest; weights as copies are tested per learner)")

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
SEPARABLE = ("the check's data are separable: at ridge 1e-8 the optimum lies far out where the objective is flat, "
             "so the weighted and the repeated-rows fits, each within the gradient tolerance, differ by ~1e-7")
# max_iter=50 for HBayes: it bounds each of its many inner Newton fits on the checks' tiny, often separable data
DISCRETE_LEARNERS = [NaiveBayes(), HierarchicalMixtureNB(), NBTree(), TAN(), LeveledNBTree(), HBayesNB(max_iter=50),
                     HBayesTAN(max_iter=50), MUV(), MUVofMUV(), Bagging(), AdaBoostM1()]
MIXED_LEARNERS = [C45Tree(), GeneralNB(), SelfAdaptiveNBTree(), LogisticRegression()]
TRANSFORMERS = [MDLDiscretizer(), StdDevDiscretizer(), EqualWidthDiscretizer(), NoDiscretizer(), ModeImputer()]
# Fixed seeds inside the pipelines: scikit-learn only seeds a top-level random_state.
PIPELINES = [make_pipeline(MDLDiscretizer(), est.set_params(**({"random_state": 0} if "random_state" in
                                                                 est.get_params() else {})))
             for est in [NaiveBayes(), HierarchicalMixtureNB(), NBTree(), TAN(), LeveledNBTree(),
                         HBayesNB(max_iter=50), HBayesTAN(max_iter=50), MUV(), MUVofMUV(), Bagging(), AdaBoostM1()]]


def expected_failed_checks(estimator) -> dict:
    if hasattr(estimator, "steps"):
        return PIPELINE
    name = type(estimator).__name__
    out = dict(DISCRETE) if getattr(estimator, "input_kind", None) == "discrete" and name != "NoDiscretizer" else {}
    if not hasattr(estimator, "decision_function"):
        out.pop("check_decision_proba_consistency", None)
    if name == "NoDiscretizer":
        out["check_sample_weight_equivalence_on_dense_data"] = CONTINUOUS
    if name == "LogisticRegression":
        out["check_sample_weight_equivalence_on_dense_data"] = SEPARABLE
    return out


with warnings.catch_warnings():  # "does not inherit from sklearn.base.BaseEstimator": by design
    warnings.simplefilter("ignore", UserWarning)
    CHECKS = parametrize_with_checks(DISCRETE_LEARNERS + MIXED_LEARNERS + TRANSFORMERS + PIPELINES[:1],
                                     expected_failed_checks=expected_failed_checks, xfail_strict=True)
    PIPELINE_CHECKS = parametrize_with_checks(PIPELINES[1:], expected_failed_checks=expected_failed_checks,
                                              xfail_strict=True)


@CHECKS
def test_sklearn_common_checks(estimator, check):
    check(estimator)


@pytest.mark.slow  # mostly scikit-learn's Pipeline and MDLDiscretizer again (pytest -m slow)
@PIPELINE_CHECKS
def test_sklearn_common_checks_in_pipelines(estimator, check):
    check(estimator)
