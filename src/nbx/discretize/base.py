"""Shared base of the discretizers: input checks, per-column cut points, and the binning transform.

Every discretizer maps mixed data (float ``X``, NaN = missing, ``n_values[j]`` nominal cardinality or 0 for
numeric) to integer codes: numeric columns become bin indices, nominal columns pass through, missing -> -1.

Bin convention (Weka's, for both supervised and unsupervised ``Discretize``): intervals are
``(-inf, c1], (c1, c2], ..., (c_m, inf)``; the bin of ``x`` is the number of cut points strictly below
``x``, so a value exactly on a cut goes to the lower bin. Values outside the training range fall into the
first or last bin. A column with no cut points has one bin.
"""
from __future__ import annotations

import numpy as np

from ..models.base import BaseEstimator, check_weights, encode_labels

TRANSFORM_CHUNK = 4096  # rows per chunk in transform, bounds the (rows, d, cuts) comparison


def check_mixed(X, n_values) -> tuple[np.ndarray, np.ndarray]:
    """X as a 2-D float array and n_values as an int array (None = all numeric)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    if n_values is None:
        return X, np.zeros(X.shape[1], dtype=np.int64)
    nv = np.asarray(n_values, dtype=np.int64)
    if nv.shape != (X.shape[1],):
        raise ValueError(f"n_values has shape {nv.shape}, expected ({X.shape[1]},)")
    if np.any(nv < 0):
        raise ValueError("n_values must be >= 0 (0 marks a numeric column)")
    return X, nv


def check_mixed_fit(X, y, n_values, sample_weight, who: str):
    """The fit preamble shared by mixed-input learners: (X, n_values, classes_, y as class indices, weights)."""
    X, nv = check_mixed(X, n_values)
    classes, y_idx = encode_labels(y)
    if X.shape[0] != y_idx.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y_idx.shape[0]}")
    if X.shape[0] == 0:
        raise ValueError(f"{who} needs at least one training row")
    return X, nv, classes, y_idx, check_weights(sample_weight, X.shape[0])


def nominal_codes(X: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Codes of nominal columns; NaN, negative and unseen (>= n_values) codes -> -1."""
    valid = ~np.isnan(X)
    if np.any(X[valid] != np.round(X[valid])):
        raise ValueError("nominal columns must hold integer codes 0..V-1 (or NaN for missing)")
    codes = np.where(valid, X, -1).astype(np.int64)
    return np.where((codes >= 0) & (codes < n_values), codes, -1)


def bin_codes(X: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index = number of cuts strictly below x; cuts is (d, m) padded with +inf; NaN -> -1."""
    out = np.empty(X.shape, dtype=np.int64)
    for start in range(0, X.shape[0], TRANSFORM_CHUNK):
        block = X[start:start + TRANSFORM_CHUNK]
        # NaN > c is False, so missing rows count 0 here and are overwritten below.
        out[start:start + TRANSFORM_CHUNK] = (block[:, :, None] > cuts[None, :, :]).sum(axis=2)
    out[np.isnan(X)] = -1
    return out


class Discretizer(BaseEstimator):
    """Base class: subclasses implement ``_column_cuts(x, y, w)`` for one numeric column.

    ``x`` holds the column's non-missing training values with positive weight, ``y`` their classes and
    ``w`` their weights (weights act as counts: weight k == k copies, weight 0 == row absent).

    Fitted attributes: ``cut_points_`` (per column a sorted float array, or None for nominal columns),
    ``n_values_`` (output cardinality per column), ``input_n_values_``.
    """

    supervised = False

    def fit(self, X, n_values=None, y=None, sample_weight=None):
        X, nv = check_mixed(X, n_values)
        w = check_weights(sample_weight, X.shape[0])
        y = self._check_y(y, X.shape[0])
        self._check_columns(nv)
        cuts = []
        for j in range(X.shape[1]):  # one call per numeric column; each call is vectorized over rows
            if nv[j] > 0:
                cuts.append(None)
                continue
            keep = ~np.isnan(X[:, j]) & (w > 0)
            col = np.asarray(self._column_cuts(X[keep, j], None if y is None else y[keep], w[keep]), float)
            cuts.append(np.sort(col))
        self.cut_points_ = cuts
        self.input_n_values_ = nv
        self.n_values_ = np.array([nv[j] if c is None else len(c) + 1 for j, c in enumerate(cuts)],
                                  dtype=np.int64)
        return self

    def transform(self, X) -> np.ndarray:
        if not hasattr(self, "cut_points_"):
            raise RuntimeError(f"{type(self).__name__} is not fitted; call fit first")
        X, _ = check_mixed(X, None)
        nv = self.input_n_values_
        if X.shape[1] != len(nv):
            raise ValueError(f"X has {X.shape[1]} columns, the discretizer was fitted on {len(nv)}")
        out = np.empty(X.shape, dtype=np.int64)
        nominal = nv > 0
        if nominal.any():
            out[:, nominal] = nominal_codes(X[:, nominal], nv[nominal])
        numeric = np.flatnonzero(~nominal)
        if numeric.size:
            width = max([len(self.cut_points_[j]) for j in numeric] + [0])
            padded = np.full((numeric.size, width), np.inf)
            for row, j in enumerate(numeric):  # pack the ragged cut lists once
                padded[row, :len(self.cut_points_[j])] = self.cut_points_[j]
            out[:, numeric] = bin_codes(X[:, numeric], padded)
        return out

    def fit_transform(self, X, n_values=None, y=None, sample_weight=None) -> np.ndarray:
        return self.fit(X, n_values, y, sample_weight).transform(X)

    def _check_y(self, y, n: int):
        if not self.supervised:
            return None
        if y is None:
            raise ValueError(f"{type(self).__name__} is supervised: y is required")
        y = np.asarray(y)
        if y.shape != (n,):
            raise ValueError(f"y has shape {y.shape}, expected ({n},)")
        if n and (not np.issubdtype(y.dtype, np.integer) or y.min() < 0):
            raise ValueError("y must hold integer class indices 0..K-1")
        return y.astype(np.int64)

    def _check_columns(self, nv: np.ndarray) -> None:
        """Hook for discretizers that restrict the column kinds."""

    def _column_cuts(self, x: np.ndarray, y, w: np.ndarray) -> np.ndarray:
        raise NotImplementedError
