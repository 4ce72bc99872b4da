"""C4.5 decision tree (Quinlan 1993, *C4.5: Programs for Machine Learning*, Release 8 behaviour).

Used as the tree learner of the Wang (2006) and Kang (2006) experiments. Input is ``mixed``: numeric
columns as floats, nominal columns as codes ``0 .. n_values[j]-1``, NaN (or a negative code) missing.
When every column is nominal it runs unchanged on discretized data (Kang's protocol).

Growing (Quinlan 1993 ch. 2; Release 8 ``build.c``, ``contin.c``, ``discr.c``, ``info.c``)
    * A node becomes a leaf when its cases are of one class or weigh less than ``2 * min_leaf``.
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
from numbers import Real

import numpy as np

from ..validation import BOOLEAN, Interval
from .base import N_VALUES, BaseEstimator, ClassifierMixin, check_mixed_fit, check_mixed_X, check_weights
from .counting import ValueIndex
from .criteria import entropy, info_gain

EPSILON = 1e-3          # C4.5's tolerance in gain and error comparisons (defns.i)
PRUNE_SLACK = 0.1       # C4.5 prefers the simpler tree when within 0.1 estimated errors (prune.c)
_CHUNK = 1 << 21        # max elements of a (rows, attributes, classes) block in numeric evaluation

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
    coeff = float(np.interp(cf, _CF_VALUES, _CF_DEVIATES)) ** 2
    pr = (e + 0.5 + coeff / 2 + np.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff)
    return n * pr - e


class _Node:
    """A tree node; a leaf when ``attr < 0``. ``dist`` holds weighted training class counts."""

    __slots__ = ("dist", "leaf_class", "attr", "threshold", "children", "errors", "fallback")

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

    def copy_from(self, other: "_Node") -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))

    def probabilities(self) -> np.ndarray:
        total = self.dist.sum()
        if total > 0:
            return self.dist / total
        if self.fallback is not None:
            return self.fallback
        return np.full(self.dist.shape, 1.0 / self.dist.size)


@contextmanager
def _recursion_limit(limit: int):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class C45Tree(ClassifierMixin, BaseEstimator):
    """C4.5 Release 8 decision tree; see the module docstring for every rule and deviation.

    Parameters: ``min_leaf`` (C4.5 ``-m``, minimum weight in at least two branches, default 2),
    ``confidence`` (``-c``, pruning confidence CF, default 0.25), ``prune`` (False gives C4.5's unpruned
    tree), ``subtree_raising`` (Release 8 replaces a node by its largest branch when that is no worse),
    ``n_values`` (per column the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None =
    all numeric). A nominal code >= n_values is an error at fit and an unknown value at predict.

    Fitted attributes: ``classes_``, ``n_values_`` (0 = numeric column), ``tree_`` (root ``_Node``).
    Inspection: ``n_leaves()``, ``depth()``, ``estimated_errors(X, y)`` (C4.5's pessimistic estimate).
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "min_leaf": [Interval(Real, 0, None, "neither")],
        "confidence": [Interval(Real, 0, 1, "neither")],
        "prune": [BOOLEAN],
        "subtree_raising": [BOOLEAN],
        "n_values": N_VALUES,
    }

    def __init__(self, min_leaf: float = 2, confidence: float = 0.25, prune: bool = True,
                 subtree_raising: bool = True, n_values=None):
        self.min_leaf = min_leaf
        self.confidence = confidence
        self.prune = prune
        self.subtree_raising = subtree_raising
        self.n_values = n_values

    # ------------------------------------------------------------------ input
    def _prepare_X(self, X, n_values=None) -> tuple[np.ndarray, np.ndarray]:
        """(numeric values with NaN missing, nominal codes with -1 missing), both (n, d)."""
        X = np.asarray(X, dtype=float)
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
        codes = np.full(X.shape, -1, dtype=np.int64)
        if nominal.any():
            sub = X[:, nominal]
            known = ~np.isnan(sub) & (sub >= 0)
            if np.any(sub[known] != np.round(sub[known])):
                raise ValueError("nominal columns (n_values > 0) must hold integer codes")
            codes[:, nominal] = np.where(known, np.nan_to_num(sub), -1).astype(np.int64)
        return X, codes

    # ---------------------------------------------------------------- fitting
    def fit(self, X, y, sample_weight=None, n_values=None):
        X, self.n_values_, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        Xf, codes = self._prepare_X(X, self.n_values_)
        keep = w > 0  # a zero weight is an absent row
        self._X, self._codes, self._y = Xf[keep], codes[keep], y_idx[keep]
        w = w[keep]
        self._setup_attributes(w)
        rows = np.arange(self._y.shape[0])
        if rows.size == 0:
            raise ValueError("C45Tree needs at least one row with positive sample_weight")
        with _recursion_limit(10_000 + 4 * rows.size):
            self.tree_ = self._grow(rows, w, np.zeros(X.shape[1], bool))
            if self.prune:
                self._prune_ops = 0
                self._estimate(self.tree_, rows, w, update=True)
        del self._X, self._codes, self._y, self._values
        return self

    def _setup_attributes(self, w: np.ndarray) -> None:
        nv = self.n_values_
        self._num_cols = np.flatnonzero(nv == 0)
        self._nom_cols = np.flatnonzero(nv > 0)
        self._nom_index = ValueIndex(nv[self._nom_cols]) if self._nom_cols.size else None
        # sorted known training values per numeric column, for C4.5's GreatestValueBelow
        self._values = {j: np.unique(self._X[:, j][~np.isnan(self._X[:, j])]) for j in self._num_cols}
        many = nv >= 0.3 * w.sum()  # C4.5: "attributes with very many values" (numeric: 0 values)
        self._in_average = np.ones(nv.size, bool) if many.all() else ~many
        self._n_classes = self.classes_.size

    def _class_counts(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        return np.bincount(self._y[rows], weights=w, minlength=self._n_classes).astype(float)

    def _grow(self, rows: np.ndarray, w: np.ndarray, tested: np.ndarray) -> _Node:
        """C4.5 FormTree on the cases ``rows`` with (fractional) weights ``w``."""
        dist = self._class_counts(rows, w)
        node = _Node(dist)
        cases = dist.sum()
        node.errors = cases - dist[node.leaf_class]
        if np.count_nonzero(dist) <= 1 or cases < 2 * self.min_leaf:
            return node
        gain, info, cut = self._evaluate(rows, w, cases, tested)
        attr = _select(gain, info, self._in_average)
        if attr < 0:
            return node
        node.attr = attr
        node.threshold = self._greatest_value_below(attr, cut[attr]) if self.n_values_[attr] == 0 else np.nan
        child_tested = tested.copy()
        child_tested[attr] = self.n_values_[attr] > 0
        subtree_errors = 0.0
        for part_rows, part_w in self._partition(node, rows, w, fractions=None):
            if part_rows is None:  # a branch without known cases: empty leaf
                child = _Node(np.zeros_like(dist), fallback=dist / cases)
                child.leaf_class = node.leaf_class
            else:
                child = self._grow(part_rows, part_w, child_tested)
            subtree_errors += child.errors
            node.children.append(child)
        if subtree_errors >= node.errors - EPSILON:  # no better than a leaf: collapse
            node.make_leaf()
        node.errors = subtree_errors  # as Release 8, which keeps the subtree's count after a collapse
        return node

    def _greatest_value_below(self, attr: int, bar: float) -> float:
        values = self._values[attr]
        return float(values[np.searchsorted(values, bar, side="right") - 1])

    # ---------------------------------------------------------- split search
    def _evaluate(self, rows, w, cases, tested) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per attribute: gain (-EPSILON when no valid test), split info, best cut midpoint."""
        d = self.n_values_.size
        gain, info, cut = np.full(d, -EPSILON), np.zeros(d), np.full(d, np.nan)
        y = self._y[rows]
        if self._num_cols.size:
            g, i, c = _eval_numeric(self._X[np.ix_(rows, self._num_cols)], y, w, cases,
                                    self._n_classes, self.min_leaf)
            gain[self._num_cols], info[self._num_cols], cut[self._num_cols] = g, i, c
        if self._nom_cols.size:
            g, i = _eval_nominal(self._codes[np.ix_(rows, self._nom_cols)], y, w, cases,
                                 self._n_classes, self.min_leaf, self._nom_index)
            g = np.where(tested[self._nom_cols], -EPSILON, g)
            gain[self._nom_cols], info[self._nom_cols] = g, i
        return gain, info, cut

    # ------------------------------------------------------------ partitions
    def _branch_of(self, node: _Node, rows: np.ndarray, X=None, codes=None) -> np.ndarray:
        """Branch index of each row at a test node; -1 when the outcome is unknown."""
        X = self._X if X is None else X
        codes = self._codes if codes is None else codes
        if self.n_values_[node.attr] == 0:
            x = X[rows, node.attr]
            return np.where(np.isnan(x), -1, (x > node.threshold).astype(np.int64))
        c = codes[rows, node.attr]
        return np.where(c < self.n_values_[node.attr], c, -1)  # unseen codes count as unknown

    def _partition(self, node: _Node, rows, w, fractions):
        """Yield (rows, weights) per branch; unknown outcomes go everywhere, scaled by branch shares.

        Shares are the known weight per branch (C4.5 at training and pruning); when no case has a known
        outcome, ``fractions`` (stored branch weights) are used if given. A branch with no known case
        yields (None, None).
        """
        n_branches = int(self.n_values_[node.attr]) if self.n_values_[node.attr] > 0 else 2
        branch = self._branch_of(node, rows)
        known = branch >= 0
        known_w = np.bincount(branch[known], weights=w[known], minlength=n_branches)
        total = known_w.sum()
        unknown_rows, unknown_w = rows[~known], w[~known]
        if total <= 0:
            shares = fractions if fractions is not None else np.full(n_branches, 1.0 / n_branches)
            has_known = shares > 0
        else:
            shares = known_w / total
            has_known = np.bincount(branch[known], minlength=n_branches) > 0
        for v in range(n_branches):
            if not has_known[v]:
                yield None, None
                continue
            in_v = branch == v
            yield (np.concatenate([rows[in_v], unknown_rows]),
                   np.concatenate([w[in_v], unknown_w * shares[v]]))

    # ---------------------------------------------------------------- pruning
    def _estimate(self, node: _Node, rows, w, update: bool) -> float:
        """C4.5 EstimateErrors: pessimistic errors of ``node`` on these cases; prunes when ``update``."""
        dist = self._class_counts(rows, w)
        cases = dist.sum()
        best = node.leaf_class if dist[node.leaf_class] >= dist.max() else int(np.argmax(dist))
        leaf_errors = cases - dist[best]
        leaf_estimate = leaf_errors + add_errs(cases, leaf_errors, self.confidence)
        if update:
            node.dist, node.leaf_class = dist, best
        if node.is_leaf:
            if update:
                node.errors = leaf_estimate
            return leaf_estimate
        tree_errors, largest, largest_share = 0.0, 0, -1.0
        for v, (part_rows, part_w) in enumerate(self._partition(node, rows, w, _child_fractions(node))):
            if part_rows is None:
                continue
            share = part_w.sum() / cases
            if share >= largest_share:  # C4.5 keeps the last of equally large branches
                largest, largest_share = v, share
            tree_errors += self._estimate(node.children[v], part_rows, part_w, update)
        if not update:
            return tree_errors
        branch_errors = self._estimate(node.children[largest], rows, w, False) \
            if self.subtree_raising else np.inf
        self._prune_ops += 1
        if leaf_estimate <= branch_errors + PRUNE_SLACK and leaf_estimate <= tree_errors + PRUNE_SLACK:
            node.make_leaf()
            node.errors = leaf_estimate
        elif branch_errors <= tree_errors + PRUNE_SLACK:
            raised = node.children[largest]
            self._estimate(raised, rows, w, True)
            node.copy_from(raised)
        else:
            node.errors = tree_errors
        return node.errors

    def estimated_errors(self, X, y, sample_weight=None) -> float:
        """C4.5's pessimistic error estimate of the fitted tree on (X, y): sum over leaves of E + AddErrs.

        Cases are routed as in pruning (unknown outcomes fractionally); the tree is not changed.
        """
        self._X, self._codes = self._prepare_X(X)
        self._y = np.searchsorted(self.classes_, np.asarray(y))
        try:
            w = check_weights(sample_weight, self._y.shape[0])
            rows = np.flatnonzero(w > 0)
            with _recursion_limit(10_000 + 4 * rows.size):
                return float(self._estimate(self.tree_, rows, w[rows], update=False))
        finally:
            del self._X, self._codes, self._y

    # ------------------------------------------------------------- predicting
    def predict_proba(self, X) -> np.ndarray:
        Xf, codes = self._prepare_X(check_mixed_X(self, X))
        proba = np.zeros((Xf.shape[0], self._n_classes))
        stack = [(self.tree_, np.arange(Xf.shape[0]), np.ones(Xf.shape[0]))]
        while stack:  # loop over nodes; each node handles all its rows at once
            node, rows, w = stack.pop()
            if rows.size == 0:
                continue
            if node.is_leaf:
                proba[rows] += w[:, None] * node.probabilities()[None, :]
                continue
            branch = self._branch_of(node, rows, Xf, codes)
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
        return sum(1 for n in _walk(self.tree_) if n.is_leaf)

    def depth(self) -> int:
        def rec(n):
            return 0 if n.is_leaf else 1 + max(rec(c) for c in n.children)
        return rec(self.tree_)


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


def _select(gain: np.ndarray, info: np.ndarray, in_average: np.ndarray) -> int:
    """Quinlan's rule: best gain ratio among tests with at least average gain; -1 if none."""
    possible = gain > -EPSILON
    counted = possible & in_average
    average = gain[counted].mean() if counted.any() else 1e6
    ok = possible & (gain >= average - EPSILON) & (info > EPSILON)
    with np.errstate(divide="ignore", invalid="ignore"):
        worth = np.where(ok, gain / info, -EPSILON)
    best = int(np.argmax(worth))
    return best if worth[best] > -EPSILON else -1


def _eval_nominal(codes, y, w, cases, n_classes, min_leaf, index: ValueIndex):
    """Gain (known-fraction scaled) and split info of the multiway test on each nominal column."""
    counts = index.counts(codes, y, w, n_classes)[:-1]
    n_attr, v_max = index.n_values.size, int(index.n_values.max())
    table = np.zeros((n_attr, v_max, n_classes))
    table[index.attribute_of_row, np.arange(index.n_rows) - index.offsets[index.attribute_of_row]] = counts
    sizes = table.sum(axis=2)
    known = sizes.sum(axis=1)
    unknown = np.maximum(cases - known, 0.0)
    gain = known / cases * info_gain(table)
    reasonable = (sizes >= min_leaf).sum(axis=1) >= 2
    gain = np.where(reasonable & (known > 0), gain, -EPSILON)
    info = entropy(np.concatenate([sizes, unknown[:, None]], axis=1))
    return gain, info


def _eval_numeric(X, y, w, cases, n_classes, min_leaf):
    """Best cut of each numeric column: (corrected gain, split info, cut midpoint); chunked by columns."""
    n, d = X.shape
    step = max(1, _CHUNK // max(1, n * n_classes))
    out = [_eval_numeric_block(X[:, s:s + step], y, w, cases, n_classes, min_leaf) for s in range(0, d, step)]
    return tuple(np.concatenate(parts) for parts in zip(*out))


def _eval_numeric_block(X, y, w, cases, n_classes, min_leaf):
    n, d = X.shape
    order = np.argsort(X, axis=0, kind="stable")  # NaN (unknown) sorts last
    xs = np.take_along_axis(X, order, axis=0)
    known_mask = ~np.isnan(xs)
    ws = np.where(known_mask, w[order], 0.0)
    onehot = (y[order][:, :, None] == np.arange(n_classes)) * ws[:, :, None]
    left = np.cumsum(onehot, axis=0)                  # class counts at or below each position
    low = np.cumsum(ws, axis=0)                       # weight at or below each position
    known = low[-1]
    totals = left[-1]                                 # class counts of the known cases
    min_split = 0.1 * known / n_classes
    min_split = np.where(min_split <= min_leaf, min_leaf, np.minimum(min_split, 25.0))
    valid = np.zeros((n, d), bool)
    if n > 1:
        valid[:-1] = (known_mask[1:] & (xs[:-1] < xs[1:])
                      & (low[:-1] >= min_split) & (low[:-1] <= known - min_split))
    valid &= known >= 2 * min_leaf
    tries = valid.sum(axis=0)
    pos, col = np.nonzero(valid)
    lo = left[pos, col]
    split = np.stack([lo, totals[col] - lo], axis=1)   # (candidates, 2 branches, classes)
    gain_c = known[col] / cases * info_gain(split)
    cost = np.log2(np.maximum(tries, 1)) / cases       # C4.5's Log(0) is 0
    score = np.full((n, d), -np.inf)
    score[pos, col] = gain_c - cost[col]
    best = np.argmax(score, axis=0)
    best_score = score[best, np.arange(d)]
    ok = best_score > 0
    gain = np.where(ok, best_score, -EPSILON)
    b = np.minimum(best, n - 2) if n > 1 else best
    low_b = low[b, np.arange(d)]
    sizes = np.stack([low_b, known - low_b, np.maximum(cases - known, 0.0)], axis=1)
    info = np.where(ok, entropy(sizes), 0.0)
    cut = np.where(ok, (xs[b, np.arange(d)] + xs[np.minimum(b + 1, n - 1), np.arange(d)]) / 2, np.nan)
    return gain, info, cut
