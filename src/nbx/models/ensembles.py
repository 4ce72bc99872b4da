"""Bagging and AdaBoost.M1 over any learner (Wiering 2003 §4; Ting & Zheng 2003 §2; Lee et al. 2006 §4.4).

Both meta-learners fit their base models on the ensemble's class *indices* 0..K-1, so a base model fitted
on a sample lacking some classes has ``classes_`` that is a subset of them; its outputs are mapped back
to the ensemble's columns (:func:`_full_proba`). ``classes`` (None = the labels in y, which must be among
them) fixes the ensemble's classes, as the ``classes`` of NaiveBayes does; a base learner with a
``classes`` parameter then gets all K class indices, so every base model keeps counters for every class,
also those its sample lacks (Wiering §2.2 starts every counter at γ). Set it on the ensemble, not on the
base (base models see class indices, not labels). Base models are fitted only on rows of positive weight,
with the weights as ``sample_weight`` (a bootstrap count of k is k copies of the row), and receive the
ensemble's ``n_values`` (resolved on the full data for discrete learners, so every sample sees the same
cardinalities). A base learner with a ``random_state`` parameter gets a seed drawn from the
ensemble's ``random_state``. With a discrete base, a code >= ``n_values_`` at predict (a value never seen
in training) counts as missing, as in the base learners.

Any scikit-learn classifier can be the base (``AdaBoostM1(DecisionTreeClassifier())``): ``n_values`` is
passed only to a base whose ``fit`` takes it, and a base whose ``fit`` takes no ``sample_weight`` gets
Bagging's bootstrap counts as repeated rows (AdaBoost.M1's reweighting needs ``sample_weight``). The
input is checked once by the ensemble; the base fits inside skip the repeated scans
(:func:`nbx.core.validation.scans_skipped`). ``set_params`` also accepts scikit-learn's names ``estimator``
and ``base_estimator`` for ``base`` (e.g. a grid over ``base_estimator__max_depth``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np

from nbx.core.base import (
    CLASS_LABELS,
    N_VALUES,
    BaseEstimator,
    ClassifierMixin,
    DecisionMixin,
    as_codes,
    check_discrete_X,
    check_rng,
    clone,
    fit_accepts,
    frame_n_values,
    resolve_n_values,
    validate_params,
)
from nbx.core.base import input_kind as _input_kind
from nbx.core.validation import (
    ESTIMATOR,
    NONE,
    RANDOM_STATE,
    Interval,
    Options,
    check_array,
    check_consistent_length,
    check_labels,
    check_sample_weight,
    drop_absent_rows,
    set_input_features,
)

VOTE_ZERO_ERROR = np.log(1e10)  # Ting & Zheng §2: the vote of a model with training error 0
WEIGHT_FLOOR = 1e-8  # Ting & Zheng §2, after Bauer & Kohavi (1999)


def _default_base():
    from nbx.models.naive_bayes import NaiveBayes

    return NaiveBayes()


class _Ensemble(ClassifierMixin, BaseEstimator):
    """Shared fitting plumbing: input checks, label encoding, n_values, seeded base fits, class mapping."""

    _param_aliases = {"estimator": "base", "base_estimator": "base"}
    _parameter_constraints = {
        "base": [ESTIMATOR, NONE],
        "n_estimators": [Interval(Integral, 1, None, "left")],
        "random_state": RANDOM_STATE,
        "classes": CLASS_LABELS,
        "n_values": N_VALUES,
    }

    @property
    def input_kind(self) -> str:
        """The input the ensemble takes: its base's (``discrete`` or ``mixed``); ``discrete`` for the default base."""
        return _input_kind(self.base) if self.base is not None else "discrete"

    def __sklearn_tags__(self):
        """The base's input tags, less what the ensemble's own input check refuses (sparse matrices, strings,
        dicts): NaN is passed on to the base models, so the ensemble allows it exactly when the base does."""
        from sklearn.utils import InputTags, get_tags

        tags = super().__sklearn_tags__()
        base = get_tags(self.base if self.base is not None else _default_base()).input_tags
        tags.input_tags = InputTags(
            allow_nan=base.allow_nan,
            categorical=base.categorical,
            positive_only=base.positive_only,
            pairwise=base.pairwise,
        )
        return tags

    def _prepare(self, X, y, sample_weight, n_values):
        """Checked (X, class indices, weights) of the rows of positive weight: a row of weight 0 is an absent
        row (:func:`nbx.core.validation.drop_absent_rows`), so it adds no class, no value to the inferred
        ``n_values_`` and no bootstrap draw. Discrete input becomes codes (-1 = missing)."""
        validate_params(self)
        if self.base is not None and self.base.get_params(deep=False).get("classes") is not None:
            raise ValueError(
                f"{type(self).__name__}: set classes on the ensemble, not on its base (base models "
                "are fitted on class indices)"
            )
        arr = check_array(self, X, fit=True)
        classes, y_idx = check_labels(y, self, self.classes)
        check_consistent_length(arr, y_idx)
        w = check_sample_weight(sample_weight, arr.shape[0])
        set_input_features(self, X, arr)
        arr, y_idx, w, self.classes_ = drop_absent_rows(arr, y_idx, w, classes, keep_classes=self.classes is not None)
        n_values = n_values if n_values is not None else self.n_values
        if self.input_kind == "discrete":
            arr = as_codes(arr, self, fit=True)
            n_values = resolve_n_values(arr, n_values if n_values is not None else frame_n_values(self, arr))
        elif n_values is None:
            n_values = frame_n_values(self)  # None for array input: all numeric
        self.n_values_ = n_values
        return arr, y_idx, w

    def _check_X(self, X) -> np.ndarray:
        """The predict preamble: X checked like the training input."""
        return check_discrete_X(self, X) if self.input_kind == "discrete" else check_array(self, X, fit=False)

    def _base_clone(self):
        """An unfitted clone of ``base``, given the ensemble's class indices when ``classes`` is set."""
        est = clone(self.base if self.base is not None else _default_base())
        if self.classes is not None and "classes" in est.get_params(deep=False):
            est.set_params(classes=np.arange(len(self.classes_)))
        return est

    def _fit_base(self, X, y_idx, weights, rng):
        """A clone of ``base`` (:meth:`_base_clone`) fitted on the rows of positive weight, seeded from ``rng``."""
        est = self._base_clone()
        seed = int(rng.integers(2**31 - 1))
        if "random_state" in est.get_params(deep=False):
            est.set_params(random_state=seed)
        rows = weights > 0
        extra = {"n_values": self.n_values_} if fit_accepts(est, "n_values") else {}
        if fit_accepts(est, "sample_weight"):
            return est.fit(X[rows], y_idx[rows], sample_weight=weights[rows], **extra)
        if np.any(weights != np.round(weights)):
            raise TypeError(
                f"{type(self).__name__} reweights its training rows: its base learner's fit must "
                f"accept sample_weight, {type(est).__name__}'s does not"
            )
        copies = np.repeat(np.flatnonzero(rows), weights[rows].astype(np.int64))  # integer counts = copies
        return est.fit(X[copies], y_idx[copies], **extra)

    def _full_proba(self, est, X) -> np.ndarray:
        """A base model's predict_proba in the ensemble's columns (zeros for classes it never saw)."""
        out = np.zeros((X.shape[0], len(self.classes_)))
        out[:, est.classes_.astype(np.intp)] = est.predict_proba(X)
        return out

    def _votes(self, X, weights) -> np.ndarray:
        """Σ_t weights[t] · [model t predicts class k], shape (n, K), on checked X (:meth:`_check_X`)."""
        votes = np.zeros((X.shape[0], len(self.classes_)))
        rows = np.arange(X.shape[0])
        for est, weight in zip(self.estimators_, weights):
            votes[rows, est.predict(X).astype(np.intp)] += weight
        return votes


def _bootstrap_counts(rng, w: np.ndarray, size: int) -> np.ndarray:
    """How often each row is drawn in ``size`` draws with replacement, rows drawn with probability ∝ w."""
    idx = rng.choice(w.shape[0], size=size, replace=True, p=w / w.sum())
    return np.bincount(idx, minlength=w.shape[0]).astype(float)


class Bagging(_Ensemble):
    """Bagging over any learner, as in Wiering (2003) §4.

    Sample weights: rows are drawn with probability proportional to ``sample_weight``, and
    round(max_samples · n_rows) rows are drawn, n_rows counting the rows of positive weight. A row of weight 0
    is an absent row (same draws, same models as without it); a weight of k matches k copies only in
    distribution, since the number of draws and the random stream depend on n_rows.

    Parameters
    ----------
    base : estimator, default=None
        Any learner (an nbx one or a scikit-learn classifier); None = ``NaiveBayes()``.
    n_estimators : int, default=10
        Number of bootstrap models.
    max_samples : float, default=0.9
        Fraction of the data size drawn with replacement for each bootstrap sample (Wiering §4: "most often ...
        about 90%").
    voting : {"hard", "soft"}, default="hard"
        ``"hard"``: majority vote of the predicted classes, ties to the lowest class index, ``predict_proba`` =
        vote fractions; ``"soft"``: average of the models' probabilities.
    random_state : int, numpy Generator or None, default=None
        Seed of the draws (and of the base models' seeds).
    classes : array-like, default=None
        The ensemble's class labels (None = those in y); base models then keep counters for all of them (see
        the module docstring).
    n_values : array-like of int, default=None
        Passed to the base; the ``fit`` keyword wins.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    estimators_ : list
        The fitted base models.
    bootstrap_counts_ : list of ndarray
        Per model, how often each training row of positive weight was drawn.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Breiman, L. (1996). *Bagging predictors*. Machine Learning 24.

    Wiering, M. A. (2003). *Hierarchical Mixtures of Naive Bayesian Classifiers*. Technical report
    UU-CS-2003-003, Utrecht University, §4.

    Examples
    --------
    >>> from nbx.models.ensembles import Bagging
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = Bagging(n_estimators=5, random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    _parameter_constraints = {
        **_Ensemble._parameter_constraints,
        "max_samples": [Interval(Real, 0, None, "neither")],
        "voting": [Options("hard", "soft")],
    }

    def __init__(
        self,
        base=None,
        n_estimators: int = 10,
        max_samples: float = 0.9,
        voting: str = "hard",
        random_state=None,
        classes=None,
        n_values=None,
    ):
        self.base = base
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.voting = voting
        self.random_state = random_state
        self.classes = classes
        self.n_values = n_values

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
            Per column the number of values (as the base takes them); wins over the constructor's ``n_values``.

        Returns
        -------
        self : Bagging
            The fitted estimator.
        """
        X, y_idx, w = self._prepare(X, y, sample_weight, n_values)
        rng = check_rng(self.random_state)
        size = max(1, int(round(self.max_samples * X.shape[0])))
        self.estimators_, self.bootstrap_counts_ = [], []
        for _ in range(self.n_estimators):
            counts = _bootstrap_counts(rng, w, size)
            self.bootstrap_counts_.append(counts)
            self.estimators_.append(self._fit_base(X, y_idx, counts, rng))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        Vote fractions (``voting="hard"``) or the mean of the models' probabilities (``"soft"``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        X = self._check_X(X)
        if self.voting == "soft":
            return sum(self._full_proba(est, X) for est in self.estimators_) / len(self.estimators_)
        return self._votes(X, np.ones(len(self.estimators_))) / len(self.estimators_)


def adaboost_reweight(weights: np.ndarray, wrong: np.ndarray, error: float, total: float) -> np.ndarray:
    """Ting & Zheng §2 step (iii): w/(2ε) if misclassified, else w/(2(1-ε)); floor 1e-8; sum to ``total``."""
    new = np.where(wrong, weights / (2.0 * error), weights / (2.0 * (1.0 - error)))
    new = np.maximum(new, WEIGHT_FLOOR)
    return new * (total / new.sum())


def restart_weights(restart: str, w: np.ndarray, rng) -> np.ndarray:
    """AdaBoostM1's reinitialized weights (see its docstring), drawn from ``rng``: ``"bootstrap"`` N draws with
    replacement, each row weighted by its draws, ``"noise"`` w · U(0.9, 1.1); both scaled to sum Σ w."""
    total = w.sum()
    if restart == "bootstrap":
        return _bootstrap_counts(rng, w, w.shape[0]) * (total / w.shape[0])
    noisy = w * rng.uniform(0.9, 1.1, size=w.shape[0])
    return noisy * (total / noisy.sum())


def _start_weights(start) -> np.ndarray:
    """The weights a run of a :class:`WeightHistory` starts from: ``(w, None, None)`` a copy of the sample weights
    w, ``(w, restart, rng)`` a restart's weights (:func:`restart_weights`) drawn from a copy of the generator
    ``rng``, kept as it was before the run's draw, so the same draw again."""
    w, restart, rng = start
    return w.copy() if restart is None else restart_weights(restart, w, copy.deepcopy(rng))


class WeightHistory(Sequence):
    """AdaBoostM1's ``training_weights_``: the weights w_t each kept model was fitted under, rebuilt when read.

    Kept models come in runs: a run starts from fresh weights (the initial ones or a restart's) and each later
    model of it was fitted under step (iii) of the weights of the model before (:func:`adaboost_reweight`), which
    needs only the rows that model misclassified and its ε (Ting & Zheng §2). So the history keeps each run's
    start (the sample weights, or a restart's generator as it was before its draw) and one bit per row and model,
    not N floats per model: 100 rounds on 10^5 rows hold about 1.3 MB of bits instead of 80 MB of weights, however
    many restarts there were. Reading repeats the run's draw and operations on the same numbers, so every array
    is the one the model was fitted under, bit for bit; each read returns a new array.
    """

    def __init__(self, total: float, n_rows: int):
        self._total, self._n_rows = total, n_rows
        self._starts: dict[int, tuple] = {}  # kept model -> the start of its run (the first model of the run)
        self._wrong: list[np.ndarray | None] = []  # per kept model, its misclassified rows, packed 8 to a byte
        self._errors: list[float] = []

    def append(self, start, wrong: np.ndarray | None, error: float) -> None:
        """One more kept model: ``start`` (see :func:`_start_weights`; None when its weights are step (iii) of the
        previous kept model's), the rows it misclassified (None when no model follows from it) and its ε."""
        if start is None and not (self._errors and self._wrong[-1] is not None):
            raise ValueError("a kept model's weights follow from the previous kept model's, and there is none")
        if start is not None:
            self._starts[len(self._errors)] = start
        self._wrong.append(None if wrong is None else np.packbits(wrong))
        self._errors.append(error)

    def __len__(self) -> int:
        return len(self._errors)

    def _next(self, weights: np.ndarray, t: int) -> np.ndarray:
        """Model t + 1's weights from model t's, by step (iii)."""
        wrong = np.unpackbits(self._wrong[t], count=self._n_rows).view(bool)
        return adaboost_reweight(weights, wrong, self._errors[t], self._total)

    def __getitem__(self, t):
        if isinstance(t, slice):
            return [self[i] for i in range(*t.indices(len(self)))]
        t = range(len(self))[t]  # a negative index counts from the end; out of range raises IndexError
        begin = max(s for s in self._starts if s <= t)
        weights = _start_weights(self._starts[begin])
        for i in range(begin, t):
            weights = self._next(weights, i)
        return weights

    def __iter__(self):
        weights = None
        for t in range(len(self)):
            weights = _start_weights(self._starts[t]) if t in self._starts else self._next(weights, t - 1)
            yield weights.copy()  # a reader may write into it; the next model's weights follow from these


class AdaBoostM1(DecisionMixin, _Ensemble):
    """AdaBoost.M1 by reweighting, exactly as Ting & Zheng (2003) §2, with Wiering's restart as option.

    Procedure (Ting & Zheng §2). w_1(n) = 1 (times ``sample_weight``). Trial t: (i) fit M_t under w_t;
    (ii) ε_t = Σ_n w_t(n) δ(n) / N (eq. 1; weights always sum to N); (iii) misclassified rows get
    w_t/(2ε_t) (eq. 2), the others w_t/(2(1-ε_t)) (eq. 3), then weights below 1e-8 are set to 1e-8 and all
    renormalized to sum N. M_t's vote is log((1-ε_t)/ε_t).

    Restarts, as we read §2 (with Bauer & Kohavi 1999, which it follows):

    * ε_t ≥ 0.5: M_t is discarded, the weights are reinitialized and "the boosting process continues from
      step (i)" -- trial t is redone, so the final vote still has T models ("it ensures that the same
      number of models is used"). After ``max_restarts`` consecutive discarded models boosting stops
      early (Bauer & Kohavi: "limited to 25 times after which we exit the loop"); if no model was kept
      at all, the first model (fitted on the original weights) is kept with vote 1.
    * ε_t = 0: M_t is *kept* with vote log(10^10) (instead of Bauer & Kohavi's infinite weight and halt),
      and the weights are reinitialized for trial t + 1.

    ``n_iter_`` counts the trials run, discarded models included.

    Sample weights: a row of weight 0 is an absent row (the same run as without it). A weight of k equals k
    copies only while no restart draws: the restarts draw per row (N bootstrap draws, or one U(0.9, 1.1)
    factor per row), and the 1e-8 floor applies per row, so weights and copies then part.

    Reinitialization: ``restart="bootstrap"`` (Ting & Zheng) draws N rows with replacement (probability
    ∝ ``sample_weight``), each drawn row getting weight 1 per draw, undrawn rows 0 (rows with weight 0
    are left out of the next fit; they get the 1e-8 floor at the following reweighting, as step (iii)
    says). ``restart="noise"`` (Wiering 2003 §4: "we reweighted the original data set with values between
    0.9 and 1.1") sets w(n) = sample_weight(n) · U(0.9, 1.1), renormalized to sum N; Wiering only
    mentions the ε ≥ 0.5 case, and we treat ε = 0 as above in both modes.

    Prediction: ``decision_function`` = Σ_t vote_t · [M_t predicts k] (the weighted vote sums; for two
    classes the difference of the two sums, scikit-learn's shape (n,)),
    ``predict`` = its argmax (ties to the lowest class index), ``predict_proba`` = the vote sums divided
    by the total vote Σ_t vote_t (all votes are positive), i.e. the normalized weighted votes.

    Parameters
    ----------
    base : estimator, default=None
        Any learner accepting ``sample_weight``; None = ``NaiveBayes()``.
    n_estimators : int, default=10
        T, the number of models in the final vote.
    restart : {"bootstrap", "noise"}, default="bootstrap"
        How the weights are reinitialized after a discarded model (above).
    max_restarts : int, default=25
        Consecutive discarded models after which boosting stops.
    random_state : int, numpy Generator or None, default=None
        Seed of the restarts (and of the base models' seeds).
    classes : array-like, default=None
        The ensemble's class labels (None = those in y; see the module docstring).
    n_values : array-like of int, default=None
        Passed to the base; the ``fit`` keyword wins.

    Attributes
    ----------
    estimators_ : list
        The kept models (Lee et al. 2006 §4.4 reuses them).
    estimator_weights_ : ndarray
        Their votes, log((1-ε_t)/ε_t).
    estimator_errors_ : ndarray
        Their weighted errors ε_t.
    training_weights_ : WeightHistory
        The weights w_t each kept model was fitted under: a sequence that rebuilds each array, bit for bit,
        from one bit per row and model.
    n_restarts_ : dict
        ``{"error>=0.5": count, "error=0": count}``.
    n_iter_ : int
        Trials run, discarded models included.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Ting, K. M. & Zheng, Z. (2003). *A Study of AdaBoost with Naive Bayesian Classifiers: Weakness and
    Improvement*. Computational Intelligence, §2 (eq. 1-3).

    Bauer, E. & Kohavi, R. (1999). *An empirical comparison of voting classification algorithms: bagging,
    boosting, and variants*. Machine Learning 36 (the restarts).

    Wiering, M. A. (2003). *Hierarchical Mixtures of Naive Bayesian Classifiers*. Technical report
    UU-CS-2003-003, Utrecht University, §4 (the noise restart).

    Examples
    --------
    >>> from nbx.models.ensembles import AdaBoostM1
    >>> from nbx.models.leveled_tree import LeveledNBTree
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = AdaBoostM1(LeveledNBTree(max_depth=1, min_split=2), n_estimators=5, random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    RESTARTS = ("bootstrap", "noise")
    _parameter_constraints = {
        **_Ensemble._parameter_constraints,
        "restart": [Options(*RESTARTS)],
        "max_restarts": [Interval(Integral, 0, None, "left")],
    }

    def __init__(
        self,
        base=None,
        n_estimators: int = 10,
        restart: str = "bootstrap",
        max_restarts: int = 25,
        random_state=None,
        classes=None,
        n_values=None,
    ):
        self.base = base
        self.n_estimators = n_estimators
        self.restart = restart
        self.max_restarts = max_restarts
        self.random_state = random_state
        self.classes = classes
        self.n_values = n_values

    def _restart(self, w: np.ndarray, rng):
        """A restart's reinitialized weights (:func:`restart_weights`) and their start for the history: the
        generator as it was before the draw (:func:`_start_weights`)."""
        start = (w, self.restart, copy.deepcopy(rng))
        return restart_weights(self.restart, w, rng), start

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
            Initial weights w_1 (times 1); 0 = the row is absent; None = all 1.
        n_values : array-like of int, default=None
            Per column the number of values (as the base takes them); wins over the constructor's ``n_values``.

        Returns
        -------
        self : AdaBoostM1
            The fitted estimator.
        """
        X, y_idx, w = self._prepare(X, y, sample_weight, n_values)
        rng = check_rng(self.random_state)
        total = w.sum()
        start = (w, None, None)  # the start of the current weights' run; None once step (iii) made them
        weights = _start_weights(start)
        self.estimators_, self.estimator_weights_, self.estimator_errors_ = [], [], []
        self.training_weights_ = WeightHistory(total, w.shape[0])
        self.n_restarts_ = {"error>=0.5": 0, "error=0": 0}
        first, first_pred, first_error, failures = None, None, None, 0
        train_votes = np.zeros((y_idx.shape[0], len(self.classes_)))  # the ensemble's vote on its training rows
        fit_round = self._round_fitter(X, y_idx)
        del X  # a base with the fast path (_round_fitter) reads its own prepared inputs: the codes can go
        self.n_iter_ = 0
        while len(self.estimators_) < self.n_estimators:
            self.n_iter_ += 1
            est, pred = fit_round(weights, rng)
            wrong = pred != y_idx
            error = float(weights[wrong].sum() / weights.sum())
            if first is None:
                first, first_pred, first_error = est, pred, error
            if error >= 0.5:
                self.n_restarts_["error>=0.5"] += 1
                failures += 1
                if failures > self.max_restarts:
                    break
                weights, start = self._restart(w, rng)
                continue
            failures = 0
            vote = VOTE_ZERO_ERROR if error == 0 else np.log((1 - error) / error)
            self._keep(est, vote, error, start, wrong if error > 0 else None)
            train_votes[np.arange(pred.shape[0]), pred] += vote
            if error == 0:
                self.n_restarts_["error=0"] += 1
                weights, start = self._restart(w, rng)
            else:
                start, weights = None, adaboost_reweight(weights, wrong, error, total)
        if not self.estimators_:
            self._keep(first, 1.0, first_error, (w, None, None), None)
            train_votes[np.arange(y_idx.shape[0]), first_pred] = 1.0
        self.estimator_weights_ = np.array(self.estimator_weights_)
        self.estimator_errors_ = np.array(self.estimator_errors_)
        self.train_accuracy_ = float(np.average(train_votes.argmax(axis=1) == y_idx, weights=w))
        return self

    def _round_fitter(self, X, y_idx):
        """A function (weights, rng) -> (M_t fitted under the weights, its predicted class indices on X).

        A base learner may offer a private fast path: ``_boost_inputs(X, n_values, y)`` prepares the training
        inputs once per run (validated codes, table rows; ``y`` is None when it prepares test rows) and
        ``_boost_fit(inputs, y_idx, weights, n_values)`` fits on the rows of positive weight and returns its
        training-row predictions, exactly as ``fit`` on those rows followed by ``predict(X)`` (a base that fits
        a preprocessing on ``y``, as ``LeveledNBTree(cuts="values")``'s discretizer, fits it once per run). Other
        learners are cloned and fitted by ``_fit_base``.
        """
        template = self._base_clone()
        if not hasattr(template, "_boost_inputs"):

            def fit_round(weights, rng):
                est = self._fit_base(X, y_idx, weights, rng)
                return est, est.predict(X).astype(np.intp)

            return fit_round
        inputs = template._boost_inputs(X, self.n_values_, y_idx)  # the labels: a base may fit on them once
        seeded = "random_state" in template.get_params(deep=False)

        def fit_round(weights, rng):
            est = copy.copy(template)  # an unfitted clone: cheaper than clone() for 100 rounds
            seed = int(rng.integers(2**31 - 1))  # drawn as _fit_base draws it
            if seeded:
                est.random_state = seed
            return est, est._boost_fit(inputs, y_idx, weights, self.n_values_).astype(np.intp)

        return fit_round

    def fit_info(self) -> dict:
        """What the boosting run did (for the reports, e.g. Wiering's W6): models kept, restarts, ε_t, the
        ensemble's weighted training accuracy."""
        info = {
            "kept": len(self.estimators_),
            "restarts": dict(self.n_restarts_),
            "errors": [round(float(e), 6) for e in self.estimator_errors_],
            "train_accuracy": round(self.train_accuracy_, 6),
        }
        if hasattr(self.estimators_[0], "fit_info"):  # e.g. tree sizes (Ting & Zheng §4.2's mean depths)
            base = [est.fit_info() for est in self.estimators_]
            info["base_mean"] = {k: round(float(np.mean([b[k] for b in base])), 6) for k in base[0]}
        return info

    def _keep(self, est, vote, error, start, wrong) -> None:
        """Keeps a model; its weights go into the history as ``start`` and ``wrong`` (:meth:`WeightHistory.append`)."""
        self.estimators_.append(est)
        self.estimator_weights_.append(float(vote))
        self.estimator_errors_.append(error)
        self.training_weights_.append(start, wrong, error)

    def _class_scores(self, X) -> np.ndarray:
        """Weighted vote sums Σ_t vote_t · [M_t predicts class k], shape (n, K). Base models with the fast
        path (see ``_round_fitter``) predict from inputs prepared once for all of them."""
        X = self._check_X(X)
        if not hasattr(self.estimators_[0], "_boost_predict"):
            return self._votes(X, self.estimator_weights_)
        inputs = self.estimators_[0]._boost_inputs(X, self.n_values_)
        votes = np.zeros((X.shape[0], len(self.classes_)))
        rows = np.arange(X.shape[0])
        for est, weight in zip(self.estimators_, self.estimator_weights_):
            votes[rows, est._boost_predict(inputs).astype(np.intp)] += weight
        return votes

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        The normalized weighted votes: the vote sums Σ_t vote_t · [M_t predicts k] divided by the
        total vote.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        # clipped: a row of unanimous votes can round to 1 + 1e-16, which scikit-learn's log_loss refuses
        return np.minimum(self._class_scores(X) / self.estimator_weights_.sum(), 1.0)
