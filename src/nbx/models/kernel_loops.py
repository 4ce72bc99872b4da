"""The compiled loops of :mod:`nbx.models.kernel_nb` (Wang et al. 2006 §4, eq. 13): the exact leave-one-out
bandwidth search and the kernel densities at prediction. Each does the array code's floating-point operations in
its order (numpy's row sums, :func:`nbx.core.sums.row_sum`; numpy's logaddexp; the C library's exp and log, which
are numpy's under the stages' kernel pin, ``nbx.pipeline.kernels``), bit for bit
(``tests/models/test_kernel_nb.py``). A module of its own so that GeneralNB's Gaussian reading (whose loops,
:mod:`nbx.models.gaussian_loops`, load only at scale), and a process that only imports nbx, do not load numba
(about 0.4 s per process with its cached loops)."""

from __future__ import annotations

import numpy as np
from numba import njit

from nbx.core.sums import row_sum, workspace

UNDERFLOW = -700.0  # log-terms this far below a sum's largest term (1) cannot change it
LOG_2 = 0.693147180559945309417232121458176568  # numpy's NPY_LOGE2 (logaddexp of equal terms)


@njit(cache=True)
def _loo_log_sums(centers, logw, first, sizes, segs, g, n_want, grid, seg_base, L):
    """L[u, k] = log Σ_{u'≠u} W_u' exp(-a (x_u - x_u')²), a = 1 / (2 (grid[g[i, k]] · seg_base[s])²), for each
    center u of each segment s = segs[i] and its first n_want[i] grid indices g[i] (the other columns of L are
    left as they are). Each sum runs over exactly its segment's centers, with numpy's floating-point
    operations on a row of a (rows, centers) array: the squared difference, a · d² subtracted from log W, the
    row maximum M subtracted, terms below e^-700 of the largest raised to e^-700 (exp is many times slower on
    underflowing inputs; they cannot change the sum; their exp is computed once), exp (exp(0) = 1 is not
    called), the row sum in numpy's order (:func:`nbx.core.sums.row_sum`), log(sum) + M; -inf where no other center."""
    E = np.empty(sizes.max())
    right, left = workspace()
    floor = np.exp(UNDERFLOW)
    for i in range(len(segs)):
        s = segs[i]
        f, U = first[s], sizes[s]
        for k in range(n_want[i]):
            c = grid[g[i, k]] * seg_base[s]
            a = 1.0 / (2.0 * (c * c))
            for u in range(U):
                x = centers[f + u]
                M = -np.inf
                for j in range(U):
                    d = x - centers[f + j]
                    t = -np.inf if j == u else logw[f + j] - a * (d * d)
                    E[j] = t
                    M = max(M, t)
                finite = np.isfinite(M)
                shift = M if finite else 0.0
                for j in range(U):
                    t = E[j] - shift
                    E[j] = 1.0 if t == 0.0 else np.exp(t) if t > UNDERFLOW else floor  # exp(0) = 1 exactly
                L[f + u, k] = np.log(row_sum(E, U, right, left)) + M if finite else -np.inf


@njit(cache=True)
def _logaddexp(x, y):
    """numpy's logaddexp(x, y), its operations in its order."""
    if x == y:
        return x + LOG_2
    d = x - y
    if d > 0:
        return x + np.log1p(np.exp(-d))
    if d <= 0:
        return y + np.log1p(np.exp(d))
    return d


@njit(cache=True)
def _cross_entropies(
    ce, L, segs, g, n_want, center_seg, center_logw, obs_center, obs_w, obs_r, seg_m, seg_base, grid, half_log_2pi
):
    """ce[s, g[i, k]] for s = segs[i], k < n_want[i]: §4's CV_CE from the leave-one-out log-sums L (rows:
    centers, columns: k), with numpy's operations in numpy's order: per observation (center u, weight w,
    removed weight r) the own center's remaining weight log(max(W_u - r, 0)) added by logaddexp, then
    log(m - r), log h and log √(2π) subtracted in turn (-inf when leave-one-out empties the class), -w times
    that summed per segment and grid value over the observations in their order, then divided by m."""
    row = np.full(ce.shape[0], -1)
    for i in range(len(segs)):
        row[segs[i]] = i
    total = np.zeros(g.shape)
    for o in range(len(obs_center)):
        u = obs_center[o]
        s = center_seg[u]
        i = row[s]
        if i < 0:
            continue
        r = obs_r[o]
        own = np.log(max(np.exp(center_logw[u]) - r, 0.0))
        rest = seg_m[s] - r
        for k in range(n_want[i]):
            term = -np.inf
            if rest > 0:
                num = _logaddexp(L[u, k], own)
                term = ((num - np.log(rest)) - np.log(grid[g[i, k]] * seg_base[s])) - half_log_2pi
            total[i, k] += -(obs_w[o] * term)
    for i in range(len(segs)):
        s = segs[i]
        m = seg_m[s] if seg_m[s] > 0 else 1.0
        for k in range(n_want[i]):
            ce[s, g[i, k]] = total[i, k] / m


@njit(cache=True)
def _kernel_log_density(x, lo, hi, own, own_t, centers, logw, logh, h, log_m, half_log_2pi, E, right, left):
    """log p̂(x) of eq. (13) over one segment's centers lo..hi-1 (lo < hi; bandwidth h, log h, log m) with the
    array code's operations in its order: T_j = ((log W_j - log h) - log √(2π)) - 0.5 ((x - c_j) / h)² (own_t
    for center ``own``: leave-one-out), their maximum M (0 if -inf) subtracted, exp, the first term plus the
    others' row sum (numpy's add.reduceat, :func:`nbx.core.sums.row_sum`), log + M - log m. ``E``: work space."""
    M = -np.inf
    for j in range(lo, hi):
        if j == own:
            t = own_t
        else:
            b = (x - centers[j]) / h
            t = ((logw[j] - logh) - half_log_2pi) - 0.5 * (b * b)
        E[j - lo] = t
        M = max(M, t)
    if not np.isfinite(M):
        M = 0.0
    n = hi - lo
    for j in range(n):
        t = E[j] - M
        E[j] = 1.0 if t == 0.0 else np.exp(t) if t > -746.0 else 0.0  # exp(0) = 1; exp is 0 below -746
    total = E[0] + row_sum(E[1:], n - 1, right, left) if n > 1 else E[0]
    return (np.log(total) + M) - log_m


@njit(cache=True)
def _log_densities(x, seg, n_classes, own, r, seg_lo, seg_hi, centers, logw, seg_logh, seg_h, seg_m, half_log_2pi, out):
    """out[q, k] = log p̂(x[q] | segment seg[q] + k) for k < n_classes (:func:`_kernel_log_density`), left as
    it is for a segment without centers. With own[q] >= 0 (then n_classes = 1): the density without one copy
    (weight r[q]) of center own[q], which keeps log(max(W - r, 0)) (Wang §4's leave-one-out)."""
    E = np.empty(max(1, np.max(seg_hi - seg_lo)))
    right, left = workspace()
    for q in range(len(x)):
        for k in range(n_classes):
            s = seg[q] + k
            if seg_lo[s] == seg_hi[s]:
                continue
            own_t = 0.0
            if own[q] >= 0:
                own_t = (np.log(max(np.exp(logw[own[q]]) - r[q], 0.0)) - seg_logh[s]) - half_log_2pi
            out[q, k] = _kernel_log_density(
                x[q],
                seg_lo[s],
                seg_hi[s],
                own[q],
                own_t,
                centers,
                logw,
                seg_logh[s],
                seg_h[s],
                np.log(seg_m[s]),
                half_log_2pi,
                E,
                right,
                left,
            )
