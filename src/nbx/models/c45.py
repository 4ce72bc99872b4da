"""C4.5 decision tree (Quinlan 1993, *C4.5: Programs for Machine Learning*, Release 8 behaviour).

Used as the tree learner of the Wang (2006) and Kang (2006) experiments. Input is ``mixed``: numeric
columns as floats, nominal columns as codes ``0 .. n_values[j]-1``, NaN (or a negative code) missing.
When every column is nominal it runs unchanged on discretized data (Kang's protocol).

Growing (Quinlan 1993 ch. 2; Release 8 ``build.c``, ``contin.c``, ``discr.c``, ``info.c``)
    * A node becomes a leaf when its cases are of one class or weigh less than ``2 * min_leaf``.
    * Weight sums are compared with ``min_leaf`` and ``MinSplit`` with a tolerance of 1e-6 (as Weka's
      J48 does): fractional weights from unknown values make a branch of exactly 2 sum to
      1.9999999999999996, which an exact test would reject.
    * Nominal attribute: one branch per value. Its gain is computed on the cases with a known value and
      multiplied by their weight fraction F (ch. 3: ``gain = F (info(T) - info_X(T))``). A test needs at
      least two values with weight ``>= min_leaf``. Its split information counts the unknown cases as one
      more outcome (ch. 3). A nominal attribute already tested on the path is not tested again.
    * Numeric attribute: binary test ``x <= t``. Candidate cuts lie between consecutive distinct known
      values; each side must weigh at least ``MinSplit = clip(0.1 * known / n_classes, min_leaf, 25)``
      (Release 8). The best cut maximises the gain minus ``log2(tries) / |D|`` (Release 8's MDL-style
      correction, Quinlan 1996 "Improved use of continuous attributes in C4.5": log2(N-1)/|D| with N-1
      possible cuts; like the Release 8 code we count ``tries`` = the cuts actually evaluated, which is
      N-1 when no MinSplit restriction applies); the corrected gain is the attribute's gain. The
      threshold is then lowered to the largest training value ``<=`` the midpoint of the best cut
      (``GreatestValueBelow``), searched over the whole training set as C4.5 does.
    * Selection (ch. 2.2): among attributes whose gain is at least the average gain of the candidate
      tests (attributes with very many values, ``n_values >= 0.3 N``, are left out of the average unless
      all attributes are such), the highest gain ratio wins; ties go to the first column. C4.5's
      tolerance ``Epsilon = 1e-3`` is used in these comparisons as in the code.
    * Missing values at training (ch. 3): a case with an unknown test outcome goes down every branch with
      its weight times the branch's share of the known weight.
    * After growing the subtrees, a node whose subtrees make at least as many training errors as a leaf
      is collapsed to a leaf (Release 8 ``FormTree``).
    * Computation (same tree, found faster): the tree grows one depth at a time, every open node of a
      depth evaluated in one vectorized pass; each numeric attribute is sorted once per tree and every
      depth inherits that order (C4.5 and J48 sort per node); cuts inside a run of one class are skipped
      as they cannot be the best one (Fayyad & Irani 1992), while ``tries`` still counts them. Within a (node,
      attribute) the corrected gain falls as the split entropy rises, so every remaining cut is screened with a
      cheap form of the split entropy and only those within 1e-9 bits of the lowest get the exact gain (the same
      best cut and gain as scoring them all).
    * Memory (same tree): growing holds the input as given (no transposed copy), the presorted order as int32
      (half of the float64 input) and per evaluation pass one block of attributes (one at a time on large
      data); thresholds are grown on the cut midpoints (a training value is above the midpoint exactly when it
      is above ``GreatestValueBelow`` of it) and lowered once at the end, one column sorted at a time. A fit's
      peak is about twice the input at 10^5-10^6 rows x 20 numeric attributes (``benchmarks/scaling.py`` part 4).

Pruning (ch. 4; Release 8 ``prune.c``, ``stats.c``), when ``prune=True``
    The estimated errors of a leaf with N cases and E errors are ``E + AddErrs(N, E)``, the upper limit
    of the binomial confidence interval at level ``confidence`` (C4.5's ``AddErrs``: its normal deviate
    is interpolated from C4.5's table, 0.6925 at CF = 0.25, not the exact 0.6745 Weka uses). Bottom-up,
    a node is replaced by a leaf if the leaf's estimate is within 0.1 of both the subtree's and the
    largest branch's estimate; else (``subtree_raising=True``) by its largest branch when that branch,
    with all the node's cases sent through it, is within 0.1 of the subtree's estimate; the raised
    branch is then pruned again with those cases. Class distributions of the nodes are recomputed from
    the cases that reach them during pruning, as ``EstimateErrors(..., UpdateTree)`` does.

Prediction (Release 8 ``classify.c``)
    A case with an unknown (or never-seen nominal) test value is sent down every branch with weight
    ``branch weight / node weight`` (training weights after pruning) and the class distributions of the
    leaves it reaches are mixed by those weights. A leaf predicts the relative class frequencies of its
    weighted training cases (no Laplace correction, as Weka's J48 ``getProbs`` without ``useLaplace``).

Deviations, written down: a leaf of a nominal branch that received no training case predicts its
parent's class distribution (C4.5 predicts the parent's majority class with probability 1: same
argmax). Consecutive values count as distinct when they differ at all (C4.5 stores values as 32-bit
floats and requires a gap of 1e-5). If every case reaching a test node during pruning has an unknown
outcome, C4.5's code divides by zero; we then split them by the node's stored branch weights. Soft
thresholds (``-p``) and subset tests (``-s``) are not implemented (both off by default in C4.5). The
number of classes in ``MinSplit`` is the number of classes in ``y``. Weights are in units of cases
(``min_leaf`` compares against weight sums), so a weight of k equals k copies of a row; ensembles should
keep weights summing to the number of rows.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import cache
from numbers import Real

import numpy as np

from nbx.core.base import N_VALUES, BaseEstimator, ClassifierMixin, check_mixed_fit, check_mixed_X, check_weights
from nbx.core.class_weight import CLASS_WEIGHT, apply_class_weight
from nbx.core.counting import ValueIndex, row_blocks, run_lengths, run_starts, small_int
from nbx.core.validation import BOOLEAN, Interval, not_fitted_error
from nbx.models.c45_splits import (
    CHUNK,
    EPSILON,
    WEIGHT_TOLERANCE,
    eval_nominal_nodes,
    eval_numeric_sorted,
    select_rows,
)

PRUNE_SLACK = 0.1  # C4.5 prefers the simpler tree when within 0.1 estimated errors (prune.c)

# C4.5 stats.c: confidence levels and normal deviates, interpolated linearly.
_CF_VALUES = np.array([0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00])
_CF_DEVIATES = np.array([4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00])


def add_errs(n: float, e: float, cf: float = 0.25) -> float:
    """C4.5's ``AddErrs``: extra errors so that E + AddErrs is the upper CF-limit on errors of N cases."""
    if n <= 0:
        return 0.0
    if e < 1e-6:
        return n * (1.0 - np.exp(np.log(cf) / n))
    if e < 0.9999:
        val0 = n * (1.0 - np.exp(np.log(cf) / n))
        return val0 + e * (add_errs(n, 1.0, cf) - val0)
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    coeff = _deviate_squared(cf)
    pr = (e + 0.5 + coeff / 2 + np.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff)
    return n * pr - e


@cache
def _deviate_squared(cf: float) -> float:
    """Square of the normal deviate for confidence ``cf``, interpolated in C4.5's table."""
    return float(np.interp(cf, _CF_VALUES, _CF_DEVIATES)) ** 2


class _Node:
    """A tree node; a leaf when ``attr < 0``. ``dist`` holds weighted training class counts."""

    __slots__ = ("attr", "children", "dist", "errors", "fallback", "leaf_class", "threshold")

    def __init__(self, dist: np.ndarray, fallback: np.ndarray | None = None):
        self.dist = dist
        self.leaf_class = int(np.argmax(dist))
        self.attr = -1
        self.threshold = np.nan
        self.children: list[_Node] = []
        self.errors = 0.0
        self.fallback = fallback  # class probabilities of an empty leaf (its parent's)

    @property
    def is_leaf(self) -> bool:
        return self.attr < 0

    def make_leaf(self) -> None:
        self.attr, self.children = -1, []

    def copy_from(self, other: _Node) -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))

    def probabilities(self) -> np.ndarray:
        total = self.dist.sum()
        if total > 0:
            return self.dist / total
        if self.fallback is not None:
            return self.fallback
        return np.full(self.dist.shape, 1.0 / self.dist.size)


class _Level:
    """The cases of one depth's open nodes: entries (``node``, ``row``, ``w``) sorted by node, then row;
    ``order`` (numeric attributes, entries; int32 below 2**31 entries) sorts each attribute's entries by (node,
    value, row), NaN last within a node; ``tested`` (nodes, attributes) marks nominal attributes tested on the
    node's path."""

    __slots__ = ("node", "order", "row", "tested", "w")

    def __init__(self, node, row, w, order, tested):
        self.node, self.row, self.w, self.order, self.tested = node, row, w, order, tested

    def keep(self, nodes: np.ndarray) -> _Level:
        """The level restricted to the nodes where ``nodes`` (bool, one per node) is True."""
        if nodes.all():
            return self
        entries = nodes[self.node]
        new_index = (np.cumsum(entries) - 1).astype(self.order.dtype)
        order = np.empty((self.order.shape[0], int(entries.sum())), self.order.dtype)
        for j, row in enumerate(self.order):  # one attribute at a time: temporaries of one row of entries
            order[j] = new_index[row[entries[row]]]
        return _Level(
            (np.cumsum(nodes) - 1)[self.node[entries]], self.row[entries], self.w[entries], order, self.tested[nodes]
        )


@contextmanager
def _recursion_limit(limit: int):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class C45Tree(ClassifierMixin, BaseEstimator):
    """C4.5 Release 8 decision tree on mixed data; see the module docstring for every rule and deviation.

    Numeric columns as floats, nominal columns as codes; when every column is nominal it runs unchanged on
    discretized data (Kang & Tian's protocol). A nominal code >= n_values is an error at fit and an unknown
    value at predict. Inspection: :meth:`n_leaves`, :meth:`depth`, :meth:`estimated_errors` (C4.5's
    pessimistic estimate).

    Parameters
    ----------
    min_leaf : float, default=2
        C4.5's ``-m``: minimum weight in at least two branches.
    confidence : float, default=0.25
        C4.5's ``-c``: the pruning confidence CF.
    prune : bool, default=True
        False gives C4.5's unpruned tree.
    subtree_raising : bool, default=True
        Release 8 replaces a node by its largest branch when that is no worse.
    n_values : array-like of int, default=None
        Per column the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None = all numeric.
    class_weight : dict, "balanced" or None, default=None
        Multipliers of the case weights per class, as scikit-learn's ``class_weight`` of a decision tree
        (:mod:`nbx.core.class_weight`): C4.5's counts, gains, ``min_leaf`` and pruning estimates all see the
        multiplied weights, as they see ``sample_weight``. None = none.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Nominal values per column, 0 = numeric.
    tree_ : object
        The root node.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).
    feature_importances_ : ndarray of shape (n_features,)
        Normalized total weighted information gain per feature (see the property).

    References
    ----------
    Quinlan, J. R. (1993). *C4.5: Programs for Machine Learning*. Morgan Kaufmann (Release 8), ch. 2-4.

    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems and Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative
    Bayesian Classifier*. FLAIRS 2006 (the tree learner of both experiments).

    Examples
    --------
    >>> from nbx.models.c45 import C45Tree
    >>> X = [[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    >>> y = ["no", "no", "no", "yes", "no", "yes", "yes", "yes"]
    >>> model = C45Tree().fit(X, y)
    >>> print(model.predict([[2.5], [6.5]]))
    ['no' 'yes']
    >>> model.n_leaves()
    2
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "min_leaf": [Interval(Real, 0, None, "neither")],
        "confidence": [Interval(Real, 0, 1, "neither")],
        "prune": [BOOLEAN],
        "subtree_raising": [BOOLEAN],
        "n_values": N_VALUES,
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(
        self,
        min_leaf: float = 2,
        confidence: float = 0.25,
        prune: bool = True,
        subtree_raising: bool = True,
        n_values=None,
        class_weight=None,
    ):
        self.min_leaf = min_leaf
        self.confidence = confidence
        self.prune = prune
        self.subtree_raising = subtree_raising
        self.n_values = n_values
        self.class_weight = class_weight

    # ------------------------------------------------------------------ input
    def _prepare_X(self, X, n_values=None) -> tuple[np.ndarray, np.ndarray]:
        """(numeric values with NaN missing, nominal codes with -1 missing), (n, d) each; the codes are (n, 0)
        when no column is nominal (nothing reads them then)."""
        X = np.ascontiguousarray(X, dtype=float)  # columns are read by flat index: row * d + column
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        if n_values is None:
            n_values = self.n_values_ if hasattr(self, "n_values_") else np.zeros(X.shape[1], np.int64)
        nv = np.asarray(n_values, dtype=np.int64)
        if nv.shape != (X.shape[1],) or np.any(nv < 0):
            raise ValueError(f"n_values must be {X.shape[1]} non-negative integers, got {n_values!r}")
        if np.any(np.isinf(X)):
            raise ValueError("X contains infinite values; use NaN for missing values")
        nominal = nv > 0
        codes = np.full((X.shape[0], X.shape[1] if nominal.any() else 0), -1, dtype=small_int(int(nv.max(initial=0))))
        if nominal.any():
            for rows in row_blocks(X.shape[0], X.shape[1]):  # no (n, d) temporaries besides the codes
                sub = X[rows][:, nominal]
                known = ~np.isnan(sub) & (sub >= 0)
                if np.any(sub[known] != np.round(sub[known])):
                    raise ValueError("nominal columns (n_values > 0) must hold integer codes")
                # a code >= n_values (a value never seen in training) is stored as n_values: unknown either way
                codes[rows, nominal] = np.where(known, np.minimum(np.nan_to_num(sub), nv[nominal]), -1)
        return X, codes

    # ---------------------------------------------------------------- fitting
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
            Row weights (C4.5's case weights; 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values (0 = numeric); wins over the constructor's ``n_values``.

        Returns
        -------
        self : C45Tree
            The fitted estimator.
        """
        # the rows of positive weight (check_mixed_fit drops the absent rows of weight 0), at least one
        X, self.n_values_, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        if self.class_weight is not None:
            w = apply_class_weight(self.class_weight, self.classes_, y_idx, w)
            if not np.all(w > 0):  # a class weighted 0: its rows are absent, as rows of sample weight 0
                keep = w > 0
                if not keep.any():
                    raise ValueError("class_weight leaves no row of positive weight")
                X, y_idx, w = X[keep], y_idx[keep], w[keep]
        # (rows, attributes) as given, no transposed copy: a fit's largest arrays are the input and the order
        self._X, self._codes = self._prepare_X(X, self.n_values_)
        del X  # (held as self._X)
        self._y = y_idx
        self._setup_attributes(w)
        if not self._num_cols.size:  # the codes route every case: the values are not read again
            self._X = None
        self.tree_ = self._grow_tree(w)
        if self.prune:
            # pruning routes the cases node by node, a column at a time: a transposed copy (made after growing,
            # when the presorted order is gone) makes each column contiguous
            self._XT = None if self._X is None else np.ascontiguousarray(self._X.T)
            self._codesT = np.ascontiguousarray(self._codes.T)
            self._codes = self._codes_nom = None  # routing reads the transposed codes
            rows = np.arange(self._y.size)
            with _recursion_limit(10_000 + 4 * rows.size):
                self._prune_ops = 0
                self._prune(self.tree_, rows, w)
            del self._XT, self._codesT
        del self._X, self._codes, self._y, self._codes_nom, self._num_missing, self._complete
        return self

    def _setup_attributes(self, w: np.ndarray) -> None:
        nv = self.n_values_
        self._num_cols = np.flatnonzero(nv == 0)
        self._nom_cols = np.flatnonzero(nv > 0)
        self._nom_index = ValueIndex(nv[self._nom_cols]) if self._nom_cols.size else None
        self._complete = _complete_columns(self._X, self._codes, nv)
        self._num_missing = ~self._complete[self._num_cols]
        self._codes_nom = self._codes if self._nom_cols.size == nv.size else self._codes[:, self._nom_cols]
        many = nv >= 0.3 * w.sum()  # C4.5: "attributes with very many values" (numeric: 0 values)
        self._in_average = np.ones(nv.size, bool) if many.all() else ~many
        self._n_classes = self.classes_.size

    def _class_counts(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        return np.bincount(self._y[rows], weights=w, minlength=self._n_classes)

    def _grow_tree(self, w: np.ndarray) -> _Node:
        """C4.5 FormTree, grown one depth at a time: all open nodes of a level are evaluated together.

        A level's cases are entries (node, row, weight) sorted by node, then row; a case with an unknown
        test outcome becomes an entry of every child (ch. 3). Numeric attributes are sorted once per tree:
        a level keeps, per numeric attribute, its entries sorted by (node, value, row), and the next level
        inherits that order by a stable partition, so no node sorts again (as C4.5/J48 keep cases sorted).
        The tree equals the one grown node by node (each node's evaluation sees only its own cases); with
        fractional weights the sums may round differently in the last bit.
        """
        n = self._y.size
        order = np.empty((self._num_cols.size, n), _index_dtype(n))
        for k, j in enumerate(self._num_cols):  # one column at a time: no (attributes, rows) int64 temporary
            order[k] = np.argsort(self._X[:, j], kind="stable")  # NaN last
        level = _Level(np.zeros(n, np.intp), np.arange(n), w, order, np.zeros((1, self.n_values_.size), bool))
        del order  # the level owns it: the next level's order replaces it
        root = _Node(self._class_counts(level.row, w))
        nodes, internal = [root], []
        while nodes:
            dist = np.array([node.dist for node in nodes])
            cases = dist.sum(axis=1)
            for node, c in zip(nodes, cases):
                node.errors = c - node.dist[node.leaf_class]
            grow = (np.count_nonzero(dist, axis=1) > 1) & (cases >= 2 * self.min_leaf - WEIGHT_TOLERANCE)
            level = level.keep(grow)
            nodes, dist = [nd for nd, g in zip(nodes, grow) if g], dist[grow]
            if not nodes:
                break
            gain, info, cut = self._evaluate(level, dist)
            attr = select_rows(gain, info, self._in_average)
            split = attr >= 0
            level = level.keep(split)
            nodes, attr, cut = [nd for nd, s in zip(nodes, split) if s], attr[split], cut[split]
            for node, a, c in zip(nodes, attr, cut[np.arange(attr.size), attr]):
                node.attr = int(a)  # a numeric test's threshold: the cut's midpoint until _lower_thresholds
                node.threshold = c if self.n_values_[a] == 0 else np.nan
            internal.extend(nodes)
            level, nodes = self._split(level, nodes, attr)
        self._lower_thresholds(internal)
        for node in reversed(internal):  # children before parents
            subtree_errors = 0.0
            for child in node.children:
                subtree_errors += child.errors
            if subtree_errors >= node.errors - EPSILON:  # no better than a leaf: collapse
                node.make_leaf()
            node.errors = subtree_errors  # as Release 8, which keeps the subtree's count after a collapse
        return root

    def _lower_thresholds(self, nodes: list[_Node]) -> None:
        """C4.5's ``GreatestValueBelow``: each numeric test's threshold becomes the largest training value ``<=``
        its cut midpoint, searched over the whole training set. A training value lies above the midpoint exactly
        when it lies above that value, so the tree is grown on the midpoints and lowered once at the end, one
        column sorted at a time (no sorted copy of every column is held while growing)."""
        by_attr: dict[int, list[_Node]] = {}
        for node in nodes:
            if self.n_values_[node.attr] == 0:
                by_attr.setdefault(node.attr, []).append(node)
        for attr, group in by_attr.items():
            x = self._X[:, attr]
            values = np.sort(x[~np.isnan(x)])
            bars = np.array([node.threshold for node in group])
            for node, t in zip(group, values[np.searchsorted(values, bars, side="right") - 1].tolist()):
                node.threshold = t

    # ---------------------------------------------------------- split search
    def _evaluate(self, level: _Level, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per open node (class counts ``dist``) and attribute: gain (-EPSILON when no valid test), split
        info, best cut midpoint."""
        cases = dist.sum(axis=1)
        m, d = cases.size, self.n_values_.size
        gain, info, cut = np.full((m, d), -EPSILON), np.zeros((m, d)), np.full((m, d), np.nan)
        if self._num_cols.size:
            starts = np.concatenate([[0], np.cumsum(np.bincount(level.node, minlength=m))])
            unit = bool(np.all(level.w == 1.0))
            step = max(1, CHUNK // max(1, level.row.size))
            d_all = self._X.shape[1]
            for s in range(0, self._num_cols.size, step):
                block = slice(s, s + step)
                rows = level.row[level.order[block]]  # (numeric attributes of the block, entries)
                flat = rows * d_all
                flat += self._num_cols[block, None]
                xs = np.take(self._X, flat)
                del flat
                complete = not self._num_missing[block].any()
                ws = None if complete and unit else level.w[level.order[block]]
                g, i, c = eval_numeric_sorted(
                    xs,
                    self._y[rows],
                    ws,
                    starts,
                    cases,
                    self._n_classes,
                    self.min_leaf,
                    dist if complete else None,
                )
                cols = self._num_cols[block]
                gain[:, cols], info[:, cols], cut[:, cols] = g.T, i.T, c.T
        if self._nom_cols.size:
            g, i = eval_nominal_nodes(
                self._codes_nom,
                self._y[level.row],
                level.w,
                level.node,
                cases,
                self._n_classes,
                self.min_leaf,
                self._nom_index,
                row=level.row,
            )
            g = np.where(level.tested[:, self._nom_cols], -EPSILON, g)
            gain[:, self._nom_cols], info[:, self._nom_cols] = g, i
        return gain, info, cut

    def _split(self, level: _Level, nodes: list[_Node], attr: np.ndarray) -> tuple[_Level, list[_Node]]:
        """Children of the split nodes: their _Node objects and their level (unknown outcomes go to every
        branch with a known case, weighted by the branch's share of the known weight)."""
        m, d, K = len(nodes), self.n_values_.size, self._n_classes
        node_of, row, w = level.node, level.row, level.w
        nominal = self.n_values_[attr] > 0
        n_branches = np.where(nominal, self.n_values_[attr], 2)
        first_slot = np.concatenate([[0], np.cumsum(n_branches)])  # children are slots, parent by parent
        n_slots = int(first_slot[-1])
        parent_of_slot = np.repeat(np.arange(m), n_branches)
        thresholds = np.array([node.threshold for node in nodes])
        a = attr[node_of]
        branch = np.full(row.size, -1, np.intp)
        num = ~nominal[node_of]
        if num.any():
            x = np.take(self._X, row[num] * d + a[num])
            branch[num] = np.where(np.isnan(x), -1, x > thresholds[node_of[num]])
        branch[~num] = np.take(self._codes, row[~num] * self._codes.shape[1] + a[~num])  # -1 when missing
        known = branch >= 0
        slot = first_slot[node_of] + branch
        known_w = np.bincount(slot[known], weights=w[known], minlength=n_slots)
        has_known = np.bincount(slot[known], minlength=n_slots) > 0
        shares = known_w / np.add.reduceat(known_w, first_slot[:-1])[parent_of_slot]
        # new entries in the order of their source entry: one per known case, one per non-empty branch
        # for an unknown one
        live_slots = np.flatnonzero(has_known)
        n_live = np.bincount(parent_of_slot[live_slots], minlength=m)
        copies = np.where(known, 1, n_live[node_of])
        src = np.repeat(np.arange(row.size), copies)
        new_slot = slot[src]
        unknown_copy = ~known[src]
        if unknown_copy.any():
            u_src = src[unknown_copy]
            first_copy = run_starts(u_src)
            j = np.arange(u_src.size) - np.repeat(first_copy, run_lengths(first_copy, u_src.size))
            live_start = np.concatenate([[0], np.cumsum(n_live)])
            new_slot[unknown_copy] = live_slots[live_start[node_of[u_src]] + j]
        new_w = np.where(unknown_copy, w[src] * shares[new_slot], w[src])
        # sort the new entries by (slot, row)
        by_slot = np.argsort(new_slot * self._y.size + row[src], kind="stable")
        position = np.empty_like(by_slot)
        position[by_slot] = np.arange(by_slot.size)
        slot_sorted, src_sorted, w_sorted = new_slot[by_slot], src[by_slot], new_w[by_slot]
        dists = np.bincount(
            slot_sorted * K + self._y[row[src_sorted]], weights=w_sorted, minlength=n_slots * K
        ).reshape(n_slots, K)
        children = []
        for s in range(n_slots):
            parent = nodes[parent_of_slot[s]]
            if has_known[s]:
                child = _Node(dists[s])
                children.append(child)
            else:  # a branch without known cases: empty leaf
                child = _Node(np.zeros(K), fallback=parent.dist / parent.dist.sum())
                child.leaf_class = parent.leaf_class
            parent.children.append(child)
        # each numeric attribute's order: expand the parent's order to the new entries, stable by slot; one
        # attribute at a time, so the temporaries are one row of entries, not a table of them
        d_num = level.order.shape[0]
        order = np.empty((d_num, src.size), _index_dtype(src.size))
        first_new = np.cumsum(copies) - copies
        for j in range(d_num):
            if unknown_copy.any():
                reps = copies[level.order[j]]
                created = np.repeat(first_new[level.order[j]] - (np.cumsum(reps) - reps), reps) + np.arange(reps.sum())
                row_order = position[created]
            else:  # one new entry per old one, in the same order
                row_order = position[level.order[j]]
            keys = slot_sorted[row_order]
            keys = keys.astype(np.int16) if n_slots < 2**15 else keys  # radix sort
            order[j] = row_order[np.argsort(keys, kind="stable")]
        node_rank = np.cumsum(has_known) - 1
        child_tested = level.tested[parent_of_slot]
        child_tested[np.arange(n_slots), attr[parent_of_slot]] |= nominal[parent_of_slot]
        new_level = _Level(node_rank[slot_sorted], row[src_sorted], w_sorted, order, child_tested[has_known])
        return new_level, children

    # ------------------------------------------------------------ partitions
    def _branch_of(self, node: _Node, rows: np.ndarray, XT=None, codesT=None) -> np.ndarray:
        """Branch index of each row at a test node; -1 when the outcome is unknown. ``XT`` and ``codesT``
        are the values and codes transposed, (attributes, rows): a row of them is contiguous."""
        if self.n_values_[node.attr] == 0:
            x = (self._XT if XT is None else XT)[node.attr].take(rows)
            branch = (x > node.threshold).astype(np.int64)
            if XT is not None or not self._complete[node.attr]:
                branch[np.isnan(x)] = -1
            return branch
        c = (self._codesT if codesT is None else codesT)[node.attr].take(rows)
        return np.where(c < self.n_values_[node.attr], c, -1)  # unseen codes count as unknown

    def _partition(self, node: _Node, rows, w) -> list:
        """(rows, weights) per branch; unknown outcomes go everywhere, scaled by branch shares.

        Shares are the known weight per branch (C4.5 at training and pruning); when no case has a known
        outcome, the node's stored branch weights. A branch with no known case gets (None, None).
        """
        n_branches = len(node.children)
        branch = self._branch_of(node, rows)
        known = None if self._complete[node.attr] else branch >= 0
        if known is None or known.all():
            has_known = np.bincount(branch, minlength=n_branches).tolist()
            return [
                (rows[in_v], w[in_v]) if has_known[v] else (None, None)
                for v, in_v in enumerate(branch == np.arange(n_branches)[:, None])
            ]
        known_w = np.bincount(branch[known], weights=w[known], minlength=n_branches)
        total = known_w.sum()
        unknown_rows, unknown_w = rows[~known], w[~known]
        if total <= 0:
            shares = _child_fractions(node)
            has_known = shares > 0
        else:
            shares = known_w / total
            has_known = np.bincount(branch[known], minlength=n_branches) > 0
        parts = []
        for v in range(n_branches):
            if not has_known[v]:
                parts.append((None, None))
                continue
            in_v = branch == v
            parts.append((np.concatenate([rows[in_v], unknown_rows]), np.concatenate([w[in_v], unknown_w * shares[v]])))
        return parts

    # ---------------------------------------------------------------- pruning
    def _leaf_estimate(self, node: _Node, rows, w) -> tuple[np.ndarray, int, float]:
        """(class counts, C4.5's leaf class, E + AddErrs) of these cases at ``node`` as a leaf."""
        dist = self._class_counts(rows, w)
        cases = float(dist.sum())
        counts = dist.tolist()
        top = max(counts)
        best = node.leaf_class if counts[node.leaf_class] >= top else counts.index(top)  # the first maximum
        leaf_errors = cases - counts[best]
        return dist, best, leaf_errors + add_errs(cases, leaf_errors, self.confidence)

    def _prune(self, node: _Node, rows, w) -> float:
        """C4.5 EstimateErrors with UpdateTree: prunes the subtree on these cases, returns its estimate."""
        dist, node.leaf_class, leaf_estimate = self._leaf_estimate(node, rows, w)
        node.dist = dist
        if node.is_leaf:
            node.errors = leaf_estimate
            return leaf_estimate
        cases = dist.sum()
        tree_errors, largest, largest_share = 0.0, 0, -1.0
        for v, (part_rows, part_w) in enumerate(self._partition(node, rows, w)):
            if part_rows is None:
                continue
            share = part_w.sum() / cases
            if share >= largest_share:  # C4.5 keeps the last of equally large branches
                largest, largest_share = v, share
            tree_errors += self._prune(node.children[v], part_rows, part_w)
        branch_errors = self._estimate(node.children[largest], rows, w) if self.subtree_raising else np.inf
        self._prune_ops += 1
        if leaf_estimate <= branch_errors + PRUNE_SLACK and leaf_estimate <= tree_errors + PRUNE_SLACK:
            node.make_leaf()
            node.errors = leaf_estimate
        elif branch_errors <= tree_errors + PRUNE_SLACK:
            raised = node.children[largest]
            self._prune(raised, rows, w)
            node.copy_from(raised)
        else:
            node.errors = tree_errors
        return node.errors

    def _estimate(self, node: _Node, rows, w) -> float:
        """C4.5 EstimateErrors without UpdateTree: the subtree's estimated errors on these cases."""
        if node.is_leaf:
            return self._leaf_estimate(node, rows, w)[2]
        errors = 0.0
        for child, (part_rows, part_w) in zip(node.children, self._partition(node, rows, w)):
            if part_rows is not None:
                errors += self._estimate(child, part_rows, part_w)
        return errors

    def estimated_errors(self, X, y, sample_weight=None) -> float:
        """C4.5's pessimistic error estimate of the fitted tree on (X, y): sum over leaves of E + AddErrs.

        Cases are routed as in pruning (unknown outcomes fractionally); the tree is not changed.
        """
        X, codes = self._prepare_X(X)
        self._XT, self._codesT = np.ascontiguousarray(X.T), np.ascontiguousarray(codes.T)
        self._complete = _complete_columns(X, codes, self.n_values_)
        self._y = np.searchsorted(self.classes_, np.asarray(y))
        try:
            w = check_weights(sample_weight, self._y.shape[0])
            rows = np.flatnonzero(w > 0)
            with _recursion_limit(10_000 + 4 * rows.size):
                return float(self._estimate(self.tree_, rows, w[rows]))
        finally:
            del self._XT, self._codesT, self._y, self._complete

    # ------------------------------------------------------------- predicting
    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        The class distribution of the leaf each row reaches; a row with an unknown value at a test is
        split over the branches in proportion to their training weight, as C4.5 does.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        Xf, codes = self._prepare_X(check_mixed_X(self, X))
        XT, codesT = np.ascontiguousarray(Xf.T), np.ascontiguousarray(codes.T)
        proba = np.zeros((Xf.shape[0], self._n_classes))
        stack = [(self.tree_, np.arange(Xf.shape[0]), np.ones(Xf.shape[0]))]
        while stack:  # loop over nodes; each node handles all its rows at once
            node, rows, w = stack.pop()
            if rows.size == 0:
                continue
            if node.is_leaf:
                proba[rows] += w[:, None] * node.probabilities()[None, :]
                continue
            branch = self._branch_of(node, rows, XT, codesT)
            unknown = branch < 0
            fractions = _child_fractions(node)
            for v, child in enumerate(node.children):
                in_v = branch == v
                extra = unknown & (fractions[v] > 0)
                sel = in_v | extra
                stack.append((child, rows[sel], np.where(in_v[sel], w[sel], w[sel] * fractions[v])))
        return proba

    # ------------------------------------------------------------ inspection
    def n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        return sum(1 for n in _walk(self.tree_) if n.is_leaf)

    def depth(self) -> int:
        """Depth of the fitted tree (0 for a single leaf)."""

        def rec(n):
            return 0 if n.is_leaf else 1 + max(rec(c) for c in n.children)

        return rec(self.tree_)

    def get_depth(self) -> int:
        """Depth of the fitted tree, as scikit-learn's ``DecisionTreeClassifier.get_depth``.

        Returns
        -------
        depth : int
            The largest number of tests from the root to a leaf (0 for a tree that is one leaf); :meth:`depth`.
        """
        if not hasattr(self, "tree_"):
            raise not_fitted_error(self)
        return self.depth()

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree, as scikit-learn's ``DecisionTreeClassifier.get_n_leaves``.

        Returns
        -------
        n_leaves : int
            The leaves of the pruned tree, empty leaves (a nominal value without training cases) included;
            :meth:`n_leaves`.
        """
        if not hasattr(self, "tree_"):
            raise not_fitted_error(self)
        return self.n_leaves()

    @property
    def feature_importances_(self) -> np.ndarray:
        """Per feature the total weighted information gain of its tests, normalized to sum to 1.

        Each internal node of the fitted (pruned) tree adds ``W_node / W_root * (H(node) - Σ_b W_b / W_node
        H(b))`` to its attribute, with W the training weights of the class distributions the tree holds and H
        their entropy in bits: scikit-learn's mean decrease in impurity with ``criterion="entropy"``. The gain,
        not C4.5's gain ratio, because the ratio (gain / split information) is a selection rule between tests
        of one node, not an amount of information that adds up over nodes, and its denominator would rank a
        weak binary test above a strong many-valued one. The weights after pruning include the fractional
        cases with an unknown test outcome sent down every branch (C4.5's ch. 3), so a node's gain is measured
        on what it holds. All zeros for a tree that is one leaf (as scikit-learn).

        Returns
        -------
        importances : ndarray of shape (n_features,)
            Non-negative, summing to 1 unless the tree is one leaf.
        """
        if not hasattr(self, "tree_"):
            raise AttributeError("feature_importances_ exists after fit")
        out = np.zeros(len(self.n_values_))
        total = float(self.tree_.dist.sum())
        for node in _walk(self.tree_):
            if node.is_leaf or total <= 0:
                continue
            weight = float(node.dist.sum())
            if weight <= 0:
                continue
            after = sum(float(c.dist.sum()) * _entropy_bits(c.dist) for c in node.children)
            out[node.attr] += (weight * _entropy_bits(node.dist) - after) / total
        out = np.maximum(out, 0.0)
        norm = out.sum()
        return out / norm if norm > 0 else out


def _entropy_bits(dist: np.ndarray) -> float:
    """Entropy in bits of a class distribution (weighted counts; 0 for an empty one)."""
    total = float(dist.sum())
    if total <= 0:
        return 0.0
    p = dist[dist > 0] / total
    return float(-(p * np.log2(p)).sum())


def indented_lines(root, branches, leaf) -> list[str]:
    """A tree as Weka's indented lines (``nbx show`` and :func:`export_text`).

    Parameters
    ----------
    root : object
        The root node.
    branches : callable
        ``branches(node)`` gives [(test text, child)] for an internal node and None for a leaf.
    leaf : callable
        ``leaf(node)`` gives a leaf's text, printed on its branch's line after ``": "``.

    Returns
    -------
    lines : list of str
        One line per branch test, ``|   `` per level; a tree that is one leaf is its leaf's line.
    """
    out: list[str] = []

    def walk(node, depth: int) -> None:
        for test, child in branches(node):
            line = "|   " * depth + test
            if branches(child) is None:
                out.append(f"{line}: {leaf(child)}")
            else:
                out.append(line)
                walk(child, depth + 1)

    if branches(root) is None:  # a tree that is one leaf
        return [leaf(root)]
    walk(root, 0)
    return out


def c45_lines(model, names, value_name, class_names) -> list[str]:
    """The fitted C4.5 tree ``model`` in Weka's indented style, as ``nbx show`` prints it (without its header).

    Parameters
    ----------
    model : C45Tree
        A fitted tree.
    names : sequence of str
        The feature names.
    value_name : callable
        ``value_name(j, code)`` gives the text of nominal value ``code`` of feature ``j``.
    class_names : sequence of str
        The class names, in the order of ``classes_``.

    Returns
    -------
    lines : list of str
        A numeric test reads ``name <= t`` / ``name > t``, a nominal one ``name = value``; a leaf
        ``class (cases)`` or ``class (cases/errors)`` in training weight, as C4.5 prints it.
    """

    def branch_tests(node) -> list[str]:
        j = node.attr
        if model.n_values_[j] == 0:
            t = f"{node.threshold:.6g}"
            return [f"{names[j]} <= {t}", f"{names[j]} > {t}"]
        return [f"{names[j]} = {value_name(j, v)}" for v in range(len(node.children))]

    def leaf(node) -> str:
        n = float(node.dist.sum())
        errors = n - float(node.dist[node.leaf_class])
        return f"{class_names[node.leaf_class]} ({n:.1f}" + (f"/{errors:.1f})" if errors > 1e-9 else ")")

    return indented_lines(model.tree_, lambda n: None if n.is_leaf else list(zip(branch_tests(n), n.children)), leaf)


def export_text(tree: C45Tree, *, feature_names=None, class_names=None, value_names=None) -> str:
    """A text report of a fitted C4.5 tree, as scikit-learn's ``sklearn.tree.export_text`` (in Weka's style).

    Parameters
    ----------
    tree : C45Tree
        The fitted tree.
    feature_names : sequence of str, default=None
        Names of the features; None = ``feature_names_in_`` when fitted on a DataFrame, else ``feature_0``,
        ``feature_1``, ... (scikit-learn's default names).
    class_names : sequence of str, default=None
        Names of the classes in the order of ``classes_``; None = the labels of ``classes_``.
    value_names : sequence of (sequence of str or None), default=None
        Per feature the names of its nominal codes; None (or a short list) = the codes themselves.

    Returns
    -------
    report : str
        The lines ``nbx show`` prints for the tree (without its header), joined by newlines and ending in one:
        ``|   `` per level, ``name <= t`` and ``name > t`` for a numeric test, ``name = value`` for a nominal
        one, and a leaf ``class (cases/errors)``.

    Examples
    --------
    >>> from nbx.models.c45 import C45Tree, export_text
    >>> X = [[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    >>> y = ["no", "no", "no", "yes", "no", "yes", "yes", "yes"]
    >>> print(export_text(C45Tree().fit(X, y), feature_names=["x"]), end="")
    x <= 3: no (3.0)
    x > 3: yes (5.0/1.0)
    """
    if not hasattr(tree, "tree_"):
        raise not_fitted_error(tree)
    d = len(tree.n_values_)
    if feature_names is None:
        fitted = getattr(tree, "feature_names_in_", None)
        feature_names = list(fitted) if fitted is not None else [f"feature_{j}" for j in range(d)]
    if len(feature_names) != d:
        raise ValueError(f"feature_names must contain {d} elements, got {len(feature_names)}")
    if class_names is None:
        class_names = [str(c) for c in tree.classes_]
    values = list(value_names) if value_names is not None else []

    def value_name(j: int, code: int) -> str:
        names = values[j] if j < len(values) else None
        return str(names[code]) if names is not None and code < len(names) else str(code)

    return "\n".join(c45_lines(tree, list(feature_names), value_name, list(class_names))) + "\n"


def _complete_columns(X: np.ndarray, codes: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Per attribute of X (rows, attributes): every case has a known test outcome (no NaN; nominal codes in
    0..n_values-1)."""
    complete = ~np.isnan(X).any(axis=0)
    for j in np.flatnonzero(n_values > 0):  # a column at a time: no copy of the codes
        c = codes[:, j]
        complete[j] = bool(((c >= 0) & (c < n_values[j])).all())
    return complete


def _index_dtype(size: int) -> type:
    """int32 for positions below 2**31: the (attributes, entries) order, a fit's largest array, at half size."""
    return np.int32 if size < 2**31 else np.intp


def _walk(node: _Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def _child_fractions(node: _Node) -> np.ndarray:
    """Share of each branch in the node's training weight (C4.5 classify.c); equal if all are empty."""
    sizes = np.array([c.dist.sum() for c in node.children])
    total = sizes.sum()
    return sizes / total if total > 0 else np.full(sizes.size, 1.0 / sizes.size)
