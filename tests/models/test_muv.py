"""MUV ensembles (Lee et al. 2006 §3.1, §4): combination rules, sampling schemes, MUV[MUV]."""

import numpy as np
import pytest
from chain_data import chain_data

from nbx.core.base import check_rng
from nbx.models.muv import (
    COMBINERS,
    MUV,
    MUVofMUV,
    combine,
    compact_weights,
    expand_weights,
    mle_log_variance,
)
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN
from nbx.models.variance import mean_log_variance
from nbx.pipeline.learners import make_learner


def stats(mu, sd):
    """(log μ, log σ²) arrays (k, n, K) from plain μ and σ."""
    return np.log(np.asarray(mu, float)), 2 * np.log(np.asarray(sd, float))


# ------------------------------------------------------------------------------------------ combination
def test_paper_example_mle():
    """§1: H_A says 0.3 ± 0.1 / 0.7 ± 0.1, H_B 0.6 ± 0.005 / 0.4 ± 0.005 -> MUV returns +c."""
    log_mu, log_var = stats([[[0.3, 0.7]], [[0.6, 0.4]]], [[[0.1, 0.1]], [[0.005, 0.005]]])
    q = combine(log_mu, log_var, "mle")
    expected_plus = (0.3 / 0.01 + 0.6 / 0.005**2) / (1 / 0.01 + 1 / 0.005**2)  # eq. 3
    np.testing.assert_allclose(q[0], [expected_plus, 1 - expected_plus], rtol=1e-12)
    assert combine(log_mu, log_var, "sum_prob")[0].argmax() == 1  # the unweighted average prefers -c
    np.testing.assert_allclose(np.exp(mle_log_variance(log_var))[0], 1 / (1 / 0.01 + 1 / 0.005**2))


def test_mle_with_equal_variances_is_the_mean():
    rng = np.random.default_rng(0)
    mu = rng.dirichlet(np.ones(3), size=(4, 10))
    log_var = np.full((4, 10, 3), np.log(0.02))
    q = combine(np.log(mu), log_var, "mle")
    np.testing.assert_allclose(q, mu.mean(axis=0), rtol=1e-12)


def test_js_matches_eq4_and_guard_keeps_weights_non_negative():
    rng = np.random.default_rng(1)
    mu = rng.dirichlet(np.ones(3), size=(3, 200))
    sd = rng.uniform(0.01, 2.0, size=(3, 200, 3))  # large σ: the (.)^+ guard is often active
    log_mu, log_var = stats(mu, sd)
    a = (1 / sd**2).sum(0)
    b = (mu / sd**2).sum(0)
    raw = 1 - a / b**2
    assert np.any(raw < 0) and np.any(raw > 0)
    q_js = np.maximum(raw, 0) * b / a
    alive = q_js.sum(1) > 0
    q = combine(log_mu, log_var, "js")
    assert np.all(q >= 0) and np.allclose(q.sum(1), 1)
    np.testing.assert_allclose(q[alive], q_js[alive] / q_js[alive].sum(1, keepdims=True), rtol=1e-10)
    q_mle = b / a
    np.testing.assert_allclose(q[~alive], q_mle[~alive] / q_mle[~alive].sum(1, keepdims=True), rtol=1e-10)


def test_alternative_combiners_by_hand():
    mu = [[[0.9, 0.1]], [[0.4, 0.6]], [[0.45, 0.55]]]
    sd = [[[0.3, 0.3]], [[0.1, 0.1]], [[0.2, 0.2]]]
    log_mu, log_var = stats(mu, sd)
    # votes 1:2, plus the mean probabilities (1.75/3, 1.25/3) as tie-breaker, over k + 1 = 4
    np.testing.assert_allclose(combine(log_mu, log_var, "sum_vote")[0], [(1 + 1.75 / 3) / 4, (2 + 1.25 / 3) / 4])
    np.testing.assert_allclose(combine(log_mu, log_var, "max_prob")[0], [0.9 / 1.5, 0.6 / 1.5])
    np.testing.assert_allclose(combine(log_mu, log_var, "sum_prob")[0], [1.75 / 3, 1.25 / 3])
    np.testing.assert_allclose(combine(log_mu, log_var, "min_var")[0], [0.4, 0.6])  # member 2, σ = 0.1
    s = np.array([0.9 / 0.09 + 0.4 / 0.01 + 0.45 / 0.04, 0.1 / 0.09 + 0.6 / 0.01 + 0.55 / 0.04])
    np.testing.assert_allclose(combine(log_mu, log_var, "sum_p_over_v")[0], s / s.sum())


def test_sum_vote_ties_go_to_the_larger_summed_probability():
    """§4.5 SumVote: a 1:1 tie goes to the class with the larger Σ_i μ_i(c), not to the lowest index; a vote
    majority is never overturned by the probabilities."""
    sd = np.full((2, 1, 2), 0.1)
    tie = combine(*stats([[[0.6, 0.4]], [[0.1, 0.9]]], sd), "sum_vote")[0]  # votes 1:1, sums 0.7 : 1.3
    assert tie.argmax() == 1 and tie.sum() == pytest.approx(1.0)
    tie3 = combine(*stats([[[0.5, 0.3, 0.2]], [[0.1, 0.2, 0.7]]], sd[..., [0, 0, 0]]), "sum_vote")[0]
    assert tie3.argmax() == 2  # 0.6 vs 0.9 among the tied
    majority = combine(
        *stats([[[0.51, 0.49]], [[0.51, 0.49]], [[1e-6, 1 - 1e-6]]], np.full((3, 1, 2), 0.1)), "sum_vote"
    )[0]
    assert majority.argmax() == 0  # 2 votes beat sums 1.02 : 1.98


def test_combiners_survive_extreme_log_values():
    log_mu = np.log(np.array([[[1 - 1e-300, 1e-300]], [[0.5, 0.5]]]).clip(1e-320))
    log_mu[0, 0, 1] = -900.0
    log_var = np.array([[[-1800.0, -1800.0]], [[-3.0, -3.0]]])
    for name in COMBINERS:
        q = combine(log_mu, log_var, name)
        assert np.all(np.isfinite(q)) and np.allclose(q.sum(1), 1), name
    with pytest.raises(ValueError, match="combiner"):
        combine(log_mu, log_var, "median")


# --------------------------------------------------------------------------------------------- sampling
def test_bootstrap_weights_are_resamples():
    rng = np.random.default_rng(2)
    X, y = chain_data(300, rng)
    m = MUV(n_estimators=4, random_state=0).fit(X, y)
    w = m.sample_weights_
    assert w.shape == (4, 300)
    assert np.all(w == np.round(w)) and np.all(w.sum(1) == 300)
    assert not np.array_equal(w[0], w[1])
    for est, mw in zip(m.estimators_, w):  # member = base fitted on its sample (weights == row copies)
        ref = NaiveBayes().fit(np.repeat(X, mw.astype(int), axis=0), np.repeat(y, mw.astype(int)))
        np.testing.assert_allclose(est.predict_proba(X), ref.predict_proba(X), rtol=1e-12)


def test_disjoint_balanced_parts():
    rng = np.random.default_rng(3)
    X, y = chain_data(301, rng, k=3)
    w = rng.uniform(0.5, 2, 301)
    m = MUV(n_estimators=3, sampling="disjoint", random_state=0).fit(X, y, sample_weight=w)
    sw = m.sample_weights_
    assert np.all((sw > 0).sum(0) == 1)  # each row in exactly one part
    np.testing.assert_allclose(sw.sum(0), w)
    per_class = np.array([[np.sum((sw[i] > 0) & (y == c)) for c in range(3)] for i in range(3)])
    assert np.all(per_class.max(0) - per_class.min(0) <= 1)  # class mix kept up to one row


@pytest.mark.parametrize("k", [1, 2, 3, 4, 7])
def test_skewed_sorted_parts_are_class_sorted_contiguous_runs(k):
    """Fig. 2(c)'s caption (skew="sorted"): disjoint parts that cover the rows, ≈ |S|/k each, cut from the class-sorted rows
    (every class of part i precedes every class of part i + 1), random order within a class."""
    rng = np.random.default_rng(4)
    X, y = chain_data(203, rng, k=3)
    w = rng.uniform(0.5, 2, 203)
    m = MUV(n_estimators=k, sampling="disjoint", balance="skewed", skew="sorted", random_state=0).fit(
        X, y, sample_weight=w
    )
    sw = m.sample_weights_
    assert len(m.estimators_) == k and np.all((sw > 0).sum(0) == 1)  # disjoint and covering
    np.testing.assert_allclose(sw.sum(0), w)
    sizes = (sw > 0).sum(1)
    assert sizes.max() - sizes.min() <= 1
    classes = [y[part > 0] for part in sw]
    assert all(a.max() <= b.min() for a, b in zip(classes, classes[1:]))
    for c in range(3):  # a class cut between two parts:
        cut = [np.sum(yc == c) for yc in classes]  # the parts sum to its rows
        assert sum(cut) == np.sum(y == c)
    other = MUV(n_estimators=k, sampling="disjoint", balance="skewed", skew="sorted", random_state=1).fit(
        X, y, sample_weight=w
    )
    if k in (2, 4):  # a cut inside a class: random rows
        assert not np.array_equal(other.sample_weights_ > 0, sw > 0)
    boot = MUV(n_estimators=k, sampling="bootstrap", balance="skewed", skew="sorted", random_state=0).fit(X, y)
    for part, bw in zip(sw > 0, boot.sample_weights_):  # bootstrap inside each part
        assert np.all(bw[~part] == 0) and bw.sum() == pytest.approx(part.sum())


@pytest.mark.parametrize("sampling", ["disjoint", "bootstrap"])
def test_skewed_per_class_members_see_one_class(sampling):
    """§4.3 (the default skew): one member per class, trained on that class's rows only."""
    rng = np.random.default_rng(4)
    X, y = chain_data(200, rng, k=3)
    m = MUV(n_estimators=7, sampling=sampling, balance="skewed", random_state=0).fit(X, y)
    assert m.skew == "per_class" and len(m.estimators_) == 3  # k = number of classes
    for c, mw in enumerate(m.sample_weights_):
        assert np.all(mw[y != c] == 0) and mw[y == c].sum() == pytest.approx(np.sum(y == c))
        assert np.array_equal(m.estimators_[c].classes_, m.classes_)


def test_single_member_is_the_base_model():
    rng = np.random.default_rng(5)
    X, y = chain_data(200, rng, missing=0.1)
    for base in (NaiveBayes(), TAN()):
        ref = type(base)().fit(X, y)
        m = MUV(base=base, n_estimators=1, combiner="mle").fit(X, y)
        np.testing.assert_allclose(m.predict_proba(X), ref.predict_proba(X), rtol=1e-10)
        # with one member, eq. 4 shrinks each class by (1 - σ²/μ²)^+ before normalizing
        log_mu, log_var = mean_log_variance(ref, X)
        q = np.maximum(0, 1 - np.exp(log_var - 2 * log_mu)) * np.exp(log_mu)
        js = MUV(base=base, n_estimators=1, combiner="js").fit(X, y).predict_proba(X)
        np.testing.assert_allclose(js, q / q.sum(1, keepdims=True), rtol=1e-10)


def test_muv_of_tans_matches_manual_combination_and_is_deterministic():
    rng = np.random.default_rng(6)
    X, y = chain_data(400, rng, k=3, missing=0.05)
    a = MUV(base=TAN(), n_estimators=3, combiner="mle", random_state=7).fit(X, y)
    b = MUV(base=TAN(), n_estimators=3, combiner="mle", random_state=7).fit(X, y)
    pa = a.predict_proba(X)
    assert pa.tobytes() == b.predict_proba(X).tobytes()
    mus, vs = zip(*[mean_log_variance(est, X) for est in a.estimators_])
    mu, var = np.exp(np.stack(mus)), np.exp(np.stack(vs))
    q = (mu / var).sum(0) / (1 / var).sum(0)
    np.testing.assert_allclose(pa, q / q.sum(1, keepdims=True), rtol=1e-10)
    c = MUV(base=TAN(), n_estimators=3, combiner="mle", random_state=8).fit(X, y)
    assert not np.array_equal(c.sample_weights_, a.sample_weights_)


def test_adaboost_members():
    pytest.importorskip("nbx.models.ensembles")
    rng = np.random.default_rng(7)
    X, y = chain_data(300, rng)
    m = MUV(n_estimators=5, sampling="adaboost", random_state=0).fit(X, y)
    assert len(m.estimators_) == len(m.boost_.estimators_)
    for ours, theirs in zip(m.estimators_, m.boost_.estimators_):
        cols = theirs.classes_.astype(int)  # AdaBoost members use class indices
        np.testing.assert_allclose(ours.predict_proba(X)[:, cols], theirs.predict_proba(X), rtol=1e-10)
    p = m.predict_proba(X)
    assert np.allclose(p.sum(1), 1)
    from nbx.models.ensembles import AdaBoostM1

    alone = AdaBoostM1(base=NaiveBayes(), n_estimators=5, random_state=0).fit(X, y)
    np.testing.assert_allclose(alone.predict_proba(X), m.boost_.predict_proba(X))


def test_compact_weights_round_trip_bit_for_bit():
    """Whole non-negative weights shrink to the smallest unsigned type and come back as the same float bits;
    anything else (fractions, -0.0, NaN, inf) stays the float array itself."""
    counts = np.array([0.0, 1.0, 3.0, 255.0])
    assert compact_weights(counts).dtype == np.uint8
    assert compact_weights(counts * 4).dtype == np.uint16
    assert compact_weights(np.array([0.0, 70000.0])).dtype == np.uint32
    for weights in (counts, counts * 4, np.array([0.0, 70000.0]), np.zeros(3), np.ones(5)):
        back = expand_weights(compact_weights(weights))
        assert back.dtype == np.float64 and back.tobytes() == weights.tobytes()
    for weights in (np.array([0.5, 1.0]), np.array([-0.0, 1.0]), np.array([1.0, np.nan]), np.array([np.inf, 1.0])):
        assert compact_weights(weights) is weights and expand_weights(weights) is weights
    empty = np.zeros(0)
    assert compact_weights(empty) is empty


@pytest.mark.parametrize(
    "params",
    [
        {"n_estimators": 1},
        {"n_estimators": 4},
        {"n_estimators": 3, "sampling": "disjoint"},
        {"n_estimators": 3, "sampling": "disjoint", "balance": "skewed"},
        {"n_estimators": 3, "balance": "skewed", "skew": "sorted"},
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_stored_member_weights_are_the_sampled_ones(params, weighted):
    """The fitted MUV keeps its members' weights compactly; ``sample_weights_`` and the members see exactly the
    float weights the sampling drew (the same bits as stacking them), with and without sample weights."""
    rng = np.random.default_rng(9)
    X, y = chain_data(250, rng, k=3, missing=0.1)
    w = rng.uniform(0.5, 2, 250) if weighted else np.ones(250)
    m = MUV(random_state=3, **params).fit(X, y, sample_weight=w if weighted else None)
    drawn = MUV(random_state=3, **params)._member_weights(check_rng(3), np.searchsorted(m.classes_, y), w, 3)
    assert m.sample_weights_.tobytes() == np.stack(drawn).tobytes()
    for est, mw in zip(m.estimators_, drawn):
        ref = NaiveBayes(classes=m.classes_).fit(X, y, sample_weight=mw, n_values=m.n_values_)
        assert est.feature_count_.tobytes() == ref.feature_count_.tobytes()
    stored = m._member_sample_weights
    assert all(a.dtype == (np.float64 if weighted else np.uint8) for a in stored)


def test_sample_weights_only_after_fit_and_from_an_earlier_pickle():
    X, y = chain_data(100, np.random.default_rng(11))
    assert not hasattr(MUV(), "sample_weights_")
    m = MUV(n_estimators=2, random_state=0).fit(X, y)
    old = MUV(n_estimators=2, random_state=0)
    old.__dict__.update({k: v for k, v in m.__dict__.items() if k != "_member_sample_weights"})
    old.__dict__["sample_weights_"] = m.sample_weights_  # as an earlier fit stored it
    assert old.sample_weights_.tobytes() == m.sample_weights_.tobytes()
    assert old.predict_proba(X).tobytes() == m.predict_proba(X).tobytes()


def test_adaboost_weights_are_the_boosting_runs_own():
    pytest.importorskip("nbx.models.ensembles")
    X, y = chain_data(200, np.random.default_rng(10))
    m = MUV(n_estimators=4, sampling="adaboost", random_state=0).fit(X, y)
    assert m.sample_weights_.tobytes() == np.stack(m.boost_.training_weights_).tobytes()
    assert m._member_sample_weights is m.boost_.training_weights_  # kept once, compactly (WeightHistory)


# ------------------------------------------------------------------------------------------- MUV[MUV]
def test_muv_of_muv_uses_member_answers_and_mle_variances():
    rng = np.random.default_rng(8)
    X, y = chain_data(300, rng)
    members = [MUV(base=NaiveBayes(), n_estimators=k) for k in (1, 2)] + [MUV(base=TAN(), n_estimators=2)]
    top = MUVofMUV(members=members, combiner="mle", random_state=0).fit(X, y)
    again = MUVofMUV(members=members, combiner="mle", random_state=0).fit(X, y)
    assert top.predict_proba(X).tobytes() == again.predict_proba(X).tobytes()
    assert all(m.random_state is None for m in members)  # the given members are not modified
    mus, vs = [], []
    for est in top.estimators_:
        _, member_var = est.member_stats(X)
        mus.append(est.predict_proba(X))  # the member's JS answer ...
        vs.append(1 / np.exp(-member_var).sum(0))  # ... with its MLE variance (footnote 7)
    mu, var = np.stack(mus), np.stack(vs)
    q = (mu / var).sum(0) / (1 / var).sum(0)
    np.testing.assert_allclose(top.predict_proba(X), q / q.sum(1, keepdims=True), rtol=1e-8)
    block = {"class": "MUVofMUV", "members": [{"class": "MUV", "n_estimators": 2}], "random_state": 0}
    built = make_learner(block)  # a params.yaml block: members built as estimators
    assert type(built.members[0]) is MUV and built.members[0].n_estimators == 2
    assert len(built.fit(X, y).estimators_) == 1


# ----------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "params, word",
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"sampling": "jackknife"}, "sampling"),
        ({"balance": "even"}, "balance"),
        ({"skew": "random"}, "skew"),
        ({"combiner": "avg"}, "combiner"),
    ],
)
def test_bad_params(params, word):
    X, y = chain_data(40, np.random.default_rng(9))
    with pytest.raises(ValueError, match=word):
        MUV(**params).fit(X, y)


def test_base_without_variance_is_rejected():
    X, y = chain_data(40, np.random.default_rng(10))
    with pytest.raises(ValueError, match="prior"):
        MUV(base=NaiveBayes(prior="kang"), n_estimators=2, random_state=0).fit(X, y).predict(X)
