"""Bayesian signed-rank test (Benavoli et al. 2017): hand-checked cases and agreement with baycomp."""

import warnings

import numpy as np
import pytest

from nbx.stats.bayes_signrank import bayes_signed_rank

RNG = np.random.default_rng(11)
A = RNG.uniform(0.70, 0.95, 30)


def test_far_above_the_rope_means_a_better():
    post = bayes_signed_rank(A + 0.05, A)
    assert post.p_a == 1.0 and post.p_rope == 0.0 and post.p_b == 0.0
    # every z_i + z_j = 0.1 > 2 rope except pairs with the pseudo-observation: theta_a = 1 - w_0^2 - ... < 1
    assert np.all(post.samples[:, 0] > 0.5) and np.allclose(post.samples.sum(axis=1), 1)


def test_identical_scores_are_equivalent():
    post = bayes_signed_rank(A, A)
    assert post.p_rope == 1.0 and np.all(post.samples[:, 1] == 1)


def test_swapping_a_and_b_mirrors_the_posterior():
    b = A + RNG.normal(0, 0.02, 30)
    ab, ba = bayes_signed_rank(A, b, seed=3), bayes_signed_rank(b, A, seed=3)
    assert (ab.p_a, ab.p_rope, ab.p_b) == (ba.p_b, ba.p_rope, ba.p_a)


def test_symmetric_differences_give_equal_sides():
    # differences +-0.03 in equal numbers: theta_a and theta_b have the same posterior distribution
    d = np.r_[np.full(15, 0.03), np.full(15, -0.03)]
    post = bayes_signed_rank(A + d, A, n_samples=100_000)
    assert post.p_a == pytest.approx(post.p_b, abs=0.01)
    assert post.samples[:, 0].mean() == pytest.approx(post.samples[:, 2].mean(), abs=2e-3)


def test_hand_computed_posterior_mean_of_one_difference():
    # one difference z_1 = 0.05 with the pseudo-observation z_0 = 0 (strength s): w_1 ~ Beta(1, s).
    # theta_a = w_1^2 + 2 w_0 w_1 * [0.05 > 0.02] = 1 - w_0^2, E[w_0^2] = s(s+1) / ((1+s)(2+s)) = s / (2+s)
    post = bayes_signed_rank([0.05], [0.0], prior=0.5, n_samples=200_000)
    assert post.samples[:, 0].mean() == pytest.approx(1 - 0.5 / 2.5, abs=2e-3)
    # theta_a > theta_rope = w_0^2 unless w_0 > 1/sqrt(2): P(A) = P(Beta(s, 1) < 0.7071) = 0.7071^s
    assert post.p_a == pytest.approx(0.5**0.25, abs=3e-3)


def test_deterministic_given_seed():
    b = A + RNG.normal(0, 0.01, 30)
    assert bayes_signed_rank(A, b, seed=5).samples.tobytes() == bayes_signed_rank(A, b, seed=5).samples.tobytes()


@pytest.mark.parametrize("shift", [0.0, 0.006, 0.012])
def test_agrees_with_baycomp(shift):
    baycomp = pytest.importorskip("baycomp")
    b = A - shift + np.random.default_rng(7).normal(0, 0.015, 30)
    ours = bayes_signed_rank(A, b, rope=0.01, prior=0.5, n_samples=50_000, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = baycomp.SignedRankTest.probs(A, b, rope=0.01, prior=0.5, nsamples=50_000, random_state=1)
    # two independent Monte Carlo runs of 50,000 samples: standard error <= 0.0023 per probability
    np.testing.assert_allclose([ours.p_a, ours.p_rope, ours.p_b], theirs, atol=0.01)


def test_a_shared_draw_gives_what_a_fresh_draw_gives():
    """Pairs compared on the same data sets share the Dirichlet draw: the posterior equals one drawn afresh."""
    b = RNG.uniform(0.70, 0.95, 30)
    first = bayes_signed_rank(A, b, seed=5)
    w = np.random.default_rng(5).dirichlet(np.r_[0.5, np.ones(30)], 50_000)
    z = np.r_[0.0, A - b]
    step = (z[:, None] + z[None, :] > 0.02) + 0.5 * (z[:, None] + z[None, :] == 0.02)
    theta_a = np.einsum("si,ij,sj->s", w, step, w, optimize=True)
    again = bayes_signed_rank(A, b, seed=5)
    assert np.array_equal(first.samples[:, 0], theta_a) and np.array_equal(first.samples, again.samples)
