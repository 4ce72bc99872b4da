"""The compiled loops of :mod:`nbx.models.weka_optimization` (numba): Weka's ``Optimization.findArgmin`` for the
``Logistic.OptObject`` objective, line search (``lnsrch``) and BFGS factor updates (``updateCholeskyFactor``) in one
compiled call, the restarts of Weka's Logistic with ``-M -1`` included, so that a fit pays no Python per function
evaluation (HBayes' search fits thousands of small models per fold, and each evaluation of the array code cost
about 130 µs of numpy and scipy calls on a few dozen variables and a few hundred rows).

The same algorithm, tests and constants as the Python reference (:func:`~nbx.models.weka_optimization.find_argmin`,
:func:`~nbx.models.weka_optimization.line_search`, :class:`~nbx.models.weka_optimization.RidgeLogisticObjective`,
whose docstrings cite Weka's source); only the rounding of some sums differs: the scores and the gradient's sums
add their terms left to right (the reference: OpenBLAS's kernels), the dot products and triangular solves likewise
(the reference: BLAS and LAPACK), exp and log are the C library's (the reference: numpy's SIMD loops). The sums
numpy itself reduces (the rows' log-likelihoods, the negative log-likelihood over the rows, the ridge term, the
factor update's pᵀD⁻¹p) are added in numpy's pairwise order (:func:`pairwise_sum`), as are the rows' softmax
denominators (left to right, as :func:`nbx.core.counting.row_reduce`). The Python path stays as the reference the
tests compare with (the same iterations, coefficients within about 1e-10 on generated problems).
"""

import math

import numpy as np
from numba import njit

EPSILON = 2.0**-52  # Weka's m_Epsilon (weka_optimization.EPSILON)
ZERO = math.sqrt(EPSILON)  # m_Zero
TOLX = 1e-6  # m_TOLX
ALF = 1e-4  # m_ALF, sufficient decrease
BETA = 0.9  # m_BETA, curvature
STPMX = 100.0  # m_STPMX
MAXITS = 200  # m_MAXITS, iterations per findArgmin call
DOUBLE_MAX = np.finfo(np.float64).max

# status of a compiled fit (weka_optimization.fit_weka_logistic raises the reference path's errors for them)
OK, POSITIVE_SLOPE, NAN_OBJECTIVE, NOT_FINITE, FACTOR_OVERFLOW = 0, 1, 2, 3, 4


# ---------------------------------------------------------------------------------------------- numpy's sums
@njit(cache=True)
def _block_sum(a, start, n):
    """numpy's ``pairwise_sum_DOUBLE`` on at most 128 terms a[start:start + n]: left to right from 0 below 8
    terms; else 8 partial sums, combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the rest."""
    if n < 8:
        res = 0.0
        for i in range(start, start + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = 8
    while i < n - (n % 8):
        j = start + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[start + i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(a, start, n):
    """numpy's ``pairwise_sum_DOUBLE`` over a[start:start + n] (contiguous): :func:`_block_sum` up to 128 terms,
    beyond it the sum of the two halves (the first a multiple of 8 terms), each summed the same way. The recursion
    is walked with an explicit stack (numba's cache does not reload a recursive function). ``np.sum`` of a 1-D
    float64 array is 0.0 + this sum."""
    if n <= 128:
        return _block_sum(a, start, n)
    st_start = np.empty(64, np.int64)
    st_n = np.empty(64, np.int64)
    st_phase = np.zeros(64, np.int64)
    vals = np.empty(64)
    top, vtop = 0, 0
    st_start[0], st_n[0], st_phase[0] = start, n, 0
    while top >= 0:
        s, m = st_start[top], st_n[top]
        if m <= 128:
            vals[vtop] = _block_sum(a, s, m)
            vtop += 1
            top -= 1
            continue
        n2 = m // 2
        n2 -= n2 % 8
        if st_phase[top] == 0:  # the first half
            st_phase[top] = 1
            top += 1
            st_start[top], st_n[top], st_phase[top] = s, n2, 0
        elif st_phase[top] == 1:  # then the second
            st_phase[top] = 2
            top += 1
            st_start[top], st_n[top], st_phase[top] = s + n2, m - n2, 0
        else:  # both done: first + second
            vals[vtop - 2] = vals[vtop - 2] + vals[vtop - 1]
            vtop -= 1
            top -= 1
    return vals[0]


@njit(cache=True)
def np_sum(a):
    """``np.sum`` of a contiguous 1-D float64 array: the add identity 0.0 plus the pairwise sum."""
    return 0.0 + pairwise_sum(a, 0, a.shape[0])


# ---------------------------------------------------------------------------------------------- objective
# A problem (:func:`problem`) is the tuple (Zu, ZuT, pattern, w, ridge, slopes, pair, pair_pattern, pair_Y): the
# distinct rows of the standardized design with its intercept column (u, q) and their transpose (q, u), both
# contiguous, each row's design row (pattern, (n,)), the row weights, the ridge, the mask of the slopes among the
# variables (x class-major as Weka's, x[c·q + j]), each row's (design row, target row) pair (pair, (n,)) and each
# pair's design row and target row (pair_pattern (P,), pair_Y (P, K)). The scratch is (S, LP, D, buf, ebuf, top,
# total, term): scores (m, u), log-probabilities (K, u), per-pair residuals (m, P), vectors (max(n, l),), (K,),
# (u,), (u,) and (P,); m = K - 1.
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
    mixed *= np.random.default_rng(0).integers(0, 2**63, bits.shape[1], dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    _, first, ids = np.unique(mixed.sum(axis=1, dtype=np.uint64), return_index=True, return_inverse=True)
    if not np.array_equal(bits, bits[first[ids]]):
        _, first, ids = np.unique(bits, axis=0, return_index=True, return_inverse=True)
    return ids.ravel().astype(np.int64), first


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
def _log_softmax(S, LP, ebuf, top, total):
    """LP[c, i] = log P(c | x_i) from the scores and the reference class's 0 (row K − 1), as
    :func:`nbx.core.counting.log_softmax`: each row shifted by its largest score (np.maximum's order; 0 if that
    is not finite), its exponentials added as numpy adds a row (left to right from 0 below 8 classes, else
    :func:`pairwise_sum`), log of the sum plus the shift subtracted. Below 8 classes a pass over the rows per
    class (the rows' exponentials independent of each other), ``top`` and ``total`` (n,) scratch."""
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
            total[i] = 0.0 + pairwise_sum(ebuf, 0, K)
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
    _log_softmax(work[0], work[1], work[4], work[5], work[6])
    return True


@njit(cache=True)
def evaluate(prob, work, x):
    """Weka's Logistic objective at x (:meth:`~nbx.models.weka_optimization.RidgeLogisticObjective.value`), leaving
    the scores and log-probabilities in the scratch: +inf where Weka's overflows (the log-probabilities not made
    then), else −Σ_i w_i Σ_c Y_ic log P(c | x_i) + ridge Σ_slopes x², the sums over the classes, the rows and
    the slopes in numpy's order (:func:`pairwise_sum`); a row's Σ_c is its pair's (the same terms)."""
    w, ridge, slopes, pair, pair_pattern, pair_Y = prob[3], prob[4], prob[5], prob[6], prob[7], prob[8]
    LP, buf, ebuf, term = work[1], work[3], work[4], work[7]
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
            total = 0.0 + pairwise_sum(ebuf, 0, K)
        term[p] = total
    n = pair.shape[0]
    for i in range(n):
        buf[i] = w[i] * term[pair[i]]
    nll = -(0.0 + pairwise_sum(buf, 0, n))
    k = 0
    for j in range(x.shape[0]):
        if slopes[j]:
            buf[k] = x[j] * x[j]
            k += 1
    return nll + ridge * (0.0 + pairwise_sum(buf, 0, k))


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
    _log_softmax(work[0], work[1], work[4], work[5], work[6])
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
    )


# ---------------------------------------------------------------------------------------------- small algebra
@njit(cache=True)
def _nanmax(a, b):
    """np.maximum of two floats: NaN if either is NaN (np.max over a vector, as the reference's tests take it)."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return a if a >= b else b


@njit(cache=True)
def _dot(a, b):
    """Σ a_i b_i left to right."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(cache=True)
def _all_finite(a):
    """Whether every entry of the vector is finite."""
    for i in range(a.shape[0]):  # noqa: SIM110 (a loop numba compiles, no generator)
        if not math.isfinite(a[i]):
            return False
    return True


@njit(cache=True)
def _forward(L, rhs, out):
    """out = L⁻¹ rhs for the unit lower triangular L (forward substitution, each row's terms left to right). Four
    rows at a time: their sums over the columns already solved run side by side (four chains of additions in
    flight instead of one), each row's terms still in its own order."""
    n = rhs.shape[0]
    whole = n - n % 4
    for r in range(0, whole, 4):
        s0, s1, s2, s3 = rhs[r], rhs[r + 1], rhs[r + 2], rhs[r + 3]
        for k in range(r):
            o = out[k]
            s0 -= L[r, k] * o
            s1 -= L[r + 1, k] * o
            s2 -= L[r + 2, k] * o
            s3 -= L[r + 3, k] * o
        out[r] = s0
        s1 -= L[r + 1, r] * s0
        out[r + 1] = s1
        s2 -= L[r + 2, r] * s0
        s2 -= L[r + 2, r + 1] * s1
        out[r + 2] = s2
        s3 -= L[r + 3, r] * s0
        s3 -= L[r + 3, r + 1] * s1
        s3 -= L[r + 3, r + 2] * s2
        out[r + 3] = s3
    for r in range(whole, n):
        s = rhs[r]
        for k in range(r):
            s -= L[r, k] * out[k]
        out[r] = s


@njit(cache=True)
def _backward_t(L, rhs, out):
    """out = L⁻ᵀ rhs for the unit lower triangular L (back substitution on Lᵀ)."""
    n = rhs.shape[0]
    for r in range(n - 1, -1, -1):
        s = rhs[r]
        for k in range(r + 1, n):
            s -= L[k, r] * out[k]
        out[r] = s


@njit(cache=True)
def _sweep_row(L, v, p, b, r, start, acc):
    """Row r of :func:`sweep` from column ``start`` on, with the running sum ``acc`` of its earlier columns."""
    finite = True
    for j in range(start, r):
        acc += L[r, j] * p[j]
        L[r, j] += (v[r] - acc) * b[j]
        finite &= np.isfinite(L[r, j])
    return finite


@njit(cache=True)
def sweep(L, v, p, b):
    """Gill et al.'s column sweep shared by C1 and C2, in place: L[r, j] += b_j·(v_r − Σ_{k≤j} p_k L[r, k])
    for r > j (Weka's vp vector after step j), from the old L. One pass per row: the running sum reads
    L[r, j] before the row's update reaches it, adding the products left to right as a cumulative sum does.
    The rows are independent, so four are swept side by side (four running sums in flight, each row's terms in
    its own order). Returns whether every updated entry is finite."""
    finite = True
    n = L.shape[0]
    whole = max(1, n - (n - 1) % 4)  # rows 1.. in fours, then the rest
    for r in range(1, whole, 4):
        a0, a1, a2, a3 = L[r, 0] * p[0], L[r + 1, 0] * p[0], L[r + 2, 0] * p[0], L[r + 3, 0] * p[0]
        L[r, 0] += (v[r] - a0) * b[0]
        L[r + 1, 0] += (v[r + 1] - a1) * b[0]
        L[r + 2, 0] += (v[r + 2] - a2) * b[0]
        L[r + 3, 0] += (v[r + 3] - a3) * b[0]
        finite &= np.isfinite(L[r, 0]) & np.isfinite(L[r + 1, 0]) & np.isfinite(L[r + 2, 0]) & np.isfinite(L[r + 3, 0])
        for j in range(1, r):
            pj, bj = p[j], b[j]
            a0 += L[r, j] * pj
            L[r, j] += (v[r] - a0) * bj
            a1 += L[r + 1, j] * pj
            L[r + 1, j] += (v[r + 1] - a1) * bj
            a2 += L[r + 2, j] * pj
            L[r + 2, j] += (v[r + 2] - a2) * bj
            a3 += L[r + 3, j] * pj
            L[r + 3, j] += (v[r + 3] - a3) * bj
            finite &= np.isfinite(L[r, j]) & np.isfinite(L[r + 1, j]) & np.isfinite(L[r + 2, j])
            finite &= np.isfinite(L[r + 3, j])
        finite &= _sweep_row(L, v, p, b, r + 1, r, a1)  # the rows' columns right of row r's last
        finite &= _sweep_row(L, v, p, b, r + 2, r, a2)
        finite &= _sweep_row(L, v, p, b, r + 3, r, a3)
    for r in range(whole, n):
        acc = L[r, 0] * p[0]
        L[r, 0] += (v[r] - acc) * b[0]
        finite &= np.isfinite(L[r, 0]) & _sweep_row(L, v, p, b, r, 1, acc)
    return finite


@njit(cache=True)
def rank_one_steps(d, p, coeff, t, zero):
    """The per-column recurrences of Gill et al.'s C1 (coeff > 0; ``t`` unused) and C2 (``t`` = pᵀD⁻¹p), with
    Weka's guards: the new D in place of ``d``, and the sweep's multipliers b."""
    n = d.shape[0]
    b = np.zeros(n)
    if coeff > 0.0:
        t = coeff
        for j in range(n):
            dbar = d[j] + t * p[j] * p[j]
            b[j] = p[j] * t / dbar
            t *= d[j] / dbar
            d[j] = dbar
        return b
    root = 1.0 + coeff * t
    root = math.sqrt(root) if root > 0.0 else 0.0
    alpha, sigma = coeff, coeff / (1.0 + root)
    for j in range(n):
        dj = d[j]
        q = p[j] * p[j] / dj
        theta = 1.0 + sigma * q
        t = max(t - q, 0.0)
        plus = sigma * sigma * q * t
        if j < n - 1 and plus <= zero:
            plus = zero
        rho = theta * theta + plus
        d[j] = rho * dj
        b[j] = alpha * p[j] / (rho * dj)
        alpha /= rho
        rho = math.sqrt(rho)
        sigma *= (1.0 + rho) / (rho * (theta + rho))
    return b


@njit(cache=True)
def _update_factor(L, D, v, coeff, p, buf):
    """L·D·Lᵀ + coeff·v vᵀ in place (Weka's ``updateCholeskyFactor``;
    :func:`~nbx.models.weka_optimization.update_factor`). Returns a status: NOT_FINITE for a non-finite v (the
    reference's triangular solve refuses it), FACTOR_OVERFLOW when the sweep writes a non-finite entry."""
    if not _all_finite(v):
        return NOT_FINITE
    _forward(L, v, p)
    t = 0.0
    if not coeff > 0.0:
        for j in range(p.shape[0]):
            buf[j] = p[j] * p[j] / D[j]
        t = 0.0 + pairwise_sum(buf, 0, p.shape[0])
    b = rank_one_steps(D, p, coeff, t, ZERO)
    if not sweep(L, v, p, b):
        return FACTOR_OVERFLOW
    return OK


# ---------------------------------------------------------------------------------------------- the fit
@njit(cache=True)
def _step(x0, alam, direct, x):
    """x = x0 + alam·direct."""
    for i in range(x0.shape[0]):
        x[i] = x0[i] + alam * direct[i]


@njit(cache=True)
def _grad_at(prob, work, x, f, g, gx):
    """The gradient at x into g (from the log-probabilities :func:`evaluate` left, unless f overflowed), and x
    copied to gx[:-1], gx[-1] = 1: where the gradient in g was taken."""
    if math.isinf(f):
        gradient(prob, work, x, g)
    else:
        gradient_from_log_proba(prob, work, x, g)
    gx[:-1] = x
    gx[-1] = 1.0


@njit(cache=True)
def line_search(prob, work, x0, f0, g0, direct, stpmax, x, g_new, gx):
    """Weka's ``Optimization.lnsrch`` without bounds, as :func:`~nbx.models.weka_optimization.line_search`: the
    new point into ``x``, ``direct`` scaled to stpmax in place, the last gradient it took into ``g_new`` and the
    point of that gradient into ``gx`` (:func:`_grad_at`). Returns (f, slope, status): Weka's m_f after the
    search (possibly stale, as Weka's), the initial slope gᵀd, and POSITIVE_SLOPE or NAN_OBJECTIVE where the
    reference raises."""
    l = x0.shape[0]
    norm = math.sqrt(_dot(direct, direct))
    maxalam = 1.0
    if norm > stpmax:
        scale = stpmax / norm
        for i in range(l):
            direct[i] = direct[i] * scale
    else:
        maxalam = stpmax / norm
    slope = _dot(g0, direct)
    if abs(slope) <= ZERO:
        x[:] = x0
        return f0, slope, OK
    if slope > ZERO:
        return f0, slope, POSITIVE_SLOPE
    test = abs(direct[0]) / max(abs(x0[0]), 1.0)
    for i in range(1, l):
        test = _nanmax(test, abs(direct[i]) / max(abs(x0[i]), 1.0))
    if test <= ZERO:
        x[:] = x0
        return f0, slope, OK
    alamin = TOLX / test
    alam, alam2 = 1.0, 0.0  # no bounds: alpha = +inf, so the first trial is the full step
    init_f, lo, hi, new_slope, fhi, flo = f0, alam, alam, 0.0, f0, f0
    k = 0
    f = f0
    while True:
        _step(x0, alam, direct, x)
        f = evaluate(prob, work, x)
        while math.isinf(f):  # shrink an overflowing step by half
            alam *= 0.5
            if alam <= EPSILON:
                return f, slope, OK
            _step(x0, alam, direct, x)
            f = evaluate(prob, work, x)
            init_f = math.inf
        if math.isnan(f):
            return f, slope, NAN_OBJECTIVE
        if f <= f0 + ALF * alam * slope:  # Armijo holds
            _grad_at(prob, work, x, f, g_new, gx)
            new_slope = _dot(g_new, direct)
            if new_slope >= BETA * slope:
                return f, slope, OK
            if k == 0:  # full step too short: double while Armijo holds
                while not (alam >= maxalam or f > f0 + ALF * alam * slope):
                    lo, flo = alam, f
                    alam = min(2.0 * alam, maxalam)
                    _step(x0, alam, direct, x)
                    f = evaluate(prob, work, x)
                    _grad_at(prob, work, x, f, g_new, gx)
                    new_slope = _dot(g_new, direct)  # pre-2020: tested even where Armijo fails
                    if new_slope >= BETA * slope:
                        return f, slope, OK
                hi, fhi = alam, f
            else:
                hi, lo, flo = alam2, alam, f
            break
        if alam < alamin:  # no acceptable step
            if init_f < f0:  # the full step lowered f: take it (Weka keeps the last f)
                _step(x0, 1.0, direct, x)
                return f, slope, OK
            x[:] = x0
            return f0, slope, OK
        if k == 0:  # quadratic backtrack
            if not math.isinf(init_f):
                init_f = f
            tmplam = -0.5 * alam * slope / ((f - f0) / alam - slope)
        else:  # cubic backtrack
            rhs1 = f - f0 - alam * slope
            rhs2 = fhi - f0 - alam2 * slope
            a = (rhs1 / alam**2 - rhs2 / alam2**2) / (alam - alam2)
            b = (-alam2 * rhs1 / alam**2 + alam * rhs2 / alam2**2) / (alam - alam2)
            if a == 0.0:
                tmplam = -slope / (2.0 * b)
            else:
                tmplam = min(-b + math.sqrt(max(b * b - 3.0 * a * slope, 0.0)), DOUBLE_MAX) / (3.0 * a)
            tmplam = min(tmplam, 0.5 * alam)
        alam2, fhi = alam, f
        alam = max(tmplam, 0.1 * alam)
        k += 1
    # curvature condition by safeguarded quadratic interpolation between lo (Armijo holds) and hi
    ldiff = hi - lo
    while new_slope < BETA * slope and ldiff >= alamin:
        lincr = max(-0.5 * new_slope * ldiff**2 / (fhi - flo - new_slope * ldiff), 0.2 * ldiff)
        alam = lo + lincr
        if alam >= hi:
            alam, lincr = hi, ldiff
        _step(x0, alam, direct, x)
        f = evaluate(prob, work, x)
        if f > f0 + ALF * alam * slope:
            ldiff, fhi = lincr, f
        else:
            _grad_at(prob, work, x, f, g_new, gx)
            new_slope = _dot(g_new, direct)
            if new_slope < BETA * slope:
                lo, flo = alam, f
                ldiff -= lincr
    if new_slope < BETA * slope:  # curvature unreachable: the last Armijo point, with its (maybe stale) f
        _step(x0, lo, direct, x)
        return flo, slope, OK
    return f, slope, OK


@njit(cache=True)
def _same_bits(a, b):
    """Whether two vectors hold the same doubles bit for bit (so a gradient taken at one is the other's)."""
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    for i in range(ua.shape[0]):  # noqa: SIM110 (a loop numba compiles, no generator)
        if ua[i] != ub[i]:
            return False
    return True


@njit(cache=True)
def find_argmin(prob, x, max_its):
    """Weka's ``Optimization.findArgmin`` without bounds from x (updated in place to the last point), as
    :func:`~nbx.models.weka_optimization.find_argmin`. Returns (iterations, finished, status, slope). The gradient
    at the line search's point is the one the search took there when it took one at that very point (the same
    function of the same bits), else it is computed."""
    l = x.shape[0]
    work = make_work(prob)
    grad, g_old, g_new, gx = np.empty(l), np.empty(l), np.empty(l), np.empty(l + 1)
    x_old, direct, dx, dg, p = np.empty(l), np.empty(l), np.empty(l), np.empty(l), np.empty(l)
    buf = work[3]
    f = evaluate(prob, work, x)
    _grad_at(prob, work, x, f, grad, gx)
    L, D = np.eye(l), np.ones(l)
    for i in range(l):
        direct[i] = -grad[i]
    stpmax = STPMX * max(math.sqrt(_dot(grad, grad)), float(l))
    for step in range(max_its):
        x_old[:] = x
        g_old[:] = grad
        gx[-1] = 0.0  # no gradient taken by this search yet
        f, slope, status = line_search(prob, work, x_old, f, g_old, direct, stpmax, x, g_new, gx)
        if status != OK:
            return step, False, status, slope
        finish_x = -math.inf
        for i in range(l):
            dx[i] = x[i] - x_old[i]
            finish_x = _nanmax(finish_x, abs(dx[i]) / max(abs(x[i]), 1.0))
        if gx[-1] == 1.0 and _same_bits(x, gx[:-1]):
            grad[:] = g_new
        else:
            gradient(prob, work, x, grad)
        test = -math.inf
        for i in range(l):
            dg[i] = grad[i] - g_old[i]
            test = _nanmax(test, abs(grad[i]) * max(abs(direct[i]), 1.0))
        test /= max(abs(f), 1.0)
        denom = _dot(dx, dg)
        if finish_x < ZERO or test < ZERO or abs(denom) < ZERO:
            return step + 1, True, OK, slope
        if denom >= max(ZERO * math.sqrt(_dot(dx, dx)) * math.sqrt(_dot(dg, dg)), ZERO):
            status = _update_factor(L, D, dg, 1.0 / denom, p, buf)
            if status == OK:
                status = _update_factor(L, D, g_old, 1.0 / slope, p, buf)
            if status != OK:
                return step + 1, False, status, slope
        # direction: L·D·Lᵀ d = −g (each solve refuses a non-finite right-hand side, as the reference's)
        if not _all_finite(grad):
            return step + 1, False, NOT_FINITE, slope
        for i in range(l):
            g_new[i] = -grad[i]
        _forward(L, g_new, p)
        for i in range(l):
            p[i] = p[i] / D[i]
        if not _all_finite(p):
            return step + 1, False, NOT_FINITE, slope
        _backward_t(L, p, direct)
    return max_its, False, OK, 0.0


@njit(cache=True)
def fit_rounds(prob, x, max_rounds):
    """Weka's Logistic with ``-M -1`` on a :func:`problem`: :func:`find_argmin` from x (in place), restarted from
    its last point (B = I again) while it runs out of its 200 iterations, at most ``max_rounds`` times. Returns
    (iterations over all rounds, finished, status, slope)."""
    total = 0
    for _ in range(max_rounds):
        its, finished, status, slope = find_argmin(prob, x, MAXITS)
        total += its
        if status != OK or finished:
            return total, finished, status, slope
    return total, False, OK, 0.0
