"""Discretizers (MDL, standard deviation, equal width, none) and the mode imputer."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, ModeImputer, StdDevDiscretizer, make_discretizer
from nbx.discretize.mdl import best_split, fayyad_irani_accepts, mdl_boundaries, mdl_boundaries_many, mdl_cut_points

LOG2_7 = math.log2(7)


# ---------------------------------------------------------------- brute-force reference (Weka's loops)


def _entropy(counts):
    total = sum(counts)
    return 0.0 if total <= 0 else -sum(c / total * math.log2(c / total) for c in counts if c > 0)


def _weka_subset(rows, first, last_plus_one, k, out):
    """Literal port of Weka's cutPointsForSubset over sorted (value, class, weight) rows.

    Weights as counts (numCutPoints = total weight - 1); ties within 1e-12 keep the first candidate.
    """
    if last_plus_one - first < 2:
        return
    prior = [0.0] * k
    for v, c, w in rows[first:last_plus_one]:
        prior[c] += w
    n = sum(prior)
    left, right = [0.0] * k, list(prior)
    prior_ent = best_ent = _entropy(prior)
    best_index, best_counts = -1, None
    for i in range(first, last_plus_one - 1):
        v, c, w = rows[i]
        left[c] += w
        right[c] -= w
        if v < rows[i + 1][0]:
            nl, nr = sum(left), sum(right)
            ent = (nl * _entropy(left) + nr * _entropy(right)) / (nl + nr)
            if ent < best_ent - 1e-12:
                best_ent, best_index, best_counts = ent, i, (list(left), list(right))
    gain = prior_ent - best_ent
    if best_index < 0 or gain <= 1e-12 or n <= 1:
        return
    l, r = best_counts
    kk, k1, k2 = (sum(1 for x in cnt if x > 0) for cnt in (prior, l, r))
    delta = math.log2(3**kk - 2) - (kk * prior_ent - k1 * _entropy(l) - k2 * _entropy(r))
    if gain > (math.log2(n - 1) + delta) / n:
        out.append((rows[best_index][0] + rows[best_index + 1][0]) / 2.0)
        _weka_subset(rows, first, best_index + 1, k, out)
        _weka_subset(rows, best_index + 1, last_plus_one, k, out)


def weka_mdl_reference(x, y, w=None):
    w = np.ones(len(x)) if w is None else w
    rows = sorted((float(v), int(c), float(ww)) for v, c, ww in zip(x, y, w) if not np.isnan(v) and ww > 0)
    out: list[float] = []
    _weka_subset(rows, 0, len(rows), int(np.max(y)) + 1, out)
    return np.sort(np.array(out))


# ---------------------------------------------------------------- MDL


def test_mdl_hand_computed_accepted_split():
    # x = 1..8, classes 0,0,0,0,1,1,1,1. Best cut 4.5 leaves two pure sides: E(best) = 0, H(S) = 1, gain = 1.
    # N = 8, numCutPoints = N - 1 = 7, k = 2, k1 = k2 = 1, E1 = E2 = 0:
    # delta = log2(3^2 - 2) - (2*1 - 0 - 0) = log2(7) - 2 = 0.80735
    # threshold = (log2(7) + delta) / 8 = (2.80735 + 0.80735) / 8 = 0.45184 < gain = 1  -> accept.
    # The pure halves have gain 0 -> no further cuts.
    x = np.arange(1.0, 9.0)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    threshold = (LOG2_7 + (LOG2_7 - 2)) / 8
    assert threshold == pytest.approx(0.45184, abs=1e-5)
    prior, left, right = np.array([4.0, 4.0]), np.array([4.0, 0.0]), np.array([0.0, 4.0])
    assert fayyad_irani_accepts(prior, left, right)
    np.testing.assert_array_equal(mdl_cut_points(x, y, np.ones(8)), [4.5])


def test_mdl_hand_computed_rejected_split():
    # x = 1..4, classes 0,1,0,1. Candidates (left | right class counts):
    #   1.5: [1,0] | [1,2]  E = 3/4 * H(1/3) = 0.75 * 0.9183 = 0.6887
    #   2.5: [1,1] | [1,1]  E = 1
    #   3.5: [2,1] | [0,1]  E = 0.6887  (exact tie with 1.5: the first one wins)
    # gain = 1 - 0.6887 = 0.3113; N = 4, numCutPoints = 3; k = 2, k1 = 1 (E1 = 0), k2 = 2 (E2 = 0.9183):
    # delta = log2(7) - (2*1 - 1*0 - 2*0.9183) = 2.8074 - 0.1634 = 2.6440
    # threshold = (log2(3) + 2.6440) / 4 = (1.5850 + 2.6440) / 4 = 1.0572 > gain  -> reject, no cut.
    x = np.arange(1.0, 5.0)
    y = np.array([0, 1, 0, 1])
    h13 = -(1 / 3) * math.log2(1 / 3) - (2 / 3) * math.log2(2 / 3)
    gain = 1 - 0.75 * h13
    threshold = (math.log2(3) + LOG2_7 - (2 - 2 * h13)) / 4
    assert gain == pytest.approx(0.3113, abs=1e-4) and threshold == pytest.approx(1.0572, abs=1e-4)
    values, counts = np.unique(x), np.eye(2)[y]
    cum = np.vstack([np.zeros((1, 2)), np.cumsum(counts, axis=0)])
    index, prior, left, right = best_split(cum, 0, 4)
    assert index == 0 and values[index] == 1.0
    np.testing.assert_array_equal(left, [1, 0])
    assert not fayyad_irani_accepts(prior, left, right)
    assert mdl_cut_points(x, y, np.ones(4)).size == 0


@pytest.mark.parametrize("seed", range(12))
def test_mdl_equals_bruteforce_weka_loop(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    k = int(rng.integers(2, 5))
    if seed % 2:  # few distinct values: many ties in values and in entropies
        x = rng.integers(0, 12, n).astype(float)
    else:
        x = rng.normal(size=n).round(2)
    # Class depends on x with noise, so some splits are accepted and some rejected.
    y = np.clip((x - x.min()) / (np.ptp(x) + 1e-9) * k + rng.normal(0, 0.7, n), 0, k - 1).astype(int)
    x[rng.random(n) < 0.1] = np.nan
    d = MDLDiscretizer().fit(x[:, None], y)
    np.testing.assert_allclose(d.cut_points_[0], weka_mdl_reference(x, y), rtol=0, atol=0)


def test_mdl_weights_equal_row_duplication():
    rng = np.random.default_rng(3)
    n = 120
    X = np.column_stack([rng.integers(0, 15, n), rng.normal(size=n).round(1)]).astype(float)
    y = ((X[:, 0] > 7) ^ (rng.random(n) < 0.2)).astype(int)
    w = rng.integers(0, 4, n)  # includes 0 = row absent
    weighted = MDLDiscretizer().fit(X, y, sample_weight=w.astype(float))
    dup = MDLDiscretizer().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    for a, b in zip(weighted.cut_points_, dup.cut_points_):
        np.testing.assert_array_equal(a, b)
    assert weighted.cut_points_[0].size > 0  # the informative column was really split
    np.testing.assert_array_equal(weighted.cut_points_[1], weka_mdl_reference(X[:, 1], y, w))


def test_mdl_no_leakage_from_test_rows():
    rng = np.random.default_rng(5)
    n = 200
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=n) > 0).astype(int)
    train, test = np.arange(n) < 140, np.arange(n) >= 140
    d1 = MDLDiscretizer().fit(X[train], y[train])
    X2 = X.copy()
    X2[test] = rng.normal(10, 5, size=(test.sum(), 3))  # perturb only the test fold
    d2 = MDLDiscretizer().fit(X2[train], y[train])
    for a, b in zip(d1.cut_points_, d2.cut_points_):
        np.testing.assert_array_equal(a, b)
    # transform is row-wise: a test row's codes do not depend on the other test rows
    full = d1.transform(X2[test])
    single = np.vstack([d1.transform(X2[test][i : i + 1]) for i in range(5)])
    np.testing.assert_array_equal(full[:5], single)


def _iris():
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import fetch_entry
    from nbx.data.prepare import build_table

    mirror = Path(__file__).resolve().parents[3] / "shared" / "uci"
    return load_catalogue()["iris"], mirror, fetch_entry, build_table


def test_mdl_matches_weka_on_iris(tmp_path, monkeypatch):
    entry, mirror, fetch_entry, build_table = _iris()
    configured = os.environ.get("NBX_UCI_MIRROR")
    if configured and "://" not in configured:
        mirror = Path(configured)
    if "://" not in (configured or "") and not mirror.is_dir():
        pytest.skip(f"no UCI mirror at {mirror}")
    monkeypatch.setenv("NBX_UCI_MIRROR", configured or str(mirror))
    table = build_table(entry, fetch_entry(entry, tmp_path))
    d = make_discretizer({"kind": "mdl", "n_values": table.n_values}).fit(table.X, table.y)
    weka = [[5.55, 6.15], [2.95, 3.35], [2.45, 4.75], [0.8, 1.75]]
    for got, want in zip(d.cut_points_, weka):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(d.n_values_, [3, 3, 3, 3])
    codes = d.transform(table.X)
    # petal length <= 2.45 is exactly the setosa class in iris
    np.testing.assert_array_equal(codes[:, 2] == 0, table.y == 0)


# ---------------------------------------------------------------- transform conventions


def test_transform_bins_nominals_missing_and_unseen():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 1.0], [np.nan, 0.0]])
    d = EqualWidthDiscretizer(bins=3, n_values=[0, 3]).fit(X)
    np.testing.assert_allclose(d.cut_points_[0], [1.0, 2.0])
    assert d.cut_points_[1] is None
    np.testing.assert_array_equal(d.n_values_, [3, 3])
    test = np.array([[1.0, 2.0], [1.0000001, 5.0], [-100.0, np.nan], [100.0, -1.0], [np.nan, 1.0]])
    np.testing.assert_array_equal(d.transform(test), [[0, 2], [1, -1], [0, -1], [2, -1], [-1, 1]])
    assert d.transform(test).dtype == np.int64


# ---------------------------------------------------------------- equal width


def test_equal_width_hand_computed():
    # min 0, max 10, bins 4: width 2.5, cuts 2.5, 5, 7.5 (Weka: min + width * i, i = 1..3)
    x = np.array([[0.0], [1.0], [10.0], [4.0], [np.nan]])
    d = EqualWidthDiscretizer(bins=4).fit(x)
    np.testing.assert_array_equal(d.cut_points_[0], [2.5, 5.0, 7.5])
    np.testing.assert_array_equal(
        d.transform(np.array([[2.5], [2.6], [5.0], [7.6], [-3.0], [11.0]]))[:, 0], [0, 1, 1, 3, 0, 3]
    )
    # default 10 bins between 1 and 3: width 0.2
    d10 = make_discretizer({"kind": "equal_width"}).fit(np.array([[1.0], [3.0], [2.0]]))
    np.testing.assert_allclose(d10.cut_points_[0], 1 + 0.2 * np.arange(1, 10), rtol=0, atol=0)
    assert d10.n_values_[0] == 10


def test_equal_width_weights_equal_row_duplication():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 2))
    w = rng.integers(0, 3, 50)
    a = EqualWidthDiscretizer().fit(X, sample_weight=w.astype(float))
    b = EqualWidthDiscretizer().fit(np.repeat(X, w, axis=0))
    for ca, cb in zip(a.cut_points_, b.cut_points_):
        np.testing.assert_array_equal(ca, cb)


# ---------------------------------------------------------------- standard deviation


def test_stddev_hand_computed():
    # x = 1..5: mean 3, population variance (4+1+0+1+4)/5 = 2, std = sqrt 2.
    # Edges 3 + k sqrt2 inside (1, 5): 1.5858, 3, 4.4142 (k = -1, 0, 1).
    x = np.arange(1.0, 6.0)[:, None]
    d = StdDevDiscretizer().fit(x)
    s = math.sqrt(2)
    np.testing.assert_allclose(d.cut_points_[0], [3 - s, 3, 3 + s], rtol=1e-15)
    np.testing.assert_array_equal(d.transform(x)[:, 0], [0, 1, 1, 2, 3])  # 3 is on an edge -> lower bin
    np.testing.assert_array_equal(d.transform(np.array([[-50.0], [50.0]]))[:, 0], [0, 3])


def test_stddev_weighted_and_width():
    # x = 0 (weight 3), 4 (weight 1): mean 1, variance (3*1 + 1*9)/4 = 3, std sqrt 3.
    # Edges 1 + k sqrt3 inside (0, 4): 1 and 2.7321.
    X = np.array([[0.0], [4.0], [np.nan]])
    d = StdDevDiscretizer().fit(X, sample_weight=[3.0, 1.0, 5.0])
    np.testing.assert_allclose(d.cut_points_[0], [1.0, 1 + math.sqrt(3)])
    dup = StdDevDiscretizer().fit(np.array([[0.0], [0.0], [0.0], [4.0]]))
    np.testing.assert_allclose(dup.cut_points_[0], d.cut_points_[0])
    # width 0.5: edges 1 + k*0.866 inside (0, 4): 0.134, 1, 1.866, 2.732, 3.598
    half = StdDevDiscretizer(width=0.5).fit(X, sample_weight=[3.0, 1.0, 5.0])
    np.testing.assert_allclose(half.cut_points_[0], 1 + 0.5 * math.sqrt(3) * np.arange(-1, 4))


def test_stddev_trunc_rounding_merges_the_two_bins_at_the_mean():
    # x = 1..5 (mean 3, std sqrt 2): floor edges 3 - s, 3, 3 + s; trunc drops the edge at the mean, so a value's
    # bin is its z-score truncated towards zero: (1.586, 4.414] is one bin, 2, 3 and 4 share it.
    x = np.arange(1.0, 6.0)[:, None]
    d = StdDevDiscretizer(rounding="trunc").fit(x)
    s = math.sqrt(2)
    np.testing.assert_allclose(d.cut_points_[0], [3 - s, 3 + s], rtol=1e-15)
    np.testing.assert_array_equal(d.transform(x)[:, 0], [0, 1, 1, 1, 2])
    np.testing.assert_array_equal(
        np.trunc((x[:, 0] - 3) / s) + 1, d.transform(x)[:, 0]
    )  # brute force: the truncated z-score, shifted to start at 0
    # every other edge is the floor reading's: wide data keep k = -2, -1, 1, 2
    wide = np.concatenate([np.zeros(8), [-3.0, 3.0]])[:, None]  # mean 0, std sqrt(1.8) = 1.342
    floor, trunc = (
        StdDevDiscretizer().fit(wide).cut_points_[0],
        StdDevDiscretizer(rounding="trunc").fit(wide).cut_points_[0],
    )
    np.testing.assert_array_equal(trunc, floor[floor != 0.0])
    assert floor.size == 5 and trunc.size == 4
    with pytest.raises(ValueError, match="rounding"):
        StdDevDiscretizer(rounding="round").fit(x)


# ---------------------------------------------------------------- degenerate columns and errors


@pytest.mark.parametrize("kind", ["mdl", "stddev", "equal_width"])
def test_constant_and_all_missing_columns_get_one_bin(kind):
    X = np.column_stack([np.full(6, 2.5), np.full(6, np.nan), np.arange(6.0)])
    y = np.array([0, 1, 0, 1, 0, 1])
    d = make_discretizer({"kind": kind}).fit(X, y)
    assert d.n_values_[0] == 1 and d.n_values_[1] == 1
    codes = d.transform(np.array([[2.5, 1.0, 0.0], [9.0, np.nan, 1.0]]))
    np.testing.assert_array_equal(codes[:, :2], [[0, 0], [0, -1]])


@pytest.mark.parametrize("kind", ["mdl", "stddev", "equal_width"])
def test_empty_training_set_is_an_error(kind):
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        make_discretizer({"kind": kind, "n_values": [0, 2]}).fit(np.empty((0, 2)), np.empty(0, int))


@pytest.mark.parametrize("kind", ["mdl", "stddev", "equal_width"])
def test_a_training_set_without_numeric_values(kind):
    X = np.array([[np.nan, 1.0], [np.nan, 0.0]])
    d = make_discretizer({"kind": kind, "n_values": [0, 2]}).fit(X, [0, 1])
    np.testing.assert_array_equal(d.n_values_, [1, 2])
    np.testing.assert_array_equal(d.transform(np.array([[1.0, 1.0]])), [[0, 1]])


def test_none_passes_nominal_codes_and_rejects_numeric():
    X = np.array([[0.0, 2.0], [1.0, np.nan]])
    d = make_discretizer({"kind": "none", "n_values": [2, 3]}).fit(X)
    np.testing.assert_array_equal(d.transform(X), [[0, 2], [1, -1]])
    np.testing.assert_array_equal(d.n_values_, [2, 3])
    np.testing.assert_array_equal(make_discretizer("none").fit(X).n_values_, [2, 3])  # inferred: max + 1
    with pytest.raises(ValueError, match="numeric columns: \\[1\\]"):
        make_discretizer({"kind": "none", "n_values": [2, 0]}).fit(X)


def test_factory_errors():
    with pytest.raises(ValueError, match=r"discretizer\.kind 'entropy'.*equal_width.*mdl.*none.*stddev"):
        make_discretizer({"kind": "entropy"})
    with pytest.raises(ValueError, match=r"discretizer\.bin"):
        make_discretizer({"kind": "equal_width", "bin": 5})
    with pytest.raises(ValueError, match=r"'bins' parameter of EqualWidthDiscretizer must be an int in the range"):
        make_discretizer({"kind": "equal_width", "bins": 0}).fit(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="MDLDiscretizer requires y to be passed"):
        MDLDiscretizer().fit(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="n_values"):
        MDLDiscretizer(n_values=[0]).fit(np.zeros((2, 2)), [0, 1])


# ---------------------------------------------------------------- imputer


def test_mode_imputer_hand_computed():
    nan = np.nan
    X = np.array([[0, 1.0, 2.0, nan], [1, 2.0, nan, nan], [1, 2.0, 0.0, nan], [nan, nan, 1.0, nan], [2, 6.0, nan, nan]])
    nv = [3, 0, 3, 2]
    imp = ModeImputer(n_values=nv).fit(X)
    # col0 mode 1; col1 mean (1+2+2+6)/4 = 2.75; col2 tie 0/1/2 -> smallest 0; col3 all missing -> NaN
    np.testing.assert_array_equal(imp.fill_values_, [1, 2.75, 0, nan])
    out = imp.transform(X)
    np.testing.assert_array_equal(out[3], [1, 2.75, 1, nan])
    np.testing.assert_array_equal(out[~np.isnan(X)], X[~np.isnan(X)])
    mode = ModeImputer(numeric="mode", n_values=nv).fit(X)
    assert mode.fill_values_[1] == 2.0
    # weights: row 0 weight 3 makes code 0 / value 1 the most frequent
    w = np.array([3.0, 1, 1, 1, 1])
    weighted = ModeImputer(numeric="mode", n_values=nv).fit(X, sample_weight=w)
    np.testing.assert_array_equal(weighted.fill_values_[:3], [0, 1.0, 2.0])
    np.testing.assert_allclose(ModeImputer(n_values=nv).fit(X, sample_weight=w).fill_values_[1], (3 + 2 + 2 + 6) / 6)


@pytest.mark.parametrize("numeric", ["mean", "mode"])
def test_mode_imputer_weights_equal_duplication_and_train_only(numeric):
    rng = np.random.default_rng(9)
    X = np.column_stack([rng.integers(0, 4, 80), rng.integers(0, 5, 80) * 0.5, rng.normal(size=80)])
    X[rng.random(X.shape) < 0.2] = np.nan
    w = rng.integers(0, 4, 80)
    a = ModeImputer(numeric=numeric, n_values=[4, 0, 0]).fit(X, sample_weight=w.astype(float))
    b = ModeImputer(numeric=numeric, n_values=[4, 0, 0]).fit(np.repeat(X, w, axis=0))
    np.testing.assert_allclose(a.fill_values_, b.fill_values_, rtol=1e-12)
    # fitted on training rows only: the test rows' values never enter the fill values
    X2 = X.copy()
    X2[60:] = 99.0
    np.testing.assert_array_equal(
        ModeImputer(numeric=numeric, n_values=[4, 0, 0]).fit(X[:60]).fill_values_,
        ModeImputer(numeric=numeric, n_values=[4, 0, 0]).fit(X2[:60]).fill_values_,
    )


def test_mode_imputer_bad_option():
    with pytest.raises(ValueError, match="'numeric' parameter of ModeImputer must be a str among"):
        ModeImputer(numeric="median").fit(np.zeros((2, 1)))


def test_mdl_searches_many_columns_together_as_each_alone():
    """mdl_boundaries_many mixes every table's open intervals in one step per level; each table's boundaries
    equal its own search (weighted counts, empty and one-group tables included)."""
    rng = np.random.default_rng(5)
    tables = [rng.integers(0, 4, (n, 3)) * rng.uniform(0.5, 1.5, (n, 3)) for n in (40, 0, 1, 7, 120)]
    tables.append(np.repeat(np.eye(3), [30, 20, 25], axis=0))  # three pure runs: two cuts
    together = mdl_boundaries_many(tables)
    for table, found in zip(tables, together):
        assert np.array_equal(found, mdl_boundaries(table))
    assert together[-1].tolist() == [29, 49]


@pytest.mark.parametrize("seed", range(6))
def test_mdl_screened_search_equals_bruteforce_with_weights_ties_and_classes(seed, monkeypatch):
    """The screened candidate search (every cut scored by a cheap form of the split entropy, the near-best ones
    exactly) gives Weka's loop's cut points bit for bit, with fractional weights, ties in values and entropies and
    up to 6 classes; screen chunks of 7 candidates and batches of 150 values cut intervals and columns apart."""
    from nbx.discretize import base, mdl

    monkeypatch.setattr(mdl, "_SCREEN_CHUNK", 7)
    monkeypatch.setattr(base, "FIT_VALUES", 150)
    rng = np.random.default_rng(100 + seed)
    n, k = int(rng.integers(150, 600)), int(rng.integers(2, 7))
    X = np.column_stack(
        [
            rng.normal(size=n),  # all distinct
            rng.normal(size=n).round(1),  # ties
            rng.integers(0, 6, n).astype(float),  # few values, many equal entropies
            np.repeat(np.arange(n // 2 + 1), 2)[:n].astype(float),  # runs of two
        ]
    )
    y = np.clip((X[:, 0] + 0.5 * X[:, 1]) * k / 3 + k / 2 + rng.normal(0, 0.5, n), 0, k - 1).astype(int)
    y[X[:, 3] % 7 == 0] = 0
    X[rng.random(X.shape) < 0.05] = np.nan
    w = rng.choice([0.0, 1 / 3, 0.5, 1.0, 2.0, 2.7], n)
    d = MDLDiscretizer().fit(X, y, sample_weight=w)
    for j in range(X.shape[1]):
        expected = weka_mdl_reference(X[:, j], y, w)
        assert d.cut_points_[j].tobytes() == expected.tobytes(), j
    assert sum(c.size for c in d.cut_points_) > 0


def test_mdl_screen_keeps_the_first_of_exactly_tied_cuts():
    """Mirror-symmetric classes give pairs of cuts with the same entropy; the first of each pair wins, as in Weka,
    also when the screen scores them in different chunks."""
    y = np.array([0] * 30 + [1] * 10 + [0] * 20 + [1] * 10 + [0] * 30)
    x = np.arange(y.size, dtype=float)
    cuts = MDLDiscretizer().fit(x[:, None], y).cut_points_[0]
    np.testing.assert_array_equal(cuts, weka_mdl_reference(x, y))
    assert cuts.size > 0
