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
