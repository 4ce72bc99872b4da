"""nbx estimators inside scikit-learn's tools, on real data from the UCI mirror (skipped without scikit-learn):
cross-validation, grid search (with a nested grid over AdaBoost's base), pipelines with scikit-learn's
encoders and nbx's MDL discretizer, binary ROC AUC and log loss, calibration, pickling, and scikit-learn
classifiers as base learners of nbx's ensembles."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone, is_classifier
from sklearn.calibration import CalibratedClassifierCV
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import KBinsDiscretizer, OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

from nbx.discretize import MDLDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1, Bagging
from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN

CV = StratifiedKFold(5, shuffle=True, random_state=0)


@pytest.fixture(scope="module")
def iris(load_dataset):
    t = load_dataset("iris")
    return t.X, np.asarray(t.classes)[t.y]


@pytest.fixture(scope="module")
def vote(load_dataset):
    """Votes (16 yes/no attributes with missing values) as nominal codes, NaN = missing, and as strings."""
    t = load_dataset("vote")
    return t, np.asarray(t.classes)[t.y]


def test_cross_val_score_of_the_weka_protocol(iris):
    """MDL discretization then naive Bayes, refitted per fold: every fold gets a finite score
    (error_score='raise': a failing fit cannot hide as NaN)."""
    X, y = iris
    pipe = make_pipeline(MDLDiscretizer(), NaiveBayes())
    scores = cross_val_score(pipe, X, y, cv=CV, error_score="raise")
    assert is_classifier(pipe) and np.all(np.isfinite(scores)) and scores.mean() > 0.9
    ordinal = make_pipeline(
        KBinsDiscretizer(n_bins=5, encode="ordinal", quantile_method="averaged_inverted_cdf"), NaiveBayes()
    )
    assert cross_val_score(ordinal, X, y, cv=CV, error_score="raise").mean() > 0.85


def test_grid_search_with_a_nested_grid_over_the_base_learner(vote):
    t, y = vote
    boost = AdaBoostM1(LeveledNBTree(), n_estimators=5, random_state=0, n_values=t.n_values)
    grid = GridSearchCV(
        boost, {"base_estimator__max_depth": [0, 1, 2], "n_estimators": [2, 5]}, cv=3, error_score="raise"
    ).fit(t.X, y)
    assert np.isfinite(grid.best_score_) and grid.best_score_ > 0.9
    assert grid.best_params_["base_estimator__max_depth"] in (0, 1, 2)
    assert grid.best_estimator_.base.max_depth == grid.best_params_["base_estimator__max_depth"]
    # the same grid under our parameter name
    same = GridSearchCV(boost, {"base__max_depth": [0, 1, 2], "n_estimators": [2, 5]}, cv=3).fit(t.X, y)
    assert same.best_score_ == grid.best_score_


def test_pipeline_ordinal_encoder_on_a_string_dataframe(vote):
    pd = pytest.importorskip("pandas")
    t, y = vote
    names = [a["name"] for a in t.attributes]
    frame = pd.DataFrame(
        {
            name: [None if np.isnan(v) else a["values"][int(v)] for v in t.X[:, j]]
            for j, (name, a) in enumerate(zip(names, t.attributes))
        }
    )
    assert isinstance(frame.iloc[0, 0], str) and frame.isna().any().any()
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1, encoded_missing_value=-1)
    pipe = make_pipeline(encoder, NaiveBayes())
    scores = cross_val_score(pipe, frame, y, cv=CV, error_score="raise")
    assert scores.mean() > 0.85
    # the same model as NaiveBayes on the nominal codes (missing = -1 both ways)
    codes = np.where(np.isnan(t.X), -1, t.X).astype(int)
    np.testing.assert_allclose(
        pipe.fit(frame, y).predict_proba(frame), NaiveBayes().fit(codes, y).predict_proba(codes), rtol=1e-12
    )
    named = NaiveBayes().fit(frame.apply(lambda c: c.astype("category").cat.codes), y)
    assert list(named.feature_names_in_) == names


@pytest.mark.parametrize(
    "model", [NaiveBayes(), TAN(), C45Tree(), AdaBoostM1(NaiveBayes(), random_state=0)], ids=lambda m: type(m).__name__
)
def test_binary_roc_auc_and_log_loss(vote, model):
    t, y = vote
    for scoring, lo, hi in [("roc_auc", 0.9, 1.0), ("neg_log_loss", -1.0, 0.0)]:
        scores = cross_val_score(model, t.X, y, cv=CV, scoring=scoring, error_score="raise")
        assert np.all(np.isfinite(scores)) and lo < scores.mean() <= hi, (scoring, scores)


def test_calibrated_classifier(vote):
    t, y = vote
    calibrated = CalibratedClassifierCV(NaiveBayes(), cv=3).fit(t.X, y)
    proba = calibrated.predict_proba(t.X)
    assert proba.shape == (len(y), 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.mean(calibrated.predict(t.X) == y) > 0.85


def test_pickled_pipeline_predicts_the_same(iris):
    X, y = iris
    pipe = make_pipeline(MDLDiscretizer(), AdaBoostM1(LeveledNBTree(max_depth=1), n_estimators=5, random_state=0))
    pipe.fit(X, y)
    again = pickle.loads(pickle.dumps(pipe))
    np.testing.assert_array_equal(again.predict_proba(X), pipe.predict_proba(X))
    assert clone(pipe).get_params()["adaboostm1__base__max_depth"] == 1


def test_mdl_discretizer_in_a_pipeline_keeps_weka_cuts(iris):
    X, y = iris
    pipe = make_pipeline(MDLDiscretizer(), NaiveBayes()).fit(X, y)
    weka = [[5.55, 6.15], [2.95, 3.35], [2.45, 4.75], [0.8, 1.75]]  # Weka's supervised Discretize on iris
    for got, want in zip(pipe[0].cut_points_, weka):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert list(pipe[0].get_feature_names_out()) == ["x0", "x1", "x2", "x3"]


def test_scikit_learn_classifiers_as_base_learners(iris):
    X, y = iris
    boost = AdaBoostM1(DecisionTreeClassifier(max_depth=1), n_estimators=10, random_state=0).fit(X, y)
    assert len(boost.estimators_) == 10 and boost.score(X, y) > 0.9
    assert boost.decision_function(X).shape == (len(y), 3)
    bag = Bagging(KNeighborsClassifier(3), n_estimators=5, random_state=0).fit(X, y)  # no sample_weight: copies
    assert bag.score(X, y) > 0.9
    with pytest.raises(TypeError, match="base learner's fit must accept sample_weight"):
        AdaBoostM1(KNeighborsClassifier(3), n_estimators=3).fit(X, y)
