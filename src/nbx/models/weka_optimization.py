"""Weka's quasi-Newton optimizer for ridge logistic regression, followed to its stopping point.

Kang & Tian (2006), "Experimental Results": NB, LR, TAN and C4.5 are "all of them implemented in Weka"; their LR
column is Weka's ``functions.Logistic`` (le Cessie & van Houwelingen 1992, ridge 1e-8). Logistic minimises
its objective with ``weka.core.Optimization`` (Xin Xu's BFGS with a Cholesky-factored Hessian approximation,
after Gill, Golub, Murray & Saunders 1974 and Dennis & Schnabel's line search), which stops by its own tests,
not at the optimum: on separable folds, where the ridge alone bounds the coefficients, it stops far from the
optimum that :func:`nbx.models.logistic.fit_ridge_logistic` reaches. This module follows that algorithm as
read from Weka's source (``Optimization.java``, ``Logistic.java``; the stable-3-8 history), so that
``LogisticRegression(optimizer="weka_bfgs")`` stops where Weka would:

* Objective (``Logistic.OptObject``): f(θ) = −Σ w_i log P(y_i | x_i) + ridge Σ_{k<K-1} Σ_{j≥1} θ_kj² on the
  standardized design, gradient accordingly (as :func:`nbx.models.logistic.objective`); variables in
  Weka's order, class-major (x[k·(p+1) + j]). Where Weka's value overflows, so does ours: Weka shifts a row's
  scores by their largest non-reference score m only, and exp(0 − m) is +inf once m < −709.78, so f = +inf
  and the line search halves the step ("Too large m_f"); the stable log-softmax would stay finite there and
  the path would leave Weka's (benchmarks/weka_agreement.py: before this, ionosphere's codes 0.999 apart in
  a test-row probability, iris's numeric coefficients 5x apart; after it, 1e-9 at most on ten data sets).
* Design (``Logistic.buildClassifier``): RemoveUseless drops an attribute that is constant on the training
  rows, NominalToBinary codes a two-valued nominal attribute as one 0/1 column (the indicator of its second
  value) and a k-valued one as k indicators (declared values never seen stay all-zero columns). The optimizer
  is not invariant to the parameterisation, so :func:`weka_columns` picks these columns out of our design
  (one indicator per value) and the coefficients of the dropped columns are 0 (same scores).
* ``findArgmin``: B_0 = I (as L·D·Lᵀ, L unit lower triangular), direction −g, stpmax = 100·max(‖g_0‖, l)
  (l variables). Each iteration runs the line search, then finishes when max_i |Δx_i| / max(|x_i|, 1) <
  m_Zero, or when max_i |g_i|·max(|d_i|, 1) / max(|f|, 1) < m_Zero (d the step's direction after the line
  search's scaling, f the line search's last function value), or when |Δxᵀ Δg| < m_Zero; m_Zero = √ε =
  1.49e-8 (Weka computes ε by halving, 2^-52). Otherwise B is updated by BFGS, B + ΔgΔgᵀ/(ΔgᵀΔx) + g gᵀ/(gᵀd)
  (g the previous gradient, gᵀd the line search's slope), as two rank-one modifications of L·D (Gill et al.'s
  C1 and C2, with Weka's rounding guards), skipped when ΔgᵀΔx < max(m_Zero·‖Δx‖·‖Δg‖, m_Zero).
  ``m_MAXITS`` = 200 iterations; then findArgmin returns null, and Logistic with its default ``-M -1``
  ("until convergence") restarts it from the last point with B = I, until it finishes.
* ``lnsrch``: a direction longer than stpmax is scaled to it; λ_min = m_TOLX / max_i |d_i| / max(|x_i|, 1)
  with m_TOLX = 1e-6; first trial λ = 1; Armijo (m_ALF = 1e-4) and curvature (m_BETA = 0.9) conditions; if
  both hold at once the step is taken; if only Armijo holds at λ = 1, λ doubles up to stpmax / ‖d‖ while
  Armijo holds (returning as soon as the curvature condition holds too), then a safeguarded quadratic
  interpolation between the last good and the first bad λ, else the last good λ; if Armijo fails, quadratic
  then cubic backtracking (λ in [0.1, 0.5]·λ_old) down to λ_min, below which it takes the full step if that
  step lowered f at all, else stays (then Δx = 0 finishes the search). Where Weka keeps a stale function
  value (the full step taken below λ_min, or the last good λ taken with its value at 0), so do we, since that
  value enters the next tests.
* Version: the line search as before Weka's 2020 change (stable-3-8 r15533, commit d435aec), which added
  "do not continue with the test for the beta condition if the alpha condition is no longer satisfied" in
  the doubling loop; the releases of the paper's time (Weka 3.4-3.6) test the curvature condition there
  regardless. No bounds are used (Logistic passes none), so the working-set code is left out.

The restarts are capped at ``max_rounds`` rounds of 200 iterations (Weka's -1 has no cap); a fit that hits the
cap is not converged. Rounding differs from Java's (numpy sums, triangular solves), so the path can drift
where Weka's own tests sit on a knife edge; the stopping rule is Weka's.

Two paths compute this fit. :func:`fit_weka_logistic` runs it by default in one compiled call
(:mod:`nbx.models.weka_loops`: the line search, factor updates and restarts as in the functions below, on the
objective and gradient of :mod:`nbx.models.weka_objective`, without a Python call per function evaluation, which
cost about 130 µs each on HBayes' small subproblems); its sums add left to right where the functions below use
OpenBLAS, LAPACK and numpy's exp and log, so the two agree to the last bits of each evaluation, and on generated
problems to about 1e-10 in the coefficients with the same iterations (tests/models/test_weka_optimization.py). The
functions below stay as the reference.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import solve_triangular

from nbx.core.counting import log_softmax
from nbx.models import weka_loops, weka_objective
from nbx.models.weka_loops import ALF, BETA, EPSILON, MAXITS, STPMX, TOLX, ZERO
from nbx.models.weka_loops import rank_one_steps as _rank_one_steps
from nbx.models.weka_loops import sweep as _sweep

# Weka's constants live in weka_loops (one source for both paths): EPSILON m_Epsilon (halve until 1 + ε == 1, then
# double, 2^-52), ZERO m_Zero = √ε, TOLX m_TOLX, ALF m_ALF (sufficient decrease), BETA m_BETA (curvature), STPMX
# m_STPMX, MAXITS m_MAXITS (iterations per findArgmin call).


# ---------------------------------------------------------------------------------------------- objective
def overflows(scores: np.ndarray) -> bool:
    """Whether Weka's Logistic objective is +inf at these scores (n, K-1; the reference class scores 0): per row
    it computes exp(−m), m the largest of the K-1 scores, which Java's Math.exp (as numpy's exp) rounds to
    +inf beyond the largest double, i.e. for m < −709.78."""
    with np.errstate(over="ignore"):
        return bool(np.isinf(np.exp(-scores.max(axis=1))).any())


class RidgeLogisticObjective:
    """Weka's Logistic objective and gradient over θ flattened class-major (θ (p+1, K-1) -> θᵀ.ravel()).
    ``Z1`` standardized design with intercept column, ``Y`` (n, K) one-hot targets, ``w`` row weights."""

    def __init__(self, Z1: np.ndarray, Y: np.ndarray, w: np.ndarray, ridge: float):
        self.Z1, self.Y, self.w, self.ridge = Z1, Y, w, ridge
        self.shape = (Z1.shape[1], Y.shape[1] - 1)
        self.slopes = np.zeros(self.shape, bool)
        self.slopes[1:] = True
        self.slopes = self.slopes.T.ravel()

    def theta(self, x: np.ndarray) -> np.ndarray:
        return x.reshape(self.shape[::-1]).T

    def _log_proba(self, x: np.ndarray, scores: np.ndarray | None = None) -> np.ndarray:
        scores = self.Z1 @ self.theta(x) if scores is None else scores
        return log_softmax(np.hstack([scores, np.zeros((len(scores), 1))]))

    def value(self, x: np.ndarray) -> float:
        """f(θ), or +inf where Weka's ``objectiveFunction`` overflows: it shifts a row's scores by their largest
        non-reference score m only, so the reference class's term exp(0 − m) is +inf once m < −709.78 (the line
        search then halves the step, "Too large m_f")."""
        scores = self.Z1 @ self.theta(x)
        if scores.size and overflows(scores):
            return math.inf
        nll = -float(np.sum(self.w * np.sum(self.Y * self._log_proba(x, scores), axis=1)))
        return nll + self.ridge * float(np.sum(x[self.slopes] ** 2))

    def gradient(self, x: np.ndarray) -> np.ndarray:
        P = np.exp(self._log_proba(x)[:, :-1])
        grad = (self.Z1.T @ (self.w[:, None] * (P - self.Y[:, :-1]))).T.ravel()
        return grad + 2.0 * self.ridge * np.where(self.slopes, x, 0.0)


# ---------------------------------------------------------------------------------------------- line search
def line_search(fun, x0: np.ndarray, f0: float, g0: np.ndarray, direct: np.ndarray, stpmax: float):
    """Weka's ``Optimization.lnsrch`` without bounds (see the module docstring). Returns (x, f, direct, slope):
    the new point, Weka's m_f after the search (possibly stale, as Weka's), the direction as scaled to stpmax
    and the initial slope gᵀd."""
    norm = math.sqrt(float(direct @ direct))
    maxalam = 1.0
    if norm > stpmax:
        direct = direct * (stpmax / norm)
    else:
        maxalam = stpmax / norm
    slope = float(g0 @ direct)
    if abs(slope) <= ZERO:
        return x0.copy(), f0, direct, slope
    if slope > ZERO:
        raise ValueError(f"weka_bfgs line search: g'd = {slope:g} is positive (not a descent direction)")
    test = float(np.max(np.abs(direct) / np.maximum(np.abs(x0), 1.0)))
    if test <= ZERO:
        return x0.copy(), f0, direct, slope
    alamin = TOLX / test
    alam, alam2 = 1.0, 0.0  # no bounds: alpha = +inf, so the first trial is the full step
    init_f, lo, hi, new_slope, fhi, flo = f0, alam, alam, 0.0, f0, f0
    k = 0
    while True:
        x = x0 + alam * direct
        f = fun.value(x)
        while math.isinf(f):  # shrink an overflowing step by half
            alam *= 0.5
            if alam <= EPSILON:
                return x, f, direct, slope
            x = x0 + alam * direct
            f = fun.value(x)
            init_f = math.inf
        if math.isnan(f):
            raise ValueError("weka_bfgs line search: the objective is NaN")
        if f <= f0 + ALF * alam * slope:  # Armijo holds
            new_slope = float(fun.gradient(x) @ direct)
            if new_slope >= BETA * slope:
                return x, f, direct, slope
            if k == 0:  # full step too short: double while Armijo holds
                while not (alam >= maxalam or f > f0 + ALF * alam * slope):
                    lo, flo = alam, f
                    alam = min(2.0 * alam, maxalam)
                    x = x0 + alam * direct
                    f = fun.value(x)
                    new_slope = float(fun.gradient(x) @ direct)  # pre-2020: tested even where Armijo fails
                    if new_slope >= BETA * slope:
                        return x, f, direct, slope
                hi, fhi = alam, f
            else:
                hi, lo, flo = alam2, alam, f
            break
        if alam < alamin:  # no acceptable step
            if init_f < f0:  # the full step lowered f: take it (Weka keeps the last f)
                return x0 + direct, f, direct, slope
            return x0.copy(), f0, direct, slope
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
                tmplam = min(-b + math.sqrt(max(b * b - 3.0 * a * slope, 0.0)), np.finfo(float).max) / (3.0 * a)
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
        x = x0 + alam * direct
        f = fun.value(x)
        if f > f0 + ALF * alam * slope:
            ldiff, fhi = lincr, f
        else:
            new_slope = float(fun.gradient(x) @ direct)
            if new_slope < BETA * slope:
                lo, flo = alam, f
                ldiff -= lincr
    if new_slope < BETA * slope:  # curvature unreachable: the last Armijo point, with its (maybe stale) f
        return x0 + lo * direct, flo, direct, slope
    return x, f, direct, slope


# ---------------------------------------------------------------------------------------------- BFGS factor
def _solve_unit_lower(L: np.ndarray, rhs: np.ndarray, trans: str = "N") -> np.ndarray:
    """L⁻¹ rhs (or L⁻ᵀ rhs) for the unit lower factor. L is finite by construction (the sweep checks what it
    writes), so only the vector is checked: scipy's own check would scan all of L on every solve."""
    if not np.isfinite(rhs).all():
        raise ValueError("array must not contain infs or NaNs")
    return solve_triangular(L, rhs, lower=True, unit_diagonal=True, trans=trans, check_finite=False)


def update_factor(L: np.ndarray, D: np.ndarray, v: np.ndarray, coeff: float) -> None:
    """L·D·Lᵀ + coeff·v vᵀ in place (Weka's ``updateCholeskyFactor``): Gill et al.'s C1 for coeff > 0, C2
    (with Weka's guards: 1 + coeff·vᵀB⁻¹v clipped at 0, the term σ²p t at least m_Zero) otherwise."""
    p = _solve_unit_lower(L, v)
    t = 0.0 if coeff > 0.0 else float(np.sum(p * p / D))
    b = _rank_one_steps(D, p, coeff, t, ZERO)
    if not _sweep(L.T, v, p, b, np.empty(len(v))):  # the sweep works on Lᵀ (a view: L in place)
        raise ValueError("the BFGS factor overflowed: array must not contain infs or NaNs")


def _direction(L: np.ndarray, D: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """Solve L·D·Lᵀ d = −g."""
    return _solve_unit_lower(L, _solve_unit_lower(L, -grad) / D, trans="T")


def find_argmin(fun, x0: np.ndarray, max_its: int = MAXITS) -> tuple[np.ndarray, float, int, bool]:
    """Weka's ``Optimization.findArgmin`` without bounds: (x, f, iterations, finished); finished is False when
    ``max_its`` iterations ran out (Weka returns null then and keeps x for ``getVarbValues``)."""
    x = np.array(x0, dtype=float)
    f, grad = fun.value(x), fun.gradient(x)
    n = len(x)
    L, D = np.eye(n), np.ones(n)
    direct = -grad
    stpmax = STPMX * max(math.sqrt(float(grad @ grad)), n)
    for step in range(max_its):
        x_old, g_old = x, grad
        x, f, direct, slope = line_search(fun, x_old, f, g_old, direct, stpmax)
        dx = x - x_old
        finish = float(np.max(np.abs(dx) / np.maximum(np.abs(x), 1.0))) < ZERO
        grad = fun.gradient(x)
        dg = grad - g_old
        denom = float(dx @ dg)
        test = float(np.max(np.abs(grad) * np.maximum(np.abs(direct), 1.0))) / max(abs(f), 1.0)
        if finish or test < ZERO or abs(denom) < ZERO:
            return x, fun.value(x), step + 1, True
        if denom >= max(ZERO * math.sqrt(float(dx @ dx)) * math.sqrt(float(dg @ dg)), ZERO):
            update_factor(L, D, dg, 1.0 / denom)
            update_factor(L, D, g_old, 1.0 / slope)
        direct = _direction(L, D, grad)
    return x, f, max_its, False


def fit_weka_logistic(
    Z1: np.ndarray,
    Y: np.ndarray,
    w: np.ndarray,
    ridge: float,
    theta0: np.ndarray,
    max_rounds: int = 100,
    compiled: bool = True,
    rows: np.ndarray | None = None,
) -> tuple[np.ndarray, int, bool]:
    """Weka's Logistic with ``-M -1``: :func:`find_argmin` from ``theta0`` (p+1, K-1), restarted from its last
    point (B = I again) while it runs out of its 200 iterations, at most ``max_rounds`` times. Returns (theta,
    iterations over all rounds, finished). ``compiled`` (the default) runs the whole fit in one compiled call
    (:func:`nbx.models.weka_loops.fit_rounds`: the same algorithm, some sums rounded differently, see there);
    False runs this module's Python path, the reference the tests compare it with. ``rows`` (optional): ``Z1``
    holds distinct design rows only, and row i's is ``Z1[rows[i]]``."""
    theta = np.array(theta0, dtype=float)
    if Y.shape[1] < 2:
        return theta, 0, True
    if compiled:
        return _fit_compiled(Z1, Y, w, ridge, theta, int(max_rounds), rows)
    if rows is not None:
        Z1 = Z1[rows]
    fun = RidgeLogisticObjective(Z1, Y, w, ridge)
    x, total = theta.T.ravel(), 0
    for _ in range(int(max_rounds)):
        x, _, its, finished = find_argmin(fun, x)
        total += its
        if finished:
            return fun.theta(x).copy(), total, True
    return fun.theta(x).copy(), total, False


def _fit_compiled(Z1, Y, w, ridge, theta, max_rounds, rows):
    """:func:`fit_weka_logistic` by :func:`nbx.models.weka_loops.fit_rounds`, raising the Python path's errors."""
    fun = RidgeLogisticObjective(Z1, Y, w, ridge)  # its layout: the slopes' mask and theta's shape
    x = np.ascontiguousarray(theta.T.ravel(), dtype=float)
    prob = weka_objective.problem(Z1, Y, w, ridge, fun.slopes, rows)
    total, finished, status, slope = weka_loops.fit_rounds(prob, x, max_rounds)
    if status == weka_loops.POSITIVE_SLOPE:
        raise ValueError(f"weka_bfgs line search: g'd = {slope:g} is positive (not a descent direction)")
    if status == weka_loops.NAN_OBJECTIVE:
        raise ValueError("weka_bfgs line search: the objective is NaN")
    if status == weka_loops.NOT_FINITE:
        raise ValueError("array must not contain infs or NaNs")
    if status == weka_loops.FACTOR_OVERFLOW:
        raise ValueError("the BFGS factor overflowed: array must not contain infs or NaNs")
    return fun.theta(x).copy(), int(total), bool(finished)


def weka_columns(Z: np.ndarray, owner: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Which columns of our design (:func:`nbx.models.logistic_design.design_matrix`: one indicator per nominal
    value) Weka's Logistic has after RemoveUseless and NominalToBinary: none of an attribute that is constant
    on the training rows, one (the second value's indicator) of a two-valued nominal one, all of the others."""
    keep = np.ones(Z.shape[1], bool)
    for a in range(len(n_values)):
        cols = np.flatnonzero(owner == a)
        block = Z[:, cols]
        if n_values[a] > 0:
            constant = np.count_nonzero(block.any(axis=0)) <= 1
        else:
            values = block[~np.isnan(block)]
            constant = values.size == 0 or np.ptp(values) == 0
        if constant:
            keep[cols] = False
        elif n_values[a] == 2:
            keep[cols[0]] = False
    return keep
