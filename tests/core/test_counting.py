"""Tests of nbx.core.counting: counting and table sums by blocks of rows or by columns give the same bits as over
the whole flat index."""

import numpy as np
import pytest

from nbx.core import counting
from nbx.core.counting import ValueIndex, small_int


def _codes(rng, n, n_values, missing=True):
    codes = np.column_stack([rng.integers(0, v, n) for v in n_values])
    if missing:  # (else every code is in range: the blocks' table rows are codes + offsets)
        codes[rng.random(codes.shape) < 0.1] = -1  # missing
        codes[rng.random(codes.shape) < 0.02] = 99  # out of range: counted as missing
    return codes


def _brute_counts(codes, y, w, n_values, n_classes):
    """Row-by-row reference: value rows per attribute, missing/out-of-range codes in the last row."""
    offsets = np.r_[0, np.cumsum(n_values)[:-1]]
    out = np.zeros((sum(n_values) + 1, n_classes))
    for i in range(codes.shape[0]):
        for j, v in enumerate(n_values):
            c = codes[i, j]
            out[offsets[j] + c if 0 <= c < v else -1, y[i]] += w[i]
    return out


def _small_blocks(monkeypatch):
    """Blocks of a few rows, so every route runs over many of them."""
    blocks = counting.row_blocks
    monkeypatch.setattr(counting, "row_blocks", lambda n_rows, width, entries=None: blocks(n_rows, width, 40))


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.int32])
@pytest.mark.parametrize("missing", [True, False])
def test_rows_by_blocks_follow_the_rule_in_any_dtype(missing, dtype):
    """Table rows offset + code, the missing row for a negative or out-of-range code, made over more rows than one
    block and in the dtype asked for, from int8 or int64 codes."""
    rng = np.random.default_rng(4)
    n_values = [3, 1, 5, 2]
    index = ValueIndex(n_values)
    for codes in (_codes(rng, 40_000, n_values, missing), _codes(rng, 50, n_values, missing).astype(np.int8)):
        rows = index.rows(codes, dtype)
        offsets = np.r_[0, np.cumsum(n_values)[:-1]]
        expected = np.where((codes >= 0) & (codes < n_values), codes + offsets, index.n_rows)
        assert rows.dtype == dtype and np.array_equal(rows, expected)


def test_column_rows_are_rows_of_one_column():
    rng = np.random.default_rng(5)
    n_values = [3, 1, 5, 2]
    index, codes = ValueIndex(n_values), _codes(rng, 300, n_values)
    for j in range(len(n_values)):
        assert np.array_equal(index.column_rows(codes[:, j], j), index.rows(codes)[:, j])


@pytest.mark.parametrize("missing", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_counts_by_blocks_or_columns_equal_flat_counts(monkeypatch, unit, missing):
    rng = np.random.default_rng(0)
    n_values, n_classes = [2, 5, 3, 7], 3
    codes = _codes(rng, 3000, n_values, missing).astype(np.int16)
    y = rng.integers(0, n_classes, 3000)
    w = np.ones(3000) if unit else rng.random(3000) * 3
    index = ValueIndex(n_values)
    flat = index.counts_at(index.rows(codes), y, w, n_classes)  # one bincount over the whole flat index
    _small_blocks(monkeypatch)
    monkeypatch.setattr(counting, "_LARGE", 1)  # weighted: one bincount per column
    routed = index.counts(codes, y, w, n_classes)
    assert routed[:-1].tobytes() == flat[:-1].tobytes()  # each cell adds its rows in row order (or integers)
    np.testing.assert_allclose(routed[-1], flat[-1])  # missing row: same sum, any order
    np.testing.assert_allclose(flat, _brute_counts(codes, y, w, n_values, n_classes))


def _by_column_sum(index, table, codes):
    """The former large-input route: one attribute's (n, K) lookups added at a time, in attribute order."""
    rows = index.rows(codes)
    out = table[rows[:, 0]].copy()
    for j in range(1, codes.shape[1]):
        out += table[rows[:, j]]
    return out


@pytest.mark.parametrize("missing", [True, False])
@pytest.mark.parametrize("n_classes", [1, 2, 3, 9])
def test_lookup_sum_by_blocks_equals_gathered_and_by_column_sums(monkeypatch, n_classes, missing):
    rng = np.random.default_rng(1)
    n_values = [3, 4, 2, 6, 5, 3, 2, 4, 3, 2]  # ten attributes: numpy would sum a (n, 10) axis pairwise
    codes = _codes(rng, 2000, n_values, missing)
    index = ValueIndex(n_values)
    table = np.vstack(
        [
            rng.normal(size=(index.n_rows, n_classes)) * 10.0 ** rng.integers(-3, 4, (index.n_rows, 1)),
            np.zeros((1, n_classes)),
        ]
    )
    gathered = counting.sum_rows(table, index.rows(codes))  # every row at once
    _small_blocks(monkeypatch)
    by_blocks = index.lookup_sum(table, codes)
    assert by_blocks.tobytes() == gathered.tobytes()
    if n_classes > 1:  # (one class: numpy's pairwise sum over the attributes, as ``table[rows].sum(axis=1)``)
        assert by_blocks.tobytes() == _by_column_sum(index, table, codes).tobytes()
    np.testing.assert_allclose(gathered, table[index.rows(codes)].sum(axis=1), rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_present_classes_is_np_unique_without_the_sort(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 7, 60)
    rows = np.flatnonzero(rng.random(60) < 0.3)
    classes, position = counting.present_classes(y, rows)
    expected, inverse = np.unique(y[rows], return_inverse=True)
    assert np.array_equal(classes, expected) and np.array_equal(position[y[rows]], inverse)


@pytest.mark.parametrize("ufunc", [np.add, np.maximum])
@pytest.mark.parametrize("k", range(1, 11))
def test_row_reduce_is_numpys_reduction_to_the_bit(ufunc, k):
    """Short rows go column by column, left to right, as numpy reduces them: the same bits, with signed zeros,
    infinities, NaN and magnitudes far apart (rows of 8 values or more are numpy's own pairwise reduction)."""
    rng = np.random.default_rng(k)
    a = rng.normal(size=(3000, k)) * 10.0 ** rng.integers(-20, 20, (3000, k))
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 5e-324])
    mask = rng.random(a.shape) < 0.1
    a[mask] = rng.choice(special, mask.sum())
    with np.errstate(invalid="ignore", over="ignore"):
        expected = ufunc.reduce(a, axis=1, keepdims=True)
        got = counting.row_reduce(ufunc, a)
    assert got.shape == expected.shape and got.tobytes() == expected.tobytes()


def test_small_int_holds_the_bound():
    assert [small_int(b) for b in (0, 127, 128, 40_000, 1 << 40)] == [np.int8, np.int8, np.int16, np.int32, np.int64]
