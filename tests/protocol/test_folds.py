"""Per-fold preprocessing: the impute order of Kang & Tian (discretize, then the mode of the codes)."""

import numpy as np

from nbx.data.prepare import Table
from nbx.protocol.folds import discretize_splits

ATTRS = [{"name": "x", "kind": "numeric", "values": []}, {"name": "a", "kind": "nominal", "values": ["p", "q", "r"]}]


def _table(x, a):
    return Table("toy", np.column_stack([x, a]).astype(float), np.arange(len(x)) % 2, ATTRS, ["0", "1"])


def _codes(table, test, how):
    codes, _ = discretize_splits(table, test[None, :], {"kind": "equal_width", "bins": 10}, how)
    return codes[0]


def test_mode_after_discretize_uses_the_training_mode_of_the_codes_only():
    # training x: many values in the lowest bin, a few far out (the mean's bin is not the mode's bin)
    x = np.array([0.0, 0.1, 0.2, 0.3, 10.0, np.nan, np.nan, 5.0, 5.0, 5.0, 5.0, np.nan])
    a = np.array([0, 0, 1, 1, 1, np.nan, 2, 2, 2, 2, 2, np.nan])
    test = np.zeros(len(x), bool)
    test[7:] = True  # test rows: x = 5 (bin 5) and a = r (2) would be the modes
    codes = _codes(_table(x, a), test, "mode_after_discretize")
    assert codes[5, 0] == 0 and codes[11, 0] == 0  # the training mode bin of x, also for the test row
    assert codes[5, 1] == 1 and codes[11, 1] == 1  # the training mode of a (q: 3 of 5 observed)
    before = _codes(_table(x, a), test, "mode")
    assert before[5, 0] == 2  # imputing first: the training mean 2.12 -> bin 2
    # test rows never influence the imputed value: change them and the training part stays the same
    x2, a2 = x.copy(), a.copy()
    x2[7:11], a2[7:11] = 0.25, 0
    again = _codes(_table(x2, a2), test, "mode_after_discretize")
    np.testing.assert_array_equal(again[~test], codes[~test])
    assert again[11, 0] == codes[11, 0] and again[11, 1] == codes[11, 1]
    assert np.all(codes >= 0)
