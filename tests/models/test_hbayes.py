"""HBayes-NB / HBayes-TAN (Kang & Tian 2006): eq. 2/3 scores, the Fig. 2 greedy search, and invariants."""

import re
import warnings

import numpy as np
import pytest

from nbx.core.counting import ValueIndex
from nbx.core.validation import ConvergenceWarning
from nbx.models.hbayes import HBayesNB, HBayesTAN, S2LogSum, _first_equal_columns, _HBayesBase
from nbx.models.logistic import LogisticRegression
from nbx.models.naive_bayes import NaiveBayes, nb_log_tables
from nbx.models.tan import TAN


def _agree(y, p, rng):
    """A binary attribute equal to y with probability p."""
    return np.where(rng.random(len(y)) < p, y, 1 - y)


def _redundant_data(n=2000, seed=0):
    """B (80 % agreement) in column 0, a weaker A (75 %) copied into columns 2 and 4, noise elsewhere.

    Naive Bayes counts A twice (2·log 3 > log 4), so A overrules B and the accuracy is ~0.75. With the two
    copies in S1, P(C | A) is counted once and B decides (~0.80): the best pair is {2, 4}; a pair with one
    copy still counts A twice.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = _agree(y, 0.75, rng)
    X = np.column_stack([_agree(y, 0.8, rng), rng.integers(0, 3, n), a, rng.integers(0, 2, n), a])
    return X, y


def _nb_data(n=1500, seed=1):
    """Attributes drawn from a naive Bayes model with well separated log-odds (2.0 > 0.8 + 0.4)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.column_stack([_agree(y, p, rng) for p in (0.88, 0.69, 0.6)])
    return X, y


def _s2_loglik_nb(X, y, s2):
    """log Π_{S2} P(x_i | C) by a naive Bayes (eq. 4 prior) fitted on the S2 columns alone."""
    if not s2:
        return 0.0
    nb = NaiveBayes(prior="kang").fit(X[:, s2], y)
    return nb._class_scores(X[:, s2]) - nb.class_log_prior_


def _s2_loglik_tan(X, y, s2):
    if not s2:
        return 0.0
    tan = TAN().fit(X[:, s2], y)
    return tan._class_scores(X[:, s2]) - tan.class_log_prior_


def _reference_search(X, y, ridge, s2_loglik, start_with_pairs, optimizer="exact"):
    """Fig. 2 written directly: cold-started LogisticRegression on S1, a generative model on S2."""
    d = X.shape[1]

    def accuracy(s1):
        s2 = [a for a in range(d) if a not in s1]
        if not s1:
            model = NaiveBayes(prior="kang") if start_with_pairs else TAN()
            return np.mean(model.fit(X, y).predict(X) == y)
        lr = LogisticRegression(ridge=ridge, tol=1e-9, optimizer=optimizer)
        lr.fit(X[:, s1], y, n_values=[X[:, a].max() + 1 for a in s1])
        scores = lr.predict_log_proba(X[:, s1]) + s2_loglik(X, y, s2)
        return np.mean(np.argmax(scores, axis=1) == y)

    best_acc = accuracy([])
    s1 = []
    if start_with_pairs:
        pairs = [[i, j] for i in range(d) for j in range(i + 1, d)]
        accs = [accuracy(p) for p in pairs]
        if max(accs) <= best_acc:
            return [], best_acc
        s1, best_acc = pairs[int(np.argmax(accs))], max(accs)
    while len(s1) < d:
        cands = [s1 + [k] for k in range(d) if k not in s1]
        accs = [accuracy(c) for c in cands]
        if max(accs) <= best_acc:
            break
        s1, best_acc = cands[int(np.argmax(accs))], max(accs)
    return s1, best_acc


def test_hbayes_nb_finds_the_redundant_pair_and_beats_nb():
    X, y = _redundant_data()
    model = HBayesNB().fit(X, y)
    nb_acc = NaiveBayes(prior="kang").fit(X, y).score(X, y)
    assert model.search_path_[0] == ([], nb_acc)
    assert model.s1_[:2] == [2, 4]
    assert model.score(X, y) == pytest.approx(model.train_accuracy_)
    assert model.train_accuracy_ > nb_acc + 0.03


def test_hbayes_nb_keeps_s1_empty_when_no_pair_helps():
    X, y = _nb_data()
    model = HBayesNB().fit(X, y)
    assert model.s1_ == [] and model.s2_ == [0, 1, 2]
    nb = NaiveBayes(prior="kang").fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), nb.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), nb.predict(X))


def _dependent_data(seed, n=300):
    """Three classes, four noisy copies of y (1 mostly repeats 0), one binary noise attribute."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack(
        [np.where(rng.random(n) < 0.5, y, rng.integers(0, 3, n)) for _ in range(4)] + [rng.integers(0, 2, n)]
    )
    X[:, 1] = np.where(rng.random(n) < 0.8, X[:, 0], X[:, 1])
    return X, y


@pytest.mark.parametrize("seed", [1, 9])  # searches that take the pair and then two more steps
def test_hbayes_nb_search_equals_fig2_reference(seed):
    X, y = _dependent_data(seed)
    model = HBayesNB(ridge=1.0, tol=1e-9).fit(X, y)
    s1, acc = _reference_search(X, y, 1.0, _s2_loglik_nb, start_with_pairs=True)
    assert len(s1) == 4
    assert model.s1_ == s1
    assert model.train_accuracy_ == pytest.approx(acc)
    assert [len(p) for p, _ in model.search_path_] == [0, 2, 3, 4]


def test_s2_product_trick_equals_direct_recomputation():
    X, y = _redundant_data(n=300, seed=3)
    X[::11, 1] = -1  # missing values give no factor either way
    index = ValueIndex(X.max(axis=0) + 1)
    counts = index.counts(X, y, np.ones(len(y)), 2)[:-1]
    _, table = nb_log_tables(counts, np.bincount(y).astype(float), index, "kang")
    s2_log_sum = S2LogSum(table, index, X)
    for s1 in ([], [0], [2, 4], [4, 1, 3], [0, 1, 2, 3, 4]):
        s2 = [a for a in range(5) if a not in s1]
        np.testing.assert_allclose(s2_log_sum(s1), _s2_loglik_nb(X, y, s2) + np.zeros((300, 2)), atol=1e-10)


@pytest.mark.parametrize("n_classes", [1, 2, 3, 19])
def test_s2_sums_equal_numpys_sum_of_the_terms_to_the_bit(n_classes):
    """S2LogSum gathers the terms a block of rows at a time and reuses the sum over a candidate's prefix: the same
    bits as numpy's sum over the whole (n, d, K) terms array, in the order a greedy search asks (pairs of one first
    attribute, then growing lists), for 1, 2, 3 and 19 classes, with missing and out-of-range codes (no term)."""
    rng = np.random.default_rng(n_classes)
    n_values = rng.integers(1, 6, 12)
    index = ValueIndex(n_values)
    table = np.vstack([np.log(rng.random((index.n_rows, n_classes))), np.zeros((1, n_classes))])
    codes = rng.integers(-1, n_values + 1, (9000, 12))  # more rows than one block
    terms = table[index.rows(codes)]
    total = terms.sum(axis=1)
    s2_log_sum = S2LogSum(table, index, codes)
    assert np.array_equal(s2_log_sum.total, total)
    lists = [[0, j] for j in range(1, 12)] + [[5, 3, 0] + [k] for k in (1, 2, 4, 6, 11)]
    lists += [[5, 3, 0, 11, 7, k] for k in (1, 2, 4, 6, 8, 9, 10)] + [[], [7], [5, 3]]
    for s1 in lists:
        direct = total - terms[:, s1].sum(axis=1) if s1 else total
        assert np.array_equal(s2_log_sum(s1), direct), s1


def test_hbayes_nb_prediction_is_eq2():
    X, y = _redundant_data(n=600, seed=4)
    model = HBayesNB(ridge=0.5, tol=1e-9).fit(X, y)
    s1 = model.s1_
    assert s1
    lr = LogisticRegression(ridge=0.5, tol=1e-9).fit(X[:, s1], y, n_values=model.n_values_[s1])
    expected = lr.predict_log_proba(X[:, s1]) + _s2_loglik_nb(X, y, model.s2_)
    np.testing.assert_allclose(model._class_scores(X), expected, atol=1e-5)
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.log(P), model.predict_log_proba(X), atol=1e-10)


def test_hbayes_nb_determinism_and_weights_equal_duplication():
    X, y = _redundant_data(n=400, seed=5)
    a, b = HBayesNB().fit(X, y), HBayesNB().fit(X, y)
    assert a.s1_ == b.s1_ and a.predict_proba(X).tobytes() == b.predict_proba(X).tobytes()
    counts = np.random.default_rng(6).integers(0, 3, len(y))
    weighted = HBayesNB(ridge=0.1, tol=1e-10).fit(X, y, sample_weight=counts)
    rep = np.repeat(np.arange(len(y)), counts)
    dup = HBayesNB(ridge=0.1, tol=1e-10).fit(X[rep], y[rep])
    assert weighted.s1_ == dup.s1_
    assert weighted.train_accuracy_ == pytest.approx(dup.train_accuracy_)
    np.testing.assert_allclose(weighted.predict_proba(X), dup.predict_proba(X), atol=1e-5)


@pytest.mark.parametrize("seed", [7, 3])
def test_hbayes_tan_search_equals_reference_and_eq3(seed):
    X, y = _dependent_data(seed)
    model = HBayesTAN(ridge=1.0, tol=1e-9).fit(X, y)
    s1, acc = _reference_search(X, y, 1.0, _s2_loglik_tan, start_with_pairs=False)
    assert s1
    assert model.s1_ == s1
    assert model.train_accuracy_ == pytest.approx(acc)
    lr = LogisticRegression(ridge=1.0, tol=1e-9).fit(X[:, s1], y, n_values=model.n_values_[s1])
    expected = lr.predict_log_proba(X[:, s1]) + _s2_loglik_tan(X, y, model.s2_)
    np.testing.assert_allclose(model._class_scores(X), expected, atol=1e-5)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0, atol=1e-12)


def test_hbayes_tan_empty_s1_is_tan_and_deterministic():
    X, y = _nb_data(n=800, seed=8)
    model = HBayesTAN().fit(X, y)
    assert model.s1_ == []
    np.testing.assert_allclose(model.predict_proba(X), TAN().fit(X, y).predict_proba(X), atol=1e-12)
    again = HBayesTAN().fit(X, y)
    assert model.predict_proba(X).tobytes() == again.predict_proba(X).tobytes()


def test_edge_cases_and_bad_input():
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    one_class = HBayesNB().fit(X, ["a"] * 4)
    np.testing.assert_array_equal(one_class.predict_proba(X), 1.0)
    single = HBayesNB().fit(X[:, :1], [0, 1, 0, 1])  # one attribute: no pair, naive Bayes
    assert single.s1_ == []
    with_missing = HBayesNB().fit(np.array([[0, -1], [1, 0], [-1, 1], [1, 1]]), [0, 1, 0, 1])
    assert np.all(np.isfinite(with_missing.predict_proba(X)))
    with pytest.raises(ValueError, match="ridge"):
        HBayesNB(ridge=-1.0).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="numeric"):
        HBayesNB().fit(X, [0, 1, 0, 1], n_values=[2, 0])
    with pytest.raises(ValueError, match="X has 3 features, but HBayesNB is expecting 2"):
        HBayesNB().fit(X, [0, 1, 0, 1]).predict(np.zeros((1, 3), int))
    with pytest.raises(ValueError, match=r"0 feature\(s\)"):
        HBayesTAN().fit(np.zeros((3, 0), int), [0, 1, 0])


def test_fit_info_records_s1_and_counts_every_candidate_fit():
    X, y = _dependent_data(1)
    model = HBayesNB().fit(X, y)
    info = model.fit_info()
    d = X.shape[1]
    sizes = [len(s1) for s1, _ in model.search_path_]
    assert sizes[:2] == [0, 2]
    # (d - 1) single fits (warm starts), every pair, then d - |S1| candidates per greedy step, the last
    # step (no improvement, or S1 full) included
    greedy = sum(d - k for k in range(2, min(sizes[-1] + 1, d)))
    assert info["n_lr_fits"] == (d - 1) + d * (d - 1) // 2 + greedy
    assert info["s1"] == model.s1_ and info["search_path"][-1][0] == model.s1_
    assert info["n_newton_iterations"] >= info["n_lr_fits"] and info["n_not_converged"] == 0
    assert model.n_iter_ == model.n_newton_iterations_  # scikit-learn's name for the iterations run


class _Straight:
    """The search without the shortcut of equal subproblems: every candidate S1 runs its optimizer."""

    def _fit_lr(self, s1, groups, theta0):
        weka = self.optimizer == "weka_bfgs"
        theta, lp, n_iter, converged = self._weka(s1, groups) if weka else self._newton(s1, groups, theta0)
        self.n_lr_fits_ += 1
        self.n_newton_iterations_ += n_iter
        self.n_not_converged_ += not converged
        return theta, lp[groups]


class _StraightNB(_Straight, HBayesNB):
    pass


class _StraightTAN(_Straight, HBayesTAN):
    pass


@pytest.mark.parametrize("optimizer", ["exact", "weka_bfgs"])
@pytest.mark.parametrize("model, straight", [(HBayesNB, _StraightNB), (HBayesTAN, _StraightTAN)])
def test_equal_subproblems_reuse_gives_the_search_without_it(model, straight, optimizer, monkeypatch):
    """With a copied attribute and two constant ones (equal code columns), the fit that reuses equal logistic
    subproblems is the fit that solves each: same S1, search path, fit_info and coefficients to the bit, with
    fewer optimizer runs (Newton's, or Weka's, whose fits of twins are equal too: same columns, same start)."""
    X, y = _redundant_data(n=500, seed=5)
    X = np.column_stack([X, X[:, 1], np.zeros(500, int), np.zeros(500, int), X[:, 3]])
    X[::7, 1] = -1  # missing values in one copy only: those two are not equal
    runs = []
    name = "_weka" if optimizer == "weka_bfgs" else "_newton"
    run = getattr(_HBayesBase, name)
    monkeypatch.setattr(_HBayesBase, name, lambda self, *a: runs.append(type(self)) or run(self, *a))
    fast, ref = model(ridge=1e-4, optimizer=optimizer).fit(X, y), straight(ridge=1e-4, optimizer=optimizer).fit(X, y)
    assert fast.fit_info() == ref.fit_info() and fast.s1_ == ref.s1_
    assert (fast.theta_ is None and ref.theta_ is None) or np.array_equal(fast.theta_, ref.theta_)
    assert np.array_equal(fast.predict_proba(X), ref.predict_proba(X))
    assert runs.count(model) < runs.count(straight) == ref.n_lr_fits_


def test_pattern_design_refine_and_first_rows_equal_the_direct_computations():
    """The patterns' numbering (no sort), first rows and design rows (from per-code rows) are np.unique's inverse,
    np.minimum.at's first occurrences and the standardized design of the patterns' training rows, to the bit."""
    from nbx.models.hbayes import _first_rows, _pattern_design
    from nbx.models.logistic_design import design_matrix, standardize, standardizer

    rng = np.random.default_rng(11)
    nv = np.array([3, 5, 2, 4, 1])
    X = np.where(rng.random((400, 5)) < 0.1, -1, np.floor(rng.random((400, 5)) * nv)).astype(int)
    w = rng.uniform(0.5, 2.0, 400)
    y = rng.integers(0, 3, 400)
    model = HBayesNB()
    model._prepare(X, y, w, nv)
    Z = design_matrix(X.astype(float), nv)[0]
    full = standardize(Z, *standardizer(Z, w))
    groups = np.zeros(400, np.int64)
    for s1 in ([3], [3, 0], [3, 0, 1], [3, 0, 1, 4]):
        a = s1[-1]
        key = groups * (nv[a] + 1) + X[:, a] + 1
        groups = model._refine(groups, a)
        assert np.array_equal(groups, np.unique(key, return_inverse=True)[1])
        first = np.full(groups.max() + 1, 400)
        np.minimum.at(first, groups, np.arange(400))
        assert np.array_equal(_first_rows(groups, groups.max() + 1), first)
        cols = model._columns(s1)
        position = np.repeat(np.arange(-1, len(s1)), [1] + [nv[b] for b in s1])
        design = _pattern_design(X[np.ix_(first, s1)], model._values, cols, position)
        assert np.array_equal(design, full[np.ix_(first, cols)])


def test_first_equal_columns_are_those_of_a_dict_of_the_columns_bytes():
    """Twins (equal code columns with the same value count) found by hashing are the ones a dict keyed by every
    column's bytes finds: copies, constant columns, and an equal column with another value count."""
    rng = np.random.default_rng(9)
    codes = rng.integers(-1, 3, (500, 8))
    codes[:, 3] = codes[:, 1]
    codes[:, 5] = codes[:, 1]
    codes[:, 4] = codes[:, 6] = 0
    codes[:, 7] = codes[:, 2]
    n_values = np.array([3, 3, 3, 3, 1, 3, 1, 4])
    first_of = {}
    expected = [first_of.setdefault((int(v), codes[:, a].tobytes()), a) for a, v in enumerate(n_values)]
    assert _first_equal_columns(codes, n_values) == expected == [0, 1, 2, 1, 4, 1, 4, 7]


# ------------------------------------------------------------------------------- Weka's optimizer for P(C | S1)
def _weka_data(n=240, seed=12):
    """Three classes; attributes: 3-valued, two-valued, two-valued, constant, 5-valued with missing codes and a
    value never seen, and one seen value besides missing codes (constant for Weka's RemoveUseless)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack(
        [
            np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n)),
            rng.integers(0, 2, n),
            np.where(rng.random(n) < 0.5, y % 2, rng.integers(0, 2, n)),
            np.zeros(n, int),
            np.where(rng.random(n) < 0.1, -1, rng.integers(0, 4, n)),
            np.where(rng.random(n) < 0.3, -1, 1),
        ]
    )
    return X, y, np.array([3, 2, 2, 1, 5, 2])


@pytest.mark.parametrize("model", [HBayesNB, HBayesTAN])
@pytest.mark.parametrize("s1", [[0, 1], [0, 2, 3], [4, 0], [2, 4, 1, 0], [5, 0], [3, 5]])
def test_weka_optimizer_fit_is_weka_logistic_on_the_s1_columns(model, s1):
    """With optimizer="weka_bfgs" a candidate's log P(C | S1), coefficients and iterations are those of
    LogisticRegression(optimizer="weka_bfgs") fitted on the S1 columns alone: Weka's columns (constant attributes
    dropped, one indicator for a two-valued one), Weka's start, Weka's stopping; weighted rows too."""
    X, y, n_values = _weka_data()
    weights = (None, np.random.default_rng(4).integers(1, 4, len(y)).astype(float))
    for w in weights:
        est = model(ridge=1e-8, optimizer="weka_bfgs")
        est._prepare(X, y, w, n_values)
        groups = np.zeros(len(y), np.int64)
        for a in s1:
            groups = est._refine(groups, a)
        est.n_lr_fits_ = est.n_newton_iterations_ = 0
        theta, lp = est._fit_lr(s1, groups, None)
        lr = LogisticRegression(ridge=1e-8, optimizer="weka_bfgs", n_values=n_values[s1])
        lr.fit(X[:, s1], y, sample_weight=w)
        np.testing.assert_allclose(lp, lr.predict_log_proba(X[:, s1]), rtol=0, atol=1e-12)
        np.testing.assert_allclose(theta, lr.theta_, rtol=1e-12, atol=1e-12)
        assert est.n_newton_iterations_ == lr.n_iter_ and est.n_lr_fits_ == 1


@pytest.mark.parametrize("seed", [1, 9])
def test_hbayes_nb_weka_optimizer_search_equals_fig2_reference_with_weka_logistic(seed):
    """The whole search with optimizer="weka_bfgs" is Fig. 2 with a cold-started LogisticRegression(optimizer=
    "weka_bfgs") on each candidate S1; predictions are eq. 2 with that logistic regression."""
    X, y = _dependent_data(seed)
    model = HBayesNB(optimizer="weka_bfgs").fit(X, y)
    s1, acc = _reference_search(X, y, 1e-8, _s2_loglik_nb, start_with_pairs=True, optimizer="weka_bfgs")
    assert model.s1_ == s1 and len(s1) >= 2
    assert model.train_accuracy_ == pytest.approx(acc)
    lr = LogisticRegression(optimizer="weka_bfgs").fit(X[:, s1], y, n_values=model.n_values_[s1])
    expected = lr.predict_log_proba(X[:, s1]) + _s2_loglik_nb(X, y, model.s2_)
    np.testing.assert_allclose(model._class_scores(X), expected, atol=1e-9)
    d = X.shape[1]
    greedy = sum(d - k for k in range(2, min(len(s1) + 1, d)))
    info = model.fit_info()
    assert info["n_lr_fits"] == d * (d - 1) // 2 + greedy  # every pair and greedy candidate; no warm-start fits
    assert info["n_not_converged"] == 0 and info["n_newton_iterations"] > info["n_lr_fits"]


def test_hbayes_tan_weka_optimizer_search_equals_reference_with_weka_logistic():
    X, y = _dependent_data(7)
    model = HBayesTAN(optimizer="weka_bfgs").fit(X, y)
    s1, acc = _reference_search(X, y, 1e-8, _s2_loglik_tan, start_with_pairs=False, optimizer="weka_bfgs")
    assert model.s1_ == s1 and s1
    assert model.train_accuracy_ == pytest.approx(acc)
    lr = LogisticRegression(optimizer="weka_bfgs").fit(X[:, s1], y, n_values=model.n_values_[s1])
    expected = lr.predict_log_proba(X[:, s1]) + _s2_loglik_tan(X, y, model.s2_)
    np.testing.assert_allclose(model._class_scores(X), expected, atol=1e-9)


@pytest.mark.parametrize("model", [HBayesNB, HBayesTAN])
def test_default_optimizer_is_exact_and_unchanged(model):
    """optimizer="exact" is the default: the same S1, fit_info, coefficients and probabilities, to the bit, as
    with the parameter omitted (the search before the parameter existed; the tests above pin it to Fig. 2)."""
    X, y = _dependent_data(7)
    assert model().get_params()["optimizer"] == "exact"
    default, exact = model().fit(X, y), model(optimizer="exact").fit(X, y)
    assert default.fit_info() == exact.fit_info() and default.s1_ == exact.s1_ != []
    assert default.theta_.tobytes() == exact.theta_.tobytes()
    assert default.predict_proba(X).tobytes() == exact.predict_proba(X).tobytes()


@pytest.mark.parametrize("model", [HBayesNB, HBayesTAN])
def test_optimizer_option_is_checked(model):
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    message = (
        f"The 'optimizer' parameter of {model.__name__} must be a str among {{'exact', 'weka_bfgs'}}. "
        "Got 'bfgs' instead."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        model(optimizer="bfgs").fit(X, [0, 1, 0, 1])


def test_weka_optimizer_counts_fits_that_run_out_of_rounds(monkeypatch):
    """A Weka fit that runs out of its max_iter rounds is counted in n_not_converged_ and warned about once."""
    import nbx.models.weka_optimization as weka_optimization

    fit = weka_optimization.fit_weka_logistic
    monkeypatch.setattr(weka_optimization, "fit_weka_logistic", lambda *a, **kw: (*fit(*a, **kw)[:2], False))
    X, y = _dependent_data(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = HBayesNB(optimizer="weka_bfgs", max_iter=3).fit(X, y)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert model.n_not_converged_ == model.n_lr_fits_ > 0
    assert messages == [
        f"HBayesNB: {model.n_lr_fits_} of {model.n_lr_fits_} logistic fits ran out of max_iter=3 rounds of "
        "Weka's quasi-Newton optimizer before it finished"
    ]
