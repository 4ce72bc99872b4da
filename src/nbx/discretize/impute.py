"""Replace missing values by the most frequent value (or the mean), fitted on training rows only.

Wang et al. 2006 (§6): "In data sets with missing value, we considered the most frequent attribute value as a
candidate." Kang & Tian 2006 ("Experimental Results"): "Each occurrence of a missing value was replaced by the most
frequently occurring value in that attribute ... carried out by the filters in Weka."

Weka's filter for this is ``ReplaceMissingValues``, which puts the (weighted) mode into nominal columns but
the (weighted) MEAN into numeric columns. ``numeric="mean"`` (default) reproduces that filter, which is what
the papers ran; ``numeric="mode"`` follows the papers' wording literally (most frequent numeric value).
When discretization runs before imputation, every column is nominal and both options give the mode.

Ties: the smallest code / value wins (Weka's ``Utils.maxIndex`` keeps the first maximum). Weights act as
counts. A column with no observed training value stays missing (NaN): there is no evidence to fill it with,
and the learners skip missing values. (Weka would fill 0 / the first nominal value.)
"""

from __future__ import annotations

import numpy as np

from nbx.core.base import N_VALUES, BaseEstimator, check_mixed_X, frame_n_values, mixed_n_values, validate_params
from nbx.core.validation import Options, check_array, check_sample_weight, drop_absent_rows, set_input_features
from nbx.discretize.base import TransformerMixin, magnitude_exponents, nominal_codes

NUMERIC_OPTIONS = ("mean", "mode")


def nominal_modes(codes: np.ndarray, n_values: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted most frequent code per column (codes -1 = missing); NaN where nothing was observed."""
    d, width = codes.shape[1], int(n_values.max(initial=1))
    flat = np.arange(d) * width + codes
    valid = codes >= 0
    counts = np.bincount(
        flat[valid], weights=np.broadcast_to(w[:, None], codes.shape)[valid], minlength=d * width
    ).reshape(d, width)
    seen = (valid * w[:, None]).sum(axis=0) > 0
    return np.where(seen, counts.argmax(axis=1), np.nan)


def numeric_means(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted mean per column over non-missing values; NaN where nothing was observed. Columns beyond ordinary
    magnitudes are averaged on ``x * 2**-e`` and the mean scaled back (the sum of values near 1.7e308 overflows
    to an infinite fill value), :func:`nbx.discretize.base.magnitude_exponents`; ordinary ones as always."""
    e = magnitude_exponents(X)
    if e is not None:
        return np.ldexp(numeric_means(np.ldexp(X, -e), w), e)
    present = ~np.isnan(X) & (w[:, None] > 0)
    total = (present * w[:, None]).sum(axis=0)
    sums = np.where(present, X, 0.0).T @ w
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, sums / total, np.nan)


def numeric_modes(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted most frequent value per column (ties -> smallest value); NaN where nothing was observed."""
    present = ~np.isnan(X) & (w[:, None] > 0)
    rows, cols = np.nonzero(present)
    vals, wts = X[rows, cols], w[rows]
    out = np.full(X.shape[1], np.nan)
    if vals.size == 0:
        return out
    order = np.lexsort((vals, cols))
    cols, vals, wts = cols[order], vals[order], wts[order]
    start = np.flatnonzero(np.r_[True, (cols[1:] != cols[:-1]) | (vals[1:] != vals[:-1])])
    run_col, run_val, run_w = cols[start], vals[start], np.add.reduceat(wts, start)
    # Per column: heaviest run first, then smallest value.
    best = np.lexsort((run_val, -run_w, run_col))
    first = best[np.r_[True, run_col[best][1:] != run_col[best][:-1]]]
    out[run_col[first]] = run_val[first]
    return out


class ModeImputer(TransformerMixin, BaseEstimator):
    """Fill missing values with the training mode (nominal) and mean or mode (numeric).

    ``numeric="mean"`` reproduces Weka's ``ReplaceMissingValues``, which the papers ran; ``"mode"`` follows
    their wording literally (see the module docstring).

    Parameters
    ----------
    numeric : {"mean", "mode"}, default="mean"
        The fill value of numeric columns.
    n_values : array-like of int, default=None
        Per column the number of nominal values (0 = numeric; None = all numeric).

    Attributes
    ----------
    fill_values_ : ndarray of shape (n_features,)
        The value put into each column's missing cells.
    input_n_values_ : ndarray of int
        The input columns' ``n_values``.
    n_features_in_ : int
        Number of columns seen at fit.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems, §6.

    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006,
    Experimental Results.

    Notes
    -----
    The mean of a numeric column whose largest |x| exceeds 1e100 or is below 1e-100 is taken on ``x * 2**-e``
    (an exact power-of-two scaling) and scaled back: values near 1.7e308 got an infinite fill value. Ordinary
    columns give the same means as before, bit for bit.

    Examples
    --------
    >>> from nbx.discretize import ModeImputer
    >>> nan = float("nan")
    >>> X = [[1.0, 2], [nan, 1], [3.0, 1], [2.0, nan]]  # column 0 numeric, column 1 nominal with 3 values
    >>> imputer = ModeImputer(n_values=[0, 3]).fit(X)
    >>> print(imputer.transform([[nan, nan], [5.0, 0]]))
    [[2. 1.]
     [5. 0.]]
    """

    _parameter_constraints = {"numeric": [Options(*NUMERIC_OPTIONS)], "n_values": N_VALUES}
    _preserves_dtype = ["float64"]

    def __init__(self, numeric: str = "mean", n_values=None):
        self.numeric = numeric
        self.n_values = n_values

    def fit(self, X, y=None, sample_weight=None):
        """Compute each column's fill value on the training rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric columns as floats, nominal columns as codes; NaN = missing.
        y : None
            Ignored (scikit-learn's transformer signature).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights of the weighted mode and mean (0 = the row is absent); None = all 1.

        Returns
        -------
        self : ModeImputer
            The fitted imputer.
        """
        validate_params(self)
        arr = check_array(self, X, fit=True).astype(np.float64, copy=False)
        w = check_sample_weight(sample_weight, arr.shape[0])
        set_input_features(self, X, arr)
        arr, _, w, _ = drop_absent_rows(arr, None, w)  # a row of weight 0 is an absent row
        nv = mixed_n_values(arr, self.n_values if self.n_values is not None else frame_n_values(self))
        fill = np.full(arr.shape[1], np.nan)
        nominal = nv > 0
        if nominal.any():
            fill[nominal] = nominal_modes(nominal_codes(arr[:, nominal], nv[nominal]), nv[nominal], w)
        numeric = ~nominal
        if numeric.any():
            stat = numeric_means if self.numeric == "mean" else numeric_modes
            fill[numeric] = stat(arr[:, numeric], w)
        self.fill_values_ = fill
        self.input_n_values_ = nv
        return self

    def _transform(self, X) -> np.ndarray:
        X = check_mixed_X(self, X)
        return np.where(np.isnan(X), self.fill_values_[None, :], X)
