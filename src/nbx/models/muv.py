"""Mixture-using-variance ensembles (MUV) and MUV[MUV], Lee, Greiner & Wang (2006).

A MUV trains k base belief-net classifiers (NB or TAN, §3.3-3.4) on different samples (§4.2-4.4) and, for each
query, combines their responses μ_i(c, e) = P_i(c | e) using their query-specific variances σ_i²(c, e)
(eq. 8-13, :mod:`nbx.models.variance`):

``combiner="mle"``  eq. 3: q(c, e) = Σ_i μ_i/σ_i² / Σ_i 1/σ_i²
``combiner="js"``   eq. 4: q_JS = (1 - Σ_i 1/σ_i² / (Σ_i μ_i/σ_i²)²)^+ q_MLE  (James-Stein shrinkage)

each normalized over the classes (footnote 2). If the (.)^+ guard zeroes every class of a query we fall back
to the normalized MLE answer (the paper never needed the guard, footnote 3). The alternative rules of §4.5,
written for K classes (V_i = one-hot vote of member i):

``sum_vote``      Σ_i V_i(c). The paper leaves ties open (frequent with k = 2 or 4 members); we break them by
                  the summed probabilities Σ_i μ_i(c): q(c) = (Σ_i V_i(c) + Σ_i μ_i(c)/k) / (k + 1). The second
                  term is below 1, so it never overturns a difference in votes
``max_prob``      max_i μ_i(c), normalized
``sum_prob``      Σ_i μ_i(c) / k (bagging's rule on bootstrap samples)
``min_var``       "argmin_c min_i σ_i²(c)" is degenerate for binary C (σ²(+) = σ²(-)); §4.6 calls it a model
                  selection rule, so we read it as: class c scores μ_{i*}(c) with i* = argmin_i σ_i²(c) (for
                  binary C: the answer of the member with the smallest variance), normalized
``sum_p_over_v``  Σ_i μ_i(c)/σ_i²(c), normalized. Footnote 6 says the paper's SumP/V was in fact run with
                  James-Stein shrinkage, i.e. it is ``combiner="js"``; this option is the unshrunk sum.

All rules work in log space (log μ, log σ²), so 60+ attributes do not underflow.

Samples (``sampling`` x ``balance``), sample weights standing in for row copies so that every member sees
every class:

``bootstrap, balanced``  k standard bootstrap samples of |S| rows (each has the class mix of S on average,
                         §4.2-4.3); with sample weights, rows are drawn ∝ weight and the sample is rescaled
                         to the total weight.
``disjoint, balanced``   k disjoint parts of ≈ |S|/k rows, stratified by class (each part has the class mix of
                         S up to one row per class).
``disjoint, skewed``     ``skew="per_class"`` (default): one member per class, trained only on that class's
                         rows (``n_estimators`` is ignored). §4.3 describes the method so: "learning one NB
                         based on the positive instances, and another only on the negatives", the skewed MUV
                         "splits the data based on the class" and "the k here corresponds to the number of
                         classes". ``skew="sorted"``: the rows sorted by class (random order within a class)
                         and cut into k contiguous parts of ≈ |S|/k rows, so a part holds few classes where a
                         balanced part holds them all; Fig. 2's caption averages (c) "over all
                         ξ ∈ {2,3,4} x {NB,TAN}", the k of §4.2's disjoint parts. Even at k = 2 these parts
                         are the +/- split only when the two classes are equally frequent: each part has
                         ≈ |S|/2 rows, so the larger class spills into the other part. Either way a class
                         absent from a part keeps its Dirichlet prior in that member.
``bootstrap, skewed``    a bootstrap resample of each of those parts (``skew`` as above).
``adaboost``             the base models of an AdaBoost.M1 run (:class:`nbx.models.ensembles.AdaBoostM1`,
                         reweighting) with ``n_estimators`` rounds (§4.4), combined by the variance rule
                         instead of AdaBoost's weighted vote; ``balance`` is ignored. AdaBoostM1 gets this
                         MUV's ``random_state``, so ``AdaBoostM1(base, n_estimators, random_state)`` with the
                         same values has the same base models.

With ``n_estimators=1`` and a balanced bootstrap/disjoint sampling the single member is trained on S itself
(the paper's 1NB / 1TAN; "these arguments do not apply to MUV(1NB)").

MUV[MUV] (§4.6): :class:`MUVofMUV` fits several MUVs on the same data and combines them with the same rules,
each member contributing its normalized (JS or MLE) answer as μ and the variance of its MLE estimate (eq. 2,
σ² = 1 / Σ_i 1/σ_i²) as σ² (footnote 7).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from nbx.core.base import (
    N_VALUES,
    BaseEstimator,
    ClassifierMixin,
    check_discrete_fit,
    check_discrete_X,
    check_rng,
    clone,
)
from nbx.core.counting import log_normalize, logsumexp
from nbx.core.validation import ARRAY_LIKE, ESTIMATOR, NONE, RANDOM_STATE, Interval, Options
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN
from nbx.models.variance import mean_log_variance

COMBINERS = ("mle", "js", "sum_vote", "max_prob", "sum_prob", "min_var", "sum_p_over_v")
SAMPLINGS = ("bootstrap", "disjoint", "adaboost")
BALANCES = ("balanced", "skewed")
SKEWS = ("per_class", "sorted")


# ------------------------------------------------------------------------------------------- combination
def _normalize(scores: np.ndarray) -> np.ndarray:
    """Rows of non-negative scores -> probabilities (uniform where a row is all zero)."""
    total = scores.sum(axis=1, keepdims=True)
    k = scores.shape[1]
    return np.where(total > 0, scores / np.where(total > 0, total, 1.0), 1.0 / k)


def mle_log_variance(log_var: np.ndarray) -> np.ndarray:
    """log σ²[λ_MLE] = -log Σ_i 1/σ_i² (eq. 2), from member log variances (k, n, K)."""
    return -logsumexp(-log_var, axis=0)


def combine(log_mu: np.ndarray, log_var: np.ndarray, combiner: str = "js") -> np.ndarray:
    """Class probabilities (n, K) from member log responses and log variances, both (k, n, K)."""
    if combiner not in COMBINERS:
        raise ValueError(f"unknown combiner {combiner!r}; choose one of {COMBINERS}")
    k, n, n_classes = log_mu.shape
    if n_classes == 1:
        return np.ones((n, 1))
    lw = -log_var  # log 1/σ_i²
    log_num = logsumexp(lw + log_mu, axis=0)  # log Σ μ_i/σ_i²
    log_den = logsumexp(lw, axis=0)  # log Σ 1/σ_i²
    if combiner == "sum_p_over_v":
        return log_normalize(log_num)
    if combiner in ("mle", "js"):
        q_mle = np.exp(log_num - log_den)
        if combiner == "mle":
            return _normalize(q_mle)
        shrink = np.maximum(0.0, 1.0 - np.exp(log_den - 2.0 * log_num))  # eq. 4 with the (.)^+ guard
        q_js = shrink * q_mle
        dead = q_js.sum(axis=1, keepdims=True) <= 0
        return _normalize(np.where(dead, q_mle, q_js))
    mu = np.exp(log_mu)
    if combiner == "sum_vote":
        votes = np.zeros((n, n_classes))
        np.add.at(votes, (np.broadcast_to(np.arange(n), (k, n)), np.argmax(log_mu, axis=2)), 1.0)
        return (votes + mu.mean(axis=0)) / (k + 1)  # mean μ < 1: it only decides between tied vote counts
    if combiner == "max_prob":
        return _normalize(mu.max(axis=0))
    if combiner == "sum_prob":
        return _normalize(mu.sum(axis=0))
    best = np.argmin(log_var, axis=0)  # min_var: member with the smallest σ²(c), per class
    return _normalize(np.take_along_axis(mu, best[None], axis=0)[0])


def member_log_stats(model, X) -> tuple[np.ndarray, np.ndarray]:
    """(log μ, log σ²) of one member: a NB/TAN (eq. 7-13) or a fitted MUV (its answer, eq. 2 variance)."""
    if hasattr(model, "mean_log_variance"):
        return model.mean_log_variance(X)
    return mean_log_variance(model, X)


def _stack_stats(models, X) -> tuple[np.ndarray, np.ndarray]:
    """Member statistics stacked to (k, n, K); one vectorized pass per member."""
    stats = [member_log_stats(m, X) for m in models]
    return np.stack([s[0] for s in stats]), np.stack([s[1] for s in stats])


# --------------------------------------------------------------------------------------------- sampling
def _bootstrap(rng, w: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Bootstrap multiplicities of the masked rows (drawn ∝ weight), rescaled to their total weight."""
    wm = np.where(mask, w, 0.0)
    total = wm.sum()
    size = int(mask.sum())
    if total <= 0 or size == 0:
        return np.zeros_like(w)
    return rng.multinomial(size, wm / total) * (total / size)


def compact_weights(weights: np.ndarray) -> np.ndarray:
    """Member weights in the smallest unsigned integer type that holds them exactly, else as they are.

    Under unit sample weights a member's weights are bootstrap multiplicities or 0/1 part masks (§4.2-4.3):
    small whole numbers, which a fitted MUV[MUV] would otherwise keep as 8-byte floats for each of its
    thirty members' rows. :func:`expand_weights` gives back the same floats bit for bit (a -0.0, which an
    integer cannot hold, keeps the float array).
    """
    if weights.size == 0 or not np.all(weights == np.trunc(weights)) or np.any(np.signbit(weights)):
        return weights
    top = weights.max()
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return weights.astype(dtype)
    return weights


def expand_weights(stored: np.ndarray) -> np.ndarray:
    """The float64 member weights :func:`compact_weights` stored (no copy when they stayed floats)."""
    return np.asarray(stored, dtype=np.float64)


def _class_sorted_parts(rng, y: np.ndarray, k: int, balanced: bool) -> np.ndarray:
    """Part 0..k-1 of each row. The rows are sorted by class, in random order within a class, then dealt
    round-robin (``balanced``: each part keeps the class mix) or cut into k contiguous runs (skewed)."""
    n = y.shape[0]
    perm = rng.permutation(n)
    order = perm[np.argsort(y[perm], kind="stable")]
    parts = np.empty(n, dtype=np.int64)
    parts[order] = np.arange(n) % k if balanced else np.arange(n) * k // n
    return parts


class _CombinedMembers(ClassifierMixin):
    """Prediction shared by MUV and MUV[MUV]: fitted ``estimators_`` combined by ``combiner``."""

    def member_stats(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(log μ_i, log σ_i²) of every member, (k, n, K)."""
        X = check_discrete_X(self, X)
        return _stack_stats(self.estimators_, X)

    def mean_log_variance(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(log of the combined answer, log σ² of its MLE estimate, eq. 2), for use inside MUV[MUV]."""
        log_mu, log_var = self.member_stats(X)
        with np.errstate(divide="ignore"):
            return np.log(combine(log_mu, log_var, self.combiner)), mle_log_variance(log_var)

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        The members' answers combined by ``combiner`` with their query-specific variances,
        normalized over the classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        return combine(*self.member_stats(X), self.combiner)


class MUV(_CombinedMembers, BaseEstimator):
    """Mixture-using-variance ensemble of naive Bayes or TAN base classifiers.

    k base belief-net classifiers are trained on different samples (§4.2-4.4) and, for each query, their
    responses P_i(c | e) are combined using their query-specific variances (eq. 3-4, 8-13; see the module
    docstring). Input: integer codes, NaN or negative = missing; at predict a code >= ``n_values_`` (never seen
    in training) counts as missing.

    Parameters
    ----------
    base : NaiveBayes or TAN, default=None
        The base classifier: a NaiveBayes with ``prior="laplace"`` or a TAN; None = ``NaiveBayes()``.
        ``set_params`` also accepts scikit-learn's ``estimator``/``base_estimator`` for it.
    n_estimators : int, default=3
        k, the number of members.
    sampling : {"bootstrap", "disjoint", "adaboost"}, default="bootstrap"
        How the members' training samples are drawn.
    balance : {"balanced", "skewed"}, default="balanced"
        Class balance of the samples.
    skew : {"per_class", "sorted"}, default="per_class"
        Skewed samples: one member per class (§4.3), or k class-sorted parts (Fig. 2(c)'s caption).
    combiner : str, default="js"
        One of :data:`~nbx.models.muv.COMBINERS`: ``"mle"`` eq. 3, ``"js"`` eq. 4 (James-Stein shrinkage), or
        the alternatives of the module docstring.
    random_state : int, numpy Generator or None, default=None
        Seed of the sampling.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    estimators_ : list
        The fitted base models.
    sample_weights_ : ndarray of shape (n_estimators, n_samples)
        Training weights of each member (for adaboost those AdaBoost.M1 fitted each kept model under), stacked
        when asked from the compact form the model keeps.
    boost_ : AdaBoostM1
        The AdaBoost.M1 run (``sampling="adaboost"`` only).
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Lee, C.-H., Greiner, R. & Wang, S. (2006). *Using Query-Specific Variance Estimates to Combine Bayesian
    Classifiers*. ICML 2006, 529-536, §3.1, §4 (eq. 3-4, 8-13).

    Examples
    --------
    >>> from nbx.models.muv import MUV
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = MUV(n_estimators=3, random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    input_kind = "discrete"
    _param_aliases = {"estimator": "base", "base_estimator": "base"}
    _parameter_constraints = {
        "base": [ESTIMATOR, NONE],
        "n_estimators": [Interval(Integral, 1, None, "left")],
        "sampling": [Options(*SAMPLINGS)],
        "balance": [Options(*BALANCES)],
        "skew": [Options(*SKEWS)],
        "combiner": [Options(*COMBINERS)],
        "random_state": RANDOM_STATE,
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        base=None,
        n_estimators: int = 3,
        sampling: str = "bootstrap",
        balance: str = "balanced",
        skew: str = "per_class",
        combiner: str = "js",
        random_state=None,
        n_values=None,
    ):
        self.base = base
        self.n_estimators = n_estimators
        self.sampling = sampling
        self.balance = balance
        self.skew = skew
        self.combiner = combiner
        self.random_state = random_state
        self.n_values = n_values

    def _base(self):
        return NaiveBayes() if self.base is None else self.base

    def _member_weights(self, rng, y: np.ndarray, w: np.ndarray, n_classes: int) -> list[np.ndarray]:
        """Training weights of each member (§4.2-4.3)."""
        k = int(self.n_estimators)
        if self.balance == "skewed":
            if self.skew == "per_class":
                masks = [y == c for c in range(n_classes)]
            else:
                parts = _class_sorted_parts(rng, y, k, balanced=False)
                masks = [parts == i for i in range(k)]
            if self.sampling == "disjoint":
                return [np.where(m, w, 0.0) for m in masks]
            return [_bootstrap(rng, w, m) for m in masks]
        if k == 1:
            return [w.copy()]
        if self.sampling == "disjoint":
            parts = _class_sorted_parts(rng, y, k, balanced=True)
            return [np.where(parts == i, w, 0.0) for i in range(k)]
        everyone = np.ones(y.shape[0], dtype=bool)
        return [_bootstrap(rng, w, everyone) for _ in range(k)]

    def _fit_adaboost(self, X, y, w, n_values, random_state):
        """AdaBoost.M1's base models (§4.4), refitted on the full data under the weights AdaBoost gave each.

        AdaBoostM1 fits its members on class indices and on the rows of positive weight only, so a member
        can miss classes; refitting the same (deterministic) learner under the same weights, given every class
        (:meth:`_member`), gives the same CP tables but every class in ``classes_``. AdaBoost keeps its weights
        summing to N, so the counts (and effective sample sizes) stay in units of rows.
        """
        try:
            from nbx.models.ensembles import AdaBoostM1
        except ImportError:
            raise NotImplementedError(
                "sampling='adaboost' needs nbx.models.ensembles.AdaBoostM1, which is not available"
            ) from None
        # the same random_state as a stand-alone AdaBoostM1 run, so both see the same base models (§4.4)
        boost = AdaBoostM1(base=clone(self._base()), n_estimators=int(self.n_estimators), random_state=random_state)
        boost.fit(X, y, sample_weight=w, n_values=n_values)
        self.boost_ = boost
        # the rows here all have positive weight; the history rebuilds each member's weights when read
        return boost.training_weights_, boost.n_values_

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
        self : MUV
            The fitted estimator.
        """
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        X, y, n_values = codes, self.classes_[y_idx], self.n_values_  # the checked input, for the members
        rng = check_rng(self.random_state)
        if self.sampling == "adaboost":  # AdaBoost's weight history itself, not arrays read from it
            weights, n_values = self._fit_adaboost(X, y, w, n_values, self.random_state)
        else:
            weights = [compact_weights(mw) for mw in self._member_weights(rng, y_idx, w, len(self.classes_))]
        self._member_sample_weights = weights
        self.estimators_ = [
            self._member().fit(X, y, sample_weight=expand_weights(mw), n_values=n_values) for mw in weights
        ]
        return self

    @property
    def sample_weights_(self) -> np.ndarray:
        """(k, n) training weights of each member, float64."""
        if "_member_sample_weights" not in self.__dict__:  # unfitted, or pickled when fit kept the stacked array
            if "sample_weights_" in self.__dict__:
                return self.__dict__["sample_weights_"]
            raise AttributeError("sample_weights_")
        return np.stack([expand_weights(mw) for mw in self._member_sample_weights])

    def _member(self):
        """An unfitted clone of ``base`` given every class of the ensemble: a member's rows of weight 0 are
        absent rows, and a class absent from its sample keeps its Dirichlet prior (module docstring)."""
        est = clone(self._base())
        if "classes" not in est.get_params(deep=False):
            raise ValueError(f"MUV's base needs a classes parameter (NaiveBayes or TAN), {type(est).__name__} has none")
        return est.set_params(classes=self.classes_)


class MUVofMUV(_CombinedMembers, BaseEstimator):
    """MUV[MUV]: several MUVs fitted on the same data, combined by ``combiner`` (Lee et al. 2006 §4.6).

    Parameters
    ----------
    members : list of estimators, default=None
        Unfitted estimators with a ``mean_log_variance`` method, or NB/TAN models (params.yaml builds a list of
        ``{class: MUV, ...}`` blocks into estimators); None = :func:`~nbx.models.muv.paper_members`, the nine
        MUVs of §4.6. Each member's ``random_state`` (when it has one) is replaced by a seed drawn from this
        estimator's ``random_state``, for reproducibility.
    combiner : str, default="js"
        How the members' answers are combined, as in :class:`MUV`.
    random_state : int, numpy Generator or None, default=None
        Seed of the members' seeds.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    estimators_ : list
        The fitted members.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Lee, C.-H., Greiner, R. & Wang, S. (2006). *Using Query-Specific Variance Estimates to Combine Bayesian
    Classifiers*. ICML 2006, 529-536, §4.6.

    Examples
    --------
    >>> from nbx.models.muv import MUVofMUV
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = MUVofMUV(random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "members": [ARRAY_LIKE, NONE],
        "combiner": [Options(*COMBINERS)],
        "random_state": RANDOM_STATE,
        "n_values": N_VALUES,
    }

    def __init__(self, members=None, combiner: str = "js", random_state=None, n_values=None):
        self.members = members
        self.combiner = combiner
        self.random_state = random_state
        self.n_values = n_values

    def _members(self) -> list:
        specs = paper_members() if self.members is None else list(self.members)
        if not specs:
            raise ValueError("members must hold at least one estimator")
        return [clone(spec) for spec in specs]

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
        self : MUVofMUV
            The fitted estimator.
        """
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        X, y, n_values = codes, self.classes_[y_idx], self.n_values_  # the checked input, for the members
        rng = check_rng(self.random_state)
        self.estimators_ = []
        for est in self._members():
            if "random_state" in est.get_params(deep=False):
                est.set_params(random_state=int(rng.integers(2**31)))
            self.estimators_.append(est.fit(X, y, sample_weight=w, n_values=n_values))
        return self


def paper_members(combiner: str = "js") -> list:
    """The nine MUVs of §4.6: 1-4 NB and 1-4 TAN (boot, bal) and MUV(kNB, AdaBoost), all with ``combiner``.

    The AdaBoost member uses 10 rounds (the paper does not give the number).
    """
    out = [MUV(base=NaiveBayes(), n_estimators=k, combiner=combiner) for k in range(1, 5)]
    out += [MUV(base=TAN(), n_estimators=k, combiner=combiner) for k in range(1, 5)]
    out.append(MUV(base=NaiveBayes(), n_estimators=10, sampling="adaboost", combiner=combiner))
    return out
