"""The compiled loops of :class:`nbx.models.logistic_design.IndicatorDesign` (numba): the products Newton needs from
each row's active indicator columns. In a module of their own so that ridge LR on numeric attributes, which never uses
them, does not load numba (about 0.3 s a process)."""

import numpy as np
from numba import njit


@njit(cache=True)
def indicator_scores(active, theta_t):
    """Per row theta_t[0] + Σ theta_t[active columns] (missing = -1 skipped), shape (rows, K-1)."""
    rows, r = active.shape
    m = theta_t.shape[1]
    out = np.empty((rows, m))
    for i in range(rows):
        for c in range(m):
            out[i, c] = theta_t[0, c]
        for a in range(r):
            j = active[i, a]
            if j >= 0:
                for c in range(m):
                    out[i, c] += theta_t[j, c]
    return out


@njit(cache=True)
def indicator_column_sums(active, R, p1):
    """Uᵀ R for the 0/1 design U (intercept column 0 and the active columns), shape (p1, K-1)."""
    rows, r = active.shape
    m = R.shape[1]
    out = np.zeros((p1, m))
    for i in range(rows):
        for c in range(m):
            out[0, c] += R[i, c]
        for a in range(r):
            j = active[i, a]
            if j >= 0:
                for c in range(m):
                    out[j, c] += R[i, c]
    return out


@njit(cache=True)
def indicator_pair_sums(active, v, p1):
    """Σ_i v_i u_i u_iᵀ on the upper triangle, shape (p1 * p1, class pairs): each row adds its weights (all class
    pairs at once, a contiguous run) to the cells of its pairs of active columns (the intercept's 0 included), in
    row order, so every cell sums its terms in row order. A row's active columns ascend
    (:func:`nbx.models.logistic_design.active_columns` numbers the attributes' blocks in order), so a pair (a <= b) is
    the cell a·p1 + b. The runs of two and three classes (one and three class pairs) are written out: numba does
    not unroll a loop of runtime length, and on such short runs its overhead was half the time."""
    rows, r = active.shape
    q = v.shape[1]
    out = np.zeros((p1 * p1, q))
    cols = np.empty(r + 1, np.int64)
    for i in range(rows):
        cols[0] = 0
        n = 1
        for a in range(r):
            if active[i, a] >= 0:
                cols[n] = active[i, a]
                n += 1
        for a in range(n):
            row = cols[a] * p1
            for b in range(a, n):
                cell = row + cols[b]
                if q == 1:
                    out[cell, 0] += v[i, 0]
                elif q == 3:
                    out[cell, 0] += v[i, 0]
                    out[cell, 1] += v[i, 1]
                    out[cell, 2] += v[i, 2]
                else:
                    for kc in range(q):
                        out[cell, kc] += v[i, kc]
    return out


@njit(cache=True)
def pair_weights(w, P):
    """Per row and class pair k <= c (``np.triu_indices`` order) the Hessian weight: w P_k (1 - P_k) for k = c,
    -w P_k P_c otherwise."""
    rows, m = P.shape
    v = np.empty((rows, m * (m + 1) // 2))
    for i in range(rows):
        kc = 0
        for k in range(m):
            wp = w[i] * P[i, k]
            for c in range(k, m):
                v[i, kc] = wp * (1.0 - P[i, k]) if c == k else -wp * P[i, c]
                kc += 1
    return v


@njit(cache=True)
def indicator_hessian(active, v, d, a, m, ridge):
    """Hᵀ (C order; H is symmetric) laid out like ``θ.ravel()``: per class pair (k <= c, ``np.triu_indices``
    order) the block Tᵀ·M·T of M = Σ_i v_i u_i u_iᵀ (:func:`indicator_pair_sums`), with T = diag(d) + e_0 aᵀ:
    (M·T)_ij = M_ij d_j + M_i0 a_j, (Tᵀ·M·T)_ij = (M·T)_ij d_i + (M·T)_0j a_i; 2·ridge added on the slopes.
    Written block row by block row (all class pairs of a cell (i, j) together), each entry by the same
    operations as one class pair at a time."""
    p1 = d.size
    upper = indicator_pair_sums(active, v, p1)
    q = upper.shape[1]
    pair = np.empty((m, m), np.int64)  # class pair (k, c) -> its index in np.triu_indices(m) order
    kc = 0
    for k in range(m):
        for c in range(k, m):
            pair[k, c] = pair[c, k] = kc
            kc += 1
    Ht = np.empty((p1 * m, p1 * m))
    mt0 = np.empty((p1, q))  # (M·T)_0j per class pair
    for j in range(p1):
        for kc in range(q):
            mt0[j, kc] = upper[j, kc] * d[j] + upper[0, kc] * a[j]
    block = np.empty(q)
    for j in range(p1):
        for i in range(p1):
            ij = (i * p1 + j) if i <= j else (j * p1 + i)
            for kc in range(q):
                block[kc] = (upper[ij, kc] * d[j] + upper[i, kc] * a[j]) * d[i] + mt0[j, kc] * a[i]
            for c in range(m):
                for k in range(m):
                    Ht[j * m + c, i * m + k] = block[pair[k, c]]
    for s in range(m, p1 * m):
        Ht[s, s] += 2.0 * ridge
    return Ht


@njit(cache=True)
def add_indicator_weights(active, w, sums):
    """Add to ``sums`` (length p + 1) each row's weight: at 0 (the intercept column, i.e. Σ_i w_i) and at every
    design column active in the row, in row order; a call per block of rows adds in the same order as one call."""
    for i in range(active.shape[0]):
        sums[0] += w[i]
        for a in range(active.shape[1]):
            if active[i, a] >= 0:
                sums[active[i, a]] += w[i]
