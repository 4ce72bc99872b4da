"""Entropy-based discretization with the MDL stopping rule (Fayyad & Irani 1993), as Weka implements it.

Used by Wang et al. 2006 (seed 001 §2.2: "The MDL principle ... is used ... to control the number of
intervals") and Ting & Zheng 2003 (seed 004 §2: "entropy-based discretization method (Fayyad and Irani
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

The scan is vectorized: class counts per distinct value are accumulated once per attribute; an interval's
candidate left/right counts are differences of those cumulative counts, and all candidates' entropies come
from :mod:`nbx.models.criteria` at once. Only the recursion over accepted intervals is a Python loop.
"""
from __future__ import annotations

import numpy as np

from ..models.base import N_VALUES
from ..models.criteria import entropy, split_entropies
from .base import Discretizer

TIE_TOLERANCE = 1e-12  # bits; entropies this close are treated as equal (first candidate wins)


def value_class_counts(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int):
    """Sorted distinct values of x and their weighted class counts, shape (n_distinct, n_classes)."""
    values, inverse = np.unique(x, return_inverse=True)
    counts = np.bincount(inverse.ravel() * n_classes + y, weights=w, minlength=len(values) * n_classes)
    return values, counts.reshape(len(values), n_classes)


def fayyad_irani_accepts(prior: np.ndarray, left: np.ndarray, right: np.ndarray) -> bool:
    """Fayyad & Irani's MDLPC test for one binary split (Weka's ``FayyadAndIranisMDL``)."""
    cond, (h1, h2) = split_entropies(np.stack([left, right]))
    return _mdlpc_accepts(prior, left, right, entropy(prior), cond, h1, h2)


def _mdlpc_accepts(prior, left, right, h, cond, h1, h2) -> bool:
    """:func:`fayyad_irani_accepts` from the entropies of the interval (h), the split (cond) and its sides."""
    n = prior.sum()
    if n <= 1:
        return False
    gain = h - cond
    k, k1, k2 = (prior > 0).sum(), (left > 0).sum(), (right > 0).sum()
    delta = np.log2(3.0 ** k - 2) - (k * h - k1 * h1 - k2 * h2)
    return bool(gain > (np.log2(n - 1) + delta) / n)


def best_split(cum: np.ndarray, lo: int, hi: int):
    """Best candidate in the distinct values lo..hi-1, or None when no candidate lowers the entropy.

    ``cum[i]`` = class counts of distinct values 0..i-1 (cumulative, with a leading zero row). Candidate
    ``i`` (lo <= i < hi-1) puts values lo..i on the left. Returns (i, prior, left, right).
    """
    found = _best_split(cum, lo, hi)
    return found and found[:4]


def _best_split(cum: np.ndarray, lo: int, hi: int):
    """:func:`best_split` plus the entropies :func:`_mdlpc_accepts` needs: (..., h, cond, h_left, h_right)."""
    if hi - lo < 2:
        return None
    prior = cum[hi] - cum[lo]
    left = cum[lo + 1:hi] - cum[lo]
    right = prior - left
    ent, sides = split_entropies(np.stack([left, right], axis=1))
    best = int(np.flatnonzero(ent <= ent.min() + TIE_TOLERANCE)[0])
    h = entropy(prior)
    if h - ent[best] <= TIE_TOLERANCE:
        return None
    return lo + best, prior, left[best], right[best], h, ent[best], sides[best, 0], sides[best, 1]


def mdl_cut_points(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int | None = None) -> np.ndarray:
    """Sorted MDL cut points of one attribute (x without missing values, y class indices, w > 0 weights)."""
    if x.size == 0:
        return np.empty(0)
    n_classes = int(y.max()) + 1 if n_classes is None else n_classes
    values, counts = value_class_counts(x, y, w, n_classes)
    bounds = mdl_boundaries(counts)
    return np.sort((values[bounds] + values[bounds + 1]) / 2.0)


def mdl_boundaries(counts: np.ndarray) -> np.ndarray:
    """Recursive Fayyad-Irani splitting of ordered groups with class counts (groups, K).

    Returns the accepted boundaries i (a cut between group i and i + 1), in acceptance order.
    """
    cum = np.vstack([np.zeros((1, counts.shape[1])), np.cumsum(counts, axis=0)])
    bounds, stack = [], [(0, len(counts))]
    while stack:  # intervals of group indices [lo, hi) still to be tested
        lo, hi = stack.pop()
        split = _best_split(cum, lo, hi)
        if split is None:
            continue
        i = split[0]
        if _mdlpc_accepts(*split[1:]):
            bounds.append(i)
            stack += [(lo, i + 1), (i + 1, hi)]
    return np.asarray(bounds, dtype=np.int64)


class MDLDiscretizer(Discretizer):
    """Supervised Fayyad-Irani MDL discretization of every numeric column (see module docstring).

    ``n_values``: per column the number of nominal values (passed through), 0 for a numeric column; None =
    all numeric. ``fit(X, y)`` needs the class labels y (any labels; encoded as indices).
    """

    supervised = True
    _parameter_constraints = {"n_values": N_VALUES}

    def __init__(self, n_values=None):
        self.n_values = n_values

    def _column_cuts(self, x, y, w):
        return mdl_cut_points(x, y, w, len(self.classes_))
