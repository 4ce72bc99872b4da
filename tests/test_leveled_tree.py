"""LeveledNBTree (Ting & Zheng §3.2): checked against a loop-based reference written here."""
import math

import numpy as np
import pytest

from nbx.models.base import clone
from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.naive_bayes import NaiveBayes


def make_data(n=400, n_values=(2, 3, 4, 3, 2), n_classes=3, missing=0.05, seed=0):
    """Discrete data with interactions (the class depends on pairs of attributes) and missing values."""
    rng = np.random.default_rng(seed)
    nv = np.array(n_values)
    X = (rng.random((n, len(nv))) * nv).astype(np.int64)
    y = (X[:, 0] + X[:, 1] * (X[:, 2] > 1) + (rng.random(n) < 0.2)) % n_classes
    X[rng.random(X.shape) < missing] = -1
    return X, y, nv


# ------------------------------------------------------------------------- brute-force reference
def _entropy(weights):
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights if w > 0) if total > 0 else 0.0


def ref_gain(X, y, w, a, V, K):
    """C4.5 gain and split information of attribute a, with missing values, by loops."""
    total = w.sum()
    known = X[:, a] >= 0
    wk = w[known].sum()
    class_known = [w[known & (y == c)].sum() for c in range(K)]
    cond = 0.0
    branch = []
    for v in range(V):
        sel = X[:, a] == v
        wv = w[sel].sum()
        branch.append(wv)
        if wv > 0:
            cond += wv / wk * _entropy([w[sel & (y == c)].sum() for c in range(K)])
    gain = wk / total * (_entropy(class_known) - cond) if wk > 0 else 0.0
    split = _entropy(branch + [total - wk])
    return gain, split, branch


def ref_children(X, w, a, branch):
    """Weight of each branch once the rows with a missing value join the largest branch."""
    out = list(branch)
    out[int(np.argmax(branch))] += w[X[:, a] < 0].sum()
    return out


def ref_tree(X, y, w, nv, K, max_depth, depth=0, used=(), min_split=30.0, on="node"):
    node = {"rows": (X, y, w), "used": set(used), "attr": -1}
    if depth < max_depth and w.sum() >= min_split:
        stats = {a: ref_gain(X, y, w, a, nv[a], K) for a in range(len(nv)) if a not in used}
        ok = {a: s for a, s in stats.items() if sum(b >= 2 for b in s[2]) >= 2 and s[1] > 1e-12}
        if on == "children":  # every non-empty child keeps at least min_split
            ok = {a: s for a, s in ok.items()
                  if all(c >= min_split - 1e-9 for c in ref_children(X, w, a, s[2]) if c > 0)}
        if ok:
            avg = np.mean([s[0] for s in ok.values()])
            best, best_ratio = -1, -np.inf
            for a in sorted(ok):
                gain, split, _ = ok[a]
                if gain >= avg - 1e-12 and gain > 1e-12 and gain / split > best_ratio:
                    best, best_ratio = a, gain / split
            node["attr"] = best
    if node["attr"] >= 0:
        a = node["attr"]
        branch = ref_gain(X, y, w, a, nv[a], K)[2]
        largest = int(np.argmax(branch))
        col = np.where(X[:, a] >= 0, X[:, a], largest)
        node["children"] = {v: ref_tree(X[col == v], y[col == v], w[col == v], nv, K, max_depth, depth + 1,
                                        tuple(used) + (a,), min_split, on)
                            for v in range(nv[a]) if branch[v] > 0}
    return node


def ref_nb_logjoint(node, x, nv, K, m=2.0):
    """m-estimate NB (§3.1) over the attributes not on the path, written out per attribute."""
    X, y, w = node["rows"]
    N = w.sum()
    out = np.array([math.log((w[y == c].sum() + 1) / (N + K)) for c in range(K)])
    for j in range(len(nv)):
        if j in node["used"] or x[j] < 0:
            continue
        obs = X[:, j] >= 0
        p_v = (w[obs & (X[:, j] == x[j])].sum() + 1) / (w[obs].sum() + nv[j])
        for c in range(K):
            n_cv = w[(y == c) & (X[:, j] == x[j])].sum()
            n_cj = w[(y == c) & obs].sum()
            out[c] += math.log((n_cv + m * p_v) / (n_cj + m))
    return out


def ref_proba(tree, X, nv, K):
    out = []
    for x in X:
        node = tree
        while node["attr"] >= 0 and x[node["attr"]] >= 0 and x[node["attr"]] in node["children"]:
            node = node["children"][x[node["attr"]]]
        lj = ref_nb_logjoint(node, x, nv, K)
        p = np.exp(lj - lj.max())
        out.append(p / p.sum())
    return np.array(out)


# --------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("on", ["node", "children"])
@pytest.mark.parametrize("max_depth", [1, 2, 3])
def test_matches_reference_with_weights_and_missing(max_depth, on):
    X, y, nv = make_data(seed=max_depth)
    w = np.random.default_rng(7).uniform(0.2, 2.0, len(y))
    Xte, _, _ = make_data(n=150, seed=100 + max_depth)
    model = LeveledNBTree(max_depth=max_depth, min_split_on=on).fit(X, y, sample_weight=w, n_values=nv)
    tree = ref_tree(X, y, w, nv, 3, max_depth, on=on)
    assert model.node_attribute_[0] == tree["attr"] >= 0
    np.testing.assert_allclose(model.predict_proba(Xte), ref_proba(tree, Xte, nv, 3), rtol=1e-9, atol=1e-12)


def test_depth_zero_is_naive_bayes():
    X, y, nv = make_data(missing=0.1)
    w = np.random.default_rng(1).uniform(0.1, 3.0, len(y))
    nb = NaiveBayes(prior="m_estimate", m=2).fit(X, y, sample_weight=w, n_values=nv)
    tree = LeveledNBTree(max_depth=0).fit(X, y, sample_weight=w, n_values=nv)
    np.testing.assert_array_equal(tree.predict_proba(X), nb.predict_proba(X))
    assert tree.depth_ == 0 and tree.n_leaves_ == 1


def test_small_nodes_are_not_split():
    X, y, nv = make_data(n=200)
    big = LeveledNBTree(max_depth=5, min_split=201).fit(X, y, n_values=nv)
    nb = NaiveBayes(prior="m_estimate").fit(X, y, n_values=nv)
    np.testing.assert_allclose(big.predict_proba(X), nb.predict_proba(X))
    # weighted count < 30 at the root (weights scaled down): no split either (weights, not rows, count)
    small = LeveledNBTree(max_depth=5).fit(X, y, sample_weight=np.full(len(y), 0.1), n_values=nv)
    assert small.n_leaves_ == 1


def test_every_split_node_has_enough_weight_and_depth_is_bounded():
    X, y, nv = make_data(n=600, seed=3)
    model = LeveledNBTree(max_depth=10, min_split=30, min_split_on="node").fit(X, y, n_values=nv)
    tree = ref_tree(X, y, np.ones(len(y)), nv, 3, 10)

    def walk(node, depth):
        if node["attr"] < 0:
            return [depth]
        assert node["rows"][2].sum() >= 30
        return sum((walk(c, depth + 1) for c in node["children"].values()), [])
    assert max(walk(tree, 0)) == model.depth_ <= len(nv)  # an attribute is tested at most once per path


def test_weights_equal_row_duplication():
    X, y, nv = make_data(n=300, seed=5)
    k = np.random.default_rng(2).integers(0, 4, len(y))
    k[:3] = 1  # keep every class present
    a = LeveledNBTree(max_depth=3).fit(X, y, sample_weight=k.astype(float), n_values=nv)
    b = LeveledNBTree(max_depth=3).fit(np.repeat(X, k, axis=0), np.repeat(y, k), n_values=nv)
    np.testing.assert_array_equal(a.node_attribute_, b.node_attribute_)
    Xte, _, _ = make_data(n=100, seed=9)
    np.testing.assert_allclose(a.predict_proba(Xte), b.predict_proba(Xte), rtol=1e-10)


def test_missing_split_value_uses_node_nb_and_unseen_branch_uses_parent():
    rng = np.random.default_rng(4)
    n = 300
    X = np.column_stack([rng.integers(0, 2, n), rng.integers(0, 3, n), rng.integers(0, 2, n)])
    y = X[:, 0] ^ (rng.random(n) < 0.05)  # attribute 0 is the obvious root test
    nv = np.array([3, 3, 2])  # value 2 of attribute 0 never occurs in training
    model = LeveledNBTree(max_depth=1).fit(X, y, n_values=nv)
    assert model.node_attribute_[0] == 0
    nb = NaiveBayes(prior="m_estimate").fit(X, y, n_values=nv)  # the root's NB
    probe = np.array([[-1, 1, 0], [2, 1, 0], [2, -1, 1]])
    np.testing.assert_array_equal(model.apply(probe), [0, 0, 0])
    # at the root nothing is on the path, so the root NB is the plain NB (the value 2 row includes the
    # evidence P(x0 = 2 | c) of the unseen value, as the root NB does)
    np.testing.assert_allclose(model.predict_proba(probe), nb.predict_proba(probe))


def test_pure_or_constant_data_gives_a_leaf_and_probabilities_sum_to_one():
    X = np.zeros((100, 3), np.int64)
    y = np.arange(100) % 2
    model = LeveledNBTree(max_depth=3).fit(X, y)
    assert model.n_leaves_ == 1
    X, y, nv = make_data(seed=11)
    p = LeveledNBTree(max_depth=4).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert np.all(np.isfinite(LeveledNBTree(max_depth=4).fit(X, y).predict_log_proba(X)))


def test_deterministic_and_clone():
    X, y, nv = make_data(seed=12)
    a = LeveledNBTree(max_depth=3).fit(X, y).predict_proba(X)
    b = clone(LeveledNBTree(max_depth=3)).fit(X, y).predict_proba(X)
    assert a.tobytes() == b.tobytes()


def test_learns_an_interaction_naive_bayes_cannot():
    grid = (np.arange(16)[:, None] >> np.arange(4)) & 1  # all 4-bit patterns, balanced XOR
    X = np.tile(grid, (20, 1))
    y = X[:, 0] ^ X[:, 1]
    assert LeveledNBTree(max_depth=0).fit(X, y).score(X, y) == 0.5  # every marginal is uninformative
    # a perfectly balanced XOR gives every single test zero gain (greedy growth stops, as C4.5 would);
    # a random sample breaks the tie and the tree finds the interaction
    assert LeveledNBTree(max_depth=3).fit(X, y).n_leaves_ == 1
    X = np.random.default_rng(0).integers(0, 2, (800, 4))
    y = X[:, 0] ^ X[:, 1]
    assert LeveledNBTree(max_depth=3).fit(X, y).score(X, y) == 1.0


@pytest.mark.parametrize("params", [{"max_depth": -1}, {"max_depth": 1.5}, {"min_split": -2}, {"m": 0},
                                    {"min_split_on": "leaf"}])
def test_bad_params_are_named(params):
    X, y, _ = make_data(n=50)
    name = next(iter(params))
    with pytest.raises(ValueError, match=name):
        LeveledNBTree(**params).fit(X, y)


def test_wrong_column_count_at_predict():
    X, y, _ = make_data(n=50)
    model = LeveledNBTree(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but LeveledNBTree is expecting"):
        model.predict(X[:, :2])


def test_boosting_base_learner_if_available():
    ens = pytest.importorskip("nbx.models.ensembles")
    X, y, nv = make_data(n=300, seed=13)
    boost = ens.AdaBoostM1(base=LeveledNBTree(max_depth=3), n_estimators=5, random_state=0)
    p = boost.fit(X, y, n_values=nv).predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)


# ------------------------------------------------------------------ fast paths (byte-identical by design)
def test_sum_rows_adds_in_attribute_order_like_the_plain_gather():
    from nbx.models.counting import sum_rows
    rng = np.random.default_rng(3)
    for k in (1, 2, 3, 7, 8, 24):
        table = rng.normal(size=(50, k)) * 10.0 ** rng.uniform(-4, 4, (50, k))
        rows = rng.integers(0, 50, (300, 37))
        assert sum_rows(table, rows, chunk=64).tobytes() == table[rows].sum(axis=1).tobytes()


def test_level_sums_and_tables_equal_the_per_node_formulas():
    from nbx.models.counting import ValueIndex
    from nbx.models.leveled_tree import _sum_last
    from nbx.models.naive_bayes import nb_log_tables
    rng = np.random.default_rng(4)
    for k in range(1, 11):
        a = rng.exponential(size=(5, 9, k)) * (rng.random((5, 9, k)) < 0.7)
        assert _sum_last(a).tobytes() == a.sum(axis=-1).tobytes()
    X, y, nv = make_data(n=300, n_classes=4, seed=6)
    tree = LeveledNBTree(max_depth=1).fit(X, y, n_values=nv)
    index = ValueIndex(nv)
    counts = np.stack([index.counts(X[X[:, 0] == v], y[X[:, 0] == v], np.ones((X[:, 0] == v).sum()), 4)
                       for v in range(nv[0])])
    class_counts = np.stack([np.bincount(y[X[:, 0] == v], minlength=4).astype(float) for v in range(nv[0])])
    observed = np.add.reduceat(counts[:, :-1], index.offsets, axis=1)
    priors, tables = tree._node_tables(counts[:, :-1], class_counts, observed)
    for t in range(nv[0]):
        prior, table = nb_log_tables(counts[t, :-1], class_counts[t], index, "m_estimate", m=2.0)
        assert priors[t].tobytes() == prior.tobytes() and tables[t].tobytes() == table.tobytes()


@pytest.mark.parametrize("depth", [0, 2, 10])
def test_boosting_fast_path_equals_plain_fits(depth):
    """AdaBoost's prepared-input path (_boost_fit) fits each round's tree exactly as fit() on the rows of
    positive weight does, and its training predictions are predict()'s."""
    ens = pytest.importorskip("nbx.models.ensembles")
    X, y, nv = make_data(n=400, n_classes=3, missing=0.1, seed=14)
    Xte, _, _ = make_data(n=120, seed=15)
    base = LeveledNBTree(max_depth=depth) if depth else NaiveBayes(prior="m_estimate")
    boost = ens.AdaBoostM1(base=base, n_estimators=12, random_state=1).fit(X, y, n_values=nv)
    for est, w, err in zip(boost.estimators_, boost.training_weights_, boost.estimator_errors_):
        rows = w > 0
        plain = clone(base).fit(X[rows], y[rows], sample_weight=w[rows], n_values=nv)
        assert plain.predict_proba(Xte).tobytes() == est.predict_proba(Xte).tobytes()
        wrong = plain.predict(X) != y
        assert err == float(w[wrong].sum() / w.sum())


# ------------------------------------------------------------------ §3.2 (iii), the "children" reading
@pytest.mark.parametrize("seed", range(4))
def test_children_rule_never_creates_a_small_child(seed):
    """min_split_on="children": every node below the root holds at least min_split training weight, while
    the "node" reading on the same data does create smaller children."""
    X, y, nv = make_data(n=500, missing=0.15, seed=20 + seed)
    w = np.random.default_rng(seed).exponential(1.0, len(y))
    w *= len(y) / w.sum()  # boosting's scale: weights sum to N
    child = LeveledNBTree(max_depth=10, min_split_on="children").fit(X, y, sample_weight=w, n_values=nv)
    node = LeveledNBTree(max_depth=10, min_split_on="node").fit(X, y, sample_weight=w, n_values=nv)
    assert child.node_weight_[1:].min() >= 30 - 1e-9
    assert node.node_weight_[1:].min() < 30
    assert child.depth_ <= node.depth_
    # node weights are the weights of the rows routed there in training (missing -> largest branch)
    np.testing.assert_allclose(child.node_weight_[0], w.sum())


def test_fit_info_reports_the_tree_size():
    X, y, nv = make_data(n=400, seed=8)
    model = LeveledNBTree(max_depth=4).fit(X, y, n_values=nv)
    assert model.fit_info() == {"depth": model.depth_, "n_leaves": model.n_leaves_,
                                "n_nodes": len(model.node_attribute_)}
    assert model.n_leaves_ == int((model.node_attribute_ < 0).sum())
    ens = pytest.importorskip("nbx.models.ensembles")
    boost = ens.AdaBoostM1(LeveledNBTree(max_depth=4), n_estimators=5, random_state=0).fit(X, y, n_values=nv)
    depths = [e.depth_ for e in boost.estimators_]
    assert boost.fit_info()["base_mean"]["depth"] == round(float(np.mean(depths)), 6)
    nb = ens.AdaBoostM1(NaiveBayes(), n_estimators=3, random_state=0).fit(X, y, n_values=nv)
    assert "base_mean" not in nb.fit_info()  # unchanged for bases without fit_info (Wiering, Lee)


@pytest.mark.parametrize("on", ["node", "children"])
def test_boost_fit_predicts_every_row_like_predict(on):
    """The training predictions come from where growth left each row (missing split value: the node where
    it is missing) and from routing for rows of weight 0; both must equal predict()."""
    X, y, nv = make_data(n=500, missing=0.2, seed=16)
    rng = np.random.default_rng(5)
    w = rng.exponential(1.0, len(y)) * (rng.random(len(y)) > 0.3)
    tree = LeveledNBTree(max_depth=4, min_split_on=on)
    pred = tree._boost_fit(tree._boost_inputs(X, nv), y, w, nv)
    rows = w > 0
    plain = LeveledNBTree(max_depth=4, min_split_on=on).fit(X[rows], y[rows], sample_weight=w[rows], n_values=nv)
    np.testing.assert_array_equal(pred, plain.predict(X))
    assert plain.node_attribute_.tobytes() == tree.node_attribute_.tobytes()
