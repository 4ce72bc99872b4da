"""Bayesian signed-rank test with a region of practical equivalence (the benchmark report's
pairwise comparisons, src/nbx/papers/benchmark).

Benavoli, Corani, Demšar & Zaffalon (2017), Time for a change: a tutorial for comparing multiple classifiers
through Bayesian analysis, JMLR 18 (their Bayesian signed-rank test, from Benavoli et al. 2014, ICML):
the differences z_i = a_i - b_i over data sets get a Dirichlet-process posterior whose prior is a single
pseudo-observation z_0 = 0 of strength s, so posterior samples are weights w ~ Dirichlet(s, 1, ..., 1) over
(z_0, z_1, ..., z_n). Each sample gives
    theta_right = sum_ij w_i w_j [z_i + z_j >  2 rope]   (A better),
    theta_left  = sum_ij w_i w_j [z_i + z_j < -2 rope]   (B better),
    theta_rope  = 1 - theta_left - theta_right,
(a sum exactly at +-2 rope counts 1/2 to each side, as in the authors' baycomp package), and P(A better),
P(rope), P(B better) are the fractions of samples in which that theta is the largest. s = 0.5 follows the
authors' code (the tutorial's R function and baycomp); rope = 0.01 is one accuracy point on a 0-1 scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class SignedRankPosterior:
    p_a: float  # P(A better by more than the rope)
    p_rope: float  # P(practically equivalent)
    p_b: float  # P(B better by more than the rope)
    samples: np.ndarray  # (n_samples, 3): theta_a, theta_rope, theta_b of each posterior sample


def _step(x: np.ndarray) -> np.ndarray:
    return (x > 0) + 0.5 * (x == 0)


@lru_cache(maxsize=4)
def _posterior_weights(n: int, prior: float, n_samples: int, seed: int) -> np.ndarray:
    """Samples w ~ Dirichlet(prior, 1, ..., 1) over n points, read-only: they do not depend on the scores, so every
    pair of learners compared on the same data sets shares one draw (a report compares hundreds of pairs)."""
    w = np.random.default_rng(seed).dirichlet(np.r_[prior, np.ones(n - 1)], n_samples)
    w.setflags(write=False)
    return w


def bayes_signed_rank(
    a, b, rope: float = 0.01, prior: float = 0.5, n_samples: int = 50_000, seed: int = 0
) -> SignedRankPosterior:
    """Posterior of the Bayesian signed-rank test of paired per-data-set scores ``a`` vs ``b`` (higher better)."""
    z = np.r_[0.0, np.asarray(a, dtype=float) - np.asarray(b, dtype=float)]  # z_0 = 0: the prior's point
    pair_sum = z[:, None] + z[None, :]
    w = _posterior_weights(len(z), prior, n_samples, seed)
    theta_a = np.einsum("si,ij,sj->s", w, _step(pair_sum - 2 * rope), w, optimize=True)
    theta_b = np.einsum("si,ij,sj->s", w, _step(-pair_sum - 2 * rope), w, optimize=True)
    samples = np.column_stack([theta_a, 1 - theta_a - theta_b, theta_b])
    p_a, p_rope, p_b = np.bincount(samples.argmax(axis=1), minlength=3) / n_samples
    return SignedRankPosterior(float(p_a), float(p_rope), float(p_b), samples)
