"""The binned kernel sums (nbx.models.binned_kde) against exact all-pairs sums: every log-sum within the stated
bound -log(1 - REL_ERROR), and GeneralNB / S-NBTree on binned sums against the same learners summing exactly."""

import math

import numpy as np
import pytest

from nbx.models import binned_kde, kernel_nb
from nbx.models.binned_kde import REL_ERROR, BinnedSet
from nbx.models.kernel_nb import GeneralNB
from nbx.models.snbtree import SelfAdaptiveNBTree

BOUND = -np.log1p(-REL_ERROR)  # the largest error of a log-sum


def exact_log_sums(centers, weights, h, x, own=None, r=None):
    """log Σ_u W_u exp(-(x - c_u)²/2h²), the own center (if any) keeping max(W_u - r, 0): all pairs, log space."""
    logw = np.broadcast_to(np.log(weights), (len(x), len(centers))).copy()
    if own is not None:
        mine = own >= 0
        with np.errstate(divide="ignore"):
            logw[mine, own[mine]] = np.log(np.maximum(weights[own[mine]] - r[mine], 0.0))
    T = logw - 0.5 * ((x[:, None] - centers[None, :]) / h) ** 2
    M = T.max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.isfinite(M), np.log(np.exp(T - M[:, None]).sum(axis=1)) + M, -np.inf)


def random_set(rng, n, ties, weighted):
    """Sorted distinct centers and summed weights of n draws (a normal and a far cluster), rounded when ties."""
    x = np.r_[rng.normal(size=n - n // 10), 6 + 0.3 * rng.normal(size=n // 10)]
    if ties:
        x = np.round(x, 1)
    w = rng.uniform(0.2, 3.0, size=n) if weighted else np.ones(n)
    centers, inv = np.unique(x, return_inverse=True)
    return centers, np.bincount(inv, w)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("c", [0.2, 0.5, 0.8])
def test_log_sums_within_bound_of_exact(ties, weighted, c):
    rng = np.random.default_rng(int(100 * c) + 2 * ties + weighted)
    centers, weights = random_set(rng, 3000, ties, weighted)
    m = weights.sum()
    h = c * (centers[-1] - centers[0]) / np.sqrt(m)
    s = BinnedSet(centers, weights, h, m)
    # queries inside, between the clusters (isolated) and outside the range (far: no underflow to -inf)
    x = np.r_[rng.uniform(centers[0], centers[-1], 500), [4.0, -50.0, 80.0], centers[::7]]
    got, want = s.log_sums(x), exact_log_sums(centers, weights, h, x)
    assert np.all(np.isfinite(got))
    assert np.max(np.abs(got - want)) <= BOUND
    # leave-one-out: every center loses the weight of one copy (min(w, 1)), as Wang §4 scores it
    own = np.arange(len(centers))
    r = np.minimum(weights, 1.0) if not weighted else np.minimum(rng.uniform(0.2, 3.0, len(centers)), weights)
    got, want = s.log_sums(centers, own, r), exact_log_sums(centers, weights, h, centers, own, r)
    finite = np.isfinite(want)
    assert np.array_equal(np.isfinite(got), finite)
    assert np.max(np.abs(got[finite] - want[finite])) <= BOUND


def test_a_sparse_set_gets_no_grid_and_exact_sums():
    """h far below the centers' spacing (h = c_X/√m in raw units of widely spread integers): no grid of more
    than SPARSE nodes per center is built, and every sum is the all-pairs one (within the exact sums' 1e-13)."""
    rng = np.random.default_rng(5)
    centers, weights = np.unique(rng.integers(250, 18_424, 2_000).astype(float), return_counts=True)
    weights = weights.astype(float)
    m = weights.sum()
    h = 0.2 / np.sqrt(m)
    s = BinnedSet(centers, weights, h, m)
    assert s.n_nodes == 0 and len(s.B) == 2  # the grid would have had 24 * 18,000 / h nodes
    own = np.arange(len(centers))
    r = np.minimum(weights, 1.0)
    got, want = s.log_sums(centers, own, r), exact_log_sums(centers, weights, h, centers, own, r)
    assert np.array_equal(np.isfinite(got), np.isfinite(want))
    ok = np.isfinite(want)
    assert np.max(np.abs(got[ok] - want[ok])) <= 1e-12
    x = np.r_[centers + 0.3 * h, [0.0, 30_000.0]]
    assert np.max(np.abs(s.log_sums(x) - exact_log_sums(centers, weights, h, x))) <= 1e-12
    # a set as dense as Wang's range units keeps its grid
    assert BinnedSet(centers, weights, 0.2 * np.ptp(centers) / np.sqrt(m), m).n_nodes > 0


def test_single_center_and_emptied_leave_one_out():
    s = BinnedSet(np.array([2.0]), np.array([1.0]), 0.5, 1.0)
    assert np.allclose(s.log_sums(np.array([2.0, 3.0])), [0.0, -0.5 * 4.0])
    assert s.log_sums(np.array([2.0]), np.array([0]), np.array([1.0]))[0] == -np.inf  # nothing left


def mixed_data(rng, n):
    """Numeric columns with ties, NaN and a class whose attribute has a single value; weighted rows."""
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 3)) + y[:, None]
    X[:, 1] = np.round(X[:, 1], 2)  # ties
    X[rng.random(n) < 0.05, 0] = np.nan
    X[y == 2, 2] = 1.5  # a single value in class 2
    w = rng.choice([0.5, 1.0, 2.0], n)
    return X, y, w


def fit_both(monkeypatch, model, X, y, w):
    """(binned, exact): the model fitted with every segment binned and with every segment summed exactly."""
    monkeypatch.setattr(kernel_nb, "EXACT_MAX", 0)
    binned = model.fit(X, y, sample_weight=w)
    binned = (binned, binned.__class__(**model.get_params()))
    monkeypatch.setattr(kernel_nb, "EXACT_MAX", 10**9)
    return binned[0], binned[1].fit(X, y, sample_weight=w)


def test_general_nb_binned_within_bound_of_exact(monkeypatch):
    rng = np.random.default_rng(7)
    X, y, w = mixed_data(rng, 1500)
    binned, exact = fit_both(monkeypatch, GeneralNB(), X, y, w)
    assert len(binned._big) == 9 and not exact._big  # the single-value segment (class 2, attribute 2) included
    # §4's cross-entropies: a weighted mean of log-densities, each within the bound
    both = np.isfinite(binned.loo_ce_) & np.isfinite(exact.loo_ce_)
    assert both.sum() >= 8 * 5
    assert np.max(np.abs(binned.loo_ce_[both] - exact.loo_ce_[both])) <= BOUND
    # densities at the same bandwidths, plain and leave-one-out
    same = np.isclose(binned.bandwidth_c_, exact.bandwidth_c_) | np.isnan(exact.bandwidth_c_)
    assert same.mean() > 0.5
    Xq = np.r_[X[:300], [[np.nan, 0.5, 40.0]]]
    a, b = binned.numeric_log_density(Xq), exact.numeric_log_density(Xq)
    cols = same.all(axis=1)
    assert np.max(np.abs(a[:, cols] - b[:, cols])) <= BOUND
    r = np.minimum(w, 1.0)
    a, b = binned.numeric_log_density(X, y, r), exact.numeric_log_density(X, y, r)
    assert np.max(np.abs(a[:, cols] - b[:, cols])) <= BOUND


def test_snbtree_leave_one_out_binned_within_bound(monkeypatch):
    """The S-NBTree's split scores use the GNB's leave-one-out sums; on binned sums its root's leave-one-out
    log-joint is within the bound (per numeric attribute) of the exact one at the same bandwidths. (The root is
    split on a numeric attribute, so the tree keeps no GNB there: the root's GNB is fitted again as the tree does.)"""
    rng = np.random.default_rng(3)
    X, y, w = mixed_data(rng, 1200)
    binned, exact = fit_both(monkeypatch, SelfAdaptiveNBTree(min_instances=200), X, y, w)
    assert binned.tree_.cuts is not None and binned.tree_.model is None
    y_idx = np.searchsorted(binned.classes_, y)
    monkeypatch.setattr(kernel_nb, "EXACT_MAX", 0)
    a = binned._gnb(X, y_idx, w)
    monkeypatch.setattr(kernel_nb, "EXACT_MAX", 10**9)
    b = exact._gnb(X, y_idx, w)
    assert a._big and not b._big
    cols = (np.isclose(a.bandwidth_c_, b.bandwidth_c_) | np.isnan(b.bandwidth_c_)).all(axis=1)
    keep = np.ones(X.shape[1], bool)
    keep[~cols] = False
    r = np.minimum(w, 1.0)
    ja, jb = a.numeric_log_density(X, y, r), b.numeric_log_density(X, y, r)
    assert np.max(np.abs(ja[:, keep] - jb[:, keep])) <= BOUND
    assert np.mean(binned.predict(X) == exact.predict(X)) > 0.97


def one_pass_log_sums(s, x, own, r):
    """:meth:`BinnedSet.log_sums` written as one pass per query (the grid's interpolated sum, its certificate,
    and its log or the exact sum), in Python floats with the C library's exp, floor and log."""
    eta_fix = 1.0 - math.exp(-0.5 * binned_kde._ETA * binned_kde._ETA)
    w = s.weights
    out = np.empty(len(x))
    for q in range(len(x)):
        w_own = 0.0 if own[q] < 0 else float(w[own[q]] if len(w) > 1 else w[0])
        keep = max(w_own - r[q], 0.0) if own[q] >= 0 else 0.0
        t = (x[q] - s.origin) / s.delta
        if s.n_nodes > 0 and 0.0 <= t <= s.n_nodes - 1:
            i = min(math.floor(t), s.n_nodes - 2)
            mu = t - i
            v = (1.0 - mu) * s.B[i] + mu * s.B[i + 1]
            bound = (
                min(s.E[i], s.E[i + 1])
                + s.total * binned_kde._CUT
                + 2.0 * s.fft_error
                + 4.0 * binned_kde._ULP * (abs(v) + w_own)
            )
            v = v - w_own * (1.0 - 2.0 * mu * (1.0 - mu) * eta_fix) + keep
            if bound * (1.0 + REL_ERROR) <= REL_ERROR * v:
                out[q] = math.log(v)
                continue
        pos = int(np.searchsorted(s.centers, x[q], side="right"))
        out[q] = binned_kde._exact_log_sum(s.centers, w, s.h, s.total, x[q], pos, own[q], keep)
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_log_sums_equal_one_pass_form_bit_for_bit(weighted):
    """The compiled loop's passes (interpolated sums, then their logs, then the exact sums) give each query
    the bits of the one-pass form: plain queries inside, between and outside the clusters, and leave-one-out
    queries at every center, some emptied."""
    rng = np.random.default_rng(11 + weighted)
    centers, weights = random_set(rng, 2000, True, weighted)
    m = weights.sum()
    s = BinnedSet(centers, weights, 0.3 * (centers[-1] - centers[0]) / np.sqrt(m), m)
    x = np.r_[rng.uniform(centers[0], centers[-1], 400), [4.0, -50.0, 80.0, centers[0], centers[-1]]]
    no_own = np.full(len(x), -1)
    assert np.array_equal(s.log_sums(x), one_pass_log_sums(s, x, no_own, np.zeros(len(x))))
    own = np.arange(len(centers))
    r = np.minimum(weights, 1.0) if not weighted else rng.uniform(0.2, 3.0, len(centers))
    got, want = s.log_sums(centers, own, r), one_pass_log_sums(s, centers, own, r)
    assert np.array_equal(got, want)
    # both ways were taken: the far queries are summed exactly, and so is a leave-one-out sum
    assert np.isfinite(got).all() and not np.isnan(s.log_sums(x)).any()
    s.B = np.full_like(s.B, np.nan)  # no query certified: every sum exact, the same bits
    assert np.array_equal(s.log_sums(centers, own, r), one_pass_log_sums(s, centers, own, r))


def test_segment_order_is_lexsort():
    """kernel_nb._segment_order is the permutation np.lexsort((values, segments)) gives: ties (0.0 and -0.0
    among them) in row order, few segments (16-bit radix sort) and many."""
    rng = np.random.default_rng(5)
    for trial in range(200):
        n = int(rng.integers(1, 2000))
        n_seg = int(rng.integers(40_000, 70_000) if trial % 5 == 0 else rng.integers(1, 12))
        vals = np.round(rng.normal(size=n), int(rng.integers(0, 4)))
        vals[vals == 0] = rng.choice([0.0, -0.0], size=int((vals == 0).sum()))
        seg = rng.integers(0, n_seg, n)
        assert np.array_equal(kernel_nb._segment_order(vals, seg, n_seg), np.lexsort((vals, seg)))


def test_released_grids_are_built_again_the_same():
    """A released set builds its grids again at the next query: the same grids and sums, bit for bit."""
    rng = np.random.default_rng(8)
    centers = np.unique(rng.normal(size=3000))
    s = BinnedSet(centers, rng.uniform(0.5, 2.0, len(centers)), 0.05, 3000.0)
    x = np.r_[rng.normal(size=200), 9.0]
    B, E, fft_error, before = s.B.copy(), s.E.copy(), s.fft_error, s.log_sums(x)
    s.release()
    assert s.B is None and s.E is None
    after = s.log_sums(x)
    assert after.tobytes() == before.tobytes()
    assert s.B.tobytes() == B.tobytes() and s.E.tobytes() == E.tobytes() and s.fft_error == fft_error
