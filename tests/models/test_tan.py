"""TAN (Friedman et al. 1997) against brute-force references."""

import itertools

import numpy as np
import pytest
from chain_data import chain_data

from nbx.core.counting import ValueIndex
from nbx.models import tan as tan_module
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import (
    TAN,
    bayesian_edge_gains,
    conditional_mutual_information,
    greedy_directed_tree,
    max_spanning_tree,
    weka_tan_tree,
)


def brute_cmi(X, y, w, i, j, vi, vj, k):
    ok = (X[:, i] >= 0) & (X[:, j] >= 0)
    t = np.zeros((k, vi, vj))
    for a, b, c, wt in zip(X[ok, i], X[ok, j], y[ok], w[ok]):
        t[c, a, b] += wt
    total = t.sum()
    out = 0.0
    for c in range(k):
        for a in range(vi):
            for b in range(vj):
                if t[c, a, b] > 0:
                    p_abc = t[c, a, b] / total
                    p_c = t[c].sum() / total
                    p_ac = t[c, a, :].sum() / total
                    p_bc = t[c, :, b].sum() / total
                    out += p_abc * np.log(p_abc * p_c / (p_ac * p_bc))
    return out


@pytest.mark.parametrize("weights", ["unit", "fractional"])
@pytest.mark.parametrize("block", [1 << 22, 16])  # one bincount, or blocks of one row
def test_pair_class_counts_equal_a_loop_over_rows(weights, block, monkeypatch):
    monkeypatch.setattr(tan_module, "PAIR_BLOCK", block)
    rng = np.random.default_rng(3)
    n_values = np.array([3, 4, 2, 5])
    codes = rng.integers(-1, 5, (300, 4))
    codes = np.where(codes < n_values, codes, -1)  # -1 = missing
    y = rng.integers(0, 3, 300)
    w = np.ones(300) if weights == "unit" else rng.random(300)
    index = ValueIndex(n_values)
    expected = np.zeros((3, index.n_rows, index.n_rows))
    for row, c, weight in zip(codes, y, w):
        for i, j in itertools.product(range(4), repeat=2):
            if row[i] >= 0 and row[j] >= 0:
                expected[c, index.offsets[i] + row[i], index.offsets[j] + row[j]] += weight
    got = tan_module.pair_class_counts(codes, y, w, index, 3)
    assert got.shape == expected.shape and np.allclose(got, expected, rtol=1e-12, atol=0)
    if weights == "unit":
        assert np.array_equal(got, expected)


@pytest.mark.parametrize("weights", ["unit", "fractional", "counts"])
@pytest.mark.parametrize("block", [1 << 22, 4096, 16])  # one block, several, one row each
def test_compiled_pair_counts_equal_the_bincounts_bit_for_bit(weights, block, monkeypatch):
    """From COMPILED_FROM entries pair_class_counts runs a compiled loop; it makes the
    bincounts' additions in their order, block by block, so the counts are the same to the bit (the pipeline's TAN
    fits switch between the two)."""
    monkeypatch.setattr(tan_module, "PAIR_BLOCK", block)
    rng = np.random.default_rng(8)
    n_values = rng.integers(1, 7, 12)
    codes = rng.integers(-1, 7, (700, 12))
    codes = np.where(codes < n_values, codes, -1)
    y = rng.integers(0, 4, 700)
    w = {"unit": np.ones(700), "fractional": rng.random(700), "counts": rng.poisson(1.0, 700).astype(float)}[weights]
    index = ValueIndex(n_values)
    counts = {}
    for compiled_from in (0, 1 << 62):
        monkeypatch.setattr(tan_module, "COMPILED_FROM", compiled_from)
        counts[compiled_from] = tan_module.pair_class_counts(codes, y, w, index, 4)
    assert counts[0].tobytes() == counts[1 << 62].tobytes()


def test_cmi_equals_brute_force_with_missing_and_weights():
    rng = np.random.default_rng(0)
    X, y = chain_data(300, rng, k=3, d=4, missing=0.1)
    X[:, 2] = np.where(X[:, 2] >= 0, X[:, 2] % 2, -1)  # mixed cardinalities
    w = rng.uniform(0.2, 2.0, 300)
    nv = np.array([3, 3, 2, 3])
    cmi = conditional_mutual_information(X, y, w, nv, 3)
    for i, j in itertools.permutations(range(4), 2):
        assert cmi[i, j] == pytest.approx(brute_cmi(X, y, w, i, j, nv[i], nv[j], 3), abs=1e-12)
    assert np.all(np.diag(cmi) == 0)


def prufer_trees(d):
    """All labelled trees on d nodes, as edge lists (Prüfer sequences)."""
    for seq in itertools.product(range(d), repeat=d - 2):
        degree = [1] * d
        for s in seq:
            degree[s] += 1
        edges = []
        for s in seq:
            leaf = min(i for i in range(d) if degree[i] == 1)
            edges.append((leaf, s))
            degree[leaf] -= 1
            degree[s] -= 1
        u, v = [i for i in range(d) if degree[i] == 1]
        edges.append((u, v))
        yield edges


def tree_weight(parents, weights):
    return sum(weights[j, p] for j, p in enumerate(parents) if p >= 0)


@pytest.mark.parametrize("seed", range(4))
def test_prim_tree_is_a_maximum_spanning_tree(seed):
    rng = np.random.default_rng(seed)
    d = 6
    a = rng.random((d, d))
    weights = a + a.T
    np.fill_diagonal(weights, 0)
    best = max(sum(weights[u, v] for u, v in edges) for edges in prufer_trees(d))
    for root in (0, 3):
        parents = max_spanning_tree(weights, root)
        assert parents[root] == -1 and np.sum(parents < 0) == 1
        for j in range(d):  # every node reaches the root: a directed tree
            seen, node = set(), j
            while parents[node] >= 0:
                assert node not in seen
                seen.add(node)
                node = parents[node]
            assert node == root
        assert tree_weight(parents, weights) == pytest.approx(best, abs=1e-12)


def test_tan_structure_is_max_tree_of_its_cmi_and_recovers_chain():
    rng = np.random.default_rng(1)
    X, y = chain_data(3000, rng)
    model = TAN().fit(X, y)
    best = max(sum(model.edge_weights_[u, v] for u, v in edges) for edges in prufer_trees(5))
    assert tree_weight(model.parents_, model.edge_weights_) == pytest.approx(best)
    assert model.parents_.tolist() == [-1, 0, 1, 2, 3]  # the generating chain, rooted at attribute 0


def test_root_max_class_mi():
    rng = np.random.default_rng(2)
    X, y = chain_data(500, rng)
    model = TAN(root="max_class_mi").fit(X, y)
    counts = [np.array([[np.sum((X[:, j] == v) & (y == c)) for c in range(2)] for v in range(3)]) for j in range(5)]
    mi = []
    for t in counts:
        p = t / t.sum()
        with np.errstate(divide="ignore", invalid="ignore"):
            mi.append(np.sum(np.where(p > 0, p * np.log(p / (p.sum(1, keepdims=True) * p.sum(0))), 0)))
    assert model.root_ == int(np.argmax(mi))
    assert model.parents_[model.root_] == -1
    assert TAN(root=3).fit(X, y).parents_[3] == -1


def test_cp_tables_equal_brute_force_counts():
    rng = np.random.default_rng(3)
    X, y = chain_data(400, rng, k=3, missing=0.1)
    w = rng.integers(1, 4, 400).astype(float)
    alpha = 0.5
    model = TAN(alpha=alpha).fit(X, y, sample_weight=w)
    for j, p in enumerate(model.parents_):
        table = model.conditional_table(j)
        pv = 3 if p >= 0 else 1
        assert table.shape == (pv, 3, 3)
        for u in range(pv):
            for c in range(3):
                rows = (y == c) & (X[:, j] >= 0)
                if p >= 0:
                    rows &= X[:, p] == u
                n = np.array([w[rows & (X[:, j] == v)].sum() for v in range(3)])
                np.testing.assert_allclose(table[u, c], (n + alpha) / (n.sum() + 3 * alpha), rtol=1e-12)
    prior = np.array([w[y == c].sum() for c in range(3)])
    np.testing.assert_allclose(np.exp(model.class_log_prior_), (prior + alpha) / (w.sum() + 3 * alpha))


def test_naive_structure_equals_laplace_naive_bayes():
    rng = np.random.default_rng(4)
    X, y = chain_data(300, rng, k=3, missing=0.15)
    w = rng.uniform(0.5, 3, 300)
    for alpha in (1.0, 0.3):
        tan = TAN(alpha=alpha, structure="naive").fit(X, y, sample_weight=w)
        nb = NaiveBayes(alpha=alpha).fit(X, y, sample_weight=w)
        assert np.all(tan.parents_ == -1)
        np.testing.assert_allclose(tan.decision_function(X), nb.decision_function(X), rtol=1e-12)


def test_missing_child_and_missing_parent():
    rng = np.random.default_rng(5)
    X, y = chain_data(500, rng)
    model = TAN().fit(X, y)
    assert model.parents_.tolist() == [-1, 0, 1, 2, 3]
    x = np.array([[1, -1, 2, 0, -1]])  # x1 missing (child of 0, parent of 2); x4 missing (leaf)
    expected = model.class_log_prior_.copy()
    expected += np.log(model.conditional_table(0)[0, :, 1])  # root: P(x0 | c)
    counts = np.array([[np.sum((X[:, 2] == v) & (y == c)) for v in range(3)] for c in range(2)])
    expected += np.log((counts[:, 2] + 1) / (counts.sum(1) + 3))  # x2's parent missing: P(x2 | c)
    expected += np.log(model.conditional_table(3)[2, :, 0])  # P(x3 | x2 = 2, c)
    np.testing.assert_allclose(model._class_scores(x)[0], expected, rtol=1e-12)


def test_combined_codes_by_row_blocks_equal_the_rule_row_by_row():
    """Each row's conditional code (parent value x V + value when both are observed) and marginal code (the value
    when only the parent is missing), -1 otherwise, over more rows than one block of the computation."""
    rng = np.random.default_rng(6)
    X, y = chain_data(30_000, rng)
    X[rng.random(X.shape) < 0.1] = -1
    model = TAN().fit(X, y)
    cond, marg = model.combined_codes(X)
    for j, p in enumerate(model.parents_):
        parent = X[:, p] if p >= 0 else np.zeros(len(X), X.dtype)
        both = (X[:, j] >= 0) & (parent >= 0)
        assert np.array_equal(cond[:, j], np.where(both, parent * model.n_values_[j] + X[:, j], -1))
        assert np.array_equal(marg[:, j], np.where((X[:, j] >= 0) & ~both, X[:, j], -1))


def test_tables_and_scores_by_row_blocks_equal_the_whole_array_routes():
    """Unit-weight conditional counts added up a block of rows at a time, and log-likelihoods scored a block at a
    time, are the bits of the routes over all the rows at once, over more rows than one block, with missing codes."""
    rng = np.random.default_rng(8)
    X, y = chain_data(30_000, rng)
    X[rng.random(X.shape) < 0.1] = -1
    model = TAN().fit(X, y)
    cond, marg = model.combined_codes(X)
    k = len(model.classes_)
    whole = model.cond_index_.counts(cond, y, np.ones(len(y)), k)[:-1]
    assert np.array_equal(model.cond_count_, whole)
    scores = model.cond_index_.lookup_sum(model.cond_log_table_, cond) + model.marg_index_.lookup_sum(
        model.marg_log_table_, marg
    )
    assert np.array_equal(model.log_likelihood(X), scores)


def test_weights_equal_row_duplication():
    rng = np.random.default_rng(6)
    X, y = chain_data(200, rng, missing=0.05)
    reps = rng.integers(0, 4, 200)
    a = TAN().fit(X, y, sample_weight=reps.astype(float))
    b = TAN().fit(np.repeat(X, reps, axis=0), np.repeat(y, reps))
    assert np.array_equal(a.parents_, b.parents_)
    np.testing.assert_allclose(a.edge_weights_, b.edge_weights_, atol=1e-12)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=1e-12)


def test_probabilities_determinism_and_edge_cases():
    rng = np.random.default_rng(7)
    X, y = chain_data(300, rng, missing=0.1)
    X[:, 3] = 2  # constant column
    X[:, 4] = -1  # all-missing column
    a = TAN().fit(X, y, n_values=[3, 3, 3, 3, 3])
    b = TAN().fit(X, y, n_values=[3, 3, 3, 3, 3])
    p = a.predict_proba(X)
    assert p.tobytes() == b.predict_proba(X).tobytes()
    np.testing.assert_allclose(p.sum(1), 1)
    np.testing.assert_allclose(np.exp(a.predict_log_proba(X)), p)
    assert np.isfinite(a.decision_function(X)).all()
    # a class given in classes whose rows all weigh 0: uniform CP tables, prior alpha / (N + K alpha); without
    # classes those rows are absent rows and it is no class
    w = np.where(y == 1, 0.0, 1.0)
    c = TAN(classes=np.unique(y)).fit(X, y, sample_weight=w, n_values=[3] * 5)
    np.testing.assert_allclose(c.conditional_table(0)[:, 1, :], 1 / 3)
    np.testing.assert_allclose(np.exp(c.class_log_prior_[1]), 1 / (w.sum() + len(c.classes_)))
    assert 1 not in TAN().fit(X, y, sample_weight=w).classes_
    # no attributes / one attribute
    with pytest.raises(ValueError, match=r"0 feature\(s\)"):
        TAN().fit(X[:, :0], y)
    one = TAN().fit(X[:, :1], y)
    nb = NaiveBayes().fit(X[:, :1], y)
    np.testing.assert_allclose(one.decision_function(X[:, :1]), nb.decision_function(X[:, :1]))


def test_many_attributes_no_underflow():
    rng = np.random.default_rng(8)
    X, y = chain_data(200, rng, d=80)
    p = TAN().fit(X, y).predict_proba(X)
    assert np.isfinite(p).all() and np.allclose(p.sum(1), 1)


@pytest.mark.parametrize(
    "params, word",
    [
        ({"alpha": 0}, "alpha"),
        ({"structure": "full"}, "structure"),
        ({"root": "middle"}, "root"),
        ({"root": 9}, "root"),
        ({"tree": "prim"}, "tree"),
    ],
)
def test_bad_params(params, word):
    X, y = chain_data(50, np.random.default_rng(9))
    with pytest.raises(ValueError, match=word):
        TAN(**params).fit(X, y)


def _local_score(counts, alpha):
    """Weka's BAYES local score of a (rows, values) count table, written from its definition."""
    from scipy.special import gammaln

    out = 0.0
    for row in counts:
        v = len(row)
        out += sum(gammaln(alpha + n) - gammaln(alpha) for n in row)
        out -= gammaln(v * alpha + row.sum()) - gammaln(v * alpha)
    return out


def test_bayesian_edge_gain_equals_hand_computed_score():
    rng = np.random.default_rng(11)
    n, nv, k = 60, np.array([3, 2, 4]), 3
    X = np.column_stack([rng.integers(0, v, n) for v in nv])
    X[::7, 1] = -1  # missing: both scores of a gain use the rows where the two attributes are observed
    y = rng.integers(0, k, n)
    w = rng.uniform(0.5, 2.0, n)
    gains = bayesian_edge_gains(X, y, w, nv, k, alpha=0.5)
    for i, j in itertools.permutations(range(3), 2):
        ok = (X[:, i] >= 0) & (X[:, j] >= 0)
        with_parent = np.zeros((k * nv[j], nv[i]))
        class_only = np.zeros((k, nv[i]))
        for a, b, c, wt in zip(X[ok, i], X[ok, j], y[ok], w[ok]):
            with_parent[c * nv[j] + b, a] += wt
            class_only[c, a] += wt
        expected = _local_score(with_parent, 0.5) - _local_score(class_only, 0.5)
        assert gains[i, j] == pytest.approx(expected, rel=1e-10, abs=1e-10)
    np.testing.assert_array_equal(np.diag(gains), 0.0)


def test_greedy_directed_tree_follows_the_best_outward_arc():
    gains = np.array([[0.0, 5.0, 1.0, 0.0], [2.0, 0.0, 3.0, -1.0], [4.0, 0.5, 0.0, 2.5], [0.0, -2.0, 6.0, 0.0]])
    # gains[child, parent]: best arc 2 -> 3 (6.0); then 2 -> 1 (3.0) beats 2 -> 0 (1.0) and 3 -> 1 (-1.0);
    # then 1 -> 0 (5.0)
    np.testing.assert_array_equal(greedy_directed_tree(gains), [1, 2, -1, 2])


def test_wekas_tan_rule_by_hand():
    # gains[i, j] = Δ(i ← j). First link: the best arc over all pairs, (0 ← 1) = 5; it is inserted reversed, 1 ← 0.
    # Then the best arc with one end linked: (2 ← 0) = 4 beats (0 ← 2) = 1 and (1 ← 2) = 3 and is inserted as
    # 0 ← 2 since 0 has no parent yet: Weka's tree 1 ← 0 ← 2 (ours, outward: 0 ← 1, then 2 ← 0).
    gains = np.array([[0.0, 5.0, 1.0], [0.5, 0.0, 0.0], [4.0, 3.0, 0.0]])
    np.testing.assert_array_equal(weka_tan_tree(gains), [2, 0, -1])
    np.testing.assert_array_equal(greedy_directed_tree(gains), [1, -1, 0])
    np.testing.assert_array_equal(weka_tan_tree(np.zeros((1, 1))), [-1])


# Kang & Tian (2006)'s TAN as Weka 3.6 builds it: a data set on which Weka's rule and ours give different trees
WEKA_X = [[2, 1, 1], [0, 0, 1], [1, 0, 0], [2, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 0], [0, 1, 1]]
WEKA_Y = [0, 1, 1, 1, 1, 1, 0, 0]


def test_weka_tree_on_a_hand_made_data_set():
    ours = TAN(criterion="bayes").fit(WEKA_X, WEKA_Y)
    weka = TAN(criterion="bayes", tree="weka", alpha=0.5).fit(WEKA_X, WEKA_Y)
    # the gains Δ(i ← j) (Weka's BAYES score, α = 0.5) do not depend on the tree rule or the tables' α
    np.testing.assert_array_equal(weka.edge_weights_, ours.edge_weights_)
    g = np.round(weka.edge_weights_, 4)
    np.testing.assert_array_equal(g, [[0.0, 0.7885, 0.5371], [-0.2231, 0.0, 0.1823], [0.2877, 0.6931, 0.0]])
    # Weka by hand: the best arc (0 ← 1) = 0.7885 is the first link, directed 1 ← 0 (1 has no parent yet); then
    # (2 ← 1) = 0.6931 beats (0 ← 2), (2 ← 0) and (1 ← 2); its parent end 1 already has a parent, so 2 ← 1.
    np.testing.assert_array_equal(weka.parents_, [-1, 0, 1])
    assert weka.root_ == 0
    # ours, outward: 0 ← 1 (the best arc, as scored), then 2 ← 1 (0.6931 beats 2 ← 0's 0.2877)
    np.testing.assert_array_equal(ours.parents_, [1, -1, 1])
    # the tables are TAN's own on that tree: equal to refitting the default TAN's tables on Weka's parents
    refit = TAN(criterion="bayes", alpha=0.5).fit(WEKA_X, WEKA_Y)
    refit.parents_ = weka.parents_
    refit._fit_tables(np.asarray(WEKA_X), np.asarray(WEKA_Y), np.ones(len(WEKA_Y)), 2)
    np.testing.assert_array_equal(weka.predict_proba(WEKA_X), refit.predict_proba(WEKA_X))


@pytest.mark.parametrize("criterion", ["bayes", "cmi"])
def test_default_tree_rule_is_unchanged(criterion):
    X, y = chain_data(80, np.random.default_rng(3))
    default = TAN(criterion=criterion).fit(X, y)
    assert TAN().tree == "outward"
    explicit = TAN(criterion=criterion, tree="outward").fit(X, y)
    np.testing.assert_array_equal(default.parents_, explicit.parents_)
    np.testing.assert_array_equal(default.predict_proba(X), explicit.predict_proba(X))
    weka = TAN(criterion=criterion, tree="weka").fit(X, y)
    np.testing.assert_array_equal(weka.parents_, weka_tan_tree(weka.edge_weights_))


def _id_attribute_data(n=120, seed=0):
    """Column 0 is a row ID (a distinct value per row); columns 1-6 are noisy copies of the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    X = np.column_stack([np.arange(n)] + [np.where(rng.random(n) < 0.7, y, rng.integers(0, 4, n)) for _ in range(6)])
    return X, y


def test_id_like_attribute_dominates_cmi_but_not_the_bayesian_score():
    X, y = _id_attribute_data()
    train, test = np.arange(0, len(y), 2), np.arange(1, len(y), 2)  # test rows carry unseen IDs
    nv = X.max(axis=0) + 1
    cmi = TAN(criterion="cmi").fit(X[train], y[train], n_values=nv)
    bayes = TAN(criterion="bayes").fit(X[train], y[train], n_values=nv)
    # CMI: the ID is the parent of every other attribute (I(ID; X_j | C) = H(X_j | C) is maximal) ...
    np.testing.assert_array_equal(cmi.parents_[1:], 0)
    # ... the Bayesian score pays for its parameters: the ID is nobody's parent
    assert not np.any(bayes.parents_ == 0)
    acc_cmi = np.mean(cmi.predict(X[test]) == y[test])
    acc_bayes = np.mean(bayes.predict(X[test]) == y[test])
    nb = np.mean(NaiveBayes(prior="laplace").fit(X[train], y[train], n_values=nv).predict(X[test]) == y[test])
    assert acc_bayes >= nb - 0.05 and acc_cmi < acc_bayes - 0.2


@pytest.mark.parametrize("weights", ["unit", "fractional"])
@pytest.mark.parametrize("block", [1 << 22, 16])  # one bincount, or blocks of one row
@pytest.mark.parametrize("criterion", ["bayes", "cmi"])
def test_subset_pair_counts_are_the_subsets_own_counts(weights, block, criterion, monkeypatch):
    """Counts cut from all attributes' pair counts (subset_pair_counts) are pair_class_counts of the subset to the
    bit wherever exact_subsets says so (unit weights, or one block), and a TAN fitted with them is the TAN fitted
    on the subset alone (same edge weights and tables, bit for bit)."""
    monkeypatch.setattr(tan_module, "PAIR_BLOCK", block)
    rng = np.random.default_rng(5)
    n_values = np.array([3, 4, 2, 5, 9, 1])
    codes = rng.integers(-1, 9, (200, 6))
    codes = np.where(codes < n_values, codes, -1)
    y = rng.integers(0, 3, 200)
    w = np.ones(200) if weights == "unit" else rng.random(200)
    index = ValueIndex(n_values)
    full = tan_module.PairCounts(tan_module.pair_class_counts(codes, y, w, index, 3))
    full.cells(0.5)  # the subsets cut the lnΓ cells of all attributes
    assert tan_module.exact_subsets(w, 6) == (weights == "unit" or block > 16)
    for cols in ([0, 1], [5, 2, 4], [4, 0, 1, 3, 5], list(range(6))):
        sub = full.subset(index, cols)
        own = tan_module.pair_class_counts(codes[:, cols], y, w, ValueIndex(n_values[cols]), 3)
        assert sub.counts.shape == own.shape and np.allclose(sub.counts, own, rtol=1e-12, atol=0)
        if tan_module.exact_subsets(w, 6):
            assert np.array_equal(sub.counts, own)
            assert np.array_equal(sub.cells(0.5), tan_module.PairCounts(own).cells(0.5))
            fitted = [
                TAN(criterion=criterion).fit(codes[:, cols], y, sample_weight=w, n_values=n_values[cols], **extra)
                for extra in ({}, {"pair_counts": sub})
            ]
            assert np.array_equal(fitted[0].edge_weights_, fitted[1].edge_weights_)
            assert np.array_equal(fitted[0].parents_, fitted[1].parents_)
            assert np.array_equal(fitted[0].cond_log_table_, fitted[1].cond_log_table_)
