"""nbx.core.sums: the compiled row sums add as numpy's row reductions do, bit for bit."""

import numpy as np

from nbx.core.sums import (
    block_sum,
    normalized_argmax,
    row_class_counts,
    row_sum,
    run_sums,
    table_row_sums,
    workspace,
)


def test_row_sum_is_numpys_row_sum():
    """Left to right below 8 terms, eight running sums up to 128, halves beyond, also for runs halved several
    times; and from an offset (block_sum) as numpy sums a slice."""
    rng = np.random.default_rng(3)
    right, left = workspace()
    for n in [*range(1, 300), 511, 1029, 4097, 20000]:
        x = rng.uniform(0.0, 1.0, (3, n + 5)) ** 3
        expected = x[:, :n].sum(axis=1)
        for row in range(3):
            assert row_sum(x[row], n, right, left) == expected[row]
            if n <= 128:
                assert block_sum(x[row], 5, n) == x[row, 5 : 5 + n].sum()


def test_a_run_of_negative_zeros_sums_to_zero_as_numpy():
    """numpy's reduction starts from its identity: 0.0 + the pairwise sum, so a run of -0.0 (a pure branch's
    counts minus themselves, say) sums to +0.0 at every length; the sign of a zero can reach a log or a division."""
    right, left = workspace()
    for n in [1, 7, 8, 9, 128, 129, 300]:
        x = np.full(n, -0.0)
        expected = x.sum()
        got = row_sum(x, n, right, left)
        assert got == expected and np.signbit(got) == np.signbit(expected) == False  # noqa: E712
        if n <= 128:
            assert not np.signbit(block_sum(x, 0, n))


def test_run_sums_are_numpys_row_sums_also_for_negative_zeros():
    """run_sums gives numpy's row sums bit for bit for runs of 1 to 300 terms (left to right, blocks, halving),
    strided runs included, and 0.0 for a run of -0.0 as numpy's reductions (which start from 0.0)."""
    rng = np.random.default_rng(9)
    for n in (1, 2, 7, 8, 9, 16, 17, 128, 129, 300):
        a = rng.normal(size=(6, n + 3)) * 10.0 ** rng.uniform(-5, 5, (6, n + 3))
        a[1, :n] = -0.0
        got = run_sums(a.reshape(-1), n + 3, n, 6)
        assert got.tobytes() == a[:, :n].sum(axis=1).tobytes()


def test_compiled_prediction_is_log_normalize_argmax():
    """_argmax_normalized(exp(_shifted(joint))) is argmax(log_normalize(joint)) bit for bit in its choice:
    ties (the first maximum), -inf scores, NaN rows (numpy's NaN-first rule), 1 to 26 classes."""
    from nbx.core.counting import log_normalize

    rng = np.random.default_rng(10)
    for k in (1, 2, 3, 8, 9, 26):
        joint = np.round(rng.normal(size=(400, k)) * 3.0)  # rounded: many ties
        joint[rng.random(joint.shape) < 0.05] = -np.inf
        joint[:5, 0] = 0.0  # a row with one finite score keeps it
        joint[5, rng.integers(k)] = np.nan
        with np.errstate(invalid="ignore"):
            expected = np.argmax(log_normalize(joint), axis=1)
            got = normalized_argmax(joint)
        assert got.tolist() == expected.tolist()


def test_boosting_sums_are_sum_rows_and_counts_at_bit_for_bit():
    """The compiled gather-sum and counts (naive Bayes' boosting rounds) equal ValueIndex.counts_at and sum_rows
    to the bit: fractional weights, missing values (the missing row), 2 to 26 classes, chunks of rows."""
    from nbx.core.counting import ValueIndex, sum_rows

    rng = np.random.default_rng(12)
    for k in (2, 3, 26):
        index = ValueIndex(rng.integers(1, 6, 9))
        codes = rng.integers(-1, 6, (5000, 9))
        rows = index.rows(codes)
        y, w = rng.integers(0, k, 5000), rng.random(5000) * 3
        assert row_class_counts(rows, y, w, index.n_rows + 1, k).tobytes() == index.counts_at(rows, y, w, k).tobytes()
        table = np.log(rng.random((index.n_rows + 1, k)))
        table[-1] = 0.0
        assert table_row_sums(table, rows).tobytes() == sum_rows(table, rows).tobytes()
