"""Bias analyses of Ting & Zheng, "A study of AdaBoost with naive Bayesian classifiers".

1. :func:`kohavi_wolpert` — the zero-one loss decomposition of Kohavi & Wolpert (1996), the paper's
   eq. (5) (§3.3), estimated from repeated cross-validation predictions (§4: ten 3-fold CVs, so every
   example is predicted once per repetition).
2. :func:`nb_linear_form` / :func:`boosted_nb_linear_form` — §6, eq. (6)-(7): a weighted sum of naive
   Bayes log-odds is itself one function that is linear in per-attribute terms, of the same form as a
   single NB (claim T5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nbx.core.base import as_codes
from nbx.core.counting import ValueIndex


# ---------------------------------------------------------------------------- Kohavi-Wolpert (eq. 5)
@dataclass
class BiasVariance:
    """Averages over the test cases that were predicted at least once (each case weighs P(v) = 1/n).

    ``error`` is the mean zero-one loss over cases and repetitions; ``bias2`` the squared bias *including
    the intrinsic noise* (as in the paper, after Kohavi & Wolpert's strategy); ``variance`` the variance.
    ``error == bias2 + variance`` holds exactly (up to rounding). Per-case arrays hold NaN for cases that
    were never predicted.
    """

    error: float
    bias2: float
    variance: float
    n_cases: int
    case_error: np.ndarray
    case_bias2: np.ndarray
    case_variance: np.ndarray


def _as_prediction_codes(predictions, n_classes: int) -> np.ndarray:
    """Predictions as int codes with -1 for "not predicted" (NaN or any negative value)."""
    p = np.asarray(predictions)
    if p.ndim != 2:
        raise ValueError(f"predictions must have shape (R, n), got {p.shape}")
    if not np.issubdtype(p.dtype, np.integer):
        pf = p.astype(float)
        missing = np.isnan(pf)
        if np.any(pf[~missing] != np.round(pf[~missing])):
            raise ValueError("predictions must be class codes 0..n_classes-1 (NaN or -1 = not predicted)")
        p = np.where(missing, -1, np.nan_to_num(pf)).astype(np.int64)
    p = np.where(p < 0, -1, p).astype(np.int64)
    if np.any(p >= n_classes):
        raise ValueError(f"predictions contain codes >= n_classes ({n_classes})")
    return p


def kohavi_wolpert(y_true, predictions, n_classes: int) -> BiasVariance:
    """Kohavi-Wolpert bias/variance of zero-one loss from R repeated predictions of n test cases.

    ``y_true`` (n,) class codes; ``predictions`` (R, n) class codes, -1 or NaN where a case was not
    predicted in a repetition. For case v, P(C_H = c | v) is the fraction of its predictions that are c.
    The target distribution P(C_T | v) is unknown, so, as Ting & Zheng §3.3 (following Kohavi & Wolpert
    1996), it is taken to put mass 1 on the observed label: the noise term vanishes and

        bias2_v    = 1/2 Σ_c [1(c = y_v) - P(C_H = c | v)]^2     (squared bias incl. noise)
        variance_v = 1/2 (1 - Σ_c P(C_H = c | v)^2)

    whose sum is 1 - P(C_H = y_v | v), the case's mean error. The values are "calculated directly from
    the performance of each classifier on each test case" (§3.3): plain frequencies, without Kohavi &
    Wolpert's small-sample correction.
    """
    y = np.asarray(y_true)
    if y.ndim != 1 or not np.issubdtype(y.dtype, np.integer) or np.any((y < 0) | (y >= n_classes)):
        raise ValueError(f"y_true must be 1-D class codes in 0..{n_classes - 1}")
    pred = _as_prediction_codes(predictions, n_classes)
    if pred.shape[1] != y.shape[0]:
        raise ValueError(f"predictions has {pred.shape[1]} columns but y_true has {y.shape[0]} cases")
    _r, n = pred.shape
    # (n, K) vote counts with one bincount; unpredicted entries go to a dropped extra class
    flat = np.where(pred >= 0, pred, n_classes) + (n_classes + 1) * np.arange(n)[None, :]
    votes = np.bincount(flat.ravel(), minlength=n * (n_classes + 1)).reshape(n, n_classes + 1)[:, :-1]
    n_pred = votes.sum(axis=1)
    used = n_pred > 0
    p_h = np.zeros((n, n_classes))
    p_h[used] = votes[used] / n_pred[used, None]
    target = np.zeros((n, n_classes))
    target[np.arange(n), y] = 1.0
    bias2 = 0.5 * ((target - p_h) ** 2).sum(axis=1)
    variance = 0.5 * (1.0 - (p_h**2).sum(axis=1))
    error = 1.0 - p_h[np.arange(n), y]
    nan = np.full(n, np.nan)
    bias2, variance, error = (np.where(used, a, nan) for a in (bias2, variance, error))
    out = BiasVariance(
        float(np.nanmean(error)) if used.any() else float("nan"),
        float(np.nanmean(bias2)) if used.any() else float("nan"),
        float(np.nanmean(variance)) if used.any() else float("nan"),
        int(used.sum()),
        error,
        bias2,
        variance,
    )
    if used.any() and not np.isclose(out.error, out.bias2 + out.variance, rtol=0, atol=1e-9):
        raise RuntimeError("Kohavi-Wolpert identity error = bias2 + variance violated")  # cannot happen
    return out


# -------------------------------------------------------------------------- §6: boosted NB is linear
def nb_linear_form(models, alphas) -> tuple[np.ndarray, np.ndarray, ValueIndex]:
    """Σ_t α_t · (log P_t(c) + Σ_i log P_t(v_i | c)) as one NB-shaped linear model (§6, eq. 7).

    ``models`` are fitted :class:`~nbx.models.naive_bayes.NaiveBayes` with the same classes and
    cardinalities; ``alphas`` their real weights. Returns ``(intercept (K,), table (rows + 1, K), index)``:
    the combined score of class c for instance v is ``intercept[c] + Σ_i table[row(i, v_i), c]``, i.e. a
    linear function of the one-hot attribute-value indicators (the last table row, for missing values,
    is 0). For two classes the log-odds score H(v) = Σ_t α_t log P_t(1|v)/P_t(0|v) of eq. (6)-(7) is
    ``score[:, 1] - score[:, 0]`` exactly; for K classes Σ_t α_t log P_t(c | v) differs from the score
    only by a term that is the same for every class (the normalizers log P_t(v)).
    """
    models = list(models)
    alphas = np.asarray(alphas, dtype=float)
    if not models or alphas.shape != (len(models),):
        raise ValueError(f"need one alpha per model, got {alphas.shape} alphas for {len(models)} models")
    first = models[0]
    for mdl in models[1:]:
        same = np.array_equal(mdl.classes_, first.classes_) and np.array_equal(mdl.n_values_, first.n_values_)
        if not same:
            raise ValueError("models must share classes_ and n_values_")
    if not all(hasattr(mdl, "log_table_") for mdl in models):
        raise ValueError("nb_linear_form needs fitted NaiveBayes models (log_table_); trees are not linear")
    intercept = np.einsum("t,tk->k", alphas, np.array([mdl.class_log_prior_ for mdl in models]))
    table = np.einsum("t,trk->rk", alphas, np.array([mdl.log_table_ for mdl in models]))
    return intercept, table, ValueIndex(first.n_values_)


def linear_form_score(intercept: np.ndarray, table: np.ndarray, index: ValueIndex, X) -> np.ndarray:
    """Per-class scores (n, K) of the linear form from :func:`nb_linear_form`."""
    return intercept + index.lookup_sum(table, as_codes(X))


def boosted_nb_linear_form(ensemble):
    """:func:`nb_linear_form` of a fitted boosting ensemble of NaiveBayes (``estimators_`` with vote
    weights ``estimator_weights_``). AdaBoost.M1 itself votes with the models' *discrete* predictions, a
    weighted vote of linear classifiers; the linear form is the real-valued (Real AdaBoost, eq. 6) vote
    the paper's §6 argument is about.
    """
    return nb_linear_form(ensemble.estimators_, ensemble.estimator_weights_)
