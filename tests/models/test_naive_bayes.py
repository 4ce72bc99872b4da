import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbx.core.base import clone
from nbx.models.naive_bayes import NaiveBayes


def brute_force_proba(X, y, Xq, prior, alpha=1.0, m=2.0):
    """Product of smoothed relative frequencies, one loop per query, attribute and class."""
    classes = np.unique(y)
    K, N, d = len(classes), len(y), X.shape[1]
    V = X.max(axis=0) + 1
    out = np.zeros((len(Xq), K))
    for q, x in enumerate(Xq):
        for k, c in enumerate(classes):
            in_c = y == c
            n_c = in_c.sum()
            if prior == "laplace":
                p = (n_c + alpha) / (N + K * alpha)
            elif prior == "m_estimate":
                p = (n_c + 1) / (N + K)
            else:
                p = (n_c + 1 / N) / (N + K / N)
            for j in range(d):
                if x[j] < 0:
                    continue
                obs = X[:, j] >= 0
                n_cj = (in_c & obs).sum()
                n_cv = (in_c & (X[:, j] == x[j])).sum()
                if prior == "laplace":
                    p *= (n_cv + alpha) / (n_cj + V[j] * alpha)
                elif prior == "m_estimate":
                    p_v = ((X[:, j] == x[j]).sum() + 1) / (obs.sum() + V[j])
                    p *= (n_cv + m * p_v) / (n_cj + m)
                else:
                    p *= (n_cv + 1 / N) / (n_cj + V[j] / N)
            out[q, k] = p
    return out / out.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("prior", ["laplace", "m_estimate", "kang"])
def test_equals_brute_force_product_of_frequencies(prior):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(60, 5))
    X[rng.random(X.shape) < 0.1] = -1  # missing values are skipped
    X[:, 2] = np.maximum(X[:, 2], 0)
    y = rng.integers(0, 3, size=60)
    Xq = rng.integers(-1, 4, size=(15, 5))
    model = NaiveBayes(prior=prior, alpha=0.7 if prior == "laplace" else 1.0).fit(X, y)  # alpha: laplace only
    expected = brute_force_proba(X, y, Xq, prior, alpha=0.7)
    np.testing.assert_allclose(model.predict_proba(Xq), expected, rtol=1e-10)


def test_hand_computed_laplace():
    X = np.array([[0], [0], [1], [1], [1]])
    y = np.array([0, 0, 0, 1, 1])
    p = NaiveBayes().fit(X, y).predict_proba([[0]])[0]
    # P(0)=(3+1)/(5+2), P(x=0|0)=(2+1)/(3+2); P(1)=3/7, P(x=0|1)=(0+1)/(2+2)
    a, b = 4 / 7 * 3 / 5, 3 / 7 * 1 / 4
    np.testing.assert_allclose(p, [a / (a + b), b / (a + b)])


def test_class_denominator_hand_computed():
    """Wiering §2.2: P_j(v | c) = c_j(v, c) / c(c), counters started at γ, so the denominator is γ + n_c
    (all class-c rows, also those whose attribute is missing), not the attribute's total."""
    X = np.array([[0, 0], [0, -1], [1, 2], [1, 1], [2, 1]])
    y = np.array([0, 0, 0, 1, 1])
    g = 0.1
    model = NaiveBayes(alpha=g, denominator="class").fit(X, y, n_values=[3, 3])
    # class 0: c(0) = 3 + g; c_0(0, 0) = 2 + g; c_1(0, 0) = 1 + g (row 2's attribute 1 is missing)
    # class 1: c(1) = 2 + g; c_0(0, 1) = g; c_1(0, 1) = g
    np.testing.assert_allclose(np.exp(model.log_table_[[0, 3], 0]), [(2 + g) / (3 + g), (1 + g) / (3 + g)])
    np.testing.assert_allclose(np.exp(model.log_table_[[0, 3], 1]), [g / (2 + g), g / (2 + g)])
    a = (3 + g) / (5 + 2 * g) * (2 + g) / (3 + g) * (1 + g) / (3 + g)
    b = (2 + g) / (5 + 2 * g) * g / (2 + g) * g / (2 + g)
    np.testing.assert_allclose(model.predict_proba([[0, 0]])[0], [a / (a + b), b / (a + b)])
    # P(. | c) is no distribution: attribute 0 of class 0 sums to (3 + 3g) / (3 + g)
    np.testing.assert_allclose(np.exp(model.log_table_[:3, 0]).sum(), (3 + 3 * g) / (3 + g))


def test_class_denominator_brute_force_and_weights():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(50, 4))
    X[rng.random(X.shape) < 0.15] = -1
    y = rng.integers(0, 3, size=50)
    w = rng.integers(1, 4, size=50)
    Xq = rng.integers(-1, 4, size=(12, 4))
    model = NaiveBayes(alpha=0.3, denominator="class").fit(X, y, sample_weight=w, n_values=[4] * 4)
    Xd, yd = np.repeat(X, w, axis=0), np.repeat(y, w)
    expected = np.ones((len(Xq), 3))
    for k in range(3):
        n_c = (yd == k).sum()
        expected[:, k] = (n_c + 0.3) / (len(yd) + 3 * 0.3)
        for j in range(4):
            n_cv = np.array([((yd == k) & (Xd[:, j] == v)).sum() for v in Xq[:, j]])
            expected[:, k] *= np.where(Xq[:, j] >= 0, (n_cv + 0.3) / (n_c + 0.3), 1.0)
    np.testing.assert_allclose(model.predict_proba(Xq), expected / expected.sum(axis=1, keepdims=True), rtol=1e-10)
    with pytest.warns(UserWarning, match="denominator='class' is ignored by prior='kang'"):
        NaiveBayes(prior="kang", denominator="class").fit(X, y)
    with pytest.raises(ValueError, match="'denominator' parameter of NaiveBayes must be a str among"):
        NaiveBayes(denominator="values").fit(X, y)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_integer_weights_equal_row_duplication(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(20, 4))
    y = rng.integers(0, 2, size=20)
    w = rng.integers(0, 4, size=20)
    Xq = rng.integers(0, 3, size=(10, 4))
    for prior in ("laplace", "m_estimate", "kang"):
        weighted = NaiveBayes(prior=prior).fit(X, y, sample_weight=w, n_values=[3] * 4)
        duplicated = NaiveBayes(prior=prior).fit(np.repeat(X, w, axis=0), np.repeat(y, w), n_values=[3] * 4)
        if len(duplicated.classes_) == len(weighted.classes_):
            np.testing.assert_allclose(weighted.predict_proba(Xq), duplicated.predict_proba(Xq), rtol=1e-9)


def test_no_underflow_with_many_attributes():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 10, size=(200, 300))
    y = rng.integers(0, 2, size=200)
    proba = NaiveBayes().fit(X, y).predict_proba(X)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1)
    assert np.all(proba.max(axis=1) > 0.5)


def test_unseen_and_missing_codes_are_ignored():
    X = np.array([[0, 1], [1, 0], [1, 1]])
    y = np.array([0, 1, 1])
    model = NaiveBayes().fit(X, y)
    only_first = model.predict_proba([[0, -1]])
    np.testing.assert_allclose(model.predict_proba([[0, 7]]), only_first)  # 7: never seen, skipped


def test_string_labels_and_params_roundtrip():
    X = np.array([[0], [1], [1]])
    model = NaiveBayes(prior="m_estimate", m=3.0)
    model.fit(X, np.array(["b", "a", "a"]))
    assert list(model.classes_) == ["a", "b"]
    assert model.predict(np.array([[1]]))[0] == "a"
    twin = clone(model)
    assert twin.get_params() == model.get_params() and not hasattr(twin, "classes_")
    with pytest.raises(ValueError, match="Invalid parameter 'mm'"):
        model.set_params(mm=1)
    with pytest.raises(ValueError, match="'prior' parameter of NaiveBayes"):
        NaiveBayes(prior="bogus").fit(X, [0, 1, 1])


def test_jitter_is_seeded():
    X = np.random.default_rng(2).integers(0, 3, size=(30, 3))
    y = X[:, 0] % 2
    a = NaiveBayes(alpha=0.1, alpha_jitter=0.01, random_state=5).fit(X, y).predict_proba(X)
    b = NaiveBayes(alpha=0.1, alpha_jitter=0.01, random_state=5).fit(X, y).predict_proba(X)
    c = NaiveBayes(alpha=0.1, alpha_jitter=0.01, random_state=6).fit(X, y).predict_proba(X)
    assert a.tobytes() == b.tobytes() and a.tobytes() != c.tobytes()


def test_rejects_numeric_input():
    with pytest.raises(ValueError, match="discretize"):
        NaiveBayes().fit(np.array([[0.5], [1.5]]), [0, 1])


def test_classes_keep_counters_for_a_class_without_rows():
    """Wiering §2.2 starts every counter, of every class, at γ: a class of ``classes`` absent from y keeps
    c(2) = γ and c_j(v, 2) = γ, so P(v | 2) = γ / γ = 1 for every value and P(2) = γ / (N + 3γ)."""
    X = np.array([[0, 0], [0, 1], [1, 2], [1, 1], [2, 1]])
    y = np.array([0, 0, 0, 1, 1])
    g = 0.1
    model = NaiveBayes(alpha=g, denominator="class", classes=[0, 1, 2]).fit(X, y, n_values=[3, 3])
    np.testing.assert_array_equal(model.classes_, [0, 1, 2])
    assert np.array_equal(np.exp(model.log_table_[:-1, 2]), np.ones(6))  # exactly 1
    np.testing.assert_allclose(
        np.exp(model.class_log_prior_), [(3 + g) / (5 + 3 * g), (2 + g) / (5 + 3 * g), g / (5 + 3 * g)]
    )
    # query (0, 1): class 0 scores (3+g)/(5+3g) · (2+g)/(3+g) · (1+g)/(3+g), class 1 (2+g)/(5+3g) · g/(2+g)
    # · (2+g)/(2+g), class 2 g/(5+3g) · 1 · 1
    scores = np.array([(2 + g) * (1 + g) / (3 + g), g, g]) / (5 + 3 * g)
    proba = model.predict_proba([[0, 1]])
    assert proba.shape == (1, 3)
    np.testing.assert_allclose(proba[0], scores / scores.sum())
    # the per-attribute reading gives the class without rows a uniform P(v | 2) = 1 / V_j
    attr = NaiveBayes(alpha=g, classes=[0, 1, 2]).fit(X, y, n_values=[3, 3])
    np.testing.assert_allclose(np.exp(attr.log_table_[:-1, 2]), np.full(6, 1 / 3))


def test_classes_keep_a_class_without_rows_and_zero_weight_rows_are_absent():
    """A class given in ``classes`` keeps its counters without rows, also when its rows all have weight 0 (rows
    of weight 0 are absent rows); without ``classes`` such a class is not a class at all. classes equal to the
    labels of y (in any order, repeated) change nothing."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(40, 4))
    y = rng.choice(["a", "c"], size=40)
    for den in ("class", "attribute"):
        model = NaiveBayes(alpha=0.1, denominator=den, classes=["c", "b", "a", "c"]).fit(X, y, n_values=[3] * 4)
        np.testing.assert_array_equal(model.classes_, ["a", "b", "c"])
        Xb, yb = np.vstack([X, X[:3]]), np.concatenate([y, ["b"] * 3])
        w = np.concatenate([np.ones(40), np.zeros(3)])
        ref = NaiveBayes(alpha=0.1, denominator=den, classes=["a", "b", "c"])
        ref.fit(Xb, yb, sample_weight=w, n_values=[3] * 4)
        assert np.array_equal(model.log_table_, ref.log_table_)
        assert np.array_equal(model.class_log_prior_, ref.class_log_prior_)
        absent = NaiveBayes(alpha=0.1, denominator=den).fit(Xb, yb, sample_weight=w, n_values=[3] * 4)
        without = NaiveBayes(alpha=0.1, denominator=den).fit(X, y, n_values=[3] * 4)
        np.testing.assert_array_equal(absent.classes_, ["a", "c"])
        assert np.array_equal(absent.log_table_, without.log_table_)
        plain = NaiveBayes(alpha=0.1, denominator=den).fit(X, y)
        same = NaiveBayes(alpha=0.1, denominator=den, classes=["c", "a"]).fit(X, y)
        assert np.array_equal(plain.log_table_, same.log_table_) and np.array_equal(plain.classes_, same.classes_)


def test_classes_parameter_is_checked_and_survives_clone():
    X, y = np.array([[0], [1], [1]]), np.array([0, 1, 2])
    with pytest.raises(ValueError, match=r"target label\(s\) \[2\] in y are not among classes=\[0, 1\]"):
        NaiveBayes(classes=[0, 1]).fit(X, y)
    with pytest.raises(ValueError, match="'classes' parameter of NaiveBayes must be an array-like or None"):
        NaiveBayes(classes=3).fit(X, y)
    model = NaiveBayes(classes=[0, 1, 2, 3])
    assert model.get_params()["classes"] == [0, 1, 2, 3]
    twin = clone(model)
    assert twin.classes == [0, 1, 2, 3] and twin.classes is not model.classes
    assert twin.fit(X, y).predict_proba(X).shape == (3, 4)


# ---------------------------------------------------------------- partial_fit
NB_TABLES = ("n_values_", "classes_", "feature_count_", "class_count_", "class_log_prior_", "log_table_")


def _batched_data(n, seed):
    """Codes with 10 % missing (NaN) and real-valued weights, the first 20 rows using only codes 0 and 1 in
    column 0 (so later batches widen n_values_)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(n, 6)).astype(float)
    X[:20, 0] %= 2
    X[rng.random(X.shape) < 0.1] = np.nan
    return X, rng.integers(0, 3, n), rng.random(n) * 3


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"prior": "m_estimate"},
        {"prior": "kang"},
        {"alpha": 0.1, "denominator": "class", "alpha_jitter": 0.01, "random_state": 4},
    ],
)
@pytest.mark.parametrize("n", [600, 50_000])  # the large one takes fit's column-by-column counting
def test_partial_fit_batches_equal_one_fit_bit_for_bit(params, n):
    X, y, w = _batched_data(n, seed=n)
    whole = NaiveBayes(**params).fit(X, y, sample_weight=w)
    batched = NaiveBayes(**params)
    for rows in np.split(np.arange(n), [20, n // 3, n - 1]):
        batched.partial_fit(X[rows], y[rows], classes=[0, 1, 2], sample_weight=w[rows])
    for name in NB_TABLES:
        assert getattr(batched, name).tobytes() == getattr(whole, name).tobytes(), name
    assert batched.predict_proba(X).tobytes() == whole.predict_proba(X).tobytes()
    np.testing.assert_array_equal(batched.predict(X), whole.predict(X))
    # fit then partial_fit continues from fit's counts
    resumed = NaiveBayes(**params).fit(X[: n // 2], y[: n // 2], sample_weight=w[: n // 2], n_values=whole.n_values_)
    resumed.partial_fit(X[n // 2 :], y[n // 2 :], sample_weight=w[n // 2 :])
    assert resumed.log_table_.tobytes() == whole.log_table_.tobytes()


def test_partial_fit_classes_and_shapes_are_checked():
    X, y, _ = _batched_data(60, seed=1)
    with pytest.raises(ValueError, match="classes must be passed on the first call"):
        NaiveBayes().partial_fit(X, y)
    model = NaiveBayes(classes=[0, 1, 2, 3]).partial_fit(X, y)  # the constructor's classes do for the first call
    np.testing.assert_array_equal(model.classes_, [0, 1, 2, 3])
    with pytest.raises(ValueError, match="not the same as on the first call"):
        model.partial_fit(X, y, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="not among classes"):
        model.partial_fit(X, np.full(60, 7))
    with pytest.raises(ValueError, match="X has 5 features, but NaiveBayes is expecting 6"):
        model.partial_fit(X[:, :5], y)


@pytest.mark.parametrize("n_rows, values", [(300, 3), (9000, 3), (300, 90), (9000, 90)])
def test_boost_fit_on_narrow_table_rows_is_fit_on_the_rows_of_positive_weight(n_rows, values):
    """AdaBoost's prepared-input path: table rows in the narrowest type (a byte up to 255 table rows, else two), fitted
    under weights with zeros, give fit's tables on the rows of positive weight and predict's classes on every row, to
    the bit; below and above the size from which the sums run compiled, with missing codes."""
    rng = np.random.default_rng(n_rows + values)
    n_values = np.full(4, values)
    X = rng.integers(-1, values, (n_rows, 4))
    y = rng.integers(0, 3, n_rows)
    w = rng.uniform(0.5, 2.0, n_rows) * (rng.random(n_rows) > 0.2)
    model = NaiveBayes(prior="laplace")
    inputs = model._boost_inputs(X, n_values)
    assert inputs.dtype == (np.uint8 if 4 * values < 255 else np.uint16)
    pred = model._boost_fit(inputs, y, w, n_values)
    keep = w > 0
    reference = NaiveBayes(prior="laplace").fit(X[keep], y[keep], sample_weight=w[keep], n_values=n_values)
    assert np.array_equal(model.log_table_, reference.log_table_)
    assert np.array_equal(model.class_log_prior_, reference.class_log_prior_)
    assert np.array_equal(pred, reference.predict(X))
