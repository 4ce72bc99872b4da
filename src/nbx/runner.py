"""Train one learner on every split of one data set and collect its test-set class probabilities.

Each split gets a fresh clone of the learner. A learner with a ``random_state`` parameter gets a seed
derived from (experiment seed, data set, learner, split), so results do not depend on the order in which
cells run. Classes missing from a split's training part get probability 0 (the learner never saw them).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .data.prepare import Table
from .folds import impute
from .models.base import clone
from .models.registry import input_kind
from .splits import dataset_seed


@dataclass
class SplitPredictions:
    proba: np.ndarray         # (total test rows, K) float32
    split: np.ndarray         # (total test rows,) split index
    row: np.ndarray           # (total test rows,) row index into the data set
    fit_seconds: np.ndarray   # (n_splits,)
    predict_seconds: np.ndarray

    def arrays(self) -> dict:
        """Deterministic arrays only (timings are stored separately)."""
        return {"proba": self.proba, "split": self.split, "row": self.row}


def _seeded(learner, seed_seq: np.random.SeedSequence):
    if "random_state" in learner.get_params(deep=False):
        learner.set_params(random_state=int(seed_seq.generate_state(1)[0]))
    return learner


def run_splits(learner, table: Table, test: np.ndarray, seed: int, names: tuple[str, ...],
               codes: np.ndarray | None = None, n_values: np.ndarray | None = None,
               how_impute: str | None = None) -> SplitPredictions:
    """Fit/predict ``learner`` on each split; discrete learners read ``codes``/``n_values`` (per split)."""
    kind = input_kind(learner)
    if kind == "discrete" and codes is None:
        raise ValueError(f"{type(learner).__name__} needs discretized input")
    n_classes = len(table.classes)
    probas, splits, rows = [], [], []
    fit_s, pred_s = np.zeros(len(test)), np.zeros(len(test))
    for s in range(len(test)):
        train_idx, test_idx = np.flatnonzero(~test[s]), np.flatnonzero(test[s])
        if kind == "discrete":
            X, nv = codes[s], n_values[s]
        else:
            X, nv = impute(table, ~test[s], how_impute), table.n_values
        model = _seeded(clone(learner), dataset_seed(seed, *names, str(s)))
        t0 = time.perf_counter()
        model.fit(X[train_idx], table.y[train_idx], n_values=nv)
        t1 = time.perf_counter()
        part = model.predict_proba(X[test_idx])
        pred_s[s], fit_s[s] = time.perf_counter() - t1, t1 - t0
        full = np.zeros((len(test_idx), n_classes))
        full[:, np.asarray(model.classes_, dtype=np.int64)] = part
        probas.append(full.astype(np.float32))
        splits.append(np.full(len(test_idx), s, dtype=np.int32))
        rows.append(test_idx.astype(np.int32))
    return SplitPredictions(np.concatenate(probas), np.concatenate(splits), np.concatenate(rows), fit_s, pred_s)
