"""The compiled loops of :class:`nbx.models.kernel_nb.GeneralNB`'s Gaussian reading (``density="gaussian"``,
Wang et al. 2006's baseline GNB: one normal density per attribute and class) at the sizes where they pay for
loading numba. Each does the array code's floating-point operations in its order, so both routes give the same
bits (``tests/models/test_kernel_nb.py``): the weighted sums are ``np.bincount``'s (left to right in row order),
the densities' sum over the attributes is numpy's reduction of a (rows, attributes, classes) array with more
than one class (left to right). Only +, -, *, / and sqrt are computed here, which IEEE arithmetic rounds the
same way everywhere; the logarithms come from numpy, precomputed per segment."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def segment_moments(X, y, w, K):
    """Per attribute (pooled over the classes) and per segment (attribute j, class k at j * K + k): the summed
    weight, the weighted mean and the weighted population standard deviation of the observed values (not NaN)
    of the rows of positive weight; a std of exactly 0 where the values are all equal (see ``_weighted_std``
    of :mod:`nbx.models.kernel_nb`, whose bincounts this replaces). Two passes over X, each feeding both
    groupings (every sum still adds its values in row order). Returns (pooled std, segment std, segment mean,
    segment weight)."""
    n, d = X.shape
    W, S = np.zeros(d + d * K), np.zeros(d + d * K)  # the d attributes, then the d * K segments
    lo, hi = np.full(d + d * K, np.inf), np.full(d + d * K, -np.inf)
    for i in range(n):
        wi = w[i]
        if not wi > 0:
            continue
        for j in range(d):
            x = X[i, j]
            if x != x:  # missing
                continue
            for s in (j, d + j * K + y[i]):
                W[s] += wi
                S[s] += wi * x
                lo[s] = min(lo[s], x)
                hi[s] = max(hi[s], x)
    safe = np.where(W > 0, W, 1.0)
    mean = S / safe
    V = np.zeros(d + d * K)
    for i in range(n):
        wi = w[i]
        if not wi > 0:
            continue
        for j in range(d):
            x = X[i, j]
            if x != x:
                continue
            for s in (j, d + j * K + y[i]):
                dev = x - mean[s]
                V[s] += wi * (dev * dev)
    std = np.zeros(d + d * K)
    for s in range(d + d * K):
        if hi[s] > lo[s]:
            std[s] = np.sqrt(max(V[s] / safe[s], 0.0))
    return std[:d], std[d:], mean[d:], W[d:]


@njit(cache=True)
def log_density_sums(X, cols, K, const, mean, h, log_m, out):
    """out[i, k] = Σ_j log N(x_ij; mean, h) - log m of segment s = j * K + k over the numeric columns ``cols``
    of X, the term of segment s being ``(const[s] - 0.5 * ((x - mean[s]) / h[s]) ** 2) - log_m[s]``
    (``GeneralNB._log_kernel`` with ``const`` = log W - log h - log √(2π)); 0 where x is missing or the segment
    inactive (``h[s]`` NaN). The attributes are added left to right from 0, numpy's sum over the attribute axis of
    a (rows, attributes, classes) array with K > 1."""
    n = X.shape[0]
    for i in range(n):
        for k in range(K):
            acc = 0.0
            for j in range(len(cols)):
                x = X[i, cols[j]]
                s = j * K + k
                hs = h[s]
                if x != x or hs != hs:
                    acc += 0.0
                    continue
                z = (x - mean[s]) / hs
                acc += (const[s] - 0.5 * (z * z)) - log_m[s]
            out[i, k] = acc
