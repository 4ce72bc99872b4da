"""numpy's sums in compiled loops: the same additions in the same order as numpy's row reductions (pairwise
summation, numpy's ``pairwise_sum``), so a numba loop that sums a row gives numpy's bits. numpy adds a contiguous
run of fewer than 8 terms left to right; up to 128 terms in eight running sums (term i into sum i mod 8) combined
pairwise, then the rest left to right; a longer run is halved at a multiple of 8 and the halves' sums added. A
reduction starts from the identity, 0.0 + that sum: a run of -0.0 sums to 0.0 (any other sum is unchanged).

Built on them, for the boosting rounds of naive Bayes and the leveled trees: many short runs in one call
(:func:`run_sums`), ``argmax(log_normalize(joint))`` with numpy's exp (:func:`normalized_argmax`), a table's rows
gathered and summed (:func:`table_row_sums`) and the weighted value/class counts (:func:`row_class_counts`), each in
the order of the numpy expression it replaces. numba: import this module only where its loops pay (about 0.3 s)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def block_sum(a, start, n):
    """numpy's sum of a[start : start + n], n <= 128: left to right below 8 terms, else eight running sums
    combined pairwise, then the rest left to right."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[start + i]
        return res
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = 8
    while i < n - n % 8:
        j = start + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[start + i]
        i += 1
    return 0.0 + res  # the reduction's identity first (a half of row_sum may be -0.0 either way: 0.0 + at the end)


@njit(cache=True)
def row_sum(a, n, right, left):
    """numpy's sum of a[:n] (n >= 1) as its row reductions compute it: blocks of at most 128 terms
    (:func:`block_sum`), a longer run halved (at a multiple of 8) and the halves' sums added. numpy recurses;
    numba's cache cannot load a function calling a recursive one, so the halving is a loop over a stack:
    ``right`` the right halves still to sum, ``left`` the left halves' sums (:func:`workspace`)."""
    depth, start, m = 0, 0, n
    while True:
        while m > 128:
            h = m // 2
            h -= h % 8
            right[depth, 0], right[depth, 1] = start + h, m - h
            depth += 1
            m = h
        v = block_sum(a, start, m)
        while depth > 0 and right[depth - 1, 1] < 0:  # a right half done: add its left half's sum
            depth -= 1
            v = left[depth] + v
        if depth == 0:
            return 0.0 + v
        left[depth - 1] = v  # a left half done: its right half next
        start, m = right[depth - 1, 0], right[depth - 1, 1]
        right[depth - 1, 1] = -1


@njit(cache=True)
def workspace():
    """The (right, left) stack :func:`row_sum` needs: 64 halvings cover any length. Made once per loop, not per sum."""
    return np.empty((64, 2), np.int64), np.empty(64)


@njit(cache=True)
def run_sums(a, stride: int, n: int, count: int):
    """numpy's sums of ``count`` runs of the 1-D ``a``, run i = a[i * stride : i * stride + n], n >= 1, each as a
    row reduction adds it (from 0.0, so a run of -0.0 sums to 0.0). One call per batch of runs:
    a call per run costs more than a short run's sum, so runs below 8 terms, which numpy adds left to right
    (``block_sum``'s first case), are added here."""
    out = np.empty(count)
    if n < 8:
        for i in range(count):
            s = 0.0
            for x in range(i * stride, i * stride + n):
                s += a[x]
            out[i] = s
    elif n <= 128:
        for i in range(count):
            out[i] = block_sum(a, i * stride, n)
    else:
        right, left = workspace()
        for i in range(count):
            out[i] = row_sum(a[i * stride :], n, right, left)
    return out


@njit(cache=True)
def _shifted(joint):
    """``joint - joint.max(axis=1, keepdims=True)`` (a NaN in a row makes its maximum NaN, as numpy's)."""
    out = np.empty_like(joint)
    for i in range(joint.shape[0]):
        top = joint[i, 0]
        for c in range(1, joint.shape[1]):
            x = joint[i, c]
            if x != x:
                top = x
                break
            if x > top:
                top = x
        for c in range(joint.shape[1]):
            out[i, c] = joint[i, c] - top
    return out


@njit(cache=True)
def _argmax_normalized(p):
    """``np.argmax(p / p.sum(axis=1, keepdims=True), axis=1)`` for exp'd scores p (n, K): numpy's row sums, the
    division, and argmax's first maximum (a NaN counting as the maximum, as numpy's)."""
    n, k = p.shape
    sums = run_sums(p.reshape(-1), k, k, n)
    out = np.zeros(n, np.int64)
    for i in range(n):
        top = p[i, 0] / sums[i]
        if top != top:
            continue
        for c in range(1, k):
            x = p[i, c] / sums[i]
            if x != x:
                out[i] = c
                break
            if x > top:
                out[i], top = c, x
    return out


def normalized_argmax(joint: np.ndarray) -> np.ndarray:
    """``np.argmax(log_normalize(joint), axis=1)`` (:func:`nbx.core.counting.log_normalize`) with numpy's exp and
    the shift, row sums, division and argmax compiled in numpy's order: the same choice, ties and NaN included."""
    return _argmax_normalized(np.exp(_shifted(joint)))


@njit(cache=True)
def table_row_sums(table, rows):
    """``sum_rows(table, rows)`` (:mod:`nbx.core.counting`) for tables of K >= 2 columns: per row i the sum of
    table[rows[i, j]] over j, from 0.0 in attribute order, as numpy's reduction of the gather over its first axis
    adds them; shape (n, K)."""
    n, d = rows.shape
    k = table.shape[1]
    out = np.zeros((n, k))
    for i in range(n):
        for j in range(d):
            r = rows[i, j]
            for c in range(k):
                out[i, c] += table[r, c]
    return out


@njit(cache=True)
def row_class_counts(rows, y, w, n_table_rows, k):
    """``ValueIndex.counts_at`` (:mod:`nbx.core.counting`): weight w[i] added at (rows[i, j], y[i]) for each row i
    and attribute j in that order, as bincount adds the flat cells; shape (n_table_rows, k)."""
    out = np.zeros((n_table_rows, k))
    for i in range(rows.shape[0]):
        for j in range(rows.shape[1]):
            out[rows[i, j], y[i]] += w[i]
    return out
