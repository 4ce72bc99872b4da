"""Hierarchical mixtures of naive Bayesian classifiers (Wiering 2003, TR UU-CS-2003-003, §3).

Architecture (§3.1). ``layers`` lists the branching factor of each gating layer: ``[4]`` is the paper's
1-4 HM (a root gating NB over 4 expert NBs), ``[2, 2]`` the 2-2 HM (root over 2 gating NBs, each over 2
experts), ``[2] * 6`` the 6-layer binary HM of the parity experiment; any depth works ("extensions to
higher layer architectures are trivial"). Gating NBs treat their sub-models as classes,
g_i = P(M_i | D) ∝ P(M_i) Π_k P(f_k | M_i); expert NBs output μ_e = P(C | D). The output is
μ = Σ_i g_i Σ_j g_j|i μ_ij (§3.1), applied recursively level by level (:func:`_mix`).

Counters (§2.2). Each NB holds real-valued counters c(C) and c_k(f_k, C), all initialized to
γ + U(0, ``jitter``) (§4: γ = 0.1 + rand(0, 0.01), the symmetry breaking of §3.1), drawn from
``random_state``. P(C) = c(C) / tot with tot = Σ_C c(C). For P(f_k | C) the paper divides by c(C); we
divide by the per-attribute total Σ_v c_k(v, C) instead, so each P(· | C) is a distribution even with
the random initial counters and missing values -- the same choice as :mod:`nbx.models.naive_bayes`
makes for its ``laplace`` prior with α = γ (with ``jitter=0`` and ``layers=[1]`` this model equals
``NaiveBayes(alpha=gamma)``). Missing values are neither counted nor used (footnote 7).

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

``sample_weight`` multiplies each example's update weight (rows of weight 0 are dropped, so they equal
absent rows). Because the EM is online, a weight of k is not the same as k copies of the row (the
copies would be learned one after another with changing posteriors); this is the one exception to the
library's weight convention.

Implementation: the counters of all NBs of one level (the gating NBs of a layer, or all experts) are
stacked in one array (n_counter_rows, n_models, n_outputs) whose rows are the value counters over the
flat value index of :class:`~nbx.models.counting.ValueIndex`, the per-attribute totals and the class
counters (:class:`_Level`). An example's E- and M-step touch every model of a level with one gather and
one fancy-indexed add; the only Python loops are over examples (the online algorithm is sequential) and
over levels. ``predict_proba`` is batched over examples, in log space per NB.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from ..validation import RANDOM_STATE, Constraint, Interval
from .base import N_VALUES, BaseEstimator, ClassifierMixin, check_discrete_fit, check_discrete_X, check_rng
from .counting import ValueIndex


def _mix(gates: list[np.ndarray], leaves: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Propagate leaf values up through the gating levels: μ = Σ_i g_i Σ_j g_j|i μ_ij, any depth.

    ``gates[l]`` has shape (batch, n_gates_l, b_l) (gating probabilities of layer l), ``leaves`` shape
    (batch, n_leaves, ...) in the leaves' flat order. Returns the root value (batch, ...) and, per layer,
    the children's own values (batch, n_gates_l, b_l, ...) that layer l mixes.
    """
    children_per_layer = [None] * len(gates)
    values = leaves
    for level in range(len(gates) - 1, -1, -1):
        g = gates[level]
        children = values.reshape(g.shape + values.shape[2:])
        children_per_layer[level] = children
        g_b = g.reshape(g.shape + (1,) * (values.ndim - 2))
        values = (g_b * children).sum(axis=2)
    return values[:, 0], children_per_layer


class _Level:
    """Stacked counters of all NBs on one level (n_models NBs with n_out outputs each).

    One array ``counters`` (n_rows + 1 + d + 1, n_models, n_out) holds, by row: the value counters
    c_k(f, o) over the flat value index, the (unused) missing-value row, the per-attribute totals
    Σ_v c_k(v, o), and the class counters c(o). An example's lookups and updates then share one row
    selection for every level (:func:`_selection`): one gather and one fancy-indexed add per level.
    """

    def __init__(self, index: ValueIndex, n_models: int, n_out: int, gamma: float, jitter: float, rng):
        self.n_rows, self.n_attrs = index.n_rows, len(index.n_values)
        self.attribute_of_row = index.attribute_of_row
        shape = (self.n_rows + 1 + self.n_attrs + 1, n_models, n_out)
        self.counters = np.full(shape, gamma)
        if jitter:
            self.values[:] += rng.uniform(0.0, jitter, size=self.values.shape)
            self.classes[:] += rng.uniform(0.0, jitter, size=self.classes.shape)
        self.counters[self.n_rows] = 1.0  # missing-value row: never read
        if self.n_rows:
            self.totals[:] = np.add.reduceat(self.values, index.offsets, axis=0)
        self.flat = self.counters.reshape(-1)
        self.models = np.arange(n_models)

    @property
    def values(self):
        return self.counters[: self.n_rows]

    @property
    def totals(self):
        return self.counters[self.n_rows + 1: self.n_rows + 1 + self.n_attrs]

    @property
    def classes(self):
        return self.counters[-1]

    def proba(self, sel: np.ndarray, signs: np.ndarray) -> np.ndarray:
        """P(output | D) of every model for one example, shape (n_models, n_out).

        log c(o) + Σ_k [log c_k(f_k, o) - log Σ_v c_k(v, o)]; log tot is the same for every output of a
        model and cancels in the normalization.
        """
        shape = self.counters.shape[1:]
        log_p = (signs @ np.log(self.counters[sel].reshape(len(sel), -1))).reshape(shape)
        p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def update(self, sel: np.ndarray, target, weight: np.ndarray) -> None:
        """Update-NBC(D, target_m, weight_m) (§2.2) for every model m at once: value counters, their
        per-attribute totals and the class counter of output target_m grow by weight_m."""
        n_models, n_out = self.counters.shape[1:]
        self.flat[(sel[:, None] * n_models + self.models) * n_out + target] += weight

    def log_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Log prior (n_models, n_out) and flat log table (n_rows + 1, n_models * n_out), missing row 0."""
        log_prior = np.log(self.classes) - np.log(self.classes.sum(axis=1, keepdims=True))
        log_cond = np.log(self.values) - np.log(self.totals[self.attribute_of_row])
        table = np.concatenate([log_cond, np.zeros((1,) + log_cond.shape[1:])])
        return log_prior, table.reshape(table.shape[0], -1)


def _selection(rows: np.ndarray, attrs: np.ndarray, n_rows: int, n_attrs: int):
    """Counter rows one example reads/updates (values, totals, class) and the signs of their logs."""
    sel = np.concatenate([rows, n_rows + 1 + attrs, [n_rows + 1 + n_attrs]])
    signs = np.concatenate([np.ones(len(rows)), -np.ones(len(attrs)), [1.0]])
    return sel, signs


class HierarchicalMixtureNB(ClassifierMixin, BaseEstimator):
    """Hierarchical mixture of naive Bayes classifiers (Wiering 2003 §3); see the module docstring.

    Parameters: ``layers`` (branching factor per gating layer), ``gamma`` (initial counter γ),
    ``jitter`` (initial counters γ + U(0, jitter)), ``sigma`` (σ of the Gaussian regression model),
    ``n_iter`` (online EM passes), ``random_state``, ``n_values`` (per column the number of values; the
    ``fit`` keyword wins; None = max code + 1). Input: integer codes, NaN or negative = missing; at predict
    a code >= ``n_values_`` (never seen in training) counts as missing too.

    Fitted attributes: ``classes_``, ``n_values_``, ``levels_`` (per level, from the root gating layer to
    the experts: a dict of the counters ``values`` (n_rows, n_models, n_out) over the flat value index,
    ``totals`` (n_attributes, n_models, n_out) and ``classes`` (n_models, n_out)).
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "layers": [Constraint("a list of positive ints (branching factors)", lambda v: isinstance(v, (list, tuple))
                              and all(Interval(Integral, 1, None, "left")(b) for b in v))],
        "gamma": [Interval(Real, 0, None, "neither")],
        "jitter": [Interval(Real, 0, None, "left")],
        "sigma": [Interval(Real, 0, None, "left")],
        "n_iter": [Interval(Integral, 0, None, "left")],
        "random_state": RANDOM_STATE,
        "n_values": N_VALUES,
    }

    def __init__(self, layers=(4,), gamma: float = 0.1, jitter: float = 0.01, sigma: float = 0.1,
                 n_iter: int = 5, random_state=None, n_values=None):
        self.layers = layers
        self.gamma = gamma
        self.jitter = jitter
        self.sigma = sigma
        self.n_iter = n_iter
        self.random_state = random_state
        self.n_values = n_values

    def fit(self, X, y, sample_weight=None, n_values=None):
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        layers = [int(b) for b in self.layers]
        self._index = ValueIndex(self.n_values_)
        rng = check_rng(self.random_state)
        self._layers = layers
        self._levels = self._init_levels(layers, len(self.classes_), rng)
        keep = w > 0
        self._online_em(self._index.rows(codes[keep]), codes[keep] >= 0, y_idx[keep], w[keep], rng)
        return self

    def _init_levels(self, layers: list[int], n_classes: int, rng) -> list[_Level]:
        n_models = np.concatenate([[1], np.cumprod(layers)]).astype(int)
        outputs = layers + [n_classes]
        return [_Level(self._index, int(m), k, self.gamma, self.jitter, rng) for m, k in zip(n_models, outputs)]

    def _online_em(self, rows, observed, y, w, rng) -> None:
        attrs_all = np.arange(rows.shape[1])
        n_rows, n_attrs = self._index.n_rows, rows.shape[1]
        selections = [_selection(rows[i][observed[i]], attrs_all[observed[i]], n_rows, n_attrs)
                      for i in range(rows.shape[0])]
        for _ in range(self.n_iter):
            for i in rng.permutation(rows.shape[0]):
                self._em_step(*selections[i], y[i], w[i])

    def _em_step(self, sel, signs, target, weight) -> None:
        """One online GEM step (§3.2) on one example: E-step on current parameters, then all updates.

        ``sel``/``signs`` come from :func:`_selection` (the example's counter rows).
        """
        *gating, experts = self._levels
        gates = [level.proba(sel, signs)[None] for level in gating]
        mu = experts.proba(sel, signs)[:, target]
        leaf = np.exp(-self.sigma * (1.0 - mu))[None]  # P̂_e(C* | D), Gaussian regression model
        _, children = _mix(gates, leaf)
        path = np.ones(1)  # posterior of reaching each gate of the current layer
        for level, g, child in zip(gating, gates, children):
            child = child[0]  # (n_gates, b): sub-models' own probabilities of generating C*
            best = np.argmax(child, axis=1)
            level.update(sel, best, weight * path)
            joint = g[0] * child
            path = (path[:, None] * joint / joint.sum(axis=1, keepdims=True)).ravel()
        experts.update(sel, target, weight * path)

    @property
    def levels_(self) -> list[dict]:
        return [{"values": lv.values, "totals": lv.totals, "classes": lv.classes} for lv in self._levels]

    def _level_proba(self, level: _Level, codes: np.ndarray) -> np.ndarray:
        """P(output | D) of every model of a level for a batch, (n, n_models, n_out), in log space."""
        log_prior, table = level.log_tables()
        joint = self._index.lookup_sum(table, codes).reshape((codes.shape[0],) + log_prior.shape) + log_prior
        joint -= joint.max(axis=2, keepdims=True)
        p = np.exp(joint)
        return p / p.sum(axis=2, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        codes = check_discrete_X(self, X)
        *gating, experts = self._levels
        gates = [self._level_proba(level, codes) for level in gating]
        mu, _ = _mix(gates, self._level_proba(experts, codes))
        return mu
