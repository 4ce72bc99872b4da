"""The compiled loop of :func:`nbx.models.tan.pair_class_counts` for large inputs: the same additions in the
same order as its bincounts, bit for bit (``tests/models/test_tan.py``). A module of its own so that TAN on
small data, and a process that only imports nbx, do not load numba (about 0.4 s per process)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pair_cell_sums(rows, y, w, unit, side, n_classes, step):
    """Per block of ``step`` training rows, the weight of every row added to its d² cells ((class · side + value
    row of attribute i) · side + value row of attribute j) in row, then i, then j order, as a bincount of the
    block's cells does; each block's sums then added to the total, as ``out += np.bincount(...)`` does. ``unit``:
    every weight is 1 (the bincount of counts, exact integers either way)."""
    n, d = rows.shape
    out = np.zeros(n_classes * side * side)
    block = np.empty_like(out)
    for start in range(0, n, step):
        block[:] = 0.0
        for i in range(start, min(n, start + step)):
            weight = 1.0 if unit else w[i]
            for a in range(d):
                first = (y[i] * side + rows[i, a]) * side
                for b in range(d):
                    block[first + rows[i, b]] += weight
        for c in range(out.size):
            out[c] += block[c]
    return out
