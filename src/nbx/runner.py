"""Fit one learner on every split of one data set and collect its test-set class probabilities.

Each split gets a fresh clone of the learner. A learner with a ``random_state`` parameter gets a seed derived
from (experiment seed, data set, learner, split), so results depend neither on the order in which cells run nor
on how the splits are spread over processes. Classes missing from a split's training part get probability 0,
unless ``all_classes`` sets the learner's ``classes`` to every class of the data set (then the learner decides).
``numeric_ordinal`` sets the learner's ``ordinal`` parameters (nested ones too) to the data set's numeric columns,
so a discrete learner knows which codes are ordered intervals (Ting & Zheng's threshold tests).

Parallel map: joblib. The first split always runs in this process; the others go to ``n_jobs`` workers only
when the first one suggests they are worth a pool's start-up (:data:`POOL_MIN_SECONDS`). The backend is
joblib's local process pool by default; ``NBX_BACKEND=dask`` runs the splits on a Dask cluster
(``NBX_DASK_SCHEDULER=tcp://host:8786``, else a local one), ``NBX_BACKEND=ray`` on Ray. BLAS runs
single-threaded in every task, so results are byte-identical for any worker count and backend.
"""
from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass

import numpy as np

from .errors import NbxError
from .models.base import clone
from .splits import dataset_seed

POOL_MIN_SECONDS = 1.0  # remaining work (estimated from the first split) below which splits run serially
BACKENDS = ("loky", "dask", "ray")


class TrainError(NbxError, RuntimeError):
    """A learner failed on one split; the message names the data set and split (one line)."""


@dataclass
class SplitData:
    """One data set's inputs for every split: ``X`` shared by all splits (mixed input, imputed per split by
    ``impute``) or ``codes`` per split (discrete input, with per-split ``n_values``)."""

    y: np.ndarray                         # (n,) class indices
    test: np.ndarray                      # (n_splits, n) bool
    n_classes: int
    codes: np.ndarray | None = None       # (n_splits, n, d) discrete codes, -1 missing
    n_values: np.ndarray | None = None    # (n_splits, d) for codes, or (d,) for X (0 = numeric)
    X: np.ndarray | None = None           # (n, d) float, NaN missing
    numeric: np.ndarray | None = None     # (d,) bool: the columns that were numeric before discretization
    impute: object = None                 # callable(X, train_mask) -> X fitted on the training rows

    def task(self, s: int) -> tuple:
        """(X_train, y_train, n_values, X_test) of split s."""
        train_idx, test_idx = np.flatnonzero(~self.test[s]), np.flatnonzero(self.test[s])
        if self.codes is not None:
            X, nv = self.codes[s], self.n_values[s]
        else:
            X = self.impute(self.X, ~self.test[s]) if self.impute else self.X
            nv = self.n_values
        return X[train_idx], self.y[train_idx], nv, X[test_idx]


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


def _single_threaded():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # then only the environment (OPENBLAS_NUM_THREADS=1 in stages/train.py) limits it
        return contextlib.nullcontext()
    return threadpool_limits(1)


def ordinal_params(learner) -> list[str]:
    """The learner's parameters named ``ordinal``, nested ones included (``base__ordinal``)."""
    return [k for k in learner.get_params(deep=True) if k == "ordinal" or k.endswith("__ordinal")]


def with_ordinal(learner, numeric: np.ndarray):
    """A clone of the learner whose ``ordinal`` parameters name the numeric columns (a boolean mask)."""
    mask = [bool(v) for v in numeric]
    return clone(learner).set_params(**{k: mask for k in ordinal_params(learner)})


def fit_predict(model, X_train, y_train, n_values, X_test):
    """One split: (test probabilities over the model's classes_, classes_, fit seconds, predict seconds,
    the model's fit_info() or None)."""
    with _single_threaded():
        t0 = time.perf_counter()
        model.fit(X_train, y_train, n_values=n_values)
        t1 = time.perf_counter()
        part = model.predict_proba(X_test)
        t2 = time.perf_counter()
    info = model.fit_info() if hasattr(model, "fit_info") else None
    return part, np.asarray(model.classes_, dtype=np.int64), t1 - t0, t2 - t1, info


def default_jobs() -> int:
    return max(1, int(os.environ.get("NBX_JOBS", 0)) or os.cpu_count() or 1)


def backend() -> str:
    name = os.environ.get("NBX_BACKEND", "loky")
    if name not in BACKENDS:
        raise TrainError(f"NBX_BACKEND={name!r} is not one of {BACKENDS}")
    return name


@contextlib.contextmanager
def _parallel_backend(name: str):
    """joblib's parallel_config for the chosen backend (connecting to the cluster for dask/ray)."""
    import joblib
    if name == "dask":
        from dask.distributed import Client
        address = os.environ.get("NBX_DASK_SCHEDULER")
        with Client(address) if address else Client(processes=True) as client:  # noqa: F841
            with joblib.parallel_config(backend="dask"):
                yield
    elif name == "ray":
        from ray.util.joblib import register_ray
        register_ray()
        with joblib.parallel_config(backend="ray"):
            yield
    else:
        with joblib.parallel_config(backend="loky", inner_max_num_threads=1):
            yield


def _run(fn, task: tuple, where: str):
    try:
        return fn(*task)
    except Exception as exc:  # re-raised as one line naming the data set and split
        raise TrainError(f"{where}: {type(exc).__name__}: {exc}") from exc


def run_splits(learner, data: SplitData, seed: int, names: tuple[str, ...], n_jobs: int | None = None,
               on_split=None, all_classes: bool = False, numeric_ordinal: bool = False) -> SplitPredictions:
    """Fit/predict ``learner`` on each split of ``data``. ``names`` = (experiment, data set, seed name) seed
    the splits; ``on_split(k)`` is called as splits finish (progress). ``all_classes``: fit with
    ``classes`` = every class index of the data set (the learner needs that parameter). ``numeric_ordinal``:
    fit with ``ordinal`` = ``data.numeric`` (:func:`with_ordinal`)."""
    n_splits = len(data.test)
    if all_classes:
        learner = clone(learner).set_params(classes=list(range(data.n_classes)))
    if numeric_ordinal:
        learner = with_ordinal(learner, data.numeric)
    models = [_seeded(clone(learner), dataset_seed(seed, *names, str(s))) for s in range(n_splits)]
    where = f"{names[0]}/{names[1]}"

    def task(s):
        return (models[s],) + data.task(s)

    t0 = time.perf_counter()
    results = [_run(fit_predict, task(0), f"{where} split 0")]
    if on_split:
        on_split(1)
    rest = range(1, n_splits)
    n_jobs = min(n_jobs or default_jobs(), len(rest))
    pool_worth_it = (time.perf_counter() - t0) * len(rest) > POOL_MIN_SECONDS
    if n_jobs > 1 and pool_worth_it:
        import joblib
        with _parallel_backend(backend()):
            outputs = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(
                joblib.delayed(_run)(fit_predict, task(s), f"{where} split {s}") for s in rest)
            for out in outputs:
                results.append(out)
                if on_split:
                    on_split(1)
    else:
        for s in rest:
            results.append(_run(fit_predict, task(s), f"{where} split {s}"))
            if on_split:
                on_split(1)
    probas, splits, rows = [], [], []
    for s, (part, classes, *_) in enumerate(results):
        test_idx = np.flatnonzero(data.test[s])
        full = np.zeros((len(test_idx), data.n_classes), dtype=np.float32)
        full[:, classes] = part
        probas.append(full)
        splits.append(np.full(len(test_idx), s, dtype=np.int32))
        rows.append(test_idx.astype(np.int32))
    return SplitPredictions(np.concatenate(probas), np.concatenate(splits), np.concatenate(rows),
                            np.array([r[2] for r in results]), np.array([r[3] for r in results]),
                            [r[4] for r in results])
