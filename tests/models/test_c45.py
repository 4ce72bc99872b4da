"""Tests of the C4.5 tree (nbx.models.c45): hand-computed splits, C4.5 rules, invariants."""

from math import log2

import numpy as np
import pytest

from nbx.core.base import clone
from nbx.core.counting import ValueIndex
from nbx.models.c45 import C45Tree, _walk, add_errs
from nbx.models.c45_splits import _nominal_gain, eval_nominal, eval_nominal_nodes, eval_numeric, select


def H(*counts):
    """Entropy in bits of a count vector (hand formula)."""
    total = sum(counts)
    return -sum(c / total * log2(c / total) for c in counts if c > 0)


# ---------------------------------------------------------------- hand examples
def test_numeric_split_hand_computed():
    # x = 1..10, classes 0 0 0 0 0 1 0 1 1 1: best cut between 5 and 6.
    x = np.arange(1.0, 11.0)[:, None]
    y = np.array([0, 0, 0, 0, 0, 1, 0, 1, 1, 1])
    gain, info, cut = eval_numeric(x, y, np.ones(10), 10.0, 2, 2)
    # MinSplit = max(0.1 * 10 / 2, 2) = 2 -> cuts with 2..8 cases below: 7 tries.
    raw = H(6, 4) - 0.5 * H(5, 0) - 0.5 * H(1, 4)
    expected_gain = raw - log2(7) / 10
    assert gain[0] == pytest.approx(expected_gain, abs=1e-12)
    assert info[0] == pytest.approx(H(5, 5), abs=1e-12)
    assert cut[0] == 5.5
    tree = C45Tree(prune=False).fit(x, y)
    assert tree.tree_.attr == 0
    assert tree.tree_.threshold == 5.0  # largest training value <= midpoint 5.5
    assert expected_gain / 1.0 == pytest.approx(0.32925, abs=1e-5)  # gain ratio


def test_numeric_matches_bruteforce_contin_c():
    """Vectorized cut search equals a row-by-row transcription of Release 8's EvalContinuousAtt."""
    rng = np.random.default_rng(3)
    n, K, min_leaf = 60, 3, 2
    X = rng.integers(0, 12, size=(n, 4)).astype(float)
    X[rng.random(X.shape) < 0.15] = np.nan
    X[:, 3] = np.nan  # all missing
    y = rng.integers(0, K, n)
    w = rng.integers(1, 4, n) * 0.5
    cases = w.sum()
    gain, info, cut = eval_numeric(X, y, w, cases, K, min_leaf)
    for j in range(X.shape[1]):
        known = ~np.isnan(X[:, j])
        kw = w[known].sum()
        if kw < 2 * min_leaf - 1e-6:
            assert gain[j] == -1e-3
            continue
        order = np.argsort(X[known, j], kind="stable")
        xs, ys, ws = X[known, j][order], y[known][order], w[known][order]
        tot = np.bincount(ys, ws, K)
        min_split = min(max(0.1 * kw / K, min_leaf), 25)
        low, lowc, cands = 0.0, np.zeros(K), []
        for i in range(len(xs) - 1):
            low += ws[i]
            lowc[ys[i]] += ws[i]
            if low < min_split - 1e-6 or low > kw - min_split + 1e-6 or not xs[i] < xs[i + 1]:
                continue
            hi = tot - lowc
            g = kw / cases * (H(*tot) - low / kw * H(*lowc) - (kw - low) / kw * H(*hi))
            si = H(low, kw - low, cases - kw)
            cands.append((g, si, (xs[i] + xs[i + 1]) / 2))
        cost = log2(len(cands)) / cases if cands else 0.0
        best = max(cands, key=lambda c: c[0]) if cands else None  # first max, as C4.5
        if best is None or best[0] - cost <= 0:
            assert gain[j] == -1e-3
        else:
            assert gain[j] == pytest.approx(best[0] - cost, abs=1e-12)
            assert info[j] == pytest.approx(best[1], abs=1e-12)
            assert cut[j] == best[2]


def test_min_split_tests_tolerate_rounded_weight_sums():
    """Six cases of weight 1/3 weigh 2 but sum to 1.9999999999999998: still a branch of min_leaf = 2."""
    w = np.full(12, 1 / 3)
    x = np.r_[np.zeros(6), np.ones(6)]
    y = np.r_[np.zeros(6, int), np.ones(6, int)]
    cases = np.bincount(y, weights=w).sum()  # as a node sums its class counts
    assert np.cumsum(w)[5] < 2 and cases < 4
    # numeric: the only cut has 1.9999999999999998 on each side; gain = H(1/2, 1/2) - log2(1) / 4
    gain, info, cut = eval_numeric(x[:, None], y, w, cases, 2, 2)
    assert gain[0] == pytest.approx(1.0) and info[0] == pytest.approx(1.0) and cut[0] == 0.5
    # nominal: both values count as reasonable subsets
    gain, _ = eval_nominal(x[:, None].astype(int), y, w, cases, 2, 2, ValueIndex([2]))
    assert gain[0] == pytest.approx(1.0)
    # and a node of weight 3.9999999999999996 (< 2 * min_leaf) is still split, as with whole cases
    for n_values in ([0], [2]):
        tree = C45Tree(prune=False).fit(x[:, None], y, sample_weight=w, n_values=n_values)
        whole = C45Tree(prune=False).fit(x[::3, None], y[::3], n_values=n_values)
        assert tree.tree_.attr == whole.tree_.attr == 0 and tree.n_leaves() == whole.n_leaves() == 2


def _nominal_example():
    # value a: 3 x class 0; b: 4 x class 1; c: 2 x class 0 + 1 x class 1; two unknowns of class 0
    x = np.array([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, np.nan, np.nan])[:, None]
    y = np.array([0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 0])
    return x, y


def test_nominal_multiway_gain_hand_computed():
    x, y = _nominal_example()
    codes = np.where(np.isnan(x), -1, np.nan_to_num(x)).astype(int)
    gain, info = eval_nominal(codes, y, np.ones(12), 12.0, 2, 2, ValueIndex([3]))
    # known cases: 10 of 12, class totals (5, 5); C4.5: gain = F * (info(T) - info_X(T))
    expected_gain = 10 / 12 * (H(5, 5) - 3 / 10 * H(3, 0) - 4 / 10 * H(0, 4) - 3 / 10 * H(2, 1))
    expected_info = H(3, 4, 3, 2)  # unknowns form an extra outcome
    assert gain[0] == pytest.approx(expected_gain, abs=1e-12)
    assert info[0] == pytest.approx(expected_info, abs=1e-12)
    assert gain[0] / info[0] == pytest.approx(0.3082, abs=1e-4)  # 0.60376 / 1.95915


@pytest.mark.parametrize("weighted", [False, True])
def test_nominal_node_counts_by_blocks_equal_one_pass_over_the_cases(weighted):
    """The count cells of many nodes' cases, made a block of cases at a time (integer counts added per block with
    unit weights), give the gains and split infos of counts added case by case in one pass, to the bit; over more
    cases than one block, with missing codes, cases read through ``row``."""
    rng = np.random.default_rng(5)
    n_values = np.array([3, 2, 4, 5])
    codes = rng.integers(-1, n_values, (40_000, 4))
    row = rng.permutation(40_000)[:30_000]
    node = np.sort(rng.integers(0, 7, row.size))
    y = rng.integers(0, 3, row.size)
    w = rng.uniform(0.5, 2.0, row.size) if weighted else np.ones(row.size)
    index = ValueIndex(n_values)
    cases = np.bincount(node, weights=w, minlength=7)
    gain, info = eval_nominal_nodes(codes, y, w, node, cases, 3, 2, index, row=row)
    counts = np.zeros((7, index.n_rows + 1, 3))
    cells = index.rows(codes[row])
    # case by case, a case's columns in order, as one bincount over the (case, column) cells adds them
    np.add.at(counts, (np.repeat(node, 4), cells.ravel(), np.repeat(y, 4)), np.repeat(w, 4))
    expected = _nominal_gain(counts[:, :-1], cases, 3, 2, index)
    assert np.array_equal(gain, expected[0]) and np.array_equal(info, expected[1])


def test_nominal_needs_two_reasonable_subsets():
    codes = np.array([[0], [0], [0], [0], [1], [2]])
    y = np.array([0, 0, 1, 1, 0, 1])
    gain, _ = eval_nominal(codes, y, np.ones(6), 6.0, 2, 2, ValueIndex([3]))
    assert gain[0] == -1e-3  # only value 0 has >= 2 cases


def test_missing_values_fractional_training_and_prediction():
    x, y = _nominal_example()
    tree = C45Tree(prune=False).fit(x, y, n_values=[3])
    root = tree.tree_
    assert root.attr == 0 and len(root.children) == 3
    # each unknown (class 0) goes down every branch with weight 3/10, 4/10, 3/10
    np.testing.assert_allclose(root.children[0].dist, [3 + 0.6, 0])
    np.testing.assert_allclose(root.children[1].dist, [0.8, 4])
    np.testing.assert_allclose(root.children[2].dist, [2 + 0.6, 1])
    proba = tree.predict_proba(np.array([[2.0], [np.nan]]))
    np.testing.assert_allclose(proba[0], [2.6 / 3.6, 1 / 3.6])
    # unknown at prediction: leaves mixed by branch weights 3.6/12, 4.8/12, 3.6/12
    mix = 3.6 / 12 * np.array([1, 0]) + 4.8 / 12 * np.array([0.8, 4]) / 4.8 + 3.6 / 12 * np.array([2.6, 1]) / 3.6
    np.testing.assert_allclose(proba[1], mix)
    np.testing.assert_allclose(proba[1], [7 / 12, 5 / 12])


def test_select_uses_average_gain_then_gain_ratio():
    gain = np.array([0.1, 0.5, 0.4, -1e-3])
    info = np.array([0.1, 1.0, 0.5, 0.0])
    # attribute 0 has the best ratio (1.0) but below-average gain; among 1 and 2, 2 has ratio 0.8
    assert select(gain, info, np.ones(4, bool)) == 2
    assert select(np.full(3, -1e-3), np.zeros(3), np.ones(3, bool)) == -1


def test_add_errs_matches_quinlan_book():
    # Quinlan (1993) sec. 4.2: U_25%(0,6) = 0.206, U_25%(0,9) = 0.143, U_25%(0,1) = 0.750,
    # U_25%(1,16) = 0.157 (C4.5's normal approximation agrees to about 0.01).
    assert add_errs(6, 0) == pytest.approx(6 * 0.206, abs=0.01)
    assert add_errs(9, 0) == pytest.approx(9 * 0.143, abs=0.01)
    assert add_errs(1, 0) == pytest.approx(0.750, abs=1e-3)
    assert 1 + add_errs(16, 1) == pytest.approx(16 * 0.157, abs=0.01)


# -------------------------------------------------------------------- behaviour
def test_pure_node_is_leaf():
    X = np.random.default_rng(0).normal(size=(20, 3))
    tree = C45Tree().fit(X, np.full(20, "a"))
    assert tree.tree_.is_leaf
    np.testing.assert_array_equal(tree.predict_proba(X), np.ones((20, 1)))


def _rule_data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    x0 = rng.uniform(0, 6, n)
    x1 = rng.integers(0, 3, n).astype(float)
    x2 = rng.normal(size=n)
    y = (x0 > 3) & (x1 == 0)
    return np.c_[x0, x1, x2], y.astype(int)


def test_noiseless_rule_is_learned_exactly():
    X, y = _rule_data()
    for prune in (False, True):
        tree = C45Tree(prune=prune).fit(X, y, n_values=[0, 3, 0])
        assert tree.score(X, y) == 1.0
        assert tree.n_leaves() <= 4


def test_all_nominal_discretized_input():
    X, y = _rule_data()
    Xd = np.c_[(X[:, 0] > 3).astype(int), X[:, 1].astype(int), (X[:, 2] > 0).astype(int)]
    tree = C45Tree().fit(Xd, y, n_values=[2, 3, 2])
    assert tree.score(Xd, y) == 1.0
    assert tree.n_leaves() == 4  # x0 in {0,1}, and x1 in {0,1,2} under x0 = 1


def _noisy_data(n=300, seed=1):
    rng = np.random.default_rng(seed)
    X = np.c_[rng.normal(size=(n, 3)), rng.integers(0, 4, n)]
    y = ((X[:, 0] + 0.5 * X[:, 1] > 0) ^ (rng.random(n) < 0.2)).astype(int)
    X[rng.random(X.shape) < 0.1] = np.nan
    return X, y


def test_pruning_does_not_increase_estimated_errors():
    X, y = _noisy_data()
    nv = [0, 0, 0, 4]
    full = C45Tree(prune=False).fit(X, y, n_values=nv)
    for raising in (True, False):
        pruned = C45Tree(subtree_raising=raising).fit(X, y, n_values=nv)
        before, after = full.estimated_errors(X, y), pruned.estimated_errors(X, y)
        # C4.5 accepts a simpler tree within 0.1 estimated errors per pruning decision
        assert after <= before + 0.1 * pruned._prune_ops + 1e-9
        assert after < before - 1.0  # on noisy data pruning clearly helps
        assert pruned.n_leaves() < full.n_leaves()
        # the error recorded at the root is the estimate of the final tree
        assert pruned.tree_.errors == pytest.approx(after, rel=1e-9)


def _signature(tree):
    return [(n.attr, float(n.threshold) if n.attr >= 0 else None, len(n.children)) for n in _walk(tree.tree_)]


def test_weights_equal_row_duplication():
    X, y = _noisy_data(200, seed=2)
    nv = [0, 0, 0, 4]
    counts = np.random.default_rng(5).integers(0, 4, len(y))
    weighted = C45Tree().fit(X, y, sample_weight=counts, n_values=nv)
    rep = np.repeat(np.arange(len(y)), counts)
    duplicated = C45Tree().fit(X[rep], y[rep], n_values=nv)
    assert _signature(weighted) == _signature(duplicated)
    Xt, _ = _noisy_data(100, seed=9)
    np.testing.assert_allclose(weighted.predict_proba(Xt), duplicated.predict_proba(Xt), atol=1e-12)


def _reference_proba(node, x, n_values):
    """Row-by-row C4.5 classify.c, for checking the batched routing."""
    if node.is_leaf:
        return node.probabilities()
    v = x[node.attr]
    if np.isnan(v):
        sizes = np.array([c.dist.sum() for c in node.children])
        return sum(s / sizes.sum() * _reference_proba(c, x, n_values) for s, c in zip(sizes, node.children))
    if n_values[node.attr] == 0:
        return _reference_proba(node.children[int(v > node.threshold)], x, n_values)
    return _reference_proba(node.children[int(v)], x, n_values)


def test_batched_prediction_matches_row_by_row():
    X, y = _noisy_data(400, seed=4)
    nv = [0, 0, 0, 4]
    tree = C45Tree(min_leaf=1).fit(X, y, n_values=nv)
    Xt, _ = _noisy_data(150, seed=11)
    proba = tree.predict_proba(Xt)
    ref = np.array([_reference_proba(tree.tree_, x, nv) for x in Xt])
    np.testing.assert_allclose(proba, ref, atol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(tree.predict(Xt), tree.classes_[np.argmax(proba, axis=1)])


def test_deterministic():
    X, y = _noisy_data()
    a = C45Tree().fit(X, y, n_values=[0, 0, 0, 4]).predict_proba(X)
    b = C45Tree().fit(X, y, n_values=[0, 0, 0, 4]).predict_proba(X)
    assert a.tobytes() == b.tobytes()


def test_params_and_clone():
    tree = C45Tree(min_leaf=3, confidence=0.1, subtree_raising=False)
    assert clone(tree).get_params() == {
        "min_leaf": 3,
        "confidence": 0.1,
        "prune": True,
        "subtree_raising": False,
        "n_values": None,
        "class_weight": None,
    }


@pytest.mark.parametrize(
    "params, word",
    [({"confidence": 0}, "confidence"), ({"confidence": 1.5}, "confidence"), ({"min_leaf": 0}, "min_leaf")],
)
def test_bad_params(params, word):
    X, y = _rule_data(50)
    with pytest.raises(ValueError, match=word):
        C45Tree(**params).fit(X, y)


def test_bad_input():
    X, y = _rule_data(50)
    with pytest.raises(ValueError, match="n_values"):
        C45Tree().fit(X, y, n_values=[0, 3])
    with pytest.raises(ValueError, match="n_values"):
        C45Tree().fit(X, y, n_values=[0, 2, 0])  # code 2 exceeds two values
    with pytest.raises(ValueError, match="integer codes"):
        C45Tree().fit(X, y, n_values=[3, 3, 0])
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        C45Tree().fit(X, y, sample_weight=np.zeros(50))


def test_constant_and_all_missing_columns():
    X, y = _rule_data(200)
    X = np.c_[X, np.full(200, 7.0), np.full(200, np.nan)]
    tree = C45Tree().fit(X, y, n_values=[0, 3, 0, 0, 0])
    assert tree.score(X, y) == 1.0
    assert {n.attr for n in _walk(tree.tree_)} <= {-1, 0, 1}


def test_threshold_is_largest_training_value_below_midpoint():
    # Root splits on the nominal x1; under x1 = 0 the best cut is between 3 and 10 (midpoint 6.5),
    # and C4.5 lowers it to the largest value <= 6.5 in the whole training set: 6.2 (from x1 = 1).
    x0 = [1, 2, 3, 10, 11, 12, 5, 6, 6.2, 7, 8, 9]
    x1 = [0] * 6 + [1] * 6
    y = [0, 0, 0, 1, 1, 1] + [2] * 6
    tree = C45Tree(prune=False).fit(np.c_[x0, x1], y, n_values=[0, 2])
    assert tree.tree_.attr == 1
    assert tree.tree_.children[0].attr == 0
    assert tree.tree_.children[0].threshold == 6.2


@pytest.mark.parametrize("seed", range(4))
def test_screened_cut_search_equals_scoring_every_cut(seed):
    """The cut search scores exactly only the cuts near each column's lowest split entropy; the best cut and its
    corrected gain equal, bit for bit, scoring every valid cut with the same formula and taking the first maximum
    (integer weights, so the branch counts are exact in any order; ties from few distinct values)."""
    from nbx.core.criteria import entropy
    from nbx.models.c45_splits import _conditional_entropy

    rng = np.random.default_rng(40 + seed)
    n, K, min_leaf = 400, 4, 2
    X = np.column_stack([rng.integers(0, 8, n), rng.normal(size=n), rng.normal(size=n).round(1)]).astype(float)
    y = np.clip(X[:, 0] // 2 + (X[:, 1] > 0.5) + rng.integers(0, 2, n) - 1, 0, K - 1).astype(int)
    w = rng.integers(1, 4, n).astype(float)
    cases = w.sum()
    gain, _, cut = eval_numeric(X, y, w, cases, K, min_leaf)
    tot = np.bincount(y, w, K)
    min_split = min(max(0.1 * cases / K, min_leaf), 25)
    for j in range(X.shape[1]):
        order = np.argsort(X[:, j], kind="stable")
        xs, ys, ws = X[order, j], y[order], w[order]
        low, lowc, scored = 0.0, np.zeros(K), []
        for i in range(n - 1):
            low += ws[i]
            lowc[ys[i]] += ws[i]
            if min_split - 1e-6 <= low <= cases - min_split + 1e-6 and xs[i] < xs[i + 1]:
                ce = _conditional_entropy(lowc[None].copy(), (tot - lowc)[None])[0]
                scored.append((cases / cases * (entropy(tot) - ce), (xs[i] + xs[i + 1]) / 2))
        cost = log2(len(scored)) / cases
        best = max(range(len(scored)), key=lambda c: scored[c][0] - cost)  # the first maximum
        assert gain[j] == scored[best][0] - cost
        assert cut[j] == scored[best][1]


@pytest.mark.parametrize("seed", range(3))
def test_numeric_block_equals_columns_one_at_a_time(seed):
    """A level's numeric attributes are evaluated in blocks sized by memory (``c45_splits.CHUNK``): every column's corrected
    gain, split info and cut are the same bits in a block of all columns as alone, with fractional weights, ties,
    unknown values and several nodes (its prefix sums restart at each column)."""
    from nbx.models.c45_splits import eval_numeric_sorted

    rng = np.random.default_rng(60 + seed)
    n, d, K, m = 300, 5, 3, 4
    X = rng.normal(size=(n, d)).round(1)  # ties
    X[rng.random((n, d)) < 0.1] = np.nan
    y = rng.integers(0, K, n)
    w = rng.uniform(0.1, 2.0, n)
    node = np.sort(rng.integers(0, m, n))
    starts = np.searchsorted(node, np.arange(m + 1))
    cases = np.bincount(node, w, m)
    order = np.empty((d, n), np.intp)
    for j in range(d):  # by node, then value, NaN last within a node (as the tree keeps them)
        o = np.argsort(X[:, j], kind="stable")
        order[j] = o[np.argsort(node[o], kind="stable")]
    xs, ys, ws = np.take_along_axis(X.T, order, axis=1), y[order], w[order]
    block = eval_numeric_sorted(xs, ys, ws, starts, cases, K, 2)
    assert (block[0] > 0).sum() >= d  # real cuts in several cells
    for j in range(d):
        alone = eval_numeric_sorted(xs[j : j + 1], ys[j : j + 1], ws[j : j + 1], starts, cases, K, 2)
        for together, single in zip(block, alone):
            np.testing.assert_array_equal(together[j], single[0])


def test_tree_does_not_depend_on_evaluation_block_size(monkeypatch):
    """The fitted tree and its probabilities are the same bits with one attribute per evaluation pass as with all
    of them in one (unknown values and fractional weights)."""
    import nbx.models.c45 as c45
    import nbx.models.c45_splits as c45_splits

    X, y = _noisy_data(400, seed=12)
    X = np.c_[X, np.random.default_rng(3).normal(size=(400, 3)).round(1)]
    nv = [0, 0, 0, 4, 0, 0, 0]
    w = np.random.default_rng(4).uniform(0.2, 3.0, len(y))
    fits = []
    for chunk in (1, 1 << 30):
        monkeypatch.setattr(c45, "CHUNK", chunk)  # the numeric pass, in the tree
        monkeypatch.setattr(c45_splits, "CHUNK", chunk)  # the nominal pass
        tree = C45Tree(prune=False).fit(X, y, sample_weight=w, n_values=nv)
        fits.append(([(n.attr, n.threshold, n.dist.tobytes()) for n in _walk(tree.tree_)], tree.predict_proba(X)))
    assert len(fits[0][0]) > 9
    assert str(fits[0][0]) == str(fits[1][0])
    assert fits[0][1].tobytes() == fits[1][1].tobytes()


def test_codes_are_stored_small_and_unseen_codes_count_as_unknown():
    """C4.5 stores its codes small, a code at or above its n_values as n_values: such a code (never seen in
    training, however large) is routed as an unknown outcome, like NaN."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (300, 2)).astype(float)
    y = (X[:, 0] + (rng.random(300) < 0.2)) % 3
    tree = C45Tree(prune=False).fit(X, y, n_values=[3, 3])
    assert tree.tree_.attr >= 0
    unknown = np.array([[np.nan, np.nan]])
    for code in (3.0, 300.0, 1e300):
        assert np.array_equal(tree.predict_proba(np.array([[code, code]])), tree.predict_proba(unknown))
