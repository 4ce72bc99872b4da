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
counters (:class:`_Level`); the levels are consecutive blocks of one flat array. The online EM
(:class:`_OnlineEM`) prepares each example's counter rows and flat update indices once per fit and works
in preallocated buffers, so an example costs a fixed number of numpy calls on small arrays: per level a
row gather and a matrix-vector product, one log for all levels, one softmax per run of gating levels with
the same branching factor, a few calls per level for the mixture and its posteriors, and one
fancy-indexed add for all updates. Each of these computes, element by element, the same floating-point
operations on the same operands as computing every level on its own array (numpy's row sums and
element-wise functions do not depend on the array a row belongs to; a BLAS matrix-vector product depends
on the matrix width, so each level keeps its own product); ``tests/test_hierarchical_mixture.py`` checks
this bit for bit. The only Python loops are over examples (the online algorithm is sequential) and over
levels. ``predict_proba`` is batched over examples, in log space per NB.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

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


def _softmax_plan(x: np.ndarray, out: np.ndarray) -> tuple:
    """Buffers for a row-wise softmax exp(x - max) / Σ exp(x - max) of a fixed (n, k) array into ``out``.

    For k = 2 the row max and the row sum become element-wise calls on the two columns (``pair``): the same
    values, as a max is exact and numpy sums a row of two as x0 + x1.
    """
    n, k = x.shape
    return (x, out, np.empty((n, 1)), np.empty((n, 1)), k == 2, x[:, :1], x[:, 1:], out[:, :1], out[:, 1:])


def _exp_shifted(plan: tuple) -> None:
    """out = exp(x - row max) and total = its row sums, for a :func:`_softmax_plan`."""
    x, out, top, total, pair, x0, x1, out0, out1 = plan
    if pair:
        np.maximum(x0, x1, out=top)  # (a positional out is deprecated for maximum, and slow)
    else:
        np.maximum.reduce(x, 1, None, top, True)
    np.subtract(x, top, out)
    np.exp(out, out)
    if pair:
        np.add(out0, out1, total)
    else:
        np.add.reduce(out, 1, None, total, True)


class _OnlineEM:
    """The online GEM of §3.2 on one training set, with every index and buffer prepared once.

    An example updates its observed value rows, their attributes' totals and the class row. The E-step reads
    the rows of log P(o | D) = log c(o) + Σ_k [log c_k(f_k, o) - log Σ_v c_k(v, o)] + const (denominator
    "attribute": value rows, totals and class row with signs +1, -1, +1) or Σ_k log c_k(f_k, o) +
    (1 - n_observed) log c(o) + const ("class": value rows +1, class row 1 - n_observed), gathered level by
    level (level l as an (s, W_l) block, W_l = n_models · n_out), as signs @ log(block) per level;
    :meth:`step` then follows :func:`_mix` and the M-step of §3.2.
    """

    def __init__(
        self, model: HierarchicalMixtureNB, rows: np.ndarray, observed: np.ndarray, y: np.ndarray, w: np.ndarray
    ):
        levels = model._levels
        self.flat, self.neg_sigma = model._flat, -float(model.sigma)
        shapes = [lv.counters.shape[1:] for lv in levels]  # (n_models, n_out), root gate first, experts last
        widths = [m * k for m, k in shapes]
        n_counter_rows = levels[0].counters.shape[0]
        bases = np.cumsum([0] + [n_counter_rows * wd for wd in widths])  # level blocks in the flat array
        cols = np.cumsum([0] + widths)  # level columns of log_p
        firsts = np.cumsum([0] + [m for m, _ in shapes])  # level models in path / weight
        n_gating = len(shapes) - 1

        # E-step: log scores and softmax outputs of every level; gating runs of equal branching share a softmax
        log_p, prob = np.empty(cols[-1]), np.empty(cols[-1])
        self.level_log_p = [log_p[a:b] for a, b in zip(cols[:-1], cols[1:])]
        self.gate_softmaxes, level = [], 0
        while level < n_gating:
            end = level + 1
            while end < n_gating and shapes[end][1] == shapes[level][1]:
                end += 1
            k = shapes[level][1]
            self.gate_softmaxes.append(
                _softmax_plan(
                    log_p[cols[level] : cols[end]].reshape(-1, k), prob[cols[level] : cols[end]].reshape(-1, k)
                )
            )
            level = end
        self.experts = _softmax_plan(self.level_log_p[-1].reshape(shapes[-1]), prob[cols[-2] :].reshape(shapes[-1]))
        self.expert_columns = [self.experts[1][:, c] for c in range(shapes[-1][1])]
        self.expert_totals = self.experts[3][:, 0]
        self.mu = np.empty(shapes[-1][0])  # experts' P_e(C* | D), then P̂_e(C* | D)
        # M-step: per model (root first) the output to update (experts: 0, as C* is folded into their
        # indices), the posterior of reaching it (the root's is 1) and the update weight
        self.target = np.zeros(firsts[-1], dtype=np.intp)
        self.path, self.weight = np.ones(firsts[-1]), np.empty(firsts[-1])
        # upward pass of :func:`_mix` per gating level, bottom first: (g, children, joint = g * children,
        # value = Σ joint, best child); downward, top first: (path, joint, value, the children's path)
        # (path · joint is joint itself at the root, whose path is 1)
        values = [np.empty((m, 1)) for m, _ in shapes[:-1]]
        self.upward, self.downward = [], []
        for l in range(n_gating - 1, -1, -1):
            m, k = shapes[l]
            children = (values[l + 1] if l + 1 < n_gating else self.mu).reshape(m, k)
            joint = np.empty((m, k))
            self.upward.append(
                (
                    prob[cols[l] : cols[l + 1]].reshape(m, k),
                    children,
                    joint,
                    values[l],
                    self.target[firsts[l] : firsts[l + 1]],
                    k == 2,
                    joint[:, :1],
                    joint[:, 1:],
                )
            )
            self.downward.insert(
                0,
                (
                    self.path[firsts[l] : firsts[l + 1], None],
                    joint,
                    values[l],
                    self.path[firsts[l + 1] : firsts[l + 2]].reshape(m, k),
                ),
            )

        # per example: the counter rows its E-step reads (gathered level by level into consecutive (s, W_l)
        # blocks) and the flat indices base_l + row·W_l + model·n_out (+ C* for the experts) its M-step
        # updates; examples with the same number of observed attributes share the buffers
        self.level_counters = [lv.counters.reshape(n_counter_rows, -1) for lv in levels]
        n_rows, n_attrs = model._index.n_rows, rows.shape[1]
        self.examples = [None] * len(y)
        n_observed = observed.sum(axis=1)
        most = 2 * int(n_observed.max(initial=0)) + 1
        gathered_all, index_all = np.empty(most * cols[-1]), np.empty(most * firsts[-1], dtype=np.intp)
        weights = w.tolist()
        for n in np.unique(n_observed).tolist():
            group = np.flatnonzero(n_observed == n)
            attrs = np.nonzero(observed[group])[1].reshape(len(group), n)
            sel = np.concatenate(
                [
                    rows[group][observed[group]].reshape(len(group), n),
                    n_rows + 1 + attrs,
                    np.full((len(group), 1), n_rows + 1 + n_attrs),
                ],
                axis=1,
            )
            update = np.concatenate(
                [bases[l] + sel[:, :, None] * widths[l] + np.arange(m) * k for l, (m, k) in enumerate(shapes)], axis=2
            )
            update[:, :, firsts[-2] :] += y[group, None, None]
            if model.denominator == "class":
                sel = sel[:, np.r_[:n, 2 * n]]
                signs = np.concatenate([np.ones(n), [1.0 - n]])
            else:
                signs = np.concatenate([np.ones(n), -np.ones(n), [1.0]])
            s = sel.shape[1]
            gathered = gathered_all[: s * cols[-1]]
            blocks = [gathered[s * a : s * b].reshape(s, b - a) for a, b in zip(cols[:-1], cols[1:])]
            level_io = tuple(zip(self.level_counters, blocks, self.level_log_p))
            index = index_all[: update[0].size].reshape(update.shape[1:])
            for i, rows_i, u in zip(group.tolist(), sel, update):
                self.examples[i] = (rows_i, u, int(y[i]), weights[i], signs, gathered, level_io, index)

    def step(self, i: int) -> None:
        """One online GEM step (§3.2) on example i: E-step on the current parameters, then every update."""
        rows, update, c_star, weight, signs, gathered, level_io, index = self.examples[i]
        flat, multiply, divide = self.flat, np.multiply, np.divide
        for counters, block, _ in level_io:
            counters.take(rows, 0, block, "clip")
        np.log(gathered, gathered)
        for _, block, out in level_io:
            np.matmul(signs, block, out)
        for plan in self.gate_softmaxes:
            _exp_shifted(plan)
            divide(plan[1], plan[3], plan[1])
        _exp_shifted(self.experts)
        mu = self.mu
        divide(self.expert_columns[c_star], self.expert_totals, mu)
        np.subtract(1.0, mu, mu)
        multiply(self.neg_sigma, mu, mu)
        np.exp(mu, mu)  # P̂_e(C* | D) = exp(-σ (1 - P_e(C* | D))), the Gaussian regression model
        # upward (:func:`_mix`): joint = g · children, a gate's value = Σ joint; its best sub-model M_b is the
        # argmax of the children's own probabilities of generating C* (ties to the lowest index)
        for g, children, joint, value, best, pair, joint0, joint1 in self.upward:
            multiply(g, children, joint)
            if pair:
                np.add(joint0, joint1, value)
            else:
                np.add.reduce(joint, 1, None, value, True)
            children.argmax(1, best)
        # downward: posterior of reaching each model, path · joint / Σ joint
        for path, joint, value, child_path in self.downward:
            multiply(path, joint, child_path)
            divide(child_path, value, child_path)
        multiply(weight, self.path, self.weight)  # update weight = sample weight · path
        np.add(update, self.target, index)
        flat[index] += self.weight


class HierarchicalMixtureNB(ClassifierMixin, BaseEstimator):
    """Hierarchical mixture of naive Bayes classifiers (Wiering 2003 §3); see the module docstring.

    Parameters: ``layers`` (branching factor per gating layer), ``gamma`` (initial counter γ),
    ``jitter`` (initial counters γ + U(0, jitter)), ``sigma`` (σ of the Gaussian regression model),
    ``n_iter`` (online EM passes), ``denominator`` (``"class"``: P(f | C) = c(f, C) / c(C) as §2.2 writes
    it; ``"attribute"``: divided by the attribute's total), ``warm_start``, ``random_state``, ``classes``
    (the class labels the experts keep counters for, as in :class:`~nbx.models.naive_bayes.NaiveBayes`;
    None = those in y), ``n_values`` (per column the number of values; the ``fit`` keyword wins; None = max
    code + 1). Input: integer codes, NaN or negative = missing; at predict a code >= ``n_values_`` (never
    seen in training) counts as missing too.

    Fitted attributes: ``classes_``, ``n_values_``, ``levels_`` (per level, from the root gating layer to
    the experts: a dict of the counters ``values`` (n_rows, n_models, n_out) over the flat value index,
    ``totals`` (n_attributes, n_models, n_out) and ``classes`` (n_models, n_out)).

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
        self._online_em(self._index.rows(codes), codes >= 0, y_idx, w, self._rng)  # rows of positive weight
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

    def _online_em(self, rows, observed, y, w, rng) -> None:
        if not self.n_iter:
            return
        step = _OnlineEM(self, rows, observed, y, w).step
        for _ in range(self.n_iter):
            for i in rng.permutation(rows.shape[0]).tolist():
                step(i)

    @property
    def levels_(self) -> list[dict]:
        return [{"values": lv.values, "totals": lv.totals, "classes": lv.classes} for lv in self._levels]

    def _level_proba(self, level: _Level, codes: np.ndarray) -> np.ndarray:
        """P(output | D) of every model of a level for a batch, (n, n_models, n_out), in log space."""
        log_prior, table = level.log_tables(self.denominator)
        joint = self._index.lookup_sum(table, codes).reshape((codes.shape[0],) + log_prior.shape) + log_prior
        joint -= joint.max(axis=2, keepdims=True)
        p = np.exp(joint)
        return p / p.sum(axis=2, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        codes = check_discrete_X(self, X)
        *gating, experts = self._levels
        gates = [self._level_proba(level, codes) for level in gating]
        return _mix(gates, self._level_proba(experts, codes))
