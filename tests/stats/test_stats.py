"""Nadeau & Bengio's corrected resampled t-test (nbx.stats.significance.corrected_t) on a hand-computed example."""

import numpy as np
import pytest
from scipy import stats as sps

from nbx.stats import significance as stats


def test_corrected_t_hand_example():
    # d = .01 .. .05 over k = 5 splits: mean .03, sample variance 2.5e-4. 10-fold (n_test/n_train = 1/9):
    # t = .03 / sqrt((1/5 + 1/9) 2.5e-4) = 3.40168, two-sided p with 4 df = 0.027235
    a = np.array([0.81, 0.82, 0.83, 0.84, 0.85])
    b = np.full(5, 0.80)
    assert stats.corrected_t(a, b, 0.1) == pytest.approx(0.027235, abs=1e-6)
    # without the correction term it is the paired t-test: t = 4.24264, p = 0.013236
    assert stats.corrected_t(a, b, 0.0) == pytest.approx(0.013236, abs=1e-6)
    assert stats.corrected_t(a, b, 0.0) == pytest.approx(sps.ttest_rel(a, b).pvalue)
    assert stats.corrected_t(b, a, 0.1) == stats.corrected_t(a, b, 0.1)


def test_corrected_t_constant_differences():
    assert stats.corrected_t(np.ones(4), np.ones(4), 0.1) == 1.0
    assert stats.corrected_t(np.ones(4), np.zeros(4), 0.1) == 0.0


def _brute_force_signed_rank_p(d, zero_method, alternative):
    """The exact p-value of R+ over all 2^n sign assignments of the nonzero differences (zeros keep their rank
    under zsplit, half to each side; wilcox drops them)."""
    d = np.asarray(d, float)
    if zero_method == "wilcox":
        d = d[d != 0]
    ranks = sps.rankdata(np.abs(d))
    zero_half = ranks[d == 0].sum() / 2
    nonzero = ranks[d != 0]
    observed = ranks[d > 0].sum() + zero_half
    signs = (np.arange(2 ** len(nonzero))[:, None] >> np.arange(len(nonzero))) & 1
    null = signs @ nonzero + zero_half
    tol = 1e-9
    less, greater = np.mean(null <= observed + tol), np.mean(null >= observed - tol)
    return less if alternative == "less" else min(1.0, 2 * min(less, greater))


@pytest.mark.parametrize("alternative", ["two-sided", "less"])
@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit"])
@pytest.mark.parametrize(
    "d",
    [
        [0.1, -0.2, 0.2, 0.3, 0.0, 0.5, -0.1, 0.4],  # 8 differences, a zero and two ties: the permutation test
        [0.1, -0.2, 0.2, 0.3, 0.0, 0.5, -0.1, 0.4, 0.0, 0.6, -0.7, 0.8, 0.9],  # 13, the largest so enumerated
        [0.11, -0.23, 0.2, 0.35, 0.52, -0.14, 0.4, 0.61, -0.05, 0.3],  # 10, no zero, no tie: the exact distribution
    ],
)
def test_small_signed_rank_p_is_the_exact_enumeration(d, zero_method, alternative):
    """Up to 13 differences, with or without zeros and ties, the p-value is the exact one, whatever the scipy
    version's own method="auto" would pick (the normal approximation with zeros or ties before scipy 1.15)."""
    p = stats.signed_rank(d, zero_method=zero_method, alternative=alternative).pvalue
    assert p == pytest.approx(_brute_force_signed_rank_p(d, zero_method, alternative), rel=1e-12)


def test_signed_rank_with_ties_over_13_is_the_normal_approximation():
    d = np.array([0.1, -0.2, 0.2, 0.3, 0.5, -0.1, 0.4, 0.6, -0.7, 0.8, 0.9, 0.25, -0.35, 0.45])  # 14, ties
    r = sps.rankdata(np.abs(d))
    n, ties = len(d), np.unique(np.abs(d), return_counts=True)[1]
    se = np.sqrt((n * (n + 1) * (2 * n + 1) - np.sum(ties**3 - ties) / 2) / 24)
    z = (r[d > 0].sum() - n * (n + 1) / 4) / se  # no continuity correction: scipy's default, kept
    assert stats.signed_rank(d).pvalue == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-12)
