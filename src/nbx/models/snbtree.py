"""Self-adaptive NBTree, S-NBTree (Wang, Li, Cao & Yuan 2006, "Combining decision tree and Naive Bayes for
classification", Fig. 2), with General Naive Bayes leaves (:class:`~nbx.models.kernel_nb.GeneralNB`).

Induction (Fig. 2), on mixed data (numeric columns kept numeric, nominal codes):

1. Pick the attribute of largest Bayes measure δ (eq. 5): the weighted fraction of the node's cases whose
   class equals c* = argmax_c P(x|c)P(c) — counts for a nominal attribute (eq. 2), the kernel densities
   of the node's GNB for a numeric one (eq. 4), P(c) the class frequency (eq. 12).
2. A numeric attribute is cut where c*(x) changes between consecutive training values (§2.2, eq. 6),
   and those candidate boundaries are kept or merged by Fayyad & Irani's MDL rule applied recursively
   (§2.2; the criterion is :func:`nbx.discretize.mdl.fayyad_irani_accepts`, candidates restricted to the
   δ boundaries; its test is ``gain > ...`` where the paper prints ``>=`` — equal only on a measure-zero set).
3. Multiway split: one branch per interval (numeric) or per value (nominal).
4. Stop (Wang §6, "the same [criteria as NBTree]: the relative reduction in error for a split is less
   than 5% and there are no more than 30 instances in the node"): a node with at most ``min_instances``
   (weighted) instances, or whose split does not reduce the error by more than ``min_rel_reduction``
   relative, becomes a GNB leaf; a node whose cases all have one class becomes a class leaf.
   The root is tested like any node (``split_root=False``, the default): §5 says the method "is exactly the
   same as Kohavi's NBTree [9] but in two respects: the method used for discretizing continuous attributes
   and the Naive Bayes classifier used for constructing leaf node", and Kohavi's NBTree (1996) tests the root
   as it tests every node. Fig. 2's pseudo-code applies the criteria to the *descendant* nodes only (step 3
   partitions S, step 4 asks "if the descendant node satisfies specific stopping criterions"), which would
   always split the root: ``split_root=True`` is that reading.

How the "relative reduction in error" is estimated (the paper only says it is NBTree's criterion): as in
NBTree, by cross-validated accuracy — the error of the GNB at the node versus the summed errors of GNBs
at the children. We use *leave-one-out* instead of Kohavi's 5-fold CV: the GNB's kernel sums, counts and
priors are additive, so each training case's LOO posterior is exact (its kernel sums, for samples of more
than 256 distinct values, within GeneralNB's relative error bound of 2e-3: :mod:`nbx.models.kernel_nb`) and
costs one evaluation of the GNB on its own training data (the bandwidths stay those chosen by the §4 LOO
cross-entropy on the whole node). This is deterministic, needs no folds, and a weight of k equals k copies
(LOO removes one copy).

Memory: a node's δ search and leave-one-out accuracy come from one scan of its GNB's densities, a group of numeric
attributes at a time (:meth:`SelfAdaptiveNBTree._scan`, about SCAN_ENTRIES densities per group): no (rows,
attributes, classes) array of the node exists, c*(x) is kept per case and attribute as the smallest integer type,
and the leave-one-out log densities are added over the attributes in numpy's order
(:meth:`GeneralNB.add_attributes`), so every value is that of the whole arrays, bit for bit; δ's correct weights are
added a block of rows at a time in numpy's order (:func:`correct_weight`). The GNBs keep their centers and the
binned sets' grids (built once at fit: building them at each evaluation saved memory but made a one-row prediction
about 15x slower), but the scan is the fit's last evaluation of a node's GNB: it drops the grids, which the GNB's
first prediction (as a leaf or a nominal test's fallback) builds again, the same values, so the GNBs waiting for
their node's test hold their centers only. The children are fitted and scanned one after another, a large child's
kernel GNB through its row indices, a group of columns gathered at a time (no copy of the child's rows,
:meth:`SelfAdaptiveNBTree._gathers`), and all-numeric input is not copied. Only the leaves and the nominal tests
keep a GNB (a numeric test sends every value to a child), without the bandwidth search's table (a standalone fit's
diagnostic), and a node's GNB goes once its children are fitted, so a fit holds the finished leaves (about one
input's worth of centers), the children still to grow along one path, and one node's GNB fit or scan
(benchmarks/README.md, kernel densities).

Choices where the paper is silent:

* Pure node check comes first (Fig. 2 step 4 lists both; they predict the same class).
* δ is the resubstitution accuracy as eq. (5) defines it; a missing value counts as not correct (so an
  attribute's δ is scaled by its observed fraction, as C4.5 scales gain).
* If the attribute of largest δ yields fewer than two non-empty branches (e.g. MDL rejects every
  boundary), the next attribute by δ is tried; a node without any usable attribute is a GNB leaf.
* Missing split values follow the branch with the largest training weight (Wang §6 replaces missing
  values by the most frequent value); a nominal value absent from the node's training data is
  classified by the node's own GNB.
* An attribute may be tested again deeper in the tree (the paper does not forbid it).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from nbx.core.base import N_VALUES, BaseEstimator, ClassifierMixin, check_mixed_fit, check_mixed_X
from nbx.core.counting import ValueIndex, row_blocks
from nbx.core.validation import BOOLEAN, NONE, Interval, instance_of
from nbx.discretize.base import nominal_codes
from nbx.discretize.mdl import mdl_boundaries
from nbx.models.kernel_nb import GeneralNB, take_columns

GATHER_FROM = 1 << 16  # values (rows x columns) from which a child's rows are not copied (512 KiB)
SCAN_ENTRIES = 1 << 14  # densities (rows x numeric attributes x classes) a node's scan holds at once (128 KiB;
# smaller groups cost letter's many small 26-class nodes more calls than they save memory)


def bayes_delta_nominal(codes, y, w, n_values, n_classes) -> np.ndarray:
    """δ (eq. 5) of each nominal column: Σ_v max_c Count(v, c) / N (missing values never correct)."""
    index = ValueIndex(n_values)
    counts = index.counts(codes, y, w, n_classes)[:-1]
    if index.n_rows == 0:
        return np.zeros(0)
    best = np.add.reduceat(counts.max(axis=1), index.offsets)
    return best / w.sum()


def bayes_delta_numeric(pred, y, w, observed):
    """δ (eq. 4-5) of each numeric column, from c*(x) per case and column ``pred`` (n, d); returns (δ, pred)."""
    return correct_weight(pred, y, w, observed) / w.sum(), pred


def correct_weight(pred, y, w, observed) -> np.ndarray:
    """Σ_i w_i [pred_ij = y_i and x_ij observed] per column j: ``(w[:, None] * hit).sum(axis=0)`` bit for bit,
    without its (n, d) float array. With two or more columns numpy adds the rows one after another, so the
    sum goes on a block of rows at a time from the running total (prepended as the block's first row); one
    column is summed pairwise by numpy, from an array of n values only."""
    n, d = pred.shape
    if d < 2:
        return (w[:, None] * ((pred == y[:, None]) & observed)).sum(axis=0)
    total = np.zeros(d)
    for rows in row_blocks(n, d):
        wb = w[rows]
        block = np.empty((1 + len(wb), d))
        block[0] = total
        np.multiply(wb[:, None], (pred[rows] == y[rows, None]) & observed[rows], out=block[1:])
        total = block.sum(axis=0)
    return total


def bayes_cut_points(x, pred, y, w, n_classes) -> np.ndarray:
    """Boundaries where c*(x) changes (§2.2), kept or merged by the recursive MDL rule; sorted.

    ``x``, ``pred`` (c* per case), ``y``, ``w`` over the observed cases of one attribute.
    """
    order = np.argsort(x, kind="stable")
    x, pred, y, w = x[order], pred[order], y[order], w[order]
    values, first = np.unique(x, return_index=True)
    vpred = pred[first]  # c* depends on x only
    run_start = np.flatnonzero(np.r_[True, vpred[1:] != vpred[:-1]])  # runs of constant c*
    if len(run_start) < 2:
        return np.empty(0)
    run_of_value = np.cumsum(np.r_[True, vpred[1:] != vpred[:-1]]) - 1
    run_of_case = run_of_value[np.searchsorted(values, x)]
    counts = np.bincount(run_of_case * n_classes + y, weights=w, minlength=len(run_start) * n_classes).reshape(
        -1, n_classes
    )
    run_last = np.r_[run_start[1:] - 1, len(values) - 1]
    bounds = mdl_boundaries(counts)  # recursive binary MDL over run boundaries (Fayyad & Irani, as in §2.2)
    return np.sort((values[run_last[bounds]] + values[run_start[bounds + 1]]) / 2.0)


class _Node:
    __slots__ = ("attr", "children", "cuts", "default", "label", "model")

    def __init__(self, model=None, label=-1, attr=-1, cuts=None, children=None, default=0):
        self.model, self.label, self.attr, self.cuts = model, label, attr, cuts
        self.children, self.default = children, default


class SelfAdaptiveNBTree(ClassifierMixin, BaseEstimator):
    """S-NBTree: a self-adaptive naive Bayes tree with General Naive Bayes leaves on mixed data.

    Induction as Wang et al. (2006) Fig. 2: the attribute of largest Bayes measure δ (eq. 5) is split, numeric
    ones where the GNB's predicted class changes (§2.2, eq. 6); leaves hold a :class:`~nbx.models.kernel_nb.GeneralNB`.
    A nominal code >= n_values is an error at fit and a missing value at predict. See the module docstring.

    Parameters
    ----------
    min_instances : float, default=30
        A node splits only with more weight than this.
    min_rel_reduction : float, default=0.05
        Minimum relative error reduction of a split.
    max_depth : int, default=None
        None = unlimited.
    leaf : GeneralNB, default=None
        The GNB whose parameters every node's GNB uses; None = ``GeneralNB()``.
    split_root : bool, default=False
        False: the root is tested like any node, as in Kohavi's NBTree (Wang §5); True: the stopping criteria
        test descendant nodes only (Fig. 2 step 4), so the root is split whenever it has a usable attribute.
    n_values : array-like of int, default=None
        Per column the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None = all numeric. A
        nominal code >= n_values is an error at fit and a missing value at predict.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Nominal values per column, 0 = numeric.
    tree_ : object
        The root node.
    n_leaves_ : int
        Number of leaves.
    depth_ : int
        Depth of the tree.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems, §2-5, Fig. 2, eq. (2)-(6), (12).

    Kohavi, R. (1996). *Scaling up the accuracy of naive-Bayes classifiers: a decision-tree hybrid*. KDD-96.

    Notes
    -----
    Magnitudes: a numeric column whose largest |x| exceeds 1e100 or is below 1e-100 is grown and scored in the
    scaled domain of :class:`GeneralNB` (``x * 2**-e``, a power of two, see its Notes; not with ``scale="none"``),
    and the tests' cut points are scaled back to X's units. Before, the GNBs' densities of values near ±1.7e308
    overflowed and the tree predicted the class prior. Ordinary columns are computed as they always were.

    Examples
    --------
    >>> from nbx.models.snbtree import SelfAdaptiveNBTree
    >>> X = [[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    >>> y = ["no", "no", "no", "yes", "no", "yes", "yes", "yes"]
    >>> model = SelfAdaptiveNBTree().fit(X, y)
    >>> print(model.predict([[2.5], [6.5]]))
    ['no' 'yes']
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "min_instances": [Interval(Real, 0, None, "left")],
        "min_rel_reduction": [Interval(Real, None, None)],
        "max_depth": [Interval(Integral, 0, None, "left"), NONE],
        "leaf": [instance_of(GeneralNB), NONE],
        "split_root": [BOOLEAN],
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        min_instances: float = 30,
        min_rel_reduction: float = 0.05,
        max_depth=None,
        leaf=None,
        split_root: bool = False,
        n_values=None,
    ):
        self.min_instances = min_instances
        self.min_rel_reduction = min_rel_reduction
        self.max_depth = max_depth
        self.leaf = leaf
        self.split_root = split_root
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
            Per column the number of nominal values (0 = numeric); wins over the constructor's ``n_values``.

        Returns
        -------
        self : SelfAdaptiveNBTree
            The fitted estimator.
        """
        # the rows of positive weight (check_mixed_fit drops the absent rows of weight 0)
        X, nv, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        nom = np.flatnonzero(nv > 0)
        if len(nom):  # a copy only to rewrite nominal columns (X may be the caller's array)
            X = X.copy()
            codes = nominal_codes(X[:, nom], nv[nom]).astype(float)
            X[:, nom] = np.where(codes < 0, np.nan, codes)  # unseen or negative codes count as missing
        self.n_values_ = nv
        self.n_leaves_, self.depth_ = 0, 0
        leaf = self.leaf if self.leaf is not None else GeneralNB()
        exponents = leaf.scaled_domain(X, nv)
        if exponents is not None:  # beyond ordinary magnitudes: grown on X * 2**-e (see the class Notes)
            X = np.ldexp(X, -exponents)
        self.tree_ = self._grow(X, y_idx, w, self._gnb(X, y_idx, w), None, 0)
        self._exponents = exponents
        if exponents is not None:
            _unscale_cuts(self.tree_, exponents)
        return self

    def fit_info(self) -> dict:
        """Tree size for the reports; ``root_split`` says whether the root was split (it is not under the
        default reading when the root fails the stopping rule)."""
        return {"depth": self.depth_, "n_leaves": self.n_leaves_, "root_split": self.tree_.children is not None}

    def _gnb(self, X, y, w, subset=None) -> GeneralNB:
        """The node's GNB, on the rows ``X[subset]`` if given (y and w are theirs), without copying them whole."""
        params = self.leaf.get_params() if self.leaf is not None else {}
        gnb = GeneralNB(**params)._fit_indexed(X, y, w, self.n_values_, len(self.classes_), subset)
        # The bandwidth search's table (segments x grid values), a standalone fit's diagnostic, is not kept in
        # every node: on letter it was 85 % of a leaf's GNB.
        gnb.loo_ce_ = None
        return gnb

    def _grow(self, X, y, w, gnb, loo_correct, depth, numeric=None):
        """Node for (X, y, w) whose GNB is ``gnb``; ``loo_correct`` is its leave-one-out correct weight and
        ``numeric`` its numeric attributes' (δ, c*) (:meth:`_numeric_delta`) when the parent already computed
        them (None: compute when needed)."""
        self.depth_ = max(self.depth_, depth)
        K = len(self.classes_)
        class_w = np.bincount(y, weights=w, minlength=K)
        if np.count_nonzero(class_w) == 1:
            self.n_leaves_ += 1
            return _Node(label=int(np.argmax(class_w)))
        forced = depth == 0 and self.split_root  # Fig. 2's reading: the criteria test descendant nodes only
        if (w.sum() <= self.min_instances and not forced) or (self.max_depth is not None and depth >= self.max_depth):
            self.n_leaves_ += 1
            return _Node(model=gnb)
        if numeric is None:  # the root: its leave-one-out accuracy in the same scan (unless no test needs it)
            numeric, loo_correct = self._scan(gnb, X, y, w, loo=not forced)
        split = self._choose_split(X, y, w, numeric)
        if split is not None:
            attr, cuts, branch, default = split
            members = [np.flatnonzero(branch == b) for b in range(int(branch.max()) + 1)]
            # A pure child becomes a class leaf, and its GNB would classify every case right (also leave-one-
            # out: absent classes score -inf): no GNB is fitted for it. A child's densities without leave-one-
            # out serve both its leave-one-out accuracy and, if it is grown, its own split search (one scan).
            # A child's GNB is fitted and scanned at once, the scan dropping its binned grids (the children wait
            # with their centers only); a large child's kernel GNB gathers its rows a group of columns at a time
            # (no copy of X[m], see _gathers).
            del numeric
            kids, kid_correct, kid_numeric = {}, {}, {}
            for b, m in enumerate(members):
                if not len(m):
                    continue
                if np.all(y[m] == y[m[0]]):
                    kids[b], kid_correct[b] = None, w[m].sum()
                    continue
                Xb, subset = (X, m) if self._gathers(len(m), X.shape[1]) else (X[m], None)
                kids[b] = self._gnb(Xb, y[m], w[m], subset)
                kid_numeric[b], kid_correct[b] = self._scan(kids[b], Xb, y[m], w[m], loo=True, subset=subset)
                del Xb
            if forced or self._significant(w, loo_correct, kid_correct, members):
                # A numeric test sends every value to a child (each interval holds training values; a missing
                # value takes the default branch), so only a nominal test keeps its node's GNB, for values
                # unseen here. The GNBs go as soon as they are not needed: a fit holds one path's pending ones.
                node = _Node(model=gnb if cuts is None else None, attr=attr, cuts=cuts, default=default)
                del gnb
                node.children = {}
                for b in list(kids):
                    m = members[b]
                    node.children[b] = self._grow(
                        X[m], y[m], w[m], kids.pop(b), kid_correct[b], depth + 1, kid_numeric.pop(b, None)
                    )
                return node
        self.n_leaves_ += 1
        return _Node(model=gnb)

    def _gathers(self, n_rows: int, n_columns: int) -> bool:
        """Does a child of ``n_rows`` rows fit and scan its GNB through its row indices, gathering a group of
        columns at a time (memory), rather than from one copy of its rows? For kernel densities of at least
        GATHER_FROM values: their fit and scan cost many times the gathers; a smaller copy is negligible memory,
        and a Gaussian GNB's fit and scan are a few passes over the rows (in both cases the gathers cost more
        time: on letter's many small nodes about 4 %, the Gaussian fit at 10^5 rows about 10 %)."""
        kernel = (self.leaf.density if self.leaf is not None else GeneralNB().density) == "kernel"
        return kernel and n_rows * n_columns >= GATHER_FROM

    def _significant(self, w, loo_correct, kid_correct, members) -> bool:
        """Does the split reduce the leave-one-out error by more than ``min_rel_reduction`` (relative)?"""
        node_err = w.sum() - loo_correct
        split_err = sum(w[members[b]].sum() - kid_correct[b] for b in kid_correct)
        return bool(node_err > 0 and (node_err - split_err) / node_err > self.min_rel_reduction)

    def _scan(self, gnb, X, y, w, loo, subset=None):
        """δ (eq. 4-5) and c*(x) per case of the numeric attributes of the node whose GNB is ``gnb`` and, with
        ``loo``, the GNB's leave-one-out correct weight (else None), over groups of attributes: the densities
        (rows, numeric attributes, classes) exist a group at a time (about SCAN_ENTRIES values), each group's
        densities without leave-one-out serving both; the leave-one-out log joint gets their sum over the
        attributes, added in numpy's order (:meth:`GeneralNB.add_attributes`), so every value is that of the
        whole arrays, bit for bit. ``subset``: the node's rows are ``X[subset]`` (y and w are theirs), of which a
        group's columns are gathered at a time."""
        numeric = np.flatnonzero(self.n_values_ == 0)
        K = len(self.classes_)
        log_prior = np.log(np.maximum(np.bincount(y, weights=w, minlength=K), 1e-300) / w.sum())
        pred = np.empty((len(y), len(numeric)), np.min_scalar_type(K - 1))  # c*, a class index: its smallest type
        observed = np.empty(pred.shape, bool)
        total = np.zeros((len(y), K))  # the leave-one-out log densities summed over the attributes
        r = np.minimum(w, 1.0)
        for cols in gnb.attribute_groups(len(y), SCAN_ENTRIES):
            plain = gnb.numeric_log_density(X, cols=cols, subset=subset)
            pred[:, cols] = np.argmax(plain + log_prior, axis=2)
            observed[:, cols] = ~np.isnan(take_columns(X, subset, numeric[cols]))
            if loo:
                gnb.add_attributes(total, gnb.numeric_log_density(X, y, r, plain, cols, subset))
        delta = bayes_delta_numeric(pred, y, w, observed) if len(numeric) else (np.zeros(0), None)
        correct = gnb.loo_correct(X, y, w, total, subset) if loo else None
        # The fit evaluates a node's GNB only here: kept as a leaf or a nominal test's fallback, it is evaluated
        # again to predict, which builds the binned sets' grids again (the same values); until then they go.
        gnb.release_grids()
        return delta, correct

    def _choose_split(self, X, y, w, numeric):
        """(attribute, cuts or None, branch per row, default branch) of the largest usable δ, or None."""
        K = len(self.classes_)
        nv = self.n_values_
        nominal, numeric_attrs = np.flatnonzero(nv > 0), np.flatnonzero(nv == 0)
        delta = np.zeros(X.shape[1])
        delta[numeric_attrs], pred = numeric
        if len(nominal):
            codes = np.where(np.isnan(X[:, nominal]), -1, X[:, nominal]).astype(np.int64)
            delta[nominal] = bayes_delta_nominal(codes, y, w, nv[nominal], K)
        for attr in np.argsort(-delta, kind="stable"):
            x = X[:, attr]
            obs = ~np.isnan(x)
            if nv[attr] > 0:
                cuts, branch = None, np.where(obs, x, -1).astype(np.int64)
            else:
                col = int(np.searchsorted(numeric_attrs, attr))
                cuts = bayes_cut_points(x[obs], pred[obs, col], y[obs], w[obs], K)
                branch = np.where(obs, np.searchsorted(cuts, np.where(obs, x, 0.0), side="right"), -1)
            sizes = np.bincount(branch[obs], weights=w[obs])
            if np.count_nonzero(sizes) < 2:
                continue
            default = int(np.argmax(sizes))
            return int(attr), cuts, np.where(obs, branch, default), default
        return None

    # ------------------------------------------------------------------ prediction
    def predict_proba(self, X):
        """Class probabilities of the rows of ``X``.

        The GNB probabilities of the leaf each row reaches.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        X = check_mixed_X(self, X).copy()
        nom = np.flatnonzero(self.n_values_ > 0)
        codes = nominal_codes(X[:, nom], self.n_values_[nom])
        X[:, nom] = np.where(codes < 0, np.nan, codes)  # a code never seen in training counts as missing
        out = np.zeros((X.shape[0], len(self.classes_)))
        exponents = getattr(self, "_exponents", None)
        scaled = X if exponents is None else np.ldexp(X, -exponents)  # the GNBs' domain (see fit)
        self._route(self.tree_, X, np.arange(X.shape[0]), out, scaled)
        return out

    def _route(self, node, X, rows, out, scaled):
        """Route ``rows`` of X by the tests (cut points in X's units); the GNBs score them in ``scaled``."""
        if len(rows) == 0:
            return
        if node.children is None:
            if node.model is None:
                out[rows, node.label] = 1.0
            else:
                out[rows] = node.model.predict_proba(scaled[rows])
            return
        x = X[rows, node.attr]
        obs = ~np.isnan(x)
        if node.cuts is None:
            b = np.where(obs, x, node.default).astype(np.int64)
        else:
            b = np.where(obs, np.searchsorted(node.cuts, np.where(obs, x, 0.0), side="right"), node.default)
        known = np.isin(b, list(node.children))
        for value, child in node.children.items():
            self._route(child, X, rows[b == value], out, scaled)
        if not known.all():
            out[rows[~known]] = node.model.predict_proba(scaled[rows[~known]])


def _unscale_cuts(node, exponents) -> None:
    """The numeric tests' cut points, found on X * 2**-e, in X's units (exact but for subnormal cut points)."""
    if node.children is None:
        return
    if node.cuts is not None:
        node.cuts = np.ldexp(node.cuts, exponents[node.attr])
    for child in node.children.values():
        _unscale_cuts(child, exponents)
