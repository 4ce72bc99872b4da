"""Comparing several learners over many data sets (the benchmark report, src/nbx/papers/benchmark): Friedman
test with the Iman-Davenport correction, Nemenyi critical difference and the groups of a critical-difference diagram,
Holm-corrected Wilcoxon tests.

References
- Demšar (2006), Statistical comparisons of classifiers over multiple data sets, JMLR 7:1-30.
  Sec. 3.2.2: ranks per data set (1 = best, ties averaged), Friedman's chi2_F, Iman & Davenport's F_F,
  the Nemenyi CD = q_alpha sqrt(k(k+1) / 6N) with q_alpha the studentized range statistic / sqrt(2) (Table 5a);
  two learners differ when their average ranks differ by at least the CD. Sec. 3.2.4: the CD diagram joins the
  learners that are not significantly different. Sec. 3.1.3: Wilcoxon signed-ranks test, ranks of zero
  differences split evenly between R+ and R- (one zero dropped if their number is odd).
- Benavoli, Corani & Mangili (2016), Should we really use post-hoc tests based on mean-ranks? JMLR 17:1-10:
  for pairwise comparisons use the Wilcoxon signed-rank test with a correction for multiple comparisons,
  here Holm's (1979) step-down procedure (Demšar Sec. 3.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from nbx.stats.significance import rank_rows, settled, signed_rank


@dataclass(frozen=True)
class Friedman:
    mean_ranks: np.ndarray  # (k,) average rank of each learner
    n_datasets: int
    chi2: float  # Friedman's chi2_F, k - 1 degrees of freedom
    p_chi2: float
    ff: float  # Iman-Davenport F_F, (k - 1, (k - 1)(N - 1)) degrees of freedom
    p_ff: float


def friedman_from_ranks(mean_ranks, n_datasets: int) -> Friedman:
    """Friedman and Iman-Davenport statistics from the average ranks (Demšar 2006 Sec. 3.2.2; no tie
    correction, as in the paper)."""
    r = np.asarray(mean_ranks, dtype=float)
    k, n = len(r), n_datasets
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    denom = n * (k - 1) - chi2
    ff = (n - 1) * chi2 / denom if denom > 0 else np.inf  # denom 0: every data set ranks the learners alike
    return Friedman(
        r, n, float(chi2), float(stats.chi2.sf(chi2, k - 1)), float(ff), float(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    )


def friedman(scores, higher_is_better: bool = True) -> Friedman:
    """Friedman test over data sets (rows) for learners (columns)."""
    ranks = rank_rows(scores, higher_is_better)
    return friedman_from_ranks(ranks.mean(axis=0), ranks.shape[0])


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value q_alpha of the two-tailed Nemenyi test for k learners: the studentized range
    quantile (k groups, infinite degrees of freedom) divided by sqrt(2) (Demšar 2006 Table 5a)."""
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2))


def nemenyi_cd(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Critical difference of average ranks, CD = q_alpha sqrt(k(k+1) / 6N)."""
    return nemenyi_q(k, alpha) * np.sqrt(k * (k + 1) / (6 * n_datasets))


def cd_groups(mean_ranks, cd: float) -> list[tuple[int, ...]]:
    """The bars of a critical-difference diagram: maximal runs of learners (indices, best rank first) whose
    average ranks all differ by less than ``cd``; runs of one learner are left out."""
    r = np.asarray(mean_ranks, dtype=float)
    order = np.argsort(r, kind="stable")
    ends = [int(np.searchsorted(r[order], r[order[i]] + cd, side="left")) for i in range(len(r))]
    groups, reach = [], 0
    for start, end in enumerate(ends):
        # keep a run only if it reaches further than every earlier run (otherwise it is contained in one)
        if end > reach and end - start > 1:
            groups.append(tuple(int(j) for j in order[start:end]))
        reach = max(reach, end)
    return groups


def wilcoxon_signed_rank(a, b) -> tuple[float, float]:
    """Two-sided Wilcoxon signed-ranks test of paired per-data-set scores: (T = min(R+, R-), p).
    Zero differences are split evenly between R+ and R- (Demšar 2006 Sec. 3.1.3); p from scipy with the method
    chosen by ``significance.signed_rank`` (exact without zeros and ties; with them, the exact permutation
    distribution up to 13 data sets, the normal approximation above)."""
    d = settled(a) - settled(b)  # the scores rank_rows ranks: a tie there is a zero difference here
    if np.all(d == 0):
        return 0.0, 1.0
    zeros = np.flatnonzero(d == 0)
    if len(zeros) % 2:  # an odd number of zeros: ignore one
        d = np.delete(d, zeros[0])
    res = signed_rank(d, zero_method="zsplit")
    return float(res.statistic), float(res.pvalue)


def holm(pvalues, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down procedure: (adjusted p-values, rejected). The i-th smallest of m p-values is compared
    with alpha / (m - i + 1); testing stops at the first hypothesis that cannot be rejected."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    adjusted = np.empty(m)
    adjusted[order] = stepped
    return adjusted, adjusted <= alpha


def pairwise_wilcoxon_holm(scores, names, alpha: float = 0.05) -> pd.DataFrame:
    """Wilcoxon signed-ranks test for every pair of learners (columns of ``scores``, data sets in rows),
    Holm-corrected over the k(k-1)/2 pairs (Benavoli et al. 2016). ``mean_diff`` = mean of a - b."""
    scores = np.asarray(scores, dtype=float)
    rows = []
    for i, j in combinations(range(scores.shape[1]), 2):
        t, p = wilcoxon_signed_rank(scores[:, i], scores[:, j])
        rows.append(
            {"a": names[i], "b": names[j], "mean_diff": float(np.mean(scores[:, i] - scores[:, j])), "T": t, "p": p}
        )
    table = pd.DataFrame(rows, columns=["a", "b", "mean_diff", "T", "p"])
    table["p_holm"], table["reject"] = holm(table["p"].to_numpy(), alpha)
    return table
