"""C4.5's split search (Quinlan 1993 ch. 2-3; Release 8 ``contin.c``, ``discr.c``, ``info.c``, ``build.c``): the gain
and split information of every candidate test of a level's open nodes, and Quinlan's choice among them.

:class:`nbx.models.c45.C45Tree` grows one depth at a time and hands each depth to these functions: the numeric
attributes (binary cuts, Release 8's MDL-corrected gain) come sorted by node and value, the nominal ones as codes;
the module docstring of :mod:`nbx.models.c45` states the rules and the shortcuts that leave the same tree.
"""

from __future__ import annotations

import numpy as np

from nbx.core.counting import ValueIndex, row_blocks, run_lengths, run_starts
from nbx.core.criteria import entropy, info_gain

EPSILON = 1e-3  # C4.5's tolerance in gain and error comparisons (defns.i)
WEIGHT_TOLERANCE = 1e-6  # weight sums vs min_leaf / MinSplit (as J48's Utils.grOrEq): 2.0 may sum to 1.9999999999999996
SCREEN_MARGIN = 1e-9  # bits; cuts this close to a cell's lowest split entropy (screened) get the exact gain
CHUNK = 1 << 17  # max entries x attributes of a block in numeric evaluation: several attributes per pass on
# small data, one at a time from about 1.3e5 entries, so a pass's temporaries stay a fraction of the input (a
# column's results do not depend on the other columns of its block)
_TINY = np.finfo(float).tiny


def select(gain: np.ndarray, info: np.ndarray, in_average: np.ndarray) -> int:
    """Quinlan's rule for one node: best gain ratio among tests with at least average gain; -1 if none."""
    return int(select_rows(gain[None], info[None], in_average)[0])


def select_rows(gain: np.ndarray, info: np.ndarray, in_average: np.ndarray) -> np.ndarray:
    """Quinlan's rule (ch. 2.2) for each row (node) of (nodes, attributes) gains and split infos."""
    possible = gain > -EPSILON
    counted = possible & in_average
    n_counted = counted.sum(axis=1)
    # the average of each row's counted gains, summed as numpy sums a 1-D array of that length
    packed = np.zeros(gain.shape)
    r, c = np.nonzero(counted)
    packed[r, (np.cumsum(counted, axis=1) - 1)[r, c]] = gain[r, c]
    average = np.full(gain.shape[0], 1e6)
    for k in set(n_counted[n_counted > 0].tolist()):
        rows = n_counted == k
        average[rows] = packed[rows, :k].sum(axis=1) / k
    ok = possible & (gain >= average[:, None] - EPSILON) & (info > EPSILON)
    with np.errstate(divide="ignore", invalid="ignore"):
        worth = np.where(ok, gain / info, -EPSILON)
    best = np.argmax(worth, axis=1)
    return np.where(worth[np.arange(best.size), best] > -EPSILON, best, -1)


def eval_nominal(codes, y, w, cases, n_classes, min_leaf, index: ValueIndex):
    """One node: gain (known-fraction scaled) and split info of the multiway test on each nominal column."""
    gain, info = eval_nominal_nodes(
        codes, y, w, np.zeros(y.size, np.intp), np.array([cases]), n_classes, min_leaf, index
    )
    return gain[0], info[0]


def eval_nominal_nodes(codes, y, w, node, cases, n_classes, min_leaf, index: ValueIndex, row=None):
    """Per node (``node`` sorted, ``cases`` its weight) and nominal column: (gain, split info), chunked. ``codes``
    are the cases' codes, or with ``row`` the training codes of which case i has row ``row[i]``: each chunk's
    cells are then made a block of cases at a time, without a gathered (cases, columns) copy."""
    m, n_values = cases.size, index.n_rows + 1
    starts = np.concatenate([[0], np.cumsum(np.bincount(node, minlength=m))])
    per_node = max(n_values, index.n_values.size * int(index.n_values.max())) * n_classes
    step = max(1, CHUNK // per_node)
    out = []
    for s in range(0, m, step):
        e = slice(starts[s], starts[min(s + step, m)])
        nodes = cases[s : s + step]
        chunk_cases = np.arange(e.start, e.stop)
        size = nodes.size * n_values * n_classes
        blocks = row_blocks(chunk_cases.size, codes.shape[1])
        cells = ((b, _count_cells(codes, row, y, node, chunk_cases[b], s, n_values, n_classes, index)) for b in blocks)
        if np.all(w[e] == 1.0):  # integer counts, exact in any order: a block of cases at a time, no weights
            counts = np.zeros(size, np.int64)
            for _, cell in cells:
                counts += np.bincount(cell.ravel(), minlength=size)
        else:  # each cell's weights added in case order: one bincount over the chunk's (case, column) cells
            flat = np.empty((chunk_cases.size, codes.shape[1]), np.int64)
            for b, cell in cells:
                flat[b] = cell
            counts = np.bincount(flat.ravel(), weights=np.broadcast_to(w[e, None], flat.shape).ravel(), minlength=size)
        counts = counts.reshape(nodes.size, n_values, n_classes)
        out.append(_nominal_gain(counts[:, :-1], nodes, n_classes, min_leaf, index))
    return tuple(np.concatenate(parts) for parts in zip(*out))


def _count_cells(codes, row, y, node, cases, first_node, n_values, n_classes, index: ValueIndex) -> np.ndarray:
    """The count cell (node - first_node, attribute value, class) of each of ``cases`` and nominal column, shape
    (cases, columns); ``codes`` are indexed by case, or with ``row`` by ``row[case]``."""
    cell = index.rows(codes[cases] if row is None else codes[row[cases]])
    cell += (node[cases, None] - first_node) * n_values
    cell *= n_classes
    cell += y[cases, None]
    return cell


def _nominal_gain(counts, cases, n_classes, min_leaf, index: ValueIndex):
    n_attr, v_max = index.n_values.size, int(index.n_values.max())
    table = np.zeros((cases.size, n_attr, v_max, n_classes))
    table[:, index.attribute_of_row, np.arange(index.n_rows) - index.offsets[index.attribute_of_row]] = counts
    sizes = table.sum(axis=3)
    known = sizes.sum(axis=2)
    unknown = np.maximum(cases[:, None] - known, 0.0)
    gain = known / cases[:, None] * info_gain(table)
    reasonable = (sizes >= min_leaf - WEIGHT_TOLERANCE).sum(axis=2) >= 2
    gain = np.where(reasonable & (known > 0), gain, -EPSILON)
    info = entropy(np.concatenate([sizes, unknown[..., None]], axis=2))
    return gain, info


def eval_numeric(X, y, w, cases, n_classes, min_leaf):
    """One node: best cut of each numeric column of X (n, d): (corrected gain, split info, cut midpoint)."""
    order = np.argsort(X, axis=0, kind="stable").T  # NaN (unknown) sorts last
    xs = np.take_along_axis(np.asarray(X, float).T, order, axis=1)
    gain, info, cut = eval_numeric_sorted(
        xs, y[order], w[order], np.array([0, y.size]), np.array([cases]), n_classes, min_leaf
    )
    return gain[:, 0], info[:, 0], cut[:, 0]


def eval_numeric_sorted(xs, ys, ws, starts, cases, n_classes, min_leaf, dist=None):
    """Best cut per (numeric column, node), C4.5 ``EvalContinuousAtt`` for all nodes of a level at once.

    ``xs``, ``ys``, ``ws`` (columns, entries): values, classes and weights of each column's entries, sorted
    by node and then value (NaN last within a node); node ``j`` holds entries ``starts[j]:starts[j+1]``
    (the same in every column) and weighs ``cases[j]``. Returns (gain, split info, cut), each (columns,
    nodes). ``dist`` (nodes, classes), the nodes' class counts, may be given when no value is unknown;
    ``ws`` None then means unit weights.
    The weight below a position is a prefix sum over the level minus the sum before its node's first
    entry; a candidate's class counts add up the entries since the previous candidate of its node.
    """
    d, n = xs.shape
    m = cases.size
    node = np.repeat(np.arange(m), np.diff(starts))
    first, last = starts[:-1], starts[1:] - 1
    if ws is None:  # unit weights, nothing unknown: same in every column
        low = (np.arange(1.0, n + 1.0) - first[node])[None, :]
    else:
        if dist is None:
            ws = np.where(np.isnan(xs), 0.0, ws)  # unknown values weigh nothing here
        low = np.cumsum(ws, axis=1)  # weight at or below each position, within its node
        low -= np.where(first > 0, low[:, first - 1], 0.0)[:, node]
    known = low[:, last]  # (d or 1, m) known weight
    cell = np.arange(d)[:, None] * m + node  # (column, node) of each entry
    if dist is None:  # class counts of the known cases
        totals = np.bincount((cell * n_classes + ys).ravel(), ws.ravel(), minlength=d * m * n_classes).reshape(
            d, m, n_classes
        )
    else:
        totals = np.broadcast_to(dist, (d, m, n_classes))
    min_split = 0.1 * known / n_classes
    min_split = np.where(min_split <= min_leaf, min_leaf, np.minimum(min_split, 25.0))
    valid = np.zeros((d, n), bool)
    if n > 1:
        window = (
            (node[:-1] == node[1:])
            & (low[:, :-1] >= (min_split - WEIGHT_TOLERANCE)[:, node[:-1]])
            & (low[:, :-1] <= (known - min_split + WEIGHT_TOLERANCE)[:, node[:-1]])
        )
        valid[:, :-1] = window & (xs[:, :-1] < xs[:, 1:])
    valid &= (known >= 2 * min_leaf - WEIGHT_TOLERANCE)[:, node]
    low, known = np.broadcast_to(low, (d, n)), np.broadcast_to(known, (d, m))
    tries = np.add.reduceat(valid, first, axis=1, dtype=np.intp)  # valid cuts per (column, node)
    valid.ravel()[_inside_pure_run(xs, ys, node, valid, cell)] = False
    col, pos = np.nonzero(valid)  # candidates, grouped by (column, node)
    at = node[pos]
    group = col * m + at
    # class counts at or below each candidate: an entry counts for the first candidate at or after it in
    # its (column, node), i.e. slot (candidates before it) + (its cell number), which also gives the entries
    # after a cell's last candidate a slot of their own; prefix sums over a cell's candidates then give
    # the left branch
    flat_valid = valid.ravel()
    slot = np.cumsum(flat_valid) - flat_valid + cell.ravel()
    counts = np.bincount(
        slot * n_classes + ys.ravel(), None if ws is None else ws.ravel(), minlength=(group.size + d * m) * n_classes
    ).reshape(-1, n_classes)
    counts = np.take(counts, np.arange(group.size) + group, axis=0).astype(float, copy=False)
    begin = run_starts(group)
    # prefix sums restart at each column, so a column's bits do not depend on the block it is evaluated in
    lo = np.empty_like(counts)
    col_bounds = np.searchsorted(col, np.arange(d + 1))
    for a, b in zip(col_bounds[:-1].tolist(), col_bounds[1:].tolist()):
        np.cumsum(counts[a:b], axis=0, out=lo[a:b])
    if begin.size > 1:
        base = np.zeros((begin.size, n_classes))
        prev = begin[1:] - 1
        base[1:] = np.where((col[prev] == col[begin[1:]])[:, None], lo[prev], 0.0)
        lo -= np.repeat(base, run_lengths(begin, group.size), axis=0)
        np.maximum(lo, 0.0, out=lo)  # fractional weights: no -1e-17 left by the subtraction
    if dist is None:
        hi = np.take(totals.reshape(d * m, n_classes), group, axis=0) - lo
    else:
        hi = np.take(dist, at, axis=0) - lo
    np.maximum(hi, 0.0, out=hi)
    best_score = np.full(d * m, -np.inf)
    best_pos = np.zeros(d * m, np.intp)
    if group.size:
        near = _near_lowest_entropy(lo, hi, begin)  # the only candidates that can be a cell's best
        lo, hi, group, at, pos = lo[near], hi[near], group[near], at[near], pos[near]
        begin = run_starts(group)
        parent_info = np.take(entropy(totals), group) if dist is None else np.take(entropy(dist), at)
        gain_c = np.take(known, group) / cases[at] * (parent_info - _conditional_entropy(lo, hi))
        cost = np.log2(np.maximum(tries, 1)) / cases  # C4.5's Log(0) is 0
        score = gain_c - np.take(cost, group)
        top = np.maximum.reduceat(score, begin)
        is_top = score == np.repeat(top, run_lengths(begin, group.size))
        hits = np.flatnonzero(is_top)
        firsts = hits[run_starts(group[hits])]  # first maximum, as C4.5
        best_score[group[begin]] = top
        best_pos[group[firsts]] = pos[firsts]
    best_score, best_pos = best_score.reshape(d, m), best_pos.reshape(d, m)
    ok = best_score > 0
    gain = np.where(ok, best_score, -EPSILON)
    cols = np.arange(d)[:, None]
    low_b = low[cols, best_pos]
    split_sizes = np.stack([low_b, known - low_b, np.maximum(cases - known, 0.0)], axis=2)
    info = np.where(ok, entropy(split_sizes), 0.0)
    nxt = np.minimum(best_pos + 1, n - 1)
    cut = np.where(ok, (xs[cols, best_pos] + xs[cols, nxt]) / 2, np.nan)
    return gain, info, cut


def _inside_pure_run(xs, ys, node, valid, cell) -> np.ndarray:
    """Flat indices of valid cuts that cannot be the best: between two value groups of one and the same
    class, where the groups before and after are too, except the first and last valid cut of each
    (column, node) ``cell``.

    Fayyad & Irani (1992, "On the handling of continuous-valued attributes in decision tree
    generation", Theorem 1): along such a run the weighted class entropy of the two branches is strictly
    concave in the cut position, so its minimum (the best gain) lies at an end of the run. Skipping these
    cuts leaves the best cut, and its gain, unchanged; C4.5's ``tries`` still counts them.
    """
    d, n = xs.shape
    new_group = np.ones((d, n), bool)  # first entry of a value group within a node
    new_group[:, 1:] = (node[1:] != node[:-1]) | ~(xs[:, 1:] == xs[:, :-1])
    group_start = np.append(np.flatnonzero(new_group), d * n)
    y_flat = ys.ravel()
    changes = np.zeros(d * n, np.intp)  # class changes before each entry
    np.cumsum(y_flat[1:] != y_flat[:-1], out=changes[1:])
    cut = np.flatnonzero(valid)  # a valid cut ends a group; the next group follows
    g = (np.cumsum(new_group.ravel()) - 1)[cut]  # the group each cut ends
    # no class change from the start of the cut's group to the end of the next one
    inner = changes[group_start[g]] == changes[group_start[g + 2] - 1]
    cut_cell = cell.ravel()[cut]
    edge = np.ones(cut.size, bool)
    edge[1:-1] = (cut_cell[1:-1] != cut_cell[:-2]) | (cut_cell[1:-1] != cut_cell[2:])
    return cut[inner & ~edge]


def _near_lowest_entropy(lo: np.ndarray, hi: np.ndarray, begin: np.ndarray) -> np.ndarray:
    """Candidates (rows of the branch class counts ``lo``, ``hi``; a cell's rows from each ``begin``) whose split
    entropy is within ``SCREEN_MARGIN`` bits of their cell's lowest, in order.

    Within a cell the corrected gain falls as the split entropy rises (the known fraction, the parent's entropy and
    the cost are the cell's), so the best cut, and its exact gain, are among these. The screen ranks by ``N E`` in
    the form ``sum_branches (n log2 n - sum_k c_k log2 c_k)``, fewer passes than :func:`_conditional_entropy`; the
    two differ by rounding only (about 1e-15 log2 N bits), far below the margin.
    """
    size_lo, size_hi = _row_sums(lo), _row_sums(hi)
    terms = _x_log2_x(lo)
    terms += _x_log2_x(hi)
    score = _x_log2_x(size_lo) + _x_log2_x(size_hi) - _row_sums(terms)
    low = np.repeat(np.minimum.reduceat(score, begin), run_lengths(begin, score.size))
    return np.flatnonzero(score <= low + SCREEN_MARGIN * (size_lo + size_hi))


def _row_sums(a: np.ndarray) -> np.ndarray:
    """Row sums of a (rows, classes) array column by column: faster than sum(axis=1) over a few classes."""
    out = a[:, 0].copy()
    for k in range(1, a.shape[1]):
        out += a[:, k]
    return out


def _x_log2_x(a: np.ndarray) -> np.ndarray:
    """a log2 a, 0 at 0."""
    out = np.maximum(a, _TINY)
    np.log2(out, out=out)
    out *= a
    return out


def _conditional_entropy(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``criteria.conditional_entropy`` of the two-branch splits ``stack([lo, hi], 1)`` (candidates, K),
    both branches non-empty, with the same floating-point operations in the same order (same bits)."""
    size_lo, size_hi = lo.sum(axis=1), hi.sum(axis=1)
    return (size_lo * _entropy_rows(lo, size_lo) + size_hi * _entropy_rows(hi, size_hi)) / (size_lo + size_hi)


def _entropy_rows(counts: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``criteria.entropy`` of rows with a positive total, in fewer passes (same bits)."""
    p = counts / total[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = p * np.log2(p)
    terms[p == 0] = 0.0
    return -terms.sum(axis=1)
