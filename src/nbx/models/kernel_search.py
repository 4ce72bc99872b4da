"""The leave-one-out bandwidth search of General Naive Bayes (Wang, Li, Cao & Yuan 2006, §4, after Smyth, Gray &
Fayyad 1995): the cross-entropy CV_CE of every (attribute, class) sample at the grid values of c_X that can be its
minimum, summed exactly (compiled, :mod:`nbx.models.kernel_loops`) or, for a sample of more than
``kernel_nb.EXACT_MAX`` distinct values, binned (:mod:`nbx.models.binned_kde`).

:class:`nbx.models.kernel_nb.GeneralNB` calls it per group of attributes; its module docstring states the sums'
rules. The search is the paper's exhaustive one: a grid value is skipped only where a convexity bound proves it
cannot be the first minimum (:func:`_worth_evaluating`), and every value it evaluates equals the full grid's, bit
for bit.
"""

from __future__ import annotations

import numpy as np

L_ENTRIES = 1 << 14  # leave-one-out log-sums the exact search holds at once (128 KiB; one segment may hold more)
PRUNE_MIN = 8  # segments of this many centers search the grid by bounds (smaller ones: the whole grid)
COARSE = 5  # grid values (both ends included) such a search evaluates first
FEW = 8  # a gap with at most this many open grid values evaluates them all, a larger one its midpoint,
BISECT_MIN = 128  # except in segments of this many centers (costly evaluations): always the midpoint
HALF_LOG_2PI = 0.5 * np.log(2.0 * np.pi)


def loo_pairs(center_of_obs, ow, center_w):
    """The observations §4's leave-one-out criterion scores: distinct (center, removed weight min(w, 1)) pairs,
    as (center, summed weight, removed weight), sorted by center. ``center_of_obs``: each observation's center,
    sorted, every center 0..C-1 taken; ``center_w``: their summed weights. When every observation removes the
    same weight (unit weights among them), the pairs are the centers: the same arrays as the general route's
    np.unique calls give, without their sorts (each a few arrays of the observations' size)."""
    r = np.minimum(ow, 1.0)
    if len(r) and np.all(r == r[0]):
        return np.arange(len(center_w)), center_w, np.full(len(center_w), r[0])
    r_values, r_rank = np.unique(r, return_inverse=True)
    pair, pair_of_obs = np.unique(center_of_obs * len(r_values) + r_rank, return_inverse=True)
    return pair // len(r_values), np.bincount(pair_of_obs, ow), r_values[pair % len(r_values)]


def loo_cross_entropy(
    centers, center_logw, center_seg, obs_center, obs_w, obs_r, seg_m, seg_base, grid, prune=True
) -> np.ndarray:
    """Leave-one-out cross-entropy (Wang §4) per segment and grid value, shape (n_seg, len(grid)).

    A segment is one (attribute, class) sample, stored as sorted distinct values ``centers`` with summed
    weights ``exp(center_logw)``; ``center_seg`` gives each center's segment (contiguous). Observations
    (``obs_center``, weight ``obs_w``, removed weight ``obs_r``) are the cases whose LOO density is scored;
    they are sorted by center. h = grid · seg_base. LOO numerator: Σ_{u'≠u} W_u' K + (W_u - r) K(0), kept
    in log space (no cancellation for isolated points).

    With ``prune``, segments of at least PRUNE_MIN centers evaluate only the grid values that can be their
    minimum (:func:`_worth_evaluating`); the others are NaN. A segment without centers is NaN throughout.
    Every evaluated value equals, bit for bit, the one the full grid gives.
    """
    n_seg, G = len(seg_m), len(grid)
    sizes = np.bincount(center_seg, minlength=n_seg)
    ce = np.full((n_seg, G), np.nan)
    big = np.flatnonzero(sizes >= PRUNE_MIN) if prune else np.empty(0, int)
    data = (centers, center_logw, center_seg, obs_center, obs_w, obs_r, seg_m, seg_base, grid)
    want = np.zeros((n_seg, G), bool)
    want[sizes > 0] = True
    want[big] = False
    if want.any():
        _evaluate(ce, want, *data)
    want[:] = False
    want[big[:, None], np.unique(np.round(np.linspace(0, G - 1, COARSE)).astype(int))] = True
    while want.any():  # one round: the batch of every big segment's next grid values
        _evaluate(ce, want, *data)
        want[big] = _worth_evaluating(ce[big], grid, seg_base[big], np.where(sizes[big] < BISECT_MIN, FEW, 1))
    return ce


def _evaluate(ce, want, centers, center_logw, center_seg, obs_center, obs_w, obs_r, seg_m, seg_base, grid):
    """Fill ce[want] (the cross-entropies of :func:`loo_cross_entropy` at the wanted grid indices).

    The wanted segments go in runs whose leave-one-out log-sums (their centers x their most wanted grid values)
    hold at most L_ENTRIES values, or one segment: each segment's sums and cross-entropies are its own, so the
    runs give the values of one pass over all segments, bit for bit, without an array of every center."""
    n_seg = ce.shape[0]
    sizes = np.bincount(center_seg, minlength=n_seg)
    ends = np.cumsum(sizes)
    obs_ends = np.searchsorted(obs_center, ends)  # observations are sorted by center
    segs = np.flatnonzero(want.any(axis=1))
    n_want = want[segs].sum(axis=1)
    from nbx.models.kernel_loops import _cross_entropies, _loo_log_sums  # numba loaded only where it is used

    i = 0
    while i < len(segs):
        j, cols = i + 1, n_want[i]
        if len(centers) * n_want.max() <= L_ENTRIES:  # all in one run (small fits: no loop over the segments)
            j, cols = len(segs), n_want.max()
        while j < len(segs) and (ends[segs[j]] - ends[segs[i]] + sizes[segs[i]]) * max(cols, n_want[j]) <= L_ENTRIES:
            cols = max(cols, n_want[j])
            j += 1
        s0, s1 = segs[i], segs[j - 1] + 1
        lo, hi = ends[s0] - sizes[s0], ends[s1 - 1]
        o = slice(obs_ends[s0 - 1] if s0 else 0, obs_ends[s1 - 1])
        first = ends[:s1] - sizes[:s1] - lo  # into this run's centers (segments before s0 are not read)
        g = np.argsort(~want[segs[i:j]], axis=1, kind="stable")[:, :cols]  # each segment's wanted grid indices
        L = np.empty((hi - lo, cols))
        _loo_log_sums(centers[lo:hi], center_logw[lo:hi], first, sizes, segs[i:j], g, n_want[i:j], grid, seg_base, L)
        args = (center_seg[lo:hi], center_logw[lo:hi], obs_center[o] - lo, obs_w[o], obs_r[o], seg_m, seg_base, grid)
        _cross_entropies(ce, L, segs[i:j], g, n_want[i:j], *args, HALF_LOG_2PI)
        i = j


def _worth_evaluating(ce, grid, seg_base, few) -> np.ndarray:
    """Grid values to evaluate next, (n_seg, G) mask: the midpoint of every gap between evaluated values
    that holds a value whose cross-entropy can still be at most the segment's best one.

    Why a lower bound exists: CE(c) = A + log h - F(t)/m with t = 1/c², h = c · base, A independent of c
    and F(t) = Σ_k w_k log(num_k) (§4's sum over observations). Each num_k = (W_k - r) + Σ_j W_j exp(-t
    d_kj² / (2 base²)) is a sum of exponentials of linear functions of t, so log num_k and F are convex in
    t. Between evaluated neighbours t_a, t_b, F(t) lies below its chord; hence CE(c) >= log c - chord of
    (log c - CE) at t (A and base cancel). A value whose bound exceeds the best evaluated CE (plus a
    rounding margin) cannot be the minimum; ties cannot be skipped either, so the first minimum is found.
    A segment with a non-finite value (a class that leave-one-out empties: +inf at every c) evaluates all.
    """
    done = ~np.isnan(ce)
    G = ce.shape[1]
    col = np.arange(G)
    left = np.maximum.accumulate(np.where(done, col, -1), axis=1)
    right = np.minimum.accumulate(np.where(done, col, G)[:, ::-1], axis=1)[:, ::-1]
    gap = ~done & (left >= 0) & (right < G)
    rows = np.arange(len(ce))[:, None]
    a, b = np.maximum(left, 0), np.minimum(right, G - 1)
    t, log_c = 1.0 / grid**2, np.log(grid)
    with np.errstate(invalid="ignore", divide="ignore"):
        Ha, Hb = log_c[a] - ce[rows, a], log_c[b] - ce[rows, b]
        lower = log_c - (Ha + (Hb - Ha) * (t - t[a]) / (t[b] - t[a]))
        best = np.min(np.where(done, ce, np.inf), axis=1)
        margin = 1e-9 * (1.0 + np.abs(best) + np.abs(np.log(seg_base)) + np.abs(log_c).max())
        open_ = gap & ~(lower > (best + margin)[:, None])  # NaN bounds stay open
    want = np.zeros_like(done)
    r, c = np.nonzero(open_)
    gap_of = r * G + left[r, c]
    few = np.bincount(gap_of, minlength=ce.size)[gap_of] <= few[r]  # a gap with few open values: all of them
    want[r[few], c[few]] = True
    r, c = r[~few], c[~few]
    want[r, (left[r, c] + right[r, c]) // 2] = True
    unbounded = (done & ~np.isfinite(ce)).any(axis=1)
    want[unbounded] = ~done[unbounded]
    return want


def binned_search(centers, weights, obs_center, obs_w, obs_r, m, base, grid) -> np.ndarray:
    """§4's leave-one-out cross-entropy of one segment of more than EXACT_MAX centers at the grid values
    the bounded search of :func:`loo_cross_entropy` evaluates (the others NaN), each from binned sums
    (:mod:`nbx.models.binned_kde`, within its relative error bound). Shape (1, len(grid))."""
    from nbx.models.binned_kde import BinnedSet

    G = len(grid)
    ce = np.full((1, G), np.nan)
    want = np.zeros((1, G), bool)
    want[0, np.unique(np.round(np.linspace(0, G - 1, COARSE)).astype(int))] = True
    while want.any():
        for g in np.flatnonzero(want[0]):
            ce[0, g] = BinnedSet(centers, weights, grid[g] * base, m).loo_cross_entropy(obs_center, obs_w, obs_r, m)
        want = _worth_evaluating(ce, grid, np.array([base]), np.array([1]))
    return ce
