"""Ridge logistic regression (Weka's Logistic objective): the Newton solver against an independent Newton solve,
its convergence on separable data, the max_iter warning, grouped rows."""

import numpy as np
import pytest
from scipy.optimize import minimize

from nbx.core.base import clone
from nbx.models.logistic import (
    ConvergenceWarning,
    LogisticRegression,
    _newton_step,
    default_start,
    fit_ridge_logistic,
    hessian,
    log_proba,
    objective,
    one_hot,
    ridge_logistic_newton,
)
from nbx.models.logistic_design import (
    IndicatorDesign,
    active_columns,
    codes_standardizer,
    design_matrix,
    indicator_standardizer,
    standardize,
    standardizer,
)


def _mixed_data(n=150, seed=0, k=3):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = rng.normal(size=n) * 2 + 1
    c = rng.integers(0, 2, n)
    score = np.column_stack([0.8 * b + (a == 1), -0.5 * b + c, np.zeros(n)])[:, :k]
    y = np.argmax(score + rng.gumbel(size=(n, k)), axis=1)
    X = np.column_stack([a, b, c]).astype(float)
    return X, y, np.array([3, 0, 2])


def _reference_design(X, n_values, w):
    """One indicator per nominal value, then Weka's weighted standardization, written independently."""
    cols = []
    for j, v in enumerate(n_values):
        if v:
            cols.extend((X[:, j] == code).astype(float) for code in range(v))
        else:
            cols.append(X[:, j].copy())
    Z = np.column_stack(cols)
    mean = np.average(Z, axis=0, weights=w)
    sd = np.sqrt(np.sum(w[:, None] * (Z - mean) ** 2, axis=0) / (w.sum() - 1))
    return np.column_stack([np.ones(len(Z)), (Z - mean) / sd]), mean, sd


def _newton(Z1, y, w, k, ridge, iters=100):
    """Newton's method on −Σ w log p + ridge·||slopes||² (K-1 coefficient vectors, last class reference)."""
    n, p = Z1.shape
    Y = np.eye(k)[y][:, :-1]
    pen = np.zeros((p, k - 1))
    pen[1:] = 1.0
    B = np.zeros((p, k - 1))
    for _ in range(iters):
        s = np.hstack([Z1 @ B, np.zeros((n, 1))])
        P = np.exp(s - s.max(1, keepdims=True))
        P = (P / P.sum(1, keepdims=True))[:, :-1]
        g = Z1.T @ (w[:, None] * (P - Y)) + 2 * ridge * pen * B
        # Hessian blocks: Σ_i w_i (δ_ab p_ia − p_ia p_ib) z_i z_iᵀ, laid out to match B.ravel() (p-major)
        cov = np.einsum("ia,ab->iab", P, np.eye(k - 1)) - np.einsum("ia,ib->iab", P, P)
        H = np.einsum("i,iab,ir,is->rasb", w, cov, Z1, Z1).reshape(p * (k - 1), p * (k - 1))
        H += np.diag(2 * ridge * pen.ravel())
        step = np.linalg.solve(H, g.ravel()).reshape(B.shape)
        B -= step
        if np.max(np.abs(step)) < 1e-12:
            break
    s = np.hstack([Z1 @ B, np.zeros((n, 1))])
    loglik = np.sum(w * (s[np.arange(n), y] - np.logaddexp.reduce(s, axis=1)))
    return B, loglik


def _loglik(model, X, y, w):
    lp = model.predict_log_proba(X)
    return np.sum(w * lp[np.arange(len(y)), np.searchsorted(model.classes_, y)])


@pytest.mark.parametrize("ridge,k", [(1.0, 3), (0.1, 2), (1e-8, 3)])
def test_reaches_newton_optimum(ridge, k):
    X, y, nv = _mixed_data(k=k)
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    if ridge < 1e-4:  # tiny ridge: keep the design full rank (numeric column only) so the optimum is unique
        X, nv = X[:, [1]], np.array([0])
    model = LogisticRegression(ridge=ridge, tol=1e-9).fit(X, y, sample_weight=w, n_values=nv)
    Z1, mean, sd = _reference_design(X, nv, w)
    B, loglik = _newton(Z1, y, w, k, ridge)
    np.testing.assert_allclose(model.theta_, B, atol=2e-5)
    coef = B[1:] / sd[:, None]
    np.testing.assert_allclose(model.coef_weka_, coef, atol=2e-5)
    np.testing.assert_allclose(model.intercept_weka_, B[0] - mean @ coef, atol=2e-5)
    np.testing.assert_allclose(_loglik(model, X, y, w), loglik, rtol=1e-8, atol=1e-7)
    # original-scale coefficients reproduce the scores
    scores = model._class_scores(X)[:, :-1]
    design = _reference_design(X, nv, w)[0][:, 1:] * sd + mean
    np.testing.assert_allclose(scores, design @ model.coef_weka_ + model.intercept_weka_, atol=1e-8)


def test_weights_equal_row_duplication():
    X, y, nv = _mixed_data(n=80, seed=3)
    counts = np.random.default_rng(4).integers(0, 4, len(y))
    weighted = LogisticRegression(ridge=0.5, tol=1e-10).fit(X, y, sample_weight=counts, n_values=nv)
    rep = np.repeat(np.arange(len(y)), counts)
    dup = LogisticRegression(ridge=0.5, tol=1e-10).fit(X[rep], y[rep], n_values=nv)
    np.testing.assert_allclose(weighted.theta_, dup.theta_, atol=1e-6)
    np.testing.assert_allclose(weighted.predict_proba(X), dup.predict_proba(X), atol=1e-7)


def test_probabilities_sum_to_one_and_predict_is_argmax():
    X, y, nv = _mixed_data(n=200, seed=5)
    model = LogisticRegression().fit(X, y, n_values=nv)
    P = model.predict_proba(X)
    assert P.shape == (len(y), 3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[P.argmax(axis=1)])
    assert model.score(X, y) > 0.5


def test_missing_values():
    X, y, nv = _mixed_data(n=120, seed=6)
    Xm = X.copy()
    Xm[::7, 0] = np.nan  # missing nominal -> all-zero indicators
    Xm[::5, 1] = np.nan  # missing numeric -> training mean
    Z, owner = design_matrix(Xm, nv)
    np.testing.assert_array_equal(Z[::7, :3], 0.0)
    np.testing.assert_array_equal(owner, [0, 0, 0, 1, 2, 2])
    model = LogisticRegression(ridge=0.1).fit(Xm, y, n_values=nv)
    assert np.all(np.isfinite(model.theta_))
    row = Xm[[5]].copy()
    filled = row.copy()
    filled[0, 1] = np.nanmean(Xm[:, 1])
    np.testing.assert_allclose(model.predict_proba(row), model.predict_proba(filled), atol=1e-12)


def test_warm_start_and_determinism():
    X, y, nv = _mixed_data(n=200, seed=7)
    cold = LogisticRegression(ridge=0.01, tol=1e-9).fit(X, y, n_values=nv)
    again = LogisticRegression(ridge=0.01, tol=1e-9).fit(X, y, n_values=nv)
    assert cold.theta_.tobytes() == again.theta_.tobytes()
    warm = clone(cold).set_params(warm_start=True)
    warm.theta_ = cold.theta_.copy()
    warm.fit(X, y, n_values=nv)
    assert warm.n_iter_ <= 2
    np.testing.assert_allclose(warm.theta_, cold.theta_, atol=1e-6)


def test_single_class_and_bad_input():
    X = np.array([[0.0, 1.5], [1.0, 2.5]])
    model = LogisticRegression().fit(X, ["a", "a"], n_values=[2, 0])
    np.testing.assert_array_equal(model.predict_proba(X), 1.0)
    np.testing.assert_array_equal(model.predict(X), ["a", "a"])
    with pytest.raises(ValueError, match="ridge"):
        LogisticRegression(ridge=-1).fit(X, [0, 1])
    with pytest.raises(ValueError, match="n_values"):
        LogisticRegression().fit(X, [0, 1], n_values=[2])
    with pytest.raises(ValueError, match="n_values"):
        LogisticRegression().fit(np.array([[3.0], [0.0]]), [0, 1], n_values=[2])
    with pytest.raises(ValueError, match="integer codes"):
        LogisticRegression().fit(np.array([[0.5], [0.0]]), [0, 1], n_values=[2])
    with pytest.raises(ValueError, match="X has 3 features"):
        model.predict(np.zeros((2, 3)))


def _separable(n=60, seed=12):
    """Two classes split by the sign of a numeric column: the ridge-1e-8 optimum lies far out."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    x[np.abs(x) < 0.2] += 0.5
    return np.column_stack([x, rng.integers(0, 3, n)]).astype(float), (x > 0).astype(int), np.array([0, 3])


def test_newton_reaches_the_ridge_optimum_on_a_separable_set():
    X, y, nv = _separable()
    model = LogisticRegression(ridge=1e-8).fit(X, y, n_values=nv)
    assert model.converged_
    Z1 = _reference_design(X, nv, np.ones(len(y)))[0]
    value, grad, _ = objective(model.theta_, Z1, np.eye(2)[y], np.ones(len(y)), 1e-8)
    assert np.max(np.abs(grad)) / len(y) <= model.tol
    # the optimum balances the vanishing likelihood gradient against the ridge: far out, and its objective
    # is well below where a quasi-Newton method stops on small relative progress
    assert np.abs(model.theta_[1]).max() > 20
    start = np.zeros(Z1.shape[1])
    lbfgs = minimize(
        lambda t: tuple(v / len(y) for v in _flat(objective(t[:, None], Z1, np.eye(2)[y], np.ones(len(y)), 1e-8))),
        start,
        jac=True,
        method="L-BFGS-B",
    )
    assert value < lbfgs.fun * len(y) / 5


def _flat(parts):
    value, grad, _ = parts
    return value, grad.ravel()


def test_stopping_on_max_iter_warns_and_is_recorded():
    X, y, nv = _separable()
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        model = LogisticRegression(ridge=1e-8, max_iter=3).fit(X, y, n_values=nv)
    assert not model.converged_ and model.n_iter_ == 3


def test_grouped_rows_give_the_ungrouped_optimum():
    """One row per distinct design row with its class fractions and total weight = the same objective."""
    X, y, nv = _mixed_data(n=300, seed=13)
    X[:, 1] = np.round(X[:, 1])  # few distinct rows
    w = np.random.default_rng(14).uniform(0.5, 2.0, len(y))
    Z1 = _reference_design(X, nv, w)[0]
    start = default_start(np.bincount(y, weights=w, minlength=3), Z1.shape[1] - 1)
    full = fit_ridge_logistic(Z1, one_hot(y, 3), w, 0.01, start)[0]
    rows, group = np.unique(Z1, axis=0, return_inverse=True)
    counts = np.zeros((len(rows), 3))
    np.add.at(counts, (group.ravel(), y), w)
    weight = counts.sum(axis=1)
    grouped = fit_ridge_logistic(rows, counts / weight[:, None], weight, 0.01, start)[0]
    np.testing.assert_allclose(grouped, full, atol=1e-7)


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_indicator_hessian_equals_the_dense_hessian(n_classes):
    """The Hessian from each row's active indicator columns (IndicatorDesign) is the dense Zᵀ·diag·Z Hessian,
    with missing values (all-zero blocks), constant columns and any class count."""
    rng = np.random.default_rng(n_classes)
    nv = np.array([3, 5, 2, 4])
    X = np.floor(rng.random((200, 4)) * nv)
    X[rng.random(X.shape) < 0.1] = np.nan
    X[:, 2] = 1.0  # a constant column: left unscaled
    Z, _ = design_matrix(X, nv)
    w = rng.uniform(0.2, 3.0, 200)
    mean, scale = standardizer(Z, w)
    Z1 = standardize(Z, mean, scale)
    codes = np.where(np.isnan(X), -1, X).astype(int)
    active = active_columns(codes, nv)
    scores = rng.standard_normal((200, n_classes))
    P = (np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True))[:, :-1]
    dense = hessian(Z1, w, P, 0.3)
    np.testing.assert_allclose(
        IndicatorDesign(active, mean, scale).hessian(w, P, 0.3), dense, rtol=0, atol=1e-12 * abs(dense).max()
    )


def test_newton_step_on_a_singular_hessian_is_the_least_squares_step():
    """Cholesky factors a copy of H; when H is singular (ridge 0, a rank-deficient design) the step is the
    minimum-norm s with H s = -g, which is orthogonal to H's null space, solved with the untouched H."""
    rng = np.random.default_rng(7)
    A = rng.standard_normal((6, 4))
    A[:, 3] = A[:, 0] + A[:, 1]  # rank 3
    H = A.T @ A
    g = H @ rng.standard_normal(4)  # in H's range: H s = -g has solutions
    given = np.asfortranarray(H)  # Fortran order, as IndicatorDesign.hessian returns
    s = _newton_step(given, g)
    assert np.array_equal(given, H)
    np.testing.assert_allclose(H @ s, -g, atol=1e-10)
    null = np.array([1.0, 1.0, 0.0, -1.0])  # A @ null = 0
    assert abs(s @ null) < 1e-10
    assert (
        IndicatorDesign(np.array([[1, 3]]), np.zeros(4), np.ones(4))
        .hessian(np.ones(1), np.full((1, 1), 0.5), 0.0)
        .flags.f_contiguous
    )


def _codes_with_missing(n, nv, seed, missing=0.1):
    rng = np.random.default_rng(seed)
    X = np.floor(rng.random((n, len(nv))) * nv)
    X[rng.random(X.shape) < missing] = np.nan
    return X, np.where(np.isnan(X), -1, X).astype(int)


def test_indicator_design_products_equal_the_dense_design():
    """IndicatorDesign's Z1 @ θ, Z1.T @ R and Hessian are the dense standardized design's, with missing values,
    a constant column and weights; its standardizer is the dense one to the bit."""
    nv = np.array([3, 5, 2, 4])
    X, codes = _codes_with_missing(300, nv, 21)
    X[:, 2] = 1.0  # constant column: left unscaled
    codes[:, 2] = 1
    rng = np.random.default_rng(22)
    w = rng.uniform(0.2, 3.0, 300)
    Z, _ = design_matrix(X, nv)
    mean, scale = standardizer(Z, w)
    active = active_columns(codes, nv)
    fast_mean, fast_scale = indicator_standardizer(active, w, Z.shape[1])
    assert np.array_equal(fast_mean, mean) and np.array_equal(fast_scale, scale)
    Z1, design = standardize(Z, mean, scale), IndicatorDesign(active, mean, scale)
    theta, R = rng.standard_normal((Z1.shape[1], 3)), rng.standard_normal((300, 3))
    np.testing.assert_allclose(design @ theta, Z1 @ theta, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(design.T @ R, Z1.T @ R, rtol=1e-13, atol=1e-12)
    P = rng.dirichlet(np.ones(4), 300)[:, :-1]
    dense = hessian(Z1, w, P, 1e-3)
    np.testing.assert_allclose(design.hessian(w, P, 1e-3), dense, rtol=0, atol=1e-12 * abs(dense).max())


def test_codes_standardizer_by_blocks_is_the_indicator_standardizer():
    """The standardizer made from codes a block of rows at a time adds the same weights in the same row order as one
    pass over all the active columns: the same bits, over several blocks, with missing codes and a constant column."""
    nv = np.array([3, 5, 2, 4])
    _, codes = _codes_with_missing(40_000, nv, 23)
    codes[:, 2] = 1
    w = np.random.default_rng(24).uniform(0.2, 3.0, 40_000)
    blocked = codes_standardizer(codes, nv, w)
    whole = indicator_standardizer(active_columns(codes, nv), w, int(nv.sum()))
    assert all(np.array_equal(a, b) for a, b in zip(blocked, whole))


@pytest.mark.parametrize("case", ["weighted", "separable", "missing"])
def test_indicator_fit_is_the_dense_newton_fit(case):
    """LogisticRegression on nominal codes (IndicatorDesign) follows the same Newton iterates as the dense
    standardized design: the same number of iterations and the same coefficients to rounding, also at ridge
    1e-8 on separable classes, where the optimum lies far out and another solver would stop elsewhere."""
    nv = np.array([4, 6, 3, 5, 2])
    X, codes = _codes_with_missing(400, nv, 31, missing=0.1 if case == "missing" else 0.0)
    rng = np.random.default_rng(32)
    if case == "separable":
        y = (np.nan_to_num(X[:, 0]) >= 2).astype(int) + (np.nan_to_num(X[:, 2]) == 1)
        ridge, w = 1e-8, np.ones(400)
    else:
        y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) + rng.integers(0, 3, 400)) % 3
        ridge, w = 1e-2, rng.uniform(0.2, 3.0, 400)
    model = LogisticRegression(ridge=ridge, n_values=nv).fit(X, y, sample_weight=w)
    Z, _ = design_matrix(X, nv)
    mean, scale = standardizer(Z, w)
    y_idx = np.searchsorted(model.classes_, y)
    k = len(model.classes_)
    start = default_start(np.bincount(y_idx, weights=w, minlength=k), Z.shape[1])
    theta, n_iter, converged = fit_ridge_logistic(standardize(Z, mean, scale), one_hot(y_idx, k), w, ridge, start)
    assert converged and model.converged_ and model.n_iter_ == n_iter
    if case == "separable":
        assert np.abs(theta).max() > 5  # far out: the ridge 1e-8 optimum of separable classes
    # rounding moves θ along the near-null directions of the collinear indicator blocks (only the ridge acts
    # there), by ~1e-8 of its size at ridge 1e-8, and the log-probabilities by as little relatively
    np.testing.assert_allclose(model.theta_, theta, rtol=1e-7, atol=1e-8 * np.abs(theta).max())
    Z1 = standardize(Z, mean, scale)
    np.testing.assert_allclose(model.predict_log_proba(X), log_proba(Z1, theta), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("n_classes", [2, 3, 4, 9])
def test_indicator_hessian_sums_in_the_order_of_the_sparse_product(n_classes):
    """IndicatorDesign's Hessian is, to the bit, the former construction: a sparse (column pair x row) matrix
    times the rows' class-pair weights, then M·T and Tᵀ·M·T elementwise. HBayes' S1 search turns on ties of
    training accuracy, so its Hessian must not move a last bit (one and three class pairs, written out, and the
    general loop)."""
    import scipy.sparse as sparse

    nv = np.array([3, 5, 2, 4])
    X, codes = _codes_with_missing(250, nv, 41)
    rng = np.random.default_rng(42)
    w = rng.uniform(0.2, 3.0, 250)
    mean, scale = standardizer(design_matrix(X, nv)[0], w)
    active = active_columns(codes, nv)
    P = rng.dirichlet(np.ones(n_classes), 250)[:, :-1]
    rows, r = active.shape
    p1, m = len(mean) + 1, n_classes - 1
    cols = np.hstack([np.zeros((rows, 1), np.int64), np.where(active >= 0, active, p1)])
    a, b = np.triu_indices(r + 1)
    key = (np.minimum(cols[:, a], cols[:, b]) * (p1 + 1) + np.maximum(cols[:, a], cols[:, b])).ravel()
    pairs = sparse.csr_matrix(
        (np.ones(key.size), (key, np.repeat(np.arange(rows), a.size))), shape=((p1 + 1) ** 2, rows)
    )
    k, c = np.triu_indices(m)
    wP = w[:, None] * P
    v = np.where(k == c, wP[:, k] * (1.0 - P[:, k]), -wP[:, k] * P[:, c])
    upper = np.ascontiguousarray((pairs @ v).T).reshape(k.size, p1 + 1, p1 + 1)[:, :p1, :p1]
    M = upper + upper.transpose(0, 2, 1)
    diag = np.arange(p1)
    M[:, diag, diag] = upper[:, diag, diag]
    d, t = np.concatenate([[1.0], 1.0 / scale]), np.concatenate([[0.0], -mean / scale])
    MT = M * d + M[:, :, :1] * t
    blocks = MT * d[:, None] + MT[:, :1, :] * t[:, None]
    Ht = np.zeros((p1, m, p1, m))
    Ht[:, c, :, k] = blocks.transpose(0, 2, 1)
    Ht[:, k, :, c] = blocks.transpose(0, 2, 1)
    Ht = Ht.reshape(p1 * m, p1 * m)
    Ht[np.arange(m, p1 * m), np.arange(m, p1 * m)] += 2.0 * 0.3
    assert np.array_equal(IndicatorDesign(active, mean, scale).hessian(w, P, 0.3), Ht.T)


@pytest.mark.parametrize("ridge", [1e-8, 0.1])
def test_newton_returns_the_log_probabilities_of_its_theta(ridge):
    """ridge_logistic_newton's log-probabilities are log_proba at the θ it returns, to the bit (HBayes scores its
    candidates with them), also on separable classes at ridge 1e-8; and from a start where line searches reject
    trial steps, the iterates are those of a loop that evaluates the full objective (gradient included) at every
    trial."""
    X, y, n_values = _mixed_data(n=200, seed=3, k=3)
    if ridge < 1e-4:
        y = X[:, 0].astype(int)  # separable: the optimum lies far out
    Z, _ = design_matrix(X, n_values)
    w = np.ones(200)
    Z1 = standardize(Z, *standardizer(Z, w))
    Y = one_hot(y, 3)
    start = np.random.default_rng(1).normal(0.0, 4.0, (Z1.shape[1], 2))  # far off: full steps overshoot
    theta, n_iter, converged, lp = ridge_logistic_newton(Z1, Y, w, ridge, start, 1e-10, 100)
    assert converged and np.array_equal(lp, log_proba(Z1, theta))
    rejected = 0
    # the straightforward loop: objective() (value, gradient, P) at every trial step
    ref = start.copy()
    value, grad, P = objective(ref, Z1, Y, w, ridge)
    for _ in range(n_iter):
        step = _newton_step(hessian(Z1, w, P, ridge), grad)
        slope, t = float(np.sum(grad * step)), 1.0
        while True:
            new = objective(ref + t * step, Z1, Y, w, ridge)
            if new[0] <= value + 1e-4 * t * slope or -slope <= 1e-12 * abs(value):
                break
            t *= 0.5
            rejected += 1
        ref, (value, grad, P) = ref + t * step, new
    assert rejected > 0 and np.array_equal(theta, ref)
