import tracemalloc

import numpy as np
import pytest

from nbx.core.base import BaseEstimator, ClassifierMixin, as_codes, check_weights, clone, encode_labels, input_kind
from nbx.models.ensembles import VOTE_ZERO_ERROR, AdaBoostM1, Bagging, adaboost_reweight
from nbx.models.naive_bayes import NaiveBayes
from nbx.pipeline.learners import make_learner


class Stump(ClassifierMixin, BaseEstimator):
    """Weighted decision stump on discrete codes: the attribute with the lowest weighted error (ties to the
    lowest index), each value predicting its weighted majority class (ties to the lowest class)."""

    input_kind = "discrete"

    def __init__(self):
        pass

    def fit(self, X, y, sample_weight=None, n_values=None):
        codes = as_codes(X)
        self.classes_, yi = encode_labels(y)
        w = check_weights(sample_weight, len(yi))
        best = None
        for a in range(codes.shape[1]):
            table = np.zeros((codes[:, a].max() + 1, len(self.classes_)))
            np.add.at(table, (codes[:, a], yi), w)
            err = w.sum() - table.max(axis=1).sum()
            if best is None or err < best[0]:
                best = (err, a, table.argmax(axis=1))
        _, self.attribute_, self.value_class_ = best
        return self

    def predict_proba(self, X):
        codes = as_codes(X)[:, self.attribute_]
        out = np.zeros((len(codes), len(self.classes_)))
        out[np.arange(len(codes)), self.value_class_[np.minimum(codes, len(self.value_class_) - 1)]] = 1
        return out


class Minority(ClassifierMixin, BaseEstimator):
    """Always predicts the class with the smallest weighted count: error >= 0.5 on two classes."""

    input_kind = "discrete"

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, n_values=None):
        self.classes_, yi = encode_labels(y)
        w = check_weights(sample_weight, len(yi))
        self.choice_ = np.argmin(np.bincount(yi, weights=w, minlength=len(self.classes_)))
        return self

    def predict_proba(self, X):
        out = np.zeros((len(X), len(self.classes_)))
        out[:, self.choice_] = 1
        return out


# Two attributes, 10 rows; attribute a errs on rows 4 and 9, attribute b on rows 0 and 1.
A = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
B = np.array([1, 1, 0, 0, 1, 1, 1, 1, 1, 0])
Y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 0])
XAB = np.column_stack([A, B])


def random_data(n=120, d=6, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, d))
    y = (X[:, 0] + (X[:, 1] > 1) + rng.integers(0, 2, n)) % k
    return X, y


# ---------------------------------------------------------------- AdaBoost.M1


def test_adaboost_first_rounds_by_hand():
    model = AdaBoostM1(Stump(), n_estimators=2).fit(XAB, Y)
    assert model.n_restarts_ == {"error>=0.5": 0, "error=0": 0}
    # round 1: stump on a, 2 of 10 wrong -> eps 0.2, vote log(0.8/0.2)
    assert model.estimators_[0].attribute_ == 0
    np.testing.assert_allclose(model.estimator_errors_, [0.2, 0.125])
    np.testing.assert_allclose(model.estimator_weights_, [np.log(4.0), np.log(7.0)])
    # eq. 2/3: wrong rows 1/(2*0.2) = 2.5, right rows 1/(2*0.8) = 0.625 (already sum to N = 10)
    expected = np.full(10, 0.625)
    expected[[4, 9]] = 2.5
    np.testing.assert_allclose(model.training_weights_[1], expected)
    # round 2 picks attribute b, wrong on rows 0, 1: eps = 2 * 0.625 / 10
    assert model.estimators_[1].attribute_ == 1


def test_adaboost_reweight_third_round_and_floor():
    w2 = np.full(10, 0.625)
    w2[[4, 9]] = 2.5
    wrong = np.zeros(10, bool)
    wrong[[0, 1]] = True
    w3 = adaboost_reweight(w2, wrong, 0.125, 10.0)
    expected = w2 / 1.75
    expected[[0, 1]] = 0.625 / 0.25
    np.testing.assert_allclose(w3, expected)
    np.testing.assert_allclose(w3.sum(), 10.0)
    # floor: 1e-9 / (2 * 0.75) is below 1e-8 -> 1e-8, then everything renormalized to sum 4
    w = adaboost_reweight(np.array([1e-9, 1.0, 1.0, 1.0]), np.array([False, True, False, False]), 0.25, 4.0)
    raw = np.array([1e-8, 2.0, 1 / 1.5, 1 / 1.5])
    np.testing.assert_allclose(w, raw * 4.0 / raw.sum(), rtol=1e-12)
    assert w.sum() == pytest.approx(4.0)


def test_adaboost_zero_error_votes_log_1e10_and_bootstraps():
    X = np.column_stack([A, B])
    model = AdaBoostM1(Stump(), n_estimators=3, random_state=1).fit(X, A)  # y = attribute a: error 0
    np.testing.assert_array_equal(model.estimator_weights_, np.full(3, np.log(1e10)))
    assert np.log(1e10) == VOTE_ZERO_ERROR
    assert model.n_restarts_ == {"error>=0.5": 0, "error=0": 3}
    np.testing.assert_array_equal(model.training_weights_[0], np.ones(10))
    for w in model.training_weights_[1:]:  # bootstrap: integer counts summing to N
        np.testing.assert_array_equal(w, np.round(w))
        assert w.sum() == 10 and np.any(w != 1)
    np.testing.assert_array_equal(model.predict(X), A)


def test_adaboost_restart_on_error_half_xor():
    # NB on XOR predicts one class everywhere: eps = 0.5 -> model discarded, bootstrap restart
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = X[:, 0] ^ X[:, 1]
    model = AdaBoostM1(NaiveBayes(), n_estimators=3, random_state=0).fit(X, y)
    assert model.n_restarts_["error>=0.5"] >= 1
    assert len(model.estimators_) == 3
    assert model.n_iter_ == 3 + model.n_restarts_["error>=0.5"]  # trials: kept and discarded models
    assert np.all(model.estimator_errors_ < 0.5)
    first = model.training_weights_[0]
    np.testing.assert_array_equal(first, np.round(first))
    assert first.sum() == 12 and np.any(first != 1)


def test_adaboost_restart_cap_and_fallback():
    X, y = random_data(40, 3, 2)
    model = AdaBoostM1(Minority(), n_estimators=5, max_restarts=4, random_state=0).fit(X, y)
    assert model.n_restarts_["error>=0.5"] == 5  # 4 allowed restarts + the one that exits the loop
    assert model.n_iter_ == 5
    assert len(model.estimators_) == 1 and model.estimator_weights_.tolist() == [1.0]
    assert model.estimator_errors_[0] >= 0.5


def test_adaboost_noise_restart_weights():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    y = X[:, 0] ^ X[:, 1]
    model = AdaBoostM1(NaiveBayes(), n_estimators=2, restart="noise", random_state=3).fit(X, y)
    assert model.n_restarts_["error>=0.5"] >= 1
    w = model.training_weights_[0]
    assert w.sum() == pytest.approx(20.0)
    assert np.all(w / w.mean() > 0.9 / 1.1) and np.all(w / w.mean() < 1.1 / 0.9)
    assert len(np.unique(w)) == 20  # continuous noise, not bootstrap counts


class Recorder(Stump):
    """A Stump that keeps the sample weights it was fitted under (AdaBoost passes those of the rows of positive
    weight)."""

    def fit(self, X, y, sample_weight=None, n_values=None):
        self.weights_ = np.array(sample_weight, dtype=float)
        return super().fit(X, y, sample_weight, n_values)


@pytest.mark.parametrize("restart", AdaBoostM1.RESTARTS)
@pytest.mark.parametrize("zero_error", [False, True])
def test_training_weights_are_the_weights_each_model_was_fitted_under(restart, zero_error):
    """training_weights_ rebuilds each kept model's weights from its run's start (the sample weights or a restart's
    draw) and step (iii) of the models before it: bit for bit the weights the base model received, after restarts
    for error >= 0.5 or for error 0 alike, and the same arrays by index, by iteration and as np.array."""
    X, y = random_data(n=150, d=4, k=3, seed=1)
    if zero_error:  # the class is attribute 0: every stump is exact, every round restarts
        y = X[:, 0]
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    model = AdaBoostM1(Recorder(), n_estimators=25, restart=restart, random_state=0).fit(X, y, sample_weight=w)
    assert model.n_restarts_["error=0" if zero_error else "error>=0.5"] > 0
    history = model.training_weights_
    assert len(history) == len(model.estimators_) == 25
    listed = list(history)
    for t, est in enumerate(model.estimators_):
        fitted = listed[t] > 0
        assert listed[t][fitted].tobytes() == est.weights_.tobytes()
        assert history[t].tobytes() == listed[t].tobytes() == history[t - 25].tobytes()
    assert np.array(history).tobytes() == np.stack(listed).tobytes()
    assert [a.tobytes() for a in history[3:9:2]] == [listed[t].tobytes() for t in (3, 5, 7)]
    if restart == "bootstrap":
        assert any(np.any(a == 0) for a in listed)  # rows a restart did not draw
    with pytest.raises(IndexError):
        history[25]


def test_training_weights_are_new_arrays_on_every_read():
    """A reader may write into the arrays it gets: later reads, and the models after it in an iteration, are
    unchanged."""
    X, y = random_data(n=80, seed=2)
    history = AdaBoostM1(NaiveBayes(), n_estimators=6, random_state=0).fit(X, y).training_weights_
    before = [a.copy() for a in history]
    spoiled = []
    for a in history:
        spoiled.append(a.copy())
        a[:] = -1.0
    history[2][:] = -1.0
    assert [a.tobytes() for a in spoiled] == [a.tobytes() for a in before] == [a.tobytes() for a in history]


@pytest.mark.parametrize("restart", AdaBoostM1.RESTARTS)
def test_boosting_rounds_hold_no_weights_per_round(restart):
    """AdaBoost keeps one bit per training row and kept model for its training weights, not the N floats of each
    weighting: 30 more rounds (restarts included) raise the traced peak of a fit by less than a byte per row and
    round, an eighth of the weights' floats (tracemalloc, numpy's buffers included)."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (20_000, 6))
    y = ((X[:, 0] + X[:, 1] * X[:, 2] + rng.integers(0, 3, len(X))) % 3 > 0).astype(int)
    AdaBoostM1(NaiveBayes(), n_estimators=3, restart=restart, random_state=0).fit(X, y)  # compiled rounds loaded
    peaks = []
    for rounds in (10, 40):
        model = AdaBoostM1(NaiveBayes(), n_estimators=rounds, restart=restart, random_state=0)
        tracemalloc.start()
        model.fit(X, y)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert len(model.estimators_) == 40 and model.n_restarts_["error>=0.5"] > 0
    assert peaks[1] - peaks[0] < 30 * len(X)  # the code before kept the weights: 8.1 bytes per row and round


def test_adaboost_votes_determinism_and_proba():
    X, y = random_data()
    a = AdaBoostM1(NaiveBayes(), n_estimators=6, random_state=5).fit(X, y)
    b = AdaBoostM1(NaiveBayes(), n_estimators=6, random_state=5).fit(X, y)
    assert a.decision_function(X).tobytes() == b.decision_function(X).tobytes()
    assert a.estimator_weights_.tobytes() == b.estimator_weights_.tobytes()
    # decision_function = brute-force weighted vote sums
    votes = np.zeros((len(X), 3))
    for est, alpha in zip(a.estimators_, a.estimator_weights_):
        votes[np.arange(len(X)), est.predict(X)] += alpha
    np.testing.assert_allclose(a.decision_function(X), votes)
    proba = a.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(a.predict(X), a.classes_[np.argmax(votes, axis=1)])
    assert len(a.estimators_) == 6 == len(a.estimator_errors_)


def test_adaboost_forwards_seeds_and_labels():
    X, y = random_data()
    labels = np.array(["x", "y", "z"])[y]
    model = AdaBoostM1(NaiveBayes(alpha_jitter=0.01), n_estimators=3, random_state=2).fit(X, labels)
    seeds = [est.random_state for est in model.estimators_]
    assert all(isinstance(s, int) for s in seeds) and len(set(seeds)) == 3
    assert set(model.predict(X)) <= {"x", "y", "z"}


def test_adaboost_zero_weight_rows_are_absent():
    X, y = random_data(60)
    w = np.ones(60)
    w[:10] = 0
    a = AdaBoostM1(NaiveBayes(), n_estimators=4, random_state=0).fit(X, y, sample_weight=w, n_values=[3] * 6)
    b = AdaBoostM1(NaiveBayes(), n_estimators=4, random_state=0).fit(X[10:], y[10:], n_values=[3] * 6)
    assert a.decision_function(X).tobytes() == b.decision_function(X).tobytes()


def test_adaboost_bad_params():
    X, y = random_data(20)
    with pytest.raises(ValueError, match="restart"):
        AdaBoostM1(restart="resample").fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        AdaBoostM1(n_estimators=0).fit(X, y)


# ---------------------------------------------------------------- Bagging


def test_bagging_one_estimator_soft_equals_hard():
    X, y = random_data()
    hard = Bagging(NaiveBayes(), n_estimators=1, random_state=4).fit(X, y)
    soft = Bagging(NaiveBayes(), n_estimators=1, voting="soft", random_state=4).fit(X, y)
    np.testing.assert_array_equal(hard.predict(X), soft.predict(X))
    np.testing.assert_array_equal(hard.bootstrap_counts_[0], soft.bootstrap_counts_[0])


def test_bagging_bootstrap_reproducible_and_sized():
    X, y = random_data(100)
    a = Bagging(NaiveBayes(), n_estimators=3, max_samples=0.9, random_state=7).fit(X, y)
    b = Bagging(NaiveBayes(), n_estimators=3, max_samples=0.9, random_state=7).fit(X, y)
    c = Bagging(NaiveBayes(), n_estimators=3, max_samples=0.9, random_state=8).fit(X, y)
    for ca, cb in zip(a.bootstrap_counts_, b.bootstrap_counts_):
        np.testing.assert_array_equal(ca, cb)
        assert ca.sum() == 90
    assert any(np.any(ca != cc) for ca, cc in zip(a.bootstrap_counts_, c.bootstrap_counts_))
    assert a.predict_proba(X).tobytes() == b.predict_proba(X).tobytes()


def test_bagging_base_equals_fit_on_duplicated_rows():
    X, y = random_data(80)
    model = Bagging(NaiveBayes(), n_estimators=2, random_state=0).fit(X, y, n_values=[3] * 6)
    counts = model.bootstrap_counts_[1].astype(int)
    rep = np.repeat(np.arange(80), counts)
    ref = NaiveBayes().fit(X[rep], y[rep], n_values=[3] * 6)
    np.testing.assert_allclose(model.estimators_[1].predict_proba(X), ref.predict_proba(X))


def test_bagging_hard_votes_and_missing_class():
    X, y = random_data(60)
    y = y.copy()
    y[0] = 3  # a rare fourth class, absent from most bootstrap samples
    model = Bagging(NaiveBayes(), n_estimators=7, max_samples=0.3, random_state=1).fit(X, y)
    assert any(len(est.classes_) < 4 for est in model.estimators_)
    proba = model.predict_proba(X)
    assert proba.shape == (60, 4)
    votes = np.zeros((60, 4))
    for est in model.estimators_:
        votes[np.arange(60), est.classes_[np.argmax(est.predict_proba(X), axis=1)]] += 1
    np.testing.assert_allclose(proba, votes / 7)
    np.testing.assert_array_equal(model.predict(X), np.argmax(votes, axis=1))  # ties -> lowest index
    soft = Bagging(NaiveBayes(), n_estimators=7, max_samples=0.3, voting="soft", random_state=1).fit(X, y)
    sp = soft.predict_proba(X)
    np.testing.assert_allclose(sp.sum(axis=1), 1.0)
    ref = np.zeros((60, 4))
    for est in soft.estimators_:
        ref[:, est.classes_] += est.predict_proba(X)
    np.testing.assert_allclose(sp, ref / 7)


def test_bagging_input_kind_follows_base_and_registry():
    class MixedBase(NaiveBayes):
        input_kind = "mixed"

    assert input_kind(Bagging(MixedBase())) == "mixed"
    assert input_kind(Bagging(NaiveBayes())) == "discrete"
    model = make_learner({"class": "Bagging", "base": {"class": "NaiveBayes", "alpha": 0.1}, "n_estimators": 3})
    assert model.base.alpha == 0.1 and model.n_estimators == 3
    boost = make_learner({"class": "AdaBoostM1", "base": {"class": "NaiveBayes"}, "restart": "noise"})
    assert boost.restart == "noise"


def test_bagging_bad_params():
    X, y = random_data(20)
    with pytest.raises(ValueError, match="voting"):
        Bagging(voting="mean").fit(X, y)
    with pytest.raises(ValueError, match="max_samples"):
        Bagging(max_samples=0).fit(X, y)


@pytest.mark.parametrize(
    "ensemble",
    [
        Bagging(NaiveBayes(alpha=0.1, denominator="class"), n_estimators=4),
        AdaBoostM1(NaiveBayes(alpha=0.1, denominator="class"), n_estimators=4, restart="noise"),
    ],
)
def test_classes_are_passed_to_every_base_model(ensemble):
    """With ``classes``, every base model keeps counters for every class of the ensemble (fitted on class
    indices), also those absent from y and from its sample; without it the bases know their sample's."""
    X, y = random_data(60, k=2)
    labels = np.array(["a", "b"])[y]
    model = clone(ensemble).set_params(classes=["a", "b", "z"], random_state=3).fit(X, labels)
    np.testing.assert_array_equal(model.classes_, ["a", "b", "z"])
    for est in model.estimators_:
        np.testing.assert_array_equal(est.classes_, [0, 1, 2])
        assert est.class_count_[2] == 0
    assert model.predict_proba(X).shape == (60, 3)
    assert clone(model).get_params()["classes"] == ["a", "b", "z"]
    plain = clone(ensemble).set_params(random_state=3).fit(X, labels)
    assert all(len(est.classes_) == 2 for est in plain.estimators_)
    with pytest.raises(ValueError, match="set classes on the ensemble, not on its base"):
        clone(ensemble).set_params(base__classes=[0, 1, 2]).fit(X, y)


@pytest.mark.parametrize("prior", ["laplace", "m_estimate"])
def test_boosted_naive_bayes_compiled_rounds_equal_the_numpy_rounds(prior, monkeypatch):
    """A large boosting round of naive Bayes counts, sums and chooses in compiled loops;
    they make numpy's additions in its order, so the boosted model is the same to the bit: every round's error and
    vote, the training weights and the predicted probabilities (4 classes, missing values)."""
    from nbx.models import naive_bayes

    rng = np.random.default_rng(13)
    X = rng.integers(-1, 4, (600, 12)).astype(float)
    X[X < 0] = np.nan
    y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) + rng.integers(0, 3, 600)) % 4
    fitted = {}
    for compiled in (True, False):
        monkeypatch.setattr(naive_bayes, "_boost_compiled", lambda rows, compiled=compiled: compiled)
        model = AdaBoostM1(NaiveBayes(prior=prior), n_estimators=30, random_state=3).fit(X, y)
        fitted[compiled] = (
            model.estimator_errors_,
            model.estimator_weights_,
            np.array(model.training_weights_),
            model.predict_proba(X),
        )
    for a, b in zip(fitted[True], fitted[False]):
        assert a.tobytes() == b.tobytes()
