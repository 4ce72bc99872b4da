"""C4.5's threshold tests on the raw values for the leveled naive Bayesian tree: ``LeveledNBTree(cuts="values")``.

Ting & Zheng (2003) §3.2 grow the tree with "the univariate tests of conventional decision trees" and "Like C4.5
(Quinlan 1993) ... the information gain ratio criterion"; read most literally, a numeric attribute is tested as
C4.5 tests it, by ``x <= t`` on its raw values, while the leaf naive Bayes keep §3.1's discretized codes. This
module holds what that reading adds to the tree grower: the attributes' distinct training values (the tests see
a value's rank among them) and the cut search of C4.5 Release 8 (``contin.c``), as :mod:`nbx.models.c45` runs it:

* candidate cuts lie between consecutive distinct known values of the node;
* each side must weigh at least ``MinSplit = clip(0.1 * known / n_classes, 2, 25)`` and the node's known weight
  at least 4; ``tries`` counts the cuts inside that window;
* the best cut has the largest gain (the lowest on ties, as C4.5's first maximum) among the admissible ones
  (the tree's own rules: both branches >= 2 and, under §3.2 (iii)'s children reading, both children >= 30);
  the attribute's gain is that gain less ``log2(tries) / |D|`` (Quinlan 1996), and an attribute whose corrected
  gain is not positive offers no test;
* the threshold is the largest training value at or below the cut's midpoint (``GreatestValueBelow``, over the
  whole training set).

The tree holds a test as ``rank <= t``, with a value's rank its position among the attribute's distinct training
values (``np.searchsorted(values, x, "left")``): ``rank <= t`` holds exactly when ``x <= values[t]``.

Both cut searches here (:func:`_level_cuts` on the raw values, :func:`code_cuts` on the codes) are compiled. Their
sums are numpy's to the bit; their logarithms are the C library's ``log2``, which is numpy's where the kernels are
pinned (:mod:`nbx.pipeline.kernels`, as every pipeline stage runs). Unpinned on an AVX-512 machine numpy's ``log2``
differs in the last bit for some values, so there a near-tie between two cuts may fall otherwise than numpy's array
expressions would decide it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from nbx.core.sums import block_sum, row_sum, workspace

MIN_BRANCH = 2.0  # C4.5's MINOBJS: an admissible test has two branches with at least this weight
MIN_SPLIT_CAP = 25.0  # Release 8's upper bound on MinSplit
C45_TOLERANCE = 1e-6  # weight sums vs MinSplit, as nbx.models.c45 (J48's Utils.grOrEq)
WEIGHT_TOL = 1e-9  # weight sums that differ only by summation order count as equal (rule (iii))
TOL = 1e-12  # a gain or split information at most this is no gain


class ValueRanks:
    """The distinct known training values of the ordinal columns ``columns`` of ``X`` (rows of positive weight),
    and the ranks of any values among them. ``values[i]``: column ``columns[i]``'s values, ascending."""

    def __init__(self, X: np.ndarray, columns: np.ndarray):
        self.columns = np.asarray(columns, np.int64)
        self.values = [np.unique(X[~np.isnan(X[:, j]), j]) for j in self.columns]
        self._flat = np.concatenate(self.values) if self.values else np.zeros(0)  # all columns' values, in a row
        self._start = np.cumsum([0] + [v.size for v in self.values])[:-1].astype(np.int64)

    @property
    def n_ranks(self) -> np.ndarray:
        """Distinct training values per ordinal column."""
        return np.array([v.size for v in self.values], np.int64)

    def test_codes(self, X: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """The codes the tree's tests read: ``codes`` with each ordinal column replaced by its values' ranks (-1
        where missing; a value above every training value gets the rank ``n_ranks``, which every cut sends right)."""
        out = codes.astype(np.int64)
        for j, values in zip(self.columns.tolist(), self.values):
            x = X[:, j]
            out[:, j] = np.where(np.isnan(x), -1, np.searchsorted(values, x, "left"))
        return out

    def thresholds(self, columns: np.ndarray, below: np.ndarray, above: np.ndarray) -> np.ndarray:
        """C4.5's threshold ranks of cuts between the ranks ``below`` < ``above`` of the ordinal columns
        ``columns`` (indices into :attr:`columns`), one per cut: the largest training value at or below the
        cut's midpoint (``GreatestValueBelow``)."""
        start = self._start[columns]
        lo, hi = start + below, start + above
        mid = (self._flat[lo] + self._flat[hi]) / 2
        # np.searchsorted(values, mid, "right") - 1 for every cut at once: values[below] <= mid <= values[above], so
        # the answer lies in [below, above]; a binary search there, all cuts in step
        while (lo < hi).any():
            probe = (lo + hi + 1) // 2
            at_or_below = self._flat[probe] <= mid
            lo, hi = np.where(at_or_below, probe, lo), np.where(at_or_below, hi, probe - 1)
        return lo - start


def presorted(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per ordinal column (of ``ranks``, (n, n_o)) its rows with a known value sorted by rank (rows in order
    within a rank), concatenated, each column's start, and the rows' ranks in that order: the order every level of
    a tree reads (:func:`narrowed` keeps a level's rows of it)."""
    order, starts = [], [0]
    for a in range(ranks.shape[1]):
        known = np.flatnonzero(ranks[:, a] >= 0)
        order.append(known[np.argsort(ranks[known, a], kind="stable")])
        starts.append(starts[-1] + known.size)
    order = np.concatenate(order).astype(np.int64) if order else np.zeros(0, np.int64)
    column = np.repeat(np.arange(ranks.shape[1]), np.diff(starts))
    return order, np.array(starts, np.int64), np.ascontiguousarray(ranks[order, column], dtype=np.int64)


@njit(cache=True, inline="always")
def _sum(a, k: int, stack) -> float:
    """numpy's sum of a[:k] (:mod:`nbx.core.sums`: one block up to 128 terms, else halved)."""
    return block_sum(a, 0, k) if k <= 128 else row_sum(a, k, stack[0], stack[1])


@njit(cache=True, inline="always")
def _entropy(counts, total, k: int, terms, stack) -> float:
    """:func:`nbx.core.criteria.entropy` of counts[:k] whose numpy sum is ``total``, with numpy's operations in
    numpy's order: p = counts / total (0 where total is not positive), log2(p)·p where p > 0 (else 0), the
    negated numpy sum of those terms (``terms``: scratch)."""
    for c in range(k):
        p = counts[c] / total if total > 0 else 0.0
        terms[c] = math.log2(p) * p if p > 0 else 0.0
    return -_sum(terms, k, stack)


@njit(cache=True)
def _branches(left, right, k: int):
    """Below 8 classes, a cut's two branches (class counts ``left``, ``right``): their numpy sums and
    :func:`_entropy`, both branches in one loop, each added left to right from 0.0 as numpy adds fewer than 8
    terms (the two chains of logarithms side by side run about twice as fast as one after the other)."""
    sl, sr = 0.0, 0.0
    for c in range(k):
        sl += left[c]
        sr += right[c]
    el, er = 0.0, 0.0
    for c in range(k):
        pl = left[c] / sl if sl > 0 else 0.0
        pr = right[c] / sr if sr > 0 else 0.0
        el += math.log2(pl) * pl if pl > 0 else 0.0
        er += math.log2(pr) * pr if pr > 0 else 0.0
    return sl, sr, -el, -er


@njit(cache=True)
def _level_cuts(ranked, order, starts, node_of, y, w, evaluate, weight, k: int, min_split: float, children: bool):
    """C4.5's best cut on the raw values of every (evaluated node, ordinal attribute) of a tree level (module
    docstring): per (node, attribute) its gain, split information, whether a cut exists, and the ranks on both
    sides of the best one; and the presorted rows of the evaluated nodes. ``order``, ``starts``, ``ranked``: the
    presorted rows (:func:`presorted`, or the previous level's evaluated ones: a level's rows are among them, so
    each level passes over its own rows rather than every training row); ``node_of[r]``: the level's node of row
    r, -1 for rows not in it.

    The numbers are those of the array expressions :func:`nbx.core.criteria.entropy` evaluates on all the
    candidates at once, to the bit (tests/models/test_leveled_cuts.py keeps that route as the reference): each
    count vector summed as numpy sums a row (:func:`nbx.core.sums.row_sum`), the same divisions and logarithms,
    and a group's gains compared in rank order (the first maximum), after the attribute's pass has counted its
    ``tries``."""
    n_nodes, n_o = weight.shape[0], starts.shape[0] - 1
    stack = workspace()
    known = np.zeros((n_nodes, n_o, k))
    kept, kept_ranked = np.empty(order.shape[0], np.int64), np.empty(order.shape[0], np.int64)
    kept_starts = np.zeros(n_o + 1, np.int64)
    m = 0
    for a in range(n_o):
        for i in range(starts[a], starts[a + 1]):
            r = order[i]
            t = node_of[r]
            if t >= 0 and evaluate[t]:
                known[t, a, y[r]] += w[r]
                kept[m], kept_ranked[m] = r, ranked[i]
                m += 1
        kept_starts[a + 1] = m
    order, starts, ranked = kept[:m], kept_starts, kept_ranked[:m]
    known_weight = np.zeros((n_nodes, n_o))  # Σ_c known[t, a, c], classes in order (C4.5's window and rules)
    kn_sum, known_entropy = np.zeros((n_nodes, n_o)), np.zeros((n_nodes, n_o))  # numpy's sum and entropy
    terms, right, three, three_terms = np.empty(k), np.empty(k), np.empty(3), np.empty(3)
    for t in range(n_nodes):
        for a in range(n_o):
            for c in range(k):
                known_weight[t, a] += known[t, a, c]
            kn_sum[t, a] = _sum(known[t, a], k, stack)
            known_entropy[t, a] = _entropy(known[t, a], kn_sum[t, a], k, terms, stack)
    gain, info = np.zeros((n_nodes, n_o)), np.zeros((n_nodes, n_o))
    found = np.zeros((n_nodes, n_o), np.bool_)
    best_below, best_above = np.full((n_nodes, n_o), -1, np.int64), np.full((n_nodes, n_o), -1, np.int64)
    # one attribute's admissible cuts: node, ranks on both sides, branch sizes, gain before C4.5's tries penalty
    cap = order.shape[0]
    node, below, above = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
    size_left, size_right, part = np.empty(cap), np.empty(cap), np.empty(cap)
    tries = np.zeros(n_nodes, np.int64)
    running = np.zeros((n_nodes, k))
    last = np.empty(n_nodes, np.int64)
    for a in range(n_o):
        running[:] = 0.0
        last[:] = -1
        tries[:] = 0
        n = 0
        for i in range(starts[a], starts[a + 1]):
            r = order[i]
            t = node_of[r]
            q = ranked[i]
            if last[t] >= 0 and q != last[t]:
                kn, lw = known_weight[t, a], 0.0
                for c in range(k):
                    lw += running[t, c]
                rw = kn - lw
                ms = 0.1 * kn / k
                ms = MIN_BRANCH if ms <= MIN_BRANCH else min(ms, MIN_SPLIT_CAP)
                if kn >= 2 * MIN_BRANCH - C45_TOLERANCE and lw >= ms - C45_TOLERANCE and lw <= kn - ms + C45_TOLERANCE:
                    tries[t] += 1
                    ok = lw >= MIN_BRANCH and rw >= MIN_BRANCH
                    if ok and children:  # the unknown rows go to the larger branch (the left on ties)
                        unknown = max(weight[t] - kn, 0.0)
                        lc, rc = (lw + unknown, rw) if lw >= rw else (lw, rw + unknown)
                        ok = min(lc, rc) >= min_split - WEIGHT_TOL
                    if ok:
                        left = running[t]
                        for c in range(k):
                            d = known[t, a, c] - left[c]
                            right[c] = d if (d >= 0.0 or d != d) else 0.0  # np.maximum(d, 0.0)
                        if k < 8:
                            sl, sr, el, er = _branches(left, right, k)
                        else:
                            sl, sr = _sum(left, k, stack), _sum(right, k, stack)
                            el, er = _entropy(left, sl, k, terms, stack), _entropy(right, sr, k, terms, stack)
                        kns = kn_sum[t, a]
                        cond = ((0.0 + sl * el) + sr * er) / kns  # numpy's sum of the two branches' terms
                        node[n], below[n], above[n] = t, last[t], q
                        size_left[n], size_right[n] = sl, sr
                        part[n] = kns / weight[t] * (known_entropy[t, a] - cond)
                        n += 1
            running[t, y[r]] += w[r]
            last[t] = q
        first = np.full(n_nodes, -1, np.int64)
        for j in range(n):  # each node's first largest gain, in rank order
            t = node[j]
            g = part[j] - math.log2(max(tries[t], 1)) / weight[t]
            if first[t] < 0 or g > gain[t, a]:
                first[t], gain[t, a] = j, g
        for t in range(n_nodes):
            j = first[t]
            if j >= 0:
                found[t, a] = True
                best_below[t, a], best_above[t, a] = below[j], above[j]
                three[0], three[1] = size_left[j], size_right[j]
                three[2] = max(weight[t] - kn_sum[t, a], 0.0)  # the unknown rows' weight
                info[t, a] = _entropy(three, _sum(three, 3, stack), 3, three_terms, stack)
    return gain, info, found, best_below, best_above, (order, starts, ranked)


def best_value_cuts(raw: ValueRanks, presort, node_of, y, w, nodes, weight, k, min_split, children):
    """Per node of ``nodes`` (the level's nodes to evaluate) and ordinal column of ``raw``: (gain, split
    information, admissible, threshold rank), each (len(nodes), n_o), of C4.5's best cut on the raw values (module
    docstring), and the presorted rows of ``nodes`` (for the next level). ``presort``: (order, starts, ranked) of
    :func:`presorted`, or the previous level's; ``weight``: the level's node weights; ``node_of``: each row's node
    in the level, -1 if none."""
    evaluate = np.zeros(weight.shape[0], bool)
    evaluate[nodes] = True
    order, starts, ranked = presort
    gain, split, found, below, above, presort = _level_cuts(
        ranked, order, starts, node_of, y, w, evaluate, weight, k, float(min_split), bool(children)
    )
    admissible = found & (gain > TOL) & (split > TOL)
    threshold = np.full(gain.shape, -1, np.int64)
    t, a = np.nonzero(found)
    threshold[t, a] = raw.thresholds(a, below[t, a], above[t, a])
    return gain[nodes], split[nodes], admissible[nodes], threshold[nodes], presort


@njit(cache=True, error_model="numpy")
def code_cuts(grid, total, min_split: float, children: bool):
    """Per (node, ordinal attribute) the admissible cut ``code <= t`` of largest gain (lowest t on ties) among the
    threshold tests on the codes (``LeveledNBTree(numeric_ordinal=True)``): (gain, split information, admissible,
    t), t = -1 where none is admissible. ``grid`` (nodes, attributes, values + unknown, K) holds the class counts
    per value, ``total`` (nodes,) the nodes' weights. A cut is admitted when both branches weigh >= 2 and, under
    the children reading of (iii), both children (the unknown rows in the larger branch, the left on ties) weigh
    >= ``min_split``.

    The array expressions this replaced are the reference (tests/models/test_leveled_cuts.py), to the bit: the
    left branch's counts a running sum over the values, the right's one from the last value down, the known
    weight numpy's sum over the (value, class) block, the class totals a running sum over the values, each count
    vector summed as numpy sums a row; the first largest gain among the cuts whose split information is positive
    (if none, cut 0's numbers)."""
    n_nodes, n_a, v1, k = grid.shape
    n_values = v1 - 1
    stack = workspace()
    gain, info = np.zeros((n_nodes, n_a)), np.zeros((n_nodes, n_a))
    found = np.zeros((n_nodes, n_a), np.bool_)
    best = np.full((n_nodes, n_a), -1, np.int64)
    left, column, terms = np.empty(k), np.empty(k), np.empty(k)
    three, three_terms = np.empty(3), np.empty(3)
    right = np.empty((max(n_values, 1), k))  # right[v]: the class counts of the codes >= v
    for t in range(n_nodes):
        node = total[t]
        for a in range(n_a):
            b = grid[t, a]
            if k < 8:  # the unknown rows' weight, left to right without numpy's 0.0 (as the array route added it)
                unknown = b[n_values, 0]
                for c in range(1, k):
                    unknown += b[n_values, c]
            else:
                unknown = row_sum(b[n_values], k, stack[0], stack[1])
            if n_values < 2:
                continue
            known = row_sum(b[:n_values].ravel(), n_values * k, stack[0], stack[1])
            for c in range(k):
                column[c], right[n_values - 1, c], left[c] = b[0, c], b[n_values - 1, c], b[0, c]
            for v in range(1, n_values):
                for c in range(k):
                    column[c] += b[v, c]
            for v in range(n_values - 2, 0, -1):
                for c in range(k):
                    right[v, c] = right[v + 1, c] + b[v, c]
            parent = _entropy(column, _sum(column, k, stack), k, terms, stack)
            share = known / node if node > 0 else 0.0
            top, top_split, first = 0.0, 0.0, -1
            for cut in range(n_values - 1):
                if cut > 0:
                    for c in range(k):
                        left[c] += b[cut, c]
                sl, sr = _sum(left, k, stack), _sum(right[cut + 1], k, stack)
                lc, rc = sl, sr
                ok = lc >= MIN_BRANCH and rc >= MIN_BRANCH
                if children:  # the unknown rows go to the larger branch (the left on ties)
                    lc, rc = (lc + unknown, rc) if lc >= rc else (lc, rc + unknown)
                    ok = ok and min(lc, rc) >= min_split - WEIGHT_TOL
                if not ok:
                    continue
                if k < 8:
                    el, er = _branches(left, right[cut + 1], k)[2:]
                else:
                    el = _entropy(left, sl, k, terms, stack)
                    er = _entropy(right[cut + 1], sr, k, terms, stack)
                g = share * (parent - ((0.0 + sl * el) + sr * er) / known) if known > 0 else 0.0
                three[0], three[1], three[2] = sl, sr, unknown
                split = _entropy(three, _sum(three, 3, stack), 3, three_terms, stack)
                if cut == 0:
                    gain[t, a], info[t, a] = g, split
                if split > TOL and (first < 0 or g > top):  # (known > 0 here: no gain is NaN)
                    top, top_split, first = g, split, cut
            if first >= 0:
                gain[t, a], info[t, a], found[t, a], best[t, a] = top, top_split, True, first
    return gain, info, found, best
