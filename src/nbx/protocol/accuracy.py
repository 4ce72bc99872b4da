"""Accuracy per split from stored predictions, and summary metrics per data set and learner."""
from __future__ import annotations

import numpy as np


def split_accuracy(proba: np.ndarray, split: np.ndarray, row: np.ndarray, y: np.ndarray,
                   n_splits: int) -> np.ndarray:
    """Accuracy of each split (fraction). Ties in the probabilities go to the lowest class index."""
    correct = (np.argmax(proba, axis=1) == y[row]).astype(float)
    hits = np.bincount(split, weights=correct, minlength=n_splits)
    sizes = np.bincount(split, minlength=n_splits)
    if np.any(sizes == 0):
        raise ValueError("a split has no test rows")
    return hits / sizes


def summarize(acc: np.ndarray) -> dict:
    """Mean and standard deviation (over splits) of accuracy and error, in percent."""
    acc = np.asarray(acc, dtype=float) * 100
    std = float(acc.std(ddof=1)) if len(acc) > 1 else 0.0
    return {"acc": round(float(acc.mean()), 3), "acc_std": round(std, 3),
            "err": round(100 - float(acc.mean()), 3), "splits": int(len(acc))}


def repetition_accuracy(acc: np.ndarray, repeat: np.ndarray, test_sizes: np.ndarray) -> np.ndarray:
    """Accuracy of each repetition of a repeated CV (all its folds pooled)."""
    n_rep = int(repeat.max()) + 1
    hits = np.bincount(repeat, weights=acc * test_sizes, minlength=n_rep)
    return hits / np.bincount(repeat, weights=test_sizes, minlength=n_rep)
