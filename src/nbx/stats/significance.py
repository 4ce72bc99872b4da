"""Significance tests used by the papers, plus the corrected resampled t-test for repeated splits.

- Paired t-test on per-split accuracies, and Student's two-sample t-test on them (Wiering 2003's "t-test" under
  its two readings; Table 2 marks: ++ p<0.01, + p<0.05, = , -, --).
- Corrected resampled t-test (Nadeau & Bengio 2003): the variance term is inflated by n_test/n_train, since
  overlapping training sets make split results correlated; this is the test we recommend beyond the papers.
- Sign test (Ting & Zheng: one-tailed on win/loss counts), Wilcoxon signed-rank (Kang & Tian), its p-value's
  method fixed here, not left to the scipy version (``signed_rank``).
"""

from __future__ import annotations

import numpy as np
from scipy import stats


def settled(scores) -> np.ndarray:
    """Scores rounded to 12 decimals, as every test here compares them: a mean over splits is summed in some
    order, and two learners whose split results are the same numbers in another order must tie, in a ranking and
    in a signed-rank test alike, not differ by the last bit."""
    return np.round(np.asarray(scores, dtype=float), 12)


def rank_rows(scores, higher_is_better: bool = True) -> np.ndarray:
    """Rank of each learner (column) on each data set (row) by its :func:`settled` score: 1 = best, ties get the
    average rank."""
    scores = settled(scores)
    return stats.rankdata(-scores if higher_is_better else scores, axis=1)


def paired_t(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the paired t-test of a vs b (1.0 when all differences are 0)."""
    d = np.asarray(a, float) - np.asarray(b, float)
    if np.allclose(d, d[0]):
        return 1.0 if np.isclose(d[0], 0) else 0.0
    return float(stats.ttest_rel(a, b).pvalue)


def two_sample_t(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of Student's two-sample t-test of a vs b (pooled variance; with equal n it has the
    t statistic of Welch's), i.e. the t-test on each column's mean ± std that ignores the pairing of splits
    (1.0 / 0.0 when both samples are constant and equal / different)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return 1.0 if np.isclose(a[0], b[0]) else 0.0
    return float(stats.ttest_ind(a, b).pvalue)


def corrected_t(a: np.ndarray, b: np.ndarray, test_fraction: float) -> float:
    """Two-sided p-value of Nadeau & Bengio's corrected resampled t-test."""
    d = np.asarray(a, float) - np.asarray(b, float)
    k = len(d)
    var = d.var(ddof=1)
    if var == 0:
        return 1.0 if np.isclose(d.mean(), 0) else 0.0
    ratio = test_fraction / (1 - test_fraction)
    t = d.mean() / np.sqrt((1 / k + ratio) * var)
    return float(2 * stats.t.sf(abs(t), df=k - 1))


def mark(a: np.ndarray, b: np.ndarray, p: float | None = None) -> str:
    """Wiering's significance mark of a vs reference b: ++/+ better at p<0.01/0.05, --/- worse, = otherwise.
    ``p`` defaults to the paired t-test's; pass another test's p-value (e.g. corrected_t) to mark by it."""
    if p is None:
        p = paired_t(a, b)
    better = np.mean(a) > np.mean(b)
    if p < 0.01:
        return "++" if better else "--"
    if p < 0.05:
        return "+" if better else "-"
    return "="


def sign_test(wins: int, losses: int) -> float:
    """One-tailed sign test p-value that wins exceed losses by chance (ties dropped)."""
    n = wins + losses
    if n == 0:
        return 1.0
    return float(stats.binom.sf(wins - 1, n, 0.5))


# Up to this many differences scipy's permutation test enumerates all 2^n sign assignments (its default is 9,999
# resamples): the exact permutation distribution, no random draw.
PERMUTATION_MAX_N = 13


def signed_rank(d, *, zero_method: str = "wilcox", alternative: str = "two-sided"):
    """scipy's Wilcoxon signed-rank test of the paired differences ``d``, with the method for the p-value chosen
    here rather than by scipy's ``method="auto"``, whose choice changed in scipy 1.15 (before, the normal
    approximation whenever a difference is 0 or two tie; since, an exact permutation test for small samples):
    the p-values, and the reports that print them, must not depend on the installed scipy. The choice is 1.15's:
    over 50 differences the normal approximation; else the exact null distribution when no difference is 0 and
    no two absolute differences tie; else, with zeros or ties, the exact permutation distribution of the signed
    ranks up to PERMUTATION_MAX_N differences and the normal approximation above."""
    d = np.asarray(d, float)
    n = len(d)
    if n > 50:
        method = "asymptotic"
    elif np.all(d != 0) and len(np.unique(np.abs(d))) == n:
        method = "exact"
    elif n <= PERMUTATION_MAX_N:
        method = stats.PermutationMethod()
    else:
        method = "asymptotic"
    return stats.wilcoxon(d, zero_method=zero_method, alternative=alternative, method=method)


def wilcoxon(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value over paired per-data-set results (1.0 if all equal), the
    differences of their :func:`settled` scores."""
    d = settled(a) - settled(b)
    if np.all(d == 0):
        return 1.0
    return float(signed_rank(d).pvalue)
