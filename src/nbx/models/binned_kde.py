"""Gaussian kernel sums in linear time, within a certified relative error, for the large (attribute, class)
samples of :class:`~nbx.models.kernel_nb.GeneralNB` (Wang, Li, Cao & Yuan 2006, eq. 13 and the §4
leave-one-out criterion).

A *set* is one sample: sorted distinct values (centers) c_1 < ... < c_U with weights W_u > 0 summing to m,
and a bandwidth h. A query x asks for

    S(x) = Σ_u W_u exp(-(x - c_u)² / (2 h²)),

and a leave-one-out query (x = c_u, removed weight r) for S(c_u) - r (the own center keeps W_u - r).

Method (binned kernel sums: Silverman 1982; Wand & Jones 1995, App. D). The centers are linearly binned on a
grid of spacing δ = h / KAPPA from c_1 to c_U, the grid convolved by FFT with the kernel cut at REACH h, and
S(x) read by linear interpolation. Per center this is bilinear interpolation of (x, c) ↦ K((x - c)/h),
whose error is at most (δ/h)²/4 · max|K''| over the cell; convolving the binned weights with that bound
(a second FFT) gives every grid node a certified error bound, to which the cut (m · exp(-(REACH - 2/KAPPA)²/2))
and the FFT's rounding are added. A query whose bound is at most REL_ERROR of its (leave-one-out) sum gets
the interpolated value: **its relative error is at most REL_ERROR = 2e-3**, so its log is within
-log(1 - 2e-3) ≈ 2.0e-3 of the exact log-sum. Any other query (an isolated value, whose sum is tiny or whose
leave-one-out numerator cancels; a value outside [c_1, c_U]) is summed exactly, in log space, over the
centers around x until the weight left (at most m · exp(-d²/2h²) at distance d) is below EXACT_TAIL = 1e-13
of the sum: within a relative error of 1e-13 of the all-pairs sum, and without underflow however far x is.
Costs: binning and interpolation O(U + queries), the FFTs O(KAPPA · (c_U - c_1)/h · log) — with Wang's
h = c_X · range / √m, O(√m log m) —, the exact sums O(window) for the few queries that need them. A set whose
grid would hold more than SPARSE = 64 nodes per center (h far below the centers' spacing, as with h in an
attribute's raw units) gets no grid: every query is summed exactly, each over the few centers within its window.

The loops are compiled by numba (``cache=True``: compiled once per machine, then loaded from disk).
:mod:`nbx.models.kernel_nb` imports this module on its first large set only.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

KAPPA = 24  # grid nodes per bandwidth: spacing h / KAPPA
REACH = 8.0  # the grid's kernel is cut at |x - c| = REACH h (the cut is part of the certified bound)
REL_ERROR = 2e-3  # an interpolated sum is used only if certified within this relative error
EXACT_TAIL = 1e-13  # an exact sum leaves out at most this share of itself
SPARSE = 64  # a set whose grid would have more than SPARSE nodes per center is summed exactly (no grid)
HALF_LOG_2PI = 0.5 * np.log(2.0 * np.pi)
_ETA = 1.0 / KAPPA
_TAPS = int(KAPPA * REACH)
_CUT = float(np.exp(-0.5 * (REACH - 2 * _ETA) ** 2))  # a center left out of a grid node's sum weighs at most this
_ULP = float(np.finfo(float).eps)


def _curvature_bound(t: np.ndarray) -> np.ndarray:
    """max |K''(s)| = |s² - 1| exp(-s²/2) over |s - t| <= 2η (η = 1/KAPPA; s, t in units of h)."""
    a = np.abs(t)
    lo, hi = np.maximum(a - 2 * _ETA, 0.0), a + 2 * _ETA
    f = lambda s: np.abs(s * s - 1.0) * np.exp(-0.5 * s * s)  # noqa: E731
    out = np.maximum(f(lo), f(hi))
    out = np.where(lo <= 0.0, np.maximum(out, 1.0), out)  # the interior maxima of |K''|: s = 0 and s = √3
    return np.where((lo <= np.sqrt(3.0)) & (hi >= np.sqrt(3.0)), np.maximum(out, f(np.sqrt(3.0))), out)


@lru_cache(maxsize=64)
def _spectra(n_fft: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Spectra of the grid kernel exp(-(kη)²/2) and of the error kernel (η²/4) max|K''| (|k| <= REACH/η,
    circular, length n_fft), and the kernel's 2-norm."""
    k = np.arange(-_TAPS, _TAPS + 1)
    kern, err = np.zeros(n_fft), np.zeros(n_fft)
    kern[k % n_fft] = np.exp(-0.5 * (k * _ETA) ** 2)
    err[k % n_fft] = 0.25 * _ETA**2 * _curvature_bound(k * _ETA)
    return np.fft.rfft(kern), np.fft.rfft(err), float(np.sqrt(np.square(kern).sum()))


@njit(cache=True)
def _bin_centers(centers, weights, origin, delta, n_nodes, G):
    for j in range(len(centers)):
        t = (centers[j] - origin) / delta
        i = min(int(np.floor(t)), n_nodes - 2)
        lam = t - i
        w = weights[j] if len(weights) > 1 else weights[0]
        G[i] += w * (1.0 - lam)
        G[i + 1] += w * lam


@njit(cache=True)
def _exact_log_sum(centers, weights, h, total, x, pos, own, keep):
    """log of Σ_{u != own} W_u exp(-(x - c_u)²/2h²) + keep (keep: the own center's remaining weight),
    over the centers outward from pos (the first center > x) until the rest is below EXACT_TAIL."""
    M = -np.inf
    s = 0.0
    if keep > 0.0:
        M = np.log(keep)
        s = 1.0
    log_total = np.log(total)
    log_tail = np.log(EXACT_TAIL)
    for side in range(2):
        j = pos - 1 if side == 0 else pos
        step = -1 if side == 0 else 1
        while 0 <= j < len(centers):
            if j != own:
                d = (x - centers[j]) / h
                a = -0.5 * d * d
                if log_total + a < M + np.log(s) + log_tail:
                    break  # every center beyond is at least as far: their weight is negligible
                a += np.log(weights[j] if len(weights) > 1 else weights[0])
                if a > M:
                    s = s * np.exp(M - a) + 1.0
                    M = a
                else:
                    s += np.exp(a - M)
            j += step
    if s == 0.0:
        return -np.inf
    return np.log(s) + M


@njit(cache=True)
def _own_weight(weights, own, r):
    """A query's own center weight W_u and what a leave-one-out query keeps of it, W_u - r floored at 0
    (both 0 for a plain query, own < 0)."""
    if own < 0:
        return 0.0, 0.0
    w_own = weights[own] if len(weights) > 1 else weights[0]
    keep = w_own - r
    return w_own, 0.0 if keep < 0.0 else keep


@njit(cache=True)
def _log_sums_loop(B, E, fft_error, origin, delta, n_nodes, centers, weights, h, total, qx, qown, qr, out):
    """log S per query (qown >= 0: the leave-one-out sum of center qown, its weight less qr). Three passes:
    the interpolated sums where certified (NaN elsewhere), their logs (a loop of C library log calls alone,
    which the processor overlaps: about twice as fast as one log per pass of the first loop), then the
    exact sums of the others."""
    eta_fix = 1.0 - np.exp(-0.5 * _ETA * _ETA)
    for q in range(len(qx)):
        out[q] = np.nan
        t = (qx[q] - origin) / delta
        if n_nodes > 0 and t >= 0.0 and t <= n_nodes - 1:
            w_own, keep = _own_weight(weights, qown[q], qr[q])
            i = min(int(t), n_nodes - 2)  # t >= 0: int is floor
            mu = t - i
            s = (1.0 - mu) * B[i] + mu * B[i + 1]
            bound = min(E[i], E[i + 1]) + total * _CUT + 2.0 * fft_error + 4.0 * _ULP * (abs(s) + w_own)
            # leave-one-out: the own center's binned kernel at x (its bilinear interpolant) out, W_u - r in
            s = s - w_own * (1.0 - 2.0 * mu * (1.0 - mu) * eta_fix) + keep
            if bound * (1.0 + REL_ERROR) <= REL_ERROR * s:
                out[q] = s
    for q in range(len(qx)):
        out[q] = np.log(out[q])
    for q in range(len(qx)):
        if np.isnan(out[q]):
            keep = _own_weight(weights, qown[q], qr[q])[1]
            pos = np.searchsorted(centers, qx[q], side="right")
            out[q] = _exact_log_sum(centers, weights, h, total, qx[q], pos, qown[q], keep)


@njit(cache=True)
def _loo_ce_terms(log_sum, obs_w, obs_r, m, log_h):
    """-Σ w (log of the leave-one-out density) over a set's observations (Wang §4's CV_CE times m)."""
    total = 0.0
    for k in range(len(log_sum)):
        rest = m - obs_r[k]
        if rest <= 0.0 or log_sum[k] == -np.inf:
            return np.inf
        total -= obs_w[k] * (log_sum[k] - np.log(rest) - log_h - HALF_LOG_2PI)
    return total


class BinnedSet:
    """One set (sorted distinct ``centers``, ``weights`` > 0 summing to about ``total``) at bandwidth ``h``:
    its binned, convolved grid and error grid, and :meth:`log_sums` (see the module docstring). Equal weights
    are kept as one (a weight per center would double the memory of all-distinct data). The grids are built
    with the set; :meth:`release` drops them (memory) and the next :meth:`log_sums` builds them again, the same
    values (the same computation on the same centers)."""

    def __init__(self, centers: np.ndarray, weights: np.ndarray, h: float, total: float):
        weights = weights[:1].copy() if np.all(weights == weights[0]) else weights
        self.centers, self.weights, self.h = centers, weights, float(h)
        self.total = float(total) * (1.0 + 1e-9)  # an upper bound whatever the summation order
        self.delta = self.h * _ETA
        self.origin = float(centers[0])
        span = float(centers[-1]) - self.origin
        n_nodes = int(np.floor(span / self.delta)) + 2 if len(centers) > 1 else 0
        # h far below the centers' spacing (e.g. h = c_X/√m in an attribute's raw units, Wang's formula read
        # literally): the grid would cost far more than the exact sums, whose windows hold a few centers each
        self.n_nodes = n_nodes if n_nodes <= SPARSE * len(centers) else 0
        self._build()

    def release(self) -> None:
        """Drops the grids (about KAPPA · span / h values each) until the next :meth:`log_sums`."""
        self.B = self.E = None

    def _build(self) -> None:
        """The binned, convolved grid B, its error bound grid E and the FFT's rounding bound."""
        centers, weights = self.centers, self.weights
        if self.n_nodes == 0:  # one center, or a sparse set: every query is summed exactly
            self.B = self.E = np.zeros(2)
            self.fft_error = 0.0
            return
        G = np.zeros(self.n_nodes)
        _bin_centers(centers, weights, self.origin, self.delta, self.n_nodes, G)
        n_fft = 1 << int(self.n_nodes + _TAPS).bit_length()  # a power of two: few distinct spectra
        FK, FE, norm_k = _spectra(n_fft)
        FG = np.fft.rfft(G, n_fft)
        # copies: a slice would keep the whole FFT length (up to twice and more the nodes) alive with the set
        self.B = np.fft.irfft(FG * FK, n_fft)[: self.n_nodes].copy()
        self.E = np.fft.irfft(FG * FE, n_fft)[: self.n_nodes].copy()
        # rounding of an FFT convolution: below c·u·log2(n)·|G|·|K| per value (2-norms), c = 10 generously
        self.fft_error = 10 * _ULP * np.log2(n_fft) * float(np.sqrt(np.square(G).sum())) * norm_k

    def log_sums(self, x: np.ndarray, own: np.ndarray | None = None, r: np.ndarray | None = None) -> np.ndarray:
        """log S(x) per query; with ``own`` (index of the query's own center, -1 none) and ``r``: the
        leave-one-out sum S(x) - r of Wang §4 (the own center keeps max(W_u - r, 0))."""
        x = np.ascontiguousarray(x, dtype=float)
        if self.B is None:  # released: built again, the same grids
            self._build()
        if own is None:
            own, r = np.full(len(x), -1, np.int64), np.zeros(len(x))
        out = np.empty(len(x))
        _log_sums_loop(
            self.B,
            self.E,
            self.fft_error,
            self.origin,
            self.delta,
            self.n_nodes,
            self.centers,
            self.weights,
            self.h,
            self.total,
            x,
            np.ascontiguousarray(own, dtype=np.int64),
            np.ascontiguousarray(r, dtype=float),
            out,
        )
        return out

    def loo_cross_entropy(self, obs_center: np.ndarray, obs_w: np.ndarray, obs_r: np.ndarray, m: float) -> float:
        """Wang §4's CV_CE of this set at its h: observations (own center index, weight, removed weight)."""
        log_sum = self.log_sums(self.centers[obs_center], obs_center, obs_r)
        return _loo_ce_terms(log_sum, obs_w, obs_r, float(m), float(np.log(self.h))) / m
