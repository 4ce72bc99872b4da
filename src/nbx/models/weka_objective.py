"""The ridge logistic objective of :mod:`nbx.models.weka_loops` (numba): Weka's ``Logistic.OptObject`` value and
gradient (le Cessie & van Houwelingen 1992, as Kang & Tian 2006 run it for LR and HBayes' P(C | S1)) on a problem
of distinct design rows (:func:`problem`), with numpy's pairwise sums, as
:class:`~nbx.models.weka_optimization.RidgeLogisticObjective` computes them: the scores and the gradient's sums add
their terms left to right (the reference: OpenBLAS's kernels), exp and log are the C library's (the reference:
numpy's SIMD loops), and the sums numpy itself reduces (the rows' log-likelihoods, the negative log-likelihood over
the rows, the ridge term) are added in numpy's pairwise order (:func:`nbx.core.sums.row_sum`), as are the rows' softmax
denominators (left to right, as :func:`nbx.core.counting.row_reduce`).
"""

import functools
import math

import numpy as np
from numba import njit

from nbx.core.sums import row_sum, workspace


# ---------------------------------------------------------------------------------------------- objective
# A problem (:func:`problem`) is the tuple (Zu, ZuT, pattern, w, ridge, slopes, pair, pair_pattern, pair_Y): the
# distinct rows of the standardized design with its intercept column (u, q) and their transpose (q, u), both
# contiguous, each row's design row (pattern, (n,)), the row weights, the ridge, the mask of the slopes among the
# variables (x class-major as Weka's, x[c·q + j]), each row's (design row, target row) pair (pair, (n,)) and each
# pair's design row and target row (pair_pattern (P,), pair_Y (P, K)). The scratch is (S, LP, D, buf, ebuf, top,
# total, term, right, left): scores (m, u), log-probabilities (K, u), per-pair residuals (m, P), vectors
# (max(n, l),), (K,), (u,), (u,) and (P,), and row_sum's stack (nbx.core.sums.workspace); m = K - 1.
#
# Why distinct rows: on discrete attributes (HBayes' S1 fits, LR on codes) a few dozen design rows repeat over
# hundreds of training rows, and every row's scores, exponentials and logarithms are a function of its design row
# alone (a row's terms only), so they are made once per distinct row (per bit pattern) and read back per row. The
# sums over the rows (the objective's and the gradient's) still add every row's term in the rows' order: the same
# numbers in the same order as row by row, hence the same bits (tests/models/test_weka_optimization.py compares
# the fits both ways).
def _row_ids(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(id of each row, first row of each id) of a contiguous 2-D float64 array: rows with the same bits share an
    id. Rows are grouped by a hash of their bits (linear in the rows, where sorting the rows themselves cost 10-20
    ms a fit at 4,500 rows), then checked against their group's first row; a collision falls back to the sort."""
    bits = A.view(np.uint64)
    mixed = bits ^ (bits >> np.uint64(30))  # SplitMix64's finalizer on each entry
    mixed *= np.uint64(0xBF58476D1CE4E5B9)
    mixed ^= mixed >> np.uint64(27)
    mixed *= np.uint64(0x94D049BB133111EB)
    mixed ^= mixed >> np.uint64(31)
    mixed *= _column_multipliers(bits.shape[1])
    _, first, ids = np.unique(mixed.sum(axis=1, dtype=np.uint64), return_index=True, return_inverse=True)
    if not np.array_equal(bits, bits[first[ids]]):
        _, first, ids = np.unique(bits, axis=0, return_index=True, return_inverse=True)
    return ids.ravel().astype(np.int64), first


@functools.cache
def _column_multipliers(width: int) -> np.ndarray:
    """Fixed odd 64-bit multipliers, one per column, that mix a row's entries before they are summed (made once per
    width, read-only)."""
    odd = np.random.default_rng(0).integers(0, 2**63, width, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    odd.flags.writeable = False
    return odd


def problem(Z, Y, w, ridge, slopes, rows=None, merge_rows=True):
    """The problem tuple (see above) of the objective on the design rows Z (n, q) with targets Y (n, K) and
    weights w. ``rows``: Z holds the distinct design rows only and row i's is Z[rows[i]] (a caller that knows its
    rows' patterns, as HBayes, skips the hashing). ``merge_rows=False``: every row its own design row and pair
    (row by row, the tests' reference)."""
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    Y = np.ascontiguousarray(Y, dtype=np.float64)
    n = Y.shape[0]
    if rows is not None:
        pattern = np.ascontiguousarray(rows, dtype=np.int64)
    elif merge_rows and n:
        pattern, first = _row_ids(Z)
        Z = np.ascontiguousarray(Z[first])
    else:
        pattern = np.arange(n, dtype=np.int64)
    if merge_rows and n:
        y_id = _row_ids(Y)[0]
        _, pair_first, pair = np.unique(pattern * (y_id.max() + 1) + y_id, return_index=True, return_inverse=True)
    else:
        pair = pair_first = np.arange(n, dtype=np.int64)
    return (
        Z,
        np.ascontiguousarray(Z.T),
        pattern,
        np.ascontiguousarray(w, dtype=np.float64),
        float(ridge),
        slopes,
        pair.astype(np.int64),
        np.ascontiguousarray(pattern[pair_first]),
        np.ascontiguousarray(Y[pair_first]),
    )


@njit(cache=True)
def _scores(ZT, x, S):
    """S[c, i] = Σ_j Z1[i, j] x[c·q + j], the terms added left to right from 0. The rows in blocks of 512 (a block's
    scores stay in the first-level cache while the design streams past once for all classes) and four terms an
    update: the same additions in the same order, a quarter of the loads and stores of the scores (waveform's
    largest HBayes fit, 3,333 x 171 design: 133 -> 83 µs a call)."""
    q, n = ZT.shape
    m = S.shape[0]
    whole = q - q % 4
    for b0 in range(0, n, 512):
        b1 = min(n, b0 + 512)
        for c in range(m):
            for i in range(b0, b1):
                S[c, i] = 0.0
        for j in range(0, whole, 4):
            z0, z1, z2, z3 = ZT[j, b0:b1], ZT[j + 1, b0:b1], ZT[j + 2, b0:b1], ZT[j + 3, b0:b1]
            for c in range(m):
                t0, t1, t2, t3 = x[c * q + j], x[c * q + j + 1], x[c * q + j + 2], x[c * q + j + 3]
                s = S[c, b0:b1]
                for i in range(b1 - b0):
                    s[i] = (((s[i] + z0[i] * t0) + z1[i] * t1) + z2[i] * t2) + z3[i] * t3
        for j in range(whole, q):
            z = ZT[j, b0:b1]
            for c in range(m):
                t = x[c * q + j]
                s = S[c, b0:b1]
                for i in range(b1 - b0):
                    s[i] += z[i] * t


@njit(cache=True)
def _overflows(S):
    """:func:`nbx.models.weka_optimization.overflows`: whether exp(−m) is +inf for a row's largest score m."""
    m, n = S.shape
    for i in range(n):
        top = S[0, i]
        for c in range(1, m):
            v = S[c, i]
            top = top if (top >= v or top != top) else v  # np.maximum
        if top < -700.0 and math.isinf(math.exp(-top)):  # exp(700) is finite: the test only where it can hold
            return True
    return False


@njit(cache=True)
def _log_softmax(S, LP, ebuf, top, total, stack):
    """LP[c, i] = log P(c | x_i) from the scores and the reference class's 0 (row K − 1), as
    :func:`nbx.core.counting.log_softmax`: each row shifted by its largest score (np.maximum's order; 0 if that
    is not finite), its exponentials added as numpy adds a row (left to right from 0 below 8 classes, else
    :func:`~nbx.core.sums.row_sum`), log of the sum plus the shift subtracted. Below 8 classes a pass over the rows
    per class (the rows' exponentials independent of each other), ``top`` and ``total`` (n,) scratch, ``stack``
    row_sum's."""
    m, n = S.shape
    K = m + 1
    for i in range(n):
        top[i] = S[0, i]
    for c in range(1, K):
        for i in range(n):
            v = S[c, i] if c < m else 0.0
            t = top[i]
            top[i] = t if (t >= v or t != t) else v  # np.maximum
    for i in range(n):
        if not math.isfinite(top[i]):
            top[i] = 0.0
    if K < 8:
        for i in range(n):
            total[i] = 0.0
        for c in range(m):
            for i in range(n):
                total[i] += math.exp(S[c, i] - top[i])
        for i in range(n):
            total[i] += math.exp(0.0 - top[i])
    else:
        for i in range(n):
            for c in range(K):
                ebuf[c] = math.exp((S[c, i] if c < m else 0.0) - top[i])
            total[i] = row_sum(ebuf, K, *stack)
    for i in range(n):
        total[i] = math.log(total[i]) + top[i]  # the log of the sum, plus the shift
    for c in range(m):
        for i in range(n):
            LP[c, i] = S[c, i] - total[i]
    for i in range(n):
        LP[m, i] = 0.0 - total[i]


@njit(cache=True)
def _log_proba(prob, work, x):
    """Scores and log-probabilities of the design rows at x into the scratch; False where Weka's overflows."""
    _scores(prob[1], x, work[0])
    if _overflows(work[0]):  # Weka's "Too large m_f": exp(0 − m) overflows
        return False
    _log_softmax(work[0], work[1], work[4], work[5], work[6], work[8:])
    return True


@njit(cache=True)
def evaluate(prob, work, x):
    """Weka's Logistic objective at x (:meth:`~nbx.models.weka_optimization.RidgeLogisticObjective.value`), leaving
    the scores and log-probabilities in the scratch: +inf where Weka's overflows (the log-probabilities not made
    then), else −Σ_i w_i Σ_c Y_ic log P(c | x_i) + ridge Σ_slopes x², the sums over the classes, the rows and
    the slopes in numpy's order (:func:`~nbx.core.sums.row_sum`); a row's Σ_c is its pair's (the same terms)."""
    w, ridge, slopes, pair, pair_pattern, pair_Y = prob[3], prob[4], prob[5], prob[6], prob[7], prob[8]
    LP, buf, ebuf, term, stack = work[1], work[3], work[4], work[7], work[8:]
    if not _log_proba(prob, work, x):
        return math.inf
    K = LP.shape[0]
    for p in range(pair_pattern.shape[0]):
        g = pair_pattern[p]
        if K < 8:
            total = 0.0
            for c in range(K):
                total += pair_Y[p, c] * LP[c, g]
        else:
            for c in range(K):
                ebuf[c] = pair_Y[p, c] * LP[c, g]
            total = row_sum(ebuf, K, *stack)
        term[p] = total
    n = pair.shape[0]
    for i in range(n):
        buf[i] = w[i] * term[pair[i]]
    nll = -row_sum(buf, n, *stack)
    k = 0
    for j in range(x.shape[0]):
        if slopes[j]:
            buf[k] = x[j] * x[j]
            k += 1
    return nll + ridge * row_sum(buf, k, *stack)


@njit(cache=True)
def gradient_from_log_proba(prob, work, x, grad):
    """The gradient of the objective at x into ``grad``, from the log-probabilities at x in the scratch
    (:meth:`~nbx.models.weka_optimization.RidgeLogisticObjective.gradient`): Σ_i w_i (P_ic − Y_ic) Z1[i, j] class
    by class, each sum over the rows left to right from 0, plus 2·ridge·x on the slopes; P_ic − Y_ic is the
    row's pair's (the same operands)."""
    Zu, pattern, w, ridge, slopes = prob[0], prob[2], prob[3], prob[4], prob[5]
    pair, pair_pattern, pair_Y = prob[6], prob[7], prob[8]
    LP, D = work[1], work[2]
    m = D.shape[0]
    q = Zu.shape[1]
    for p in range(pair_pattern.shape[0]):
        g = pair_pattern[p]
        for c in range(m):
            D[c, p] = math.exp(LP[c, g]) - pair_Y[p, c]
    for k in range(m * q):
        grad[k] = 0.0
    n = pair.shape[0]
    whole = n - n % 4
    for i in range(0, whole, 4):  # four rows an update of grad, each row's term added in the rows' order
        z0, z1, z2, z3 = Zu[pattern[i]], Zu[pattern[i + 1]], Zu[pattern[i + 2]], Zu[pattern[i + 3]]
        for c in range(m):
            r0, r1 = w[i] * D[c, pair[i]], w[i + 1] * D[c, pair[i + 1]]
            r2, r3 = w[i + 2] * D[c, pair[i + 2]], w[i + 3] * D[c, pair[i + 3]]
            g = grad[c * q : (c + 1) * q]
            for j in range(q):
                g[j] = (((g[j] + z0[j] * r0) + z1[j] * r1) + z2[j] * r2) + z3[j] * r3
    for i in range(whole, n):
        z = Zu[pattern[i]]
        for c in range(m):
            r = w[i] * D[c, pair[i]]
            g = grad[c * q : (c + 1) * q]
            for j in range(q):
                g[j] += z[j] * r
    two_ridge = 2.0 * ridge
    for k in range(m * q):
        grad[k] = grad[k] + two_ridge * (x[k] if slopes[k] else 0.0)


@njit(cache=True)
def gradient(prob, work, x, grad):
    """The gradient of the objective at x into ``grad``, the scores and log-probabilities made afresh (without
    Weka's overflow test: its gradient is taken where the objective overflowed too)."""
    _scores(prob[1], x, work[0])
    _log_softmax(work[0], work[1], work[4], work[5], work[6], work[8:])
    gradient_from_log_proba(prob, work, x, grad)


@njit(cache=True)
def objective_value(prob, x):
    """The objective at x (with its own scratch; for the tests)."""
    return evaluate(prob, make_work(prob), x)


@njit(cache=True)
def objective_gradient(prob, x):
    """The gradient at x (with its own scratch; for the tests)."""
    grad = np.empty(x.shape[0])
    gradient(prob, make_work(prob), x, grad)
    return grad


@njit(cache=True)
def make_work(prob):
    """The scratch arrays of a problem (see the comment above :func:`_row_ids`)."""
    Zu, pair, pair_Y = prob[0], prob[6], prob[8]
    u, n, (P, K) = Zu.shape[0], pair.shape[0], pair_Y.shape
    return (
        np.empty((K - 1, u)),
        np.empty((K, u)),
        np.empty((K - 1, P)),
        np.empty(max(n, Zu.shape[1] * (K - 1))),
        np.empty(K),
        np.empty(u),
        np.empty(u),
        np.empty(P),
    ) + workspace()
