"""GeneralNB (Wang et al. 2006 §3-4): kernel densities, LOO bandwidth choice, LOO posteriors, weights."""

import math

import numpy as np
import pytest

from nbx.models import kernel_loops, kernel_nb, kernel_search
from nbx.models.kernel_nb import GeneralNB
from nbx.models.kernel_search import loo_cross_entropy


def _data(seed=0, n=40):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    x0 = np.round(rng.normal(y * 1.5, 1.0), 1)  # rounded: ties exercise the distinct-value compression
    x1 = rng.integers(0, 3, n).astype(float)
    return np.column_stack([x0, x1]), y


def test_kernel_density_integrates_to_one():
    X, y = _data(1, 60)
    m = GeneralNB().fit(X, y, n_values=[0, 3])
    grid = np.linspace(X[:, 0].min() - 5, X[:, 0].max() + 5, 40001)
    Xg = np.column_stack([grid, np.zeros_like(grid)])
    dens = np.exp(m.numeric_log_density(Xg)[:, 0, :])  # (grid, K)
    integral = np.trapezoid(dens, grid, axis=0) if hasattr(np, "trapezoid") else np.trapz(dens, grid, axis=0)
    np.testing.assert_allclose(integral, 1.0, atol=1e-6)


def _brute_ce(x, c, scale):
    m = len(x)
    h = c * scale / np.sqrt(m)
    total = 0.0
    for k in range(m):
        s = sum(np.exp(-0.5 * ((x[j] - x[k]) / h) ** 2) / np.sqrt(2 * np.pi) for j in range(m) if j != k)
        total += np.log(s / ((m - 1) * h))
    return -total / m


@pytest.mark.parametrize("scale", ["std", "none", "range"])
def test_loo_bandwidth_equals_brute_force(scale):
    X, y = _data(2, 30)
    m = GeneralNB(scale=scale).fit(X, y, n_values=[0, 3])
    grid = m.grid_()
    assert len(grid) == 61 and grid[0] == 0.2 and grid[-1] == 0.8
    for c in (0, 1):
        x = X[y == c, 0]
        s = {"std": x.std(), "none": 1.0, "range": x.max() - x.min()}[scale]
        ce = np.array([_brute_ce(x, g, s) for g in grid])
        evaluated = ~np.isnan(m.loo_ce_[c])  # the pruned search skips values that cannot be the minimum
        np.testing.assert_allclose(m.loo_ce_[c, evaluated], ce[evaluated], rtol=1e-9)
        assert np.all(ce[~evaluated] > ce.min())
        assert m.bandwidth_c_[0, c] == grid[np.argmin(ce)]
        np.testing.assert_allclose(m.bandwidth_[0, c], grid[np.argmin(ce)] * s / np.sqrt(len(x)))


def _brute_log_joint(m, X, y, i=None):
    """log P(c) + kernel log density + Laplace nominal terms, optionally leaving row i out (fixed h)."""
    keep = np.ones(len(y), bool)
    if i is not None:
        keep[i] = False
    Xk, yk = X[keep], y[keep]
    x = X[i if i is not None else 0]
    out = []
    for c in (0, 1):
        xc = Xk[yk == c]
        h = m.bandwidth_[0, c]
        dens = np.mean(np.exp(-0.5 * ((x[0] - xc[:, 0]) / h) ** 2) / (np.sqrt(2 * np.pi) * h))
        nom = (np.sum(xc[:, 1] == x[1]) + 1) / (len(xc) + 3)
        prior = (len(xc) + 1) / (len(yk) + 2)
        out.append(np.log(prior) + np.log(dens) + np.log(nom))
    return np.array(out)


def test_loo_log_joint_equals_refit_with_fixed_bandwidth():
    X, y = _data(3, 25)
    m = GeneralNB().fit(X, y, n_values=[0, 3])
    loo = m.log_joint(X, y, np.ones(len(y)))
    for i in range(len(y)):
        np.testing.assert_allclose(loo[i], _brute_log_joint(m, X, y, i), rtol=1e-10)
    full = m.log_joint(X[:1])
    np.testing.assert_allclose(full[0], _brute_log_joint(m, X, y), rtol=1e-10)
    expected = sum(np.argmax(_brute_log_joint(m, X, y, i)) == y[i] for i in range(len(y)))
    assert m.loo_correct(X, y, np.ones(len(y))) == expected


@pytest.mark.parametrize("density", ["kernel", "gaussian"])
def test_weights_equal_duplication(density):
    X, y = _data(4, 30)
    w = np.random.default_rng(0).integers(1, 4, len(y)).astype(float)
    a = GeneralNB(density=density).fit(X, y, sample_weight=w, n_values=[0, 3])
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    b = GeneralNB(density=density).fit(X[rep], y[rep], n_values=[0, 3])
    Xt, _ = _data(5, 20)
    np.testing.assert_allclose(a.predict_proba(Xt), b.predict_proba(Xt), rtol=1e-10, atol=1e-14)
    np.testing.assert_array_equal(a.bandwidth_c_, b.bandwidth_c_)
    np.testing.assert_allclose(a.log_joint(X, y, np.ones(len(y))), b.log_joint(X, y, np.ones(len(y))), rtol=1e-10)


def test_gaussian_density_is_one_normal_per_class():
    X, y = _data(6, 30)
    m = GeneralNB(density="gaussian").fit(X, y, n_values=[0, 3])
    xq = np.array([[0.3, 0.0]])
    got = m.numeric_log_density(xq)[0, 0]
    for c in (0, 1):
        v = X[y == c, 0]
        mu, sd = v.mean(), v.std()
        assert got[c] == pytest.approx(-0.5 * ((0.3 - mu) / sd) ** 2 - np.log(sd * np.sqrt(2 * np.pi)))


@pytest.mark.parametrize("n_classes", [1, 3])
def test_gaussian_log_joint_by_row_blocks_is_the_whole_arrays_sum(n_classes):
    """The Gaussian reading's log joint sums its densities over blocks of rows (1,092 rows of 20 attributes x 3
    classes); the sums are those of the whole (rows, attributes, classes) array to the bit, the last block of one
    row and missing values included."""
    rng = np.random.default_rng(4)
    n = 2 * (65_536 // (20 * n_classes)) + 1
    X = rng.normal(size=(n, 20))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, n_classes, n)
    model = GeneralNB(density="gaussian").fit(X, y)
    whole = model.numeric_log_density(X).sum(axis=1)
    assert np.array_equal(model._numeric_log_sum(X, None, None), whole)


@pytest.mark.parametrize("n_classes", [1, 3])
def test_kernel_log_joint_by_attribute_groups_is_the_whole_arrays_sum(n_classes, monkeypatch):
    """A prediction sums the kernel densities a few attributes at a time (SUM_ENTRIES, here small enough for
    groups of two attributes; with one class numpy adds the attributes pairwise: one group); the sums are those of
    the whole (rows, attributes, classes) array to the bit, missing values and binned segments (more than
    EXACT_MAX centers) included."""
    monkeypatch.setattr(kernel_nb, "SUM_ENTRIES", 2 * 1000 * n_classes)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(1000, 7))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, n_classes, 1000)
    model = GeneralNB().fit(X, y)
    assert model._big and len(model.attribute_groups(1000, kernel_nb.SUM_ENTRIES)) == (1 if n_classes == 1 else 4)
    whole = model.numeric_log_density(X).sum(axis=1)
    assert np.array_equal(model._numeric_log_sum(X, None, None), whole)


@pytest.mark.parametrize("n_classes", [1, 2, 5])
def test_gaussian_compiled_route_equals_array_route_bitwise(n_classes, monkeypatch):
    """From GAUSSIAN_COMPILED_FROM cells (or once numba is loaded) the Gaussian reading's moments and densities run
    compiled (gaussian_loops); means, stds, weights and every log joint are the array route's to the bit, with
    missing values, weights (0, fractions, > 1), a constant attribute, a class constant on an attribute, a class
    with no value of one and a nominal attribute."""
    rng = np.random.default_rng(11)
    n = 3000
    X = rng.normal(size=(n, 7)) * rng.uniform(0.01, 1000.0, 7)
    X[rng.random(X.shape) < 0.05] = np.nan
    X[:, 2] = 3.0
    X[:, 3] = np.round(X[:, 3] / X[:, 3].std() * 2)
    X[:, 6] = rng.integers(0, 4, n)
    y = rng.integers(0, n_classes, n)
    X[y == 1, 4] = np.nan
    X[y == 0, 5] = -7.5
    w = rng.choice([0.0, 0.25, 1.0, 2.0, 3.7], n)
    fitted = []
    for compiled in (False, True):
        monkeypatch.setattr(kernel_nb, "compiled_pays", lambda cells, threshold, compiled=compiled: compiled)
        m = GeneralNB(density="gaussian").fit(X, y, sample_weight=w, n_values=[0] * 6 + [4])
        fitted.append([m.bandwidth_, m._centers, m._center_logw, m._seg_m, m.log_joint(X), m.predict_proba(X)])
    for array_route, compiled_route in zip(*fitted):
        assert np.array_equal(array_route, compiled_route, equal_nan=True)


def test_missing_absent_class_and_probabilities():
    X, y = _data(7, 40)
    X[::5, 0] = np.nan
    X[1::7, 1] = np.nan
    m = GeneralNB().fit(X, y, n_values=[0, 3])
    p = m.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    # a row with every value missing gets the (Laplace) class prior
    q = m.predict_proba(np.array([[np.nan, np.nan]]))[0]
    np.testing.assert_allclose(q, (np.bincount(y) + 1) / (len(y) + 2))
    # a class without training rows (fit through the tree interface) gets probability 0
    g = GeneralNB()._fit_indexed(X, y, np.ones(len(y)), np.array([0, 3]), 3)
    assert np.all(g.predict_proba(X)[:, 2] == 0)


def test_constant_attribute_ignored_and_determinism():
    X, y = _data(8, 30)
    X[:, 0] = 2.0
    m = GeneralNB().fit(X, y, n_values=[0, 3])
    assert np.all(m.numeric_log_density(X) == 0)
    X2, y2 = _data(9, 30)
    a = GeneralNB().fit(X2, y2, n_values=[0, 3]).predict_proba(X2)
    b = GeneralNB().fit(X2, y2, n_values=[0, 3]).predict_proba(X2)
    assert a.tobytes() == b.tobytes()


def test_bad_parameters():
    X, y = _data()
    with pytest.raises(ValueError, match="density"):
        GeneralNB(density="epan").fit(X, y)
    with pytest.raises(ValueError, match="scale"):
        GeneralNB(scale="mad").fit(X, y)
    with pytest.raises(ValueError, match="c_min"):
        GeneralNB(c_min=0.9, c_max=0.5).fit(X, y)


@pytest.mark.parametrize("density", ["kernel", "gaussian"])
def test_class_constant_attribute_uses_pooled_spread(density):
    """An attribute equal to one (non-round) value in a whole class must not get a near-zero bandwidth from
    the rounding error of its mean: it falls back to the attribute's pooled spread."""
    rng = np.random.default_rng(0)
    x0 = rng.normal(20.53, 5.0, 300)
    x1 = np.full(300, 20.53)
    X = np.concatenate([x0, x1])[:, None]
    y = np.repeat([0, 1], 300)
    model = GeneralNB(density=density).fit(X, y)
    pooled = X[:, 0].std()
    if density == "gaussian":
        assert model.bandwidth_[0, 1] == pytest.approx(pooled)
    else:
        assert model.bandwidth_[0, 1] >= 0.2 * pooled / np.sqrt(300) - 1e-12
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_fit_info_reports_bandwidths_at_grid_bounds():
    """Small repeated integers drive leave-one-out to the narrowest kernel; smooth data does not."""
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 200)
    ties = np.column_stack([rng.integers(0, 4, 400), rng.integers(0, 4, 400)]).astype(float)
    smooth = rng.normal(size=(400, 2)) + y[:, None]
    info_ties = GeneralNB().fit(ties, y).fit_info()
    info_smooth = GeneralNB().fit(smooth, y).fit_info()
    assert info_ties["kernel_c_at_min"] == 1.0
    assert info_smooth["kernel_c_at_min"] < 1.0
    assert GeneralNB(density="gaussian").fit(smooth, y).fit_info() == {"kernel_c_at_min": None, "kernel_c_at_max": None}


def test_density_of_repeated_values_equals_row_by_row():
    """Densities are computed once per distinct query and gathered: each row's value must equal its own
    evaluation (also under leave-one-out, where the query includes the row's class)."""
    X, y = _data(3, 80)
    X[5, 0] = np.nan
    m = GeneralNB().fit(X, y, n_values=[0, 3])
    r = np.ones(len(y))
    together = m.numeric_log_density(X, y, r)
    alone = np.concatenate([m.numeric_log_density(X[i : i + 1], y[i : i + 1], r[i : i + 1]) for i in range(len(y))])
    assert together.tobytes() == alone.tobytes()
    assert (
        m.numeric_log_density(X).tobytes()
        == np.concatenate([m.numeric_log_density(X[i : i + 1]) for i in range(len(y))]).tobytes()
    )


def test_range_unit_bandwidth_by_hand():
    """Default unit (Wang §4, h = c_X/√m in range units): h = c_X · (max - min of the class) / √m; a class
    with one distinct value takes the attribute's range over all classes."""
    x = np.array([0.0, 1.0, 3.0, 10.0, 2.0, 2.0, 4.0, 7.0, 7.0, 5.0, 5.0, 5.0])
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2])
    m = GeneralNB().fit(x[:, None], y, n_values=[0])
    c, h = m.bandwidth_c_[0], m.bandwidth_[0]
    assert np.all((c >= 0.2) & (c <= 0.8))
    np.testing.assert_allclose(h, c * np.array([10.0 / 2.0, 5.0 / np.sqrt(5.0), 10.0 / np.sqrt(3.0)]), rtol=1e-12)
    s = GeneralNB(scale="std").fit(x[:, None], y, n_values=[0])
    np.testing.assert_allclose(s.bandwidth_[0, 0], s.bandwidth_c_[0, 0] * np.std(x[:4]) / 2.0, rtol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_pruned_bandwidth_search_equals_full_grid(seed, monkeypatch):
    """The pruned search (convexity bound) evaluates a subset of the grid, bit for bit as the full grid does,
    and always contains the full grid's first minimum: on segments of many sizes, ties and weights."""
    monkeypatch.setattr(kernel_search, "PRUNE_MIN", 2)  # prune (nearly) every segment, not only the large ones
    rng = np.random.default_rng(seed)
    n_seg = 12
    sizes = rng.integers(1, 90, n_seg)
    centers, logw, seg = [], [], []
    for s, U in enumerate(sizes):
        v = np.unique(np.round(rng.standard_t(3, U) * rng.uniform(0.1, 5), 1))  # heavy tails, ties
        centers.append(v)
        logw.append(np.log(rng.choice([1.0, 1.0, 2.0, 0.5, 3.5], len(v))))
        seg.append(np.full(len(v), s))
    centers, logw, seg = map(np.concatenate, (centers, logw, seg))
    obs_center = np.arange(len(centers))
    obs_w = np.exp(logw)
    obs_r = np.minimum(obs_w, 1.0)
    seg_m = np.bincount(seg, obs_w, minlength=n_seg)
    spread = np.array([np.ptp(centers[seg == s]) or 1.0 for s in range(n_seg)])
    base = spread / np.sqrt(seg_m)
    grid = np.round(0.2 + 0.01 * np.arange(61), 10)
    args = (centers, logw, seg, obs_center, obs_w, obs_r, seg_m, base, grid)
    full = loo_cross_entropy(*args, prune=False)
    pruned = loo_cross_entropy(*args)
    evaluated = ~np.isnan(pruned)
    assert np.array_equal(pruned[evaluated], full[evaluated])
    assert evaluated.sum() < full.size
    first_min = lambda ce: np.argmin(np.where(np.isfinite(ce), ce, np.inf), axis=1)  # noqa: E731
    assert np.array_equal(first_min(pruned), first_min(full))


libm_exp = np.vectorize(math.exp, otypes=[float])
libm_log = np.vectorize(lambda v: math.log(v) if v > 0 else -math.inf, otypes=[float])  # numpy's log(0) = -inf


def libm_logaddexp(x, y):
    """numpy's logaddexp (npy_logaddexp) on the C library's exp and log1p."""

    def one(a, b):
        if a == b:
            return a + kernel_loops.LOG_2
        d = a - b
        return a + math.log1p(math.exp(-d)) if d > 0 else b + math.log1p(math.exp(d))

    return np.vectorize(one, otypes=[float])(x, y)


def numpy_loo_cross_entropy(centers, logw, seg, obs_center, obs_w, obs_r, seg_m, base, grid):
    """Wang §4's CV_CE of every segment at every grid value as the array code computed it before the compiled
    loops (one (centers, centers) block per segment and grid value, numpy's row sums, logaddexp and bincount),
    with the C library's exp and log, which the compiled loops call (numpy's are the same under the stages'
    kernel pin, ``nbx.pipeline.kernels``; its AVX-512 loops differ in the last bits)."""
    n_seg, G = len(seg_m), len(grid)
    ce = np.full((n_seg, G), np.nan)
    L = np.zeros((len(centers), G))
    for s in np.flatnonzero(np.bincount(seg, minlength=n_seg)):
        idx = np.flatnonzero(seg == s)
        x, lw = centers[idx], np.broadcast_to(logw[idx], (len(idx), len(idx))).copy()
        np.fill_diagonal(lw, -np.inf)
        for gi in range(G):
            a = 1.0 / (2.0 * (grid[gi] * base[s]) ** 2)
            T = lw - a * (x[:, None] - x[None, :]) ** 2
            M = T.max(axis=1)
            E = libm_exp(np.maximum(T - np.where(np.isfinite(M), M, 0.0)[:, None], kernel_loops.UNDERFLOW))
            with np.errstate(divide="ignore"):
                L[idx, gi] = np.where(np.isfinite(M), libm_log(E.sum(axis=1)) + M, -np.inf)
    s = seg[obs_center]
    with np.errstate(divide="ignore", invalid="ignore"):
        own = libm_log(np.maximum(libm_exp(logw[obs_center]) - obs_r, 0.0))
        num = libm_logaddexp(L[obs_center], own[:, None])
        rest = seg_m[s] - obs_r
        log_h = libm_log(grid[None, :] * base[s][:, None])
        log_rest = libm_log(np.where(rest > 0, rest, 1.0))[:, None]
        term = np.where(rest[:, None] > 0, num - log_rest - log_h - kernel_search.HALF_LOG_2PI, -np.inf)
    flat = (s[:, None] * G + np.arange(G)).ravel()
    total = np.bincount(flat, weights=(-(obs_w[:, None] * term)).ravel(), minlength=n_seg * G).reshape(n_seg, G)
    has = np.bincount(seg, minlength=n_seg) > 0
    ce[has] = total[has] / seg_m[has, None]
    return ce


@pytest.mark.parametrize("seed", range(3))
def test_compiled_cross_entropies_equal_numpy_bitwise(seed):
    """The compiled leave-one-out search does numpy's floating-point operations in numpy's order: every
    evaluated cross-entropy equals the array code's bit for bit (segments of 1 to 300 centers: row sums of
    fewer than 8, up to 128 and more terms; ties, weights, a removed weight that empties a center or a class)."""
    rng = np.random.default_rng(seed)
    sizes = [1, 2, 5, 8, 9, 16, 40, 129, 300]
    centers, logw, seg = [], [], []
    for s, U in enumerate(sizes):
        centers.append(np.sort(rng.choice(np.round(rng.standard_t(3, 4 * U) * 3, 2), U, replace=False)))
        logw.append(np.log(rng.choice([1.0, 1.0, 2.0, 0.5], U)))
        seg.append(np.full(U, s))
    centers, logw, seg = map(np.concatenate, (centers, logw, seg))
    obs_center = np.repeat(np.arange(len(centers)), 2)  # each center twice: removed weight r = 1 and r = w
    obs_w = np.exp(logw[obs_center]) / 2
    obs_r = np.where(np.arange(len(obs_center)) % 2 == 0, 1.0, np.exp(logw[obs_center]))
    seg_m = np.bincount(seg, np.exp(logw))
    base = np.array([np.ptp(centers[seg == s]) or 1.0 for s in range(len(sizes))]) / np.sqrt(seg_m)
    grid = np.round(0.2 + 0.01 * np.arange(61), 10)
    args = (centers, logw, seg, obs_center, obs_w, obs_r, seg_m, base, grid)
    expected = numpy_loo_cross_entropy(*args)
    for prune in (False, True):
        got = loo_cross_entropy(*args, prune=prune)
        evaluated = ~np.isnan(got)
        assert evaluated[1:].any(axis=1).all()
        assert got[evaluated].tobytes() == expected[evaluated].tobytes()


def numpy_log_density(m, x, s, own=-1, r=0.0):
    """log p̂(x | segment s) of eq. (13) as the array code computed it before the compiled loops: the log-kernel
    row, its maximum, exp, numpy's add.reduceat (plain) or first term plus numpy's sum of the others (leave-one-
    out: center ``own`` keeps max(W - r, 0)), log, with the C library's exp and log (see
    :func:`numpy_loo_cross_entropy`); None for a segment without centers."""
    idx = np.arange(m._seg_lo[s], m._seg_hi[s])
    if not len(idx):
        return None
    T = (m._center_logw[idx] - m._seg_logh[s] - kernel_search.HALF_LOG_2PI) - 0.5 * (
        (x - m._centers[idx]) / m._seg_h[s]
    ) ** 2
    if own >= 0:
        keep = libm_log(np.maximum(libm_exp(m._center_logw[own : own + 1]) - r, 0.0))
        T[idx == own] = keep - m._seg_logh[s] - kernel_search.HALF_LOG_2PI
    M = T.max()
    M = M if np.isfinite(M) else 0.0
    E = libm_exp(T - M)
    total = E[0] + E[1:].sum() if own >= 0 else np.add.reduceat(E[None, :], [0], axis=1)[0, 0]
    return (libm_log(np.array([total]))[0] + M) - libm_log(m._seg_m[s : s + 1])[0]


def test_compiled_densities_equal_numpy_bitwise():
    """The compiled densities (plain and leave-one-out) do the array code's floating-point operations in its
    order, bit for bit: ties, a class with a single value, weights (a left-out center of weight <= 1 keeps
    nothing), queries far outside the data (terms that underflow exp) and a missing value."""
    X, y = _data(5, 90)
    X[y == 1, 1] = 2.0  # class 1: one distinct value of attribute 1
    X[7, 0] = np.nan
    w = np.random.default_rng(5).choice([1.0, 0.5, 2.0], len(y))
    m = GeneralNB().fit(X, y, sample_weight=w)
    K = 2
    far = np.nanmax(X[:, 0]) + m.bandwidth_[0, 0] * np.array([3.0, 30.0, 37.5, 38.6, 39.0, 45.0, 200.0])
    Q = np.column_stack([np.r_[X[:, 0], far], np.r_[X[:, 1], np.full(len(far), 1.0)]])
    plain = m.numeric_log_density(Q)
    for i, a, k in np.ndindex(len(Q), 2, K):
        ref = numpy_log_density(m, Q[i, a], a * K + k) if not np.isnan(Q[i, a]) else None
        assert plain[i, a, k] == (0.0 if ref is None else ref)
    r = np.minimum(w, 1.0)
    loo = m.numeric_log_density(X, y, r)
    for i, a in np.ndindex(len(X), 2):
        s = a * K + y[i]
        own = m._seg_lo[s] + np.flatnonzero(m._centers[m._seg_lo[s] : m._seg_hi[s]] == X[i, a])
        ref = numpy_log_density(m, X[i, a], s, own[0], r[i]) if not np.isnan(X[i, a]) else None
        expected = plain[i, a, y[i]] if ref is None else ref + m._loo_normalizer(np.array([s]), r[i : i + 1])[0]
        assert loo[i, a, y[i]] == expected


@pytest.mark.parametrize("n_classes", [1, 2, 3])
@pytest.mark.parametrize("density", ["kernel", "gaussian"])
def test_densities_by_attribute_groups_are_the_whole_arrays(n_classes, density):
    """The S-NBTree's scan computes the densities a group of attributes at a time and adds their leave-one-out
    sums over attributes group by group (attribute_groups, add_attributes): every column, and the sum, equal the
    whole (rows, attributes, classes) arrays' and numpy's ``sum(axis=1)`` to the bit -- 11 attributes (numpy sums
    8 or more pairwise when K == 1), missing values, weights of 0.5 to 2 (removed weight min(w, 1)), segments
    summed exactly and binned (more than EXACT_MAX distinct values), a constant attribute and a nominal one."""
    rng = np.random.default_rng(11)
    n = 300 * n_classes + 700
    X = rng.normal(size=(n, 12))
    X[:, 3] = np.round(X[:, 3], 1)  # few distinct values: exact sums
    X[:, 5] = 2.0  # constant: ignored
    X[:, 7] = rng.integers(0, 3, n)  # nominal
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, n_classes, n)
    w = rng.integers(1, 5, n) * 0.5
    nv = np.zeros(12, int)
    nv[7] = 3
    m = GeneralNB(density=density).fit(X, y, sample_weight=w, n_values=nv)
    assert density == "gaussian" or m._big  # the binned path is exercised
    r = np.minimum(w, 1.0)
    plain, loo = m.numeric_log_density(X), m.numeric_log_density(X, y, r)
    for entries in (1, 2 * n * n_classes, 10**9):
        groups = m.attribute_groups(n, entries)
        assert [a for g in groups for a in range(11)[g]] == list(range(11))
        total = np.zeros((n, n_classes))
        for cols in groups:
            part = m.numeric_log_density(X, cols=cols)
            assert part.tobytes() == plain[:, cols].tobytes()
            part_loo = m.numeric_log_density(X, y, r, part, cols)
            assert part_loo.tobytes() == loo[:, cols].tobytes()
            m.add_attributes(total, part_loo)
        assert total.tobytes() == loo.sum(axis=1).tobytes()
        assert m.loo_correct(X, y, w, total) == m.loo_correct(X, y, w)
    if n_classes == 1:  # one group: numpy's pairwise sum of a contiguous run differs from adding in order
        assert len(m.attribute_groups(n, 1)) == 1


@pytest.mark.parametrize("weights", ["unit", "half", "large", "mixed"])
def test_loo_pairs_equal_the_unique_route(weights):
    """The leave-one-out observations (center, summed weight, removed weight): with one removed weight for all
    (unit, all 0.5, all >= 1) they are the centers themselves, the arrays np.unique's route gives."""
    rng = np.random.default_rng(2)
    center_of_obs = np.cumsum(np.r_[True, rng.random(499) < 0.4]) - 1  # sorted, every center 0..C-1 taken
    ow = {
        "unit": np.ones(500),
        "half": np.full(500, 0.5),
        "large": rng.uniform(1.0, 5.0, 500),
        "mixed": rng.choice([0.25, 1.0, 3.0], 500),
    }[weights]
    center_w = np.bincount(center_of_obs, ow)
    r_values, r_rank = np.unique(np.minimum(ow, 1.0), return_inverse=True)
    pair, pair_of_obs = np.unique(center_of_obs * len(r_values) + r_rank, return_inverse=True)
    expected = pair // len(r_values), np.bincount(pair_of_obs, ow), r_values[pair % len(r_values)]
    got = kernel_search.loo_pairs(center_of_obs, ow, center_w)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.tobytes() == e.tobytes()


def test_loo_correct_by_row_blocks_equals_the_whole_log_joint(monkeypatch):
    """The leave-one-out correct weight from blocks of rows (directly or through a subset of rows) equals the
    one from the whole (rows, classes) log joint: every row's joint is its own."""
    from nbx.core.counting import row_blocks

    rng = np.random.default_rng(4)
    n = 900
    X = np.column_stack([np.round(rng.normal(size=n), 1), rng.integers(0, 3, n), rng.normal(size=n)])
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, 3, n)
    w = rng.uniform(0.2, 2.0, n)
    nv = np.array([0, 3, 0])
    gnb = GeneralNB().fit(X, y, sample_weight=w, n_values=nv)
    r = np.minimum(w, 1.0)
    total = gnb.numeric_log_density(X, y, r).sum(axis=1)
    expected = float(np.sum(w * (np.argmax(gnb.log_joint(X, y, r, total), axis=1) == y)))
    monkeypatch.setattr(kernel_nb, "row_blocks", lambda n_rows, width: row_blocks(n_rows, width, 64))
    assert gnb.loo_correct(X, y, w, total) == expected
    rows = np.sort(rng.choice(n, 500, replace=False))
    sub = gnb.numeric_log_density(X, y[rows], r[rows], subset=rows).sum(axis=1)
    assert sub.tobytes() == gnb.numeric_log_density(X[rows], y[rows], r[rows]).sum(axis=1).tobytes()
    expected = float(np.sum(w[rows] * (np.argmax(gnb.log_joint(X[rows], y[rows], r[rows], sub), axis=1) == y[rows])))
    assert gnb.loo_correct(X, y[rows], w[rows], sub, rows) == expected


def test_take_columns_is_the_gathered_rows_columns():
    """``take_columns`` equals ``X[rows][:, cols]`` for runs of columns (gathered as row slices), other increasing
    column lists, no columns, and all rows."""
    X = np.arange(60.0).reshape(10, 6)
    rows = np.array([7, 2, 2, 9])
    for cols in ([1, 2, 3], [4], [0, 2, 5], [1, 3, 4], []):
        got = kernel_nb.take_columns(X, rows, np.array(cols, int))
        assert got.shape == (4, len(cols)) and np.array_equal(got, X[rows][:, cols])
    assert np.array_equal(kernel_nb.take_columns(X, None, np.array([5, 0])), X[:, [5, 0]])
