"""Query-specific variance of a naive Bayes / TAN response, Lee, Greiner & Wang (2006) §3.2.1-3.4.

For a fixed structure and query ``e`` the response ``P(c | e, Θ)`` is a function of the CP-table parameters,
each CP-table row a Dirichlet posterior. Its mean is the response at the posterior means (eq. 7) and its
variance is asymptotically (eq. 8, after Van Allen, Greiner & Hooper 2001, a delta-method approximation)

    σ²[P(c | e)] = Σ_{rows θ_{D|f}} v̄_{c|e}(D | f) / (1 + n_{D|f}),

with n_{D|f} the row's effective sample size (Σ of its Dirichlet parameters = V_D α + #(F_D = f)).

For NB and TAN, with every attribute of a row observed in the query, eq. 8 reduces to (eqs. 9-13): only the
class row and the rows ``θ_{E | f, c'}`` whose parent values ``f`` match the query contribute, with

    v̄(C | {})     = Σ_{c'} (δ_{c c'} p_c - p_c p_{c'})² / θ_{c'}
    v̄(E | f, c')  = (δ_{c c'} p_c - p_c p_{c'})² (1/θ_{e | f, c'} - 1)

(p = P(· | e) at the posterior means; v̄ is zero for rows with a parent value unlike the query). Hence, with

    W_{c'}(e) = 1 / ((1 + n_C) θ_{c'}) + Σ_E (1/θ_{e | f, c'} - 1) / (1 + n_{E | f, c'}),

    σ²[P(c | e)] = p_c² Σ_{c'} (δ_{c c'} - p_{c'})² W_{c'}(e),

one table lookup per attribute, vectorized over queries and classes. We evaluate it in log space:
log σ² = 2 log p_c + log[(Σ_{c'≠c} p_{c'})² W_c + Σ_{c'≠c} p_{c'}² W_{c'}], so confident responses give tiny
but non-zero variances instead of 0 from cancellation. For binary C this gives σ²(+) = σ²(-) (footnote 2).

Missing values: an unobserved attribute is marginalised out of a NB and then eq. 8 gives its rows exactly
zero weight, so it adds no term. For TAN an observed child with a missing attribute parent uses the
marginal row P(x | c) (see :mod:`nbx.models.tan`); we treat that row as a Dirichlet row with effective
sample size V α + #(C = c', x observed) — an approximation, as it is not a parameter of the tree.
"""

from __future__ import annotations

import numpy as np

from nbx.core.base import as_codes
from nbx.core.counting import logsumexp
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN


def _w_table(log_table: np.ndarray, ess: np.ndarray) -> np.ndarray:
    """[log θ | (1/θ - 1) / (1 + n)] per cell, with a zero last row for "no evidence"."""
    log_theta = log_table[:-1]
    w = np.expm1(-log_theta) / (1.0 + ess)
    return np.vstack([np.hstack([log_theta, w]), np.zeros((1, 2 * log_theta.shape[1]))])


def _nb_factors(model: NaiveBayes, X):
    if model.prior != "laplace":
        raise ValueError(
            f"response variance needs Dirichlet CP tables: NaiveBayes prior must be 'laplace', got {model.prior!r}"
        )
    codes = as_codes(X)
    if codes.shape[1] != len(model.n_values_):
        raise ValueError(f"X has {codes.shape[1]} columns, the model was fitted on {len(model.n_values_)}")
    index = model._index
    alpha = float(model.alpha)
    ess = index.per_attribute_totals(model.feature_count_ + alpha)[index.attribute_of_row]
    class_ess = model.class_count_.sum() + len(model.class_count_) * alpha
    return model.class_log_prior_, class_ess, [(index, _w_table(model.log_table_, ess), codes)]


def _tan_factors(model: TAN, X):
    cond, marg = model.combined_codes(model._codes(X))
    return (
        model.class_log_prior_,
        model.class_ess_,
        [
            (model.cond_index_, _w_table(model.cond_log_table_, model.cond_ess_), cond),
            (model.marg_index_, _w_table(model.marg_log_table_, model.marg_ess_), marg),
        ],
    )


def _factors(model, X):
    if isinstance(model, TAN):
        return _tan_factors(model, X)
    if isinstance(model, NaiveBayes):
        return _nb_factors(model, X)
    raise TypeError(f"response variance is defined for NaiveBayes and TAN models, got {type(model).__name__}")


def _log_sum_others(a: np.ndarray) -> np.ndarray:
    """log Σ_{c' ≠ c} exp(a[:, c']) for every c, shape (n, K)."""
    k = a.shape[1]
    masked = np.where(np.eye(k, dtype=bool)[None], -np.inf, a[:, None, :])
    return logsumexp(masked, axis=2)


def mean_log_variance(model, X) -> tuple[np.ndarray, np.ndarray]:
    """(log P(c | e), log σ²[P(c | e)]) at the posterior means, both (n, K); eqs. 7-13."""
    log_prior, class_ess, factors = _factors(model, X)
    k = log_prior.shape[0]
    n = factors[0][2].shape[0]
    joint = np.broadcast_to(log_prior, (n, k)).copy()
    w = np.broadcast_to(1.0 / ((1.0 + class_ess) * np.exp(log_prior)), (n, k)).copy()
    for index, table, codes in factors:  # one gather per table gives log θ and the variance weights
        both = index.lookup_sum(table, codes)
        joint += both[:, :k]
        w += both[:, k:]
    log_p = joint - logsumexp(joint, axis=1)[:, None]
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
        log_rest = _log_sum_others(log_p)  # log (1 - p_c), without cancellation
        log_t = np.logaddexp(2 * log_rest + log_w, _log_sum_others(2 * log_p + log_w))
    return log_p, 2 * log_p + log_t


def response_variance(model, X) -> np.ndarray:
    """σ²[P(c | e)] for every query and class, shape (n, K) (eq. 8 for a fitted NaiveBayes or TAN)."""
    return np.exp(mean_log_variance(model, X)[1])
