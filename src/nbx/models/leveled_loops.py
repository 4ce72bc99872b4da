"""The compiled (numba) loops of :class:`nbx.models.leveled_tree.LeveledNBTree`, one tree level at a time: the
level's weighted counts, the local naive Bayes tables of its nodes (Ting & Zheng 2003 §3.1's m-estimates, kept
compact), C4.5's multiway gains and test selection, the routing of rows to the next level, and the log joints a
level's nodes give. Each does the arithmetic of the array code it replaced in that code's order, to the bit
(``tests/models/test_leveled_tree.py`` keeps the array forms as references); their logarithms are numpy's,
taken between two loops, where the C library's would not be numpy's to the last bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from nbx.core.sums import run_sums
from nbx.models.leveled_cuts import MIN_BRANCH, TOL, WEIGHT_TOL

DENSE_TABLE_MAX = 1 << 15  # entries (nodes x table rows x classes) up to which a level keeps its tables dense


@njit(cache=True)
def level_counts(flat, y, w, rows, local, n_nodes: int, n_table: int, k: int):
    """Weighted counts of a tree level, shape (n_nodes, n_table, k), and its class totals (n_nodes, k): row
    ``rows[i]`` adds its weight at (its node ``local[i]``, the table row of each attribute, its class). The
    additions of a weighted ``np.bincount`` over the flattened (row, attribute) cells and of one over (node,
    class), in the same order (rows as given, attributes left to right), so the same bits, without the (rows, d)
    index and weight arrays a bincount needs."""
    out = np.zeros((n_nodes, n_table, k))
    class_counts = np.zeros((n_nodes, k))
    for i in range(rows.shape[0]):
        r = rows[i]
        node, c, weight = local[i], y[r], w[r]
        class_counts[node, c] += weight
        for j in range(flat.shape[1]):
            out[node, flat[r, j], c] += weight
    return out, class_counts


@njit(cache=True)
def table_arguments(counts, class_counts, observed, weight, attribute_of_row, n_values, m, drop):
    """The arguments of every log the local NBs of a tree level take (:func:`level_tables`), in one
    array for one numpy log, and the rows of the level's compact table (:func:`assemble_tables`) that each node's
    table rows read. p_v = (n_jv + 1) / (n_j + |V_j|) is §3.1's m-estimate prior; a zero count's n_cjv + m p_v is m p_v
    (0 + x = x), and every value a node has not seen (n_jv = 0) has the same p_v = 1 / (n_j + |V_j|).

    The arguments, node by node: n_cj + m (d, K), n_c + 1 (K), n + K; then per attribute not dropped the m p_v of
    its unseen values; then per seen value of those attributes its m p_v and n_cjv + m p_v for its nonzero counts.
    ``rows_of`` (n_nodes, n_rows + 1): a table row's row in the compact table, in the order of those m p_v: one
    row per (node, attribute not dropped) for its unseen values, one per seen value, and row 0 (zeros) for the
    dropped attributes and the missing value."""
    n_nodes, n_table, k = counts.shape
    n_rows, d = n_table - 1, observed.shape[1]
    value_sums = run_sums(counts.reshape(-1), k, k, n_nodes * n_table).reshape(n_nodes, n_table)
    observed_sums = run_sums(observed.reshape(-1), k, k, n_nodes * d).reshape(n_nodes, d)
    # room for every argument a level could take (pages never written are never touched), args[:at] returned
    args = np.empty(n_nodes * (d * k + k + 1 + d + n_rows * (1 + k)))
    n_compact = 1
    rows_of = np.zeros((n_nodes, n_table), np.int32)
    unseen = np.empty(d, np.int64)
    at = 0
    for t in range(n_nodes):
        for j in range(d):
            for c in range(k):
                args[at] = observed[t, j, c] + m
                at += 1
        for c in range(k):
            args[at] = class_counts[t, c] + 1.0
            at += 1
        args[at] = weight[t] + k
        at += 1
    for t in range(n_nodes):
        for j in range(d):
            if not drop[t, j]:
                unseen[j] = n_compact
                n_compact += 1
                args[at] = m * (1.0 / (observed_sums[t, j] + n_values[j]))  # n_jv + 1 = 0.0 + 1.0
                at += 1
        for r in range(n_rows):
            j = attribute_of_row[r]
            if drop[t, j]:
                continue
            if value_sums[t, r] > 0:
                rows_of[t, r] = n_compact
                n_compact += 1
                m_p = m * ((value_sums[t, r] + 1.0) / (observed_sums[t, j] + n_values[j]))
                args[at] = m_p
                at += 1
                for c in range(k):
                    if counts[t, r, c] > 0:
                        args[at] = counts[t, r, c] + m_p
                        at += 1
            else:
                rows_of[t, r] = unseen[j]
    return args[:at], rows_of, n_compact


@njit(cache=True)
def assemble_tables(counts, logs, rows_of, n_compact: int, attribute_of_row, drop, d: int):
    """The local NBs' log priors (n_nodes, K) and the level's compact log table (K, n_compact) from the logs of
    :func:`table_arguments`' arguments, read in its order: log P(c) = log(n_c + 1) - log(n + K) and
    log P(v | c) = log(n_cjv + m p_v) - log(n_cj + m). Node t's table row r is compact[:, rows_of[t, r]] (class-major:
    the log joints read a class at a time); row 0, of the dropped attributes and the missing value, is 0."""
    n_nodes, n_table, k = counts.shape
    n_rows, per_node = n_table - 1, d * k + k + 1
    log_prior = np.empty((n_nodes, k))
    for t in range(n_nodes):
        base = t * per_node + d * k
        for c in range(k):
            log_prior[t, c] = logs[base + c] - logs[base + k]
    compact = np.zeros((k, n_compact))
    at, row = n_nodes * per_node, 1
    for t in range(n_nodes):
        base = t * per_node
        for j in range(d):
            if not drop[t, j]:
                for c in range(k):
                    compact[c, row] = logs[at] - logs[base + j * k + c]
                at += 1
                row += 1
        for r in range(n_rows):
            if rows_of[t, r] != row:  # dropped, or an unseen value
                continue
            j = attribute_of_row[r]
            zero = logs[at]
            at += 1
            for c in range(k):
                if counts[t, r, c] > 0:
                    num = logs[at]
                    at += 1
                else:
                    num = zero
                compact[c, row] = num - logs[base + j * k + c]
            row += 1
    return log_prior, compact


@njit(cache=True)
def dense_tables(rows_of, compact):
    """A level's compact table as one dense (n_nodes, table rows, K) array: node t's table row v is
    compact[:, rows_of[t, v]]."""
    n_nodes, n_table = rows_of.shape
    k = compact.shape[0]
    out = np.empty((n_nodes, n_table, k))
    for t in range(n_nodes):
        for v in range(n_table):
            at = rows_of[t, v]
            for c in range(k):
                out[t, v, c] = compact[c, at]
    return out


def level_tables(counts, class_counts, observed, weight, index, m, drop):
    """The local NBs of a level's nodes: log priors (n_nodes, K) and log tables, the rows of the attributes
    ``drop`` leaves out (n_nodes, d) and the missing row 0. The tables of a small level are one dense (n_nodes,
    n_rows + 1, K) array; a large level's are (rows_of, compact), node t's table row v being
    compact[:, rows_of[t, v]]: most of a deep level's entries are for values its node has not seen, which
    depend on the attribute only and are kept once per (node, attribute), a fraction of the dense array's
    memory and time. (The dense one reads faster: small levels, whose memory is no matter, keep it.)

    ``nb_log_tables(prior="m_estimate")`` (§3.1) written out for many nodes at once, with the same arithmetic
    term by term; ``observed`` are the per-attribute class totals n_cj (n_nodes, d, K), ``index`` the table's
    :class:`~nbx.core.counting.ValueIndex`. The logs are numpy's, all of the level's in one call between
    :func:`table_arguments` and :func:`assemble_tables`: a compiled log is not numpy's to the last bit."""
    args, rows_of, n_compact = table_arguments(
        counts, class_counts, observed, weight, index.attribute_of_row, index.n_values, m, drop
    )
    log_prior, compact = assemble_tables(
        counts, np.log(args), rows_of, n_compact, index.attribute_of_row, drop, observed.shape[1]
    )
    if counts.size <= DENSE_TABLE_MAX:
        return log_prior, dense_tables(rows_of, compact)
    return log_prior, (rows_of, compact)


@njit(cache=True)
def gain_arguments(counts, class_counts, observed, nodes, columns, offsets, n_values, vmax: int):
    """First half of the multiway tests' gains for the nodes ``nodes`` and attributes ``columns`` of a tree level.
    Per (node, attribute) its (value | unknown, class) grid, the values padded with zero branches to ``vmax`` and
    the unknown branch (n_c - n_cj, floored at 0) last, as the former array form built it; from it the branch
    weights (n, a, vmax + 1), the known weights (n, a), and the class frequencies whose log2 the entropies need
    (n, a, vmax * K + K + vmax + 1): each value branch's classes, the known rows' classes, the branch weights
    (split information); and those > 0, in that order, for one numpy log2. Every sum is the one
    ``criteria.entropy`` and the array forms take, in numpy's order."""
    n, a, k = nodes.shape[0], columns.shape[0], counts.shape[2]
    block = (vmax + 1) * k
    grid = np.zeros((n, a, vmax + 1, k))
    for i in range(n):
        t = nodes[i]
        for jj in range(a):
            j = columns[jj]
            start = offsets[j]
            for v in range(n_values[j]):
                for c in range(k):
                    grid[i, jj, v, c] = counts[t, start + v, c]
            for c in range(k):
                grid[i, jj, vmax, c] = max(class_counts[t, c] - observed[t, j, c], 0.0)
    flat = grid.reshape(-1)
    sizes = run_sums(flat, k, k, n * a * (vmax + 1)).reshape(n, a, vmax + 1)
    known = run_sums(flat, block, vmax * k, n * a).reshape(n, a)
    # the known rows' classes: the value branches added in value order (numpy's sum over a non-last axis)
    parent = np.empty((n, a, k))
    for i in range(n):
        for jj in range(a):
            for c in range(k):
                s = grid[i, jj, 0, c]
                for v in range(1, vmax):
                    s += grid[i, jj, v, c]
                parent[i, jj, c] = s
    parent_sums = run_sums(parent.reshape(-1), k, k, n * a).reshape(n, a)
    size_sums = run_sums(sizes.reshape(-1), vmax + 1, vmax + 1, n * a).reshape(n, a)
    # the frequencies, then those > 0 in this order: value branches' classes, known rows' classes, branch weights
    branch_p = np.zeros((n, a, vmax, k))
    parent_p = np.zeros((n, a, k))
    size_p = np.zeros((n, a, vmax + 1))
    for i in range(n):
        for jj in range(a):
            for v in range(vmax):
                if sizes[i, jj, v] > 0:
                    for c in range(k):
                        branch_p[i, jj, v, c] = grid[i, jj, v, c] / sizes[i, jj, v]
            if parent_sums[i, jj] > 0:
                for c in range(k):
                    parent_p[i, jj, c] = parent[i, jj, c] / parent_sums[i, jj]
            if size_sums[i, jj] > 0:
                for v in range(vmax + 1):
                    size_p[i, jj, v] = sizes[i, jj, v] / size_sums[i, jj]
    positive = np.empty(branch_p.size + parent_p.size + size_p.size)
    at = 0
    for f in (branch_p.reshape(-1), parent_p.reshape(-1), size_p.reshape(-1)):
        for x in range(f.shape[0]):
            if f[x] > 0:
                positive[at] = f[x]
                at += 1
    return sizes, known, branch_p, parent_p, size_p, positive[:at]


@njit(cache=True)
def entropies(p, logs, at: int, n: int):
    """``criteria.entropy`` of each run of n frequencies of the flat ``p``, the log2 of its entries > 0 read from
    logs[at:] in order: the terms p log2 p (0 where p = 0), their numpy sum, negated. Returns (entropies, the next
    unread log)."""
    terms = np.zeros(p.shape[0])
    for x in range(p.shape[0]):
        if p[x] > 0:
            terms[x] = logs[at] * p[x]
            at += 1
    return -run_sums(terms, n, n, p.shape[0] // n), at


@njit(cache=True)
def gains(
    sizes,
    known,
    branch_p,
    parent_p,
    size_p,
    logs,
    weight,
    nodes,
    used,
    columns,
    min_split,
    children: bool,
    gain,
    split,
    admissible,
):
    """Second half of the multiway tests, from :func:`gain_arguments`' output and the log2 of its positive
    frequencies: C4.5's gain (the known fraction times the known rows' entropy less the branches' weighted
    entropies), split information (with the unknown branch) and admissibility, written at (node, column)."""
    n, a, vmax = branch_p.shape[0], branch_p.shape[1], branch_p.shape[2]
    branch_h, at = entropies(branch_p.reshape(-1), logs, 0, branch_p.shape[3])
    known_h, at = entropies(parent_p.reshape(-1), logs, at, parent_p.shape[2])
    info, at = entropies(size_p.reshape(-1), logs, at, vmax + 1)
    weighted = np.empty(n * a * vmax)
    for x in range(weighted.shape[0]):
        weighted[x] = sizes[x // vmax // a, x // vmax % a, x % vmax] * branch_h[x]
    weighted_sums = run_sums(weighted, vmax, vmax, n * a)
    known_sizes = run_sums(sizes.reshape(-1), vmax + 1, vmax, n * a)
    for i in range(n):
        total = weight[nodes[i]]
        for jj in range(a):
            x, j = i * a + jj, columns[jj]
            cond = weighted_sums[x] / known_sizes[x] if known_sizes[x] > 0 else 0.0
            gain[i, j] = (known[i, jj] / total if total > 0 else 0.0) * (known_h[x] - cond)
            split[i, j] = info[x]
            # C4.5 admits two branches of >= 2; the children reading also wants every non-empty child, the
            # unknown rows in the largest branch (argmax's first maximum), to hold min_split
            ok = not used[i, j] and split[i, j] > TOL
            if ok:
                big, n_big = 0, 0
                for v in range(vmax):
                    n_big += sizes[i, jj, v] >= MIN_BRANCH
                    if sizes[i, jj, v] > sizes[i, jj, big]:
                        big = v
                ok = n_big >= 2
                if ok and children:
                    for v in range(vmax):
                        child = sizes[i, jj, v] + sizes[i, jj, vmax] if v == big else sizes[i, jj, v]
                        if child > 0 and not child >= min_split - WEIGHT_TOL:
                            ok = False
            admissible[i, j] = ok


def multiway_gains(counts, class_counts, observed, weight, nodes, columns, used, index, min_split, children, out):
    """C4.5's gain, split information and admissibility of the multiway tests of ``columns`` at a level's ``nodes``
    (``used``: the attributes on each one's path), written into ``out`` = (gain, split, admissible) at (node,
    column): :func:`gain_arguments`, one numpy log2 of its positive frequencies, :func:`gains`."""
    vmax = int(index.n_values.max())
    *grids, positive = gain_arguments(
        counts, class_counts, observed, nodes, columns, index.offsets, index.n_values, vmax
    )
    gains(*grids, np.log2(positive), weight, nodes, used, columns, min_split, children, *out)


@njit(cache=True)
def select_tests(gain, split, admissible, threshold):
    """C4.5's choice per node: among the admissible tests whose gain is at least the average gain of the
    admissible ones (numpy's sum of them in attribute order) and positive, the largest gain ratio (the first on
    ties, as numpy's argmax); (attribute, threshold) per node, -1 where no test qualifies."""
    n, d = gain.shape
    buf = np.empty(d)
    best = np.full(n, -1)
    thr = np.full(n, -1)
    for i in range(n):
        count = 0
        for j in range(d):
            if admissible[i, j]:
                buf[count] = gain[i, j]
                count += 1
        if count == 0:
            continue
        average = run_sums(buf, count, count, 1)[0] / count
        top = -np.inf
        for j in range(d):
            g = gain[i, j]
            if admissible[i, j] and g >= average - TOL and g > TOL:
                ratio = g / (split[i, j] if split[i, j] > 0 else 1.0)
                if best[i] < 0 or ratio > top or (ratio != ratio and top == top):
                    best[i], top = j, ratio
        if best[i] >= 0:
            thr[i] = threshold[i, best[i]]
    return best, thr


@njit(cache=True)
def split_rows(codes, w, rows, local, attr, thr, stop, first: int, n_nodes: int, vmax: int):
    """The rows of a tree level at its split nodes: each row's branch under its node's test (the value of a
    multiway test, ``code > t`` of a cut; -1 when the value is missing) and the known rows' weight per (node,
    branch), added in row order as a weighted ``np.bincount`` adds them. A row whose node is a leaf, or whose
    split value is missing, gets ``stop`` = its node (global id ``first`` + local) unless it has one already
    (``apply``'s node). Returns (branch per row, -2 for rows at leaves; branch weights (n_nodes, vmax))."""
    branch = np.empty(rows.shape[0], np.int64)
    branch_w = np.zeros((n_nodes, vmax))
    for i in range(rows.shape[0]):
        r, t = rows[i], local[i]
        a = attr[t]
        if a < 0:
            branch[i] = -2
        else:
            v = codes[r, a]
            if v < 0:
                branch[i] = -1
            else:
                branch[i] = (v > thr[t]) if thr[t] >= 0 else v
                branch_w[t, branch[i]] += w[r]
                continue
        if stop[r] < 0:
            stop[r] = first + t
    return branch, branch_w


@njit(cache=True)
def route_rows(rows, local, branch, branch_w, child):
    """The rows that reach the next level and their nodes there: a row goes to its branch's child, a row whose
    split value is missing to its node's largest branch (numpy's argmax, the first on ties); rows at leaves
    and in branches without a child (no training weight) go nowhere."""
    n_nodes, vmax = branch_w.shape
    largest = np.zeros(n_nodes, np.int64)
    for t in range(n_nodes):
        for b in range(1, vmax):
            if branch_w[t, b] > branch_w[t, largest[t]]:
                largest[t] = b
    out_rows = np.empty(rows.shape[0], np.int64)
    out_local = np.empty(rows.shape[0], np.int64)
    n = 0
    for i in range(rows.shape[0]):
        b = branch[i]
        if b == -2:
            continue
        t = local[i]
        nxt = child[t, b if b >= 0 else largest[t]]
        if nxt >= 0:
            out_rows[n], out_local[n] = rows[i], nxt
            n += 1
    return out_rows[:n], out_local[:n]


@njit(cache=True)
def route_codes(codes, attribute, threshold, n_values, children, child_offset):
    """``apply``'s node per row: down the tree from the root while the node has a test, the row's value is known
    (a code never seen in training, >= ``n_values``, counts as missing) and its branch got training data."""
    node = np.zeros(codes.shape[0], np.int64)
    for r in range(codes.shape[0]):
        t = 0
        while attribute[t] >= 0:
            a = attribute[t]
            v = codes[r, a]
            if v < 0 or v >= n_values[a]:
                break
            nxt = children[child_offset[t] + ((v > threshold[t]) if threshold[t] >= 0 else v)]
            if nxt < 0:
                break
            t = nxt
        node[r] = t
    return node


@njit(cache=True)
def dense_log_joint(log_priors, log_tables, first: int, node, flat, rows, out) -> None:
    """out[r] = log P(c) + Σ_j log P(x_j | c) under the NB of node ``node[r]`` for the rows ``rows`` whose nodes
    are in one tree level, whose first node is ``first`` and whose tables are ``log_tables`` (n_nodes, table
    rows, K): the node's prior plus its table rows ``flat[r]`` added in attribute order, the arithmetic of
    ``counting.sum_rows`` without its (d, n, K) gather (``sum_rows`` adds a one-class table pairwise instead; a
    one-class model's probabilities are 1 either way)."""
    d, k = flat.shape[1], log_priors.shape[1]
    for r in rows:
        t = node[r]
        for c in range(k):
            s = log_tables[t - first, flat[r, 0], c]
            for j in range(1, d):
                s += log_tables[t - first, flat[r, j], c]
            out[r, c] = log_priors[t, c] + s


@njit(cache=True)
def compact_log_joint(log_priors, rows_of, table, first: int, node, flat, rows, out) -> None:
    """:func:`dense_log_joint` on a level's compact table (:func:`assemble_tables`), node t's table row v being
    table[:, rows_of[t - first, v]]: the same additions in the same order."""
    d, k = flat.shape[1], log_priors.shape[1]
    at = np.empty(d, np.int64)  # the row's compact rows, gathered once for all classes
    for r in rows:
        t = node[r]
        for j in range(d):
            at[j] = rows_of[t - first, flat[r, j]]
        for c in range(k):
            entries = table[c]
            s = entries[at[0]]
            for j in range(1, d):
                s += entries[at[j]]
            out[r, c] = log_priors[t, c] + s
