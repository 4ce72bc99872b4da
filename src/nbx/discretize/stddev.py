"""Standard-deviation ("significance class") discretization (Wiering 2003 §4).

The paper: "We preprocessed continuous (and nominal data with large values) by using the mean and standard
deviance and computing significance classes using 1 standard deviation as a separator between two feature
values." No further detail is given. Reading chosen here: a value's class is how many standard deviations
it lies above or below the mean, i.e. its z-score rounded to an integer interval, so the bin edges are

    mean + k * width * std   for every integer k   (width = 1 in the paper),

computed from the training rows of the fold with weighted mean and population standard deviation
(weights as counts, so weight k == k copies). Only edges strictly inside the training range are kept
(``min < edge < max``), so no bin lies wholly outside the values seen in training; test values beyond that
range fall into the first or last bin. A value exactly on an edge goes to the lower bin (Weka's ``(a, b]``
convention, shared by all discretizers). A constant or all-missing column gets one bin.

``rounding="trunc"`` is the other literal reading of "how many standard deviations it lies above or below the
mean": the z-score truncated towards zero instead of floored, so (mean - width*std, mean + width*std) is one
bin of two widths (the edge at the mean is dropped, every other edge kept). The report of Wiering (2003)
measures it as a possible cause of its Glass gap; the pipeline's default is ``floor``.

Applying it to "nominal data with large values" is a pipeline choice (treat such a column as numeric
codes before fitting); this class discretizes numeric columns only and passes nominal ones through.

Scale: the classes are defined relative to the mean and the standard deviation, so scaling a column by any
factor must not change its codes. A column beyond ordinary magnitudes (largest |x| above 1e100 or below 1e-100,
:func:`nbx.discretize.base.magnitude_exponents`) is therefore measured on ``x * 2**-e`` (e the exponent of its
largest |x|) and the edges scaled back: otherwise (x - mean)² overflows from |x| ~ 1e154 (std = inf: no edge, one
bin) and the sums of values near ±1.7e308 overflow, while subnormal values (1e-310) lose the digits the deviation
is made of. Ordinary columns are computed as they always were.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from nbx.core.base import N_VALUES
from nbx.core.validation import Interval, Options
from nbx.discretize.base import Discretizer, magnitude_exponent

ROUNDINGS = ("floor", "trunc")


def stddev_cut_points(x: np.ndarray, w: np.ndarray, width: float = 1.0, rounding: str = "floor") -> np.ndarray:
    """Edges mean + k*width*std strictly inside (min, max) of the (non-missing, positive-weight) values x; with
    ``rounding="trunc"`` without the edge k = 0 (the z-score truncated towards zero, see the module docstring)."""
    if x.size == 0:
        return np.empty(0)
    e = magnitude_exponent(x)
    if e:  # beyond ordinary magnitudes: on x * 2**-e, edges scaled back (see the module docstring)
        return np.ldexp(stddev_cut_points(np.ldexp(x, -e), w, width, rounding), e)
    mean = np.average(x, weights=w)
    std = np.sqrt(np.average((x - mean) ** 2, weights=w))
    lo, hi = x.min(), x.max()
    if not std > 0 or lo == hi:
        return np.empty(0)
    step = width * std
    k = np.arange(np.floor((lo - mean) / step), np.ceil((hi - mean) / step) + 1)
    k = k[k != 0] if rounding == "trunc" else k
    edges = mean + k * step
    return edges[(edges > lo) & (edges < hi)]


class StdDevDiscretizer(Discretizer):
    """Bins of ``width`` standard deviations anchored at the training mean (significance classes).

    Parameters
    ----------
    width : float, default=1.0
        Bin width in standard deviations (the paper's 1).
    rounding : {"floor", "trunc"}, default="floor"
        ``"floor"``: bins ``mean + k * width * std``; ``"trunc"``: one bin of two widths around the mean.
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
    Wiering, M. A. (2003). *Hierarchical Mixtures of Naive Bayesian Classifiers*. Technical report
    UU-CS-2003-003, Utrecht University, §4.

    Notes
    -----
    The classes are relative to the mean and standard deviation (Wiering 2003), so they are scale-invariant: a
    column whose largest |x| exceeds 1e100 or is below 1e-100 is measured on ``x * 2**-e`` (an exact power-of-two
    scaling) and its edges scaled back, so data scaled by 1e300 or 1e-310 get the codes of the unscaled data
    (up to values within rounding of an edge) instead of one bin. Columns of ordinary magnitude give the same
    edges as before, bit for bit.

    Examples
    --------
    >>> from nbx.discretize import StdDevDiscretizer
    >>> disc = StdDevDiscretizer().fit([[2.0], [4.0], [4.0], [4.0], [5.0], [5.0], [7.0], [9.0]])  # mean 5, std 2
    >>> print(disc.cut_points_[0])
    [3. 5. 7.]
    >>> print(disc.transform([[0.0], [5.5], [10.0]]).ravel())
    [0 2 3]
    """

    _parameter_constraints = {
        "width": [Interval(Real, 0, None, "neither")],
        "rounding": [Options(*ROUNDINGS)],
        "n_values": N_VALUES,
    }

    def __init__(self, width: float = 1.0, rounding: str = "floor", n_values=None):
        self.width = width
        self.rounding = rounding
        self.n_values = n_values

    def _column_cuts(self, x, y, w):
        return stddev_cut_points(x, w, float(self.width), self.rounding)
