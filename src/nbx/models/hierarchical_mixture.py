"""Hierarchical mixtures of naive Bayesian classifiers (Wiering 2003, TR UU-CS-2003-003, §3).

Architecture (§3.1). ``layers`` lists the branching factor of each gating layer: ``[4]`` is the paper's
1-4 HM (a root gating NB over 4 expert NBs), ``[2, 2]`` the 2-2 HM (root over 2 gating NBs, each over 2
experts), ``[2] * 6`` the 6-layer binary HM of the parity experiment; any depth works ("extensions to
higher layer architectures are trivial"). Gating NBs treat their sub-models as classes,
g_i = P(M_i | D) ∝ P(M_i) Π_k P(f_k | M_i); expert NBs output μ_e = P(C | D). The output is
μ = Σ_i g_i Σ_j g_j|i μ_ij (§3.1), applied recursively level by level (:func:`_mix`).

Counters (§2.2). Each NB holds real-valued counters c(C) and c_k(f_k, C), all initialized to
γ + U(0, ``jitter``) (§4: γ = 0.1 + rand(0, 0.01), the symmetry breaking of §3.1), drawn from
``random_state``. The experts' classes are ``classes`` (None = those in y); a class without training
rows keeps its initial counters (§2.2 starts every counter at γ). P(C) = c(C) / tot with tot = Σ_C c(C).
``denominator`` chooses P(f_k | C), for the gating NBs and the experts alike (all are NBCs of §2.2):

- ``"class"`` (default): the paper's P_k(f_k | C) = c_k(f_k, C) / c(C) (§2.2, and for the experts §3.2),
  the class counter as denominator; P(· | C) then need not sum to 1 over the values.
- ``"attribute"``: the per-attribute total Σ_v c_k(v, C), so each P(· | C) is a distribution.

Either way the model with ``jitter=0`` and ``layers=[1]`` equals ``NaiveBayes(alpha=gamma,
denominator=...)`` (:mod:`nbx.models.naive_bayes`). The counters themselves (including the per-attribute
totals) are the same under both readings; only the probabilities read from them differ. Missing values
are neither counted nor used (footnote 7).

Training: online generalized EM (§3.2). For every example (D, C*), in a seeded shuffled order, for
``n_iter`` passes (§4: 5 EM iterations):

* E-step, with the current parameters: each expert's probability of generating C* is the Gaussian
  regression model P̂_e = exp(-σ (1 - P_e(C* | D))) (σ = 0.1). A sub-model's probability of generating
  C* is its gated mixture of these, e.g. Σ_j g_j|i P̂_ij; the posteriors are h_i ∝ g_i Σ_j g_j|i P̂_ij and
  h_j|i ∝ g_j|i P̂_ij, normalized over the siblings.
* M-step: every expert is updated toward C* with weight h_i h_j|i (product of the posteriors on its
  path). Every gating NB is updated toward its best sub-model M_b with weight 1 at the root and its
  path posterior (h_i for the second layer, and so on) below. "The best sub-model M_b has the largest
  probability of generating C*": we take the argmax of the sub-models' own probabilities of generating
  C* (the mixtures above, without the gate's own g), ties to the lowest index. (The other reading,
  argmax of the posterior g_i Σ_j g_j|i P̂_ij, lets the gates reinforce their own initial preference;
  in our runs it never loaded 4-bit parity, where this reading does.)

``warm_start=True`` makes a second ``fit`` continue from the fitted counters and random generator for
``n_iter`` more passes (on data with the same classes and attribute values), so 100 passes and then 200
more equal 300 passes (``n_iter_`` counts the passes the counters have seen: 300).

``sample_weight`` multiplies each example's update weight (rows of weight 0 are absent rows: the fit
preamble drops them, :func:`nbx.core.validation.drop_absent_rows`). Because the EM is online, a weight of k is
not the same as k copies of the row (the copies would be learned one after another with changing
posteriors), an exception to the library's weight convention (tests/estimators.py lists them).

Implementation: the counters of all NBs of one level (the gating NBs of a layer, or all experts) are
stacked in one array (n_counter_rows, n_models, n_outputs) whose rows are the value counters over the
flat value index of :class:`~nbx.core.counting.ValueIndex`, the per-attribute totals and the class
counters (:class:`_Level`); the levels are consecutive blocks of one flat array. The online EM is sequential
(each example sees the counters the previous one left), so its passes run in one compiled loop
(:func:`_online_em_passes`, numba) over that flat array: per example and level a row gather of the counters' logs
(each taken when its counter changes), the
matrix-vector product signs @ log(block) (the same BLAS call numpy makes), a softmax per NB, then the mixture,
its posteriors and the updates. Each step computes the same floating-point operations on the same operands in
the same order as numpy computing every level on its own array (element-wise functions, row sums as numpy
adds them: :func:`nbx.core.sums.row_sum`); ``tests/models/test_hierarchical_mixture.py`` checks this bit for bit
against such a numpy EM. Its logs and exps are the C library's, which are numpy's under the stages' kernel pin
(:mod:`nbx.pipeline.kernels`); numpy's AVX-512 loops differ from them in the last bits, so without the pin a
fit no longer depends on whether the CPU has AVX-512. ``predict_proba`` is batched over examples, in log space per NB.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from numba import njit

from nbx.core.base import (
    CLASS_LABELS,
    N_VALUES,
    BaseEstimator,
    ClassifierMixin,
    check_discrete_fit,
    check_discrete_X,
    check_rng,
)
from nbx.core.counting import ValueIndex
from nbx.core.sums import row_sum, workspace
from nbx.core.validation import BOOLEAN, RANDOM_STATE, Constraint, Interval, Options
from nbx.models.naive_bayes import DENOMINATORS


def _mix(gates: list[np.ndarray], leaves: np.ndarray) -> np.ndarray:
    """Propagate leaf values up through the gating levels: μ = Σ_i g_i Σ_j g_j|i μ_ij, any depth.

    ``gates[l]`` has shape (batch, n_gates_l, b_l) (gating probabilities of layer l), ``leaves`` shape
    (batch, n_leaves, ...) in the leaves' flat order. Returns the root value (batch, ...).
    """
    values = leaves
    for level in range(len(gates) - 1, -1, -1):
        g = gates[level]
        children = values.reshape(g.shape + values.shape[2:])
        values = (g.reshape(g.shape + (1,) * (values.ndim - 2)) * children).sum(axis=2)
    return values[:, 0]


class _Level:
    """Stacked counters of all NBs on one level (n_models NBs with n_out outputs each).

    ``counters`` (n_rows + 1 + d + 1, n_models, n_out), a view into the model's flat counter array, holds by
    row: the value counters c_k(f, o) over the flat value index, the (unused) missing-value row, the
    per-attribute totals Σ_v c_k(v, o), and the class counters c(o).
    """

    def __init__(self, counters: np.ndarray, index: ValueIndex, gamma: float, jitter: float, rng):
        self.n_rows, self.n_attrs = index.n_rows, len(index.n_values)
        self.attribute_of_row = index.attribute_of_row
        self.counters = counters
        counters[...] = gamma
        if jitter:
            self.values[:] += rng.uniform(0.0, jitter, size=self.values.shape)
            self.classes[:] += rng.uniform(0.0, jitter, size=self.classes.shape)
        counters[self.n_rows] = 1.0  # missing-value row: never read
        if self.n_rows:
            self.totals[:] = np.add.reduceat(self.values, index.offsets, axis=0)

    @property
    def values(self):
        return self.counters[: self.n_rows]

    @property
    def totals(self):
        return self.counters[self.n_rows + 1 : self.n_rows + 1 + self.n_attrs]

    @property
    def classes(self):
        return self.counters[-1]

    def log_tables(self, denominator: str) -> tuple[np.ndarray, np.ndarray]:
        """Log prior (n_models, n_out) and flat log table (n_rows + 1, n_models * n_out), missing row 0."""
        log_prior = np.log(self.classes) - np.log(self.classes.sum(axis=1, keepdims=True))
        if denominator == "class":
            log_cond = np.log(self.values) - np.log(self.classes)
        else:
            log_cond = np.log(self.values) - np.log(self.totals[self.attribute_of_row])
        table = np.concatenate([log_cond, np.zeros((1,) + log_cond.shape[1:])])
        return log_prior, table.reshape(table.shape[0], -1)


@njit(cache=True)
def _softmax_rows(x: np.ndarray, n_out: int, out: np.ndarray, totals: np.ndarray, right, left) -> None:
    """out = exp(x - row max) and totals = its row sums, per row of n_out entries of the flat ``x``
    (``right``, ``left``: :func:`nbx.core.sums.row_sum`'s work space)."""
    for m in range(x.shape[0] // n_out):
        a = m * n_out
        top = x[a]
        for j in range(1, n_out):
            top = max(top, x[a + j])
        for j in range(n_out):
            out[a + j] = np.exp(x[a + j] - top)
        totals[m] = row_sum(out[a:], n_out, right, left)


@njit(cache=True)
def _online_em_passes(
    flat, orders, codes, offsets, n_values, y, w, bases, n_models, n_outs, n_counter_rows, by_class, sigma
):
    """The online GEM of §3.2 (see the class docstring): for each pass, for each example in that pass's order, the
    E-step on the current counters and every update, in place in the flat counter array ``flat``.

    ``codes`` (n, d) are the training codes (-1 = missing); an example's counter rows are read from them as
    :meth:`nbx.core.counting.ValueIndex.rows` maps them (``offsets[j] + code``, the missing row for a code
    >= ``n_values[j]``), so no (n, d) array of table rows is made beside the codes.

    Levels l (root gating level first, experts last) hold n_models[l] NBs with n_outs[l] outputs at
    ``flat[bases[l] + counter_row * width_l + model * n_outs[l] + output]``, width_l = n_models[l] * n_outs[l];
    counter rows: the value rows of ``ValueIndex``, the missing row, one total per attribute, the class row.
    log P(o | D) = signs @ log(counters[read rows]) per level: value rows +1, totals -1, class row +1
    (denominator "attribute") or value rows +1, class row 1 - n_observed ("class"). Every operation is the
    element-wise function or row reduction numpy computes (under the kernel pin) on the same operands in the same
    order (:func:`nbx.core.sums.row_sum`), and the product is the same BLAS matrix-vector product (numba's
    ``np.dot``), so a fit is bit for bit the numpy EM level by level (``tests/models/test_hierarchical_mixture.py``)."""
    n_levels, d = bases.shape[0], codes.shape[1]
    n_gating = n_levels - 1
    widths = n_models * n_outs
    firsts = np.zeros(n_levels + 1, np.int64)  # first model of each level in path / weight / target
    cols = np.zeros(n_levels + 1, np.int64)  # first column of each level in log_p / prob / joint
    for l in range(n_levels):
        firsts[l + 1] = firsts[l] + n_models[l]
        cols[l + 1] = cols[l] + widths[l]
    n_value_rows = n_counter_rows - d - 2
    class_row = n_counter_rows - 1
    log_p, prob, joint = np.empty(cols[-1]), np.empty(cols[-1]), np.empty(cols[-1])
    totals, value = np.empty(firsts[-1]), np.empty(firsts[-1])
    path, target = np.ones(firsts[-1]), np.zeros(firsts[-1], np.int64)
    mu = np.empty(n_models[-1])
    right, left = workspace()
    update = np.empty(2 * d + 1, np.int64)  # counter rows an example updates: values, totals, class
    read = np.empty(2 * d + 1, np.int64)
    signs_all = np.empty(2 * d + 1)
    block_all = np.empty((2 * d + 1) * widths.max())
    # log of every counter, kept beside it: an example changes 2n + 1 counters per model, while the E-step reads
    # n + 1 or 2n + 1 counter rows of every model, so each counter's log is taken when it changes, not when read
    log_flat = np.log(flat)
    for p in range(orders.shape[0]):
        for i in orders[p]:
            n = 0
            for j in range(d):
                code = codes[i, j]
                if code >= 0:  # observed
                    update[n] = offsets[j] + code if code < n_values[j] else n_value_rows
                    update[d + n] = n_value_rows + 1 + j
                    n += 1
            for a in range(n):  # totals after the values
                update[n + a] = update[d + a]
            update[2 * n] = class_row
            if by_class:
                s = n + 1
                read[:n] = update[:n]
                read[n] = class_row
                signs_all[:n] = 1.0
                signs_all[n] = 1.0 - n
            else:
                s = 2 * n + 1
                read[:s] = update[:s]
                signs_all[:n] = 1.0
                signs_all[n : 2 * n] = -1.0
                signs_all[2 * n] = 1.0
            signs = signs_all[:s]
            # E-step: log scores of every level, then each NB's softmax over its outputs
            for l in range(n_levels):
                wd = widths[l]
                block = block_all[: s * wd].reshape((s, wd))
                for r in range(s):
                    at = bases[l] + read[r] * wd
                    for c in range(wd):
                        block[r, c] = log_flat[at + c]
                log_p[cols[l] : cols[l + 1]] = np.dot(signs, block)
                scores, probs = log_p[cols[l] : cols[l + 1]], prob[cols[l] : cols[l + 1]]
                _softmax_rows(scores, n_outs[l], probs, totals[firsts[l] :], right, left)
            # experts: P̂_e(C* | D) = exp(-σ (1 - P_e(C* | D))), the Gaussian regression model
            k, e0, c_star = n_outs[-1], cols[n_gating], y[i]
            for e in range(n_models[-1]):
                mu[e] = np.exp(-sigma * (1.0 - prob[e0 + e * k + c_star] / totals[firsts[n_gating] + e]))
            # upward (:func:`_mix`), bottom gating level first: joint = g · children, a gate's value = Σ joint;
            # its best sub-model is the argmax of the children's own probabilities of generating C*
            for l in range(n_gating - 1, -1, -1):
                k = n_outs[l]
                for m in range(n_models[l]):
                    a = cols[l] + m * k
                    best, best_child = 0, -np.inf
                    for j in range(k):
                        child = mu[m * k + j] if l == n_gating - 1 else value[firsts[l + 1] + m * k + j]
                        joint[a + j] = (prob[a + j] / totals[firsts[l] + m]) * child
                        if child > best_child:
                            best, best_child = j, child
                    value[firsts[l] + m] = row_sum(joint[a:], k, right, left)
                    target[firsts[l] + m] = best
            # downward, root first: posterior of reaching each model, path · joint / Σ joint
            for l in range(n_gating):
                k = n_outs[l]
                for m in range(n_models[l]):
                    for j in range(k):
                        child = firsts[l + 1] + m * k + j
                        path[child] = path[firsts[l] + m] * joint[cols[l] + m * k + j] / value[firsts[l] + m]
            # M-step: every NB toward its target (gates: the best sub-model; experts: C*), weight · path
            for l in range(n_levels):
                wd, k = widths[l], n_outs[l]
                for m in range(n_models[l]):
                    model = firsts[l] + m
                    col = m * k + (c_star if l == n_gating else target[model])
                    add = w[i] * path[model]
                    for r in range(2 * n + 1):
                        at = bases[l] + update[r] * wd + col
                        flat[at] += add
                        log_flat[at] = np.log(flat[at])


class HierarchicalMixtureNB(ClassifierMixin, BaseEstimator):
    """Hierarchical mixture of naive Bayes classifiers, trained by online EM (Wiering 2003 §3).

    Gating naive Bayes models weigh expert naive Bayes models, layer by layer (see the module docstring).
    Input: integer codes, NaN or negative = missing; at predict a code >= ``n_values_`` (never seen in
    training) counts as missing too.

    Parameters
    ----------
    layers : tuple of int, default=(4,)
        Branching factor per gating layer: ``(4,)`` is the paper's 1-4 HM, ``(2, 2)`` the 2-2 HM.
    gamma : float, default=0.1
        Initial counter γ (§2.2).
    jitter : float, default=0.01
        Initial counters are γ + U(0, jitter).
    sigma : float, default=0.1
        σ of the Gaussian regression model.
    n_iter : int, default=5
        Online EM passes.
    denominator : {"class", "attribute"}, default="class"
        ``"class"``: P(f | C) = c(f, C) / c(C) as §2.2 writes it; ``"attribute"``: divided by the attribute's
        total.
    warm_start : bool, default=False
        Continue from the previous fit's counters.
    random_state : int, numpy Generator or None, default=None
        Seed of the jitter and the row order.
    classes : array-like, default=None
        The class labels the experts keep counters for, as in :class:`~nbx.models.naive_bayes.NaiveBayes`;
        None = those in y.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Number of values per column.
    levels_ : list of dict
        Per level, from the root gating layer to the experts, the counters ``values`` (n_rows, n_models, n_out)
        over the flat value index, ``totals`` (n_attributes, n_models, n_out) and ``classes`` (n_models, n_out).
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Wiering, M. A. (2003). *Hierarchical Mixtures of Naive Bayesian Classifiers*. Technical report
    UU-CS-2003-003, Utrecht University, §2.2, §3, §4.

    Examples
    --------
    >>> from nbx.models.hierarchical_mixture import HierarchicalMixtureNB
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = HierarchicalMixtureNB(layers=(2,), random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "layers": [
            Constraint(
                "a list of positive ints (branching factors)",
                lambda v: isinstance(v, (list, tuple)) and all(Interval(Integral, 1, None, "left")(b) for b in v),
            )
        ],
        "gamma": [Interval(Real, 0, None, "neither")],
        "jitter": [Interval(Real, 0, None, "left")],
        "sigma": [Interval(Real, 0, None, "left")],
        "n_iter": [Interval(Integral, 0, None, "left")],
        "denominator": [Options(*DENOMINATORS)],
        "warm_start": [BOOLEAN],
        "random_state": RANDOM_STATE,
        "classes": CLASS_LABELS,
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        layers=(4,),
        gamma: float = 0.1,
        jitter: float = 0.01,
        sigma: float = 0.1,
        n_iter: int = 5,
        denominator: str = "class",
        warm_start: bool = False,
        random_state=None,
        classes=None,
        n_values=None,
    ):
        self.layers = layers
        self.gamma = gamma
        self.jitter = jitter
        self.sigma = sigma
        self.n_iter = n_iter
        self.denominator = denominator
        self.warm_start = warm_start
        self.random_state = random_state
        self.classes = classes
        self.n_values = n_values

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
        self : HierarchicalMixtureNB
            The fitted estimator.
        """
        warm = self.warm_start and hasattr(self, "_levels")
        fitted = (self.classes_, self.n_values_, self._layers) if warm else None
        # (checks the parameters too)
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values, self.classes)
        layers = [int(b) for b in self.layers]
        if warm:
            if not (
                np.array_equal(fitted[0], self.classes_)
                and np.array_equal(fitted[1], self.n_values_)
                and fitted[2] == layers
            ):
                self.classes_, self.n_values_ = fitted[:2]
                raise ValueError("warm_start: classes, attribute values and layers must be those of the first fit")
        else:
            self._index = ValueIndex(self.n_values_)
            self._rng = check_rng(self.random_state)
            self._layers = layers
            self._levels = self._init_levels(layers, len(self.classes_), self._rng)
            self.n_iter_ = 0
        self._online_em(codes, y_idx, w, self._rng)  # rows of positive weight
        self.n_iter_ += self.n_iter
        return self

    def _init_levels(self, layers: list[int], n_classes: int, rng) -> list[_Level]:
        n_models = np.concatenate([[1], np.cumprod(layers)]).astype(int)
        shapes = [(int(m), k) for m, k in zip(n_models, layers + [n_classes])]
        n_counter_rows = self._index.n_rows + 1 + len(self.n_values_) + 1
        sizes = [n_counter_rows * m * k for m, k in shapes]
        self._flat = np.empty(sum(sizes))
        bounds = np.cumsum([0] + sizes)
        return [
            _Level(self._flat[a:b].reshape((n_counter_rows,) + shape), self._index, self.gamma, self.jitter, rng)
            for a, b, shape in zip(bounds[:-1], bounds[1:], shapes)
        ]

    def _online_em(self, codes, y, w, rng) -> None:
        """``n_iter`` passes of the online EM over the training codes (n, d), -1 = missing."""
        if not self.n_iter:
            return
        orders = np.empty((self.n_iter, codes.shape[0]), np.int64)  # one order per pass, drawn before the passes
        for p in range(self.n_iter):  # filled in place: no list of permutations beside the stacked array
            orders[p] = rng.permutation(codes.shape[0])
        shapes = np.array([lv.counters.shape[1:] for lv in self._levels], np.int64)  # (n_models, n_out), root first
        sizes = [lv.counters.size for lv in self._levels]
        _online_em_passes(
            self._flat,
            orders,
            codes,
            self._index.offsets,
            self._index.n_values,
            np.asarray(y, np.int64),
            np.asarray(w, np.float64),
            np.cumsum([0] + sizes[:-1]).astype(np.int64),
            shapes[:, 0].copy(),
            shapes[:, 1].copy(),
            self._levels[0].counters.shape[0],
            self.denominator == "class",
            float(self.sigma),
        )

    @property
    def levels_(self) -> list[dict]:
        """The counters of every level, root gating layer first (see the class's Attributes)."""
        return [{"values": lv.values, "totals": lv.totals, "classes": lv.classes} for lv in self._levels]

    def _level_proba(self, level: _Level, codes: np.ndarray) -> np.ndarray:
        """P(output | D) of every model of a level for a batch, (n, n_models, n_out), in log space."""
        log_prior, table = level.log_tables(self.denominator)
        joint = self._index.lookup_sum(table, codes).reshape((codes.shape[0],) + log_prior.shape) + log_prior
        joint -= joint.max(axis=2, keepdims=True)
        p = np.exp(joint)
        return p / p.sum(axis=2, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        μ = Σ_i g_i Σ_j g_j|i μ_ij (§3.1): the experts' outputs weighed by the gating models, level by
        level.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        codes = check_discrete_X(self, X)
        *gating, experts = self._levels
        gates = [self._level_proba(level, codes) for level in gating]
        return _mix(gates, self._level_proba(experts, codes))
