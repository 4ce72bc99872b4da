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
  whose best gain is not positive becomes a leaf.
* Tests on numeric attributes (``ordinal``). Input is discrete (the paper MDL-discretizes numeric attributes
  beforehand, §3.1). Columns listed in ``ordinal`` (the discretized numeric attributes) get C4.5's binary
  threshold tests ``code <= t`` / ``code > t``: §3.2 grows the tree by "the same tree-growing procedure as
  in a Top-Down Decision Tree induction algorithm ... like C4.5", whose tests on continuous attributes are
  binary cuts that may be tested again deeper, and Figure 1's caption names the two test forms, "Color =
  blue" or "Temperature > 70°C". The candidate cuts are the discretizer's cut points (t = 0 .. V-2); per
  attribute the cut with the largest gain among the admissible ones (both branches >= 2, and the rule (iii)
  below) competes with the other attributes' tests by C4.5's average-gain / gain-ratio rule; the lowest
  such t wins a tie (the same partition of the node: C4.5's threshold is the largest value below the cut).
  Release 8's penalty log2(N-1)/|D| for the N-1 candidate cuts of raw values is not applied (the codes offer
  at most V-1). An ordinal attribute may be tested again deeper on the path (a narrower cut). Other columns
  (and every column when ``ordinal`` is None) get multiway tests, each attribute once per path. The Ting
  report's default is ``ordinal`` = None, multiway tests on the discretized codes: §3.1 says "Continuous
  attributes are preprocessed using an entropy-based discretization method", so the tree grower sees only
  discrete attributes, and C4.5 tests a discrete attribute by one multiway test; that explicit sentence
  outranks Figure 1's caption. Threshold tests run as the report's ``*_threshold`` and ``*_keepcut`` cells.
* Tests on the raw values (``cuts="values"``): §3.2's "univariate tests of conventional decision trees ... Like
  C4.5" read most literally, a numeric (``ordinal``) attribute is tested as C4.5 tests it, ``x <= t`` on its raw
  values, while the leaf NBs keep §3.1's discretized codes. The input is then mixed (numeric columns as floats);
  ``discretizer`` (default Fayyad & Irani's MDL, §3.1) is fitted on the training rows and codes every numeric
  column for the leaf NBs; the cut search is C4.5 Release 8's (:mod:`nbx.models.leveled_cuts`: cuts between the
  node's distinct values, MinSplit, the log2(tries)/|D| correction, the threshold lowered to a training value).
  Under AdaBoost the discretizer and the distinct values are fitted once, on the ensemble's training rows (the
  paper's preprocessing), not per round. Runs as the report's ``*_rawcut`` cells.
* Which attributes a leaf's NB leaves out (``leaf_drop``, §3.2 (ii): the local NB uses "all attributes that
  do not appear on the path from the root to the leaf"; §3.2 first paragraph: it "does not consider
  attributes involved in tests on the path"). ``"tested"`` (default) leaves out every attribute tested on the
  path, the sentence read literally. ``"fixed"`` leaves out only the attributes whose value the path fixes:
  every multiway-tested attribute, and an ordinal attribute once its cuts on the path leave one code
  (``lo <= code <= hi`` with lo = hi). The two differ only under threshold tests: after ``code <= t`` the
  attribute still varies in both branches, and the literal reading throws that information away although
  the sentence's reason, an attribute fixed by the path tells the leaf nothing, does not apply to it. We
  drop the fixed attributes rather than keep every threshold-tested one because a fixed attribute is
  exactly the case the sentence describes (one value at the leaf: its m-estimate term only adds noise).
* Missing values in the split attribute: the gain is C4.5's — gain on the known rows times the known
  fraction, split information with an extra "unknown" branch. In training, rows whose split value is
  missing go to the branch with the largest weight (a one-branch stand-in for C4.5's fractional
  distribution). At prediction, a row whose split value is missing stops at that internal node and is
  classified by the node's own NB (fitted on all the node's training examples, over the attributes not
  on the path to it), which does not guess the missing value.
* ``missing="value"`` (a sensitivity, not the paper's method: §3.1 says nothing of missing values) reads a
  missing code as one more value of its attribute, the last code ``n_values_ - 1``: tested, counted and
  estimated like any other value. It measures data sets whose "?" marks "not applicable" rather than
  "unknown" (the UCI Annealing file: its names file lists "-" among the values, the data write "?"). The
  default ``"skip"`` is the rules above. At predict a code never seen in training still counts as missing.
* A branch that received no training weight is not created; test rows reaching it are classified by
  the parent's NB, the nearest model fitted on data that resembles them.
* Rule (iii) has two readings (``min_split_on``). ``"node"``: a node whose training weight is below 30 is
  not split, but a node of 30 or more may split into children of any size. ``"children"`` (default):
  additionally no test may create a non-empty child with less than 30 training weight (a child's weight
  includes the rows whose split value is missing, which go to the largest branch). The default follows
  the paper's own tree statistics (§4.2): mean depths 3.1 for LNBT(10) and 3.8 for BLNBT(10), "d < 3 in
  more than half of the 25 domains", and LNBT(3) = LNBT(10) in most domains of Table 3. The first reading
  grows trees about twice as deep on the same domains; the report shows both.
* "Fewer than 30 training examples" counts weights, not rows. Under boosting the paper renormalizes the
  weights to sum to N (§2), so the weighted count is the effective number of examples, and a weight of
  k then equals k copies of a row (a row count would break that equivalence). Weights that sum to 1
  instead of N would stop every split: meta-learners must keep the paper's scale.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from nbx.core.base import (
    N_VALUES,
    BaseEstimator,
    LogScoreMixin,
    as_codes,
    check_discrete_fit,
    check_discrete_X,
    check_mixed_fit,
    check_mixed_X,
    clone,
)
from nbx.core.counting import ValueIndex, present_classes, small_int
from nbx.core.sums import normalized_argmax, run_sums
from nbx.core.validation import ARRAY_LIKE, ESTIMATOR, NONE, Interval, Options, check_array
from nbx.discretize.mdl import MDLDiscretizer
from nbx.models.leveled_cuts import WEIGHT_TOL, ValueRanks, best_value_cuts, code_cuts, presorted
from nbx.models.leveled_loops import (
    compact_log_joint,
    dense_log_joint,
    level_counts,
    level_tables,
    multiway_gains,
    route_codes,
    route_rows,
    select_tests,
    split_rows,
)

MIN_SPLIT_ON = ("node", "children")
LEAF_DROP = ("tested", "fixed")
MISSING = ("skip", "value")
CUTS = ("codes", "values")


def _missing_as_value(codes: np.ndarray, n_values) -> tuple[np.ndarray, np.ndarray]:
    """``missing="value"``: every attribute gets one more value, its last code, which the missing codes take."""
    n_values = np.asarray(n_values, np.int64) + 1
    return np.where(codes < 0, n_values - 1, codes), n_values


def _column_mask(columns, d: int) -> np.ndarray:
    """``ordinal`` as a boolean mask over the d columns: None (no column), a mask, or column indices."""
    if columns is None:
        return np.zeros(d, bool)
    arr = np.asarray(columns)
    if arr.dtype == bool:
        if arr.shape != (d,):
            raise ValueError(f"ordinal has shape {arr.shape}, expected ({d},) as a boolean mask over the columns")
        return arr.copy()
    if arr.size and (arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() >= d):
        raise ValueError(f"ordinal must be a boolean mask or indices of the {d} columns, got {columns!r}")
    mask = np.zeros(d, bool)
    mask[arr.astype(np.intp)] = True
    return mask


class LeveledNBTree(LogScoreMixin, BaseEstimator):
    """LNBT(d): a naive Bayes tree grown to depth ``max_depth``, with local naive Bayes at its leaves.

    Top-down growing like C4.5 with Ting & Zheng's four differences (§3.2): at most ``max_depth`` levels, a
    local naive Bayes (m-estimate) at every leaf over the attributes not tested on its path, no split of a node
    with fewer than ``min_split`` training examples, no pruning; LNBT(0) is the plain naive Bayes. Input:
    integer codes, NaN or negative = missing. At predict a code >= ``n_values_`` (never seen in training) counts
    as missing: the row stops at a node splitting on that attribute. See the module docstring.

    Parameters
    ----------
    max_depth : int, default=3
        d >= 0; 0 = naive Bayes.
    min_split : float, default=30.0
        The paper's 30 training examples, §3.2 (iii).
    min_split_on : {"children", "node"}, default="children"
        ``"children"``: no split creates a non-empty child with less training weight than ``min_split``;
        ``"node"``: only nodes with less weight are not split (module docstring for the evidence).
    leaf_drop : {"tested", "fixed"}, default="tested"
        ``"tested"``: the local NBs leave out every attribute tested on the path; ``"fixed"``: only those whose
        value the path fixes.
    missing : {"skip", "value"}, default="skip"
        ``"skip"``: missing values follow the module docstring's rules; ``"value"``: a missing code is one more
        value of its attribute (``n_values_`` then counts it).
    m : float, default=2.0
        m-estimate of the local NBs (the paper's 2).
    ordinal : array-like of bool or int, default=None
        Columns whose codes are ordered (discretized numeric attributes), as a mask or indices; they get binary
        threshold tests. None = all tests multiway.
    cuts : {"codes", "values"}, default="codes"
        ``"codes"``: the input is integer codes and an ordinal column is cut at its codes; ``"values"``: the input is
        mixed (``n_values`` 0 marks a numeric column), an ordinal column is cut at its raw values as C4.5 cuts
        them, and the leaf NBs see ``discretizer``'s codes (module docstring).
    discretizer : Discretizer, default=None
        With ``cuts="values"``, the discretizer of the leaf NBs' codes (unfitted; fitted on the training rows);
        None = :class:`~nbx.discretize.MDLDiscretizer`. Ignored with ``cuts="codes"``.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``; with ``cuts="values"`` 0 marks a numeric column);
        the ``fit`` keyword wins; None = max code + 1 (all numeric with ``cuts="values"``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Number of values per column (of the leaf NBs' codes).
    ordinal_ : ndarray of bool
        The ordinal columns.
    discretizer_ : Discretizer
        With ``cuts="values"``: the fitted discretizer of the leaf NBs' codes.
    node_attribute_ : ndarray of int
        Split attribute per node, -1 for a leaf.
    node_threshold_ : ndarray
        t of a test ``code <= t`` (with ``cuts="values"``: the rank of the threshold among the attribute's distinct
        training values), -1 for a multiway test or a leaf.
    node_cut_ : ndarray of float
        With ``cuts="values"``: the threshold of a test ``x <= node_cut_``, NaN for a multiway test or a leaf.
    node_depth_, node_weight_ : ndarray
        Depth and training weight per node.
    depth_ : int
        Depth of the deepest leaf.
    n_leaves_ : int
        Number of leaves.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Ting, K. M. & Zheng, Z. (2003). *A Study of AdaBoost with Naive Bayesian Classifiers: Weakness and
    Improvement*. Computational Intelligence, §3.1-3.2.

    Quinlan, J. R. (1993). *C4.5: Programs for Machine Learning*. Morgan Kaufmann (Release 8) (the tree growing
    LNBT follows).

    Examples
    --------
    >>> from nbx.models.leveled_tree import LeveledNBTree
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = LeveledNBTree(max_depth=1, min_split=2).fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    >>> model.depth_, model.n_leaves_
    (1, 2)
    """

    _parameter_constraints = {
        "max_depth": [Interval(Integral, 0, None, "left")],
        "min_split": [Interval(Real, 0, None, "left")],
        "min_split_on": [Options(*MIN_SPLIT_ON)],
        "leaf_drop": [Options(*LEAF_DROP)],
        "missing": [Options(*MISSING)],
        "m": [Interval(Real, 0, None, "neither")],
        "ordinal": [ARRAY_LIKE, NONE],
        "cuts": [Options(*CUTS)],
        "discretizer": [ESTIMATOR, NONE],
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        max_depth: int = 3,
        min_split: float = 30.0,
        min_split_on: str = "children",
        leaf_drop: str = "tested",
        missing: str = "skip",
        m: float = 2.0,
        ordinal=None,
        cuts: str = "codes",
        discretizer=None,
        n_values=None,
    ):
        self.max_depth = max_depth
        self.min_split = min_split
        self.min_split_on = min_split_on
        self.leaf_drop = leaf_drop
        self.missing = missing
        self.m = m
        self.ordinal = ordinal
        self.cuts = cuts
        self.discretizer = discretizer
        self.n_values = n_values

    @property
    def input_kind(self) -> str:
        """``"discrete"`` (integer codes), or ``"mixed"`` with ``cuts="values"`` (numeric columns as floats)."""
        return "mixed" if self.cuts == "values" else "discrete"

    # ----------------------------------------------------------------------------------------- fit
    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes ``0 .. n_values[j]-1``; NaN or a negative code is a missing value. With
            ``cuts="values"``: numeric columns as floats, nominal columns as codes, NaN missing.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values (0 = numeric with ``cuts="values"``); wins over the
            constructor's ``n_values``.

        Returns
        -------
        self : LeveledNBTree
            The fitted estimator.
        """
        if self.cuts == "values":
            X, nv, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
            codes, flat, presort = self._value_inputs(X, nv, y_idx, w)
            self._setup()
            self._grow(codes, flat, y_idx, w, np.arange(codes.shape[0]), presort)
            return self
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        if self.missing == "value":
            codes, self.n_values_ = _missing_as_value(codes, self.n_values_)
        self._setup()
        self._grow(codes, self._index.narrow_rows(codes), y_idx, w, np.arange(codes.shape[0]))
        return self

    def _value_inputs(self, X, n_values, y=None, w=None) -> tuple:
        """``cuts="values"``: the codes the tests read and the leaf NBs' table rows of mixed ``X``. With ``y`` the
        discretizer and the distinct values are fitted on ``X`` first (weights ``w``), and the ordinal columns'
        ranks' presorted order comes third, for the cut search."""
        if self.missing != "skip":
            raise ValueError('cuts="values" takes missing="skip" (a missing value is no rank among the values)')
        if y is not None:
            disc = clone(self.discretizer) if self.discretizer is not None else MDLDiscretizer()
            nv = np.zeros(X.shape[1], np.int64) if n_values is None else np.asarray(n_values, np.int64)
            self.discretizer_ = disc.set_params(n_values=nv).fit(X, y, sample_weight=w)
            self.n_values_ = self.discretizer_.n_values_
            self._ranks = ValueRanks(X, np.flatnonzero(_column_mask(self.ordinal, X.shape[1])))
        codes = self.discretizer_.transform(X)
        tests, flat = self._ranks.test_codes(X, codes), ValueIndex(self.n_values_).narrow_rows(codes)
        if y is None:
            return tests, flat
        return tests, flat, presorted(tests[:, self._ranks.columns])

    def _boost_inputs(self, X, n_values, y=None):
        """AdaBoostM1's fast path: the codes and their flat table rows, computed once per boosting run and kept
        through all its rounds, both in the narrowest integer type that holds them (int8 codes up to 128 values,
        :meth:`ValueIndex.narrow_rows`): an eighth of int64 codes each. With ``cuts="values"`` (:meth:`_value_inputs`)
        the ensemble's training labels ``y`` fit the discretizer and the distinct values once for all rounds."""
        if self.cuts == "values":
            return self._value_inputs(np.asarray(X, float), n_values, y)
        codes = as_codes(X)
        if self.missing == "value":
            codes, n_values = _missing_as_value(codes, n_values)
        flat = ValueIndex(n_values).narrow_rows(codes)
        return codes.astype(small_int(int(np.max(n_values, initial=1)) - 1), copy=False), flat

    def _boost_fit(self, inputs, y, weights, n_values) -> np.ndarray:
        """Fit on the rows of positive weight of prepared ``inputs`` (exactly as ``fit`` on those rows would)
        and return the predicted class (index into ``y``'s labels) of every prepared row. The parameters
        were checked with the ensemble's."""
        codes, flat, *presort = inputs
        rows = np.flatnonzero(weights > 0)
        self.classes_, position = present_classes(y, rows)
        y_idx = position[y]  # every row's (the other rows' are unused)
        if self.cuts == "codes":
            self.n_values_ = np.asarray(n_values, np.int64) + (self.missing == "value")
        self.n_features_in_ = codes.shape[1]
        self._setup()
        node = self._grow(codes, flat, y_idx, weights, rows, *presort)  # where predict() would classify each row
        absent = np.flatnonzero(weights <= 0)
        node[absent] = self._route(codes[absent])
        return self._predicted(self._log_joint(node, flat))

    def _boost_predict(self, inputs) -> np.ndarray:
        """``predict`` for inputs prepared by ``_boost_inputs``."""
        codes, flat, *_ = inputs
        return self._predicted(self._log_joint(self._route(codes), flat))

    def _predicted(self, joint) -> np.ndarray:
        """``predict``'s classes from log joints: the argmax of ``log_normalize``'s probabilities, whose exp is
        numpy's; the shift, row sums, division and argmax run compiled in numpy's order."""
        return self.classes_[normalized_argmax(joint)]

    def fit_info(self) -> dict:
        """Tree size for the reports (§4.2 reports mean tree depths)."""
        return {"depth": self.depth_, "n_leaves": self.n_leaves_, "n_nodes": int(self.node_attribute_.shape[0])}

    def _setup(self):
        self.ordinal_ = _column_mask(self.ordinal, len(self.n_values_))
        self._index = ValueIndex(self.n_values_)
        # the codes a test reads run 0 .. _test_n_values - 1 (a leaf code, or a rank among the distinct values)
        self._test_n_values = self.n_values_.copy()
        if self.cuts == "values":
            self._test_n_values[self._ranks.columns] = self._ranks.n_ranks
        self._k = len(self.classes_)
        # position of each flat table row in a padded (attribute, value) grid, for all-attribute gains
        self._pad_pos = np.arange(self._index.n_rows) - self._index.offsets[self._index.attribute_of_row]

    def _grow(self, codes, flat, y, w, rows, presort=None) -> np.ndarray:
        """Breadth-first growth on the rows ``rows`` (ascending) of ``codes`` (the codes the tests read; ``flat``
        the leaf NBs' table rows), one tree level at a time: one weighted count over (node, table row, class)
        gives the counts of every node of the level (NB tables and gains). Rows stay in their original order
        inside a node, so every count is summed in the same order as a per-node count. ``presort``: with
        ``cuts="values"``, the ordinal columns' presorted order (:func:`leveled_cuts.presorted`); each level's cut
        search hands the next level the rows of the nodes it evaluated.

        Returns, per row of ``codes``, the node whose NB ``predict`` would use for a training row: its leaf, or
        the first node where its split value is missing (``apply``'s rule), so boosting needs no routing; -1
        for the rows not in ``rows``.
        """
        index, k, n_table = self._index, self._k, self._index.n_rows + 1
        vmax = max(int(index.n_values.max()), 2)  # branches per node: values, or the two sides of a cut
        attrs, thresholds, depths, weights, priors, tables, children = [], [], [], [], [], [], []
        local = np.zeros(rows.shape[0], np.int64)  # node of each row still in the tree, numbered within the level
        used = np.zeros((1, codes.shape[1]), bool)  # attributes tested on the path, per node of the level
        # the codes lo <= code <= hi the path's cuts leave each attribute, per node (leaf_drop="fixed")
        lo, hi = np.zeros_like(used, np.int64), (self._test_n_values - 1)[None, :].copy()
        stop = np.full(codes.shape[0], -1, np.int64)  # apply()'s node per row, once known
        depth = first = 0  # first: global id of the level's first node
        while True:
            n_nodes = used.shape[0]
            counts, class_counts = level_counts(flat, y, w, rows, local, n_nodes, n_table, k)
            observed = np.add.reduceat(counts[:, :-1], index.offsets, axis=1)  # per-attribute class totals
            weight = run_sums(class_counts.reshape(-1), k, k, n_nodes)
            # the local NB ignores the attributes on the path (§3.2 (ii)): all tested ones, or the fixed ones
            drop = used if self.leaf_drop == "tested" else used & (~self.ordinal_ | self._fixed(lo, hi))
            log_prior, log_table = level_tables(counts, class_counts, observed, weight, index, self.m, drop)
            priors.append(log_prior)
            tables.append(log_table)
            depths.append(np.full(n_nodes, depth))
            weights.append(weight)
            attr = np.full(n_nodes, -1, np.int64)
            thr = np.full(n_nodes, -1, np.int64)
            if depth < self.max_depth:
                # a split under the children rule needs two children of min_split each
                need = self.min_split if self.min_split_on == "node" else 2 * (self.min_split - WEIGHT_TOL)
                split = np.flatnonzero(weight >= need)
                if split.size:
                    level = (rows, local, y, w, presort)
                    attr[split], thr[split], presort = self._best_tests(
                        counts, class_counts, observed, weight, split, used, level
                    )
            attrs.append(attr)
            thresholds.append(thr)
            branch, branch_w = split_rows(codes, w, rows, local, attr, thr, stop, first, n_nodes, vmax)
            if (attr < 0).all():
                break
            # a branch that received no weight is not created; child ids follow (node, branch) order
            child = np.full((n_nodes, vmax), -1, np.int64)
            exists = branch_w > 0
            child[exists] = np.arange(exists.sum())
            internal = attr >= 0
            first += n_nodes
            global_ids = np.where(child >= 0, child + first, -1)[internal]
            children.append(global_ids[np.arange(vmax) < self._n_branches(attr, thr)[internal, None]])
            parent, side = np.nonzero(exists)
            used, lo, hi = used[parent], lo[parent], hi[parent]
            kids, cut_attr, cut = np.arange(parent.shape[0]), attr[parent], thr[parent]
            used[kids, cut_attr] = True
            is_cut = cut >= 0  # code <= t narrows hi (side 0), code > t raises lo (side 1)
            hi[kids[is_cut & (side == 0)], cut_attr[is_cut & (side == 0)]] = cut[is_cut & (side == 0)]
            lo[kids[is_cut & (side == 1)], cut_attr[is_cut & (side == 1)]] = cut[is_cut & (side == 1)] + 1
            rows, local = route_rows(rows, local, branch, branch_w, child)
            depth += 1
        self.node_attribute_ = np.concatenate(attrs)
        self.node_threshold_ = np.concatenate(thresholds)
        self.node_depth_ = np.concatenate(depths)
        self.node_weight_ = np.concatenate(weights)
        if self.cuts == "values":
            self.node_cut_ = np.full(self.node_threshold_.shape, np.nan)
            for i, j in enumerate(self._ranks.columns.tolist()):
                at = np.flatnonzero((self.node_attribute_ == j) & (self.node_threshold_ >= 0))
                self.node_cut_[at] = self._ranks.values[i][self.node_threshold_[at]]
        self._log_priors = np.concatenate(priors)
        # the levels' tables stay apart (joined, every tree's tables would be copied once more)
        self._log_tables = tuple(tables)
        self._level_first = np.cumsum([0] + [p.shape[0] for p in priors[:-1]])
        # flat child lookup: child of internal node t for branch b is _children[_child_offset[t] + b]
        internal = self.node_attribute_ >= 0
        sizes = self._n_branches(self.node_attribute_, self.node_threshold_)[internal]
        self._child_offset = np.full(internal.shape[0], -1, np.int64)
        self._child_offset[internal] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self._children = np.concatenate(children) if children else np.zeros(0, np.int64)
        leaves = ~internal
        self.depth_ = int(self.node_depth_[leaves].max())
        self.n_leaves_ = int(leaves.sum())
        return stop

    def _fixed(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Per (node, column): whether the path's cuts ``lo <= code <= hi`` leave the leaf NB's code one value; with
        ``cuts="values"`` the bounds are ranks, whose leaf codes the discretizer gives."""
        fixed = lo >= hi
        if self.cuts == "values":
            for i, j in enumerate(self._ranks.columns.tolist()):
                values = self._ranks.values[i]
                if values.size:
                    column = np.full((values.size, len(self.n_values_)), np.nan)
                    column[:, j] = values
                    code = self.discretizer_.transform(column)[:, j]
                    fixed[:, j] = code[lo[:, j]] >= code[hi[:, j]]
        return fixed

    def _n_branches(self, attr: np.ndarray, thr: np.ndarray) -> np.ndarray:
        """Branches of each internal node: 2 for a threshold test, the attribute's values for a multiway one."""
        return np.where(thr >= 0, 2, self.n_values_[np.maximum(attr, 0)])

    def _best_tests(
        self, counts, class_counts, observed, weight, nodes, used, level=None
    ) -> tuple[np.ndarray, np.ndarray, tuple | None]:
        """C4.5 test selection for the level's nodes ``nodes``: per node the chosen attribute (-1 when no test is
        worth making) and its threshold (-1 for a multiway test). Candidates are the multiway tests of the
        nominal attributes not yet on the path and the best threshold test of every ordinal attribute. The
        gains are ``criteria.info_gain``'s arithmetic, written out so that the branch sizes are summed once.
        ``level``: the level's (rows, their nodes, y, w, presort), which only the cuts on raw values read; they
        return the presorted rows of ``nodes`` as the third item (the next level's presort), else it is
        ``level``'s."""
        presort = None if level is None else level[4]
        index = self._index
        n_nodes, d, vmax = nodes.shape[0], len(index.n_values), int(index.n_values.max())
        gain, split = np.zeros((n_nodes, d)), np.zeros((n_nodes, d))
        admissible = np.zeros((n_nodes, d), bool)
        threshold = np.full((n_nodes, d), -1, np.int64)
        nominal, o = np.flatnonzero(~self.ordinal_), np.flatnonzero(self.ordinal_)
        if nominal.size:
            children = self.min_split_on == "children"
            out = (gain, split, admissible)
            multiway_gains(
                counts,
                class_counts,
                observed,
                weight,
                nodes,
                nominal,
                used[nodes],
                index,
                self.min_split,
                children,
                out,
            )
        if o.size and self.cuts == "values":
            rows, local, y, w, presort = level
            node_of = np.full(y.shape[0], -1, np.int64)
            node_of[rows] = local
            children = self.min_split_on == "children"
            gain[:, o], split[:, o], admissible[:, o], threshold[:, o], presort = best_value_cuts(
                self._ranks, presort, node_of, y, w, nodes, weight, self._k, self.min_split, children
            )
        elif o.size and vmax >= 2:  # (a single value everywhere admits no cut)
            grid = np.zeros((n_nodes, d, vmax + 1, self._k))  # (node, attribute, value | unknown, class)
            grid[:, index.attribute_of_row, self._pad_pos] = counts[nodes, :-1]
            grid[:, :, vmax] = np.maximum(class_counts[nodes, None] - observed[nodes], 0.0)
            children = self.min_split_on == "children"
            gain[:, o], split[:, o], admissible[:, o], threshold[:, o] = code_cuts(
                grid[:, o], weight[nodes], float(self.min_split), children
            )
        return (*select_tests(gain, split, admissible, threshold), presort)

    # ------------------------------------------------------------------------------------ predict
    def apply(self, X) -> np.ndarray:
        """Node whose NB classifies each row: a leaf, or an internal node when the row's split value is
        missing or its branch got no training data."""
        return self._route(self._inputs(X)[0])

    def _route(self, codes) -> np.ndarray:
        """The node whose NB classifies each row of ``codes`` (the codes the tests read; ``apply``). A rank above
        every training value is no missing value: it passes every cut to the right."""
        bound = self._test_n_values + (self.cuts == "values") * self.ordinal_
        return route_codes(codes, self.node_attribute_, self.node_threshold_, bound, self._children, self._child_offset)

    def _class_scores(self, X) -> np.ndarray:
        """Unnormalized log joint of the routed-to local NB, shape (n, K)."""
        tests, flat = self._inputs(X)
        return self._log_joint(self._route(tests), flat)

    def _inputs(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Checked ``X`` as (the codes the tests read, the leaf NBs' table rows)."""
        if self.cuts == "values":
            return self._value_inputs(check_mixed_X(self, X), None)
        codes = self._check_X(X)
        return codes, self._index.narrow_rows(codes)

    def _log_joint(self, node, flat) -> np.ndarray:
        """log P(c) + Σ_j log P(x_j | c) under each row's node NB, for table rows ``flat`` (n, d), one tree level's
        nodes at a time."""
        level = np.searchsorted(self._level_first, node, side="right") - 1
        out = np.empty((node.shape[0], len(self.classes_)))
        for lv, (first, table) in enumerate(zip(self._level_first.tolist(), self._log_tables)):
            rows = np.flatnonzero(level == lv)
            if isinstance(table, tuple):
                compact_log_joint(self._log_priors, *table, first, node, flat, rows, out)
            else:
                dense_log_joint(self._log_priors, table, first, node, flat, rows, out)
        return out

    def _check_X(self, X) -> np.ndarray:
        if self.missing == "skip":
            return check_discrete_X(self, X)
        # missing -> the extra last value; a code never seen in training (>= the last) stays missing
        codes, last = as_codes(check_array(self, X, fit=False), self), self.n_values_ - 1
        return np.where(codes < 0, last, np.where(codes >= last, -1, codes))

    def node_children(self, node: int) -> dict[int, int]:
        """Read-only view of the fitted tree for inspection (``nbx show``): branch -> child node of an
        internal ``node`` (the value code of a multiway test; 0 for ``code <= t`` and 1 for ``code > t`` of a
        threshold test; branches that got no training data are absent); {} for a leaf."""
        if self.node_attribute_[node] < 0:
            return {}
        start = self._child_offset[node]
        ids = self._children[
            start : start
            + self._n_branches(self.node_attribute_[node : node + 1], self.node_threshold_[node : node + 1])[0]
        ]
        return {int(v): int(c) for v, c in enumerate(ids) if c >= 0}
