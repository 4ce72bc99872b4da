"""NBTree (Kohavi 1996): CV accuracy from counts vs brute-force refits, known splits, determinism."""

import numpy as np
import pytest

from nbx.core.counting import ValueIndex
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.nbtree import (
    NBTree,
    _add_counts,
    _predicts_own_class,
    branch_codes,
    branch_rows,
    nb_cv_correct,
    node_values,
)


def _cv_brute(codes, y, w, folds, F, nv, K):
    """Refit NaiveBayes (knowing all K classes) on every training fold and count correct predictions."""
    correct = 0.0
    for f in range(F):
        tr, te = folds != f, folds == f
        if not te.any():
            continue
        Xa = np.vstack([codes[tr], -np.ones((K, codes.shape[1]), int)])
        ya = np.concatenate([y[tr], np.arange(K)])
        wa = np.concatenate([w[tr], np.zeros(K)])
        nb = NaiveBayes().fit(Xa, ya, sample_weight=wa, n_values=nv)
        pred = np.argmax(nb._class_scores(codes[te]), axis=1)
        correct += np.sum(w[te] * (pred == y[te]))
    return correct


@pytest.mark.parametrize("unit_weights", [False, True])  # unit weights take the integer-count path
def test_cv_from_counts_equals_refitting(unit_weights):
    rng = np.random.default_rng(0)
    n, nv, K, F = 80, np.array([3, 2, 4]), 3, 5
    codes = np.column_stack([rng.integers(0, v, n) for v in nv])
    codes[rng.random((n, 3)) < 0.1] = -1
    codes[:, 2] = np.where(codes[:, 2] == 3, 2, codes[:, 2])  # a value absent from the node
    y = rng.integers(0, K, n)
    w = np.ones(n) if unit_weights else rng.uniform(0.5, 2.0, n)
    folds = rng.permutation(n) % F
    idx = ValueIndex(nv)
    node = nb_cv_correct(codes, y, w, folds, F, idx, K)[0]
    assert node == pytest.approx(_cv_brute(codes, y, w, folds, F, nv, K))
    # Splits on every attribute (missing -> value 0 here): children cross-validated with the node's folds.
    branch = np.where(codes >= 0, codes, 0)
    groups = idx.offsets[None, :] + branch
    split = nb_cv_correct(codes, y, w, folds, F, idx, K, groups=groups, n_groups=idx.n_rows)
    for j in range(3):
        expected = sum(
            _cv_brute(
                codes[branch[:, j] == v], y[branch[:, j] == v], w[branch[:, j] == v], folds[branch[:, j] == v], F, nv, K
            )
            for v in range(nv[j])
        )
        assert split[j] == pytest.approx(expected)


@pytest.mark.parametrize("d", [0, 1, 5])
def test_compiled_scores_pick_numpys_argmax(d):
    """The compiled scoring equals numpy's: the table rows added in attribute order, then argmax (first maximum,
    first NaN) of prior + sum; small integers make ties, -inf and NaN entries the other cases."""
    rng = np.random.default_rng(3)
    n, J, K, M, R = 300, 4, 5, 6, 7
    table = rng.integers(-3, 1, (M * R, K)).astype(float)
    table[rng.random(table.shape) < 0.05] = -np.inf
    table[rng.random(table.shape) < 0.02] = np.nan
    prior = rng.integers(-2, 1, (M, K)).astype(float)
    model, rows, y = rng.integers(0, M, (n, J)), rng.integers(0, R, (n, d)), rng.integers(0, K, n)
    total = np.zeros((n, J, K))
    for a in range(d):
        total = table[model * R + rows[:, None, a]] if a == 0 else total + table[model * R + rows[:, None, a]]
    expected = np.argmax(prior[model] + total, axis=2) == y[:, None]
    assert (_predicts_own_class(prior, table, model, rows, R, y) == expected).all()


def _xor(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 4))
    y = X[:, 0] ^ X[:, 1]
    return X, y


def test_splits_on_xor_attribute_and_is_exact():
    X, y = _xor()
    m = NBTree(random_state=0).fit(X, y)
    assert m.tree_.attr in (0, 1)
    assert m.score(X, y) == 1.0
    assert NaiveBayes().fit(X, y).score(X, y) < 0.8  # NB alone cannot represent XOR


def test_small_node_is_plain_naive_bayes():
    X, y = _xor(30)
    m = NBTree(random_state=0).fit(X, y)  # 30 instances: no split
    assert m.tree_.children is None
    np.testing.assert_allclose(m.predict_proba(X), NaiveBayes().fit(X, y).predict_proba(X))


def test_determinism_missing_and_unseen_values():
    X, y = _xor(300, 1)
    X = X.copy()
    X[::13, 0] = -1
    a = NBTree(random_state=3).fit(X, y, n_values=[3, 2, 2, 2])  # value 2 of attribute 0 never seen
    b = NBTree(random_state=3).fit(X, y, n_values=[3, 2, 2, 2])
    Xt = X.copy()
    Xt[:5, 0] = 2
    pa, pb = a.predict_proba(Xt), b.predict_proba(Xt)
    assert pa.tobytes() == pb.tobytes()
    np.testing.assert_allclose(pa.sum(axis=1), 1.0)


def test_bad_input():
    X, y = _xor(50)
    with pytest.raises(ValueError, match="n_folds"):
        NBTree(n_folds=1).fit(X, y)
    with pytest.raises(ValueError, match="numeric"):
        NBTree().fit(X, y, n_values=[0, 2, 2, 2])


@pytest.mark.parametrize("unit_weights", [False, True])
def test_compiled_counts_equal_bincount_of_the_flat_index(unit_weights):
    """The count tables are np.bincount's over the flat (row, split, attribute) index bit for bit: each cell adds
    its weights in row order from zero, as bincount does (float weights make the order matter)."""
    rng = np.random.default_rng(5)
    n, d, J, K, M, R = 500, 6, 3, 4, 9, 7
    model, rows, y = rng.integers(0, M, (n, J)), rng.integers(0, R, (n, d)).astype(np.int8), rng.integers(0, K, n)
    w = np.ones(n, np.int64) if unit_weights else rng.uniform(0.1, 3.0, n) ** 3
    flat = ((model * R * K)[:, :, None] + (rows * K + y[:, None])[:, None, :]).ravel()
    cls_flat = (model * K + y[:, None]).ravel()
    weights = None if unit_weights else np.repeat(w, J * d)
    expected = np.bincount(flat, weights=weights, minlength=M * R * K)
    expected_cls = np.bincount(cls_flat, weights=None if unit_weights else np.repeat(w, J), minlength=M * K)
    cnt, cls = np.zeros(M * R * K, w.dtype), np.zeros(M * K, w.dtype)
    _add_counts(cnt, cls, model, rows, y, w, R, K)
    assert cnt.dtype == expected.dtype and cnt.tobytes() == expected.tobytes()
    assert cls.dtype == expected_cls.dtype and cls.tobytes() == expected_cls.tobytes()


def test_node_values_and_branch_rows_match_the_whole_array_route():
    """Both are built a block of rows at a time in a small integer type; their values are those of the (n, d)
    int64 arrays: the compact value rows of the node (missing = the last row) and offset + branch."""
    rng = np.random.default_rng(7)
    nv = np.array([3, 2, 5, 4])
    codes = np.column_stack([rng.integers(0, v, 70_000) for v in nv])
    codes[rng.random(codes.shape) < 0.1] = -1
    codes[:, 2] = np.where(codes[:, 2] == 4, 1, codes[:, 2])  # a value absent from the node
    idx = ValueIndex(nv)
    full = idx.rows(codes)
    present = np.bincount(full.ravel(), minlength=idx.n_rows + 1)[:-1] > 0
    compact = np.append(np.cumsum(present) - 1, present.sum())
    rows, values = node_values(idx, codes.astype(np.int8))
    assert rows.dtype == np.int8 and np.array_equal(rows, compact[full])
    assert values.n_rows == present.sum() + 1
    modes = np.array([1, 0, 2, 3])
    groups, seen = branch_rows(idx, codes, modes)
    expected = idx.offsets + branch_codes(codes, modes)
    assert groups.dtype == np.int8 and np.array_equal(groups, expected)
    assert np.array_equal(seen, np.bincount(expected.ravel(), minlength=idx.n_rows) > 0)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.float64])
def test_codes_type_does_not_change_the_tree(dtype):
    """The tree keeps codes in their smallest type: any input type of the same codes gives the same numbers."""
    X, y = _xor(500, 2)
    X = X.copy()
    X[::7, 2] = -1
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    ref = NBTree(random_state=0).fit(X, y, sample_weight=w).predict_proba(X)
    got = NBTree(random_state=0).fit(X.astype(dtype), y, sample_weight=w).predict_proba(X)
    assert got.tobytes() == ref.tobytes()
