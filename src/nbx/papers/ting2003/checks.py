"""Claim T5 (Ting & Zheng §6, eq. 6-7): a boosted naive Bayes is *one* function linear in per-attribute
log-odds terms, of the same form as a single naive Bayes -- checked numerically on seeded discrete data.

What is fitted: AdaBoost.M1 (§2, reweighting, restarts by bootstrap, T = ``n_estimators``) over
NaiveBayes with Cestnik's m-estimate (m = ``m``), the paper's BLNBT(0), on a synthetic discrete data set
whose class depends additively on some attributes *and* on an interaction (so that NB is imperfect and
boosting has work to do). Checks, all on the full attribute space (every combination of values) and on
the training rows (which include missing values):

1. ``deviation`` -- eq. (6), the Real-AdaBoost vote H(v) = Σ_t α_t log P_t(1|v) / P_t(0|v) computed from
   each model's own posteriors, against eq. (7), the single linear form b + Σ_i w_{i, v_i} returned by
   :func:`~nbx.stats.bias_variance.boosted_nb_linear_form`: max |difference| (should be rounding).
2. ``lstsq`` -- independent of (1): the least-squares fit of H on the one-hot attribute-value indicators
   over the whole attribute space; a max residual of ~0 means *some* linear function of per-attribute terms
   reproduces H everywhere. The same fit for boosted leveled NB trees (BLNBT(``tree_depth``)) leaves a
   clearly non-zero residual: trees make the final model non-linear (§6, last paragraph).
3. ``multiclass`` -- for K = 3, Σ_t α_t log P_t(c|v) minus the linear-form score is the same for every
   class (the normalizers log P_t(v)), so both rank the classes identically.
4. AdaBoost.M1 itself votes with the models' *discrete* predictions; we report how often its prediction
   agrees with the sign of H, and the least-squares residual of its vote margin (the paper's §6 argument
   is about the real-valued form, not about this discrete vote).
5. ``fit_info`` of the boosting runs (models kept, restarts for ε ≥ 0.5 and ε = 0), cf. Figure 2.

Params block ``analyses.ting2003`` (all optional): ``n_rows`` (600), ``n_values`` (list of attribute
cardinalities, [2, 3, 4, 2, 3, 2, 3]), ``noise`` (0.15, label flip rate), ``n_estimators`` (100), ``m`` (2.0),
``tree_depth`` (3), ``min_split`` (30).
"""

from __future__ import annotations

import itertools

import numpy as np

from nbx.models.ensembles import AdaBoostM1
from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.logistic_design import design_matrix
from nbx.models.naive_bayes import NaiveBayes
from nbx.protocol.options import Option, resolve
from nbx.stats.bias_variance import boosted_nb_linear_form, linear_form_score


def synthetic(n_rows: int, n_values, n_classes: int, noise: float, rng: np.random.Generator):
    """Discrete attributes (uniform codes, 5% missing as -1) and a class that depends additively on
    attributes 0, 2, 4 and on whether attributes 1 and 3 agree (an interaction NB cannot represent)."""
    nv = np.asarray(n_values, dtype=np.int64)
    X = (rng.random((n_rows, nv.size)) * nv).astype(np.int64)
    score = X[:, 0] + (X[:, 2] >= 2) + (X[:, 4] == 0) + 2 * (X[:, 1] % 2 == X[:, 3])
    y = score % n_classes if n_classes > 2 else (score >= np.median(score)).astype(np.int64)
    flip = rng.random(n_rows) < noise
    y = np.where(flip, rng.integers(0, n_classes, n_rows), y)
    X_missing = np.where(rng.random(X.shape) < 0.05, -1, X)
    return X_missing, y, nv


def attribute_space(n_values) -> np.ndarray:
    """Every combination of attribute values, shape (Π V_i, d)."""
    return np.array(list(itertools.product(*[range(v) for v in n_values])), dtype=np.int64)


def one_hot(X: np.ndarray, n_values) -> np.ndarray:
    """[1, indicator(x_i = v) for every attribute value] -- the per-attribute terms of eq. (7)."""
    indicators, _ = design_matrix(X, n_values)  # ridge LR's indicator design: a missing value's block all zero
    return np.column_stack([np.ones(len(X)), indicators])


def lstsq_residual(H: np.ndarray, phi: np.ndarray) -> dict:
    """Max |residual| and residual RMS relative to the spread of H, of the least-squares linear fit."""
    coef, *_ = np.linalg.lstsq(phi, H, rcond=None)
    resid = H - phi @ coef
    spread = float(H.std()) or 1.0
    return {"max_abs": float(np.abs(resid).max()), "rel_rms": float(np.sqrt(np.mean(resid**2)) / spread)}


def real_vote(ensemble, X) -> np.ndarray:
    """Eq. (6) in K-class form: Σ_t α_t log P_t(c | v), shape (n, K), from each model's posteriors."""
    return sum(a * est.predict_log_proba(X) for est, a in zip(ensemble.estimators_, ensemble.estimator_weights_))


def summarize_fit(ensemble) -> dict:
    info = ensemble.fit_info()
    return {
        "kept": info["kept"],
        "restarts": info["restarts"],
        "train_accuracy": info["train_accuracy"],
        "mean_error": float(np.mean(info["errors"])),
    }


def _boost(base, X, y, nv, n_estimators, seed):
    return AdaBoostM1(base=base, n_estimators=n_estimators, restart="bootstrap", random_state=seed).fit(
        X, y, n_values=nv
    )


def two_class(block: dict, rng: np.random.Generator, seed: int) -> dict:
    X, y, nv = synthetic(block["n_rows"], block["n_values"], 2, block["noise"], rng)
    grid = attribute_space(nv)
    T, m = block["n_estimators"], block["m"]
    boosted = _boost(NaiveBayes(prior="m_estimate", m=m), X, y, nv, T, seed)
    intercept, table, index = boosted_nb_linear_form(boosted)
    out = {"n_rows": len(y), "n_attributes": int(nv.size), "grid_size": len(grid), "fit_info": summarize_fit(boosted)}
    devs, scales = [], []
    for Z in (grid, X):  # the whole attribute space, then the training rows (with missing values)
        H = np.diff(real_vote(boosted, Z), axis=1)[:, 0]  # eq. (6), log P(1|v) - log P(0|v)
        lin = np.diff(linear_form_score(intercept, table, index, Z), axis=1)[:, 0]  # eq. (7)
        devs.append(float(np.abs(H - lin).max()))
        scales.append(float(np.abs(H).max()))
    out["max_abs_deviation"] = max(devs)
    out["max_abs_H"] = max(scales)
    phi = one_hot(grid, nv)
    H_grid = np.diff(real_vote(boosted, grid), axis=1)[:, 0]
    out["lstsq_boosted_nb"] = lstsq_residual(H_grid, phi)
    # AdaBoost.M1's own (discrete) vote margin and how its decisions compare with the linear form's
    margin = boosted.decision_function(grid)  # two classes: vote sum of class 1 minus that of class 0
    out["lstsq_discrete_vote"] = lstsq_residual(margin, phi)
    out["discrete_vote_agreement"] = float(np.mean((H_grid > 0) == (boosted.predict(grid) == 1)))
    # contrast: boosted leveled NB trees (BLNBT(d)) are no longer linear in per-attribute terms
    depth = block["tree_depth"]
    trees = _boost(LeveledNBTree(max_depth=depth, min_split=block["min_split"], m=m), X, y, nv, T, seed)
    H_tree = np.diff(real_vote(trees, grid), axis=1)[:, 0]
    out["tree"] = {"depth": depth, "lstsq": lstsq_residual(H_tree, phi), "fit_info": summarize_fit(trees)}
    return out


def multiclass(block: dict, rng: np.random.Generator, seed: int) -> dict:
    """K = 3: the real vote and the linear-form score differ by a per-instance constant only."""
    X, y, nv = synthetic(block["n_rows"], block["n_values"], 3, block["noise"], rng)
    T, m = block["n_estimators"], block["m"]
    boosted = _boost(NaiveBayes(prior="m_estimate", m=m), X, y, nv, T, seed)
    grid = attribute_space(nv)
    gap = real_vote(boosted, grid) - linear_form_score(*boosted_nb_linear_form(boosted), grid)
    same_ranking = np.mean(
        np.argmax(real_vote(boosted, grid), axis=1)
        == np.argmax(linear_form_score(*boosted_nb_linear_form(boosted), grid), axis=1)
    )
    return {
        "n_classes": 3,
        "max_abs_class_dependent_gap": float(np.abs(gap - gap[:, :1]).max()),
        "same_argmax": float(same_ranking),
        "fit_info": summarize_fit(boosted),
    }


OPTIONS = {  # params.yaml's analyses.ting2003 block (nbx.protocol.options): the synthetic data and the boosting
    "n_rows": Option(600, "int", low=2),
    "n_values": Option([2, 3, 4, 2, 3, 2, 3], "ints", low=2),
    "noise": Option(0.15, "float", low=0),
    "n_estimators": Option(100, "int", low=1),
    "m": Option(2.0, "float", low=0),
    "tree_depth": Option(3, "int", low=0),
    "min_split": Option(30.0, "float", low=0),
}


def run(block: dict, seed: int) -> dict:
    """The T5 check (see the module docstring) with the options of ``block`` (:data:`OPTIONS`, defaults for
    the keys it leaves out); JSON-able results for data/analysis/ting2003.json."""
    block = resolve(OPTIONS, block)
    rng = np.random.default_rng([int(seed), 2003])
    return {
        "two_class": two_class(block, rng, int(rng.integers(2**31 - 1))),
        "multiclass": multiclass(block, rng, int(rng.integers(2**31 - 1))),
        "params": {"n_estimators": block["n_estimators"], "m": block["m"]},
    }
