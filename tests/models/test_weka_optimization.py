"""Weka's quasi-Newton optimizer for ridge logistic regression (nbx.models.weka_optimization): the objective's
gradient, the Cholesky-factor updates, the stopping point against a dense hand-run of the same rule, Weka's
design columns, and where it stops on separable data against the exact optimum (Kang & Tian 2006's LR)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nbx.models import weka_loops as wl
from nbx.models import weka_objective as wobj
from nbx.models import weka_optimization as wo
from nbx.models.logistic import LogisticRegression, one_hot
from nbx.models.logistic_design import design_matrix, standardize, standardizer


def _problem(seed=0, n=40, p=3, k=3, ridge=1e-3):
    rng = np.random.default_rng(seed)
    Z1 = np.hstack([np.ones((n, 1)), rng.normal(size=(n, p))])
    y = rng.integers(0, k, n)
    return wo.RidgeLogisticObjective(Z1, one_hot(y, k), rng.uniform(0.5, 2.0, n), ridge)


def test_gradient_equals_finite_differences():
    fun = _problem()
    x = np.random.default_rng(1).normal(size=fun.slopes.size)
    h = 1e-6
    numeric = [(fun.value(x + h * e) - fun.value(x - h * e)) / (2 * h) for e in np.eye(len(x))]
    np.testing.assert_allclose(fun.gradient(x), numeric, rtol=1e-6, atol=1e-7)


def test_objective_is_wekas_ridge_nll_class_major():
    fun = _problem(ridge=0.5)
    theta = np.random.default_rng(2).normal(size=(4, 2))
    x = theta.T.ravel()  # Weka's order: x[k * (p + 1) + j]
    scores = np.hstack([fun.Z1 @ theta, np.zeros((len(fun.Z1), 1))])
    logp = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    nll = -np.sum(fun.w * logp[np.arange(len(logp)), fun.Y.argmax(axis=1)])
    assert fun.value(x) == pytest.approx(nll + 0.5 * np.sum(theta[1:] ** 2), rel=1e-12)  # intercepts free
    np.testing.assert_array_equal(fun.theta(x), theta)


def test_objective_overflows_where_wekas_does():
    """Weka's Logistic objective shifts a row's scores by their largest non-reference score m only, so exp(0 - m),
    the reference class's term, is +inf once m < -709.78 (Weka 3.6.14's -D trace on iris: "Too large m_f.  Shrink
    step by half."); the stable log-softmax is finite there. The emulation returns +inf as Weka does, and stays
    finite (Weka's value) just inside the limit and wherever one non-reference score is large."""
    Z1 = np.array([[1.0, 1.0], [1.0, -1.0]])
    fun = wo.RidgeLogisticObjective(Z1, one_hot(np.array([2, 0]), 3), np.ones(2), 0.0)

    def at(a, b):  # class 0 and class 1 score a and b on row 0 (row 1: -a, -b)
        return np.array([0.0, a, 0.0, b])

    assert fun.value(at(-710.0, -720.0)) == math.inf  # row 0: both below -709.78
    assert math.isfinite(fun.value(at(-709.0, -720.0)))
    # row 1 (class 0 scores 709, class 1 720) pays log(1 + e^11 + e^-709); row 0 (the reference) about e^-709
    assert fun.value(at(-709.0, -720.0)) == pytest.approx(11.0 + math.log1p(math.exp(-11.0)), rel=1e-12)
    assert math.isfinite(fun.value(at(-800.0, 5.0)))  # row 0's max is 5: no overflow
    assert wo.overflows(np.array([[-709.79]])) and not wo.overflows(np.array([[-709.78]]))
    grad = fun.gradient(at(-710.0, -720.0))
    assert np.all(np.isfinite(grad))  # Weka's gradient normalizes by the infinite denominator: finite


@pytest.mark.parametrize("coeff", [0.7, -0.3])
def test_factor_update_is_the_rank_one_modification(coeff):
    rng = np.random.default_rng(3)
    n = 6
    L = np.tril(rng.normal(size=(n, n)), -1) + np.eye(n)
    D = rng.uniform(1.0, 2.0, n)
    B = L @ np.diag(D) @ L.T
    v = 0.1 * rng.normal(size=n)
    assert 1 + coeff * v @ np.linalg.solve(B, v) > 0  # the modified matrix stays positive definite
    wo.update_factor(L, D, v, coeff)
    assert np.all(np.diag(L) == 1.0) and np.all(np.triu(L, 1) == 0.0) and np.all(D > 0)
    # exact for C1; C2 up to Weka's rounding guard (each term σ²p t raised to at least m_Zero = 1.5e-8)
    tol = 1e-10 if coeff > 0 else 10 * wo.ZERO
    np.testing.assert_allclose(L @ np.diag(D) @ L.T, B + coeff * np.outer(v, v), rtol=tol, atol=tol)


def test_sweep_is_the_cumulative_sum_form_bit_for_bit():
    """The compiled column sweep equals its array form (a cumulative sum over the old L's columns) bit for bit."""
    rng = np.random.default_rng(5)
    n = 40
    L = np.tril(rng.normal(size=(n, n)), -1) + np.eye(n)
    v, p, b = rng.normal(size=n), rng.normal(size=n), rng.normal(size=n)
    expected = L + np.tril((v[:, None] - np.cumsum(L * p[None, :], axis=1)) * b[None, :], -1)
    assert wo._sweep(L.T, v, p, b, np.empty(n))  # on Lᵀ, a view of L
    assert L.tobytes() == expected.tobytes()


def test_sweep_reports_a_non_finite_entry():
    n = 9
    L = np.eye(n)
    L[6, 2] = 1e308
    v, p, b = np.ones(n), np.ones(n), np.full(n, 1e300)  # (v − Σ p L) b overflows from row 6, column 2 on
    assert not wl.sweep(np.ascontiguousarray(L.T), v, p, b, np.empty(n))
    assert wl.sweep(np.ascontiguousarray(np.eye(n).T), v, p, np.full(n, 0.5), np.empty(n))


@pytest.mark.parametrize("n", [1, 2, 5, 37])
def test_triangular_solves_subtract_each_rows_terms_left_to_right(n):
    """The compiled solves on U = Lᵀ, column by column or row by row, give the plain loop's bits: row r's terms
    subtracted in the order k = 0, 1, ... (forward) and k = r + 1, r + 2, ... (backward)."""
    rng = np.random.default_rng(n)
    U = np.triu(rng.normal(size=(n, n)), 1) + np.eye(n)
    rhs = rng.normal(size=n)
    forward, backward = np.zeros(n), np.zeros(n)
    for r in range(n):
        s = float(rhs[r])
        for k in range(r):
            s -= float(U[k, r]) * forward[k]
        forward[r] = s
    for r in range(n - 1, -1, -1):
        s = float(rhs[r])
        for k in range(r + 1, n):
            s -= float(U[r, k]) * backward[k]
        backward[r] = s
    out = np.empty(n)
    wl._forward(U, rhs, out)
    assert out.tobytes() == forward.tobytes()
    wl._backward_t(U, rhs, out)
    assert out.tobytes() == backward.tobytes()


def _dense_hand_run(fun, x0, max_its=200):
    """The same rule with the BFGS matrix kept dense and directions by np.linalg.solve."""
    x = np.array(x0, float)
    f, g = fun.value(x), fun.gradient(x)
    B = np.eye(len(x))
    d = -g
    stpmax = wo.STPMX * max(math.sqrt(g @ g), len(x))
    for step in range(max_its):
        x_old, g_old = x, g
        x, f, d, slope = wo.line_search(fun, x_old, f, g_old, d, stpmax)
        dx = x - x_old
        g = fun.gradient(x)
        dg = g - g_old
        rel_step = np.max(np.abs(dx) / np.maximum(np.abs(x), 1.0))
        rel_grad = np.max(np.abs(g) * np.maximum(np.abs(d), 1.0)) / max(abs(f), 1.0)
        if rel_step < wo.ZERO or rel_grad < wo.ZERO or abs(dx @ dg) < wo.ZERO:
            return x, step + 1
        if dx @ dg >= max(wo.ZERO * np.linalg.norm(dx) * np.linalg.norm(dg), wo.ZERO):
            B = B + np.outer(dg, dg) / (dx @ dg) + np.outer(g_old, g_old) / slope
        d = np.linalg.solve(B, -g)
    return x, max_its


def test_stops_where_a_dense_hand_run_of_the_rule_stops():
    fun = _problem(seed=4, ridge=1e-2)
    x0 = np.zeros(fun.slopes.size)
    x, f, its, finished = wo.find_argmin(fun, x0)
    ref, ref_its = _dense_hand_run(fun, x0)
    assert finished and its == ref_its
    np.testing.assert_allclose(x, ref, rtol=1e-6, atol=1e-9)
    assert f == fun.value(x)


def test_one_dimensional_quadratic_by_hand():
    class Quadratic:  # f = x² / 4: the first step halves x, the secant update then makes B exact
        def value(self, x):
            return float(x @ x) / 4

        def gradient(self, x):
            return x / 2

    x, f, its, finished = wo.find_argmin(Quadratic(), np.array([1.0]))
    # step 1: x = 1 - 0.5 = 0.5 (Armijo and curvature hold at λ = 1); B = 1 + 0.0625/0.125 + 0.25/(-0.25) = 0.5;
    # step 2: x = 0.5 - 0.25/0.5 = 0, gradient 0: finished after 2 iterations
    assert finished and its == 2 and x[0] == 0.0 and f == 0.0


def test_restarts_when_the_iterations_run_out():
    fun = _problem(seed=5, ridge=1e-2)
    theta0 = np.zeros((4, 2))
    whole, n_whole, _ = wo.fit_weka_logistic(fun.Z1, fun.Y, fun.w, fun.ridge, theta0)
    x, _, its, finished = wo.find_argmin(fun, theta0.T.ravel(), max_its=3)
    assert not finished and its == 3
    capped, n_capped, converged = wo.fit_weka_logistic(fun.Z1, fun.Y, fun.w, fun.ridge, theta0, max_rounds=1)
    assert converged == (n_whole <= wo.MAXITS) and n_capped <= wo.MAXITS
    np.testing.assert_allclose(whole, wo.fit_weka_logistic(fun.Z1, fun.Y, fun.w, fun.ridge, theta0)[0])


def test_weka_columns_as_remove_useless_and_nominal_to_binary():
    # a two-valued attribute (one column), a constant one (none), a three-valued one with an unseen value (all
    # three, the unseen one an all-zero column), a numeric one (kept)
    X = np.array([[0, 1, 0, 0.5], [1, 1, 1, 1.5], [1, 1, 0, 2.5], [0, 1, 1, 3.5]], float)
    n_values = np.array([2, 3, 3, 0])
    Z, owner = design_matrix(X, n_values)
    keep = wo.weka_columns(Z, owner, n_values)
    assert keep.tolist() == [False, True, False, False, False, True, True, True, True]


def test_separable_toy_stops_short_with_larger_coefficients():
    # linearly separable: at ridge 1e-8 the objective is nearly flat far out, where Weka's relative tests stop
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    y = (X @ rng.normal(size=4) > 0).astype(int)
    exact = LogisticRegression(optimizer="exact").fit(X, y)
    weka = LogisticRegression(optimizer="weka_bfgs").fit(X, y)
    assert exact.converged_ and weka.converged_
    assert weka.objective_ > 3 * exact.objective_  # stopped well above the optimum ...
    assert np.abs(weka.theta_[1:]).max() > 1.5 * np.abs(exact.theta_[1:]).max()  # ... with larger coefficients
    assert np.all(weka.predict(X) == y) and np.all(exact.predict(X) == y)
    Z, _ = design_matrix(X, None)
    mean, scale = standardizer(Z, np.ones(len(y)))
    fun = wo.RidgeLogisticObjective(standardize(Z, mean, scale), one_hot(y, 2), np.ones(len(y)), 1e-8)
    assert fun.value(weka.theta_.T.ravel()) == pytest.approx(weka.objective_, rel=1e-12)


def test_optimizer_option_is_checked():
    with pytest.raises(ValueError, match="optimizer"):
        LogisticRegression(optimizer="bfgs").fit([[0.0], [1.0]], [0, 1])


# ---------------------------------------------------------------------------------------------- the compiled path
def _generated(seed, n, p, k, ridge, zero_weights):
    """A generated problem: standardized-looking design with intercept, k classes, weights (some 0)."""
    rng = np.random.default_rng(seed)
    Z1 = np.hstack([np.ones((n, 1)), rng.normal(size=(n, p))])
    Z1[:, 1:] += rng.normal(size=(n, 1)) * rng.uniform(0, 2, p)  # correlated columns
    y = rng.integers(0, k, n)
    Z1[:, 1 : min(k, p + 1)] += 1.5 * one_hot(y, k)[:, : min(k, p + 1) - 1]  # some signal, near-separable ones too
    w = rng.uniform(0.5, 2.0, n)
    if zero_weights:
        w[rng.random(n) < 0.25] = 0.0
    return Z1, one_hot(y, k), w, ridge


GENERATED = [
    (seed, n, p, k, ridge, zeros)
    for seed, (n, p, k) in enumerate([(40, 3, 2), (150, 8, 3), (300, 12, 5), (60, 20, 4), (200, 5, 9), (500, 2, 2)])
    for ridge in (1e-8, 1.0)
    for zeros in (False, True)
]


@pytest.mark.parametrize(("seed", "n", "p", "k", "ridge", "zeros"), GENERATED)
def test_compiled_fit_follows_the_python_path(seed, n, p, k, ridge, zeros):
    """weka_loops.fit_rounds (one compiled call) against this module's Python path on generated problems, binary and
    multiclass (9 classes: numpy's pairwise row sums), weights with zeros, ridge 1e-8 (near-separable, Weka stops
    early) and 1: the same number of iterations and the same finish, coefficients within 1e-10 of their scale (the
    paths round some sums differently: left to right against OpenBLAS's, libm's exp against numpy's)."""
    Z1, Y, w, ridge = _generated(seed, n, p, k, ridge, zeros)
    theta0 = np.zeros((p + 1, k - 1))
    ref, ref_its, ref_done = wo.fit_weka_logistic(Z1, Y, w, ridge, theta0, compiled=False)
    got, its, done = wo.fit_weka_logistic(Z1, Y, w, ridge, theta0)
    assert (its, done) == (ref_its, ref_done) and its > 2
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-10 * max(1.0, np.abs(ref).max()))


def test_compiled_fit_follows_the_python_path_through_restarts():
    """A cap of 3 iterations per findArgmin call (Weka's m_MAXITS is 200): the restarts with B = I again, in both
    paths, to the same iterate."""
    Z1, Y, w, ridge = _generated(3, 120, 6, 3, 1e-8, True)
    x0 = np.zeros(7 * 2)
    fun = wo.RidgeLogisticObjective(Z1, Y, w, ridge)
    x = x0.copy()
    prob = wobj.problem(Z1, Y, w, ridge, fun.slopes)
    for _ in range(4):
        ref, _, ref_its, ref_done = wo.find_argmin(fun, x0, max_its=3)
        its, done, status, _ = wl.find_argmin(prob, x, 3)
        assert status == wl.OK and (its, done) == (ref_its, ref_done) == (3, False)
        np.testing.assert_allclose(x, ref, rtol=0, atol=1e-12 * max(1.0, np.abs(ref).max()))
        x0 = ref


@pytest.mark.parametrize("k", [2, 4, 9])
def test_compiled_objective_and_gradient_are_the_references(k):
    """The compiled objective and gradient at random points equal RidgeLogisticObjective's to the last bits, and
    the objective is +inf where Weka's overflows."""
    Z1, Y, w, ridge = _generated(7, 90, 5, k, 0.3, True)
    fun = wo.RidgeLogisticObjective(Z1, Y, w, ridge)
    prob = wobj.problem(Z1, Y, w, ridge, fun.slopes)
    rng = np.random.default_rng(8)
    for _ in range(5):
        x = rng.normal(size=fun.slopes.size)
        assert wobj.objective_value(prob, x) == pytest.approx(fun.value(x), rel=1e-14)
        np.testing.assert_allclose(wobj.objective_gradient(prob, x), fun.gradient(x), rtol=1e-12, atol=1e-12)
    x = np.zeros(fun.slopes.size)
    x[:: Z1.shape[1]] = -800.0  # every class's intercept: each row's largest score below -709.78
    assert wobj.objective_value(prob, x) == math.inf == fun.value(x)


def _repeated_rows(seed, n, cards, k, soft):
    """A design of standardized indicator columns for a few discrete attributes (so few distinct rows, each with
    rows of several classes), weights with zeros; ``soft`` mixes some target rows (Y not one-hot)."""
    rng = np.random.default_rng(seed)
    codes = np.stack([rng.integers(0, c, n) for c in cards], axis=1)
    y = (codes.sum(axis=1) + rng.integers(0, 2, n)) % k
    Z = np.hstack([one_hot(codes[:, a], c) for a, c in enumerate(cards)])
    Z1 = np.hstack([np.ones((n, 1)), (Z - Z.mean(axis=0)) / Z.std(axis=0)])
    Y = one_hot(y, k)
    if soft:
        Y[::7] = 0.5 * Y[::7] + 0.5 / k
    w = rng.uniform(0.5, 2.0, n)
    w[rng.random(n) < 0.2] = 0.0
    return Z1, Y, w


@pytest.mark.parametrize(("k", "soft"), [(2, False), (4, True), (9, False), (12, True)])
def test_distinct_rows_give_the_row_by_row_bits(k, soft):
    """weka_loops computes each distinct design row's scores, exponentials and logs once and adds the rows' terms
    in their order: the objective, the gradient and the whole fit (iterates, iterations, finish) equal the row by
    row computation bit for bit, below and above numpy's 8-term pairwise block (k = 9, 12) and with soft targets."""
    Z1, Y, w = _repeated_rows(k, 400, (3, 4, 2), k, soft)
    fun = wo.RidgeLogisticObjective(Z1, Y, w, 1e-8)
    merged = wobj.problem(Z1, Y, w, 1e-8, fun.slopes)
    rows = wobj.problem(Z1, Y, w, 1e-8, fun.slopes, merge_rows=False)
    assert merged[0].shape[0] < 3 * 4 * 2 + 1 < rows[0].shape[0]  # the merge is real
    rng = np.random.default_rng(k)
    for _ in range(4):
        x = rng.normal(size=fun.slopes.size)
        assert wobj.objective_value(merged, x) == wobj.objective_value(rows, x)
        assert wobj.objective_gradient(merged, x).tobytes() == wobj.objective_gradient(rows, x).tobytes()
    x_merged, x_rows = np.zeros(fun.slopes.size), np.zeros(fun.slopes.size)
    got, ref = wl.fit_rounds(merged, x_merged, 100), wl.fit_rounds(rows, x_rows, 100)
    assert got == ref and got[0] > 2
    assert x_merged.tobytes() == x_rows.tobytes()
    # the caller's own row ids (HBayes' patterns): the distinct rows once, each row pointing at its own
    distinct, first, ids = np.unique(Z1, axis=0, return_index=True, return_inverse=True)
    start = np.zeros((Z1.shape[1], k - 1))
    by_ids = wo.fit_weka_logistic(distinct, Y, w, 1e-8, start, rows=ids.ravel())
    assert by_ids[0].tobytes() == fun.theta(x_rows).tobytes() and by_ids[1:] == (got[0], got[1])
    reference = wo.fit_weka_logistic(distinct, Y, w, 1e-8, start, compiled=False, rows=ids.ravel())
    np.testing.assert_allclose(by_ids[0], reference[0], rtol=0, atol=1e-8 * max(1.0, np.abs(reference[0]).max()))


def test_compiled_fit_raises_the_python_paths_errors():
    Z1, Y, w, ridge = _generated(2, 30, 2, 3, 1e-8, False)
    w[4] = np.nan
    for compiled in (False, True):
        with pytest.raises(ValueError, match="NaN"):
            wo.fit_weka_logistic(Z1, Y, w, ridge, np.zeros((3, 2)), compiled=compiled)
