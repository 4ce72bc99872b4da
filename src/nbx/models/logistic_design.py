"""The design of the ridge logistic regression (:mod:`nbx.models.logistic`, as Weka's ``functions.Logistic``):
nominal codes as indicator columns beside the numeric columns (:func:`design_matrix`), Weka's weighted
standardization (:func:`standardizer`, exact under a column's power of two), and on nominal codes only the
standardized design held as each row's active columns (:class:`IndicatorDesign`, numba kernels in
:mod:`nbx.models.logistic_loops`), whose standardization is computed without the dense design, to the bit.
"""

from __future__ import annotations

import numpy as np

from nbx.core.counting import ValueIndex, row_blocks


def nominal_codes(block: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Integer codes of nominal columns; NaN, negative or out-of-range values become -1 (missing)."""
    codes = np.empty(block.shape, np.int64)
    for rows in row_blocks(*block.shape):
        part = block[rows]
        ok = np.isfinite(part) & (part >= 0) & (part < n_values)
        filled = np.where(ok, part, 0.0)
        if np.any(filled != np.round(filled)):
            raise ValueError("nominal columns (n_values > 0) must hold integer codes")
        codes[rows] = np.where(ok, filled, -1)
    return codes


def design_matrix(X, n_values) -> tuple[np.ndarray, np.ndarray]:
    """Indicator/numeric design (n, p) and, per design column, the attribute it comes from.

    Nominal column j (n_values[j] > 0) -> n_values[j] indicator columns (missing = all zeros); numeric
    column -> itself (NaN kept; :func:`standardize` replaces it by the mean).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    nv = np.zeros(X.shape[1], np.int64) if n_values is None else np.asarray(n_values, dtype=np.int64)
    if nv.shape != (X.shape[1],):
        raise ValueError(f"n_values has shape {nv.shape}, expected ({X.shape[1]},)")
    if np.any(nv < 0):
        raise ValueError("n_values must be >= 0 (0 marks a numeric column)")
    width = np.where(nv > 0, nv, 1)
    owner = np.repeat(np.arange(X.shape[1]), width)
    starts = np.concatenate([[0], np.cumsum(width)[:-1]])
    Z = np.zeros((X.shape[0], int(width.sum())))
    numeric = np.flatnonzero(nv == 0)
    Z[:, starts[numeric]] = X[:, numeric]
    nominal = np.flatnonzero(nv > 0)
    codes = nominal_codes(X[:, nominal], nv[nominal])
    r, c = np.nonzero(codes >= 0)
    Z[r, starts[nominal][c] + codes[r, c]] = 1.0
    return Z, owner


SAFE_EXPONENT = 256  # |x| in [2**-256, 2**256]: x², Σ w x² and x - mean stay normal, finite floats


def _exponents(magnitude: np.ndarray) -> np.ndarray:
    """Per column the power of two to divide by before summing: 0 when the column's largest magnitude lies in
    [2**-256, 2**256] (or is 0), else its binary exponent, which brings the column to magnitudes below 1."""
    e = np.frexp(magnitude)[1]
    return np.where((magnitude == 0) | (np.abs(e) <= SAFE_EXPONENT), 0, e)


def standardizer(Z: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weka's weighted mean and standard deviation per column (NaN ignored); zero deviation -> (0, 1).

    A column whose values reach beyond 2**±256 (x² would overflow near 1e306 or vanish near 1e-300, and the
    column would be left unscaled or turn into NaN) is summed divided by a power of two 2**e
    (:func:`_exponents`), and its mean and deviation multiplied back; a constant such column gets (0, 2**e),
    i.e. it is left as is but brought into range, where a constant 1e306 would overflow the scores. Dividing
    by a power of two is exact, and the standardized column (x - mean) / sd, on which the coefficients and the
    ridge penalty live, is the same for x and 2**k x, so the fit is the one of the rescaled column; other
    columns are untouched.
    """
    ok = ~np.isnan(Z)
    Zf = np.where(ok, Z, 0.0)
    e = _exponents(np.abs(Zf).max(axis=0, initial=0.0))
    if e.any():
        Zf = np.ldexp(Zf, -e)
    wz = w[:, None] * ok
    tot = wz.sum(axis=0)
    mean = np.divide((wz * Zf).sum(axis=0), tot, out=np.zeros(Z.shape[1]), where=tot > 0)
    sq = (wz * Zf**2).sum(axis=0)
    var = np.divide(np.abs(sq - tot * mean**2), tot - 1, out=np.zeros(Z.shape[1]), where=tot > 1)
    sd = np.sqrt(var)
    keep = sd > 0
    return np.where(keep, np.ldexp(mean, e), 0.0), np.ldexp(np.where(keep, sd, 1.0), e)


def standardize(Z: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """(Z - mean) / scale with a leading column of ones; NaN (missing numeric) becomes the mean (0). Columns
    of a scale beyond 2**±256 are divided by its power of two first (exact), so Z - mean cannot overflow."""
    e = _exponents(scale)
    if e.any():
        Z, mean, scale = np.ldexp(Z, -e), np.ldexp(mean, -e), np.ldexp(scale, -e)
    S = (Z - mean) / scale
    return np.hstack([np.ones((Z.shape[0], 1)), np.nan_to_num(S, nan=0.0)])


class _Transposed:
    """``design.T`` of an :class:`IndicatorDesign`: ``design.T @ R`` = Z1ᵀ R."""

    def __init__(self, design: IndicatorDesign):
        self.design = design

    def __matmul__(self, R: np.ndarray) -> np.ndarray:
        from nbx.models.logistic_loops import indicator_column_sums  # numba loaded only here

        d = self.design
        g = indicator_column_sums(d.active, np.ascontiguousarray(R, dtype=float), d.p1)
        g[1:] = g[1:] * d.d[1:, None] + g[:1] * d.a[1:, None]  # Tᵀ (Uᵀ R)
        return g


class IndicatorDesign:
    """The standardized design Z1 (intercept column first) of nominal codes, held as each row's active indicator
    columns instead of the dense (rows x columns) matrix: the products :func:`nbx.models.logistic.objective` and
    :func:`nbx.models.logistic.hessian` need cost per row the attributes, not the columns (numba kernels,
    :mod:`nbx.models.logistic_loops`).

    With U the 0/1 design (intercept column first) and T the standardization (z_j = (u_j - mean_j) / scale_j,
    z_0 = 1, i.e. T = diag(d) + e_0 aᵀ), Z1 = U·T: ``Z1 @ θ`` = U (T θ) sums per row the active rows of Tθ,
    ``Z1.T @ R`` = Tᵀ (Uᵀ R) sums R into the active columns, and every class-pair block Σ_i v_i z_i z_iᵀ of the
    Hessian (v = w P_k (1 - P_k) on the diagonal, -w P_k P_c off it) equals Tᵀ (Σ_i v_i u_i u_iᵀ) T, where
    Σ_i v_i u_i u_iᵀ adds each row's weight to its ~r²/2 pairs of active columns (r = attributes + 1) instead
    of all p² products (:meth:`hessian`). Work per Newton iteration: O(rows · r · K) for the objective and
    gradient, O(rows · r² · K²) for the Hessian, never O(rows · columns).

    ``active`` (G, r): per row the design column (1-based, after the intercept) of each attribute's value,
    -1 for a missing value (its all-zero block), the attributes' blocks in column order (:func:`active_columns`:
    a row's columns ascend); ``mean``, ``scale`` the standardization of the p columns.
    """

    def __init__(self, active: np.ndarray, mean: np.ndarray, scale: np.ndarray):
        self.active = np.ascontiguousarray(active, dtype=np.int64)
        self.p1 = len(mean) + 1
        self.shape = (len(self.active), self.p1)
        self.d = np.concatenate([[1.0], 1.0 / scale])
        self.a = np.concatenate([[0.0], -mean / scale])
        self.T = _Transposed(self)

    def __matmul__(self, theta: np.ndarray) -> np.ndarray:
        from nbx.models.logistic_loops import indicator_scores  # numba loaded only here

        theta_t = theta * self.d[:, None]  # T θ: row 0 = θ_0 + Σ_j a_j θ_j
        theta_t[0] = theta[0] + self.a[1:] @ theta[1:]
        return indicator_scores(self.active, theta_t)

    def hessian(self, w: np.ndarray, P: np.ndarray, ridge: float) -> np.ndarray:
        """:func:`nbx.models.logistic.hessian` of this design, in Fortran order (LAPACK's Cholesky reads it in
        place)."""
        from nbx.models.logistic_loops import indicator_hessian, pair_weights  # numba loaded only here

        return indicator_hessian(self.active, pair_weights(w, P), self.d, self.a, P.shape[1], ridge).T


def _standardizer_of_sums(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total, sums = sums[0], sums[1:]
    p = len(sums)
    mean = sums / total if total > 0 else np.zeros(p)
    var = np.abs(sums - total * mean**2) / (total - 1) if total > 1 else np.zeros(p)
    sd = np.sqrt(var)
    keep = sd > 0
    return np.where(keep, mean, 0.0), np.where(keep, sd, 1.0)


def indicator_standardizer(active: np.ndarray, w: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`standardizer` of the p indicator columns given by ``active`` (see :class:`IndicatorDesign`) without
    the dense design: a 0/1 column has Σ w x = Σ w x² = the sum of its rows' weights, and the dense column sums
    add the same weights (and zeros) in the same row order, so the result is the same to the bit."""
    from nbx.models.logistic_loops import add_indicator_weights  # numba loaded only here

    sums = np.zeros(p + 1)
    add_indicator_weights(np.ascontiguousarray(active, dtype=np.int64), np.asarray(w, float), sums)
    return _standardizer_of_sums(sums)


def codes_standardizer(codes: np.ndarray, n_values: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`indicator_standardizer` of nominal codes' :func:`active_columns`, made a block of rows at a time (the
    weights added in the same row order, the same bits) instead of an (n, d) array of active columns."""
    from nbx.models.logistic_loops import add_indicator_weights  # numba loaded only here

    sums = np.zeros(int(np.sum(n_values)) + 1)
    w = np.asarray(w, float)
    for rows in row_blocks(*codes.shape):
        add_indicator_weights(active_columns(codes[rows], n_values), w[rows], sums)
    return _standardizer_of_sums(sums)


def active_columns(codes: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """:class:`IndicatorDesign`'s ``active`` for nominal codes (n, d) with ``n_values`` (d,): each value's design
    column (1-based, after the intercept; the attributes' blocks in column order), -1 for a missing code."""
    return np.where(codes >= 0, 1 + ValueIndex(n_values).offsets + codes, -1)


def active_of(X: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """:func:`active_columns` of nominal columns X (floats holding codes), made a block of rows at a time: no
    (n, d) temporaries besides the result."""
    active = np.empty(X.shape, np.int64)
    for rows in row_blocks(*X.shape):
        active[rows] = active_columns(nominal_codes(X[rows], n_values), n_values)
    return active
