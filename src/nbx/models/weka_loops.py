"""The compiled loops of :mod:`nbx.models.weka_optimization` (numba): Weka's ``Optimization.findArgmin`` for the
``Logistic.OptObject`` objective, line search (``lnsrch``) and BFGS factor updates (``updateCholeskyFactor``) in one
compiled call, the restarts of Weka's Logistic with ``-M -1`` included, so that a fit pays no Python per function
evaluation (HBayes' search fits thousands of small models per fold, and each evaluation of the array code cost
about 130 µs of numpy and scipy calls on a few dozen variables and a few hundred rows).

The same algorithm, tests and constants as the Python reference (:func:`~nbx.models.weka_optimization.find_argmin`,
:func:`~nbx.models.weka_optimization.line_search`, whose docstrings cite Weka's source), on the objective of
:mod:`nbx.models.weka_objective` (a :func:`~nbx.models.weka_objective.problem`); only the rounding of some sums
differs: the dot products and triangular solves add their terms left to right (the reference: BLAS and LAPACK),
the factor update's pᵀD⁻¹p in numpy's pairwise order (:func:`~nbx.core.sums.row_sum`), and the
objective's sums as that module says. The factor L is kept as its transpose U = Lᵀ, so that its columns are
contiguous rows (the sweep and the forward solve run along them as vector loops). The Python path stays as the
reference the tests compare with (the same iterations, coefficients within about 1e-10 on generated problems).
"""

import math

import numpy as np
from numba import njit

from nbx.core.sums import row_sum
from nbx.models.weka_objective import evaluate, gradient, gradient_from_log_proba, make_work

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
def _forward(U, rhs, out):
    """out = L⁻¹ rhs for the unit lower triangular L = Uᵀ (forward substitution): out[r] = rhs[r] − Σ_{k<r}
    L[r, k] out[k], each row's terms subtracted left to right. Column by column, so that the rows' sums run side
    by side along U's contiguous rows (a vector loop), each row's terms still in its own order."""
    n = rhs.shape[0]
    out[:] = rhs
    for k in range(n - 1):
        o = out[k]
        tail, col = out[k + 1 :], U[k, k + 1 :]
        for r in range(tail.shape[0]):
            tail[r] = tail[r] - col[r] * o


@njit(cache=True)
def _backward_t(U, rhs, out):
    """out = L⁻ᵀ rhs = U⁻¹ rhs for the unit upper triangular U = Lᵀ (back substitution, each row's terms left to
    right: one chain of additions per row, Weka's order)."""
    n = rhs.shape[0]
    for r in range(n - 1, -1, -1):
        s = rhs[r]
        row = U[r]
        for k in range(r + 1, n):
            s -= row[k] * out[k]
        out[r] = s


@njit(cache=True)
def sweep(U, v, p, b, acc):
    """Gill et al.'s column sweep shared by C1 and C2, in place on U = Lᵀ: L[r, j] += b_j·(v_r − Σ_{k≤j} p_k L[r, k])
    for r > j (Weka's vp vector after step j), from the old L, the sums added left to right as a cumulative sum
    does (``acc``: scratch of n, row r's running sum). Column j of L is row j of U, contiguous, so each step j
    updates its rows side by side in a vector loop; each entry's operations are those of a pass row by row. Returns
    whether every updated entry is finite (x − x is 0 exactly for a finite x, NaN otherwise)."""
    finite = True
    n = U.shape[0]
    for j in range(n - 1):
        pj, bj = p[j], b[j]
        run, col, vr = acc[j + 1 :], U[j, j + 1 :], v[j + 1 :]
        if j == 0:  # the sums start at their first term (not 0 + it: the same bits, a −0 kept)
            for r in range(col.shape[0]):
                a = col[r] * pj
                run[r] = a
                x = col[r] + (vr[r] - a) * bj
                col[r] = x
                finite &= (x - x) == 0.0
        else:
            for r in range(col.shape[0]):
                a = run[r] + col[r] * pj
                run[r] = a
                x = col[r] + (vr[r] - a) * bj
                col[r] = x
                finite &= (x - x) == 0.0
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
def _update_factor(U, D, v, coeff, p, buf, stack):
    """L·D·Lᵀ + coeff·v vᵀ in place, U = Lᵀ (Weka's ``updateCholeskyFactor``;
    :func:`~nbx.models.weka_optimization.update_factor`). Returns a status: NOT_FINITE for a non-finite v (the
    reference's triangular solve refuses it), FACTOR_OVERFLOW when the sweep writes a non-finite entry."""
    if not _all_finite(v):
        return NOT_FINITE
    _forward(U, v, p)
    t = 0.0
    if not coeff > 0.0:
        for j in range(p.shape[0]):
            buf[j] = p[j] * p[j] / D[j]
        t = row_sum(buf, p.shape[0], *stack)
    b = rank_one_steps(D, p, coeff, t, ZERO)
    if not sweep(U, v, p, b, buf):  # buf is free once t is made
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
    buf, stack = work[3], work[8:]
    f = evaluate(prob, work, x)
    _grad_at(prob, work, x, f, grad, gx)
    U, D = np.eye(l), np.ones(l)  # U = Lᵀ: the factor's columns as contiguous rows
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
            status = _update_factor(U, D, dg, 1.0 / denom, p, buf, stack)
            if status == OK:
                status = _update_factor(U, D, g_old, 1.0 / slope, p, buf, stack)
            if status != OK:
                return step + 1, False, status, slope
        # direction: L·D·Lᵀ d = −g (each solve refuses a non-finite right-hand side, as the reference's)
        if not _all_finite(grad):
            return step + 1, False, NOT_FINITE, slope
        for i in range(l):
            g_new[i] = -grad[i]
        _forward(U, g_new, p)
        for i in range(l):
            p[i] = p[i] / D[i]
        if not _all_finite(p):
            return step + 1, False, NOT_FINITE, slope
        _backward_t(U, p, direct)
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
