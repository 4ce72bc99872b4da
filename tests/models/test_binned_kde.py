"""The binned kernel sums (nbx.models.binned_kde) against exact all-pairs sums: every log-sum within the stated
bound -log(1 - REL_ERROR), and GeneralNB / S-NBTree on binned sums against the same learners summing exactly."""

import numpy as np
import pytest

from nbx.models import kernel_nb
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
    log-joint is within the bound (per numeric attribute) of the exact one at the same bandwidths."""
    rng = np.random.default_rng(3)
    X, y, w = mixed_data(rng, 1200)
    binned, exact = fit_both(monkeypatch, SelfAdaptiveNBTree(min_instances=200), X, y, w)
    a, b = binned.tree_.model, exact.tree_.model
    cols = (np.isclose(a.bandwidth_c_, b.bandwidth_c_) | np.isnan(b.bandwidth_c_)).all(axis=1)
    keep = np.ones(X.shape[1], bool)
    keep[~cols] = False
    r = np.minimum(w, 1.0)
    ja, jb = a.numeric_log_density(X, y, r), b.numeric_log_density(X, y, r)
    assert np.max(np.abs(ja[:, keep] - jb[:, keep])) <= BOUND
    assert np.mean(binned.predict(X) == exact.predict(X)) > 0.97
