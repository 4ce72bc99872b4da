"""Accuracy and the probability-quality metrics of each split, computed from stored predictions in one pass (the
accuracy, log loss, Brier score, ECE and AUC columns of data/results/ and metrics/); the one place the pipeline's
evaluate stage and ``nbx evaluate`` score a split.

Every metric takes probabilities ``proba`` (n, K) over the data set's full class list (a class never seen in
training has a column of zeros), integer labels ``y`` (n,), and optionally the split of each row; it returns
one value per split (bincount over the split index, no loop over rows).

- accuracy: argmax hits; ties in the probabilities go to the lowest class index.
- log loss: mean of -log p_y, with p_y clipped to [eps, 1 - eps] as scikit-learn's ``log_loss`` does
  (eps = machine epsilon of float64, 2.22e-16, so a zero probability costs -log(eps) = 36.04 nats).
  Probabilities are used as given (not renormalized).
- Brier score: mean over rows of sum_k (p_k - y_k)^2 with y one-hot, Brier's (1950) original multi-class form,
  range [0, 2]. For two classes it is twice scikit-learn's binary ``brier_score_loss``.
- ECE: top-label expected calibration error (Naeini et al. 2015; Guo et al. 2017 eq. 3):
  sum_b n_b/n |acc_b - conf_b| over ``n_bins`` equal-width bins of the top probability, bin b = (b/B, (b+1)/B].
- macro AUC: one-vs-rest AUC of each class (Mann-Whitney, tied scores get average ranks, i.e. a tie counts
  1/2), averaged without weights over the classes that have both positive and negative test rows in the
  split; classes absent from the split are skipped, NaN when no class qualifies.
"""

from __future__ import annotations

import numpy as np

EPS = float(np.finfo(np.float64).eps)
METRICS = ("accuracy", "log_loss", "brier", "ece", "auc")
N_BINS = 15  # equal-width bins of the ECE


def _prepare(proba, y, split, n_splits):
    p = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    split = np.zeros(len(y), np.int64) if split is None else np.asarray(split, dtype=np.int64)
    n_splits = int(split.max()) + 1 if n_splits is None else n_splits
    sizes = np.bincount(split, minlength=n_splits)
    if np.any(sizes == 0):
        raise ValueError("a split has no test rows")
    return p, y, split, sizes


def _split_mean(values, split, sizes):
    return np.bincount(split, weights=values, minlength=len(sizes)) / sizes


def accuracy(proba, y, split=None, n_splits=None) -> np.ndarray:
    p, y, split, sizes = _prepare(proba, y, split, n_splits)
    return _split_mean((p.argmax(axis=1) == y).astype(float), split, sizes)


def log_loss(proba, y, split=None, n_splits=None, eps: float = EPS) -> np.ndarray:
    p, y, split, sizes = _prepare(proba, y, split, n_splits)
    p_true = np.clip(p[np.arange(len(y)), y], eps, 1 - eps)
    return _split_mean(-np.log(p_true), split, sizes)


def brier(proba, y, split=None, n_splits=None) -> np.ndarray:
    p, y, split, sizes = _prepare(proba, y, split, n_splits)
    # sum_k (p_k - [k = y])^2 = sum_k p_k^2 - 2 p_y + 1
    per_row = np.einsum("ij,ij->i", p, p) - 2 * p[np.arange(len(y)), y] + 1
    return _split_mean(per_row, split, sizes)


def top_label_bins(proba, y, n_bins: int = N_BINS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The binning of the ECE, the one the reliability diagrams of the reports read too: per row the top
    probability ``conf``, whether its class is the label (``hit``, 1.0 or 0.0; ties go to the lowest class index,
    as for accuracy) and its bin, 0 .. n_bins - 1, bin b = (b/B, (b+1)/B] (a top probability of 0 falls in bin 0)."""
    p = np.asarray(proba, dtype=np.float64)
    conf = p.max(axis=1)
    hit = (p.argmax(axis=1) == np.asarray(y, dtype=np.int64)).astype(float)
    bins = np.clip(np.ceil(conf * n_bins).astype(np.int64) - 1, 0, n_bins - 1)
    return conf, hit, bins


def ece(proba, y, split=None, n_splits=None, n_bins: int = N_BINS) -> np.ndarray:
    p, y, split, sizes = _prepare(proba, y, split, n_splits)
    conf, hit, bins = top_label_bins(p, y, n_bins)
    # n_b |acc_b - conf_b| = |sum over the bin of (hit - conf)|
    gap = np.bincount(split * n_bins + bins, weights=hit - conf, minlength=len(sizes) * n_bins)
    return np.abs(gap.reshape(len(sizes), n_bins)).sum(axis=1) / sizes


def reliability_bins(proba, y, n_bins: int = N_BINS, weight=None) -> np.ndarray:
    """The reliability diagram's sums over the ECE's bins (:func:`top_label_bins`), shape (3, n_bins): per bin
    the total weight of its rows, their weighted sum of top probabilities and their weighted sum of hits (each row
    weighs 1 unless ``weight`` says otherwise). Sums add up over data sets; a bin's mean confidence and accuracy
    are the last two rows over the first, and with unit weights sum_b |hits_b - conf_b| / n is :func:`ece`."""
    conf, hit, bins = top_label_bins(proba, y, n_bins)
    w = np.ones(len(conf)) if weight is None else np.broadcast_to(np.asarray(weight, dtype=np.float64), conf.shape)
    return np.stack([np.bincount(bins, weights=v, minlength=n_bins) for v in (w, w * conf, w * hit)])


def macro_auc(proba, y, split=None, n_splits=None) -> np.ndarray:
    p, y, split, sizes = _prepare(proba, y, split, n_splits)
    _n, k = p.shape
    n_groups = len(sizes) * k
    # one group per (split, class): rank the class's scores within the split
    group = (split[:, None] * k + np.arange(k)).ravel()
    score = p.ravel()
    positive = (y[:, None] == np.arange(k)).ravel()
    # sorted by (group, score): the scores, then a stable sort of the groups (a radix sort for 16-bit keys). Rows of
    # equal group and score may come in any order: they share one average rank, and the rank sums below add
    # half-integers far below 2^53, exactly in any order
    order = np.argsort(score)
    order = order[np.argsort(group[order].astype(np.min_scalar_type(n_groups)), kind="stable")]
    group, score, positive = group[order], score[order], positive[order]
    new_value = np.r_[True, (group[1:] != group[:-1]) | (score[1:] != score[:-1])]
    first = np.flatnonzero(new_value)
    last = np.r_[first[1:], len(score)] - 1
    tie = np.cumsum(new_value) - 1
    size = np.bincount(group, minlength=n_groups)
    start = np.cumsum(size) - size  # each group's first position
    rank = (first + last)[tie] / 2 - start[group] + 1  # 1-based, ties averaged
    n_pos = np.bincount(group, weights=positive, minlength=n_groups)
    n_neg = size - n_pos
    rank_sum = np.bincount(group, weights=rank * positive, minlength=n_groups)
    valid = (n_pos > 0) & (n_neg > 0)
    auc = np.where(valid, (rank_sum - n_pos * (n_pos + 1) / 2) / np.where(valid, n_pos * n_neg, 1), 0.0)
    count = valid.reshape(-1, k).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, auc.reshape(-1, k).sum(axis=1) / count, np.nan)


def split_scores(proba, split, row, y, n_splits: int, n_bins: int = N_BINS) -> dict[str, np.ndarray]:
    """All metrics per split from stored predictions (see :class:`nbx.protocol.runner.SplitPredictions`):
    ``proba``/``split``/``row`` per test row, ``y`` the data set's labels."""
    proba, labels = np.asarray(proba, dtype=np.float64), np.asarray(y)[row]  # cast once
    return {
        "accuracy": accuracy(proba, labels, split, n_splits),
        "log_loss": log_loss(proba, labels, split, n_splits),
        "brier": brier(proba, labels, split, n_splits),
        "ece": ece(proba, labels, split, n_splits, n_bins=n_bins),
        "auc": macro_auc(proba, labels, split, n_splits),
    }


def summarize(acc: np.ndarray) -> dict:
    """Mean and standard deviation (over splits) of accuracy and error, in percent."""
    acc = np.asarray(acc, dtype=float) * 100
    std = float(acc.std(ddof=1)) if len(acc) > 1 else 0.0
    return {
        "acc": round(float(acc.mean()), 3),
        "acc_std": round(std, 3),
        "err": round(100 - float(acc.mean()), 3),
        "splits": len(acc),
    }
