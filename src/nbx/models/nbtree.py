"""NBTree (Kohavi 1996, "Scaling up the accuracy of naive-Bayes classifiers: a decision-tree hybrid", §4
Fig. 2), the baseline of Wang et al. 2006 (Table 1).

At each node: the utility of a split on attribute X_j is the weighted sum of the 5-fold cross-validated
accuracies of naive Bayes at its children (weighted by child sizes); the node's own utility is the 5-fold
CV accuracy of a naive Bayes at the node. Split on the attribute of highest utility when the split is
significant — Kohavi: "relative (not absolute) reduction in error greater than 5% and there are at least
30 instances in the node"; Wang §6 states the same criteria as "no more than 30 instances" stops, so a
node splits only with more than ``min_instances`` (=30, weighted) instances. Otherwise the node becomes a
leaf holding a naive Bayes (:class:`~nbx.models.naive_bayes.NaiveBayes`, Laplace) over all attributes.

Input is discrete (the pipeline MDL-discretizes numeric attributes beforehand, as Kohavi's experiments
and Wang §5 describe), so splits are multiway on attribute values.

Choices where the papers are silent:

* CV folds: at each node a fresh seeded random permutation of the node's rows, fold = position mod 5.
  The children of a candidate split are cross-validated with the same fold labels (each child's fold k =
  the node's fold k restricted to the child); the count tables make this exact and cheap: the model of
  fold k is (total counts - fold-k counts), one counting pass per node for all folds, children and attributes.
* A missing split value (code -1) follows the branch of the attribute's most frequent value at the node
  (Wang §6 imputes the most frequent value); at prediction the same. A value that no training row at the
  node took goes to the node's own naive Bayes.
* Only attributes with at least two non-empty branches are candidates; a node with no candidate, or with
  CV error 0, is a leaf.
* Every naive Bayes (leaves and CV models) knows all classes of the training set (absent ones get the
  Laplace prior), as in MLC++.
* Weights count as instances in the counts and the 30-instance threshold; the random fold assignment is
  per row, so a weight of k is not identical to k copies for this learner (the CV folds differ).

Memory: the tree keeps the codes, and copies them to the children, in their smallest integer type; a node's
value rows and candidate branches are built a block of rows at a time in the smallest type of the value table
(:func:`node_values`, :func:`branch_rows`), and the count tables are added up by a compiled loop (:func:`_add_counts`)
instead of a bincount over an (n, splits, attributes) index. Every count and log is that of the whole-array route,
bit for bit (integer values; float weights added in the same order).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from numba import njit

from nbx.core.base import N_VALUES, BaseEstimator, ClassifierMixin, check_discrete_fit, check_discrete_X, check_rng
from nbx.core.counting import ValueIndex, row_blocks, small_int
from nbx.core.validation import NONE, RANDOM_STATE, Interval
from nbx.models.naive_bayes import NaiveBayes

BLOCK = 1 << 14  # max elements of one (rows, splits, attributes) count-index block (small: stays in cache)
SCORE_BLOCK = 1 << 16  # max elements of one (rows, splits, classes) score block (stays in cache)


def nb_cv_correct(
    codes, y, w, folds, n_folds, index: ValueIndex, n_classes, alpha=1.0, groups=None, n_groups=1, values=None
) -> np.ndarray:
    """Weighted number of correct CV predictions of Laplace NB, per group of rows.

    ``groups`` (n, J) assigns each row, for each of J candidate splits, to one of ``n_groups`` flat
    children (None = one group, J = 1). For every (child, fold) the NB is trained on the child's rows
    outside the fold — counts of the child minus counts of the fold — and predicts the fold's rows.
    Returns (J,) correct-weight sums (summed over the children of each split). ``values`` is
    :func:`node_values` of ``codes`` when the caller has it (a node and its splits share it).

    Cost: one compiled count of n·J·d entries for all count tables, log tables only for the children and
    attribute values present at the node, and a gather of n·J·d class vectors for the scores. Memory: the
    node's value rows in a small integer type and, per chunk of splits, an (n, J') model index; no
    (n, J', d) count index exists.
    """
    n, d = codes.shape
    if groups is None:
        groups = np.zeros((n, 1), np.int8)
    rows, values = node_values(index, codes) if values is None else values
    # unit weights count as integers (exact; their logs come from one lookup table, see _cv_log_tables)
    weight = np.ones(n, np.int64) if np.all(w == 1.0) else w
    out = np.zeros(groups.shape[1])
    for j0, j1 in _chunks(groups, n * d, n_folds * values.n_rows * n_classes):
        g = groups[:, j0:j1].astype(np.int64)
        cell = (g - g.min()) * n_folds + folds[:, None]  # (child, fold) of each row and split
        # Only the (child, fold) models that score some row are built (many are empty at small nodes);
        # their ids sort by child, so a child's models are contiguous.
        used = np.flatnonzero(np.bincount(cell.ravel()))
        model = np.searchsorted(used, cell)
        del g, cell
        log_prior, table = _cv_log_tables(model, used // n_folds, rows, values, y, weight, n_classes, alpha)
        out[j0:j1] = _cv_correct(log_prior, table, model, rows, values.n_rows, y, w)
    return out


def node_values(index: ValueIndex, codes):
    """Rows of a compact value table for the values present at the node (the last row = missing), in the
    smallest integer type that holds them, and that table's index: a row's score never reads a value no row of
    the node takes. Built a block of rows at a time (:meth:`ValueIndex.block_rows`): no (n, d) int64 array."""
    n_rows = index.n_rows
    rows = np.empty(codes.shape, small_int(n_rows))
    seen = np.zeros(n_rows + 1, np.int64)
    for block, table_rows in index.block_rows(codes, codes.shape[1]):
        rows[block] = table_rows
        seen += np.bincount(table_rows.ravel(), minlength=n_rows + 1)
    present = seen[:-1] > 0
    compact = np.append(np.cumsum(present) - 1, present.sum())
    for block in row_blocks(codes.shape[0], codes.shape[1]):
        rows[block] = compact[rows[block]]
    return rows, _CompactIndex(index, present)


class _CompactIndex:
    """Value rows kept at a node: their attribute segments and each attribute's full number of values."""

    def __init__(self, index: ValueIndex, present):
        attr = index.attribute_of_row[present]
        self.n_rows = len(attr) + 1  # + the missing-value row
        new = np.r_[True, attr[1:] != attr[:-1]] if len(attr) else np.zeros(0, bool)
        self.starts = np.flatnonzero(new)
        self.segment = np.cumsum(new) - 1
        self.n_values = index.n_values[attr[self.starts]]


def _cv_log_tables(model, child, rows, values: _CompactIndex, y, w, K, alpha):
    """Laplace log prior (models, K) and log conditional table (models * R, K) of the (child, fold)
    models (``child`` per model, sorted), each trained on the child's rows outside its fold: (child total -
    fold) counts. ``model`` (n, J') is each row's model; R = values.n_rows, each model's last row (missing
    values) is 0. ``w`` is int64 ones for unit weights (integer counts), else the float weights.

    P(v|c) = (n_cv + α) / (n_cj + V_j α), n_cj over the observed values of attribute j (Laplace, as
    :func:`~nbx.models.naive_bayes.nb_log_tables`). With unit weights the counts are integers: their
    logs come from one lookup of log(0..n + α), the same values as np.log elementwise.
    """
    n = rows.shape[0]
    M, R = len(child), values.n_rows
    unit = w.dtype.kind == "i"
    cnt, cls = np.zeros(M * R * K, w.dtype), np.zeros(M * K, w.dtype)
    _add_counts(cnt, cls, model, rows, y, w, R, K)
    cnt, cls = cnt.reshape(M, R, K), cls.reshape(M, K)
    first = np.flatnonzero(np.r_[True, child[1:] != child[:-1]])
    sizes = np.diff(np.append(first, M))  # models per child

    def outside_fold(counts):  # the child's counts minus the fold's, in place
        return np.subtract(np.repeat(np.add.reduceat(counts, first, axis=0), sizes, axis=0), counts, out=counts)

    train, train_cls = outside_fold(cnt), outside_fold(cls)
    table = np.zeros((M, R, K))
    if R > 1:
        kept, body = train[:, :-1], table[:, :-1]
        if unit:
            np.take(np.log(np.arange(n + 1) + alpha), kept, out=body, mode="clip")  # (kept is within 0..n)
        else:
            np.log(kept + alpha, out=body)
        den = np.add.reduceat(kept, values.starts, axis=1) + values.n_values[:, None] * alpha
        np.subtract(body, np.log(den)[:, values.segment], out=body)
    with np.errstate(divide="ignore"):
        log_prior = np.log(train_cls + alpha) - np.log((train_cls + alpha).sum(axis=-1, keepdims=True))
    return log_prior, table.reshape(-1, K)


@njit(cache=True)
def _add_counts(cnt, cls, model, rows, y, w, R: int, K: int) -> None:
    """Adds w[i] to cnt[(model[i, j] * R + rows[i, a]) * K + y[i]] and to cls[model[i, j] * K + y[i]] for every
    row i, split j and attribute a, in that (row-major) order: np.bincount's sums over the flat (n, J, d)
    index, bit for bit (each cell adds its weights in row order from 0), without making that index."""
    n, d = rows.shape
    J = model.shape[1]
    for i in range(n):
        wi, c = w[i], y[i]
        for j in range(J):
            m = model[i, j]
            base = m * R
            for a in range(d):
                cnt[(base + rows[i, a]) * K + c] += wi
            cls[m * K + c] += wi


def _cv_correct(log_prior, table, model, rows, R, y, w):
    """(J,) weighted correct predictions: each row scored by its model, log prior + Σ_j log P(x_j|c)."""
    correct = _predicts_own_class(log_prior, table, model, rows, R, y)
    J, K = model.shape[1], table.shape[1]
    out = np.zeros(J)
    step = max(1, SCORE_BLOCK // (J * K))  # the weights summed in numpy's order, block by block
    for i0 in range(0, rows.shape[0], step):
        out += (w[i0 : i0 + step, None] * correct[i0 : i0 + step]).sum(axis=0)
    return out


@njit(cache=True)
def _predicts_own_class(log_prior, table, model, rows, R: int, y) -> np.ndarray:
    """(n, J) whether row i's model for split j predicts its class: argmax over c (the first maximum, or the first
    NaN, as numpy's argmax) of log prior + the table rows ``model * R + rows[i]`` added in attribute order."""
    n, d = rows.shape
    J, K = model.shape[1], table.shape[1]
    correct = np.zeros((n, J), np.bool_)
    total = np.empty(K)
    for i in range(n):
        for j in range(J):
            m = model[i, j]
            base = m * R
            for c in range(K):
                total[c] = table[base + rows[i, 0], c] if d else 0.0
            for a in range(1, d):
                r = base + rows[i, a]
                for c in range(K):
                    total[c] += table[r, c]
            best, top = 0, log_prior[m, 0] + total[0]
            if not np.isnan(top):
                for c in range(1, K):
                    v = log_prior[m, c] + total[c]
                    if np.isnan(v):
                        best = c
                        break
                    if v > top:
                        best, top = c, v
            correct[i, j] = best == y[i]
    return correct


def _chunks(groups, per_split, per_group):
    """Ranges of split columns whose count-index block (per_split each) and count table stay near BLOCK."""
    J = groups.shape[1]
    lo_g, hi_g = groups.min(axis=0).astype(np.int64), groups.max(axis=0).astype(np.int64)
    j0 = 0
    while j0 < J:
        j1 = j0 + 1
        while j1 < J and (j1 + 1 - j0) * per_split <= BLOCK and (hi_g[j1] - lo_g[j0] + 1) * per_group <= 4 * BLOCK:
            j1 += 1
        yield j0, j1
        j0 = j1


def branch_codes(codes: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """Branch per row and attribute: the value, or the attribute's modal value when missing."""
    return np.where(codes >= 0, codes, modes[None, :])


def branch_rows(index: ValueIndex, codes: np.ndarray, modes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat value row (``index.offsets[j]`` + branch) of every row and attribute, in the smallest integer type
    that holds them, and whether each value row is some row's branch; a block of rows at a time, so no (n, d)
    int64 array is made. Training codes lie below ``n_values`` and the modes are values: every branch is a
    value row."""
    groups = np.empty(codes.shape, small_int(index.n_rows))
    seen = np.zeros(index.n_rows, np.int64)
    for block in row_blocks(codes.shape[0], codes.shape[1]):
        flat = branch_codes(codes[block], modes) + index.offsets
        groups[block] = flat
        seen += np.bincount(flat.ravel(), minlength=index.n_rows)
    return groups, seen > 0


class _Node:
    __slots__ = ("attr", "children", "mode", "model")

    def __init__(self, model=None, attr=-1, children=None, mode=0):
        self.model, self.attr, self.children, self.mode = model, attr, children, mode


class NBTree(ClassifierMixin, BaseEstimator):
    """Kohavi's NBTree on discrete input: a decision tree with naive Bayes leaves.

    A node splits on the attribute whose children's 5-fold cross-validated naive-Bayes accuracy is highest, when
    the relative reduction in error is at least ``min_rel_reduction`` and the node has more than
    ``min_instances`` weight (see the module docstring). Input: integer codes, NaN or negative = missing. At
    predict a code >= ``n_values_`` (never seen in training) counts as missing, i.e. follows the modal branch of
    a split on its attribute.

    Parameters
    ----------
    n_folds : int, default=5
        Folds of the cross-validated utility.
    min_instances : float, default=30
        A node splits only with more weight than this.
    min_rel_reduction : float, default=0.05
        Minimum relative error reduction of a split.
    alpha : float, default=1.0
        Laplace pseudo-count of the naive Bayes models.
    max_depth : int, default=None
        None = unlimited.
    random_state : int, numpy Generator or None, default=None
        Seed of the CV folds.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Number of values per column.
    tree_ : object
        The root node (nested nodes).
    n_leaves_ : int
        Number of leaves.
    depth_ : int
        Depth of the tree.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Kohavi, R. (1996). *Scaling up the accuracy of naive-Bayes classifiers: a decision-tree hybrid*. KDD-96, §4,
    Fig. 2.

    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems, Table 1 (the baseline).

    Examples
    --------
    >>> from nbx.models.nbtree import NBTree
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = NBTree(random_state=0).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "n_folds": [Interval(Integral, 2, None, "left")],
        "min_instances": [Interval(Real, 0, None, "left")],
        "min_rel_reduction": [Interval(Real, None, None)],
        "alpha": [Interval(Real, 0, None, "neither")],
        "max_depth": [Interval(Integral, 0, None, "left"), NONE],
        "random_state": RANDOM_STATE,
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        n_folds: int = 5,
        min_instances: float = 30,
        min_rel_reduction: float = 0.05,
        alpha: float = 1.0,
        max_depth=None,
        random_state=None,
        n_values=None,
    ):
        self.n_folds = n_folds
        self.min_instances = min_instances
        self.min_rel_reduction = min_rel_reduction
        self.alpha = alpha
        self.max_depth = max_depth
        self.random_state = random_state
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
        self : NBTree
            The fitted estimator.
        """
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        # The tree needs the codes' values only: kept (and copied to the children) in their smallest type.
        codes = codes.astype(small_int(int(self.n_values_.max(initial=1)) - 1))
        self._index = ValueIndex(self.n_values_)
        self._rng = check_rng(self.random_state)
        self.n_leaves_, self.depth_ = 0, 0
        self.tree_ = self._grow(codes, y_idx, w, 0)
        del self._rng
        return self

    def _leaf_nb(self, codes, y, w):
        """NB over the node's rows that knows every class (its ``classes``: the tree's class indices)."""
        nb = NaiveBayes(prior="laplace", alpha=self.alpha, classes=np.arange(len(self.classes_)))
        return nb.fit(codes, y, w, self.n_values_)

    def _grow(self, codes, y, w, depth):
        self.depth_ = max(self.depth_, depth)
        total = w.sum()
        K = len(self.classes_)
        can_split = total > self.min_instances and (self.max_depth is None or depth < self.max_depth)
        split = self._best_split(codes, y, w, K) if can_split else None
        if split is None:
            self.n_leaves_ += 1
            return _Node(model=self._leaf_nb(codes, y, w))
        attr, mode = split
        branch = branch_codes(codes[:, [attr]], np.array([mode]))[:, 0]
        present = np.bincount(branch, minlength=self.n_values_[attr]) > 0
        children = {}
        for v in np.flatnonzero(present):
            m = branch == v
            children[int(v)] = self._grow(codes[m], y[m], w[m], depth + 1)
        fallback = None if present.all() else self._leaf_nb(codes, y, w)
        return _Node(model=fallback, attr=attr, children=children, mode=mode)

    def _best_split(self, codes, y, w, K):
        """(attribute, modal value) of the best significant split, or None."""
        n, d = codes.shape
        F = int(self.n_folds)
        folds = self._rng.permutation(n) % F
        idx = self._index
        values = node_values(idx, codes)
        node_correct = nb_cv_correct(codes, y, w, folds, F, idx, K, self.alpha, values=values)[0]
        total = w.sum()
        node_err = 1.0 - node_correct / total
        if node_err <= 0:
            return None
        counts = idx.counts(codes, np.zeros(n, np.int64), w, 1)[:-1, 0]
        # Modal value per attribute (ties -> smallest code): first flat row reaching its attribute's max.
        top = counts == np.maximum.reduceat(counts, idx.offsets)[idx.attribute_of_row]
        first_top = np.flatnonzero(top)
        attr_of_top, pos = np.unique(idx.attribute_of_row[first_top], return_index=True)
        modes = first_top[pos] - idx.offsets[attr_of_top]
        groups, present = branch_rows(idx, codes, modes)
        nonempty = np.add.reduceat(present.astype(int), idx.offsets) if d else np.zeros(0, int)
        cand = np.flatnonzero(nonempty >= 2)
        if len(cand) == 0:
            return None
        if len(cand) < d:
            groups = groups[:, cand]
        split_correct = nb_cv_correct(codes, y, w, folds, F, idx, K, self.alpha, groups, idx.n_rows, values=values)
        best = int(np.argmax(split_correct))
        split_err = 1.0 - split_correct[best] / total
        if (node_err - split_err) / node_err <= self.min_rel_reduction:
            return None
        return int(cand[best]), int(modes[cand[best]])

    def predict_proba(self, X):
        """Class probabilities of the rows of ``X``.

        The naive Bayes probabilities of the leaf each row reaches.

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
        out = np.zeros((codes.shape[0], len(self.classes_)))
        self._route(self.tree_, codes, np.arange(codes.shape[0]), out)
        return out

    def _route(self, node, codes, rows, out):
        if node.children is None:
            if len(rows):
                out[rows] = node.model.predict_proba(codes[rows])
            return
        v = codes[rows, node.attr]
        v = np.where(v >= 0, v, node.mode)
        known = np.isin(v, list(node.children))
        for value, child in node.children.items():
            self._route(child, codes, rows[v == value], out)
        if not known.all():
            out[rows[~known]] = node.model.predict_proba(codes[rows[~known]])
