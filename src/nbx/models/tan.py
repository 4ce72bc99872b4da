"""Tree-augmented naive Bayes (TAN), Friedman, Geiger & Goldszmidt (1997) §4.

Structure (Friedman et al. 1997, §4.1, construct-TAN):

1. ``I(X_i; X_j | C)`` for every attribute pair, from weighted empirical counts
   (:func:`conditional_mutual_information`).
2. A maximum weighted spanning tree over the attributes with these weights (:func:`max_spanning_tree`, Prim's
   algorithm on the dense d x d matrix; ties go to the lowest attribute index).
3. Edges directed away from a root attribute; the class is a parent of every attribute.

Edge weights (``criterion``, not ``score``: named like scikit-learn trees' criterion because ``score`` is every
classifier's accuracy method): ``"cmi"`` (default) is Friedman et al.'s I(X_i; X_j | C) above. ``"bayes"`` is the
structure score of Weka's BayesNet TAN search (weka.classifiers.bayes.net.search.local.TAN with
LocalScoreSearchAlgorithm, score type BAYES, α = 0.5), which Kang & Tian (2006) ran ("all of them are implemented
in Weka"). Its local score of X_i with parent set Π is the log marginal likelihood of X_i's counts under a
Dirichlet(α, ..., α) prior per parent configuration u,

    score(X_i | Π) = Σ_u [ Σ_v (lnΓ(α + n_uv) − lnΓ(α)) − (lnΓ(V_i α + n_u) − lnΓ(V_i α)) ],

and the gain of the arc X_j → X_i is Δ(i ← j) = score(X_i | C, X_j) − score(X_i | C)
(:func:`bayesian_edge_gains`). The score is not symmetric (Δ(i ← j) ≠ Δ(j ← i)), so the tree is grown as a
directed tree (:func:`greedy_directed_tree`): as in Weka's TAN, start from the pair with the largest gain,
then repeatedly join the attribute with the largest gain from an attribute already in the tree; the new
arc always points away from the tree, and — our reading where Weka scores both orientations of a link but
inserts it pointing outward — its weight is the gain of that orientation, so the tree's total score is
what is maximized. This matters for ID-like attributes (a distinct value per row): as a child such an
attribute gains (its rows split into smaller CP-table rows), as a parent it loses (one row per value), so
it joins as a leaf and never becomes the parent of the other attributes — which CMI, whose weight grows
with the number of values, makes it (e.g. zoo's animal name: every test row has an unseen name, the tree
falls back to the marginal tables and the accuracy halves). With missing values both scores of Δ use the
rows where X_i and X_j are observed. ``root`` applies to CMI only; the Bayesian tree's root is the parent
of its first arc.

``tree="weka"`` grows the tree by Weka 3.6's own rule instead (:func:`weka_tan_tree`, read from Weka's
bytecode): the best arc in either direction with one end already in the tree, the links directed afterwards
(the first link's parent gets the arc's child as its parent, ...), so an arc mostly points against the
orientation it was scored in. With the Bayesian score and α = 0.5 in the score and the tables it is the TAN
that Kang & Tian (2006) ran ("all of them are implemented in Weka"): benchmarks/weka_agreement.py finds Weka's
probabilities to 1e-15.

Friedman et al. say the root may be chosen arbitrarily (every orientation has the same likelihood). We use
attribute 0 by default (``root="first"``); ``root="max_class_mi"`` picks the attribute with the largest
I(X_i; C), and an int picks that attribute.

Parameters (Lee, Greiner & Wang 2006 §3.2): every CP-table row is a Dirichlet posterior from a uniform prior
Dir(α, ..., α), α = 1 by default, and the model uses its posterior mean

    θ_{v | u, c} = (#(X_j = v, X_p = u, C = c) + α) / (#(X_p = u, C = c, X_j observed) + V_j α),
    θ_c          = (#(C = c) + α) / (N + K α).

``V_j α + #(parent row)`` is that row's "effective sample size" (Lee et al. eq. 6), kept in ``cond_ess_``
for the response variance (:mod:`nbx.models.variance`). Friedman et al.'s own smoothing (N0 = 5) is not used.

Missing values (not covered by either paper; our choices):

* CMI: pairwise-complete counts — each pair's joint table uses the rows where both attributes are observed,
  and I(X_i; X_j | C) is the mutual information of that table's empirical distribution.
* CP tables: counted over the rows where the child and its attribute parent are observed.
* Prediction: a missing child contributes no factor (it is marginalised out exactly); an observed child whose
  attribute parent is missing uses the marginal row P(x_j | c), estimated like naive Bayes (all rows with
  x_j observed, same α). (Exact marginalisation over the missing parent would need sums over the tree.)

Structure ``structure="naive"`` forces every attribute to have only the class as parent; the model then
equals ``NaiveBayes(prior="laplace", alpha=alpha)``.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from nbx.core.base import (
    CLASS_LABELS,
    N_VALUES,
    BaseEstimator,
    LogScoreMixin,
    check_discrete_fit,
    check_discrete_X,
)
from nbx.core.counting import ValueIndex, row_blocks
from nbx.core.validation import Interval, Options
from nbx.models.naive_bayes import nb_log_tables

STRUCTURES = ("tree", "naive")
CRITERIA = ("cmi", "bayes")
TREES = ("outward", "weka")


PAIR_BLOCK = 1 << 22  # max (row, attribute, attribute) entries of one bincount in pair_class_counts
# entries from which the compiled loop pays: 17 such calls save numba's import. Not below that even where numba is
# loaded: after the compiled loop on small counts HBayes-TAN's numpy work on chess ran 1.5x slower (cause not found)
COMPILED_FROM = 1 << 22


def pair_class_counts(codes: np.ndarray, y: np.ndarray, w: np.ndarray, index: ValueIndex, n_classes: int) -> np.ndarray:
    """Weighted counts M[c, r, s] of (class c, value-row r, value-row s) over all attribute pairs, (K, R, R).

    Each row adds its weight to the d² cells (its class, its value of attribute i, its value of attribute
    j), one bincount per block of rows: n·d² work instead of the n·K·R² of a one-hot matrix product (letter:
    0.03 s instead of 0.45 s). Rows with a missing value in either attribute add nothing to that pair
    (pairwise-complete counts: the missing row R is dropped). From :data:`COMPILED_FROM` entries (n·d²) the
    same additions run as one compiled loop (:func:`nbx.models.tan_loops.pair_cell_sums`, 3-6x faster: no
    (block, d, d) index and weight arrays), which gives the same numbers to the bit.
    """
    R = index.n_rows
    rows = index.rows(codes)  # (n, d), missing -> R
    n, d = rows.shape
    unit = bool(np.all(w == 1.0))  # integer counts: same sums, faster
    step = max(1, PAIR_BLOCK // max(d * d, 1))
    if n * d * d >= COMPILED_FROM:
        from nbx.models.tan_loops import pair_cell_sums  # numba loaded only where it pays

        out = pair_cell_sums(
            np.ascontiguousarray(rows, np.int64),
            np.asarray(y, np.int64),
            np.asarray(w, float),
            unit,
            R + 1,
            n_classes,
            step,
        )
    else:
        out = np.zeros(n_classes * (R + 1) ** 2)
        for start in range(0, n, step):
            r = rows[start : start + step]
            first = (y[start : start + step, None] * (R + 1) + r) * (R + 1)  # (b, d)
            cells = (first[:, :, None] + r[:, None, :]).ravel()
            weights = None if unit else np.repeat(w[start : start + step], d * d)
            out += np.bincount(cells, weights=weights, minlength=out.size)
    return np.ascontiguousarray(out.reshape(n_classes, R + 1, R + 1)[:, :R, :R])


def exact_subsets(w: np.ndarray, d: int) -> bool:
    """Whether :func:`pair_class_counts` of any column subset equals :meth:`PairCounts.subset` of the counts of all
    d columns to the bit: with unit weights the counts are integers; otherwise when every subset's rows are
    summed in one block as the d columns' are (each cell then adds its rows' weights in row order)."""
    return bool(np.all(w == 1.0)) or len(w) <= max(1, PAIR_BLOCK // max(d * d, 1))


class PairCounts:
    """:func:`pair_class_counts` of one training set's attributes, with the lnΓ cells of the Bayesian score per α
    (:func:`bayesian_edge_gains`), computed once; :meth:`subset` cuts both for a subset of the attributes (Kang &
    Tian's HBayes-TAN fits TAN on many subsets of one training set). A cut equals what pair_class_counts computes
    on those columns alone where :func:`exact_subsets` holds; the lnΓ cells are elementwise, so cut or computed
    on the cut counts they are the same numbers."""

    def __init__(self, counts: np.ndarray, parent: PairCounts | None = None, rows: np.ndarray | None = None):
        self.counts = counts
        self._parent, self._rows, self._cells = parent, rows, {}

    def subset(self, index: ValueIndex, columns) -> PairCounts:
        """The counts of the attributes ``columns`` (in that order) of ``index``, the index of these counts."""
        rows = [np.arange(index.offsets[a], index.offsets[a] + index.n_values[a]) for a in columns]
        rows = np.concatenate(rows + [np.zeros(0, np.intp)]).astype(np.intp)
        return PairCounts(_cut(self.counts, rows), self, rows)

    def cells(self, alpha: float) -> np.ndarray:
        """lnΓ(α + m) − lnΓ(α) per count m."""
        if alpha not in self._cells:
            if self._parent is None:
                from scipy.special import gammaln  # imported where the "bayes" score needs it (0.2-0.3 s a process)

                self._cells[alpha] = gammaln(alpha + self.counts) - gammaln(alpha)
            else:
                self._cells[alpha] = _cut(self._parent.cells(alpha), self._rows)
        return self._cells[alpha]


def _cut(m: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(m[:, rows[:, None], rows[None, :]])


def conditional_mutual_information(
    codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_values, n_classes: int, counts=None
) -> np.ndarray:
    """I(X_i; X_j | C) in nats for every attribute pair, (d, d) with a zero diagonal.

    Friedman et al. (1997) §4.1: sum over (x_i, x_j, c) of P(x_i, x_j, c) log P(x_i, x_j | c) /
    (P(x_i | c) P(x_j | c)), P the empirical distribution of the rows where both attributes are observed.
    ``counts``: :class:`PairCounts` of these rows, when the caller has them.
    """
    index = ValueIndex(n_values)
    d = len(index.n_values)
    if d == 0 or index.n_rows == 0:
        return np.zeros((d, d))
    m = pair_class_counts(codes, y, w, index, n_classes) if counts is None else counts.counts
    attr, offsets = index.attribute_of_row, index.offsets
    n_ac = np.add.reduceat(m, offsets, axis=2)  # (K, R, d): #(c, x_i = r, x_j observed)
    n_bc = np.add.reduceat(m, offsets, axis=1)  # (K, d, R): #(c, x_i observed, x_j = s)
    n_c = np.add.reduceat(n_ac, offsets, axis=1)  # (K, d, d): #(c, both observed)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (m * n_c[:, attr[:, None], attr[None, :]]) / (n_ac[:, :, attr] * n_bc[:, attr, :])
        terms = np.where(m > 0, m * np.log(ratio), 0.0).sum(axis=0)
    totals = n_c.sum(axis=0)
    cmi = np.add.reduceat(np.add.reduceat(terms, offsets, axis=0), offsets, axis=1)
    cmi = np.where(totals > 0, cmi / np.where(totals > 0, totals, 1.0), 0.0)
    np.fill_diagonal(cmi, 0.0)
    return np.maximum(cmi, 0.0)  # clip round-off below zero


def bayesian_edge_gains(
    codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_values, n_classes: int, alpha: float = 0.5, counts=None
) -> np.ndarray:
    """Δ[i, j] = score(X_i | C, X_j) − score(X_i | C), (d, d) with a zero diagonal: Weka's BAYES local score
    gain of giving X_i the parent X_j (see the module docstring), both scores over the rows where X_i and
    X_j are observed. Weighted counts enter lnΓ as they are. ``counts``: :class:`PairCounts` of these rows,
    when the caller has them."""
    from scipy.special import gammaln  # imported where the "bayes" score needs it (0.2-0.3 s a process)

    index = ValueIndex(n_values)
    d = len(index.n_values)
    if d == 0 or index.n_rows == 0:
        return np.zeros((d, d))
    if counts is None:
        counts = PairCounts(pair_class_counts(codes, y, w, index, n_classes))
    m = counts.counts  # (K, R, R): [c, value of i, value of j]
    offsets = index.offsets
    prior = index.n_values * alpha  # V_i α per attribute

    cell = counts.cells(alpha)
    # with parent X_j: one CP-table row per (c, x_j); sum the cells over x_i's values, then rows over x_j's
    cells_ij = np.add.reduceat(np.add.reduceat(cell, offsets, axis=1), offsets, axis=2).sum(axis=0)
    n_u = np.add.reduceat(m, offsets, axis=1)  # (K, d, R): #(c, x_i observed, x_j = s)
    row_part = gammaln(prior[None, :, None] + n_u) - gammaln(prior[None, :, None])
    with_parent = cells_ij - np.add.reduceat(row_part, offsets, axis=2).sum(axis=0)
    # class only, on the same rows: counts #(c, x_i = a, x_j observed)
    n_ac = np.add.reduceat(m, offsets, axis=2)  # (K, R, d)
    cells_i = np.add.reduceat(gammaln(alpha + n_ac) - gammaln(alpha), offsets, axis=1).sum(axis=0)
    n_c = np.add.reduceat(n_ac, offsets, axis=1)  # (K, d, d)
    class_only = cells_i - (gammaln(prior[None, :, None] + n_c) - gammaln(prior[None, :, None])).sum(axis=0)
    gains = with_parent - class_only
    np.fill_diagonal(gains, 0.0)
    return gains


def greedy_directed_tree(gains: np.ndarray) -> np.ndarray:
    """Parents of a directed spanning tree grown greedily on arc gains ``gains[i, j]`` (X_j → X_i): the
    best arc first, then the best arc from a tree node to a new node; -1 for the root. Ties: lowest index."""
    d = gains.shape[0]
    parents = np.full(d, -1, dtype=np.int64)
    if d < 2:
        return parents
    masked = np.where(np.eye(d, dtype=bool), -np.inf, gains)
    child, parent = np.unravel_index(int(np.argmax(masked)), masked.shape)
    parents[child] = parent
    in_tree = np.zeros(d, dtype=bool)
    in_tree[[child, parent]] = True
    best = np.maximum(masked[:, child], masked[:, parent])
    best_from = np.where(masked[:, parent] >= masked[:, child], parent, child)
    for _ in range(d - 2):
        j = int(np.argmax(np.where(in_tree, -np.inf, best)))
        in_tree[j] = True
        parents[j] = best_from[j]
        better = ~in_tree & (masked[:, j] > best)
        best[better] = masked[better, j]
        best_from[better] = j
    return parents


def weka_tan_tree(gains: np.ndarray) -> np.ndarray:
    """Attribute parents (-1 = the class alone) of Weka 3.6.14's TAN search (``search.local.TAN.buildStructure``,
    read from its bytecode, ``javap -c``; Kang & Tian (2006) ran Weka's TAN) on arc gains ``gains[i, j]`` =
    score(X_i | C, X_j) - score(X_i | C) (:func:`bayesian_edge_gains`):

    1. the first link is the best arc over all ordered pairs (i, j), i-major, the first maximum kept;
    2. each further link is the best arc (i, j), i-major, with exactly one of i and j already linked: either
       orientation, the tree node as the child or as the parent;
    3. the links are then directed in the order found: the arc's parent j (Weka's ``link1``) gets the arc's child i
       as its parent if it has none yet, else i gets j ("Bug condition found: too many arrows" otherwise).

    So the undirected tree maximizes greedily max(Δ(i ← j), Δ(j ← i)) over the links that grow it, and an arc is
    mostly inserted against the orientation it was scored in; :func:`greedy_directed_tree` scores only the new
    attribute as the child and keeps that orientation (the module docstring's reading). O(d³)."""
    d = gains.shape[0]
    parents = np.full(d, -1, dtype=np.int64)
    if d < 2:
        return parents
    g = np.where(np.eye(d, dtype=bool), -np.inf, np.asarray(gains, float))
    links, linked = [], np.zeros(d, bool)
    for step in range(d - 1):
        # candidates: every ordered pair at the first step, then the pairs with exactly one end linked; the
        # first maximum in i-major order is Weka's strict ">" scan (a candidate is always taken)
        allowed = ~np.eye(d, dtype=bool) if step == 0 else linked[:, None] != linked[None, :]
        i, j = np.unravel_index(int(np.argmax(np.where(allowed, g, -np.inf))), g.shape)
        if not allowed[i, j]:  # every allowed gain is -inf (cannot happen with finite gains)
            i, j = np.argwhere(allowed)[0]
        links.append((int(j), int(i)))
        linked[[i, j]] = True
    has_parent = np.zeros(d, bool)
    for j, i in links:
        if not has_parent[j]:
            parents[j], has_parent[j] = i, True
        else:
            if has_parent[i]:
                raise AssertionError("Weka: Bug condition found: too many arrows")
            parents[i], has_parent[i] = j, True
    return parents


def max_spanning_tree(weights: np.ndarray, root: int = 0) -> np.ndarray:
    """Parent of each node in a maximum weighted spanning tree rooted at ``root`` (Prim); -1 for the root."""
    d = weights.shape[0]
    parents = np.full(d, -1, dtype=np.int64)
    if d == 0:
        return parents
    in_tree = np.zeros(d, dtype=bool)
    in_tree[root] = True
    best = weights[root].astype(float).copy()
    best_from = np.full(d, root, dtype=np.int64)
    for _ in range(d - 1):  # one node joins the tree per step
        j = int(np.argmax(np.where(in_tree, -np.inf, best)))
        in_tree[j] = True
        parents[j] = best_from[j]
        better = ~in_tree & (weights[j] > best)
        best[better] = weights[j][better]
        best_from[better] = j
    return parents


def class_mutual_information(
    codes: np.ndarray, y: np.ndarray, w: np.ndarray, index: ValueIndex, n_classes: int
) -> np.ndarray:
    """I(X_j; C) in nats per attribute, over the rows where X_j is observed."""
    counts = index.counts(codes, y, w, n_classes)[:-1]
    totals = index.per_attribute_totals(counts)  # (d, K)
    value_totals = counts.sum(axis=1, keepdims=True)  # (R, 1)
    n_j = totals.sum(axis=1)  # (d,)
    attr = index.attribute_of_row
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = counts * n_j[attr, None] / (value_totals * totals[attr])
        terms = np.where(counts > 0, counts * np.log(ratio), 0.0).sum(axis=1)
    mi = np.add.reduceat(terms, index.offsets) if index.n_rows else np.zeros(0)
    return np.where(n_j > 0, mi / np.where(n_j > 0, n_j, 1.0), 0.0)


class TAN(LogScoreMixin, BaseEstimator):
    """Tree-augmented naive Bayes with Dirichlet(α) posterior-mean conditional probability tables.

    Every attribute has the class and at most one other attribute as parents; the attribute tree is the
    maximum weighted spanning tree of the pairwise edge weights (Friedman et al. 1997, §4.1, construct-TAN).
    Input: integer codes, NaN or negative = missing. At predict a code >= ``n_values_`` (never seen in training)
    counts as missing.

    Parameters
    ----------
    alpha : float, default=1.0
        Dirichlet prior per cell of the CP tables, > 0 (1 = Lee et al. §3.2).
    root : "first", "max_class_mi" or int, default="first"
        The root attribute of the tree, or the rule choosing it.
    structure : {"tree", "naive"}, default="tree"
        ``"naive"`` adds no attribute edges (naive Bayes with the same estimates).
    criterion : {"cmi", "bayes"}, default="cmi"
        Edge weights: conditional mutual information I(X_i; X_j | C) (Friedman et al.) or Weka's BAYES score.
    criterion_alpha : float, default=0.5
        The Dirichlet α of the ``"bayes"`` score (Weka's 0.5; the CP tables use ``alpha``).
    tree : {"outward", "weka"}, default="outward"
        How the tree is grown from the edge weights. ``"outward"``: each new attribute joins as the child of a
        tree attribute — Prim's maximum spanning tree from ``root`` for ``"cmi"``, :func:`greedy_directed_tree`
        for ``"bayes"``. ``"weka"``: Weka 3.6's BayesNet TAN search (weka.classifiers.bayes.net.search.local.TAN,
        :func:`weka_tan_tree`), which Kang & Tian (2006) ran ("all of them are implemented in Weka"): the best arc
        in either direction with one end already in the tree, the links directed afterwards; ``root`` is then
        unused. With ``criterion="bayes"``, ``criterion_alpha=0.5`` and ``alpha=0.5`` (Weka's ``SimpleEstimator
        -A 0.5``) this is Weka 3.6's ``BayesNet -Q ...search.local.TAN -- -S BAYES`` with its default estimator
        (benchmarks/weka_agreement.py compares them).
    classes : array-like, default=None
        The class labels to keep counters for (None = the labels in y); as in
        :class:`~nbx.models.naive_bayes.NaiveBayes`: a class without training rows keeps only its Dirichlet
        prior and adds no weight to the edge scores.
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Number of values per column.
    parents_ : ndarray of int
        Attribute parent of each attribute, -1 = only the class.
    root_ : int
        The root attribute.
    edge_weights_ : ndarray of shape (n_features, n_features)
        Tree weights: I(X_i; X_j | C) for "cmi", the arc gains Δ(i ← j) for "bayes"; zeros for "naive".
    class_count_, class_log_prior_, class_ess_ : ndarray of shape (n_classes,)
        Weighted class counts, log P(c) and N + Kα.
    cond_index_, cond_count_, cond_log_table_, cond_ess_
        The conditional tables over combined codes ``u * V_j + v`` (u = parent value, 0 for a root): their
        value index, counts, log tables (last row zero = no evidence) and each row's effective sample size.
    marg_index_, marg_count_, marg_log_table_, marg_ess_
        The naive-Bayes marginal tables used when the attribute parent is missing.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Friedman, N., Geiger, D. & Goldszmidt, M. (1997). *Bayesian Network Classifiers*. Machine Learning 29, §4.1
    (construct-TAN).

    Lee, C.-H., Greiner, R. & Wang, S. (2006). *Using Query-Specific Variance Estimates to Combine Bayesian
    Classifiers*. ICML 2006, 529-536, §3.2 (TAN base classifiers, Dirichlet α = 1).

    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006
    (HBayes-TAN's P(S2 | C); its TAN baseline ran in Weka: ``tree="weka"``).

    Hall, M. et al. (2009). *The WEKA Data Mining Software: An Update*. SIGKDD Explorations 11(1) (Weka 3.6;
    its BayesNet classifier with the TAN search, ``tree="weka"``).

    Examples
    --------
    >>> from nbx.models.tan import TAN
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = TAN().fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    >>> print(model.parents_)  # attribute 1 has attribute 0 as its parent
    [-1  0]
    """

    input_kind = "discrete"
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, "neither")],
        "root": [Options("first", "max_class_mi"), Interval(Integral, 0, None, "left")],
        "structure": [Options(*STRUCTURES)],
        "criterion": [Options(*CRITERIA)],
        "criterion_alpha": [Interval(Real, 0, None, "neither")],
        "tree": [Options(*TREES)],
        "classes": CLASS_LABELS,
        "n_values": N_VALUES,
    }

    def __init__(
        self,
        alpha: float = 1.0,
        root="first",
        structure: str = "tree",
        criterion: str = "cmi",
        criterion_alpha: float = 0.5,
        tree: str = "outward",
        classes=None,
        n_values=None,
    ):
        self.alpha = alpha
        self.root = root
        self.structure = structure
        self.criterion = criterion
        self.criterion_alpha = criterion_alpha
        self.tree = tree
        self.classes = classes
        self.n_values = n_values

    # ----------------------------------------------------------------------------------------- fitting
    def _check_params(self, d: int) -> None:
        if not isinstance(self.root, str) and self.root >= d:
            raise ValueError(f"root must be in [0, {d}), got {self.root}")

    def _choose_root(self, codes, y, w, n_classes) -> int:
        if self.root == "first":
            return 0
        if self.root == "max_class_mi":
            mi = class_mutual_information(codes, y, w, ValueIndex(self.n_values_), n_classes)
            return int(np.argmax(mi))
        return int(self.root)

    def fit(self, X, y, sample_weight=None, n_values=None, pair_counts=None):
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
        pair_counts : optional
            Precomputed pairwise class counts of all attributes (HBayes-TAN reuses them over its search); None =
            counted from ``X``.

        Returns
        -------
        self : TAN
            The fitted estimator.
        """
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values, self.classes)
        d = codes.shape[1]
        self._check_params(d)
        k = len(self.classes_)
        if self.structure == "tree" and d > 1 and self.criterion == "bayes":
            self.edge_weights_ = bayesian_edge_gains(
                codes, y_idx, w, self.n_values_, k, float(self.criterion_alpha), pair_counts
            )
            rule = weka_tan_tree if self.tree == "weka" else greedy_directed_tree
            self.parents_ = rule(self.edge_weights_)
            self.root_ = int(np.flatnonzero(self.parents_ < 0)[0])
        elif self.structure == "tree" and d > 1:
            self.edge_weights_ = conditional_mutual_information(codes, y_idx, w, self.n_values_, k, pair_counts)
            if self.tree == "weka":
                self.parents_ = weka_tan_tree(self.edge_weights_)
                self.root_ = int(np.flatnonzero(self.parents_ < 0)[0])
            else:
                self.root_ = self._choose_root(codes, y_idx, w, k)
                self.parents_ = max_spanning_tree(self.edge_weights_, self.root_)
        else:
            self.edge_weights_ = np.zeros((d, d))
            self.root_ = 0 if d else -1
            self.parents_ = np.full(d, -1, dtype=np.int64)
        self._fit_tables(codes, y_idx, w, k)
        return self

    def _fit_tables(self, codes, y, w, k) -> None:
        alpha = float(self.alpha)
        self.class_count_ = np.bincount(y, weights=w, minlength=k).astype(float)
        self.class_ess_ = self.class_count_.sum() + k * alpha
        self.class_log_prior_ = np.log(self.class_count_ + alpha) - np.log(self.class_ess_)
        # conditional tables P(x_j | x_parent, c), one Dirichlet row per (attribute, parent value, class)
        has_parent = self.parents_ >= 0
        parent_values = np.where(has_parent, self.n_values_[np.maximum(self.parents_, 0)], 1)
        self.cond_index_ = ValueIndex(parent_values * self.n_values_)
        self.cond_count_ = self._cond_counts(codes, y, w, k)
        row_total = self._cpt_row_totals(self.cond_count_ + alpha)
        self.cond_ess_ = row_total
        self.cond_log_table_ = np.vstack([np.log(self.cond_count_ + alpha) - np.log(row_total), np.zeros((1, k))])
        # marginal tables P(x_j | c) for rows whose attribute parent is missing (naive-Bayes form)
        self.marg_index_ = ValueIndex(self.n_values_)
        self.marg_count_ = self.marg_index_.counts(codes, y, w, k)[:-1]
        _, self.marg_log_table_ = nb_log_tables(self.marg_count_, self.class_count_, self.marg_index_, "laplace", alpha)
        self.marg_ess_ = self.marg_index_.per_attribute_totals(self.marg_count_ + alpha)[
            self.marg_index_.attribute_of_row
        ]

    def _cond_counts(self, codes, y, w, k) -> np.ndarray:
        """The conditional tables' counts (``cond_index_`` rows, without the missing row). With unit weights the
        counts are integers, exact in any order: they are added up a block of rows at a time, without an (n, d)
        array of combined codes; other weights are added in row order over all the rows at once."""
        if not np.all(w == 1.0):
            return self.cond_index_.counts(self.combined_codes(codes, marginal=False)[0], y, w, k)[:-1]
        total = np.zeros((self.cond_index_.n_rows + 1, k))
        for rows in row_blocks(*codes.shape):
            total += self.cond_index_.counts(self.combined_codes(codes[rows], marginal=False)[0], y[rows], w[rows], k)
        return total[:-1]

    def _cpt_row_totals(self, table: np.ndarray) -> np.ndarray:
        """Sum of each CP-table row (same attribute, same parent value; V_j consecutive cells), per cell."""
        index = self.cond_index_
        if index.n_rows == 0:
            return np.zeros((0, table.shape[1]))
        child_values = self.n_values_[index.attribute_of_row]
        local = np.arange(index.n_rows) - index.offsets[index.attribute_of_row]
        starts = np.flatnonzero(local % child_values == 0)
        sums = np.add.reduceat(table, starts, axis=0)
        return np.repeat(sums, np.diff(np.append(starts, index.n_rows)), axis=0)

    # -------------------------------------------------------------------------------------- inference
    def combined_codes(self, codes: np.ndarray, marginal: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """(codes into ``cond_index_``, codes into ``marg_index_``, or None without ``marginal``: the fit counts
        the marginal tables from the codes themselves); -1 where that table gives no factor.

        A child uses its conditional row when it and its attribute parent are observed, the marginal row
        when only the child is observed, and nothing when the child is missing.
        """
        has_parent = self.parents_ >= 0
        parent = np.maximum(self.parents_, 0)
        dtype = np.result_type(codes, self.n_values_)
        cond, marg = np.empty(codes.shape, dtype), (np.empty(codes.shape, dtype) if marginal else None)
        for rows in row_blocks(len(codes), codes.shape[1]):  # the temporaries stay in the cache
            block = codes[rows]
            parent_codes = np.where(has_parent, block[:, parent], 0)
            child_ok = block >= 0
            parent_ok = parent_codes >= 0
            cond[rows] = np.where(child_ok & parent_ok, parent_codes * self.n_values_ + block, -1)
            if marginal:
                marg[rows] = np.where(child_ok & ~parent_ok, block, -1)
        return cond, marg

    def _codes(self, X) -> np.ndarray:
        return check_discrete_X(self, X)  # unseen codes count as missing

    def log_likelihood(self, X) -> np.ndarray:
        """log P(x | c) under the tree (no class prior), shape (n, K); the combined codes a block of rows at a time
        (a row's sums do not depend on its block), so no (n, d) code arrays are made."""
        codes = self._codes(X)
        out = np.empty((len(codes), len(self.classes_)))
        for rows in row_blocks(len(codes), 4 * codes.shape[1]):
            cond, marg = self.combined_codes(codes[rows])
            out[rows] = self.cond_index_.lookup_sum(self.cond_log_table_, cond) + self.marg_index_.lookup_sum(
                self.marg_log_table_, marg
            )
        return out

    def _class_scores(self, X) -> np.ndarray:
        """Log joint log P(c) + Σ_j log P(x_j | x_parent(j), c), shape (n, K)."""
        log_likelihood = self.log_likelihood(X)  # first: checks X (NotFittedError before fit)
        return self.class_log_prior_ + log_likelihood

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """Joint log probability log P(x, c) = log P(c) + Σ_j log P(x_j | x_parent(j), c), as scikit-learn's naive
        Bayes ``predict_joint_log_proba``; a missing value contributes no factor.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes, as ``fit`` took.

        Returns
        -------
        joint : ndarray of shape (n_samples, n_classes)
            log P(x, c), columns in the order of ``classes_``; ``predict_log_proba`` is it normalized per row.
        """
        return self._class_scores(X)

    def conditional_table(self, j: int) -> np.ndarray:
        """Posterior-mean CP table of attribute j, shape (V_parent or 1, K, V_j): [u, c, v] = θ_{v | u, c}."""
        index = self.cond_index_
        block = np.exp(self.cond_log_table_[index.offsets[j] : index.offsets[j] + index.n_values[j]])
        return block.reshape(-1, self.n_values_[j], block.shape[1]).transpose(0, 2, 1)
