"""Train one learner on every split of one data set and collect its test-set class probabilities.

Each split gets a fresh clone of the learner. A learner with a ``random_state`` parameter gets a seed
derived from (experiment seed, data set, learner, split), so results do not depend on the order in which
cells run, nor on how many processes run the splits (``n_jobs``; default: the ``NBX_JOBS`` environment
variable, else every core). Classes missing from a split's training part get probability 0 (the learner
never saw them).
"""
from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
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
    fit_info: list            # per split: the fitted model's fit_info() (None if it has none)

    def arrays(self) -> dict:
        """Deterministic arrays only (timings are stored separately)."""
        return {"proba": self.proba, "split": self.split, "row": self.row}


def _seeded(learner, seed_seq: np.random.SeedSequence):
    if "random_state" in learner.get_params(deep=False):
        learner.set_params(random_state=int(seed_seq.generate_state(1)[0]))
    return learner


def _fit_predict(model, X_train, y_train, n_values, X_test):
    """One split: (test probabilities over the model's classes_, classes_, fit seconds, predict seconds,
    the model's fit_info() or None)."""
    t0 = time.perf_counter()
    model.fit(X_train, y_train, n_values=n_values)
    t1 = time.perf_counter()
    part = model.predict_proba(X_test)
    info = model.fit_info() if hasattr(model, "fit_info") else None
    return part, np.asarray(model.classes_, dtype=np.int64), t1 - t0, time.perf_counter() - t1, info


def default_jobs() -> int:
    return max(1, int(os.environ.get("NBX_JOBS", 0)) or os.cpu_count() or 1)


def run_splits(learner, table: Table, test: np.ndarray, seed: int, names: tuple[str, ...],
               codes: np.ndarray | None = None, n_values: np.ndarray | None = None,
               how_impute: str | None = None, kind: str | None = None,
               n_jobs: int | None = None) -> SplitPredictions:
    """Fit/predict ``learner`` on each split. ``kind`` (default: the learner's input_kind) 'discrete' feeds
    the per-split ``codes``/``n_values``; 'mixed' feeds the table's values (numeric kept, imputed if asked)."""
    kind = kind or input_kind(learner)
    if kind == "discrete" and codes is None:
        raise ValueError(f"{type(learner).__name__} needs discretized input")
    tasks = []
    for s in range(len(test)):
        train_idx, test_idx = np.flatnonzero(~test[s]), np.flatnonzero(test[s])
        if kind == "discrete":
            X, nv = codes[s], n_values[s]
        else:
            X, nv = impute(table, ~test[s], how_impute), table.n_values
        model = _seeded(clone(learner), dataset_seed(seed, *names, str(s)))
        tasks.append((model, X[train_idx], table.y[train_idx], nv, X[test_idx]))
    n_jobs = min(n_jobs or default_jobs(), len(tasks))
    if n_jobs > 1:
        # fork: workers inherit the imported modules; results are independent of the worker count
        with ProcessPoolExecutor(n_jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_fit_predict, *zip(*tasks)))
    else:
        results = [_fit_predict(*task) for task in tasks]
    n_classes = len(table.classes)
    probas, splits, rows = [], [], []
    for s, (part, classes, *_) in enumerate(results):
        test_idx = np.flatnonzero(test[s])
        full = np.zeros((len(test_idx), n_classes), dtype=np.float32)
        full[:, classes] = part
        probas.append(full)
        splits.append(np.full(len(test_idx), s, dtype=np.int32))
        rows.append(test_idx.astype(np.int32))
    fit_s = np.array([r[2] for r in results])
    pred_s = np.array([r[3] for r in results])
    return SplitPredictions(np.concatenate(probas), np.concatenate(splits), np.concatenate(rows), fit_s, pred_s,
                            [r[4] for r in results])
