"""Shared base of the discretizers: input checks, per-column cut points, and the binning transform.

Every discretizer is a scikit-learn style transformer, ``fit(X, y=None, sample_weight=None)`` then
``transform(X)``, mapping mixed data (float ``X``, NaN = missing) to integer codes: numeric columns become
bin indices, nominal columns pass through, missing -> -1. Which columns are nominal is the constructor
parameter ``n_values`` (per column the number of nominal values, codes ``0 .. n-1``, or 0 for a numeric
column; None = every column numeric). At fit a nominal code >= n_values is an error (as in the learners);
at transform it is a value never seen in training and becomes -1 (missing), as the learners treat it.
Infinity is an error everywhere.

Bin convention (Weka's, for both supervised and unsupervised ``Discretize``): intervals are
``(-inf, c1], (c1, c2], ..., (c_m, inf)``; the bin of ``x`` is the number of cut points strictly below
``x``, so a value exactly on a cut goes to the lower bin. Values outside the training range fall into the
first or last bin. A column with no cut points has one bin.
"""

from __future__ import annotations

import sys

import numpy as np

from nbx.core.base import BaseEstimator, check_mixed_X, frame_n_values, mixed_n_values, validate_params
from nbx.core.validation import (
    check_array,
    check_consistent_length,
    check_labels,
    check_sample_weight,
    drop_absent_rows,
    not_fitted_error,
    set_input_features,
)

FIT_VALUES = 1 << 18  # training values searched together by _cuts_of_columns; more columns go in several calls
OUTPUTS = ("default", "pandas")  # set_output's containers


class TransformerMixin:
    """scikit-learn's transformer tags, ``transform`` and ``fit_transform`` from the hook ``_transform(X)``
    (an array), ``get_feature_names_out`` (one output column per input column, named like it) and
    ``set_output``."""

    _preserves_dtype: list = []  # the output's dtype does not follow the input's (codes are int64)

    def __sklearn_tags__(self):
        from sklearn.utils import TransformerTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "transformer"
        tags.transformer_tags = TransformerTags(preserves_dtype=list(self._preserves_dtype))
        tags.target_tags.required = bool(getattr(self, "supervised", False))
        return tags

    def transform(self, X):
        """Transform ``X`` with the fitted statistics.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Mixed input: numeric columns as floats, nominal columns as codes, NaN = missing.

        Returns
        -------
        X_out : ndarray or pandas.DataFrame of shape (n_samples, n_features)
            The transformed data (a DataFrame after ``set_output(transform="pandas")``).
        """
        return self._wrap_output(self._transform(X), X)

    def fit_transform(self, X, y=None, **fit_params):
        """Fit on ``X`` (and ``y``), then transform ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,), default=None
            Class labels (needed by supervised transformers such as :class:`~nbx.discretize.MDLDiscretizer`).
        **fit_params : dict
            Passed on to ``fit`` (e.g. ``sample_weight``).

        Returns
        -------
        X_out : ndarray or pandas.DataFrame of shape (n_samples, n_features)
            The transformed training data.
        """
        return self.fit(X, y, **fit_params).transform(X)

    def set_output(self, *, transform=None):
        """What ``transform`` and ``fit_transform`` return: ``"pandas"``, a DataFrame with columns
        ``get_feature_names_out()`` and the input DataFrame's index; ``"default"``, the numpy array; None
        leaves it unchanged. Never set, scikit-learn's global ``transform_output`` option decides (when
        scikit-learn is loaded)."""
        if transform is None:
            return self
        if transform not in OUTPUTS:
            raise ValueError(f"set_output: transform must be one of {OUTPUTS} or None, got {transform!r}")
        self._sklearn_output_config = {"transform": transform}  # scikit-learn's attribute: its clone keeps it
        return self

    def _wrap_output(self, out: np.ndarray, X):
        kind = getattr(self, "_sklearn_output_config", {}).get("transform")
        if kind is None:
            sklearn = sys.modules.get("sklearn")
            kind = sklearn.get_config()["transform_output"] if sklearn is not None else "default"
        if kind == "default":
            return out
        if kind != "pandas":
            raise ValueError(f"{type(self).__name__} returns numpy arrays or pandas DataFrames, not {kind!r}")
        import pandas as pd

        index = X.index if isinstance(X, pd.DataFrame) else None
        return pd.DataFrame(out, index=index, columns=self.get_feature_names_out())

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Output column names: one per input column, named like it.

        Parameters
        ----------
        input_features : array-like of str, default=None
            The input names; None = ``feature_names_in_`` if fitted on a DataFrame, else ``x0, x1, ...``.

        Returns
        -------
        names : ndarray of str objects
            The output names.
        """
        if not hasattr(self, "n_features_in_"):
            raise not_fitted_error(self)
        fitted = getattr(self, "feature_names_in_", None)
        if input_features is None:
            names = fitted if fitted is not None else [f"x{i}" for i in range(self.n_features_in_)]
        else:
            names = np.asarray(input_features, dtype=object)
            if len(names) != self.n_features_in_ or (fitted is not None and np.any(names != fitted)):
                raise ValueError(
                    f"input_features {list(names)} do not match the {self.n_features_in_} features seen at fit"
                )
        return np.asarray(names, dtype=object)


ORDINARY = 1e100  # |x| up to this (and down to its inverse) is ordinary: squares and sums of such values stay finite


def magnitude_exponents(X: np.ndarray) -> np.ndarray | None:
    """Per column of ``X`` the binary exponent e of its largest finite |x| (``x * 2**-e`` then lies in (-1, 1)),
    0 for a column of ordinary magnitude (largest |x| in [1/ORDINARY, ORDINARY], or no nonzero value); None when
    every column is ordinary. A power of two scales exactly (subnormals aside), so estimators that compute on
    ``np.ldexp(X, -e)`` beyond ORDINARY never overflow a difference, square or sum of such values, and leave
    ordinary columns to the very operations they always did. NaN is ignored; X must be finite otherwise."""
    if X.size == 0:
        return None
    hi = np.fmax.reduce(X, axis=0, initial=-np.inf)
    lo = np.fmin.reduce(X, axis=0, initial=np.inf)
    top = np.maximum(hi, -lo)  # -inf for a column without values
    extreme = (top > ORDINARY) | ((top > 0) & (top < 1 / ORDINARY))
    if not extreme.any():
        return None
    return np.where(extreme, np.frexp(np.where(extreme, top, 1.0))[1], 0).astype(np.int64)


def numeric_exponents(X: np.ndarray, n_values: np.ndarray) -> np.ndarray | None:
    """:func:`magnitude_exponents` of the numeric columns (``n_values == 0``) of mixed input, one per column of
    ``X`` (0 for nominal ones); None when every numeric column is ordinary."""
    numeric = np.flatnonzero(n_values == 0)
    if not len(numeric):
        return None
    e = magnitude_exponents(X if len(numeric) == X.shape[1] else X[:, numeric])
    if e is None:
        return None
    out = np.zeros(X.shape[1], np.int64)
    out[numeric] = e
    return out


def magnitude_exponent(x: np.ndarray) -> int:
    """:func:`magnitude_exponents` of one column of values (0: ordinary)."""
    e = magnitude_exponents(np.asarray(x, float).reshape(-1, 1))
    return 0 if e is None else int(e[0])


def nominal_codes(X: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Codes of nominal columns; NaN, negative and unseen (>= n_values) codes -> -1."""
    valid = ~np.isnan(X)
    if np.any(X[valid] != np.round(X[valid])):
        raise ValueError("nominal columns must hold integer codes 0..V-1 (or NaN for missing)")
    codes = np.where(valid, X, -1).astype(np.int64)
    return np.where((codes >= 0) & (codes < n_values), codes, -1)


class Discretizer(TransformerMixin, BaseEstimator):
    """Base class of the discretizers: a scikit-learn transformer mapping mixed data to integer codes.

    Subclasses implement ``_column_cuts(x, y, w)`` for one numeric column, or ``_cuts_of_columns(columns)``
    when they search all numeric columns of a fit together (MDL).

    ``x`` holds the column's non-missing training values with positive weight, ``y`` their class indices
    (supervised discretizers) and ``w`` their weights (weights act as counts: weight k == k copies, weight 0
    == row absent: :meth:`fit` drops those rows first, :func:`nbx.core.validation.drop_absent_rows`, so they
    set no cut point, no class of ``classes_`` and no inferred ``n_values``).

    Parameters
    ----------
    n_values : array-like of int, default=None
        (A constructor parameter of every subclass.) Per column the number of nominal values (codes
        ``0 .. n-1``, passed through), 0 for a numeric column; None = every column numeric.

    Attributes
    ----------
    cut_points_ : list of ndarray or None
        Per column the sorted cut points, None for a nominal column.
    n_values_ : ndarray of int
        Output cardinality per column, to pass on to a learner.
    input_n_values_ : ndarray of int
        The input columns' ``n_values`` (0 = numeric).
    n_features_in_ : int
        Number of columns seen at fit.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).
    feature_names_in_ : ndarray of str
        Column names, when fitted on a DataFrame with string column names.
    classes_ : ndarray
        Class labels (supervised discretizers only).
    """

    supervised = False
    # a value equal to a cut point goes to the lower bin ("left": Weka's (c_i, c_i+1] intervals) or to the upper
    # one ("right": scikit-learn's KBinsDiscretizer, [c_i, c_i+1))
    _cut_side = "left"

    @property
    def bin_edges_(self) -> np.ndarray:
        """Per column the edges of its bins, as scikit-learn's ``KBinsDiscretizer.bin_edges_``.

        An object array of shape (n_features,): for a numeric column the float array ``[-inf, c_1, ..., c_k,
        +inf]`` of its k cut points (k + 1 bins, ``n_values_[j]``); for a nominal column, whose codes pass
        through, None. The outer edges are -inf and +inf, not the training minimum and maximum that
        KBinsDiscretizer stores, because a value outside the training range goes to the first or last bin
        (KBinsDiscretizer too: its transform searches the inner edges only), so the infinite edges say what
        the transform does. A value equal to an inner edge goes to the lower bin (Weka's intervals (c_i,
        c_i+1]), except for :class:`~nbx.discretize.EqualFrequencyDiscretizer`, which puts it in the upper one
        as KBinsDiscretizer does.

        Returns
        -------
        bin_edges : ndarray of object of shape (n_features,)
            The edges per column (None for a nominal column).
        """
        if not hasattr(self, "cut_points_"):
            raise AttributeError("bin_edges_ exists after fit")
        edges = np.empty(len(self.cut_points_), dtype=object)
        for j, cuts in enumerate(self.cut_points_):
            edges[j] = None if cuts is None else np.concatenate([[-np.inf], cuts, [np.inf]])
        return edges

    def fit(self, X, y=None, sample_weight=None):
        """Find the cut points of every numeric column on the training rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric columns as floats, nominal columns as codes ``0 .. n_values[j]-1``; NaN = missing.
        y : array-like of shape (n_samples,), default=None
            Class labels; required by supervised discretizers (:class:`~nbx.discretize.MDLDiscretizer`), ignored
            by the others.
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (0 = the row is absent); None = all 1.

        Returns
        -------
        self : Discretizer
            The fitted discretizer.
        """
        validate_params(self)
        arr = check_array(self, X, fit=True).astype(np.float64, copy=False)
        w = check_sample_weight(sample_weight, arr.shape[0])
        y_idx = classes = None
        if self.supervised:
            classes, y_idx = check_labels(y, self)
            check_consistent_length(arr, y_idx)
        set_input_features(self, X, arr)
        arr, y_idx, w, classes = drop_absent_rows(arr, y_idx, w, classes)
        if self.supervised:
            self.classes_ = classes
        nv = self._input_n_values(arr)
        numeric = np.flatnonzero(nv == 0)
        cuts = [None] * arr.shape[1]
        # Columns are searched independently, so batching them bounds the memory of a search over many rows
        # (a batch's temporaries grow with its values) and leaves every cut point as it is.
        per_batch = max(1, FIT_VALUES // max(arr.shape[0], 1))
        for start in range(0, len(numeric), per_batch):
            batch = numeric[start : start + per_batch]
            columns = []
            for j in batch:
                x = arr[:, j]
                keep = ~np.isnan(x)
                if keep.all():  # a contiguous copy of the column; the labels and weights as they are
                    columns.append((x.copy(), y_idx, w))
                else:
                    columns.append((x[keep], None if y_idx is None else y_idx[keep], w[keep]))
            for j, col in zip(batch, self._cuts_of_columns(columns)):
                cuts[j] = np.sort(np.asarray(col, float))
        self.cut_points_ = cuts
        self.input_n_values_ = nv
        self.n_values_ = np.array([nv[j] if c is None else len(c) + 1 for j, c in enumerate(cuts)], dtype=np.int64)
        return self

    def _transform(self, X) -> np.ndarray:
        """Integer codes (int64): bin indices of numeric columns, nominal codes passed through; -1 for
        missing values and for nominal codes never seen in training (>= n_values)."""
        X = check_mixed_X(self, X)
        nv = self.input_n_values_
        out = np.empty(X.shape, dtype=np.int64)
        nominal = nv > 0
        if nominal.any():
            out[:, nominal] = nominal_codes(X[:, nominal], nv[nominal])
        for j in np.flatnonzero(~nominal):
            # Bin index = the number of cut points strictly below x (a binary search of the sorted cuts); with
            # _cut_side "right", the number at or below x.
            out[:, j] = np.searchsorted(self.cut_points_[j], X[:, j], side=self._cut_side)
            out[np.isnan(X[:, j]), j] = -1
        return out

    def _input_n_values(self, X: np.ndarray) -> np.ndarray:
        """The input columns' n_values (the constructor's; None = all numeric), checked against X."""
        return mixed_n_values(X, self.n_values if self.n_values is not None else frame_n_values(self))

    def _cuts_of_columns(self, columns: list[tuple]) -> list[np.ndarray]:
        """Cut points of each numeric column's (x, y, w); one :meth:`_column_cuts` call each unless a subclass
        searches them together."""
        return [self._column_cuts(x, y, w) for x, y, w in columns]

    def _column_cuts(self, x: np.ndarray, y, w: np.ndarray) -> np.ndarray:
        raise NotImplementedError
