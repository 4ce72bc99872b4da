"""Leveled naive Bayesian tree, LNBT(d) (Ting & Zheng, "A study of AdaBoost with naive Bayesian
classifiers", §3.2).

Top-down tree growing like C4.5 (Quinlan 1993) with four differences stated in §3.2: (i) the tree grows
to at most ``max_depth`` levels; (ii) every leaf holds a local naive Bayes over the training examples at the
leaf and the attributes *not* tested on its path; (iii) a node with fewer than 30 training examples is
not split; (iv) no pruning. LNBT(0) is the plain naive Bayes (§3.2 last sentence). The local NB is the
paper's §3.1 classifier: m-estimate with m = 2 (``nb_log_tables(prior="m_estimate")``), so LNBT(0) gives
exactly the probabilities of ``NaiveBayes(prior="m_estimate", m=2)``.

Choices where the paper is silent (written down here, see also the report):

* Test selection: "like C4.5 ... the information gain ratio criterion" — we apply C4.5's full rule: among
  the admissible tests, pick the largest gain ratio among those whose gain is at least the average gain
  of the admissible tests. A test (one multiway split on a discrete attribute not yet used on the path)
  is admissible, as in C4.5, when at least two of its branches hold >= 2 (weighted) examples; a node
  whose best gain is not positive becomes a leaf. Input is discrete (the paper MDL-discretizes numeric
  attributes beforehand, §3.1), so all splits are multiway on nominal codes.
* Missing values in the split attribute: the gain is C4.5's — gain on the known rows times the known
  fraction, split information with an extra "unknown" branch. In training, rows whose split value is
  missing go to the branch with the largest weight (a one-branch stand-in for C4.5's fractional
  distribution). At prediction, a row whose split value is missing stops at that internal node and is
  classified by the node's own NB (fitted on all the node's training examples, over the attributes not
  on the path to it), which does not guess the missing value.
* A branch that received no training weight is not created; test rows reaching it are classified by
  the parent's NB, the nearest model fitted on data that resembles them.
* "Fewer than 30 training examples" counts weights, not rows. Under boosting the paper renormalizes the
  weights to sum to N (§2), so the weighted count is the effective number of examples, and a weight of
  k then equals k copies of a row (a row count would break that equivalence). Weights that sum to 1
  instead of N would stop every split: meta-learners must keep the paper's scale.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from ..validation import Interval
from .base import N_VALUES, BaseEstimator, ClassifierMixin, DecisionMixin, check_discrete_fit, check_discrete_X
from .counting import ValueIndex, log_normalize, log_softmax
from .criteria import entropy, info_gain
from .naive_bayes import nb_log_tables

MIN_BRANCH = 2.0  # C4.5's MINOBJS: an admissible test has two branches with at least this weight
_TOL = 1e-12


class LeveledNBTree(DecisionMixin, ClassifierMixin, BaseEstimator):
    """LNBT(d): naive Bayes tree grown to depth ``max_depth`` (see the module docstring).

    Parameters: ``max_depth`` (d >= 0; 0 = naive Bayes), ``min_split`` (nodes with less training weight
    are leaves; the paper's 30), ``m`` (m-estimate of the local NBs; the paper's 2), ``n_values`` (per
    column the number of values; the ``fit`` keyword wins; None = max code + 1).

    Input: integer codes, NaN or negative = missing. At predict a code >= ``n_values_`` (never seen in
    training) counts as missing: the row stops at a node splitting on that attribute.

    Fitted attributes: ``classes_``, ``n_values_``, ``node_attribute_`` (split attribute per node, -1 for
    a leaf), ``node_depth_``, ``depth_`` (depth of the deepest leaf), ``n_leaves_``.
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "max_depth": [Interval(Integral, 0, None, "left")],
        "min_split": [Interval(Real, 0, None, "left")],
        "m": [Interval(Real, 0, None, "neither")],
        "n_values": N_VALUES,
    }

    def __init__(self, max_depth: int = 3, min_split: float = 30.0, m: float = 2.0, n_values=None):
        self.max_depth = max_depth
        self.min_split = min_split
        self.m = m
        self.n_values = n_values

    # ----------------------------------------------------------------------------------------- fit
    def fit(self, X, y, sample_weight=None, n_values=None):
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        self._index = ValueIndex(self.n_values_)
        self._k = len(self.classes_)
        # position of each flat table row in a padded (attribute, value) grid, for all-attribute gains
        self._pad_pos = np.arange(self._index.n_rows) - self._index.offsets[self._index.attribute_of_row]
        self._grow(codes, y_idx, w)
        return self

    def _grow(self, codes, y, w):
        """Breadth-first growth; each node does one bincount for its counts (NB tables and gains)."""
        d = codes.shape[1]
        attrs, depths, priors, tables, child_base = [], [], [], [], []
        children: list[np.ndarray] = []  # per internal node: child id per value (-1 = empty branch)
        queue = [(np.arange(codes.shape[0]), np.zeros(d, bool), 0)]  # (rows, used attributes, depth)
        while len(attrs) < len(queue):
            node = len(attrs)
            rows, used, depth = queue[node]
            counts = self._index.counts(codes[rows], y[rows], w[rows], self._k)
            class_counts = np.bincount(y[rows], weights=w[rows], minlength=self._k)
            log_prior, log_table = nb_log_tables(counts[:-1], class_counts, self._index, "m_estimate",
                                                 m=self.m)
            # the local NB ignores the attributes tested on the path (§3.2 (ii))
            log_table[:-1][used[self._index.attribute_of_row]] = 0.0
            priors.append(log_prior)
            tables.append(log_table)
            depths.append(depth)
            attr = -1
            if depth < self.max_depth and class_counts.sum() >= self.min_split:
                attr = self._best_attribute(counts[:-1], class_counts, used)
            attrs.append(attr)
            if attr < 0:
                child_base.append(-1)
                continue
            child_ids = np.full(self.n_values_[attr], -1, np.int64)
            values = codes[rows, attr]
            known = values >= 0
            branch_w = np.bincount(values[known], weights=w[rows[known]], minlength=self.n_values_[attr])
            values = np.where(known, values, np.argmax(branch_w))  # missing -> largest branch
            child_used = used.copy()
            child_used[attr] = True
            for v in np.flatnonzero(branch_w > 0):  # loop over the split's branches (per node)
                child_ids[v] = len(queue)
                queue.append((rows[values == v], child_used, depth + 1))
            child_base.append(len(children))
            children.append(child_ids)
        self.node_attribute_ = np.array(attrs, np.int64)
        self.node_depth_ = np.array(depths, np.int64)
        self._log_priors = np.array(priors)
        self._log_tables = np.array(tables)
        # flat child lookup: child of internal node t for value v is _children[_child_offset[t] + v]
        sizes = np.array([len(c) for c in children], np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self._child_offset = np.array([starts[b] if b >= 0 else -1 for b in child_base], np.int64)
        self._children = np.concatenate(children) if children else np.zeros(0, np.int64)
        leaves = self.node_attribute_ < 0
        self.depth_ = int(self.node_depth_[leaves].max())
        self.n_leaves_ = int(leaves.sum())

    def _best_attribute(self, value_counts, class_counts, used) -> int:
        """C4.5 test selection over all unused attributes at once; -1 when no test is worth making."""
        index, k = self._index, self._k
        d, vmax = len(index.n_values), int(index.n_values.max())
        grid = np.zeros((d, vmax + 1, k))  # (attribute, value | unknown, class)
        grid[index.attribute_of_row, self._pad_pos] = value_counts
        grid[:, vmax] = np.maximum(class_counts - index.per_attribute_totals(value_counts), 0.0)
        total = class_counts.sum()
        known = grid[:, :vmax].sum(axis=(1, 2))
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(total > 0, known / total, 0.0) * info_gain(grid[:, :vmax])
        split = entropy(grid.sum(axis=2))  # split information incl. the unknown branch (C4.5)
        big_branches = (grid[:, :vmax].sum(axis=2) >= MIN_BRANCH).sum(axis=1)
        admissible = ~used & (big_branches >= 2) & (split > _TOL)
        if not admissible.any():
            return -1
        average = gain[admissible].mean()
        candidate = admissible & (gain >= average - _TOL) & (gain > _TOL)
        if not candidate.any():
            return -1
        ratio = np.where(candidate, gain / np.where(split > 0, split, 1.0), -np.inf)
        return int(np.argmax(ratio))

    # ------------------------------------------------------------------------------------ predict
    def apply(self, X) -> np.ndarray:
        """Node whose NB classifies each row: a leaf, or an internal node when the row's split value is
        missing or its branch got no training data. Batch routing, one step per tree level."""
        codes = self._check_X(X)
        node = np.zeros(codes.shape[0], np.int64)
        active = np.ones(codes.shape[0], bool)
        while True:
            attr = self.node_attribute_[node]
            active &= attr >= 0
            if not active.any():
                return node
            rows = np.flatnonzero(active)
            values = codes[rows, attr[rows]]
            nxt = np.full(rows.shape[0], -1, np.int64)
            known = (values >= 0) & (values < self.n_values_[attr[rows]])  # unseen code = missing
            nxt[known] = self._children[self._child_offset[node[rows[known]]] + values[known]]
            moved = nxt >= 0
            node[rows[moved]] = nxt[moved]
            active[rows[~moved]] = False

    def _class_scores(self, X) -> np.ndarray:
        """Unnormalized log joint of the routed-to local NB, shape (n, K)."""
        codes = self._check_X(X)
        node = self.apply(codes)
        out = np.empty((codes.shape[0], self._k))
        for t in np.unique(node):  # loop over the nodes in use
            rows = np.flatnonzero(node == t)
            out[rows] = self._log_priors[t] + self._index.lookup_sum(self._log_tables[t], codes[rows])
        return out

    def predict_log_proba(self, X) -> np.ndarray:
        joint = self._class_scores(X)
        return log_softmax(joint)

    def predict_proba(self, X) -> np.ndarray:
        return log_normalize(self._class_scores(X))

    def _check_X(self, X) -> np.ndarray:
        return check_discrete_X(self, X)

    def node_children(self, node: int) -> dict[int, int]:
        """Read-only view of the fitted tree for inspection (``nbx show``): value code -> child node of an
        internal ``node`` (branches that got no training data are absent); {} for a leaf."""
        if self.node_attribute_[node] < 0:
            return {}
        start = self._child_offset[node]
        ids = self._children[start:start + self.n_values_[self.node_attribute_[node]]]
        return {int(v): int(c) for v, c in enumerate(ids) if c >= 0}
