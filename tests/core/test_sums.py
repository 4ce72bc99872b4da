"""nbx.core.sums: the compiled row sums add as numpy's row reductions do, bit for bit."""

import numpy as np

from nbx.core.sums import block_sum, row_sum, workspace


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
