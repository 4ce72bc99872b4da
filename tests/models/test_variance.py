"""Response variance (Lee et al. 2006 eq. 8-13) against the delta method and Monte Carlo (claim L7)."""

import numpy as np
import pytest
from chain_data import chain_data as _chain_data

from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN
from nbx.models.variance import mean_log_variance, response_variance
from nbx.papers.lee2006.checks import posterior_draws


def chain_data(n, rng, k=3, d=4, v=3, missing=0.0):
    return _chain_data(n, rng, k=k, d=d, v=v, missing=missing)


# ----------------------------------------------------------------------------- parameter bookkeeping
def dirichlet_rows(model):
    """Every CP-table row of a fitted NB/TAN as (table name, cell indices (rows, class), effective size)."""
    k = len(model.classes_)
    rows = [("prior", [(None, c) for c in range(k)], model.class_count_.sum() + k * model.alpha)]
    if isinstance(model, TAN):
        for name, index, counts in (
            ("cond", model.cond_index_, model.cond_count_),
            ("marg", model.marg_index_, model.marg_count_),
        ):
            for j in range(len(index.n_values)):
                v = model.n_values_[j]
                for start in range(index.offsets[j], index.offsets[j] + index.n_values[j], v):
                    for c in range(k):
                        cells = [(r, c) for r in range(start, start + v)]
                        rows.append((name, cells, sum(counts[r, c] + model.alpha for r, _ in cells)))
    else:
        index = model._index
        for j in range(len(index.n_values)):
            for c in range(k):
                cells = [(r, c) for r in range(index.offsets[j], index.offsets[j] + index.n_values[j])]
                rows.append(("nb", cells, sum(model.feature_count_[r, c] + model.alpha for r, _ in cells)))
    return rows


def theta_tables(model):
    if isinstance(model, TAN):
        return {
            "prior": np.exp(model.class_log_prior_),
            "cond": np.exp(model.cond_log_table_[:-1]),
            "marg": np.exp(model.marg_log_table_[:-1]),
        }
    return {"prior": np.exp(model.class_log_prior_), "nb": np.exp(model.log_table_[:-1])}


def brute_posterior(model, theta, x):
    """P(c | x) from the tables by explicit loops over attributes (independent of the lookup code)."""
    k = len(model.classes_)
    log_joint = np.log(theta["prior"]).copy()
    for j, xj in enumerate(x):
        if xj < 0:
            continue
        if isinstance(model, TAN):
            p = model.parents_[j]
            if p >= 0 and x[p] < 0:
                log_joint += np.log(theta["marg"][model.marg_index_.offsets[j] + xj])
            else:
                u = x[p] if p >= 0 else 0
                log_joint += np.log(theta["cond"][model.cond_index_.offsets[j] + u * model.n_values_[j] + xj])
        else:
            log_joint += np.log(theta["nb"][model._index.offsets[j] + xj])
    e = np.exp(log_joint - log_joint.max())
    return e / e.sum() if k else e


def delta_method_variance(model, Xq):
    """Σ_rows g' Cov g with Dirichlet covariances (diag θ - θθ')/(1 + n), g by central differences."""
    theta = theta_tables(model)
    out = np.zeros((len(Xq), len(model.classes_)))
    for name, cells, ess in dirichlet_rows(model):
        t = np.array([theta[name][c] if r is None else theta[name][r, c] for r, c in cells])
        grads = []
        for (r, c), tv in zip(cells, t):
            h = 1e-6 * tv
            values = []
            for sign in (1, -1):
                pert = {key: val.copy() for key, val in theta.items()}
                if r is None:
                    pert[name][c] += sign * h
                else:
                    pert[name][r, c] += sign * h
                values.append(np.array([brute_posterior(model, pert, x) for x in Xq]))
            grads.append((values[0] - values[1]) / (2 * h))
        g = np.stack(grads)  # (cells, n, K)
        cov = (np.diag(t) - np.outer(t, t)) / (1.0 + ess)
        out += np.einsum("aqk,ab,bqk->qk", g, cov, g)
    return out


@pytest.mark.parametrize(
    "make", [lambda: NaiveBayes(), lambda: NaiveBayes(alpha=0.5), lambda: TAN(), lambda: TAN(alpha=2.0)]
)
def test_formula_equals_delta_method_of_dirichlet_rows(make):
    """Eq. 9-13 (our closed form) equal the general delta method (eq. 8) row by row, with missing values."""
    rng = np.random.default_rng(0)
    X, y = chain_data(150, rng, d=3, missing=0.1)
    model = make().fit(X, y)
    Xq, _ = chain_data(12, rng, d=3, missing=0.2)
    np.testing.assert_allclose(response_variance(model, Xq), delta_method_variance(model, Xq), rtol=1e-5)


# ------------------------------------------------------------------------------------------ Monte Carlo
@pytest.mark.parametrize("make", [NaiveBayes, TAN])
def test_variance_matches_monte_carlo(make):
    """Claim L7. With S = 4000 posterior draws the empirical variance has relative standard error
    sqrt(2 / S) ≈ 2.2%, and at N = 20000 the delta-method (O(1/N)) bias is small, so the median relative
    error over 40 queries must be below 10% (measured: NB ≈ 2.8%, TAN ≈ 4%), each query below 50%."""
    rng = np.random.default_rng(1)
    X, y = chain_data(20000, rng)
    Xq, _ = chain_data(40, rng)
    model = make().fit(X, y)
    draws = posterior_draws(model, Xq, 4000, np.random.default_rng(2))
    formula = response_variance(model, Xq)
    rel = np.abs(draws.var(axis=0) - formula) / draws.var(axis=0)
    print(f"{make.__name__}: median relative error {np.median(rel):.4f}, max {rel.max():.4f}")
    assert np.median(rel) < 0.10
    assert rel.max() < 0.5
    # eq. 7: the mean response is the response at the posterior means (up to O(1/N) here)
    np.testing.assert_allclose(draws.mean(axis=0), model.predict_proba(Xq), atol=3e-3)


def test_small_sample_variance_is_larger():
    rng = np.random.default_rng(3)
    X, y = chain_data(4000, rng)
    Xq, _ = chain_data(30, rng)
    small = response_variance(NaiveBayes().fit(X[:400], y[:400]), Xq)
    big = response_variance(NaiveBayes().fit(X, y), Xq)
    assert np.median(small / big) > 5  # ≈ 10x the data -> ≈ 1/10 the variance


# ------------------------------------------------------------------------------------------ properties
def test_binary_variances_are_equal_and_means_match_predict_proba():
    rng = np.random.default_rng(4)
    X, y = chain_data(500, rng, k=2, missing=0.05)
    for model in (NaiveBayes().fit(X, y), TAN().fit(X, y)):
        log_p, log_v = mean_log_variance(model, X)
        np.testing.assert_allclose(log_v[:, 0], log_v[:, 1], rtol=1e-10)
        np.testing.assert_allclose(np.exp(log_p), model.predict_proba(X), rtol=1e-12)
        assert np.all(np.isfinite(log_v))


def test_confident_responses_keep_finite_log_variance():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 300)
    X = np.where(rng.random((300, 80)) < 0.7, y[:, None], rng.integers(0, 3, (300, 80)))
    log_p, log_v = mean_log_variance(NaiveBayes().fit(X, y), X)
    assert np.all(np.isfinite(log_v)) and np.all(np.isfinite(log_p))
    assert log_v.min() < -200  # far below what exp() could represent near the tail


def test_rejects_non_dirichlet_models():
    X, y = chain_data(50, np.random.default_rng(6))
    with pytest.raises(ValueError, match="prior"):
        response_variance(NaiveBayes(prior="m_estimate").fit(X, y), X)
    with pytest.raises(TypeError):
        response_variance(object(), X)
