"""General Naive Bayes, GNB (Wang, Li, Cao & Yuan 2006, "Combining decision tree and Naive Bayes for
classification", §3-4): naive Bayes over mixed attributes, eq. (10)-(11)

    c* = argmax_c  P(c) · Π_{numeric i} p(x_i | c) · Π_{nominal j} P(x_j | c),

with p(x_i | c) a Gaussian-kernel density, eq. (13): p̂(x | c) = 1/(m h) Σ_k K((x - x_k)/h),
K(t) = (2π)^{-1/2} exp(-t²/2), m the number of class-c training cases, h = c_X / √m, and c_X chosen
per attribute and class by an exhaustive grid search (step 0.01 over [0.2, 0.8]) minimizing the
leave-one-out cross-entropy (§4, after Smyth, Gray & Fayyad 1995)

    CV_CE = -1/m Σ_k log( 1/((m-1) h) Σ_{j≠k} K((x_j - x_k)/h) ).

Choices where the paper is silent (see also the report):

* Unit of h (``scale``). §4 writes h = c_X/√m with a dimensionless c_X ∈ [0.2, 0.8] and gives no unit
  for x. The 1/√m rate is that of John & Langley's (1995) kernel estimator for naive Bayes, whose
  implementation in Weka (KernelEstimator) measures it in units of the attribute's range: by default
  (``scale="range"``) h = c_X · (max - min) / √m over the class's values (the attribute's range over all
  classes when the class has a single distinct value). The paper's own search supports this unit: with
  it the leave-one-out optimum lies inside the grid [0.2, 0.8] far more often than with standard
  deviations, where on the continuous data sets most (attribute, class) searches end at the grid's upper
  bound (e.g. australian and crx 100 %, diabetes 75 %, with range units 17 % and 6 %), i.e. the grid
  would not contain the optimum. ``scale="std"`` (our earlier default, a sensitivity row in the report)
  uses the class's weighted standard deviation; ``scale="none"`` is h = c_X/√m on raw values.
* Nominal attributes and the class prior use Laplace's rule with ``alpha`` (the paper's eq. 12 is the
  maximum-likelihood estimate; Laplace avoids zero probabilities, as the NB leaves of NBTree use).
* Missing values (NaN) are skipped: they neither enter the densities/counts nor contribute a factor at
  prediction; m is the (weighted) number of class-c cases whose value is observed.
* A class with no training weight gets probability 0 (its density is undefined). An attribute that is
  constant over the training data is ignored. If a class has training cases but none with the attribute
  observed, the attribute contributes no factor for that class.
* Weights: a weight of k equals k copies. m is the weighted class count; the leave-one-out sum removes
  one copy of the left-out case (min(w, 1) of its weight, so fractional weights below 1 remove the
  whole case).
* ``density="gaussian"`` replaces the kernel density by one Gaussian per attribute and class (weighted
  mean and standard deviation), for comparison (Wang §6, Fig. 3 discussion).

Exact and binned sums (a rule on the size of each (attribute, class) sample): the densities of a class are
sums over its *distinct* values (weights summed), its *centers*.

* A segment of at most EXACT_MAX = 256 centers is summed exactly, over all pairs. The bandwidth search costs
  (#centers)² per grid value, in one compiled loop (numba) over the segments and their wanted grid values;
  evaluation costs (#distinct query values × the attribute's centers) per attribute. All sums are
  log-sum-exp; exp never sees inputs below -700 relative to the largest term (exp is many times slower on
  underflowing inputs). Each leave-one-out sum runs over exactly its segment's centers, so the search's
  cross-entropies are independent of which segments are searched together. The compiled loops do numpy's
  floating-point operations in numpy's order (row sums as numpy adds them, :func:`nbx.core.sums.row_sum`; the C
  library's exp and log, which are numpy's under the stages' kernel pin, ``nbx.pipeline.kernels``), so the
  results are those of the array code they replace, bit for bit (``tests/models/test_kernel_nb.py``).
* A larger segment is summed by :mod:`nbx.models.binned_kde` (linear binning on a grid of spacing h/24, FFT
  convolution, interpolation; Silverman 1982, Wand & Jones 1995): **every kernel sum -- a density of eq.
  (13) or a leave-one-out numerator of §4 -- within a certified relative error of 2e-3**, so every
  log-density and every cross-entropy CV_CE within -log(1 - 2e-3) ≈ 2.0e-3 of the exact value (queries the
  grid cannot certify, e.g. isolated values, are summed exactly). Cost per grid value O(centers + √m log m):
  fit and predict grow linearly in rows. The fitted model keeps the segment's centers and weights; its grids
  (at small m a few times the centers) are built with it and, once released (:meth:`GeneralNB.release_grids`,
  memory), again by the next evaluation, the same values. The chosen c_X can differ from the exact search's
  where two grid values' cross-entropies differ by less than the error; the bounded search
  (:mod:`nbx.models.kernel_search`) is exact for exact cross-entropies and returns the least evaluated value on
  binned ones.

  Why 256: exact sums cost ~U² per grid value against the binned sums' ~U plus an FFT, so beyond a few
  hundred centers the grid is many times cheaper, and the S-NBTree (whose every node fits a GNB) would be
  quadratic in its node sizes otherwise; below, exact sums are cheap and keep small data on the exact
  values (most of the papers' samples: on Wang et al.'s data sets the results stay within the envelope
  of a change of CPU, benchmarks/envelope.py).

The numeric attributes are fitted in groups of at most GROUP_OBS observations and at most 1/GROUPS of them
(unless below GROUP_MIN), so a fit's temporaries stay a fraction of X (the results do not depend on the
grouping: every segment is searched on its own).
"""

from __future__ import annotations

import functools
from numbers import Real

import numpy as np

from nbx.core.base import (
    N_VALUES,
    BaseEstimator,
    LogScoreMixin,
    check_mixed_fit,
    check_mixed_X,
    compiled_pays,
    mixed_n_values,
    row_blocks,
    validate_params,
)
from nbx.core.counting import ValueIndex
from nbx.core.validation import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    Interval,
    Options,
    check_array,
    check_consistent_length,
    check_labels,
    check_sample_weight,
    drop_absent_rows,
    set_input_features,
)
from nbx.discretize.base import nominal_codes, numeric_exponents
from nbx.models.kernel_search import HALF_LOG_2PI, binned_search, loo_cross_entropy, loo_pairs
from nbx.models.naive_bayes import _check_batch_weights, given_log_prior, nb_log_tables

EXACT_MAX = 256  # segments of at most this many centers are summed exactly, larger ones binned (binned_kde)
GROUP_OBS = 1 << 17  # the fit handles groups of attributes of at most this many observations (memory),
GROUPS, GROUP_MIN = 8, 1 << 12  # and of at most 1/GROUPS of them unless that is below GROUP_MIN (small fits: one)
# (rows x numeric attributes) from which the Gaussian reading's fit and prediction run compiled (gaussian_loops):
# about 90 ns saved per cell and fit + predict, so a 10-fold CV of 2^19 cells saves the 0.45 s of loading numba
# (one fit + predict alone breaks even at about 4 x 10^6 cells)
GAUSSIAN_COMPILED_FROM = 1 << 19
SUM_ENTRIES = 1 << 20  # kernel densities (rows x attributes x classes) a prediction holds at once (8 MiB)
DENSITIES = ("kernel", "gaussian")
SCALES = ("std", "range", "none")


def take_columns(X, rows, cols) -> np.ndarray:
    """``X[rows][:, cols]`` (``X[:, cols]`` when rows is None) for increasing column indices ``cols``, without the
    copy of every column of the rows; a run of consecutive columns is gathered as a slice of each row (about 3x
    faster than a gather on both axes)."""
    if rows is None:
        return X[:, cols]
    if len(cols) and cols[-1] - cols[0] == len(cols) - 1:  # increasing: a run
        return X[rows, cols[0] : cols[-1] + 1]
    return X[np.ix_(rows, cols)]


def _spread(values, seg, n_seg) -> np.ndarray:
    """max - min of the values per segment (0 for empty segments)."""
    lo = np.full(n_seg, np.inf)
    hi = np.full(n_seg, -np.inf)
    np.minimum.at(lo, seg, values)
    np.maximum.at(hi, seg, values)
    return np.where(hi > lo, hi - lo, 0.0)


def _weighted_std(values, weights, seg, n_seg) -> np.ndarray:
    """Weighted (population) standard deviation of values per segment (0 for empty segments).

    A segment whose values are all equal gets exactly 0: the rounding error of its computed mean would
    otherwise leave a std of ~1e-15 |mean|, a near-zero bandwidth and an astronomically peaked density
    (seen on sick-euthyroid, where an attribute missing in a whole class is imputed to one value)."""
    W = np.bincount(seg, weights, minlength=n_seg)
    safe = np.where(W > 0, W, 1.0)
    mean = np.bincount(seg, weights * values, minlength=n_seg) / safe
    var = np.bincount(seg, weights * (values - mean[seg]) ** 2, minlength=n_seg) / safe
    return np.where(_spread(values, seg, n_seg) > 0, np.sqrt(np.maximum(var, 0.0)), 0.0), mean, W


def _empty_moments(n: int) -> np.ndarray:
    """Moments of no value for ``n`` segments: rows weight, mean, squared deviations, smallest, largest."""
    return np.array([np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.inf), np.full(n, -np.inf)])


def _moments(values, weights, seg, n_seg) -> np.ndarray:
    """Per segment (weight, mean, weighted sum of squared deviations, min, max) of ``values``, shape (5, n_seg)."""
    W = np.bincount(seg, weights, minlength=n_seg)
    mean = np.bincount(seg, weights * values, minlength=n_seg) / np.where(W > 0, W, 1.0)
    m2 = np.bincount(seg, weights * (values - mean[seg]) ** 2, minlength=n_seg)
    lo, hi = np.full(n_seg, np.inf), np.full(n_seg, -np.inf)
    np.minimum.at(lo, seg, values)
    np.maximum.at(hi, seg, values)
    return np.array([W, mean, m2, lo, hi])


def _merge_moments(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The moments of two sets of values from theirs (Chan, Golub & LeVeque 1979, weighted)."""
    W = a[0] + b[0]
    safe = np.where(W > 0, W, 1.0)
    delta = b[1] - a[1]
    mean = np.where(b[0] > 0, a[1] + delta * (b[0] / safe), a[1])
    m2 = a[2] + b[2] + delta**2 * (a[0] * b[0] / safe)
    return np.array([W, mean, m2, np.minimum(a[3], b[3]), np.maximum(a[4], b[4])])


def _moment_std(moments: np.ndarray):
    """(std, mean, weight) per segment as :func:`_weighted_std` gives them, from merged moments."""
    W, mean, m2, lo, hi = moments
    var = m2 / np.where(W > 0, W, 1.0)
    return np.where(hi > lo, np.sqrt(np.maximum(var, 0.0)), 0.0), mean, W


def _segment_order(vals, seg, n_seg) -> np.ndarray:
    """The permutation ``np.lexsort((vals, seg))`` (by segment, then value, equal pairs in row order), about
    3x faster on all-distinct values: numpy's quicksort of the values, a stable radix sort of the segments
    (codes of 16 bits), then the runs of equal (segment, value) pairs put back in row order."""
    order = np.argsort(vals)
    key = seg[order]
    order = order[np.argsort(key.astype(np.int16) if n_seg < 1 << 15 else key, kind="stable")]
    sv, ss = vals[order], seg[order]
    tie = (sv[1:] == sv[:-1]) & (ss[1:] == ss[:-1])
    if tie.any():
        tied = np.flatnonzero(np.r_[tie, False] | np.r_[False, tie])
        run = np.cumsum(np.r_[True, ~tie])[tied]
        order[tied] = np.sort(run * len(vals) + order[tied]) % len(vals)  # (run, row) pairs as one integer
    return order


class _gaussian_only:
    """A method that exists on instances with ``density="gaussian"`` only (scikit-learn's ``available_if``): on
    others ``hasattr`` is False, so scikit-learn's checks and routers see no such method; on the class it is
    the plain function (signature, docs)."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        if obj.density != "gaussian":
            raise AttributeError(
                f"{self.fn.__name__} exists with density='gaussian' only (kernel densities keep every training value)"
            )
        return self.fn.__get__(obj, owner)


class GeneralNB(LogScoreMixin, BaseEstimator):
    """General naive Bayes, GNB: kernel densities for numeric attributes, counts for nominal ones.

    Wang et al. (2006) §3-4, eq. (10)-(13): p(x_i | c) is a Gaussian-kernel density with bandwidth
    h = c_X / √m, c_X chosen per attribute and class on a grid by leave-one-out cross-entropy (§4). A nominal
    code >= n_values is an error at fit and a missing value (no factor) at predict. See the module docstring.

    Parameters
    ----------
    density : {"kernel", "gaussian"}, default="kernel"
        Kernel densities (the paper) or one Gaussian per attribute and class.
    c_min, c_max, c_step : float, default=0.2, 0.8, 0.01
        The grid of c_X (§4).
    scale : {"range", "std", "none"}, default="range"
        The unit of h (module docstring).
    alpha : float, default=1.0
        Laplace pseudo-count for nominal attributes and the class prior.
    n_values : array-like of int, default=None
        Per column the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None = all numeric. A
        nominal code >= n_values is an error at fit and a missing value at predict.
    class_prior : array-like of shape (n_classes,), default=None
        Prior probabilities of the classes, as scikit-learn's naive Bayes takes them (their log becomes
        ``class_log_prior_``); None = the Laplace estimate (n_c + alpha) / (N + K alpha).
    fit_prior : bool, default=True
        False (and no ``class_prior``): a uniform class prior, as scikit-learn's ``fit_prior=False``. The
        leave-one-out scores the S-NBTree uses (:meth:`log_joint` with ``loo_y``) always remove a row from the
        estimated prior's counts.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Nominal values per column, 0 = numeric.
    class_count_ : ndarray of shape (n_classes,)
        Weighted class counts.
    bandwidth_c_ : ndarray of shape (n_features, n_classes)
        The chosen c_X (NaN for nominal or ignored columns, or with ``density="gaussian"``).
    bandwidth_ : ndarray of shape (n_features, n_classes)
        The h (kernel) or σ (gaussian) used.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).
    theta_ : ndarray of shape (n_classes, n_features)
        ``density="gaussian"`` only: per class the mean of each numeric column (NaN for nominal columns, ignored
        constant columns and classes without an observed value), as scikit-learn's ``GaussianNB.theta_``.
    var_ : ndarray of shape (n_classes, n_features)
        ``density="gaussian"`` only: the variance σ² each Gaussian uses, NaN where ``theta_`` is. It is the
        weighted population variance, as ``GaussianNB(var_smoothing=0).var_``; nbx adds no ``var_smoothing``
        (GaussianNB adds 1e-9 times the largest column variance to every variance) and instead replaces a
        class's variance of exactly 0 by the column's pooled variance over all classes.

    References
    ----------
    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems, §3-4, eq. (10)-(13).

    Notes
    -----
    Magnitudes. A numeric column whose largest |x| exceeds 1e100 or is below 1e-100 is fitted and predicted in a
    scaled domain, ``x * 2**-e`` with e the binary exponent of its training largest |x| (exact: a power of two).
    Kernel and Gaussian densities are scale-equivariant (h and σ scale with x), so this changes no posterior,
    but without it the ranges, deviations and squared distances of values near ±1.7e308 overflow (1e200: the
    Gaussian's variance) and those of values near 1e-310 underflow, and the model predicted the class prior
    where other learners separate the data. ``scale="none"`` (h in raw units, not scale-equivariant) is left
    unscaled. Columns of ordinary magnitude take exactly the computations they always did, bit for bit.
    Weights beyond [1e-100, 1e100] are made relative to the largest one
    (:func:`nbx.core.validation.relative_weights`).

    Examples
    --------
    >>> from nbx.models.kernel_nb import GeneralNB
    >>> X = [[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    >>> y = ["no", "no", "no", "yes", "no", "yes", "yes", "yes"]
    >>> model = GeneralNB().fit(X, y)
    >>> print(model.predict([[2.5], [6.5]]))
    ['no' 'yes']
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "density": [Options(*DENSITIES)],
        "c_min": [Interval(Real, 0, None, "neither")],
        "c_max": [Interval(Real, 0, None, "neither")],
        "c_step": [Interval(Real, 0, None, "neither")],
        "scale": [Options(*SCALES)],
        "alpha": [Interval(Real, 0, None, "left")],
        "n_values": N_VALUES,
        "class_prior": [ARRAY_LIKE, NONE],
        "fit_prior": [BOOLEAN],
    }

    def __init__(
        self,
        density: str = "kernel",
        c_min: float = 0.2,
        c_max: float = 0.8,
        c_step: float = 0.01,
        scale: str = "range",
        alpha: float = 1.0,
        n_values=None,
        class_prior=None,
        fit_prior: bool = True,
    ):
        self.density = density
        self.c_min = c_min
        self.c_max = c_max
        self.c_step = c_step
        self.scale = scale
        self.alpha = alpha
        self.n_values = n_values
        self.class_prior = class_prior
        self.fit_prior = fit_prior

    # ------------------------------------------------------------------ fitting
    def _check_params(self):  # the other parameters: _parameter_constraints, checked by fit (or the owning tree)
        if self.c_min > self.c_max:
            raise ValueError(f"need c_min <= c_max, got c_min={self.c_min!r}, c_max={self.c_max!r}")

    def fit_info(self) -> dict:
        """Where the §4 bandwidth search ended (for the reports): the share of (numeric attribute, class)
        constants c_X at the grid's lower and upper bounds. Many at the lower bound mean the leave-one-out
        criterion wanted narrower kernels than the grid allows, typical of attributes with few distinct,
        repeated values (letter, optdigits): ties make a narrow kernel look good to leave-one-out."""
        c = self.bandwidth_c_[np.isfinite(self.bandwidth_c_)] if self.density == "kernel" else np.array([])
        at = lambda bound: round(float(np.mean(np.isclose(c, bound))), 4) if c.size else None  # noqa: E731
        return {"kernel_c_at_min": at(self.c_min), "kernel_c_at_max": at(self.grid_()[-1])}

    def grid_(self) -> np.ndarray:
        """The grid of bandwidth constants c_X searched (``c_min`` to ``c_max`` by ``c_step``)."""
        n = int(np.floor((self.c_max - self.c_min) / self.c_step + 1e-9)) + 1
        return np.round(self.c_min + self.c_step * np.arange(n), 10)

    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric columns as floats, nominal columns as codes ``0 .. n_values[j]-1``; NaN (or a negative
            code in a nominal column) is a missing value.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values (0 = numeric); wins over the constructor's ``n_values``.

        Returns
        -------
        self : GeneralNB
            The fitted estimator.
        """
        X, nv, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        exponents = self.scaled_domain(X, nv)
        if exponents is not None:  # beyond ordinary magnitudes: fit (and later predict) on X * 2**-e
            X = np.ldexp(X, -exponents)
        self._fit_indexed(X, y_idx, w, nv, len(self.classes_))
        self._exponents = exponents
        return self

    def scaled_domain(self, X, nv) -> np.ndarray | None:
        """Per column the exponent e of the scaled domain ``X * 2**-e`` the model computes in (None: X itself,
        every numeric column of ordinary magnitude, :func:`nbx.discretize.base.magnitude_exponents`). The
        densities are scale-equivariant (h in units of the range or the std, the Gaussian's std), so a power of
        two changes every class's log-density of a column by the same constant and the posterior not at all;
        ``scale="none"`` measures h in raw units, which a scaling would change: its X is never scaled."""
        if self.density == "kernel" and self.scale == "none":
            return None
        return numeric_exponents(X, nv)

    def _fit_indexed(self, X, y_idx, w, nv, n_classes, subset=None):
        """Fit on class indices 0..n_classes-1 (some may be absent); used by the trees. ``subset``: fit on the
        rows ``X[subset]`` (a tree's child node), gathering a group of columns at a time instead of copying
        them all (y_idx and w are those rows')."""
        self._check_params()
        self._exponents = None  # a tree's GNB gets X already scaled (see fit)
        self.n_values_ = nv
        self.n_features_in_ = X.shape[1]
        self.n_classes_ = n_classes
        if not hasattr(self, "classes_") or len(self.classes_) != n_classes:
            self.classes_ = np.arange(n_classes)
        K = n_classes
        self.class_count_ = np.bincount(y_idx, weights=w, minlength=K)
        a = self.alpha
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(self.class_count_ + a) - np.log(self.class_count_.sum() + K * a)
        self.class_log_prior_ = given_log_prior(
            self.class_log_prior_, getattr(self, "class_prior", None), getattr(self, "fit_prior", True)
        )
        self._nominal = np.flatnonzero(nv > 0)
        self._numeric = np.flatnonzero(nv == 0)
        self._index = ValueIndex(nv[self._nominal])
        codes = nominal_codes(take_columns(X, subset, self._nominal), nv[self._nominal])
        self.feature_count_ = self._index.counts(codes, y_idx, w, K)[:-1]
        _, self.log_table_ = nb_log_tables(self.feature_count_, self.class_count_, self._index, "laplace", a)
        if subset is not None:
            self._fit_numeric(None, y_idx, w, lambda a0, a1: take_columns(X, subset, self._numeric[a0:a1]))
            return self
        all_numeric = len(self._numeric) == X.shape[1]  # then X itself, not a copy of it (memory)
        self._fit_numeric(X if all_numeric else X[:, self._numeric], y_idx, w)
        return self

    def _fit_numeric(self, Xn, y_idx, w, columns=None):
        """Fit the numeric attributes, the columns of ``Xn``, or with ``columns`` (a0, a1) -> those columns of the
        rows fitted (Xn None), gathered when needed."""
        if columns is None:
            columns = lambda a0, a1: Xn[:, a0:a1]  # noqa: E731
        K, dn = self.n_classes_, len(self._numeric)
        n_seg = dn * K
        self._n_seg_K = K
        self._seg_m = np.zeros(n_seg)
        self._seg_active = np.zeros(n_seg, bool)
        self.bandwidth_c_ = np.full((len(self.n_values_), K), np.nan)
        self.bandwidth_ = np.full((len(self.n_values_), K), np.nan)
        kernel = self.density == "kernel"
        self.loo_ce_ = np.full((n_seg, len(self.grid_())), np.nan) if kernel else None
        self._big = {}  # segment -> BinnedSet (more than EXACT_MAX centers)
        self._h = np.ones(n_seg)
        if not kernel and compiled_pays(len(y_idx) * dn, GAUSSIAN_COMPILED_FROM):  # one pass, no gathered copies
            from nbx.models.gaussian_loops import segment_moments

            Xg = Xn if Xn is not None else columns(0, dn)
            parts = [self._gaussian_segments(0, *segment_moments(Xg, y_idx, w, K))]
        else:
            parts = self._fit_groups(Xn, y_idx, w, columns)
        centers, logw, center_seg = (np.concatenate(c) for c in zip(*parts)) if dn else ([],) * 3
        self._set_centers(np.asarray(centers, float), np.asarray(logw, float), np.asarray(center_seg, int), self._h)

    def _fit_groups(self, Xn, y_idx, w, columns) -> list:
        """:meth:`_fit_group` over groups of attributes of at most a cap of observations (at least one
        attribute each): the arrays gathered per observation stay small. ``columns`` as in :meth:`_fit_numeric`
        (without Xn, the observations are counted a column at a time)."""
        dn, parts = len(self._numeric), []
        positive = w > 0
        if Xn is not None:
            observed = np.count_nonzero(~np.isnan(Xn) & positive[:, None], axis=0)
        else:
            observed = np.array([np.count_nonzero(~np.isnan(columns(a, a + 1)[:, 0]) & positive) for a in range(dn)])
        cap = min(GROUP_OBS, max(GROUP_MIN, int(observed.sum()) // GROUPS))
        a0 = 0
        while a0 < dn:
            a1 = a0 + 1
            while a1 < dn and observed[a0 : a1 + 1].sum() <= cap:
                a1 += 1
            parts.append(self._fit_group(columns(a0, a1), a0, y_idx, w, positive))
            a0 = a1
        return parts

    def _fit_group(self, Xn, a0, y_idx, w, positive):
        """Statistics, centers and the §4 bandwidth search of numeric attributes a0, a0 + 1, ... (the columns
        of Xn). Returns (centers, log weights, segments) of the segments summed exactly, or for the Gaussian
        density (means, log counts, segments)."""
        K, dn = self._n_seg_K, Xn.shape[1]
        n_seg, s0 = dn * K, a0 * K
        obs_i, obs_j = np.nonzero(~np.isnan(Xn) & positive[:, None])
        vals = Xn[obs_i, obs_j]
        ow = w[obs_i]
        seg = obs_j * K + y_idx[obs_i]
        del obs_i
        pooled_std, _, _ = _weighted_std(vals, ow, obs_j, dn)
        del obs_j
        seg_std, seg_mean, seg_m = _weighted_std(vals, ow, seg, n_seg)
        if self.density == "gaussian":
            return self._gaussian_segments(a0, pooled_std, seg_std, seg_mean, seg_m)
        active, seg_std = self._activate(a0, pooled_std, seg_std, seg_m)
        cols = self._numeric[a0 : a0 + dn]
        # Distinct (segment, value) pairs are the kernel centers, with summed weights.
        keep = active[seg]
        seg, vals, ow = seg[keep], vals[keep], ow[keep]
        order = _segment_order(vals, seg, n_seg)
        seg, vals, ow = seg[order], vals[order], ow[order]
        del order, keep
        new = np.ones(len(vals), bool)
        new[1:] = (seg[1:] != seg[:-1]) | (vals[1:] != vals[:-1])
        center_of_obs = np.cumsum(new) - 1
        centers, center_seg = vals[new], seg[new]
        center_w = np.bincount(center_of_obs, ow)
        spread = self._scale(vals, seg, n_seg, seg_std, K)
        del vals, seg, new
        base = np.where(active, spread / np.sqrt(np.where(seg_m > 0, seg_m, 1.0)), 1.0)
        # Observations scored by the LOO criterion: (center, removed weight) pairs with summed weight.
        obs_center, obs_w, obs_r = loo_pairs(center_of_obs, ow, center_w)
        del center_of_obs, ow
        grid = self.grid_()
        sizes = np.bincount(center_seg, minlength=n_seg)
        big = sizes > EXACT_MAX
        ce = np.full((n_seg, len(grid)), np.nan)
        small_center = ~big[center_seg]
        if small_center.all():  # every segment summed exactly (all of the papers' data)
            ce = loo_cross_entropy(centers, np.log(center_w), center_seg, obs_center, obs_w, obs_r, seg_m, base, grid)
        else:
            new_index = np.cumsum(small_center) - 1
            small_obs = small_center[obs_center]
            if small_center.any():
                ce = loo_cross_entropy(
                    centers[small_center],
                    np.log(center_w[small_center]),
                    center_seg[small_center],
                    new_index[obs_center[small_obs]],
                    obs_w[small_obs],
                    obs_r[small_obs],
                    seg_m,
                    base,
                    grid,
                )
            starts = np.r_[0, np.cumsum(sizes)]
            obs_starts = np.searchsorted(obs_center, starts)
            for s in np.flatnonzero(big):
                c, cw = centers[starts[s] : starts[s + 1]], center_w[starts[s] : starts[s + 1]]
                o = slice(obs_starts[s], obs_starts[s + 1])
                ce[s] = binned_search(c, cw, obs_center[o] - starts[s], obs_w[o], obs_r[o], seg_m[s], base[s], grid)
        del obs_center, obs_w, obs_r  # searched: they go before the kept sets copy their centers
        finite = np.isfinite(ce)
        best = np.where(finite.any(axis=1), np.argmin(np.where(finite, ce, np.inf), axis=1), len(grid) - 1)
        c = grid[best]
        h = c * base
        self.loo_ce_[s0 : s0 + n_seg] = ce
        self._h[s0 : s0 + n_seg] = h
        self.bandwidth_c_[cols] = np.where(active, c, np.nan).reshape(dn, K)
        self.bandwidth_[cols] = np.where(active, h, np.nan).reshape(dn, K)
        if not small_center.all():
            from nbx.models.binned_kde import BinnedSet

            starts = np.r_[0, np.cumsum(sizes)]
            for s in np.flatnonzero(big):
                c, cw = centers[starts[s] : starts[s + 1]].copy(), center_w[starts[s] : starts[s + 1]].copy()
                self._big[s0 + s] = BinnedSet(c, cw, h[s], seg_m[s])
        keep = small_center
        return centers[keep], np.log(center_w[keep]), s0 + center_seg[keep]

    def _activate(self, a0, pooled_std, seg_std, seg_m):
        """Marks active the segments (from a0's) of training weight whose attribute is not constant (a pooled std
        of 0 marks a constant, ignored attribute); returns them and their std (a class's std of 0 replaced by
        the pooled one)."""
        K = self._n_seg_K
        s0, n_seg = a0 * K, len(seg_m)
        attr_of_seg = np.repeat(np.arange(n_seg // K), K)
        active = (seg_m > 0) & (pooled_std[attr_of_seg] > 0)
        self._seg_m[s0 : s0 + n_seg] = seg_m
        self._seg_active[s0 : s0 + n_seg] = active
        return active, np.where(seg_std > 0, seg_std, pooled_std[attr_of_seg])

    def _gaussian_segments(self, a0, pooled_std, seg_std, seg_mean, seg_m):
        """The Gaussian reading's fit of the segments from a0's: the std is h; returns (means, log weights,
        segments) of the active segments."""
        active, seg_std = self._activate(a0, pooled_std, seg_std, seg_m)
        K = self._n_seg_K
        s0, n_seg = a0 * K, len(seg_m)
        h = np.where(active, seg_std, 1.0)
        self._h[s0 : s0 + n_seg] = h
        self.bandwidth_[self._numeric[a0 : a0 + n_seg // K]] = np.where(active, h, np.nan).reshape(-1, K)
        return seg_mean[active], np.log(seg_m[active]), s0 + np.flatnonzero(active)

    def _scale(self, vals, seg, n_seg, seg_std, K):
        """Unit of h per (attribute, class) segment (see ``scale`` in the module docstring)."""
        if self.scale == "std":
            return seg_std
        if self.scale == "none":
            return np.ones(n_seg)
        rng = _spread(vals, seg, n_seg)
        pooled = _spread(vals, seg // K, n_seg // K)  # the attribute's range over all classes
        return np.where(rng > 0, rng, np.repeat(pooled, K))

    def _set_centers(self, centers, logw, center_seg, h_seg):
        self._centers = centers
        self._center_logw = logw
        self._center_seg = center_seg
        self._seg_logh = np.log(h_seg)
        self._seg_h = h_seg
        # Each attribute's centers are contiguous: [_attr_lo[a], _attr_hi[a]).
        attr_starts = np.arange(len(self._numeric) + 1) * self._n_seg_K
        self._attr_lo = np.searchsorted(center_seg, attr_starts[:-1])
        self._attr_hi = np.searchsorted(center_seg, attr_starts[1:])
        # Each segment's centers are contiguous: [_seg_lo[s], _seg_hi[s]).
        segments = np.arange(len(self._numeric) * self._n_seg_K)
        self._seg_lo = np.searchsorted(center_seg, segments)
        self._seg_hi = np.searchsorted(center_seg, segments, side="right")
        if self.density == "kernel":  # its evaluation reads the segments through _seg_lo/_seg_hi (memory)
            self._center_seg = None

    def release_grids(self) -> None:
        """Drops the binned sets' grids (:meth:`BinnedSet.release <nbx.models.binned_kde.BinnedSet.release>`):
        a model kept for later (the S-NBTree's nodes still to be decided) holds its centers only; the next
        evaluation builds the grids again, the same values."""
        for big in self._big.values():
            big.release()

    # ------------------------------------------------------------------ evaluation
    def numeric_log_density(self, X, loo_y=None, loo_r=None, plain=None, cols=slice(None), subset=None) -> np.ndarray:
        """log p̂(x_i | c) per numeric attribute, shape (n, n_numeric, K); 0 = no factor (missing/ignored).
        ``cols``: a slice of the numeric attributes (positions in their order) to compute alone, the columns
        of the whole output (each density is its own). ``subset``: the rows ``X[subset]`` (n = len(subset)),
        of which only the columns needed are gathered.

        With ``loo_y``/``loo_r`` (training rows only, kernel density): the density of the row's own class
        leaves one copy (weight ``loo_r``) of the row out, as in the LOO criterion of §4. The other classes'
        densities are those without leave-one-out: ``plain`` (this method's output for X without
        ``loo_y``) when the caller has it, else computed here; only the own class is recomputed.

        Densities are computed once per distinct query (attribute and value; with leave-one-out, own
        segment, value and removed weight) and gathered back to the rows: attributes with few distinct
        values (letter, optdigits) cost (#values x centers) instead of (rows x centers).
        """
        X = np.asarray(X, dtype=float)
        a0, a1, _ = cols.indices(len(self._numeric))
        Xn = take_columns(X, subset, self._numeric[a0:a1])
        n, dn, K = Xn.shape[0], Xn.shape[1], self._n_seg_K
        out = np.zeros((n, dn, K))
        if (len(self._centers) == 0 and not self._big) or n == 0 or dn == 0:
            return out
        observed = ~np.isnan(Xn)
        if self.density == "gaussian":  # one center per class: the log-sum-exp is the single term
            centers = slice(self._attr_lo[a0], self._attr_hi[a1 - 1])
            seg = self._center_seg[centers]
            out[:, seg // K - a0, seg % K] = self._log_kernel(Xn[:, seg // K - a0], centers) - np.log(self._seg_m[seg])
            out[~observed] = 0.0
            return out
        if loo_y is not None:
            out = (self.numeric_log_density(X, cols=cols, subset=subset) if plain is None else plain).copy()
        exact = observed
        if self._big:  # the segments of more than EXACT_MAX centers: binned sums (binned_kde), per segment
            exact = observed.copy()
            if loo_y is None:
                exact[:, (self._attr_lo == self._attr_hi)[a0:a1]] = False  # attributes without exact segments
            for s, big in self._big.items():
                a, k = divmod(s, K)
                if not a0 <= a < a1:
                    continue
                a -= a0
                rows = np.flatnonzero(observed[:, a] if loo_y is None else observed[:, a] & (loo_y == k))
                x = Xn[:, a][rows]  # through the column: a 1-d gather and scatter, not (rows, a, k) triples
                col = out[:, a, k]
                own = r = None
                if loo_y is not None:
                    exact[:, a][rows] = False
                    own = np.minimum(np.searchsorted(big.centers, x), len(big.centers) - 1)
                    own = np.where(big.centers[own] == x, own, -1)
                    r = loo_r[rows]
                dens = big.log_sums(x, own, r) - np.log(big.h) - HALF_LOG_2PI - np.log(self._seg_m[s])
                col[rows] = dens if loo_y is None else dens + self._loo_normalizer(np.full(len(rows), s), r)
        rows, attrs = np.nonzero(exact)
        if loo_y is not None:
            own = (attrs + a0) * K + loo_y[rows]
            dens, has = self._own_loo_log_density(own, Xn[rows, attrs], loo_r[rows])
            out[rows[has], attrs[has], loo_y[rows[has]]] = dens[has]
            out[rows, attrs, loo_y[rows]] += self._loo_normalizer(own, loo_r[rows])
            return out
        values, key = np.unique(Xn[rows, attrs], return_inverse=True)
        queries, query_of_pair = np.unique(attrs * len(values) + key.ravel(), return_inverse=True)
        q_attr, q_value = np.divmod(queries, len(values))
        dens = np.zeros((len(queries), K))
        no_own = (np.full(len(queries), -1), np.zeros(len(queries)))
        self._log_densities(values[q_value], (q_attr + a0) * K, K, *no_own, dens)
        dens = dens[query_of_pair.ravel()]
        if self._big:  # keep the binned densities
            big = np.zeros((len(self._numeric), K), bool)
            big.flat[list(self._big)] = True
            dens = np.where(big[a0:a1][attrs], out[rows, attrs], dens)
        out[rows, attrs] = dens
        return out

    def _log_densities(self, x, seg, n_classes, own, r, out) -> None:
        """:func:`nbx.models.kernel_loops._log_densities` over this model's centers (numba loaded on first use)."""
        from nbx.models.kernel_loops import _log_densities

        centers = (self._seg_lo, self._seg_hi, self._centers, self._center_logw, self._seg_logh, self._seg_h)
        _log_densities(x, seg, n_classes, own, r, *centers, self._seg_m, HALF_LOG_2PI, out)

    def _own_loo_log_density(self, seg, x, r):
        """log p̂ of each (segment, value x, removed weight r) over the segment's own centers, the center of
        value x losing weight r (one copy of a training row left out, §4), and whether the segment has
        centers. Computed once per distinct triple (:meth:`_log_densities`)."""
        values, v = np.unique(x, return_inverse=True)
        r_values, rr = np.unique(r, return_inverse=True)
        queries, query_of_pair = np.unique(
            (seg * len(values) + v.ravel()) * len(r_values) + rr.ravel(), return_inverse=True
        )
        q_seg, q_x = queries // len(r_values) // len(values), values[queries // len(r_values) % len(values)]
        q_r = r_values[queries % len(r_values)]
        cand, found = self._find_centers(q_seg, q_x)
        dens = np.zeros((len(queries), 1))
        self._log_densities(q_x, q_seg, 1, np.where(found, cand, -1), q_r, dens)
        has = self._seg_lo[q_seg] < self._seg_hi[q_seg]
        return dens[query_of_pair.ravel(), 0], has[query_of_pair.ravel()]

    def _log_kernel(self, x, centers: slice) -> np.ndarray:
        """log(W_u / h · φ((x - x_u) / h)) for the given centers; x broadcasts against them."""
        seg = self._center_seg[centers]
        return (self._center_logw[centers] - self._seg_logh[seg] - HALF_LOG_2PI) - 0.5 * (
            (x - self._centers[centers]) / self._seg_h[seg]
        ) ** 2

    def _loo_normalizer(self, seg, r) -> np.ndarray:
        """log m - log(m - r) of the own class's density normalizer when one copy (r) leaves it (0 when
        the class would be emptied: masked out later by log_joint)."""
        m = self._seg_m[seg]
        rest = m - r
        with np.errstate(divide="ignore"):
            return np.where(rest > 0, np.log(np.where(m > 0, m, 1.0)) - np.log(np.where(rest > 0, rest, 1.0)), 0.0)

    def _find_centers(self, seg, vals):
        """Index of the center (segment, value) for each query and whether it exists, by (segment, value rank)
        keys of the centers of the queried segments' range (increasing: centers are sorted by segment, then
        value), made per call rather than kept with the model for all centers."""
        none = np.zeros(len(seg), np.int64), np.zeros(len(seg), bool)
        if not len(seg):
            return none
        s0, s1 = int(seg.min()), int(seg.max()) + 1
        lo, hi = self._seg_lo[s0], self._seg_hi[s1 - 1]
        centers = self._centers[lo:hi]
        if not len(centers):  # no center in the queried segments
            return none
        values = np.unique(centers)
        nv = len(values)
        center_key = np.repeat(np.arange(s0, s1), self._seg_hi[s0:s1] - self._seg_lo[s0:s1]) * nv
        center_key += np.searchsorted(values, centers)
        rank = np.minimum(np.searchsorted(values, vals), nv - 1)
        key = seg * nv + rank
        pos = np.minimum(np.searchsorted(center_key, key), len(center_key) - 1)
        return lo + pos, (values[rank] == vals) & (center_key[pos] == key)

    def log_joint(self, X, loo_y=None, loo_r=None, numeric_sum=None, subset=None) -> np.ndarray:
        """log P(c) + Σ log p(x_i|c) + Σ log P(x_j|c), shape (n, K); absent classes -inf.

        With ``loo_y``/``loo_r`` each training row's own class is scored without one copy of the row
        (counts, prior and kernel densities): the leave-one-out estimate used by the S-NBTree.
        ``numeric_sum``: Σ log p(x_i|c) (with the same leave-one-out) when the caller has it
        (:meth:`add_attributes`), else computed here. ``subset``: score the rows ``X[subset]``; with
        ``numeric_sum`` only their nominal columns are gathered.
        """
        X = check_mixed_X(self, X)
        if getattr(self, "_exponents", None) is not None:  # fitted in the scaled domain (see fit)
            X = np.ldexp(X, -self._exponents)
        if subset is not None and numeric_sum is None:
            X, subset = X[subset], None
        codes = nominal_codes(take_columns(X, subset, self._nominal), self.n_values_[self._nominal])
        K = self.n_classes_
        rows = self._index.rows(codes)
        out = self.class_log_prior_ + self._index.lookup_sum(self.log_table_, codes)
        if loo_y is not None:
            out = out + self._nominal_loo_shift(rows, loo_y, loo_r)
        out = out + (self._numeric_log_sum(X, loo_y, loo_r) if numeric_sum is None else numeric_sum)
        counts = self.class_count_[None, :] - (np.eye(K)[loo_y] * loo_r[:, None] if loo_y is not None else 0)
        out = np.where(counts > 1e-12, out, -np.inf)
        dead = ~np.isfinite(out).any(axis=1)
        if np.any(dead):  # no class left with a finite score: fall back to the prior
            out[dead] = np.where(self.class_count_ > 0, self.class_log_prior_, -np.inf)
        return out

    def _numeric_log_sum(self, X, loo_y, loo_r) -> np.ndarray:
        """:meth:`numeric_log_density` summed over the numeric attributes, (n, K), without the whole (rows,
        attributes, classes) array (at 10^6 rows x 20 attributes x 3 classes, 480 MB and its temporaries) unless
        with leave-one-out: the kernel densities a group of attributes at a time (:meth:`attribute_groups`, each
        distinct value's density computed once per group), the Gaussian reading's, which are elementwise, over
        blocks of rows or compiled (:mod:`nbx.models.gaussian_loops`); the same sums to the bit."""
        if loo_y is not None:
            return self.numeric_log_density(X, loo_y, loo_r).sum(axis=1)
        if self.density == "kernel":
            total = np.zeros((len(X), self.n_classes_))
            for cols in self.attribute_groups(len(X), SUM_ENTRIES):
                self.add_attributes(total, self.numeric_log_density(X, cols=cols))
            return total
        total = np.empty((len(X), self.n_classes_))
        if self.n_classes_ > 1 and compiled_pays(len(X) * len(self._numeric), GAUSSIAN_COMPILED_FROM):
            from nbx.models.gaussian_loops import log_density_sums

            log_density_sums(np.asarray(X, dtype=float), self._numeric, self.n_classes_, *self._gaussian_terms(), total)
            return total
        for rows in row_blocks(len(X), len(self._numeric) * self.n_classes_):
            total[rows] = self.numeric_log_density(X[rows]).sum(axis=1)
        return total

    def _gaussian_terms(self):
        """Per segment the constants of :meth:`_log_kernel` and the normalizer as the array route computes them
        (log W - log h - log √(2π), mean, h, log m; NaN mean and h where the segment is inactive)."""
        n_seg = len(self._seg_lo)
        const, mean, h = np.zeros(n_seg), np.full(n_seg, np.nan), np.full(n_seg, np.nan)
        seg = self._center_seg
        const[seg] = self._center_logw - self._seg_logh[seg] - HALF_LOG_2PI
        mean[seg], h[seg] = self._centers, self._seg_h[seg]
        return const, mean, h, np.log(np.where(self._seg_m > 0, self._seg_m, 1.0))

    def _nominal_loo_shift(self, rows, y, r):
        """Change of the own-class log prior and nominal log terms when one copy (r) of the row is removed."""
        a, K = self.alpha, self.n_classes_
        n = len(y)
        shift = np.zeros((n, K))
        nc = self.class_count_[y]
        with np.errstate(divide="ignore", invalid="ignore"):
            # The prior's denominator N + Kα loses r for every class; its numerator only for the own class.
            N = self.class_count_.sum()
            shift += (np.log(N + K * a) - np.log(N - r + K * a))[:, None]
            total = np.log(nc - r + a) - np.log(nc + a)
            if rows.shape[1]:
                observed = rows < self._index.n_rows
                safe = np.where(observed, rows, 0)
                ncv = self.feature_count_[safe, y[:, None]]
                attr = self._index.attribute_of_row[safe]
                ncj = self._index.per_attribute_totals(self.feature_count_)[attr, y[:, None]]
                V = self._index.n_values[attr]
                d = (
                    np.log(ncv - r[:, None] + a)
                    - np.log(ncv + a)
                    - np.log(ncj - r[:, None] + V * a)
                    + np.log(ncj + V * a)
                )
                total = total + np.where(observed, d, 0.0).sum(axis=1)
        shift[np.arange(n), y] += np.where(np.isfinite(total), total, -np.inf)
        return shift

    def loo_correct(self, X, y_idx, w, numeric_sum=None, subset=None) -> float:
        """Weighted number of training rows the leave-one-out GNB (one copy, weight min(w, 1), of each row out)
        classifies correctly (``numeric_sum``, ``subset``: see :meth:`log_joint`). With ``numeric_sum`` the log
        joint, a row's own, is made for a block of rows at a time (its (rows, classes) temporaries stay small);
        the weights of the rows classified correctly are then summed as one array, as before."""
        r = np.minimum(w, 1.0)
        if numeric_sum is None:
            return float(np.sum(w * (np.argmax(self.log_joint(X, y_idx, r, None, subset), axis=1) == y_idx)))
        right = np.empty(len(y_idx), bool)
        for rows in row_blocks(len(y_idx), self.n_classes_):
            Xb, sub = (X[rows], None) if subset is None else (X, subset[rows])
            joint = self.log_joint(Xb, y_idx[rows], r[rows], numeric_sum[rows], sub)
            right[rows] = np.argmax(joint, axis=1) == y_idx[rows]
        return float(np.sum(w * right))

    def attribute_groups(self, n_rows: int, entries: int):
        """Slices of the numeric attributes, in order, whose densities (n_rows, attributes, classes) hold about
        ``entries`` values (at least one attribute); one slice of all of them with a single class, whose sum
        over attributes numpy adds pairwise (:meth:`add_attributes`)."""
        dn, K = len(self._numeric), self.n_classes_
        width = max(dn, 1) if K == 1 else max(1, min(dn, entries // max(n_rows * K, 1)))
        return [slice(a, a + width) for a in range(0, dn, width)]

    @staticmethod
    def add_attributes(total, dens) -> None:
        """total += dens (n, attributes, K) summed over its attributes. Over the groups of
        :meth:`attribute_groups`, from total = 0, this is numpy's ``whole.sum(axis=1)`` bit for bit: with K > 1
        numpy adds the attributes one after another to 0 (its inner loop runs over the classes); with K == 1
        the axis is a contiguous run that numpy adds pairwise, so there is one group, summed by numpy."""
        if dens.shape[2] == 1:
            total += dens.sum(axis=1)
            return
        for j in range(dens.shape[1]):
            total += dens[:, j]

    def _class_scores(self, X) -> np.ndarray:
        return self.log_joint(X)

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """Joint log density log p(x, c) = log P(c) + Σ_i log p(x_i | c) of each row and class, as scikit-learn's
        naive Bayes ``predict_joint_log_proba``; a missing value contributes no factor, a class without
        training rows scores -inf.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        joint : ndarray of shape (n_samples, n_classes)
            log p(x, c), columns in the order of ``classes_`` (:meth:`log_joint` without leave-one-out).
        """
        return self.log_joint(X)

    @_gaussian_only
    def partial_fit(self, X, y, classes=None, sample_weight=None, n_values=None):
        """Add a batch of rows to the Gaussian reading (``density="gaussian"``), as ``GaussianNB.partial_fit``.

        Per (numeric column, class) the weighted count, mean and sum of squared deviations are merged batch by
        batch (Chan, Golub & LeVeque's pairwise update), with the smallest and largest value (a class whose
        values are all equal has variance 0, replaced by the column's pooled one, as in ``fit``); nominal
        columns add their counts. The model is ``fit``'s on the concatenated batches up to rounding (the
        merged moments are not the two-pass sums of ``fit``: about 1e-15 relative). ``fit`` keeps no moments,
        so partial_fit begins a model of its own: calling it on a model fitted by ``fit`` is an error. With
        ``density="kernel"`` the method does not exist (``hasattr`` is False, as scikit-learn's ``available_if``
        makes it): kernel densities keep every training value.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric columns as floats, nominal columns as codes; NaN (or a negative code) is a missing value.
            A numeric column beyond ordinary magnitudes (largest |x| above 1e100 or below 1e-100), which
            ``fit`` computes in a scaled domain, is refused.
        y : array-like of shape (n_samples,)
            Class labels, among ``classes``.
        classes : array-like, default=None
            Every class label; required on the first call.
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts; the largest must lie in [1e-100, 1e100] (the batches add up).
        n_values : array-like of int, default=None
            Per column the number of nominal values, 0 = numeric (first call; the constructor's when None).

        Returns
        -------
        self : GeneralNB
            The updated estimator.
        """
        _check_batch_weights(sample_weight)
        validate_params(self)
        first = not hasattr(self, "_seg_moments")
        if first:
            if hasattr(self, "class_count_"):
                raise ValueError(
                    "partial_fit cannot continue a GeneralNB fitted by fit (fit keeps no moments); "
                    "use partial_fit for every batch"
                )
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
            arr = check_array(self, X, fit=True).astype(np.float64, copy=False)
            self.classes_, y_idx = check_labels(y, self, classes)
        else:
            if classes is not None and not np.array_equal(np.unique(np.asarray(classes)), self.classes_):
                raise ValueError(
                    f"classes={list(classes)} is not the same as on the first call to partial_fit, "
                    f"was: {list(self.classes_)}"
                )
            arr = check_array(self, X, fit=False).astype(np.float64, copy=False)
            _, y_idx = check_labels(y, self, self.classes_)
        check_consistent_length(arr, y_idx)
        w = check_sample_weight(sample_weight, arr.shape[0])
        if first:
            set_input_features(self, X, arr)
        arr, y_idx, w, _ = drop_absent_rows(arr, y_idx, w, self.classes_, keep_classes=True)
        nv = mixed_n_values(arr, self.n_values_ if not first else n_values if n_values is not None else self.n_values)
        if numeric_exponents(arr, nv) is not None:
            raise ValueError(
                "partial_fit: a numeric column beyond ordinary magnitudes (largest |x| above 1e100 or below "
                "1e-100); fit scales such columns as a whole, batches cannot be"
            )
        K = len(self.classes_)
        if first:
            self.n_values_, self.n_classes_ = nv, K
            self._nominal, self._numeric = np.flatnonzero(nv > 0), np.flatnonzero(nv == 0)
            self._index = ValueIndex(nv[self._nominal])
            self.class_count_ = np.zeros(K)
            self.feature_count_ = np.zeros((self._index.n_rows, K))
            self._seg_moments = _empty_moments(len(self._numeric) * K)
            self._attr_moments = _empty_moments(len(self._numeric))
        self.class_count_ = self.class_count_ + np.bincount(y_idx, weights=w, minlength=K)
        codes = nominal_codes(arr[:, self._nominal], nv[self._nominal])
        self.feature_count_ = self.feature_count_ + self._index.counts(codes, y_idx, w, K)[:-1]
        Xn = arr[:, self._numeric]
        obs_i, obs_j = np.nonzero(~np.isnan(Xn))
        vals, ow = Xn[obs_i, obs_j], w[obs_i]
        dn = len(self._numeric)
        self._seg_moments = _merge_moments(self._seg_moments, _moments(vals, ow, obs_j * K + y_idx[obs_i], dn * K))
        self._attr_moments = _merge_moments(self._attr_moments, _moments(vals, ow, obs_j, dn))
        return self._fit_moments()

    def _fit_moments(self):
        """The Gaussian reading's model from the merged moments of :meth:`partial_fit` (what ``fit`` computes
        from the rows: the prior, the nominal tables, the segments' means and deviations)."""
        self._check_params()
        self._exponents = None
        K, dn = self.n_classes_, len(self._numeric)
        a = self.alpha
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(self.class_count_ + a) - np.log(self.class_count_.sum() + K * a)
        self.class_log_prior_ = given_log_prior(self.class_log_prior_, self.class_prior, self.fit_prior)
        _, self.log_table_ = nb_log_tables(self.feature_count_, self.class_count_, self._index, "laplace", a)
        n_seg = dn * K
        self._n_seg_K = K
        self._seg_m = np.zeros(n_seg)
        self._seg_active = np.zeros(n_seg, bool)
        self.bandwidth_c_ = np.full((len(self.n_values_), K), np.nan)
        self.bandwidth_ = np.full((len(self.n_values_), K), np.nan)
        self.loo_ce_ = None
        self._big = {}
        self._h = np.ones(n_seg)
        seg_std, seg_mean, seg_m = _moment_std(self._seg_moments)
        pooled_std, _, _ = _moment_std(self._attr_moments)
        centers, logw, center_seg = self._gaussian_segments(0, pooled_std, seg_std, seg_mean, seg_m)
        self._set_centers(np.asarray(centers, float), np.asarray(logw, float), np.asarray(center_seg, int), self._h)
        return self

    def _gaussian_moments(self) -> tuple[np.ndarray, np.ndarray]:
        """(means, variances) of the Gaussian reading, shape (n_classes, n_features), in X's own units."""
        if not hasattr(self, "_seg_h"):
            raise AttributeError(f"{type(self).__name__} is not fitted: theta_ and var_ exist after fit")
        if self.density != "gaussian":
            raise AttributeError("theta_ and var_ exist with density='gaussian' only (a kernel has no one mean)")
        K, d = self.n_classes_, len(self.n_values_)
        theta, var = np.full((K, d), np.nan), np.full((K, d), np.nan)
        seg = self._center_seg
        cols, cls = self._numeric[seg // K], seg % K
        theta[cls, cols] = self._centers
        var[cls, cols] = self._seg_h[seg] ** 2
        exponents = getattr(self, "_exponents", None)
        if exponents is not None:  # fitted in the scaled domain X * 2**-e (see fit): back to X's units
            theta = np.ldexp(theta, exponents[None, :])
            var = np.ldexp(var, 2 * exponents[None, :])
        return theta, var

    @property
    def theta_(self) -> np.ndarray:
        """Per class the mean of each numeric column (``density="gaussian"``; see the class docstring)."""
        return self._gaussian_moments()[0]

    @property
    def var_(self) -> np.ndarray:
        """Per class the variance of each numeric column (``density="gaussian"``; see the class docstring)."""
        return self._gaussian_moments()[1]
