"""Claim L7: the analytic response variance of NB / TAN (Lee, Greiner & Wang 2006 §3.2.1-3.4, eqs. 8-13,
after Van Allen, Greiner & Hooper 2001) against Monte Carlo over the Dirichlet posterior of the CP tables.

Every CP-table row θ_{D|f} has the posterior Dir(α + #(D = d, F_D = f))_d (§3.2, uniform prior α = 1), the
rows independent. We draw S complete parameter sets from these posteriors (one Gamma draw per cell,
normalized per row), compute P(c | e, Θ) for each draw and each query, and compare the empirical variance
over the draws with :func:`nbx.models.variance.response_variance` (eq. 8 via eqs. 9-13). Eq. 8 is a
delta-method approximation, exact only as the row sample sizes grow, so we repeat the comparison for
growing training sizes N; the empirical variance itself has relative standard error ≈ sqrt(2 / S)
(≈ 2.2% at S = 4000), the floor below which no agreement can be measured.

Data: a random class-conditional chain C -> X_0, (C, X_{j-1}) -> X_j — a true TAN network (so TAN's
structure learner can find it; naive Bayes is the wrong structure, which eq. 8 does not need: it is the
variance of the posterior of *that* structure's parameters). Its CP tables are drawn once from
Dir(``concentration``) per row; training sets of each size and the queries are sampled from it.

Params block ``analyses.lee2006`` (all optional):

``sizes``          training-set sizes N (default [300, 3000, 30000])
``draws``          posterior draws S (default 4000)
``queries``        number of query vectors e (default 40)
``classes``        K (default 3), ``attributes`` d (default 4), ``values`` V per attribute (default 3)
``concentration``  Dirichlet parameter of the generating network's CP tables (default 2.0)

Result (JSON): ``settings`` (the values used, ``mc_noise`` = sqrt(2/S)) and ``results``: for ``nb`` and
``tan`` one record per N with ``median_rel_error`` / ``max_rel_error`` (|var_MC - formula| / var_MC over
queries x classes), ``median_ratio`` (formula / var_MC; > 1 = the formula overstates), ``max_mean_error``
(max over queries x classes of |E_MC[P(c|e)] - P_Θ̄(c|e)|, eq. 7) and ``median_variance`` (their scale).
"""

from __future__ import annotations

import numpy as np

from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN
from nbx.models.variance import response_variance
from nbx.protocol.options import Option, resolve


# ------------------------------------------------------------------------------------------ data
def random_chain_network(
    rng, classes: int = 3, attributes: int = 4, values: int = 3, concentration: float = 2.0
) -> tuple[np.ndarray, list[np.ndarray]]:
    """(class prior (K,), CP tables): tables[0] is P(X_0 | C) with shape (K, V); tables[j > 0] is
    P(X_j | C, X_{j-1}) with shape (K, V, V). Rows drawn from Dir(concentration)."""
    prior = rng.dirichlet(np.full(classes, concentration))
    tables = [rng.dirichlet(np.full(values, concentration), size=classes)]
    tables += [rng.dirichlet(np.full(values, concentration), size=(classes, values)) for _ in range(attributes - 1)]
    return prior, tables


def sample_chain(network, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """n rows (X int codes (n, d), y (n,)) from :func:`random_chain_network`'s network, ancestral sampling."""
    prior, tables = network
    y = rng.choice(len(prior), size=n, p=prior)
    X = np.empty((n, len(tables)), dtype=np.int64)

    def draw(p):  # one categorical draw per row of p (n, V): inverse CDF
        return np.minimum((rng.random((len(p), 1)) > np.cumsum(p, axis=1)).sum(axis=1), p.shape[1] - 1)

    X[:, 0] = draw(tables[0][y])
    for j in range(1, len(tables)):
        X[:, j] = draw(tables[j][y, X[:, j - 1]])
    return X, y


# ------------------------------------------------------------------------------------- Monte Carlo
def posterior_draws(model, Xq, n_draws: int, rng) -> np.ndarray:
    """P(c | e, Θ) for ``n_draws`` draws Θ of all CP tables from their Dirichlet posteriors, (S, n, K).

    Each row θ_{D|f} ~ Dir(count + α): independent Gamma(count + α) per cell, normalized over the row.
    Queries must be complete (no missing values): a TAN's marginal rows for a missing parent are not
    parameters of the network, so they have no posterior to draw from.
    """
    k = len(model.classes_)
    prior = rng.gamma(np.broadcast_to(model.class_count_ + model.alpha, (n_draws, k)))
    log_prior = np.log(prior / prior.sum(1, keepdims=True))
    if isinstance(model, TAN):
        counts, index = model.cond_count_, model.cond_index_
        cond, marg = model.combined_codes(np.asarray(Xq))
        if np.any(marg >= 0):
            raise ValueError("Monte Carlo draws need complete queries (a missing TAN parent has no posterior)")
        rows = index.rows(cond)
        g = rng.gamma(np.broadcast_to(counts + model.alpha, (n_draws,) + counts.shape))
        flat = g.transpose(1, 0, 2).reshape(counts.shape[0], -1)  # row totals per (attribute, parent)
        totals = model._cpt_row_totals(flat).reshape(counts.shape[0], n_draws, k).transpose(1, 0, 2)
    elif isinstance(model, NaiveBayes):
        counts, index = model.feature_count_, model._index
        rows = index.rows(np.asarray(Xq))
        g = rng.gamma(np.broadcast_to(counts + model.alpha, (n_draws,) + counts.shape))
        totals = np.add.reduceat(g, index.offsets, axis=1)[:, index.attribute_of_row]
    else:
        raise TypeError(f"posterior draws are defined for NaiveBayes and TAN, got {type(model).__name__}")
    log_theta = np.log(g / totals)
    joint = log_prior[:, None, :] + log_theta[:, rows, :].sum(axis=2)
    return np.exp(joint - np.logaddexp.reduce(joint, axis=2, keepdims=True))


def compare(model, Xq, n_draws: int, rng) -> dict:
    """Formula (eq. 8-13) vs the empirical variance of the posterior draws, over queries x classes."""
    draws = posterior_draws(model, Xq, n_draws, rng)
    empirical = draws.var(axis=0, ddof=1)
    formula = response_variance(model, Xq)
    rel = np.abs(empirical - formula) / empirical
    return {
        "median_rel_error": float(np.median(rel)),
        "max_rel_error": float(rel.max()),
        "median_ratio": float(np.median(formula / empirical)),
        "max_mean_error": float(np.abs(draws.mean(axis=0) - model.predict_proba(Xq)).max()),
        "median_variance": float(np.median(empirical)),
    }


# ------------------------------------------------------------------------------------------ check
OPTIONS = {  # params.yaml's analyses.lee2006 block (nbx.protocol.options): the chain network, its samples, the draws
    "sizes": Option([300, 3000, 30000], "ints", low=2),
    "draws": Option(4000, "int", low=2),
    "queries": Option(40, "int", low=1),
    "classes": Option(3, "int", low=2),
    "attributes": Option(4, "int", low=1),
    "values": Option(3, "int", low=2),
    "concentration": Option(2.0, "float", low=0, above=True),
}


def run(block: dict, seed: int) -> dict:
    """The check with the options of ``block`` (:data:`OPTIONS`, defaults for the keys it leaves out)."""
    settings = resolve(OPTIONS, block)
    settings["mc_noise"] = float(np.sqrt(2.0 / settings["draws"]))
    rng = np.random.default_rng(seed)
    network = random_chain_network(
        rng, settings["classes"], settings["attributes"], settings["values"], settings["concentration"]
    )
    Xq, _ = sample_chain(network, settings["queries"], rng)
    results = {"nb": [], "tan": []}
    for n in settings["sizes"]:
        X, y = sample_chain(network, n, rng)
        for name, model in (("nb", NaiveBayes()), ("tan", TAN())):
            model.fit(X, y, n_values=np.full(X.shape[1], settings["values"]))
            results[name].append({"n": n, **compare(model, Xq, settings["draws"], rng)})
    return {"settings": settings, "results": results}
