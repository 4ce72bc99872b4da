"""Equal-width discretization (Kang & Tian 2006, "Experimental Results": "Numeric attributes were discretized
into ten equal-length intervals ... carried out by the filters in Weka").

Follows Weka's unsupervised ``weka.filters.unsupervised.attribute.Discretize`` with default options
(``-B 10``, no equal frequency, no bin-number search): on the training rows, ``width = (max - min) / bins``
and the cut points are ``min + width * i`` for ``i = 1 .. bins-1`` (computed exactly so, as Weka does).
Intervals are ``(-inf, c1], (c1, c2], ..., (c9, inf)``: a value on a cut goes to the lower bin, values
outside the training range go to the first or last bin. A constant or all-missing column (width <= 0)
gets one bin, as Weka's "'All'" value. Weka ignores instance weights here; rows with weight 0 are treated
as absent (weights as counts), which only matters if such a row holds the minimum or maximum.

A column beyond ordinary magnitudes (largest |x| above 1e100 or below 1e-100,
:func:`nbx.discretize.base.magnitude_exponents`) is cut on ``x * 2**-e`` (e the exponent of its largest |x|) and
the cut points scaled back: max - min of values near ±1.7e308 would overflow to infinity (no cut at all), and
scaling by a power of two is exact, so these are the cut points of exact arithmetic rounded once more at most.
Ordinary columns are computed as they always were.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from nbx.core.base import N_VALUES
from nbx.core.validation import Interval
from nbx.discretize.base import Discretizer, magnitude_exponent


def equal_width_cut_points(x: np.ndarray, bins: int) -> np.ndarray:
    """Weka's equal-width cut points of the non-missing values x (beyond ordinary magnitudes: those of
    ``x * 2**-e``, scaled back; see the module docstring)."""
    if x.size == 0 or bins < 2:
        return np.empty(0)
    e = magnitude_exponent(x)
    if e:
        return np.ldexp(equal_width_cut_points(np.ldexp(x, -e), bins), e)
    lo, hi = x.min(), x.max()
    width = (hi - lo) / bins
    if not width > 0:
        return np.empty(0)
    return lo + width * np.arange(1, bins)


class EqualWidthDiscretizer(Discretizer):
    """``bins`` equal-width intervals between the training minimum and maximum (Weka's convention).

    Follows Weka's unsupervised ``Discretize`` with default options (see the module docstring).

    Parameters
    ----------
    bins : int, default=10
        Number of intervals (Weka's ``-B 10``).
    n_values : array-like of int, default=None
        Per column the number of nominal values (codes passed through), 0 for a numeric column; None = all
        columns numeric.

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

    References
    ----------
    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006,
    Experimental Results (ten equal-length intervals).

    Notes
    -----
    A column whose largest |x| exceeds 1e100 or is below 1e-100 is cut in a scaled domain, ``x * 2**-e``, and
    its cut points scaled back by ``2**e`` (exact): values near ±1.7e308, whose range overflows, get their ten
    intervals as other data do. Columns of ordinary magnitude give the same cut points as before, bit for bit.

    Examples
    --------
    >>> from nbx.discretize import EqualWidthDiscretizer
    >>> disc = EqualWidthDiscretizer(bins=4).fit([[0.0], [3.0], [10.0]])
    >>> print(disc.cut_points_[0])
    [2.5 5.  7.5]
    >>> print(disc.transform([[1.0], [4.0], [9.0]]).ravel())
    [0 1 3]
    """

    _parameter_constraints = {"bins": [Interval(Integral, 1, None, "left")], "n_values": N_VALUES}

    def __init__(self, bins: int = 10, n_values=None):
        self.bins = bins
        self.n_values = n_values

    def _column_cuts(self, x, y, w):
        return equal_width_cut_points(x, int(self.bins))


def weighted_percentiles(x: np.ndarray, w: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """``np.percentile(x, levels)`` (its default ``"linear"`` method) with weights acting as counts.

    Unit weights (or integer weights adding up to at most 4 times the rows) are ``np.percentile`` of the values
    repeated, bit for bit; other weights interpolate in the same way between the values at the weighted
    positions: the value at position k is the one whose cumulative weight first exceeds k, position
    ``(W - 1) * q / 100`` for a total weight W."""
    if np.all(w == 1.0):
        return np.asarray(np.percentile(x, levels), dtype=np.float64)
    if np.all(w == np.round(w)) and w.sum() <= 4 * x.size:
        return np.asarray(np.percentile(np.repeat(x, w.astype(np.int64)), levels), dtype=np.float64)
    order = np.argsort(x, kind="stable")
    xs, cw = x[order], np.cumsum(w[order])
    h = (cw[-1] - 1.0) * np.asarray(levels, dtype=np.float64) / 100.0
    h = np.clip(h, 0.0, None)
    lo = np.floor(h)
    at = lambda k: xs[np.minimum(np.searchsorted(cw, k, side="right"), xs.size - 1)]  # noqa: E731
    a, b, t = at(lo), at(lo + 1.0), h - lo
    return np.where(t >= 0.5, b - (b - a) * (1.0 - t), a + (b - a) * t)


def equal_frequency_cut_points(x: np.ndarray, bins: int, w: np.ndarray | None = None) -> np.ndarray:
    """The inner edges of ``bins`` equal-frequency bins of the non-missing values x (weights ``w`` as counts), as
    scikit-learn's ``KBinsDiscretizer(strategy="quantile", quantile_method="linear")`` computes them: the
    percentiles 0, 100/bins, ..., 100 of x (:func:`weighted_percentiles`), bins narrower than 1e-8 removed, the
    outer two edges dropped."""
    if x.size == 0 or bins < 2 or not x.max() > x.min():
        return np.empty(0)
    w = np.ones(x.size) if w is None else np.asarray(w, dtype=np.float64)
    edges = weighted_percentiles(x, w, np.linspace(0, 100, bins + 1))
    edges = edges[np.ediff1d(edges, to_begin=np.inf) > 1e-8]
    return edges[1:-1]


class EqualFrequencyDiscretizer(Discretizer):
    """``bins`` intervals holding about equally many training values (equal frequency, quantile bins).

    The cut points are the percentiles 100 i / bins (i = 1 .. bins-1) of the column's training values, as
    scikit-learn's ``KBinsDiscretizer(strategy="quantile", quantile_method="linear", encode="ordinal")``
    computes them (``np.percentile``; bins narrower than 1e-8 are removed, so tied values may leave fewer
    bins), and a value equal to a cut point goes to the upper bin, as there: the codes are KBinsDiscretizer's.
    (scikit-learn 1.9 defaults to ``quantile_method="averaged_inverted_cdf"``; nbx keeps numpy's default,
    linear interpolation.) A constant or all-missing column gets one bin. Weights act as counts (weight k = k
    copies of the row, :func:`weighted_percentiles`), which KBinsDiscretizer's linear method refuses.

    Parameters
    ----------
    bins : int, default=10
        Number of intervals (before removing the empty ones).
    n_values : array-like of int, default=None
        Per column the number of nominal values (codes passed through), 0 for a numeric column; None = all
        columns numeric.

    Attributes
    ----------
    cut_points_ : list of ndarray or None
        Per column the sorted cut points, None for a nominal column.
    bin_edges_ : ndarray of object of shape (n_features,)
        Per column ``[-inf, cut points, +inf]`` (see :attr:`Discretizer.bin_edges_`).
    n_values_ : ndarray of int
        Output cardinality per column, to pass on to a learner.
    input_n_values_ : ndarray of int
        The input columns' ``n_values`` (0 = numeric).
    n_features_in_ : int
        Number of columns seen at fit.

    Examples
    --------
    >>> from nbx.discretize import EqualFrequencyDiscretizer
    >>> disc = EqualFrequencyDiscretizer(bins=2).fit([[1.0], [2.0], [3.0], [10.0]])
    >>> print(disc.cut_points_[0])
    [2.5]
    >>> print(disc.transform([[2.0], [2.5], [9.0]]).ravel())
    [0 1 1]
    """

    _cut_side = "right"
    _parameter_constraints = {"bins": [Interval(Integral, 1, None, "left")], "n_values": N_VALUES}

    def __init__(self, bins: int = 10, n_values=None):
        self.bins = bins
        self.n_values = n_values

    def _column_cuts(self, x, y, w):
        return equal_frequency_cut_points(x, int(self.bins), w)
