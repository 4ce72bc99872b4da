"""LeveledNBTree(cuts="values"): C4.5's threshold tests on the raw values (Ting & Zheng §3.2 read literally), the
leaf NBs on the discretizer's codes. Checked against a loop reference written here and against our C4.5."""

import math

import numpy as np
import pytest

from nbx.core.base import clone
from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1
from nbx.models.leveled_cuts import ValueRanks
from nbx.models.leveled_tree import LeveledNBTree

NV = np.array([0, 3, 0, 0])  # columns 0, 2, 3 numeric, column 1 nominal
NUMERIC = [0, 2, 3]


def make_data(n=400, n_classes=3, missing=0.05, seed=0):
    """Mixed data: three numeric columns (one with many ties) and a nominal one; the class depends on an interval
    of column 0 and on the nominal value."""
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [rng.normal(size=n), rng.integers(0, 3, n), rng.integers(0, 12, n) / 4.0, rng.exponential(size=n)]
    )
    y = ((X[:, 0] > -0.4) & (X[:, 0] < 0.7)).astype(int) + (X[:, 1] == 2) * (X[:, 3] > 0.8)
    y = (y + (rng.random(n) < 0.15)) % n_classes
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


# ------------------------------------------------------------------------- loop reference
def _entropy(weights):
    total = sum(weights)
    return -sum(v / total * math.log2(v / total) for v in weights if v > 0) if total > 0 else 0.0


def ref_cut(x, y, w, K, total, min_split, on):
    """C4.5 Release 8's best cut of one numeric column at a node, by loops: (corrected gain, split info, the cut's
    two values) or None. ``total``: the node's weight (unknown rows included)."""
    known = ~np.isnan(x)
    kn = w[known].sum()
    values = np.unique(x[known])
    ms = 0.1 * kn / K
    ms = 2.0 if ms <= 2.0 else min(ms, 25.0)
    if kn < 4 - 1e-6:
        return None
    parent = _entropy([w[known & (y == c)].sum() for c in range(K)])
    tries, best = 0, None
    for lo, hi in zip(values[:-1], values[1:]):
        left = known & (x <= lo)
        lw = w[left].sum()
        rw = kn - lw
        if not (ms - 1e-6 <= lw <= kn - ms + 1e-6):
            continue
        tries += 1
        if lw < 2 or rw < 2:
            continue
        if on == "children":
            unknown = total - kn
            sizes = (lw + unknown, rw) if lw >= rw else (lw, rw + unknown)
            if min(sizes) < min_split - 1e-9:
                continue
        right = known & (x > lo)
        cond = (
            lw * _entropy([w[left & (y == c)].sum() for c in range(K)])
            + rw * _entropy([w[right & (y == c)].sum() for c in range(K)])
        ) / kn
        gain = kn / total * (parent - cond)
        if best is None or gain > best[0] + 1e-12:
            best = (gain, _entropy([lw, rw, total - kn]), (lo, hi))
    if best is None:
        return None
    corrected = best[0] - math.log2(max(tries, 1)) / total
    return (corrected, best[1], best[2]) if corrected > 1e-12 and best[1] > 1e-12 else None


def ref_tree(X, codes, y, w, nv, K, max_depth, train_x, on, depth=0, used=(), min_split=30.0):
    """The tree by loops: numeric columns cut at raw values (threshold lowered to a training value of
    ``train_x``), the nominal one multiway once per path; the leaf NB of a node leaves out the tested columns."""
    node = {"rows": (codes, y, w), "used": set(used), "attr": -1}
    total = w.sum()
    need = min_split if on == "node" else 2 * (min_split - 1e-9)
    if depth < max_depth and total >= need:
        tests = {}
        for a in range(X.shape[1]):
            if nv[a] == 0:
                cut = ref_cut(X[:, a], y, w, K, total, min_split, on)
                if cut:
                    tests[a] = cut
            elif a not in used:
                known = ~np.isnan(X[:, a])
                kn = w[known].sum()
                branch = [w[known & (X[:, a] == v)].sum() for v in range(nv[a])]
                cond = (
                    sum(
                        b * _entropy([w[known & (X[:, a] == v) & (y == c)].sum() for c in range(K)])
                        for v, b in enumerate(branch)
                    )
                    / kn
                )
                gain = kn / total * (_entropy([w[known & (y == c)].sum() for c in range(K)]) - cond)
                split = _entropy(branch + [total - kn])
                children = list(branch)
                children[int(np.argmax(branch))] += total - kn
                ok = sum(b >= 2 for b in branch) >= 2 and split > 1e-12
                ok &= on == "node" or all(c >= min_split - 1e-9 for c in children if c > 0)
                if ok:
                    tests[a] = (gain, split, None)
        if tests:
            average = np.mean([t[0] for t in tests.values()])
            best = -np.inf
            for a in sorted(tests):
                gain, split, cut = tests[a]
                if gain >= average - 1e-12 and gain > 1e-12 and gain / split > best:
                    best, node["attr"] = gain / split, a
                    if cut is not None:
                        values = np.unique(train_x[a][~np.isnan(train_x[a])])
                        node["cut"] = values[values <= (cut[0] + cut[1]) / 2].max()
    if node["attr"] >= 0:
        a = node["attr"]
        x = X[:, a]
        branch = (x > node["cut"]).astype(int) if "cut" in node else np.nan_to_num(x, nan=-1).astype(int)
        sizes = [w[~np.isnan(x) & (branch == v)].sum() for v in range(2 if "cut" in node else nv[a])]
        branch = np.where(np.isnan(x), int(np.argmax(sizes)), branch)
        node["children"] = {
            v: ref_tree(
                X[branch == v],
                codes[branch == v],
                y[branch == v],
                w[branch == v],
                nv,
                K,
                max_depth,
                train_x,
                on,
                depth + 1,
                tuple(used) + (a,),
                min_split,
            )
            for v in range(len(sizes))
            if sizes[v] > 0
        }
    return node


def ref_proba(tree, X, codes, nv_codes, K, m=2.0):
    out = []
    for x, xc in zip(X, codes):
        node = tree
        while node["attr"] >= 0 and not np.isnan(x[node["attr"]]):
            v = int(x[node["attr"]] > node["cut"]) if "cut" in node else int(x[node["attr"]])
            if v not in node["children"]:
                break
            node = node["children"][v]
        c_, y, w = node["rows"]
        lj = np.array([math.log((w[y == c].sum() + 1) / (w.sum() + K)) for c in range(K)])
        for j in range(len(nv_codes)):
            if j in node["used"] or xc[j] < 0:
                continue
            obs = c_[:, j] >= 0
            p_v = (w[obs & (c_[:, j] == xc[j])].sum() + 1) / (w[obs].sum() + nv_codes[j])
            for c in range(K):
                n_cv = w[(y == c) & (c_[:, j] == xc[j])].sum()
                lj[c] += math.log((n_cv + m * p_v) / (w[(y == c) & obs].sum() + m))
        p = np.exp(lj - lj.max())
        out.append(p / p.sum())
    return np.array(out)


# --------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("on", ["node", "children"])
@pytest.mark.parametrize("max_depth", [1, 2, 4])
def test_value_cuts_match_the_loop_reference(max_depth, on):
    """Same tree (root test, thresholds) and probabilities as the loop reference of C4.5's cut search, with
    weights, ties and missing values; the leaf NBs read the fitted MDL codes."""
    X, y = make_data(n=500, seed=10 + max_depth)
    w = np.random.default_rng(3).uniform(0.2, 2.0, len(y))
    Xte, _ = make_data(n=150, seed=20 + max_depth)
    model = LeveledNBTree(max_depth=max_depth, min_split_on=on, ordinal=NUMERIC, cuts="values")
    model.fit(X, y, sample_weight=w, n_values=NV)
    codes = model.discretizer_.transform(X)
    tree = ref_tree(X, codes, y, w, NV, 3, max_depth, X.T, on)
    assert model.node_attribute_[0] == tree["attr"]
    assert model.node_cut_[0] == tree.get("cut", np.nan) or np.isnan(tree.get("cut", np.nan))
    proba = ref_proba(tree, Xte, model.discretizer_.transform(Xte), model.n_values_, 3)
    np.testing.assert_allclose(model.predict_proba(Xte), proba, rtol=1e-9, atol=1e-12)


def test_leaf_codes_are_the_mdl_discretizers():
    X, y = make_data(n=400, seed=2)
    model = LeveledNBTree(max_depth=3, ordinal=NUMERIC, cuts="values").fit(X, y, n_values=NV)
    mdl = MDLDiscretizer(n_values=NV).fit(X, y)
    for ours, theirs in zip(model.discretizer_.cut_points_, mdl.cut_points_):
        assert (ours is None and theirs is None) or ours.tobytes() == theirs.tobytes()
    width = LeveledNBTree(ordinal=NUMERIC, cuts="values", discretizer=EqualWidthDiscretizer(bins=4))
    assert width.fit(X, y, n_values=NV).n_values_.tolist() == [4, 3, 4, 4]


@pytest.mark.parametrize("seed", range(12))
def test_one_numeric_column_cut_where_c45_cuts_it(seed):
    """With one numeric column, no missing values and no 30-example rule, LNBT(1)'s root test is C4.5's (our
    Release 8 tree, unpruned): the same threshold, or no test where C4.5 makes none."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(40, 400)), int(rng.integers(2, 5))
    x = np.round(rng.normal(size=n) * 3, int(rng.integers(0, 3)))
    y = (np.digitize(x, np.sort(rng.normal(size=k - 1) * 3)) + (rng.random(n) < 0.3)) % k
    X = x[:, None]
    c45 = C45Tree(prune=False).fit(X, y)
    lnbt = LeveledNBTree(max_depth=1, min_split=0, min_split_on="node", ordinal=[0], cuts="values").fit(X, y)
    if c45.tree_.attr < 0:
        assert lnbt.node_attribute_[0] == -1
    else:
        assert lnbt.node_attribute_[0] == 0 and lnbt.node_cut_[0] == c45.tree_.threshold


def test_threshold_is_the_largest_training_value_below_the_midpoint():
    X = np.array([[1.0], [2.0], [2.5], [4.0], [10.0]])
    ranks = ValueRanks(X, [0])
    # midpoint 3.0: 2.5 is the largest value at or below it; midpoint 7.0: 4.0
    assert ranks.thresholds(np.array([0, 0]), np.array([1, 3]), np.array([3, 4])).tolist() == [2, 3]
    codes = ranks.test_codes(np.array([[np.nan], [0.5], [2.5], [11.0]]), np.zeros((4, 1), np.int64))
    assert codes[:, 0].tolist() == [-1, 0, 2, 5]  # a value above every training value passes every cut right


def test_thresholds_of_many_cuts_at_once_are_each_columns_search():
    """Cuts of several columns at once, between any two ranks, on values of every scale and on adjacent doubles
    (whose midpoint rounds to the upper one): each threshold is np.searchsorted's on its own column."""
    rng = np.random.default_rng(3)
    X = np.stack([rng.normal(size=300).round(1), rng.normal(size=300) * 1e300, np.full(300, 1.0)], axis=1)
    X[::2, 2] = np.nextafter(1.0, 2.0)
    X[rng.random(X.shape) < 0.1] = np.nan
    ranks = ValueRanks(X, [0, 1, 2])
    columns = rng.integers(0, 3, 500)
    size = ranks.n_ranks[columns]
    below = (rng.random(500) * (size - 1)).astype(np.int64)
    above = below + 1 + (rng.random(500) * (size - 1 - below)).astype(np.int64)
    want = [
        np.searchsorted(ranks.values[c], (ranks.values[c][b] + ranks.values[c][a]) / 2, "right") - 1
        for c, b, a in zip(columns, below, above)
    ]
    assert ranks.thresholds(columns, below, above).tolist() == want


def test_values_above_the_training_range_go_right():
    X, y = make_data(n=400, missing=0.0, seed=4)
    model = LeveledNBTree(max_depth=1, ordinal=NUMERIC, cuts="values").fit(X, y, n_values=NV)
    a = model.node_attribute_[0]
    assert a in NUMERIC
    far = X[:1].copy()
    far[0, a] = np.nanmax(X[:, a]) + 100
    assert model.apply(far)[0] == model.node_children(0)[1]


def test_boosting_fits_the_discretizer_and_values_once():
    """Under AdaBoost the leaf codes are the preprocessing of the ensemble's training set (§3.1), not refitted per
    round; every round's tree reads them."""
    X, y = make_data(n=400, seed=5)
    base = LeveledNBTree(max_depth=3, ordinal=NUMERIC, cuts="values")
    boost = AdaBoostM1(base, n_estimators=6, random_state=0).fit(X, y, n_values=NV)
    mdl = MDLDiscretizer(n_values=NV).fit(X, y)
    assert len({id(est.discretizer_) for est in boost.estimators_}) == 1
    for ours, theirs in zip(boost.estimators_[0].discretizer_.cut_points_, mdl.cut_points_):
        assert (ours is None and theirs is None) or ours.tobytes() == theirs.tobytes()
    again = AdaBoostM1(clone(base), n_estimators=6, random_state=0).fit(X, y, n_values=NV)
    assert again.predict_proba(X).tobytes() == boost.predict_proba(X).tobytes()
    assert (boost.predict(X) == y).mean() > (base.fit(X, y, n_values=NV).predict(X) == y).mean() - 0.05


def test_keep_cut_drops_a_value_cut_attribute_once_its_code_is_fixed():
    """leaf_drop="fixed": the same tree; a leaf NB keeps a cut attribute while its raw interval spans more than one
    leaf code."""
    X, y = make_data(n=600, seed=6)
    kw = {"max_depth": 4, "ordinal": NUMERIC, "cuts": "values", "min_split_on": "node"}
    tested = LeveledNBTree(**kw).fit(X, y, n_values=NV)
    fixed = LeveledNBTree(leaf_drop="fixed", **kw).fit(X, y, n_values=NV)
    assert fixed.node_cut_.tobytes() == tested.node_cut_.tobytes()
    assert not np.array_equal(fixed.predict_proba(X), tested.predict_proba(X))


def test_value_cuts_need_missing_skip():
    X, y = make_data(n=100)
    with pytest.raises(ValueError, match="missing"):
        LeveledNBTree(cuts="values", missing="value").fit(X, y, n_values=NV)


def test_a_value_cut_tree_and_its_boosted_form_survive_a_model_file(tmp_path):
    """nbx's model format (no pickle) keeps everything a raw-value tree predicts from: the fitted discretizer and the
    distinct values; the same probabilities to the bit after a round trip."""
    from nbx.cli.modelfile import read_model, write_model

    X, y = make_data(n=300, seed=7)
    base = LeveledNBTree(max_depth=3, ordinal=NUMERIC, cuts="values")
    for model in (clone(base), AdaBoostM1(clone(base), n_estimators=4, random_state=0)):
        model.fit(X, y, n_values=NV)
        path = tmp_path / f"{type(model).__name__}.nbx"
        write_model(path, model)
        assert read_model(path).predict_proba(X).tobytes() == model.predict_proba(X).tobytes()


# ------------------------------------------------------------ the array route of the cut search, as reference
_log2 = np.vectorize(math.log2, otypes=[float])  # the C library's, as the kernel's (numpy's own where pinned)


def _array_entropy(counts):
    """nbx.core.criteria.entropy with the C library's log2 (numpy's SIMD log2 differs in the last bit unpinned)."""
    total = counts.sum(axis=-1, keepdims=True)
    p = np.divide(counts, total, out=np.zeros(counts.shape), where=total > 0)
    terms = np.zeros(p.shape)
    terms[p > 0] = _log2(p[p > 0])
    terms *= p
    return -terms.sum(axis=-1)


def array_level_cuts(ranks, node_of, y, w, evaluate, weight, k, min_split, children):
    """The cut search as the tree ran it before its gains were compiled: the admissible cuts enumerated (loops), then
    every candidate's gain by array expressions, each (node, attribute)'s first maximum by reduceat."""
    n_nodes, n_o = weight.shape[0], ranks.shape[1]
    known = np.zeros((n_nodes, n_o, k))
    cands, tries = [], np.zeros((n_nodes, n_o), np.int64)
    for a in range(n_o):
        rows = [r for r in np.argsort(ranks[:, a], kind="stable") if ranks[r, a] >= 0]
        rows = [r for r in rows if node_of[r] >= 0 and evaluate[node_of[r]]]
        for r in rows:
            known[node_of[r], a, y[r]] += w[r]
        running, last = np.zeros((n_nodes, k)), np.full(n_nodes, -1)
        for r in rows:
            t, q = node_of[r], ranks[r, a]
            if last[t] >= 0 and q != last[t]:
                kn = 0.0
                for c in range(k):
                    kn += known[t, a, c]
                lw = 0.0
                for c in range(k):
                    lw += running[t, c]
                rw = kn - lw
                ms = 0.1 * kn / k
                ms = 2.0 if ms <= 2.0 else min(ms, 25.0)
                if kn >= 4 - 1e-6 and ms - 1e-6 <= lw <= kn - ms + 1e-6:
                    tries[t, a] += 1
                    ok = lw >= 2 and rw >= 2
                    if ok and children:
                        unknown = max(weight[t] - kn, 0.0)
                        lc, rc = (lw + unknown, rw) if lw >= rw else (lw, rw + unknown)
                        ok = min(lc, rc) >= min_split - 1e-9
                    if ok:
                        cands.append((t, a, last[t], q, running[t].copy()))
            running[t, y[r]] += w[r]
            last[t] = q
    gain, split = np.zeros((n_nodes, n_o)), np.zeros((n_nodes, n_o))
    below, above = np.full((n_nodes, n_o), -1), np.full((n_nodes, n_o), -1)
    if not cands:
        return gain, split, below, above
    t, a, lo, hi = (np.array([c[i] for c in cands]) for i in range(4))
    left = np.array([c[4] for c in cands])
    group = t * n_o + a
    by = np.argsort(group, kind="stable")
    t, a, lo, hi, left, group = t[by], a[by], lo[by], hi[by], left[by], group[by]
    kc = known[t, a]
    two = np.stack([left, np.maximum(kc - left, 0.0)], axis=1)
    sizes = two.sum(axis=-1)
    kn, total = kc.sum(axis=-1), weight[t]
    cond = (sizes * _array_entropy(two)).sum(axis=-1) / kn
    g = kn / total * (_array_entropy(kc) - cond) - _log2(np.maximum(tries[t, a], 1).astype(float)) / total
    begin = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    top = np.maximum.reduceat(g, begin)
    at_top = np.where(g == np.repeat(top, np.diff(np.r_[begin, g.size])), np.arange(g.size), g.size)
    first = np.minimum.reduceat(at_top, begin)
    unknown = np.maximum(total[first] - kn[first], 0.0)
    info = _array_entropy(np.concatenate([sizes[first], unknown[:, None]], axis=1))
    bt, ba = t[first], a[first]
    gain[bt, ba], split[bt, ba], below[bt, ba], above[bt, ba] = top, info, lo[first], hi[first]
    return gain, split, below, above


@pytest.mark.parametrize("k", [2, 3, 6, 9, 19])
@pytest.mark.parametrize("children", [False, True])
def test_compiled_cut_search_gives_the_array_routes_bits(k, children):
    """_level_cuts: every (node, attribute)'s gain, split information and cut equal the array route's to the bit,
    with weights, ties, missing values, pure and unevaluated nodes, and class counts summed as numpy sums (8 classes
    and more pairwise)."""
    from nbx.models.leveled_cuts import _level_cuts, presorted

    rng = np.random.default_rng(k)
    n, n_o, n_nodes = 700, 4, 5
    ranks = rng.integers(0, [40, 3, 200, 8], (n, n_o))
    ranks[rng.random(ranks.shape) < 0.05] = -1
    y = rng.integers(0, k, n)
    node_of = rng.integers(-1, n_nodes, n)
    y[node_of == 2] = 1  # a pure node
    w = rng.choice([1.0, 0.5, 1.0 / 3.0, 2.7], n) * (rng.random(n) < 0.95)
    weight = np.bincount(node_of[node_of >= 0], w[node_of >= 0], n_nodes) + 0.5
    evaluate = np.array([True, True, True, False, True])
    order, starts, ranked = presorted(ranks)
    gain, split, found, below, above, _ = _level_cuts(
        ranked, order, starts, node_of, y, w, evaluate, weight, k, 30.0, children
    )
    want = array_level_cuts(ranks, node_of, y, w, evaluate, weight, k, 30.0, children)
    assert found.sum() >= 8 and not found[3].any()
    assert gain.tobytes() == want[0].tobytes() and split.tobytes() == want[1].tobytes()
    assert below.tolist() == want[2].tolist() and above.tolist() == want[3].tolist()


def array_code_cuts(grid, total, min_split, children):
    """The threshold tests' cut search on the codes as LeveledNBTree._best_cuts ran it in array expressions (with
    the C library's log2): the reference of leveled_cuts.code_cuts."""
    branches = grid[:, :, :-1]
    if grid.shape[-1] < 8:  # the unknown rows' weight as the tree added it: left to right, without numpy's 0.0
        unknown = grid[:, :, -1, 0].copy()
        for c in range(1, grid.shape[-1]):
            unknown += grid[:, :, -1, c]
    else:
        unknown = grid[:, :, -1].sum(axis=-1)
    known = branches.sum(axis=(2, 3))
    left = np.cumsum(branches, axis=2)[:, :, :-1]
    right = np.cumsum(branches[:, :, ::-1], axis=2)[:, :, -2::-1]
    two = np.stack([left, right], axis=3)
    two_sizes = two.sum(axis=-1)
    unknown = np.broadcast_to(unknown[:, :, None], two_sizes.shape[:-1])
    lw, rw = two_sizes[..., 0], two_sizes[..., 1]
    ok = (lw >= 2) & (rw >= 2)
    if children:
        first = lw >= rw
        lw, rw = np.where(first, lw + unknown, lw), np.where(first, rw, rw + unknown)
        ok &= np.minimum(lw, rw) >= min_split - 1e-9
    n, a, c = np.nonzero(ok)
    gain, split = np.zeros(two_sizes.shape[:-1]), np.zeros(two_sizes.shape[:-1])
    kn = known[n, a]
    with np.errstate(divide="ignore", invalid="ignore"):
        cond = (two_sizes[n, a, c] * _array_entropy(two[n, a, c])).sum(axis=-1) / kn
        g = np.where(total[n] > 0, kn / total[n], 0.0) * (_array_entropy(branches.sum(axis=2))[n, a] - cond)
    gain[n, a, c] = np.where(kn > 0, g, 0.0)
    split[n, a, c] = _array_entropy(np.concatenate([two_sizes[n, a, c], unknown[n, a, c, None]], axis=-1))
    ok = np.zeros(gain.shape, bool)
    ok[n, a, c] = split[n, a, c] > 1e-12
    t = np.argmax(np.where(ok, gain, -np.inf), axis=2)
    at_t = lambda v: np.take_along_axis(v, t[..., None], 2)[..., 0]  # noqa: E731
    return at_t(gain), at_t(split), ok.any(axis=2), np.where(ok.any(axis=2), t, -1)


@pytest.mark.parametrize("k", [2, 3, 6, 9, 19])
@pytest.mark.parametrize("children", [False, True])
def test_compiled_code_cuts_give_the_array_routes_bits(k, children):
    """code_cuts: every (node, attribute)'s gain, split information, admissibility and cut equal the array route's
    to the bit: counts with weights, empty and pure value cells, unknown rows, nodes without any admissible cut."""
    from nbx.models.leveled_cuts import code_cuts

    rng = np.random.default_rng(k + 100 * children)
    n_nodes, n_a, n_values = 6, 5, 9
    grid = rng.choice([0.0, 0.0, 1.0, 0.5, 2.7, 13.0 / 3.0], (n_nodes, n_a, n_values + 1, k))
    grid[1] *= 10.0
    grid[2, :, :, 1:] = 0.0  # a pure node
    grid[3] = 0.0  # an empty one
    grid[4, 1, :3] = 0.0
    total = grid.sum(axis=(1, 2, 3)) / n_a + rng.uniform(0, 3, n_nodes)
    got = code_cuts(grid, total, 30.0, children)
    want = array_code_cuts(grid, total, 30.0, children)
    assert 5 <= got[2].sum() < got[2].size
    for ours, theirs in zip(got, want):
        assert ours.tobytes() == theirs.astype(ours.dtype).tobytes()
