"""Naive Bayes on discrete attributes with the priors used by the five papers.

P(c | x) ∝ P(c) · Π_j P(x_j | c), computed in log space; a missing value contributes no factor.
Counts are weighted (boosting needs it), and a weight of k equals k copies of a row.

Priors (``prior``):

``laplace`` (``alpha``, ``denominator``)
    P(c) = (n_c + α) / (N + Kα). α = 1 is Laplace's rule; α = γ = 0.1 is Wiering (2003) §2.2, whose
    counters all start at γ. ``alpha_jitter`` adds U(0, jitter) to every initial counter (Wiering §4:
    γ = 0.1 + rand(0, 0.01)), drawn from ``random_state``. ``denominator`` chooses what P(v | c) divides by:

    - ``"attribute"`` (default): the counters of attribute j summed over its values,
      P(v | c) = (n_cv + α) / (n_cj + V_j α), with n_cj the class-c rows whose attribute j is observed, so
      each P(· | c) is a distribution over the values of j.
    - ``"class"``: the class counter, as Wiering §2.2 writes it, P_j(v | c) = c_j(v, c) / c(c) =
      (n_cv + α) / (n_c + α), with n_c all class-c rows. Then Σ_v P(v | c) = (n_cj + V_j α) / (n_c + α)
      need not be 1 (it exceeds 1 when V_j > 1 and no value of j is missing). Relative to the
      per-attribute form, each attribute multiplies class c's score by (n_cj + V_j α) / (n_c + α), which
      is largest for rare classes and attributes with many values.
``m_estimate`` (``m``)
    Ting & Zheng (2003) §2, after Cestnik (1990), m = 2: P(v | c) = (n_cv + m·p_v) / (n_cj + m).
    Cestnik takes the prior p_v from the data; we use its Laplace estimate p_v = (n_v + 1) / (N_j + V_j).
    P(c) uses Laplace's rule, the estimate Cestnik recommends for the class prior.
``kang``
    Kang & Tian (2006) eq. 4: P(v | c) = (n_cv + 1/N) / (n_c + V_j/N), N the training-set size (the
    weight total). The paper gives no class prior; we use the same form, P(c) = (n_c + 1/N) / (N + K/N).
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np

from nbx.core.base import (
    CLASS_LABELS,
    N_VALUES,
    BaseEstimator,
    LogScoreMixin,
    as_codes,
    check_discrete_fit,
    check_discrete_X,
    check_rng,
    compiled_pays,
    resolve_n_values,
    validate_params,
)
from nbx.core.counting import ValueIndex, log_normalize, present_classes, sum_rows
from nbx.core.validation import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    ORDINARY_WEIGHT,
    RANDOM_STATE,
    Interval,
    Options,
    check_array,
    check_consistent_length,
    check_labels,
    check_sample_weight,
    drop_absent_rows,
)

PRIORS = ("laplace", "m_estimate", "kang")
MIN_PSEUDO_COUNT = 1e-10  # alpha / m below this are raised to it (scikit-learn's naive Bayes does the same)
DENOMINATORS = ("attribute", "class")
# (rows x attributes) of a boosting round from which its compiled loops pay for loading numba (about 0.45 s a
# process): about 10 ns saved per cell and round, so 100 rounds over ten folds of 2^15 cells save about that
BOOST_COMPILED_FROM = 1 << 15


def _check_batch_weights(sample_weight) -> None:
    """partial_fit's weights: a largest weight beyond [1e-100, 1e100] is refused (one line), as no batch's
    weights can be made relative on their own (see :func:`nbx.core.validation.relative_weights`)."""
    if sample_weight is None:
        return
    try:
        top = float(np.max(np.asarray(sample_weight, dtype=np.float64), initial=0.0))
    except (TypeError, ValueError):  # check_sample_weight explains
        return
    if top > ORDINARY_WEIGHT or 0 < top < 1 / ORDINARY_WEIGHT:
        raise ValueError(
            f"sample_weight of partial_fit must have its largest value in [1e-100, 1e100], got {top!r}: the "
            "batches' weights add up, so they cannot be rescaled one batch at a time; divide all batches' "
            "weights by one common factor"
        )


def _boost_compiled(table_rows: np.ndarray) -> bool:
    return compiled_pays(table_rows.size, BOOST_COMPILED_FROM)


def nb_log_tables(
    value_counts: np.ndarray,
    class_counts: np.ndarray,
    index: ValueIndex,
    prior: str = "laplace",
    alpha: float = 1.0,
    m: float = 2.0,
    jitter: np.ndarray | None = None,
    *,
    denominator: str = "attribute",
) -> tuple[np.ndarray, np.ndarray]:
    """Log class prior (K,) and log conditional table (index.n_rows + 1, K).

    ``value_counts`` (n_rows, K) are weighted attribute-value/class counts (missing values excluded),
    ``class_counts`` (K,) weighted class totals. The table's last row (missing values) is zero.
    ``jitter`` ((n_rows + 1, K), optional) is added to the initial counters of the ``laplace`` prior, its
    last row to the class counters. ``denominator`` (``laplace`` only): ``"attribute"`` or ``"class"``,
    see the module docstring.
    """
    if prior not in PRIORS:
        raise ValueError(f"unknown prior {prior!r}; choose one of {PRIORS}")
    if denominator not in DENOMINATORS:
        raise ValueError(f"unknown denominator {denominator!r}; choose one of {DENOMINATORS}")
    if denominator == "class" and prior != "laplace":
        raise ValueError(f"denominator='class' is the laplace prior's counter form (Wiering §2.2), not {prior!r}'s")
    n_classes = class_counts.shape[0]
    n_total = class_counts.sum()
    observed = index.per_attribute_totals(value_counts)  # n_cj, shape (d, K)
    n_values = index.n_values[:, None]
    if prior == "laplace":
        init = alpha + (jitter[:-1] if jitter is not None else 0.0)
        class_init = alpha + (jitter[-1] if jitter is not None else 0.0)
        num = value_counts + init
        if denominator == "class":
            log_cond = np.log(num) - np.log(class_counts + class_init)
        else:
            den = index.per_attribute_totals(num)
            log_cond = np.log(num) - np.log(den)[index.attribute_of_row]
        log_prior = np.log(class_counts + class_init) - np.log((class_counts + class_init).sum())
    elif prior == "m_estimate":
        value_totals = value_counts.sum(axis=1)
        attr_totals = observed.sum(axis=1)
        p_v = (value_totals + 1.0) / (attr_totals + index.n_values)[index.attribute_of_row]
        num = value_counts + m * p_v[:, None]
        log_cond = np.log(num) - np.log(observed + m)[index.attribute_of_row]
        log_prior = np.log(class_counts + 1.0) - np.log(n_total + n_classes)
    else:  # kang
        eps = 1.0 / n_total if n_total > 0 else 1.0
        num = value_counts + eps
        log_cond = np.log(num) - np.log(observed + n_values * eps)[index.attribute_of_row]
        log_prior = np.log(class_counts + eps) - np.log(n_total + n_classes * eps)
    return log_prior, np.vstack([log_cond, np.zeros((1, n_classes))])


def given_log_prior(fitted: np.ndarray, class_prior, fit_prior: bool) -> np.ndarray:
    """The log class prior under scikit-learn's ``class_prior`` / ``fit_prior`` (its ``_update_class_log_prior``).

    Parameters
    ----------
    fitted : ndarray of shape (n_classes,)
        The log prior estimated from the data, returned unchanged (the same array) when ``class_prior`` is None
        and ``fit_prior`` is True.
    class_prior : array-like of shape (n_classes,) or None
        Given class probabilities; their log is returned.
    fit_prior : bool
        False (and no ``class_prior``): the uniform prior, -log K for every class.

    Returns
    -------
    log_prior : ndarray of shape (n_classes,)
        The log class prior to use.
    """
    n_classes = fitted.shape[0]
    if class_prior is not None:
        prior = np.asarray(class_prior, dtype=np.float64)
        if prior.shape != (n_classes,):
            raise ValueError("Number of priors must match number of classes.")
        with np.errstate(divide="ignore"):
            return np.log(prior)
    if not fit_prior:
        return np.full(n_classes, -np.log(n_classes))
    return fitted


class NaiveBayes(LogScoreMixin, BaseEstimator):
    """Naive Bayes for discrete (integer-coded) attributes with the priors of the five papers.

    P(c | x) ∝ P(c) · Π_j P(x_j | c) in log space; a missing value (NaN or a negative code) contributes no
    factor, and at predict a code >= ``n_values_`` is a value never seen in training and counts as missing.
    A class without training rows keeps only its initial counters: with ``prior="laplace"`` P(c) = α / (N + Kα)
    and P(v | c) = α / α = 1 for every value under ``denominator="class"`` (Wiering §2.2 starts every counter,
    of every class, at γ), 1 / V_j under ``"attribute"``. ``partial_fit`` adds batches of rows; the result is
    bit for bit that of ``fit`` on all of them. See the module docstring for the priors.

    Parameters
    ----------
    prior : {"laplace", "m_estimate", "kang"}, default="laplace"
        The estimate of P(c) and P(v | c) (module docstring): ``"laplace"`` adds ``alpha`` to every counter,
        ``"m_estimate"`` is Ting & Zheng's (2003) §3.1 m-estimate, ``"kang"`` Kang & Tian's (2006) eq. 4.
    alpha : float, default=1.0
        Laplace pseudo-count (``prior="laplace"`` only); α = γ = 0.1 is Wiering (2003) §2.2. A value below
        1e-10 is raised to 1e-10 with a warning, as scikit-learn's naive Bayes does; setting it under another
        prior warns.
    m : float, default=2.0
        The m of the m-estimate (``prior="m_estimate"`` only; setting it under another prior warns).
    alpha_jitter : float, default=0.0
        Adds U(0, jitter) to every initial counter (Wiering §4: γ = 0.1 + rand(0, 0.01)).
    random_state : int, numpy Generator or None, default=None
        Seed of the jitter.
    denominator : {"attribute", "class"}, default="attribute"
        What P(v | c) divides by: the counters of the attribute summed, or the class counter (Wiering §2.2).
    classes : array-like, default=None
        The class labels to keep counters for, also those absent from the training data, like the ``classes``
        of scikit-learn's ``partial_fit``; y's labels must be among them. None = the labels in y.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.
    class_prior : array-like of shape (n_classes,), default=None
        Prior probabilities of the classes (in the order of ``classes_``), as scikit-learn's naive Bayes
        takes them: when given, ``class_log_prior_`` is their log and the data do not change it. None = the
        prior's estimate from the class counts (see ``prior``).
    fit_prior : bool, default=True
        Whether to learn the class prior; False = a uniform prior, as scikit-learn's ``fit_prior=False``
        (``class_prior``, when given, wins, as in scikit-learn).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Number of values per column.
    class_count_ : ndarray of shape (n_classes,)
        Weighted class counts.
    feature_count_ : ndarray of shape (total number of values, n_classes)
        Weighted value-class counts, all columns stacked.
    class_log_prior_ : ndarray of shape (n_classes,)
        log P(c).
    log_table_ : ndarray
        log P(v | c) per stacked value and class.
    n_features_in_ : int
        Number of columns seen at fit.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    Notes
    -----
    Weights are relative: ``fit`` divides weights whose largest value lies beyond [1e-100, 1e100] by it
    (:func:`nbx.core.validation.relative_weights`), so a uniform weight of 1e307 gives the model of unit weights
    instead of NaN probabilities (its counts would overflow); ordinary weights are used as given, bit for bit.
    ``partial_fit`` refuses such weights with a one-line error, since its batches' counts add up. Codes beyond
    2**31 - 1 are refused naming the column (:func:`nbx.core.base.as_codes`), of any dtype.

    References
    ----------
    Wiering, M. A. (2003). *Hierarchical Mixtures of Naive Bayesian Classifiers*. Technical report
    UU-CS-2003-003, Utrecht University, §2.2 and §4 (Laplace counters γ, their jitter).

    Ting, K. M. & Zheng, Z. (2003). *A Study of AdaBoost with Naive Bayesian Classifiers: Weakness and
    Improvement*. Computational Intelligence, §3.1 (the m-estimate).

    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006, eq. 4
    (the ``kang`` prior).

    Examples
    --------
    >>> from nbx.models.naive_bayes import NaiveBayes
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = NaiveBayes().fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    >>> print(model.predict_proba([[0, 0], [1, 1]]).round(3))
    [[0.8 0.2]
     [0.2 0.8]]
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "prior": [Options(*PRIORS)],
        "alpha": [Interval(Real, 0, None, "left")],
        "m": [Interval(Real, 0, None, "left")],
        "alpha_jitter": [Interval(Real, 0, None, "left")],
        "random_state": RANDOM_STATE,
        "denominator": [Options(*DENOMINATORS)],
        "classes": CLASS_LABELS,
        "n_values": N_VALUES,
        "class_prior": [ARRAY_LIKE, NONE],
        "fit_prior": [BOOLEAN],
    }

    def __init__(
        self,
        prior: str = "laplace",
        alpha: float = 1.0,
        m: float = 2.0,
        alpha_jitter: float = 0.0,
        random_state=None,
        denominator: str = "attribute",
        classes=None,
        n_values=None,
        class_prior=None,
        fit_prior: bool = True,
    ):
        self.prior = prior
        self.alpha = alpha
        self.m = m
        self.alpha_jitter = alpha_jitter
        self.random_state = random_state
        self.denominator = denominator
        self.classes = classes
        self.n_values = n_values
        self.class_prior = class_prior
        self.fit_prior = fit_prior

    def _pseudo_counts(self) -> tuple[float, float]:
        """(alpha, m) to use: warns about a set parameter the prior ignores; clips tiny values (see class doc)."""
        used = {"laplace": ("alpha", "alpha_jitter", "denominator"), "m_estimate": ("m",), "kang": ()}[self.prior]
        defaults = {"alpha": 1.0, "m": 2.0, "alpha_jitter": 0.0, "denominator": "attribute"}
        for name, default in defaults.items():
            if name not in used and getattr(self, name) != default:
                warnings.warn(
                    f"NaiveBayes: {name}={getattr(self, name)!r} is ignored by prior={self.prior!r}",
                    UserWarning,
                    stacklevel=4,
                )
        values = {"alpha": self.alpha, "m": self.m}
        for name in values:
            if name in used and values[name] < MIN_PSEUDO_COUNT:
                warnings.warn(
                    f"{name} too small will result in numeric errors, setting {name} = {MIN_PSEUDO_COUNT:.1e}",
                    UserWarning,
                    stacklevel=4,
                )
                values[name] = MIN_PSEUDO_COUNT
        return values["alpha"], values["m"]

    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes ``0 .. n_values[j]-1``; NaN or a negative code is a missing value.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values; wins over the constructor's ``n_values``.

        Returns
        -------
        self : NaiveBayes
            The fitted estimator.
        """
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values, self.classes)
        self._index = ValueIndex(self.n_values_)
        # counts() bins large inputs one column at a time: no (n, d) temporaries, same counts as counts_at
        return self._fit_counts(self._index.counts(codes, y_idx, w, len(self.classes_)), y_idx, w)

    def _boost_inputs(self, X, n_values, y=None):
        """AdaBoostM1's fast path: the codes' table rows, computed once per boosting run and kept through its
        rounds, in the narrowest unsigned integer type that holds them (a byte up to 255 table rows); the labels
        ``y`` are not needed."""
        return ValueIndex(n_values).narrow_rows(as_codes(X))

    def _boost_fit(self, table_rows, y, weights, n_values) -> np.ndarray:
        """Fit on the rows of positive weight (exactly as ``fit`` on those rows would) and return the
        predicted class (index into ``y``'s labels) of every row of ``table_rows``."""
        rows = np.flatnonzero(weights > 0)
        if self.classes is None:
            self.classes_, position = present_classes(y, rows)
            y_idx = position[y[rows]]
        else:
            self.classes_, y_idx = check_labels(y[rows], self, self.classes)
        self.n_values_ = np.asarray(n_values, np.int64)
        self.n_features_in_ = table_rows.shape[1]
        self._index = ValueIndex(self.n_values_)
        w = weights[rows]
        sample = table_rows if rows.shape[0] == table_rows.shape[0] else table_rows[rows]  # (every row: no copy)
        if _boost_compiled(table_rows):
            from nbx.core.sums import row_class_counts

            counts = row_class_counts(sample, y_idx, w, self._index.n_rows + 1, len(self.classes_))
        else:
            counts = self._index.counts_at(sample, y_idx, w, len(self.classes_))
        self._fit_counts(counts, y_idx, w)
        return self._boost_predict(table_rows)

    def _boost_predict(self, table_rows) -> np.ndarray:
        """``predict`` for inputs prepared by ``_boost_inputs``. From :data:`BOOST_COMPILED_FROM` table cells the
        same sums and choice (``sum_rows``, ``argmax(log_normalize)``) run compiled in numpy's order
        (:mod:`nbx.core.sums`), bit for bit."""
        if not _boost_compiled(table_rows) or self.log_table_.shape[1] < 2:  # one class: a column's sum
            joint = self.class_log_prior_ + sum_rows(self.log_table_, table_rows)  # is pairwise, not compiled
            return self.classes_[np.argmax(log_normalize(joint), axis=1)]
        from nbx.core.sums import normalized_argmax, table_row_sums

        joint = self.class_log_prior_ + table_row_sums(self.log_table_, table_rows)
        return self.classes_[normalized_argmax(joint)]

    def partial_fit(self, X, y, classes=None, sample_weight=None, n_values=None):
        """Add a batch of rows to the counts (scikit-learn's incremental learning; after ``fit`` it continues
        from fit's counts). ``classes``: every class label, needed on the first call unless the constructor's
        ``classes`` gives them. ``n_values`` as in ``fit``; the cardinalities grow with the largest code seen.

        Each count continues the row-order sum that ``fit``'s bincount makes, so the batches give bit for bit
        the model ``fit`` gives on their concatenation (with the same ``n_values``), weights and missing
        values included. The batches' weights add up, so none can be rescaled on its own (as ``fit`` divides
        weights whose largest value lies beyond [1e-100, 1e100] by it): such weights are refused."""
        _check_batch_weights(sample_weight)
        if not hasattr(self, "class_count_"):
            classes = classes if classes is not None else self.classes
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
            codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values, classes)
            self._index = ValueIndex(self.n_values_)
            self.feature_count_ = np.zeros((self._index.n_rows, len(self.classes_)))
            self.class_count_ = np.zeros(len(self.classes_))
        else:
            if classes is not None and not np.array_equal(np.unique(np.asarray(classes)), self.classes_):
                raise ValueError(
                    f"classes={list(classes)} is not the same as on the first call to partial_fit, "
                    f"was: {list(self.classes_)}"
                )
            validate_params(self)
            arr = check_array(self, X, fit=False)  # same number of features (and names) as before
            _, y_idx = check_labels(y, self, self.classes_)
            check_consistent_length(arr, y_idx)
            w = check_sample_weight(sample_weight, arr.shape[0])
            arr, y_idx, w, _ = drop_absent_rows(arr, y_idx, w, self.classes_, keep_classes=True)
            codes = as_codes(arr, self, fit=True)
            self._grow(
                np.maximum(self.n_values_, resolve_n_values(codes, n_values if n_values is not None else self.n_values))
            )
        k = len(self.classes_)
        rows = self._index.rows(codes)
        seen = rows < self._index.n_rows  # missing values are not counted
        cells = (rows * k + y_idx[:, None])[seen]
        # the old counts first, then the batch in row order: bincount adds 0 + old, then each weight in turn
        self.feature_count_ = np.bincount(
            np.concatenate([np.arange(self.feature_count_.size), cells]),
            weights=np.concatenate([self.feature_count_.ravel(), np.broadcast_to(w[:, None], rows.shape)[seen]]),
            minlength=self.feature_count_.size,
        ).reshape(self.feature_count_.shape)
        self.class_count_ = np.bincount(
            np.concatenate([np.arange(k), y_idx]), weights=np.concatenate([self.class_count_, w]), minlength=k
        )
        return self._tables()

    def set_partial_fit_request(self, **requests):
        """Whether a scikit-learn router passes partial_fit's keywords on (see ``set_fit_request``)."""
        return self._set_request("partial_fit", requests)

    def _grow(self, n_values: np.ndarray) -> None:
        """Widen the count table to larger cardinalities (new values start at count 0)."""
        if np.array_equal(n_values, self.n_values_):
            return
        old, new = self._index, ValueIndex(n_values)
        within = np.arange(old.n_rows) - old.offsets[old.attribute_of_row]
        counts = np.zeros((new.n_rows, self.feature_count_.shape[1]))
        counts[new.offsets[old.attribute_of_row] + within] = self.feature_count_
        self.feature_count_, self.n_values_, self._index = counts, n_values, new

    def _fit_counts(self, counts, y_idx, w):
        """The tables from weighted counts (:meth:`ValueIndex.counts`, last row = missing values)."""
        self.feature_count_ = counts[:-1]
        self.class_count_ = np.bincount(y_idx, weights=w, minlength=len(self.classes_))
        return self._tables()

    def _tables(self):
        """``class_log_prior_`` and ``log_table_`` from ``class_count_`` and ``feature_count_``."""
        alpha, m = self._pseudo_counts()
        jitter = None
        if self.alpha_jitter:
            size = (self.feature_count_.shape[0] + 1, len(self.classes_))  # + the missing-value row
            jitter = check_rng(self.random_state).uniform(0.0, self.alpha_jitter, size=size)
        self.class_log_prior_, self.log_table_ = nb_log_tables(
            self.feature_count_,
            self.class_count_,
            self._index,
            self.prior,
            alpha,
            m,
            jitter,
            denominator=self.denominator if self.prior == "laplace" else "attribute",
        )  # else ignored (warned)
        self.class_log_prior_ = given_log_prior(self.class_log_prior_, self.class_prior, self.fit_prior)
        return self

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """Joint log probability log P(x, c) = log P(c) + Σ_j log P(x_j | c) of each row and class, as
        scikit-learn's naive Bayes ``predict_joint_log_proba`` (its ``_joint_log_likelihood``); a missing value
        contributes no factor, so this is log P(c, observed values).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes, as ``fit`` took.

        Returns
        -------
        joint : ndarray of shape (n_samples, n_classes)
            log P(x, c), columns in the order of ``classes_``; ``predict_log_proba`` is it normalized per row.
        """
        return self._class_scores(X)

    def _class_scores(self, X) -> np.ndarray:
        """Unnormalized log joint log P(c) + Σ_j log P(x_j | c), shape (n, K)."""
        codes = check_discrete_X(self, X)
        return self.class_log_prior_ + self._index.lookup_sum(self.log_table_, codes)
