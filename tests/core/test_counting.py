"""Tests of nbx.core.counting: the column-by-column path for large inputs gives the same bits as the flat one."""

import numpy as np
import pytest

from nbx.core import counting
from nbx.core.counting import ValueIndex


def _codes(rng, n, n_values):
    codes = np.column_stack([rng.integers(0, v, n) for v in n_values])
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


@pytest.mark.parametrize("unit", [True, False])
def test_large_counts_equal_flat_counts(monkeypatch, unit):
    rng = np.random.default_rng(0)
    n_values, n_classes = [2, 5, 3, 7], 3
    codes = _codes(rng, 3000, n_values).astype(np.int16)
    y = rng.integers(0, n_classes, 3000)
    w = np.ones(3000) if unit else rng.random(3000) * 3
    index = ValueIndex(n_values)
    flat = index.counts(codes, y, w, n_classes)
    monkeypatch.setattr(counting, "_LARGE", 1)
    by_column = index.counts(codes, y, w, n_classes)
    assert by_column[:-1].tobytes() == flat[:-1].tobytes()  # each cell adds its rows in row order
    np.testing.assert_allclose(by_column[-1], flat[-1])  # missing row: same sum, any order
    np.testing.assert_allclose(flat, _brute_counts(codes, y, w, n_values, n_classes))


@pytest.mark.parametrize("n_classes", [1, 2, 3, 9])
def test_large_lookup_sum_equals_gathered_sum(monkeypatch, n_classes):
    rng = np.random.default_rng(1)
    n_values = [3, 4, 2, 6, 5, 3, 2, 4, 3, 2]  # ten attributes: numpy would sum a (n, 10) axis pairwise
    codes = _codes(rng, 2000, n_values)
    index = ValueIndex(n_values)
    table = np.vstack(
        [
            rng.normal(size=(index.n_rows, n_classes)) * 10.0 ** rng.integers(-3, 4, (index.n_rows, 1)),
            np.zeros((1, n_classes)),
        ]
    )
    gathered = index.lookup_sum(table, codes)
    monkeypatch.setattr(counting, "_LARGE", 1)
    by_column = index.lookup_sum(table, codes)
    assert by_column.tobytes() == gathered.tobytes()
    rows = index.rows(codes)
    np.testing.assert_allclose(gathered, table[rows].sum(axis=1), rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_present_classes_is_np_unique_without_the_sort(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 7, 60)
    rows = np.flatnonzero(rng.random(60) < 0.3)
    classes, position = counting.present_classes(y, rows)
    expected, inverse = np.unique(y[rows], return_inverse=True)
    assert np.array_equal(classes, expected) and np.array_equal(position[y[rows]], inverse)
