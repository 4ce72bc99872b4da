import math

import numpy as np
import pytest

from nbx.core.base import as_codes
from nbx.data.synthetic import parity
from nbx.models.hierarchical_mixture import HierarchicalMixtureNB
from nbx.models.naive_bayes import NaiveBayes


def random_data(n=60, d=5, k=3, seed=0, missing=0.1):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, d))
    y = (X[:, 0] + rng.integers(0, 2, n)) % k
    X[rng.random(X.shape) < missing] = -1
    return X, y


def nb_proba(level: dict, m: int, rows: np.ndarray, attrs: np.ndarray, denominator: str) -> np.ndarray:
    """Reference NB of model m on one level: P(o|D) ∝ c(o)/tot · Π_j c_j(f_j, o) / den, den = c(o) (class)
    or Σ_v c_j(v, o) (attribute)."""
    p = level["classes"][m] / level["classes"][m].sum()
    for r, a in zip(rows, attrs):
        den = level["classes"][m] if denominator == "class" else level["totals"][a, m]
        p = p * level["values"][r, m] / den
    return p / p.sum()


@pytest.mark.parametrize("denominator", ["class", "attribute"])
def test_single_expert_without_jitter_is_naive_bayes(denominator):
    X, y = random_data()
    hm = HierarchicalMixtureNB(layers=[1], jitter=0.0, n_iter=1, denominator=denominator, random_state=0).fit(X, y)
    nb = NaiveBayes(alpha=0.1, denominator=denominator).fit(X, y)
    np.testing.assert_allclose(hm.predict_proba(X), nb.predict_proba(X), atol=1e-12)


def test_class_denominator_hand_computed():
    """§2.2/§3.2: an expert's P(f_k | C) = c_k(f_k, C) / c(C); one expert, no jitter, one example
    (x = (0, 1), C* = 0, weight 1) on top of the initial counters γ."""
    X, y, g = np.array([[0, 1]]), np.array([0]), 0.1
    hm = HierarchicalMixtureNB(layers=[1], jitter=0.0, n_iter=1, random_state=0).fit(X, y, n_values=[2, 2])
    # classes_ = [0]: c(0) = 1 + g, c_0(0, 0) = c_1(1, 0) = 1 + g; prior 1 (one class)
    expert = hm.levels_[-1]
    np.testing.assert_allclose(expert["classes"][0], [1 + g])
    np.testing.assert_allclose(expert["values"][[0, 3], 0, 0], [1 + g, 1 + g])
    _log_prior, table = hm._levels[-1].log_tables("class")
    np.testing.assert_allclose(np.exp(table[:4, 0]), [1.0, g / (1 + g), g / (1 + g), 1.0])


def test_initial_counters_gamma_plus_jitter():
    X, y = random_data()
    hm = HierarchicalMixtureNB(layers=[2, 3], n_iter=0, random_state=1).fit(X, y)
    shapes = [(1, 2), (2, 3), (6, 3)]
    for level, (n_models, n_out) in zip(hm.levels_, shapes):
        values = level["values"]
        assert values.shape == (15, n_models, n_out)
        assert np.all((values >= 0.1) & (values < 0.11)) and len(np.unique(values)) == values.size
        assert np.all((level["classes"] >= 0.1) & (level["classes"] < 0.11))
        np.testing.assert_allclose(level["totals"], values.reshape(5, 3, n_models, n_out).sum(axis=1))


@pytest.mark.parametrize("denominator", ["class", "attribute"])
def test_predict_proba_matches_brute_force_mixture(denominator):
    X, y = random_data(seed=2)
    hm = HierarchicalMixtureNB(layers=[2, 2], denominator=denominator, random_state=3).fit(X, y)
    root, gates, experts = hm.levels_
    offsets = np.array([0, 3, 6, 9, 12])
    ref = np.zeros((len(X), 3))
    for n, x in enumerate(as_codes(X)):
        attrs = np.flatnonzero(x >= 0)
        rows = offsets[attrs] + x[attrs]
        g = nb_proba(root, 0, rows, attrs, denominator)
        for i in range(2):
            g_i = nb_proba(gates, i, rows, attrs, denominator)
            for j in range(2):
                ref[n] += g[i] * g_i[j] * nb_proba(experts, 2 * i + j, rows, attrs, denominator)
    proba = hm.predict_proba(X)
    np.testing.assert_allclose(proba, ref, rtol=1e-10)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("denominator", ["class", "attribute"])
def test_one_em_step_matches_paper_equations(denominator):
    """§3.2 for a 2-2 HM written out with loops over the models, on one example."""
    X, y = random_data(seed=4)
    hm = HierarchicalMixtureNB(layers=[2, 2], n_iter=0, sigma=0.7, denominator=denominator, random_state=5).fit(X, y)
    before = [{k: v.copy() for k, v in level.items()} for level in hm.levels_]
    x, c_star, weight = as_codes(X)[7], y[7], 1.5
    attrs = np.flatnonzero(x >= 0)
    rows = np.array([0, 3, 6, 9, 12])[attrs] + x[attrs]
    codes = as_codes(X)[7:8]
    one_pass = hm.set_params(n_iter=1)
    one_pass._online_em(codes, np.array([c_star]), np.array([weight]), np.random.default_rng())

    root, gates, experts = before
    g = nb_proba(root, 0, rows, attrs, denominator)
    g_cond = [nb_proba(gates, i, rows, attrs, denominator) for i in range(2)]
    p_hat = np.array(
        [
            [np.exp(-0.7 * (1 - nb_proba(experts, 2 * i + j, rows, attrs, denominator)[c_star])) for j in range(2)]
            for i in range(2)
        ]
    )
    sub = np.array([sum(g_cond[i][j] * p_hat[i, j] for j in range(2)) for i in range(2)])
    h = g * sub / np.sum(g * sub)
    h_cond = [g_cond[i] * p_hat[i] / np.sum(g_cond[i] * p_hat[i]) for i in range(2)]

    def updated(level, m, target, w):
        level["classes"][m, target] += w
        for r, a in zip(rows, attrs):
            level["values"][r, m, target] += w
            level["totals"][a, m, target] += w

    updated(root, 0, int(np.argmax(sub)), weight)
    for i in range(2):
        updated(gates, i, int(np.argmax(p_hat[i])), weight * h[i])
        for j in range(2):
            updated(experts, 2 * i + j, c_star, weight * h[i] * h_cond[i][j])
    for ref, got in zip(before, hm.levels_):
        for key in ("classes", "values", "totals"):
            np.testing.assert_allclose(got[key], ref[key], rtol=1e-12)


libm_log, libm_exp = np.vectorize(math.log, otypes=[float]), np.vectorize(math.exp, otypes=[float])


def reference_fit(hm: HierarchicalMixtureNB, X, y, n_iter: int, rng, w=None) -> list[np.ndarray]:
    """The online EM computed level by level with plain numpy (gather, log, signs @ block, softmax, _mix,
    updates), as the first implementation did, from an unfitted ``hm``; returns every level's counters.
    ``w``: the examples' update weights (default 1).

    Logs and exps are the C library's (``math``), which the compiled EM calls: numpy's are the same under the
    stages' kernel pin (``nbx.pipeline.kernels``), while its AVX-512 loops differ in the last bits."""
    levels = [lv.counters.copy() for lv in hm._levels]
    codes = as_codes(X)
    n_rows, d = hm._index.n_rows, codes.shape[1]
    w = np.ones(len(y)) if w is None else w
    for _ in range(n_iter):
        for i in rng.permutation(len(y)):
            attrs = np.flatnonzero(codes[i] >= 0)
            sel = np.concatenate([hm._index.rows(codes[i : i + 1])[0, attrs], n_rows + 1 + attrs, [n_rows + 1 + d]])
            signs = np.concatenate([np.ones(len(attrs)), -np.ones(len(attrs)), [1.0]])
            read = sel
            if hm.denominator == "class":  # Σ_k log c_k(f_k, o) + (1 - n) log c(o)
                read = np.concatenate([sel[: len(attrs)], sel[-1:]])
                signs = np.concatenate([np.ones(len(attrs)), [1.0 - len(attrs)]])
            probs = []
            for c in levels:
                log_p = (signs @ libm_log(c[read].reshape(len(read), -1))).reshape(c.shape[1:])
                p = libm_exp(log_p - log_p.max(axis=1, keepdims=True))
                probs.append(p / p.sum(axis=1, keepdims=True))
            values = libm_exp(-hm.sigma * (1.0 - probs[-1][:, y[i]]))
            children = []
            for g in probs[-2::-1]:
                child = values.reshape(g.shape)
                children.insert(0, child)
                values = (g * child).sum(axis=1)
            path = np.ones(1)
            for c, g, child in zip(levels, probs, children):
                best = np.argmax(child, axis=1)
                c[sel[:, None], np.arange(len(best)), best] += w[i] * path
                joint = g * child
                path = (path[:, None] * joint / joint.sum(axis=1, keepdims=True)).ravel()
            levels[-1][sel[:, None], np.arange(len(path)), y[i]] += w[i] * path
    return levels


@pytest.mark.parametrize("denominator", ["class", "attribute"])
@pytest.mark.parametrize("layers", [[4], [2, 2], [3, 2], [2, 2, 2]])
def test_fit_is_bitwise_the_level_by_level_em(layers, denominator):
    """The prepared-buffer EM does the same floating-point operations as a level-by-level one."""
    X, y = random_data(n=40, seed=11, missing=0.2)
    rng = np.random.default_rng(4)
    start = HierarchicalMixtureNB(layers=layers, n_iter=0, denominator=denominator, random_state=rng).fit(X, y)
    expected = reference_fit(start, X, y, 3, rng)
    fitted = HierarchicalMixtureNB(layers=layers, n_iter=3, denominator=denominator, random_state=4).fit(X, y)
    for ref, lv in zip(expected, fitted._levels):
        assert lv.counters.tobytes() == ref.tobytes()


@pytest.mark.parametrize("denominator", ["class", "attribute"])
def test_weighted_fit_with_missing_codes_is_bitwise_the_level_by_level_em(denominator):
    """The EM reads each example's counter rows from its codes (missing ones skipped): with sample weights and
    a third of the values missing it still does the reference's operations bit for bit."""
    X, y = random_data(n=50, seed=12, missing=0.3)
    w = np.random.default_rng(3).uniform(0.2, 3.0, len(y))
    rng = np.random.default_rng(6)
    start = HierarchicalMixtureNB(layers=[2, 2], n_iter=0, denominator=denominator, random_state=rng).fit(X, y)
    expected = reference_fit(start, X, y, 2, rng, w)
    fitted = HierarchicalMixtureNB(layers=[2, 2], n_iter=2, denominator=denominator, random_state=6)
    fitted.fit(X, y, sample_weight=w)
    for ref, lv in zip(expected, fitted._levels):
        assert lv.counters.tobytes() == ref.tobytes()


@pytest.mark.parametrize("layers", [[4], [2]])
def test_one_layer_loads_xor_naive_bayes_cannot(layers):
    X, y, _, _ = parity(bits=2)
    assert NaiveBayes(alpha=0.1).fit(X, y).score(X, y) <= 0.75
    for seed in range(10):
        assert HierarchicalMixtureNB(layers=layers, random_state=seed).fit(X, y).score(X, y) == 1.0


def test_deep_binary_hm_loads_4bit_parity():
    """Wiering §3.2: 6- and 7-layer binary HMs "were able to reliably learn the 4-bit parity problem".

    With the paper's 5 passes over the 16 patterns no seed loads parity, so we train to "load" the
    patterns: 300 passes. Measured for a 7-layer binary HM, sigma = 0.1, seeds 0-19: 11/20 seeds load
    all 16 patterns, mean training accuracy 0.90 (100 passes: 3/20, 0.77; naive Bayes: 0.5). To keep
    this file fast we run seeds 0-7 (measured: 2/8 loaded, mean accuracy 0.82) and assert that with margin.
    """
    X, y, _, _ = parity(bits=4)
    scores = np.array(
        [HierarchicalMixtureNB(layers=[2] * 7, n_iter=300, random_state=s).fit(X, y).score(X, y) for s in range(8)]
    )
    print("7-layer HM 4-bit parity: loaded", np.mean(scores == 1.0), "mean accuracy", scores.mean())
    assert np.mean(scores == 1.0) >= 0.2
    assert scores.mean() >= 0.75
    assert NaiveBayes(alpha=0.1).fit(X, y).score(X, y) <= 0.75


def test_warm_start_continues_the_same_run():
    X, y = random_data(seed=12)
    once = HierarchicalMixtureNB(layers=[2, 2], n_iter=5, random_state=3).fit(X, y)
    warm = HierarchicalMixtureNB(layers=[2, 2], n_iter=2, warm_start=True, random_state=3).fit(X, y)
    assert warm.n_iter_ == 2
    warm.set_params(n_iter=3).fit(X, y)
    assert warm._flat.tobytes() == once._flat.tobytes()
    assert warm.n_iter_ == once.n_iter_ == 5  # EM passes the counters have seen
    with pytest.raises(ValueError, match="warm_start"):
        warm.fit(X, (y + 1) % 4)


def test_determinism_and_seed_dependence():
    X, y = random_data(seed=6)
    a = HierarchicalMixtureNB(layers=[2, 2], random_state=9).fit(X, y).predict_proba(X)
    b = HierarchicalMixtureNB(layers=[2, 2], random_state=9).fit(X, y).predict_proba(X)
    c = HierarchicalMixtureNB(layers=[2, 2], random_state=10).fit(X, y).predict_proba(X)
    assert a.tobytes() == b.tobytes()
    assert not np.allclose(a, c)


def test_zero_weight_rows_are_absent_and_weight_scales_update():
    X, y = random_data(seed=7)
    w = np.ones(len(y))
    w[:5] = 0
    nv = [3] * 5
    a = HierarchicalMixtureNB(layers=[4], random_state=1).fit(X, y, sample_weight=w, n_values=nv)
    b = HierarchicalMixtureNB(layers=[4], random_state=1).fit(X[5:], y[5:], n_values=nv)
    assert a.predict_proba(X).tobytes() == b.predict_proba(X).tobytes()
    # with one expert the posterior is 1, so the update weight is the sample weight itself
    one = HierarchicalMixtureNB(layers=[1], jitter=0.0, n_iter=1).fit(X, y, sample_weight=np.full(len(y), 2.0))
    np.testing.assert_allclose(one.levels_[-1]["classes"][0], 0.1 + 2 * np.bincount(y))


def test_labels_missing_values_and_unseen_codes():
    X, y = random_data(seed=8, missing=0.3)
    labels = np.array(["a", "b", "c"])[y]
    hm = HierarchicalMixtureNB(layers=[2], random_state=0).fit(X.astype(float), labels)
    Xt = X.astype(float)
    Xt[0, 0] = np.nan
    Xt[1] = -1  # all missing -> the priors only
    proba = hm.predict_proba(Xt)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
    assert set(hm.predict(Xt)) <= {"a", "b", "c"}


def test_many_attributes_no_underflow():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (40, 200))
    y = X[:, 0]
    proba = HierarchicalMixtureNB(layers=[2, 2], random_state=0).fit(X, y).predict_proba(X)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    "params, name",
    [
        ({"layers": [2, 0]}, "layers"),
        ({"layers": 4}, "layers"),
        ({"gamma": 0.0}, "gamma"),
        ({"sigma": -1.0}, "sigma"),
        ({"n_iter": 1.5}, "n_iter"),
        ({"jitter": -0.1}, "jitter"),
        ({"denominator": "values"}, "denominator"),
    ],
)
def test_bad_params(params, name):
    X, y = random_data()
    with pytest.raises(ValueError, match=name):
        HierarchicalMixtureNB(**params).fit(X, y)


def test_loading_curve_points_equal_separate_runs():
    """W1's curve continues one run per seed; each point equals a fresh run of that many passes."""
    from nbx.papers.wiering2003.checks import _loading, _loading_curves

    X, y, _, _ = parity(bits=3)
    (curve,) = _loading_curves(X, y, [([2, 2, 2], "class")], [2, 7], range(3))
    assert (curve["layers"], curve["denominator"], curve["seeds"]) == ([2, 2, 2], "class", 3)
    for point in curve["curve"]:
        single = _loading(X, y, [2, 2, 2], point["passes"], range(3), "class")
        assert (point["loaded"], point["mean_train_accuracy"]) == (single["loaded"], single["mean_train_accuracy"])


@pytest.mark.parametrize("denominator", ["class", "attribute"])
def test_classes_give_every_expert_counters_for_a_class_without_rows(denominator):
    """The experts keep the initial counters of a class of ``classes`` absent from y (§2.2: every counter
    starts at γ); one expert without jitter is NaiveBayes with the same classes."""
    X, y = random_data(k=2)
    hm = HierarchicalMixtureNB(layers=[2, 2], denominator=denominator, classes=[0, 1, 2], random_state=0)
    hm.fit(X, y)
    fresh = HierarchicalMixtureNB(layers=[2, 2], n_iter=0, classes=[0, 1, 2], random_state=0).fit(X, y)
    experts, initial = hm.levels_[-1], fresh.levels_[-1]
    assert experts["classes"].shape == (4, 3)
    for key in ("values", "classes"):
        assert np.array_equal(experts[key][..., 2], initial[key][..., 2])
    assert hm.predict_proba(X).shape == (len(y), 3)
    one = HierarchicalMixtureNB(
        layers=[1], jitter=0.0, n_iter=1, denominator=denominator, classes=[0, 1, 2], random_state=0
    ).fit(X, y)
    nb = NaiveBayes(alpha=0.1, denominator=denominator, classes=[0, 1, 2]).fit(X, y)
    np.testing.assert_allclose(one.predict_proba(X), nb.predict_proba(X), atol=1e-12)
