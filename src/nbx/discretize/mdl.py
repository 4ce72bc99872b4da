"""Entropy-based discretization with the MDL stopping rule (Fayyad & Irani 1993), as Weka implements it.

Used by Wang et al. 2006 (§2.2: "The MDL principle ... is used ... to control the number of
intervals") and Ting & Zheng 2003 (§3: "entropy-based discretization method (Fayyad and Irani
1993)"). The cut points equal those of ``weka.filters.supervised.attribute.Discretize`` with default options
(Fayyad-Irani criterion, not Kononenko's; "worse" encoding), i.e. Weka's ``cutPointsForSubset``:

On the instances of an interval sorted by the attribute (missing values excluded):

* every boundary between two distinct consecutive values ``a < b`` is a candidate cut ``(a + b) / 2``;
  its entropy is the size-weighted mean class entropy of the two sides;
* the best candidate is the first one with the smallest entropy (Weka keeps the first strictly smaller);
* ``N`` = weight of the interval, ``numCutPoints = N - 1`` (worse encoding: instances minus one, not the
  number of candidates), ``gain = H(S) - E(best)``; no cut when ``gain <= 0``;
* accept iff ``gain > (log2(numCutPoints) + delta) / N`` with
  ``delta = log2(3^k - 2) - (k H(S) - k1 H(S1) - k2 H(S2))``, ``k, k1, k2`` the numbers of classes present
  in ``S`` and the two sides (Fayyad & Irani 1993, eq. for the MDLPC criterion);
* if accepted, recurse on both sides; the attribute's cuts are the union, sorted.

Choices where Weka and the project conventions differ (identical results for unit weights):

* Sample weights act as counts: ``N`` and ``numCutPoints`` use the total weight, so a weight of k equals k
  copies (Weka uses the instance count for ``numCutPoints``), and rows with weight 0 are dropped (in Weka
  they still create candidate boundaries). An interval with total weight <= 1 is not split (log2 of
  ``numCutPoints <= 0`` is undefined).
* Ties: candidates whose entropy is within ``1e-12`` bits of the minimum count as equal and the first wins,
  so the result does not depend on floating-point rounding of mathematically equal entropies.

The scan is vectorized: each attribute is sorted once (``np.unique``) and its class counts per distinct value
accumulated once, class by class; an interval's candidate left/right counts are differences of those cumulative
counts. Every candidate is first screened with a cheap form of the split entropy (``N E`` as
``sum_sides (n log2 n - sum_k c_k log2 c_k)``, a few passes per class over chunks of candidates); only those
within ``SCREEN_MARGIN`` (1e-9 bits, far above the two forms' rounding difference) of their interval's minimum get
the exact entropy of :mod:`nbx.core.criteria`, so the chosen cut is the one scoring every candidate exactly
would choose. The recursion runs level by level over every open interval of every column of a batch of columns
together (:func:`mdl_boundaries_many`), so a fit costs a few numpy calls per level instead of per interval, with
the same arithmetic per interval (the same cut points).
"""

from __future__ import annotations

import numpy as np

from nbx.core.base import N_VALUES
from nbx.core.counting import run_starts
from nbx.core.criteria import entropy, split_entropies
from nbx.discretize.base import Discretizer

TIE_TOLERANCE = 1e-12  # bits; entropies this close are treated as equal (first candidate wins)
SCREEN_MARGIN = 1e-9  # bits; candidates this close to the screened minimum get the exact entropy
_SCREEN_CHUNK = 1 << 15  # candidates screened at once (buffers that stay in the cache)
_TINY = np.finfo(float).tiny


def value_class_counts(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int):
    """Sorted distinct values of x and their weighted class counts, shape (n_distinct, n_classes). Unit weights
    are counted as integers (a sum of ones is exact in floats, so the same numbers without reading the weights)."""
    values, inverse = np.unique(x, return_inverse=True)
    cells = y * len(values) + inverse.ravel()
    if np.all(w == 1.0):
        counts = np.bincount(cells, minlength=len(values) * n_classes).astype(float)
    else:
        counts = np.bincount(cells, weights=w, minlength=len(values) * n_classes)
    return values, counts.reshape(n_classes, len(values)).T  # each class contiguous, for the cumulative sums


def fayyad_irani_accepts(prior: np.ndarray, left: np.ndarray, right: np.ndarray) -> bool:
    """Fayyad & Irani's MDLPC test for one binary split (Weka's ``FayyadAndIranisMDL``)."""
    cond, (h1, h2) = split_entropies(np.stack([left, right]))
    rows = [np.atleast_2d(a) for a in (prior, left, right)]
    return bool(_mdlpc_accepts(*rows, *(np.atleast_1d(v) for v in (entropy(prior), cond, h1, h2)))[0])


def _mdlpc_accepts(prior, left, right, h, cond, h1, h2) -> np.ndarray:
    """The MDLPC test for rows of splits, from the entropies of the interval (h), the split (cond) and its sides."""
    n = prior.sum(axis=1)
    k, k1, k2 = (prior > 0).sum(axis=1), (left > 0).sum(axis=1), (right > 0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.log2(3.0**k - 2) - (k * h - k1 * h1 - k2 * h2)
        return (n > 1) & ((h - cond) > (np.log2(n - 1) + delta) / n)


def best_split(cum: np.ndarray, lo: int, hi: int):
    """Best candidate in the distinct values lo..hi-1, or None when no candidate lowers the entropy.

    ``cum[i]`` = class counts of distinct values 0..i-1 (cumulative, with a leading zero row). Candidate
    ``i`` (lo <= i < hi-1) puts values lo..i on the left. Returns (i, prior, left, right).
    """
    if hi - lo < 2:
        return None
    i, prior, left, right, h, cond, *_ = _best_splits(np.asarray(cum, float).T, *(np.array([v]) for v in (0, lo, hi)))
    return (int(i[0]), prior[0], left[0], right[0]) if h[0] - cond[0] > TIE_TOLERANCE else None


def _best_splits(cum: np.ndarray, at: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple:
    """:func:`best_split` of several intervals [lo, hi) (at least two groups each) of the cumulative counts
    ``cum`` (classes, rows), interval j's block starting at column ``at[j]``: (i, prior, left, right, H(prior),
    E(best), H(left), H(right)), one row per interval.

    Two passes give the same choice as scoring every candidate with :func:`nbx.core.criteria.split_entropies`.
    A screen scores every candidate by ``N E`` in the form ``sum_sides (n log2 n - sum_k c_k log2 c_k)``
    (a few passes over one class at a time, no division), in chunks of candidates; only the candidates within
    ``SCREEN_MARGIN`` bits of their interval's screened minimum get the exact entropy, and the first within
    ``TIE_TOLERANCE`` of the exact minimum wins. The two forms differ by rounding only (about 1e-15 log2 N
    bits, far below the margin), so every candidate that can win is among those scored exactly.
    """
    n_cand = hi - lo - 1
    first = np.concatenate([[0], np.cumsum(n_cand)[:-1]])  # candidates are numbered interval by interval
    start = cum[:, at + lo]
    prior = cum[:, at + hi] - start  # (classes, intervals)
    n = prior.sum(axis=0)
    score = _screen(cum, first, n_cand, at + lo + 1 - first, start, prior, n)
    low = np.minimum.reduceat(score, first)
    near = np.flatnonzero(score <= np.repeat(low + SCREEN_MARGIN * n, n_cand))  # sorted by interval
    owner = np.searchsorted(first, near, side="right") - 1
    cand = lo[owner] + near - first[owner]
    row = at[owner] + cand + 1
    start, prior = start.T, prior.T
    left = cum[:, row].T - start[owner]
    ent, sides = split_entropies(np.stack([left, prior[owner] - left], axis=1))
    first = run_starts(owner)  # every interval keeps its screened minimum
    low = np.minimum.reduceat(ent, first)
    best = np.minimum.reduceat(
        np.where(ent <= low[owner] + TIE_TOLERANCE, np.arange(owner.size), owner.size), first
    )  # the first candidate within the tolerance
    left = left[best]
    return cand[best], prior, left, prior - left, entropy(prior), ent[best], sides[best, 0], sides[best, 1]


def _screen(cum, first, n_cand, shift, start, prior, n) -> np.ndarray:
    """``N E`` of every candidate as ``sum_sides (n log2 n - sum_k c_k log2 c_k)``, a chunk of candidates at a
    time through reused buffers. Candidate ``c`` of interval ``j`` (``first[j] <= c < first[j] + n_cand[j]``)
    has its left side's cumulative counts in column ``c + shift[j]`` of ``cum``."""
    total = int(first[-1] + n_cand[-1])
    score = np.empty(total)
    size, left, side, term = (np.empty(min(total, _SCREEN_CHUNK)) for _ in range(4))
    for s in range(0, total, _SCREEN_CHUNK):
        e = min(s + _SCREEN_CHUNK, total)
        j0, j1 = np.searchsorted(first, s, side="right") - 1, np.searchsorted(first, e)  # intervals in [s, e)
        ends = first[j0:j1] + n_cand[j0:j1]
        o = np.repeat(np.arange(j0, j1), np.minimum(ends, e) - np.maximum(first[j0:j1], s))
        r = np.arange(s, e) + shift[o]
        out = score[s:e]
        sz, lf, sd, tm = size[: e - s], left[: e - s], side[: e - s], term[: e - s]
        sz.fill(0.0)
        out.fill(0.0)
        for k in range(cum.shape[0]):
            np.take(cum[k], r, out=lf, mode="clip")  # mode="raise" would copy through a buffer
            np.take(start[k], o, out=sd, mode="clip")
            lf -= sd
            sz += lf
            np.take(prior[k], o, out=sd, mode="clip")
            sd -= lf
            _add_x_log2_x(lf, out, tm, -1.0)
            _add_x_log2_x(sd, out, tm, -1.0)
        np.take(n, o, out=sd, mode="clip")
        sd -= sz
        _add_x_log2_x(sz, out, tm, 1.0)
        _add_x_log2_x(sd, out, tm, 1.0)
    return score


def _add_x_log2_x(a: np.ndarray, out: np.ndarray, buffer: np.ndarray, sign: float) -> None:
    """out += sign a log2 a (0 at 0; a rounding residue at or below 0 adds about 0), through ``buffer``."""
    np.maximum(a, _TINY, out=buffer)
    np.log2(buffer, out=buffer)
    buffer *= a
    if sign < 0:
        out -= buffer
    else:
        out += buffer


def mdl_cut_points(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int | None = None) -> np.ndarray:
    """Sorted MDL cut points of one attribute (x without missing values, y class indices, w > 0 weights)."""
    if x.size == 0:
        return np.empty(0)
    return mdl_cut_points_many([(x, y, w)], int(y.max()) + 1 if n_classes is None else n_classes)[0]


def mdl_cut_points_many(columns: list[tuple], n_classes: int) -> list[np.ndarray]:
    """:func:`mdl_cut_points` of several attributes (x, y, w), searched together (:func:`mdl_boundaries_many`).
    Their count tables are all held at once: callers bound a call's values (``discretize.base.FIT_VALUES``)."""
    tables = [
        value_class_counts(x, y, w, n_classes) if x.size else (np.empty(0), np.zeros((0, n_classes)))
        for x, y, w in columns
    ]
    found = mdl_boundaries_many([counts for _, counts in tables])
    return [np.sort((values[b] + values[b + 1]) / 2.0) for (values, _), b in zip(tables, found)]


def mdl_boundaries(counts: np.ndarray) -> np.ndarray:
    """Recursive Fayyad-Irani splitting of ordered groups with class counts (groups, K).

    Returns the accepted boundaries i (a cut between group i and i + 1), sorted.
    """
    return mdl_boundaries_many([counts])[0]


def mdl_boundaries_many(tables: list[np.ndarray]) -> list[np.ndarray]:
    """:func:`mdl_boundaries` of several count tables at once. The recursion runs level by level: every open
    interval of every table in one :func:`_best_splits` and one MDLPC test, the same arithmetic row by row
    as for a single interval, so the same boundaries bit for bit (numpy calls per level, not per interval)."""
    if not tables:
        return []
    sizes = np.array([len(t) for t in tables], dtype=np.int64)
    at = np.concatenate([[0], np.cumsum(sizes + 1)[:-1]]).astype(np.int64)  # each table's block of cum rows
    cum = np.zeros((tables[0].shape[1], int(sizes.sum()) + len(tables)))  # (classes, rows): one class contiguous
    for t, a in zip(tables, at.tolist()):
        np.cumsum(t.T, axis=1, out=cum[:, a + 1 : a + 1 + len(t)])
    table, lo, hi = np.arange(len(tables)), np.zeros(len(tables), np.int64), sizes  # the open intervals
    found = [[] for _ in tables]
    while True:
        open_ = hi - lo >= 2
        table, lo, hi = table[open_], lo[open_], hi[open_]
        if not len(lo):
            return [np.sort(np.asarray(f, dtype=np.int64)) for f in found]
        i, prior, left, right, h, cond, h1, h2 = _best_splits(cum, at[table], lo, hi)
        cut = (h - cond > TIE_TOLERANCE) & _mdlpc_accepts(prior, left, right, h, cond, h1, h2)
        for t, b in zip(table[cut].tolist(), i[cut].tolist()):
            found[t].append(b)
        table, i = np.concatenate([table[cut], table[cut]]), i[cut]
        lo, hi = np.concatenate([lo[cut], i + 1]), np.concatenate([i + 1, hi[cut]])


class MDLDiscretizer(Discretizer):
    """Supervised Fayyad-Irani entropy/MDL discretization of every numeric column, as Weka's.

    The cut points equal those of Weka's supervised ``Discretize`` with default options (see the module
    docstring). ``fit(X, y)`` needs the class labels y (any labels; encoded as indices).

    Parameters
    ----------
    n_values : array-like of int, default=None
        Per column the number of nominal values (codes passed through), 0 for a numeric column; None = all
        columns numeric.

    Attributes
    ----------
    cut_points_ : list of ndarray or None
        Per column the sorted cut points, None for a nominal column.
    n_values_ : ndarray of int
        Output cardinality per column, to pass on to a learner.
    input_n_values_ : ndarray of int
        The input columns' ``n_values`` (0 = numeric).
    n_features_in_ : int
        Number of columns seen at fit.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).
    classes_ : ndarray
        The class labels seen at fit.

    References
    ----------
    Fayyad, U. M. & Irani, K. B. (1993). *Multi-interval discretization of continuous-valued attributes for
    classification learning*. IJCAI-93.

    Wang, L.-M., Li, X.-L., Cao, C.-H. & Yuan, S.-M. (2006). *Combining decision tree and Naive Bayes for
    classification*. Knowledge-Based Systems, §2.2.

    Ting, K. M. & Zheng, Z. (2003). *A Study of AdaBoost with Naive Bayesian Classifiers: Weakness and
    Improvement*. Computational Intelligence, §3.

    Examples
    --------
    >>> from nbx.discretize import MDLDiscretizer
    >>> X = [[1.0], [1.5], [2.0], [2.5], [3.0], [7.0], [7.5], [8.0], [8.5], [9.0]]
    >>> y = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    >>> disc = MDLDiscretizer().fit(X, y)
    >>> print(disc.cut_points_[0])
    [5.]
    >>> print(disc.transform([[0.0], [5.5], [10.0]]).ravel())
    [0 1 1]
    """

    supervised = True
    _parameter_constraints = {"n_values": N_VALUES}

    def __init__(self, n_values=None):
        self.n_values = n_values

    def _cuts_of_columns(self, columns: list[tuple]) -> list[np.ndarray]:
        return mdl_cut_points_many(columns, len(self.classes_))  # all columns' recursions together
