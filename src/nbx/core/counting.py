"""Weighted frequency counting shared by naive Bayes, trees, TAN and the mixtures.

All attribute-value/class counts of a data set come from one ``np.bincount`` over a flat index
``offset[j] + code[i, j]`` (one row per attribute value, one column per class). Missing codes (-1) go to
an extra last row that every lookup treats as "no evidence", so missing values are skipped without masks.
"""

from __future__ import annotations

import numpy as np

_BLOCK = 1 << 16  # entries of a block of rows (:func:`row_blocks`): its temporaries stay in the cache
_LARGE = 1 << 18  # elements of a code matrix above which weighted counting goes column by column (less memory)


def row_blocks(n_rows: int, width: int, entries: int = _BLOCK):
    """Slices of about ``entries`` entries of an (n_rows, width) array, covering its rows in order: a pass of
    several elementwise steps over a large array keeps its temporaries in the cache."""
    step = max(1, entries // max(width, 1))
    return (slice(start, start + step) for start in range(0, n_rows, step))


def small_int(bound: int) -> np.dtype:
    """The smallest signed integer type holding -1 .. ``bound``: codes (-1 for missing) and table rows are exact in
    it, and an (n, d) array of them may take an eighth (int8) of an int64 one."""
    for dtype in (np.int8, np.int16, np.int32):
        if bound <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class ValueIndex:
    """Maps (attribute, value) pairs of discrete data to rows of a flat table.

    ``offsets[j]`` is the first row of attribute ``j``; row ``n_rows`` is the shared missing-value row.
    """

    def __init__(self, n_values):
        self.n_values = np.asarray(n_values, dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(self.n_values)[:-1]]).astype(np.int64)
        self.n_rows = int(self.n_values.sum())
        self.attribute_of_row = np.repeat(np.arange(len(self.n_values)), self.n_values)

    def rows(self, codes: np.ndarray, dtype=np.int64) -> np.ndarray:
        """Flat table rows for integer codes (n, d) as ``dtype`` (which must hold ``n_rows``); missing or
        out-of-range codes map to ``n_rows``. More rows than one block (:func:`row_blocks`) are made a block at a
        time (:meth:`block_rows`): no (n, d) temporaries besides the result."""
        if codes.shape[0] * max(codes.shape[1], 1) <= _BLOCK:
            return self._table_rows(codes, self.n_values, self.offsets).astype(dtype, copy=False)
        out = np.empty(codes.shape, dtype)
        for rows, table_rows in self.block_rows(codes, codes.shape[1]):
            out[rows] = table_rows
        return out

    def column_rows(self, code: np.ndarray, attribute: int) -> np.ndarray:
        """:meth:`rows` of one attribute's codes (n,)."""
        return self._table_rows(code, self.n_values[attribute], self.offsets[attribute])

    def _table_rows(self, codes, n_values, offsets) -> np.ndarray:
        """The rule of :meth:`rows`: code + the attribute's offset, ``n_rows`` for missing or out-of-range codes."""
        return np.where((codes >= 0) & (codes < n_values), codes + offsets, self.n_rows)

    def narrow_rows(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`rows` in the narrowest unsigned integer type that holds them (a byte up to 255 table rows): for
        rows kept long (a boosting run's rounds) or read by compiled loops, which read narrow rows faster."""
        return self.rows(codes, np.min_scalar_type(self.n_rows))

    def block_rows(self, codes: np.ndarray, width: int, entries: int = _BLOCK):
        """(slice, :meth:`rows` of ``codes[slice]``) over blocks of rows (:func:`row_blocks` of ``width``); when no
        code is missing or out of range, a block's rows are just codes + offsets (two reductions over the whole
        array instead of four passes per block)."""
        plain = codes.size == 0 or (codes.min() >= 0 and bool(np.all(codes.max(axis=0) < self.n_values)))
        for rows in row_blocks(codes.shape[0], width, entries):
            yield rows, (codes[rows] + self.offsets if plain else self.rows(codes[rows]))

    def counts(self, codes: np.ndarray, y: np.ndarray, weights: np.ndarray, n_classes: int) -> np.ndarray:
        """Weighted counts, shape (n_rows + 1, n_classes); the last row collects missing values.

        Unit weights: integer counts (exact in any order) added up over blocks of rows (:func:`row_blocks`), so
        no (n, d) temporary is made. Other weights: small inputs one bincount over the flat index, large ones
        one bincount per attribute column; each cell adds its rows' weights in row order either way, so the
        value rows are the same bits (the missing row, which no caller reads, may differ in the last bit).
        """
        size = (self.n_rows + 1) * n_classes
        if np.all(weights == 1.0):
            total = np.zeros(size, np.int64)
            for rows, table_rows in self.block_rows(codes, codes.shape[1]):
                total += np.bincount((table_rows * n_classes + y[rows, None]).ravel(), minlength=size)
            return total.astype(float).reshape(self.n_rows + 1, n_classes)
        if codes.size < _LARGE:
            return self.counts_at(self.rows(codes), y, weights, n_classes)
        out = np.zeros((self.n_rows + 1, n_classes))
        for j, (v, start) in enumerate(zip(self.n_values.tolist(), self.offsets.tolist())):
            cell = self._value_slots(codes[:, j], v) * n_classes + y  # slot 0 missing, 1..v values, v+1 invalid
            c = np.bincount(cell, weights=weights, minlength=(v + 2) * n_classes).reshape(v + 2, n_classes)
            out[start : start + v] = c[1 : v + 1]
            out[-1] += c[0] + c[v + 1]
        return out

    def counts_at(self, rows: np.ndarray, y: np.ndarray, weights: np.ndarray, n_classes: int) -> np.ndarray:
        """``counts`` for table rows already computed by :meth:`rows` (reused over many weightings)."""
        flat = rows.astype(np.intp, copy=False) * n_classes + y[:, None]  # (narrow rows: no overflow)
        w = np.broadcast_to(weights[:, None], flat.shape)
        return np.bincount(flat.ravel(), weights=w.ravel(), minlength=(self.n_rows + 1) * n_classes).reshape(
            self.n_rows + 1, n_classes
        )

    @staticmethod
    def _value_slots(column: np.ndarray, n_values: int) -> np.ndarray:
        """Codes of one column shifted to slots: 0 = missing (negative), 1..V = values, V+1 = code >= V."""
        slots = column.astype(np.intp)
        np.clip(slots, -1, n_values, out=slots)
        slots += 1
        return slots

    def per_attribute_totals(self, table: np.ndarray) -> np.ndarray:
        """Sum of a (n_rows[+1], K) table over the values of each attribute, shape (d, K)."""
        return (
            np.add.reduceat(table[: self.n_rows], self.offsets, axis=0)
            if self.n_rows
            else np.zeros((0, table.shape[1]))
        )

    def lookup_sum(self, table: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Sum over attributes of ``table[row(i, j)]``, shape (n, K); the missing row must hold zeros.

        :func:`sum_rows` of each block of rows (:func:`row_blocks`): the table rows of a block at a time, so no
        (n, d) temporary is made, and the gathers stay in the caches (about 3x faster than adding one
        attribute's (n, K) lookups at a time at 10^6 rows). A row's sum does not depend on the block.
        """
        out = np.empty((codes.shape[0], table.shape[1]))
        width = codes.shape[1] * table.shape[1]
        for rows, table_rows in self.block_rows(codes, width, max(1 << 16, 256 * width)):  # >= 256 rows: numpy's calls
            out[rows] = sum_rows(table, table_rows)
        return out


def run_starts(a: np.ndarray) -> np.ndarray:
    """Indices where a new run of equal values begins in a 1-D array (0 first)."""
    if not a.size:
        return np.zeros(0, np.intp)
    new = np.ones(a.size, bool)
    np.not_equal(a[1:], a[:-1], out=new[1:])
    return np.flatnonzero(new)


def run_lengths(starts: np.ndarray, size: int) -> np.ndarray:
    """Lengths of the runs that begin at ``starts`` in an array of ``size`` elements."""
    return np.diff(np.append(starts, size))


def present_classes(y: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The class indices present in ``y[rows]`` (as ``np.unique`` gives them, without its sort) and, for every
    class index up to ``y.max()``, its position among them: ``position[y[rows]]`` is ``np.unique``'s inverse."""
    present = np.bincount(y[rows], minlength=y.max() + 1) > 0
    return np.flatnonzero(present), np.cumsum(present) - 1


def sum_rows(table: np.ndarray, rows: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """``Σ_j table[rows[i, j]]``, shape (n, K), added in attribute order j = 0, 1, ...

    One (d, chunk, K) gather summed over its first axis adds whole rows of K in attribute order, the same
    sums as ``table[rows].sum(axis=1)`` without numpy's length-K inner loops. A one-column table is summed
    as that expression sums it (pairwise over the attributes). Chunked over instances so the gather stays
    small.
    """
    out = np.empty((rows.shape[0], table.shape[1]))
    for start in range(0, rows.shape[0], chunk):
        part = rows[start : start + chunk]
        if table.shape[1] == 1:
            out[start : start + chunk, 0] = np.take(table[:, 0], part).sum(axis=1)
        else:
            out[start : start + chunk] = np.add.reduce(np.take(table, part.T, axis=0), axis=0)
    return out


SHORT_ROW = 8  # numpy reduces a row of fewer values left to right (pairwise, 8 partial sums, from 8 on)


def row_reduce(ufunc: np.ufunc, a: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(a, axis=1, keepdims=True)`` of a 2-D array. Rows of fewer than SHORT_ROW values go as vector
    operations over the columns, from the ufunc's identity (if it has one) then left to right, as numpy reduces
    such a row, hence the same bits (the tests compare them, signed zeros and NaN included); numpy's reduction
    over a short last axis loops per row and is some 20x slower at 10^5 rows."""
    k = a.shape[1]
    if not 1 < k < SHORT_ROW:
        return ufunc.reduce(a, axis=1, keepdims=True)
    out = a[:, :1].copy()
    if ufunc.identity is not None:
        ufunc(ufunc.identity, out, out=out)
    for j in range(1, k):
        ufunc(out, a[:, j : j + 1], out=out)
    return out


def log_normalize(log_joint: np.ndarray) -> np.ndarray:
    """Row-wise softmax of log scores (stable under very negative values)."""
    p = np.exp(log_joint - row_reduce(np.maximum, log_joint))
    return p / row_reduce(np.add, p)


def logsumexp(a: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """log Σ exp(a) along an axis, shifted by the maximum (all -inf gives -inf); faster than logaddexp.reduce."""
    rows = a.ndim == 2 and axis in (1, -1)  # :func:`row_reduce`; otherwise numpy's reductions (methods: no wrapper)
    top = row_reduce(np.maximum, a) if rows else a.max(axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(a - top)
    with np.errstate(divide="ignore"):
        out = np.log(row_reduce(np.add, e) if rows else e.sum(axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def log_softmax(joint: np.ndarray) -> np.ndarray:
    """Row-wise log of normalized probabilities from log scores, shape (n, K)."""
    return joint - logsumexp(joint, axis=1, keepdims=True)
