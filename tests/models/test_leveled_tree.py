"""LeveledNBTree (Ting & Zheng §3.2): checked against a loop-based reference written here."""

import math
import tracemalloc

import numpy as np
import pytest

from nbx.core.base import clone
from nbx.core.counting import ValueIndex, sum_rows
from nbx.models import leveled_loops
from nbx.models.leveled_loops import DENSE_TABLE_MAX, compact_log_joint, dense_log_joint, level_counts, level_tables
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


def dense(table):
    """A level's log tables as one (nodes, table rows, K) array, from either form ``level_tables`` returns."""
    return table[1].T[table[0]] if isinstance(table, tuple) else table


# ------------------------------------------------------------------------- brute-force reference
def _entropy(weights):
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights if w > 0) if total > 0 else 0.0


def ref_gain(X, y, w, a, V, K, t=-1):
    """C4.5 gain and split information of attribute a's multiway test (t = -1) or of its cut x <= t, with
    missing values, by loops."""
    total = w.sum()
    known = X[:, a] >= 0
    wk = w[known].sum()
    class_known = [w[known & (y == c)].sum() for c in range(K)]
    cond = 0.0
    branch = []
    for v in range(V if t < 0 else 2):
        sel = known & (ref_branch(X[:, a], t) == v)
        wv = w[sel].sum()
        branch.append(wv)
        if wv > 0:
            cond += wv / wk * _entropy([w[sel & (y == c)].sum() for c in range(K)])
    gain = wk / total * (_entropy(class_known) - cond) if wk > 0 else 0.0
    split = _entropy(branch + [total - wk])
    return gain, split, branch


def ref_children(X, w, a, branch, t=-1):
    """Weight of each branch once the rows with a missing value join the largest branch."""
    out = list(branch)
    out[int(np.argmax(branch))] += w[X[:, a] < 0].sum()
    return out


def ref_tree(
    X, y, w, nv, K, max_depth, depth=0, used=(), min_split=30.0, on="node", ordinal=(), leaf_drop="tested", bounds=None
):
    """The tree by loops; an ``ordinal`` attribute's test is its best binary cut ``x <= t`` (by gain).
    ``bounds``: attribute -> (lo, hi) codes its cuts on the path leave; ``leaf_drop="fixed"`` leaves out of the
    NB only the tested attributes that are nominal or whose lo = hi."""
    bounds = dict(bounds or {})
    fixed = {a for a in used if a not in ordinal or bounds[a][0] == bounds[a][1]}
    node = {"rows": (X, y, w), "used": set(used) if leaf_drop == "tested" else fixed, "attr": -1, "t": -1}

    def admissible(s, a, t):
        if sum(b >= 2 for b in s[2]) < 2 or s[1] <= 1e-12:
            return False
        # under the children reading every non-empty child keeps at least min_split
        return on != "children" or all(c >= min_split - 1e-9 for c in ref_children(X, w, a, s[2], t) if c > 0)

    if depth < max_depth and w.sum() >= min_split:
        ok = {}
        for a in range(len(nv)):
            if a in ordinal:
                cuts = [(ref_gain(X, y, w, a, nv[a], K, t), t) for t in range(nv[a] - 1)]
                cuts = [(s, t) for s, t in cuts if admissible(s, a, t)]
                if cuts:
                    ok[a] = max(cuts, key=lambda c: (c[0][0], -c[1]))  # largest gain, lowest t
            elif a not in used:
                s = ref_gain(X, y, w, a, nv[a], K)
                if admissible(s, a, -1):
                    ok[a] = (s, -1)
        if ok:
            avg = np.mean([s[0] for s, _ in ok.values()])
            best, best_ratio = -1, -np.inf
            for a in sorted(ok):
                (gain, split, _), t = ok[a]
                if gain >= avg - 1e-12 and gain > 1e-12 and gain / split > best_ratio:
                    best, best_ratio, node["t"] = a, gain / split, t
            node["attr"] = best
    if node["attr"] >= 0:
        a, t = node["attr"], node["t"]
        branch = ref_gain(X, y, w, a, nv[a], K, t)[2]
        largest = int(np.argmax(branch))
        col = np.where(X[:, a] >= 0, ref_branch(X[:, a], t), largest)
        node["children"] = {
            v: ref_tree(
                X[col == v],
                y[col == v],
                w[col == v],
                nv,
                K,
                max_depth,
                depth + 1,
                tuple(used) + (a,),
                min_split,
                on,
                ordinal,
                leaf_drop,
                {**bounds, a: narrow(bounds.get(a, (0, nv[a] - 1)), t, v)},
            )
            for v in range(len(branch))
            if branch[v] > 0
        }
    return node


def narrow(bound, t, side):
    """The codes (lo, hi) left after branch ``side`` of the cut ``code <= t`` (a multiway test: unchanged)."""
    lo, hi = bound
    return bound if t < 0 else ((lo, min(hi, t)) if side == 0 else (max(lo, t + 1), hi))


def ref_branch(codes, t):
    """Branch of each code: the code itself (multiway, t = -1) or 0 / 1 for code <= t / code > t."""
    return codes if t < 0 else (codes > t).astype(int)


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
        while node["attr"] >= 0 and x[node["attr"]] >= 0 and ref_branch(x[node["attr"]], node["t"]) in node["children"]:
            node = node["children"][ref_branch(x[node["attr"]], node["t"])]
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
        return [d for c in node["children"].values() for d in walk(c, depth + 1)]

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
    X, y, _nv = make_data(seed=11)
    p = LeveledNBTree(max_depth=4).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert np.all(np.isfinite(LeveledNBTree(max_depth=4).fit(X, y).predict_log_proba(X)))


def test_deterministic_and_clone():
    X, y, _nv = make_data(seed=12)
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


@pytest.mark.parametrize(
    "params", [{"max_depth": -1}, {"max_depth": 1.5}, {"min_split": -2}, {"m": 0}, {"min_split_on": "leaf"}]
)
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
    from nbx.core.counting import sum_rows

    rng = np.random.default_rng(3)
    for k in (1, 2, 3, 7, 8, 24):
        table = rng.normal(size=(50, k)) * 10.0 ** rng.uniform(-4, 4, (50, k))
        rows = rng.integers(0, 50, (300, 37))
        assert sum_rows(table, rows, chunk=64).tobytes() == table[rows].sum(axis=1).tobytes()


def test_level_sums_and_tables_equal_the_per_node_formulas():
    from nbx.core.counting import ValueIndex
    from nbx.models.naive_bayes import nb_log_tables

    X, y, nv = make_data(n=300, n_classes=4, seed=6)
    tree = LeveledNBTree(max_depth=1).fit(X, y, n_values=nv)
    index = ValueIndex(nv)
    counts = np.stack(
        [index.counts(X[X[:, 0] == v], y[X[:, 0] == v], np.ones((X[:, 0] == v).sum()), 4) for v in range(nv[0])]
    )
    class_counts = np.stack([np.bincount(y[X[:, 0] == v], minlength=4).astype(float) for v in range(nv[0])])
    observed = np.add.reduceat(counts[:, :-1], index.offsets, axis=1)
    drop = np.zeros((nv[0], len(nv)), bool)
    priors, tables = level_tables(counts, class_counts, observed, class_counts.sum(axis=1), index, tree.m, drop)
    tables = dense(tables)
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
    assert model.fit_info() == {
        "depth": model.depth_,
        "n_leaves": model.n_leaves_,
        "n_nodes": len(model.node_attribute_),
    }
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


@pytest.mark.parametrize("n_values", [(2, 3, 4, 3, 2), (300, 3, 4, 3, 2)])
def test_boost_inputs_are_the_codes_and_table_rows_in_narrow_types(n_values):
    """AdaBoost's prepared inputs hold the codes and their ValueIndex table rows in the narrowest integer types
    (int8 / uint8 for a few values, int16 / uint16 from 128 codes or 256 table rows), the same numbers."""
    X, y, nv = make_data(n=300, n_values=n_values, missing=0.1, seed=9)
    codes, flat = LeveledNBTree()._boost_inputs(X, nv)
    wide = max(n_values) > 127
    assert codes.dtype == (np.int16 if wide else np.int8) and flat.dtype == (np.uint16 if wide else np.uint8)
    np.testing.assert_array_equal(codes, X)
    np.testing.assert_array_equal(flat, ValueIndex(nv).rows(X))


def traced_peak(fit) -> int:
    """tracemalloc's peak of what ``fit()`` allocates (numpy's buffers included)."""
    tracemalloc.start()
    fit()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_fit_and_boosting_hold_no_int64_table_rows():
    """A fit's peak memory beside its input, int64 codes of n x d: the table rows are made by blocks and held as
    uint8 (0.58 x; the code before made three int64 arrays of that shape, 2.2 x), and a boosting run holds its
    codes and table rows narrow and no weights per round (30 rounds of LNBT(1): 1.38 x; before, 3.5 x)."""
    rng = np.random.default_rng(0)
    n, d = 20_000, 20
    nv = 2 + np.arange(d) % 5
    X = (rng.random((n, d)) * nv).astype(np.int64)
    y = (X[:, 0] + X[:, 1] * (X[:, 2] > 1) + (rng.random(n) < 0.3)) % 3
    ens = pytest.importorskip("nbx.models.ensembles")
    for make in (
        lambda: LeveledNBTree(max_depth=3),
        lambda: ens.AdaBoostM1(LeveledNBTree(max_depth=1), n_estimators=30, random_state=0),
    ):
        make().fit(X[:500], y[:500], n_values=nv)  # the compiled kernels loaded
        assert traced_peak(lambda make=make: make().fit(X, y, n_values=nv)) < 2 * X.nbytes


# --------------------------------------------------------- Fig. 1: threshold tests on ordinal (numeric) codes
ORDINAL = (0, 2, 3)  # make_data's columns 0, 2, 3 stand for discretized numeric attributes


@pytest.mark.parametrize("on", ["node", "children"])
@pytest.mark.parametrize("max_depth", [1, 2, 4])
def test_threshold_tests_match_reference(max_depth, on):
    """Ordinal columns get their best binary cut by gain, nominal ones a multiway test once per path: the
    same tree and probabilities as the loop reference, with weights and missing values."""
    X, y, nv = make_data(n=500, n_values=(6, 3, 5, 4, 2), missing=0.08, seed=30 + max_depth)
    w = np.random.default_rng(3).uniform(0.2, 2.0, len(y))
    Xte, _, _ = make_data(n=150, n_values=(6, 3, 5, 4, 2), seed=40 + max_depth)
    model = LeveledNBTree(max_depth=max_depth, min_split_on=on, ordinal=list(ORDINAL))
    model.fit(X, y, sample_weight=w, n_values=nv)
    tree = ref_tree(X, y, w, nv, 3, max_depth, on=on, ordinal=ORDINAL)
    assert (model.node_attribute_[0], model.node_threshold_[0]) == (tree["attr"], tree["t"])
    np.testing.assert_allclose(model.predict_proba(Xte), ref_proba(tree, Xte, nv, 3), rtol=1e-9, atol=1e-12)


def test_an_ordinal_attribute_is_cut_again_deeper():
    """A class that holds on an interval of one attribute needs two cuts of it on one path (Fig. 1's
    'Temperature > 70°C' style); a multiway tree may test it only once. Threshold nodes have two branches."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, size=(800, 2))
    y = ((X[:, 0] >= 3) & (X[:, 0] <= 5)).astype(int)
    nv = np.array([8, 8])
    tree = LeveledNBTree(max_depth=3, ordinal=[True, False]).fit(X, y, n_values=nv)
    thr = tree.node_threshold_
    assert np.all((thr >= 0) == (tree.node_attribute_ == 0))  # the ordinal attribute is cut, never multiway
    assert np.all(thr[thr >= 0] <= nv[0] - 2)
    for node in np.flatnonzero(thr >= 0):
        assert set(tree.node_children(node)) <= {0, 1}
    assert (tree.node_depth_[tree.node_attribute_ == 0] == 1).any()  # cut again below the root's cut
    assert (tree.predict(X) == y).all()


def test_ordinal_mask_and_indices_agree_and_none_is_multiway():
    X, y, nv = make_data(n=400, n_values=(6, 3, 5, 4, 2), seed=9)
    by_index = LeveledNBTree(max_depth=3, ordinal=[0, 2]).fit(X, y, n_values=nv)
    by_mask = LeveledNBTree(max_depth=3, ordinal=[True, False, True, False, False]).fit(X, y, n_values=nv)
    assert by_index.predict_proba(X).tobytes() == by_mask.predict_proba(X).tobytes()
    none, empty = (LeveledNBTree(max_depth=3, ordinal=o).fit(X, y, n_values=nv) for o in (None, []))
    assert none.predict_proba(X).tobytes() == empty.predict_proba(X).tobytes()
    assert np.all(none.node_threshold_ == -1)


def test_single_valued_ordinal_columns_give_naive_bayes():
    """Columns discretized into one interval offer no cut: the tree is one leaf, naive Bayes."""
    X, y = np.zeros((60, 2), np.int64), np.arange(60) % 2
    tree = LeveledNBTree(max_depth=3, ordinal=[0, 1]).fit(X, y, n_values=[1, 1])
    assert tree.n_leaves_ == 1 and tree.node_threshold_.tolist() == [-1]


@pytest.mark.parametrize("ordinal", [[0, 7], [[0, 1]], [True, False], ["a"]])
def test_bad_ordinal_is_named(ordinal):
    X, y, nv = make_data(n=100)
    with pytest.raises(ValueError, match="ordinal"):
        LeveledNBTree(ordinal=ordinal).fit(X, y, n_values=nv)


@pytest.mark.parametrize("seed", range(3))
def test_children_rule_holds_for_threshold_tests(seed):
    X, y, nv = make_data(n=500, n_values=(6, 3, 5, 4, 2), missing=0.15, seed=50 + seed)
    w = np.random.default_rng(seed).exponential(1.0, len(y))
    w *= len(y) / w.sum()
    tree = LeveledNBTree(max_depth=10, ordinal=list(ORDINAL)).fit(X, y, sample_weight=w, n_values=nv)
    assert (tree.node_threshold_ >= 0).any()
    assert tree.node_weight_[1:].min() >= 30 - 1e-9


@pytest.mark.parametrize("on", ["node", "children"])
def test_boosting_paths_agree_with_threshold_tests(on):
    """_boost_fit's training predictions equal predict(), and AdaBoost's fast path fits each round's tree
    as fit() does, with ordinal columns."""
    X, y, nv = make_data(n=500, n_values=(6, 3, 5, 4, 2), missing=0.2, seed=17)
    rng = np.random.default_rng(6)
    w = rng.exponential(1.0, len(y)) * (rng.random(len(y)) > 0.3)
    tree = LeveledNBTree(max_depth=4, min_split_on=on, ordinal=list(ORDINAL))
    pred = tree._boost_fit(tree._boost_inputs(X, nv), y, w, nv)
    rows = w > 0
    plain = clone(tree).fit(X[rows], y[rows], sample_weight=w[rows], n_values=nv)
    np.testing.assert_array_equal(pred, plain.predict(X))
    assert plain.node_threshold_.tobytes() == tree.node_threshold_.tobytes()
    ens = pytest.importorskip("nbx.models.ensembles")
    boost = ens.AdaBoostM1(base=clone(tree), n_estimators=8, random_state=2).fit(X, y, n_values=nv)
    for est, bw in zip(boost.estimators_, boost.training_weights_):
        keep = bw > 0
        again = clone(tree).fit(X[keep], y[keep], sample_weight=bw[keep], n_values=nv)
        assert again.predict_proba(X).tobytes() == est.predict_proba(X).tobytes()


@pytest.mark.parametrize("max_depth", [1, 3, 5])
def test_keep_cut_leaves_match_reference(max_depth):
    """leaf_drop="fixed": same tree as "tested", leaf NBs over every attribute the path does not fix (loop
    reference with the cut intervals), with weights and missing values."""
    X, y, nv = make_data(n=600, n_values=(6, 3, 5, 4, 2), missing=0.08, seed=60 + max_depth)
    w = np.random.default_rng(4).uniform(0.2, 2.0, len(y))
    Xte, _, _ = make_data(n=150, n_values=(6, 3, 5, 4, 2), seed=70 + max_depth)
    kw = {"max_depth": max_depth, "min_split_on": "node", "ordinal": list(ORDINAL)}
    model = LeveledNBTree(leaf_drop="fixed", **kw).fit(X, y, sample_weight=w, n_values=nv)
    tested = LeveledNBTree(**kw).fit(X, y, sample_weight=w, n_values=nv)
    assert model.node_threshold_.tobytes() == tested.node_threshold_.tobytes()
    assert (model.node_threshold_ >= 0).any()
    tree = ref_tree(X, y, w, nv, 3, max_depth, on="node", ordinal=ORDINAL, leaf_drop="fixed")
    np.testing.assert_allclose(model.predict_proba(Xte), ref_proba(tree, Xte, nv, 3), rtol=1e-9, atol=1e-12)
    assert not np.allclose(model.predict_proba(Xte), tested.predict_proba(Xte))


def test_keep_cut_leaf_nb_uses_the_cut_attributes_code():
    """Hand-built case: one ordinal attribute a (codes 0-3) cut at the root by a <= 0 and a nominal b. The
    branch a > 0 still sees codes 1-3: under "fixed" its NB is NaiveBayes(m = 2) on the branch's rows over
    (a, b), so it depends on a's code; under "tested" it ignores a. The branch a <= 0 holds one code: both
    drop a there."""
    X = np.array([[0, 0]] * 40 + [[0, 1]] * 40 + [[1, 0]] * 30 + [[2, 1]] * 30 + [[3, 0]] * 20 + [[3, 1]] * 20)
    y = np.array([0] * 80 + [1] * 20 + [0] * 10 + [1] * 12 + [0] * 18 + [1] * 5 + [0] * 15 + [1] * 15 + [0] * 5)
    nv = [4, 2]
    keep = LeveledNBTree(max_depth=1, min_split=30, leaf_drop="fixed", ordinal=[0]).fit(X, y, n_values=nv)
    drop = LeveledNBTree(max_depth=1, min_split=30, ordinal=[0]).fit(X, y, n_values=nv)
    assert keep.node_attribute_.tolist() == [0, -1, -1] and keep.node_threshold_[0] == 0
    right = X[:, 0] > 0
    nb = NaiveBayes(prior="m_estimate", m=2.0).fit(X[right], y[right], n_values=nv)
    probe = np.array([[1, 0], [2, 0], [3, 0], [1, 1], [3, 1]])
    np.testing.assert_allclose(keep.predict_proba(probe), nb.predict_proba(probe), rtol=1e-12)
    assert len({round(p, 9) for p in keep.predict_proba(probe[:3])[:, 1]}) == 3  # a's code matters
    assert len({round(p, 9) for p in drop.predict_proba(probe[:3])[:, 1]}) == 1  # it does not
    left = np.array([[0, 0], [0, 1]])
    assert keep.predict_proba(left).tobytes() == drop.predict_proba(left).tobytes()


def test_leaf_drop_changes_nothing_without_threshold_tests():
    """Multiway tests fix their attribute's value: both readings of §3.2 (ii) give the same tree, bit for bit."""
    X, y, nv = make_data(n=500, n_values=(6, 3, 5, 4, 2), seed=12)
    a, b = (LeveledNBTree(max_depth=4, leaf_drop=d).fit(X, y, n_values=nv) for d in ("tested", "fixed"))
    assert a.predict_proba(X).tobytes() == b.predict_proba(X).tobytes()


@pytest.mark.parametrize("max_depth", [0, 3])
def test_missing_as_value_equals_an_explicit_extra_code(max_depth):
    """missing="value" is the "skip" tree on data where every missing code is rewritten as one more value
    (code n_values): same tests, same probabilities, bit for bit, at fit and under boosting; a code never seen
    in training still counts as missing."""
    X, y, nv = make_data(n=500, missing=0.25, seed=21)
    w = np.random.default_rng(8).uniform(0.5, 1.5, len(y))
    recoded = np.where(X < 0, nv, X)
    model = LeveledNBTree(max_depth=max_depth, missing="value").fit(X, y, sample_weight=w, n_values=nv)
    plain = LeveledNBTree(max_depth=max_depth).fit(recoded, y, sample_weight=w, n_values=nv + 1)
    assert model.n_values_.tolist() == (nv + 1).tolist()
    assert model.node_attribute_.tobytes() == plain.node_attribute_.tobytes()
    assert model.predict_proba(X).tobytes() == plain.predict_proba(recoded).tobytes()
    unseen = X[:5].copy()
    unseen[:, 0] = nv[0]  # never seen in training: missing, not the "?" value
    gone = np.where(recoded[:5] >= 0, recoded[:5], -1)
    gone[:, 0] = -1
    assert model.predict_proba(unseen).tobytes() == plain.predict_proba(gone).tobytes()
    if max_depth:
        assert not np.allclose(
            model.predict_proba(X), LeveledNBTree(max_depth=max_depth).fit(X, y, w, nv).predict_proba(X)
        )
    ens = pytest.importorskip("nbx.models.ensembles")
    a, b = (
        ens.AdaBoostM1(base=base, n_estimators=6, random_state=1).fit(data, y, n_values=n)
        for base, data, n in ((model, X, nv), (clone(plain), recoded, nv + 1))
    )
    assert a.predict_proba(X).tobytes() == b.predict_proba(recoded).tobytes()


def test_level_counts_are_the_weighted_bincount_bit_for_bit():
    """The compiled level count adds what np.bincount over (node, table row, class) cells adds, in its order."""
    rng = np.random.default_rng(7)
    n, d, n_table, k, n_nodes = 300, 6, 20, 3, 4
    flat, y = rng.integers(0, n_table, (n, d)), rng.integers(0, k, n)
    w = rng.gamma(0.5, 3.0, n)
    rows = np.sort(rng.choice(n, 200, replace=False))
    local = rng.integers(0, n_nodes, rows.shape[0])
    cell = (flat[rows] * k + y[rows, None]) + (local * (n_table * k))[:, None]
    expected = np.bincount(cell.ravel(), weights=np.repeat(w[rows], d), minlength=n_nodes * n_table * k)
    got, class_counts = level_counts(flat, y, w, rows, local, n_nodes, n_table, k)
    assert got.tobytes() == expected.reshape(n_nodes, n_table, k).tobytes()
    expected = np.bincount(local * k + y[rows], weights=w[rows], minlength=n_nodes * k).reshape(n_nodes, k)
    assert class_counts.tobytes() == expected.tobytes()


def test_level_log_joint_is_prior_plus_table_rows_in_attribute_order():
    """The compiled log joint of one level's rows, on dense and on compact tables, equals counting.sum_rows' sum
    (attribute order) plus the node's prior, bit for bit, and writes only those rows."""
    rng = np.random.default_rng(8)
    n, d, n_table, k, n_nodes, first = 500, 9, 15, 4, 5, 3
    compact, priors = rng.normal(size=(k, 40)), rng.normal(size=(first + n_nodes, k))
    rows_of = rng.integers(0, 40, (n_nodes, n_table)).astype(np.int32)  # each node's table rows in the compact table
    node, flat = rng.integers(first, first + n_nodes, n), rng.integers(0, n_table, (n, d))
    tables = compact.T[rows_of]
    expected = priors[node] + sum_rows(tables.reshape(-1, k), ((node - first) * n_table)[:, None] + flat)
    rows = np.sort(rng.choice(n, 300, replace=False))
    for joint, table in ((dense_log_joint, (tables,)), (compact_log_joint, (rows_of, compact))):
        out = np.full((n, k), np.nan)
        joint(priors, *table, first, node, flat, rows, out)
        assert out[rows].tobytes() == expected[rows].tobytes()
        assert np.isnan(np.delete(out, rows, axis=0)).all()


# ------------------------------------------- compiled level kernels against the former numpy forms, bit for bit
def numpy_node_tables(value_counts, class_counts, observed, index, m, drop):
    """The local NBs' tables as the array code computed them before the compiled kernels (nb_log_tables'
    m-estimate for many nodes at once)."""
    n_nodes, n_rows, k = value_counts.shape
    row_attr = index.attribute_of_row
    p_v = (value_counts.sum(axis=-1) + 1.0) / (observed.sum(axis=-1) + index.n_values)[:, row_attr]
    m_p = m * p_v[:, :, None]
    log_num = np.repeat(np.log(m_p), k, axis=2)
    np.log(value_counts + m_p, out=log_num, where=value_counts > 0)
    log_table = np.zeros((n_nodes, n_rows + 1, k))
    np.subtract(log_num, np.log(observed + m)[:, row_attr], out=log_table[:, :-1])
    log_prior = np.log(class_counts + 1.0) - np.log(class_counts.sum(axis=-1)[:, None] + k)
    log_table[:, :-1][drop[:, row_attr]] = 0.0
    return log_prior, log_table


def numpy_best_tests(value_counts, class_counts, observed, used, index, min_split, children):
    """C4.5's multiway test selection as the array code computed it before the compiled kernels."""
    from nbx.core.criteria import entropy

    n_nodes, d, vmax = value_counts.shape[0], len(index.n_values), int(index.n_values.max())
    k = class_counts.shape[1]
    pad = np.arange(index.n_rows) - index.offsets[index.attribute_of_row]
    grid = np.zeros((n_nodes, d, vmax + 1, k))
    grid[:, index.attribute_of_row, pad] = value_counts
    grid[:, :, vmax] = np.maximum(class_counts[:, None] - observed, 0.0)
    total = class_counts.sum(axis=-1)[:, None]
    branches = grid[:, :, :-1]
    sizes = grid.sum(axis=-1)
    branch_sizes = np.ascontiguousarray(sizes[:, :, :-1])
    known = branches.sum(axis=(2, 3))
    with np.errstate(divide="ignore", invalid="ignore"):
        known_sizes = branch_sizes.sum(axis=-1)
        cond = np.where(known_sizes > 0, (branch_sizes * entropy(branches)).sum(axis=-1) / known_sizes, 0.0)
        gain = np.where(total > 0, known / total, 0.0) * (entropy(branches.sum(axis=-2)) - cond)
    split = entropy(sizes)
    ok = (branch_sizes >= 2.0).sum(axis=-1) >= 2
    if children:
        kids = branch_sizes.copy()
        largest = np.argmax(branch_sizes, axis=-1)[..., None]
        np.put_along_axis(kids, largest, np.take_along_axis(kids, largest, -1) + sizes[..., -1:], -1)
        ok &= np.where(kids > 0, kids, np.inf).min(axis=-1) >= min_split - 1e-9
    admissible = ~used & ok & (split > 1e-12)
    count = admissible.sum(axis=1)
    average = np.full(n_nodes, np.inf)
    for c in np.unique(count[count > 0]):
        group = count == c
        average[group] = gain[group][admissible[group]].reshape(-1, c).sum(axis=1) / c
    candidate = admissible & (gain >= average[:, None] - 1e-12) & (gain > 1e-12)
    ratio = np.where(candidate, gain / np.where(split > 0, split, 1.0), -np.inf)
    return np.where(candidate.any(axis=1), np.argmax(ratio, axis=1), -1), gain, split, admissible


def random_level(rng, n_nodes, n_values, k):
    """Counts of a tree level with empty branches, tied branch weights (integer weights) and missing values."""
    from nbx.core.counting import ValueIndex

    index = ValueIndex(n_values)
    integer = rng.random() < 0.5  # integer weights make ties in gains, sizes and ratios
    cells = (n_nodes, index.n_rows + 1, k)
    counts = rng.integers(0, 4, cells) * 1.0 if integer else rng.gamma(0.3, 5.0, cells)
    counts *= rng.random(cells) < rng.uniform(0.1, 0.9)  # empty cells and empty branches
    observed = np.add.reduceat(counts[:, :-1], index.offsets, axis=1)
    # a node's class totals hold its known rows plus up to a few with missing values per attribute
    class_counts = observed.max(axis=1) + (rng.random((n_nodes, k)) < 0.3) * rng.integers(0, 5, (n_nodes, k))
    return index, counts, class_counts, observed


@pytest.mark.parametrize("dense_max", [0, DENSE_TABLE_MAX])
@pytest.mark.parametrize("k", [1, 2, 3, 7, 8, 9, 24])
def test_compiled_level_kernels_equal_the_numpy_forms(k, dense_max, monkeypatch):
    """The compiled tables and C4.5 test selection of a level (level_tables, _best_tests) give the bits of the
    former numpy forms: node tables for every drop mask, gains, split information, admissibility and the chosen
    attribute for random grids with ties, empty branches, missing values, attributes of 1 to 30 values (runs
    of 8 and more terms and of more than 128 sum pairwise in numpy) and both readings of §3.2 (iii)."""
    monkeypatch.setattr(leveled_loops, "DENSE_TABLE_MAX", dense_max)  # 0: every level's tables compact
    rng = np.random.default_rng(100 + k)
    for trial in range(12):
        n_values = rng.integers(1, 31 if trial % 3 == 0 else 6, rng.integers(1, 9))
        n_nodes = int(rng.integers(1, 6))
        index, counts, class_counts, observed = random_level(rng, n_nodes, n_values, k)
        weight = class_counts.sum(axis=1)
        drop = rng.random((n_nodes, len(n_values))) < 0.3
        for reading in ("children", "node"):
            min_split = float(rng.choice([2.0, 4.0, 30.0]))
            tree = LeveledNBTree(min_split=min_split, min_split_on=reading)
            tree.classes_, tree.n_values_ = np.arange(k), np.asarray(n_values)
            tree._setup()
            prior, table = level_tables(counts, class_counts, observed, weight, tree._index, tree.m, drop)
            expected = numpy_node_tables(counts[:, :-1], class_counts, observed, index, 2.0, drop)
            assert prior.tobytes() == expected[0].tobytes() and dense(table).tobytes() == expected[1].tobytes()
            assert isinstance(table, tuple) == (counts.size > dense_max)
            if isinstance(table, tuple):  # a row of zeros, one per (node, attribute kept) for its unseen values,
                seen = (counts[:, :-1].sum(axis=-1) > 0) & ~drop[:, index.attribute_of_row]  # one per seen value
                assert table[1].shape[1] == 1 + (~drop).sum() + seen.sum()
            nodes = np.flatnonzero(rng.random(n_nodes) < 0.8)
            if not nodes.size:
                continue
            used = rng.random((n_nodes, len(n_values))) < 0.2
            best, thr, _ = tree._best_tests(counts, class_counts, observed, weight, nodes, used)
            want, gain, split, admissible = numpy_best_tests(
                counts[nodes, :-1],
                class_counts[nodes],
                observed[nodes],
                used[nodes],
                index,
                min_split,
                reading == "children",
            )
            assert best.tolist() == want.tolist() and (thr == -1).all()
            # the gains themselves, bit for bit (the choice could hide a moved bit)
            from nbx.models.leveled_loops import multiway_gains

            columns = np.arange(len(n_values))
            out = np.zeros_like(gain), np.zeros_like(split), np.zeros(admissible.shape, bool)
            multiway_gains(
                counts,
                class_counts,
                observed,
                weight,
                nodes,
                columns,
                used[nodes],
                index,
                min_split,
                reading == "children",
                out,
            )
            assert out[0].tobytes() == gain.tobytes() and out[1].tobytes() == split.tobytes()
            assert (out[2] == admissible).all()


@pytest.mark.parametrize("reading", ["node", "children"])
def test_dense_and_compact_tables_give_the_same_model(reading, monkeypatch):
    """Whether a level keeps its tables dense or compact changes no bit of a fitted tree's probabilities (deep
    trees, missing values, an ordinal attribute's threshold tests), nor of a boosted one's."""
    ens = pytest.importorskip("nbx.models.ensembles")
    X, y, nv = make_data(n=600, n_values=(4, 5, 3, 6, 2, 7), n_classes=4, missing=0.08, seed=21)
    Xte, _, _ = make_data(n=200, n_values=(4, 5, 3, 6, 2, 7), missing=0.15, seed=22)
    out = []
    for dense_max in (0, 1 << 40):
        monkeypatch.setattr(leveled_loops, "DENSE_TABLE_MAX", dense_max)
        tree = LeveledNBTree(max_depth=10, min_split=4, min_split_on=reading, ordinal=[3]).fit(X, y, n_values=nv)
        boost = ens.AdaBoostM1(base=clone(tree), n_estimators=5, random_state=3).fit(X, y, n_values=nv)
        kinds = {isinstance(t, tuple) for t in tree._log_tables}
        assert kinds == {dense_max == 0}
        out.append(tree.predict_proba(Xte).tobytes() + boost.predict_proba(Xte).tobytes())
    assert out[0] == out[1]
