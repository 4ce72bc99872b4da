"""Self-adaptive NBTree (Wang et al. 2006, Fig. 2): Bayes measure, δ boundaries + MDL, known split,
weights == duplication, determinism."""

import numpy as np
import pytest

from nbx.models.kernel_nb import GeneralNB
from nbx.models.snbtree import SelfAdaptiveNBTree, bayes_cut_points, bayes_delta_nominal


def test_bayes_delta_nominal_hand_computed():
    codes = np.array([[0], [0], [0], [1], [1], [-1]])
    y = np.array([0, 0, 1, 1, 1, 0])
    # value 0: max count 2; value 1: 2; the missing row is never correct -> 4/6
    assert bayes_delta_nominal(codes, y, np.ones(6), np.array([2]), 2)[0] == pytest.approx(4 / 6)


def test_cut_points_follow_argmax_changes_and_mdl():
    x = np.arange(60, dtype=float)
    y = np.repeat([0, 1, 0], 20)
    pred = y.copy()
    np.testing.assert_allclose(bayes_cut_points(x, pred, y, np.ones(60), 2), [19.5, 39.5])
    # a one-case blip in c* is a candidate boundary but MDL merges it away
    pred2 = np.zeros(60, int)
    pred2[30] = 1
    assert bayes_cut_points(x, pred2, np.zeros(60, int) + (np.arange(60) == 30), np.ones(60), 2).size == 0


def _three_regions(n=600, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    X[:, 2] = rng.integers(0, 2, n)
    # class depends on x1's sign and, below 0, on x0 too: naive Bayes alone cannot represent it
    y = np.where(X[:, 0] < -0.5, np.where(X[:, 1] > 0, 0, 2), np.where(X[:, 1] > 0, 1, 0))
    return X, y


def test_known_split_on_x1_at_zero():
    X, y = _three_regions()
    m = SelfAdaptiveNBTree().fit(X, y, n_values=[0, 0, 2])
    assert m.tree_.attr == 1  # largest δ: x1's sign separates class 1 from class 2
    assert len(m.tree_.cuts) == 1 and abs(m.tree_.cuts[0]) < 0.15
    Xt, yt = _three_regions(2000, 1)
    assert m.score(Xt, yt) > 0.97
    assert GeneralNB().fit(X, y, n_values=[0, 0, 2]).score(Xt, yt) < m.score(Xt, yt) - 0.03


def test_only_nominal_tests_and_leaves_keep_a_gnb_and_numeric_tests_have_a_child_per_interval():
    """A numeric test keeps no GNB: it has a child for every interval its cuts make (each holds training values)
    and a missing value takes the default branch, so no value could reach the node's own GNB; a nominal test keeps
    its GNB for values its node's training data lacks."""
    X, y = _three_regions(900, 6)
    X[::13, 0] = np.nan
    m = SelfAdaptiveNBTree(min_instances=5, min_rel_reduction=-1.0, max_depth=3).fit(X, y, n_values=[0, 0, 2])
    kinds = set()

    def walk(node):
        assert node.model is None or node.model.loo_ce_ is None  # the search's table stays with standalone fits
        if node.children is None:
            return
        kinds.add(node.cuts is None)
        if node.cuts is None:
            assert node.model is not None
        else:
            assert node.model is None and sorted(node.children) == list(range(len(node.cuts) + 1))
        for child in node.children.values():
            walk(child)

    walk(m.tree_)
    assert kinds == {True, False}
    Xt, _ = _three_regions(400, 7)
    Xt[::5, 0] = Xt[::7, 1] = np.nan
    np.testing.assert_allclose(m.predict_proba(Xt).sum(axis=1), 1.0)


def test_weights_equal_duplication():
    X, y = _three_regions(200, 2)
    w = np.random.default_rng(1).integers(1, 4, len(y)).astype(float)
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    a = SelfAdaptiveNBTree().fit(X, y, sample_weight=w, n_values=[0, 0, 2])
    b = SelfAdaptiveNBTree().fit(X[rep], y[rep], n_values=[0, 0, 2])
    Xt, _ = _three_regions(300, 3)
    assert a.n_leaves_ == b.n_leaves_
    np.testing.assert_allclose(a.predict_proba(Xt), b.predict_proba(Xt), rtol=1e-9, atol=1e-12)


def test_determinism_small_node_pure_node_and_missing():
    X, y = _three_regions(300, 4)
    X[::17, 0] = np.nan
    X[::11, 2] = np.nan
    a = SelfAdaptiveNBTree().fit(X, y, n_values=[0, 0, 2]).predict_proba(X)
    b = SelfAdaptiveNBTree().fit(X, y, n_values=[0, 0, 2]).predict_proba(X)
    assert a.tobytes() == b.tobytes()
    np.testing.assert_allclose(a.sum(axis=1), 1.0)
    small = SelfAdaptiveNBTree().fit(X[:30], y[:30], n_values=[0, 0, 2])
    ref = GeneralNB().fit(X[:30], y[:30], n_values=[0, 0, 2])
    np.testing.assert_allclose(small.predict_proba(X), ref.predict_proba(X))
    pure = SelfAdaptiveNBTree().fit(X[:50], np.zeros(50, int))
    assert pure.tree_.label == 0 and np.all(pure.predict(X) == 0)


def test_bad_leaf_parameter():
    X, y = _three_regions(50)
    with pytest.raises(ValueError, match="leaf"):
        SelfAdaptiveNBTree(leaf="gnb").fit(X, y)


def test_root_is_tested_like_any_node_by_default_and_split_under_fig2s_reading():
    """Default (Wang §5: "exactly the same as Kohavi's NBTree" but for discretization and leaves): the root is
    tested like any node, so a root of 30 instances (<= 30) is a GNB leaf and a root split that cannot pass
    the 5% rule is refused. Fig. 2 step 4's reading (``split_root=True``) tests descendant nodes only: the
    same roots are split, and only the root."""
    X, y = _three_regions(300, 5)
    leaf = SelfAdaptiveNBTree().fit(X[:30], y[:30], n_values=[0, 0, 2])
    assert leaf.tree_.children is None
    assert leaf.fit_info() == {"depth": 0, "n_leaves": 1, "root_split": False}
    tiny = SelfAdaptiveNBTree(split_root=True).fit(X[:30], y[:30], n_values=[0, 0, 2])
    assert tiny.tree_.children is not None and tiny.depth_ == 1  # the descendants (< 30) are leaves
    assert tiny.fit_info() == {"depth": 1, "n_leaves": len(tiny.tree_.children), "root_split": True}
    # A split that can never pass the 5% rule (it would need a >100% error reduction).
    assert SelfAdaptiveNBTree(min_rel_reduction=1.0).fit(X, y, n_values=[0, 0, 2]).depth_ == 0
    never = SelfAdaptiveNBTree(min_rel_reduction=1.0, split_root=True).fit(X, y, n_values=[0, 0, 2])
    assert never.tree_.children is not None and never.depth_ == 1


@pytest.mark.parametrize("n_classes", [2, 3])
def test_scan_equals_the_whole_arrays(n_classes):
    """A node's scan (δ and c* of eq. 4-5, the leave-one-out correct weight) over groups of attributes gives the
    values of the whole (rows, attributes, classes) densities: c* as their argmax, δ from it, the correct weight
    from GeneralNB's own leave-one-out log joint -- missing values, weights, a nominal attribute."""
    from nbx.models import snbtree

    rng = np.random.default_rng(5)
    n = 400
    X = rng.normal(size=(n, 10))
    X[:, 2] = rng.integers(0, 4, n)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, n_classes, n)
    w = rng.integers(1, 4, n) * 0.5
    nv = np.zeros(10, int)
    nv[2] = 4
    tree = SelfAdaptiveNBTree().fit(X, y, sample_weight=w, n_values=nv)
    gnb = tree._gnb(X, y, w)
    numeric = np.flatnonzero(nv == 0)
    log_prior = np.log(np.bincount(y, weights=w, minlength=n_classes) / w.sum())
    pred = np.argmax(gnb.numeric_log_density(X) + log_prior, axis=2)
    delta = (w[:, None] * ((pred == y[:, None]) & ~np.isnan(X[:, numeric]))).sum(axis=0) / w.sum()
    for entries in (1, 10**9):
        snbtree.SCAN_ENTRIES, saved = entries, snbtree.SCAN_ENTRIES
        try:
            (got_delta, got_pred), correct = tree._scan(gnb, X, y, w, loo=True)
        finally:
            snbtree.SCAN_ENTRIES = saved
        assert got_delta.tobytes() == delta.tobytes() and np.array_equal(got_pred, pred)
        assert correct == gnb.loo_correct(X, y, w)


@pytest.mark.parametrize("d", [1, 2, 5, 33])
def test_correct_weight_is_numpys_column_sum(d):
    """δ's correct weights by blocks of rows equal ``(w[:, None] * hit).sum(axis=0)`` bit for bit (weights of
    very different sizes make the order of the additions show), one column summed pairwise as numpy does."""
    from nbx.models.snbtree import correct_weight

    rng = np.random.default_rng(d)
    for n in (1, 7, 70_000):
        w = rng.uniform(0, 1, n) ** 3 * 10.0 ** rng.uniform(-4, 4, n)
        pred, y = rng.integers(0, 3, (n, d)).astype(np.uint8), rng.integers(0, 3, n)
        observed = rng.random((n, d)) < 0.9
        expected = (w[:, None] * ((pred == y[:, None]) & observed)).sum(axis=0)
        assert correct_weight(pred, y, w, observed).tobytes() == expected.tobytes()


def test_child_fit_and_scan_on_a_subset_equal_those_on_its_gathered_rows():
    """A child's GNB fitted and scanned through its row indices (columns gathered a group at a time) has the
    numbers of one fitted on X[rows], bit for bit: exact and binned segments, a nominal attribute, missing values,
    weights; the scan's released grids are built again the same at the next evaluation."""
    rng = np.random.default_rng(11)
    n = 3000
    X = rng.normal(size=(n, 5))
    X[:, 1] = np.round(X[:, 1], 1)  # few distinct values: exact segments (the others binned)
    X[:, 3] = rng.integers(0, 3, n)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    nv = np.array([0, 0, 0, 3, 0])
    tree = SelfAdaptiveNBTree().fit(X, y, sample_weight=w, n_values=nv)
    rows = np.sort(rng.choice(n, 2000, replace=False))
    a = tree._gnb(X[rows], y[rows], w[rows])
    b = tree._gnb(X, y[rows], w[rows], rows)
    assert a._big and len(a._centers)
    for name in ("class_count_", "feature_count_", "bandwidth_", "_centers", "_center_logw", "_seg_lo", "_seg_hi"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    for s, big in a._big.items():
        assert all(getattr(big, k).tobytes() == getattr(b._big[s], k).tobytes() for k in ("centers", "B", "E"))
    (delta_a, pred_a), correct_a = tree._scan(a, X[rows], y[rows], w[rows], loo=True)
    (delta_b, pred_b), correct_b = tree._scan(b, X, y[rows], w[rows], loo=True, subset=rows)
    assert delta_a.tobytes() == delta_b.tobytes() and np.array_equal(pred_a, pred_b) and correct_a == correct_b
    assert all(big.B is None for big in b._big.values())  # released by the scan
    assert a.predict_proba(X).tobytes() == b.predict_proba(X).tobytes()


@pytest.mark.parametrize("leaf", [GeneralNB(), GeneralNB(density="gaussian")])
def test_children_through_row_indices_or_copies_give_the_same_tree(leaf, monkeypatch):
    """Children fitted and scanned through their row indices (every child, GATHER_FROM = 0) or from copies of
    their rows (none) give the same tree and probabilities, bit for bit."""
    from nbx.models import snbtree

    rng = np.random.default_rng(3)
    n = 2500
    X = rng.normal(size=(n, 4))
    X[:, 2] = rng.integers(0, 3, n)
    X[rng.random(X.shape) < 0.03] = np.nan
    y = ((np.nan_to_num(X[:, 0]) > 0) ^ (np.nan_to_num(X[:, 1]) > 0.5)).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    fits = []
    for gather_from in (0, 10**12):
        monkeypatch.setattr(snbtree, "GATHER_FROM", gather_from)
        model = SelfAdaptiveNBTree(leaf=leaf).fit(X, y, sample_weight=w, n_values=[0, 0, 3, 0])
        fits.append((model.n_leaves_, model.depth_, model.predict_proba(X).tobytes()))
    assert fits[0][0] > 2 and fits[0] == fits[1]
