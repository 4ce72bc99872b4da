"""Fit one learner on every split of one data set and collect its test-set class probabilities.

Each split gets a fresh clone of the learner. A learner with a ``random_state`` parameter gets a seed derived
from (experiment seed, data set, learner, split), so results depend neither on the order in which cells run nor
on how the splits are spread over processes. Classes missing from a split's training part get probability 0,
unless ``all_classes`` sets the learner's ``classes`` to every class of the data set (then the learner decides).
``numeric_ordinal`` sets the learner's ``ordinal`` parameters (nested ones too) to the data set's numeric columns,
so a discrete learner knows which codes are ordered intervals (Ting & Zheng's threshold tests).

Parallel map: joblib, over every (data set, split) of a train cell at once (:func:`run_datasets`), so both
cores stay busy across data-set boundaries instead of waiting for each data set's slowest split. Splits run in
this process until the work left (estimated from the splits done) looks worth a pool's start-up
(:data:`POOL_MIN_SECONDS`) and the pool is up (Dask's cluster starts in the background meanwhile), the smallest
data sets first; the rest then go to ``n_jobs`` workers, the largest data sets first (no cell ends on one worker
running a large data set's last splits), as every split of a later cell does once the process has a pool. The
backend is joblib's local process pool by default; ``NBX_BACKEND=dask`` runs the splits on a Dask cluster
(``NBX_DASK_SCHEDULER=tcp://host:8786``, else a local one; one client per process, kept until it exits),
``NBX_BACKEND=ray`` on Ray. BLAS runs single-threaded in every task, so results are byte-identical for any worker
count and backend. A task carries its data set and the number of its split (:func:`fit_split`), so a data set
travels to a worker once per cell: the local pool memory-maps its large arrays once per call, and Dask receives
every data set of the cell on every worker before the first task (``scatter``, broadcast).
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import signal
import sys
import threading
import time
import warnings
from dataclasses import dataclass

import numpy as np

from nbx.core.base import clone, ordinal_params
from nbx.core.errors import NbxError
from nbx.protocol.splits import dataset_seed
from nbx.protocol.table import Table

POOL_MIN_SECONDS = 1.0  # work left (estimated from the splits done) below which splits run serially
BACKENDS = ("loky", "dask", "ray")


class SettingError(NbxError, ValueError):
    """An environment variable that sets how splits run (NBX_JOBS) has a value that cannot be used."""


class TrainError(NbxError, RuntimeError):
    """A learner failed on one split; the message names the data set and split (one line), as do the attributes
    ``dataset``, ``split`` and ``cause`` (``Type: message`` of the learner's exception)."""

    def __init__(self, message: str, dataset: str | None = None, split: int | None = None, cause: str = ""):
        super().__init__(message)
        self.dataset, self.split, self.cause = dataset, split, cause


@dataclass
class SplitData:
    """One data set's inputs for every split: ``X`` shared by all splits (mixed input, imputed per split by
    ``impute``) or ``codes`` per split (discrete input, with per-split ``n_values``)."""

    y: np.ndarray  # (n,) class indices
    test: np.ndarray  # (n_splits, n) bool
    n_classes: int
    codes: np.ndarray | None = None  # (n_splits, n, d) discrete codes, -1 missing
    n_values: np.ndarray | None = None  # (n_splits, d) for codes, or (d,) for X (0 = numeric)
    X: np.ndarray | None = None  # (n, d) float, NaN missing
    numeric: np.ndarray | None = None  # (d,) bool: the columns that were numeric before discretization
    impute: object = None  # callable(X, train_mask) -> X fitted on the training rows

    @property
    def size(self) -> tuple[int, int, int]:
        """(rows, attributes, classes) of the data set."""
        return len(self.y), (self.codes.shape[2] if self.codes is not None else self.X.shape[1]), self.n_classes

    def task(self, s: int) -> tuple:
        """(X_train, y_train, n_values, X_test) of split s."""
        train_idx, test_idx = np.flatnonzero(~self.test[s]), np.flatnonzero(self.test[s])
        if self.codes is not None:
            X, nv = self.codes[s], self.n_values[s]
        else:
            X = self.impute(self.X, ~self.test[s]) if self.impute else self.X
            nv = self.n_values
        return X[train_idx], self.y[train_idx], nv, X[test_idx]


def discrete_input(folds: dict, numeric: np.ndarray | None = None) -> SplitData:
    """A discrete learner's input from :func:`nbx.protocol.folds.fold_codes` (or the discretize stage's file);
    ``numeric``: which columns were numeric before discretization (for ``numeric_ordinal`` learners)."""
    return SplitData(
        folds["y"],
        folds["test"],
        int(folds["n_classes"]),
        codes=folds["codes"],
        n_values=folds["n_values"],
        numeric=numeric,
    )


def mixed_input(table: Table, test: np.ndarray, how_impute: str | None) -> SplitData:
    """A mixed-input learner's input: the table's values, missing ones imputed from each split's training part
    (``how_impute`` = 'mode' or 'mode_after_discretize', both 'mode' here as nothing is discretized)."""
    from nbx.protocol.folds import impute  # here: a discrete learner's cell never loads the discretizers

    return SplitData(
        table.y,
        test,
        len(table.classes),
        X=table.X,
        n_values=table.n_values,
        numeric=table.n_values == 0,
        impute=lambda X, train: impute(table, train, how_impute),
    )


@dataclass
class SplitPredictions:
    proba: np.ndarray  # (total test rows, K) float32
    split: np.ndarray  # (total test rows,) split index
    row: np.ndarray  # (total test rows,) row index into the data set
    fit_seconds: np.ndarray  # (n_splits,)
    predict_seconds: np.ndarray
    fit_info: list  # per split: the fitted model's fit_info() (None if it has none)

    def arrays(self) -> dict:
        """Deterministic arrays only (timings are stored separately)."""
        return {"proba": self.proba, "split": self.split, "row": self.row}


def _seeded(learner, seed_seq: np.random.SeedSequence):
    if "random_state" in learner.get_params(deep=False):
        learner.set_params(random_state=int(seed_seq.generate_state(1)[0]))
    return learner


_controller: tuple = (-1, None)  # (len(sys.modules) when made, a threadpoolctl.ThreadpoolController)


def _single_threaded():
    """One thread for every BLAS/OpenMP library loaded so far. Finding the loaded libraries costs about a
    millisecond (more with many loaded), against ~10 µs to limit them: the controller is kept while no module was
    imported since (a library is loaded with the extension module that uses it), as a split of a warm cell finds."""
    global _controller
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # then only the environment (OPENBLAS_NUM_THREADS=1 in stages/train.py) limits it
        return contextlib.nullcontext()
    if _controller[0] != len(sys.modules):
        controller = ThreadpoolController()
        _controller = (len(sys.modules), controller)
    return _controller[1].limit(limits=1)


def with_ordinal(learner, numeric: np.ndarray):
    """A clone of the learner whose ``ordinal`` parameters name the numeric columns (a boolean mask)."""
    mask = [bool(v) for v in numeric]
    return clone(learner).set_params(**dict.fromkeys(ordinal_params(learner), mask))


def fit_split(model, data: SplitData, s: int):
    """:func:`fit_predict` of split ``s`` of ``data``, cut out where it runs: a pool ships a data set's inputs
    once per cell (joblib memory-maps its large arrays and Dask scatters the whole, once per call) and each task
    only names its split."""
    return fit_predict(model, *data.task(s))


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
    """NBX_JOBS worker processes; unset, empty or 0: one per core."""
    text = os.environ.get("NBX_JOBS", "").strip()
    if text and not (text.isascii() and text.isdigit()):  # int() would also take '-2', '+2', '2_0'
        raise SettingError(
            f"NBX_JOBS={text!r} is not a number of worker processes (a positive integer, 0: one per core)"
        )
    return int(text or 0) or os.cpu_count() or 1


def backend() -> str:
    name = os.environ.get("NBX_BACKEND", "loky")
    if name not in BACKENDS:
        raise TrainError(f"NBX_BACKEND={name!r} is not one of {BACKENDS}")
    return name


@contextlib.contextmanager
def _ctrl_c_held():
    """Hold a Ctrl-C until the block ends, then raise it (in place of whatever the block raised: a worker still
    starting gets the same Ctrl-C, and the pool then reports it gone). joblib's pool start registers a temporary
    folder with loky's resource tracker and only then its removal at exit; a KeyboardInterrupt between the two
    leaves the folder registered, and the tracker prints a leaked-folder warning under the one ``interrupted``
    line. Only in the main thread with Python's own SIGINT handler: a handler can be set nowhere else, and another
    one is the caller's."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    held = []
    signal.signal(signal.SIGINT, lambda *_: held.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if held:
            raise KeyboardInterrupt


@contextlib.contextmanager
def _aborted_pool_quiet():
    """Keep an aborted pool's teardown off stderr. After an error or Ctrl-C, joblib shuts loky's pool down with
    ``kill_workers=True``; loky's manager thread can then look up a task that shutdown has just dropped and die
    of a ``KeyError`` (a race in loky). Its traceback would follow the one ``interrupted`` or ``error`` line. Only
    a thread of a pool shut down that way is silenced, and only while the pool runs; other threads print as
    before."""
    previous = threading.excepthook

    def hook(args):
        flags = getattr(args.thread, "executor_flags", None)
        if not (getattr(flags, "shutdown", False) and getattr(flags, "kill_workers", False)):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


@contextlib.contextmanager
def _parallel_backend(name: str, shared: list | None = None):
    """joblib's parallel_config for the chosen backend (connecting to the cluster for dask/ray). ``shared``: the
    objects every task may read (a cell's data sets), which Dask receives on every worker before the first task:
    otherwise joblib scatters each to one worker, and Dask, keeping short tasks beside their data, runs a data
    set's splits one after another on that worker while the others idle."""
    import joblib

    if name == "dask":
        client = _start_pool(name).result()  # the one start, maybe under way in the background
        with joblib.parallel_config(backend="dask", client=client, scatter=shared or None):
            yield
    elif name == "ray":
        from ray.util.joblib import register_ray

        register_ray()
        with joblib.parallel_config(backend="ray"):
            yield
    else:
        with joblib.parallel_config(backend="loky", inner_max_num_threads=1, initializer=_ctrl_c_ignored):
            yield


def _ctrl_c_ignored():
    """A loky worker's start: ignore Ctrl-C. It reaches the whole process group, and the main process stops the
    pool itself (joblib kills the workers when it aborts); a worker's own KeyboardInterrupt between two tasks
    would print its traceback under the one ``interrupted`` line."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dask_client(address: str | None):
    """A Dask client for the scheduler at ``address`` (None: a LocalCluster of one single-threaded worker process
    per job, which inherit this process's kernel pin), closed at exit."""
    from dask.distributed import Client

    client = Client(address, set_as_default=False) if address else Client(local_cluster(default_jobs()))
    atexit.register(client.close)  # with a LocalCluster it made, the client closes the cluster too
    return client


_warm: set[str] = set()  # backends whose workers this process has used: a later cell sends them its first split
# scheduler address (None: a LocalCluster) -> the Future of this process's one client there. One per process
# because every run_splits call (one per data set in nbx.protocol.crossval.cross_validate and
# benchmarks/run_cell.py) would otherwise start and close a LocalCluster, about 2 s on two cores, and its fresh
# workers would import nbx and load numba's kernels again before their first split.
_dask_starts: dict = {}


def _start_pool(name: str):
    """Start the backend's workers without waiting: a Future that is done once they are up, or None where a
    start is too quick to overlap (loky's pool, about 0.3 s; Ray's). Dask's LocalCluster takes 2-3 s in a fresh
    process, which :func:`run_datasets` spends running splits itself; a failed start raises again, in this
    thread, when the pool is used."""
    if name != "dask":
        return None
    address = os.environ.get("NBX_DASK_SCHEDULER")
    if address not in _dask_starts:
        from concurrent.futures import ThreadPoolExecutor

        starter = ThreadPoolExecutor(1, thread_name_prefix="nbx-dask-start")
        _dask_starts[address] = starter.submit(_dask_client, address)
        starter.shutdown(wait=False)
    return _dask_starts[address]


# Dask settings of the workers the runner starts (README, "Bigger runs", gives them as environment variables for
# a cluster started by hand). The nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which fixes glibc's
# allocator thresholds and returns freed memory to the system at once: a split of benchmark nbtree on satimage took
# 2.2 s in such a worker against 0.9 s in a plain process. Each process's event loop also wakes every 20 ms to
# time itself, a system monitor every 0.5 s and a worker's profiler every 10 ms, each taking the interpreter's lock
# from the split running beside it: a cell's fits took 4-6 % longer than in the local pool's workers
# (benchmarks/README.md).
DASK_WORKER_CONFIG = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.profile.enabled": False,
}


def local_cluster(n_workers: int, **kwargs):
    """A Dask LocalCluster of ``n_workers`` single-threaded worker processes with :data:`DASK_WORKER_CONFIG`:
    glibc's own memory allocator and quieter event loops."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(DASK_WORKER_CONFIG):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None, **kwargs)


def _run(fn, task: tuple, experiment: str, dataset: str, split: int):
    try:
        return fn(*task)
    except Exception as exc:  # re-raised as one line naming the data set and split
        cause = f"{type(exc).__name__}: {exc}"
        raise TrainError(f"{experiment}/{dataset} split {split}: {cause}", dataset, split, cause) from exc


def parallel_map(fn, args: list[tuple]) -> list:
    """[fn(*a) for a in args] over the default workers and backend (for independent jobs of a few seconds)."""
    import joblib

    with _parallel_backend(backend()):
        return joblib.Parallel(n_jobs=min(default_jobs(), len(args)))(joblib.delayed(fn)(*a) for a in args)


def run_splits(
    learner,
    data: SplitData,
    seed: int,
    names: tuple[str, ...],
    n_jobs: int | None = None,
    on_split=None,
    all_classes: bool = False,
    numeric_ordinal: bool = False,
) -> SplitPredictions:
    """Fit/predict ``learner`` on each split of one data set: :func:`run_datasets` with ``names`` =
    (experiment, data set, seed name)."""
    experiment, dataset, seed_name = names
    return next(
        run_datasets(
            learner, {dataset: data}, seed, experiment, seed_name, n_jobs, on_split, all_classes, numeric_ordinal
        )
    )[1]


def run_datasets(
    learner,
    data: dict[str, SplitData],
    seed: int,
    experiment: str,
    seed_name: str,
    n_jobs: int | None = None,
    on_split=None,
    all_classes: bool = False,
    numeric_ordinal: bool = False,
    done: dict[str, dict[int, tuple]] | None = None,
    on_result=None,
):
    """Fit/predict ``learner`` on every split of every data set in ``data``; yields (data set,
    :class:`SplitPredictions`) as soon as the data set's last split is back (so a stage writes what is done while
    the rest runs: the pool's order, largest data sets first, not ``data``'s). Split s of data set
    D is seeded by (seed, experiment, D, seed_name, s); ``on_split(D)`` is called as each split finishes
    (progress). ``all_classes``: fit with ``classes`` = every class index of the data set (the learner needs
    that parameter). ``numeric_ordinal``: fit with ``ordinal`` = the data set's ``numeric`` columns
    (:func:`with_ordinal`). ``done[D][s]``: what split s of D returned in an earlier run (not fitted again);
    ``on_result(D, s, output)`` is called with each split fitted now (checkpoints)."""

    def prepared(d: SplitData):
        base = clone(learner).set_params(classes=list(range(d.n_classes))) if all_classes else learner
        return with_ordinal(base, d.numeric) if numeric_ordinal else base

    bases = {ds: prepared(d) for ds, d in data.items()}
    # the smallest data sets' splits first, which this process runs while it judges whether a pool pays; the pool
    # takes the rest largest first, so the cell does not end on one worker running a large data set's last splits
    by_size = sorted(data, key=lambda ds: math.prod(data[ds].size))
    done = done or {}
    tasks = [(ds, s) for ds in by_size for s in range(len(data[ds].test)) if s not in done.get(ds, {})]

    def task(i):
        ds, s = tasks[i]
        model = _seeded(clone(bases[ds]), dataset_seed(seed, experiment, ds, seed_name, str(s)))
        return (fit_split, (model, data[ds], s), experiment, ds, s)

    results: dict[str, list] = {ds: [done.get(ds, {}).get(s) for s in range(len(d.test))] for ds, d in data.items()}
    left = {ds: results[ds].count(None) for ds in data}
    for ds in by_size:
        if not left[ds]:  # every split done earlier
            yield ds, _assemble(data[ds], results.pop(ds))

    def collect(i, out):
        ds, s = tasks[i]
        if on_result:
            on_result(ds, s, out)
        results[ds][s] = out
        left[ds] -= 1
        if on_split:
            on_split(ds)
        if not left[ds]:
            yield ds, _assemble(data[ds], results.pop(ds))

    t0, i = time.perf_counter(), 0
    n_jobs, name = n_jobs or default_jobs(), backend()
    while i < len(tasks):  # serially while the work left looks smaller than a pool's start-up, or the pool starts
        if n_jobs > 1 and len(tasks) - i > 1:
            seconds_left = (time.perf_counter() - t0) / max(i, 1) * (len(tasks) - i)
            if name in _warm or (i and seconds_left > POOL_MIN_SECONDS):
                starting = _start_pool(name)
                if starting is None or starting.done():
                    break
        yield from collect(i, _run(*task(i)))
        i += 1
    if i < len(tasks):
        import joblib

        largest_first = range(len(tasks) - 1, i - 1, -1)
        remaining = dict.fromkeys(tasks[j][0] for j in largest_first)  # the data sets still to run
        _warm.add(name)
        with _parallel_backend(name, shared=[data[ds] for ds in remaining]), _aborted_pool_quiet():
            outputs = None
            try:
                with _ctrl_c_held():
                    outputs = joblib.Parallel(n_jobs=min(n_jobs, len(tasks) - i), return_as="generator")(
                        joblib.delayed(_run)(*task(j)) for j in largest_first
                    )
                for j, out in zip(largest_first, outputs):
                    yield from collect(j, out)
            finally:  # after an error or Ctrl-C, joblib warns that it dropped the tasks left: noise under the one line
                if outputs is not None:
                    with warnings.catch_warnings():
                        warnings.filterwarnings("ignore", ".*You could benefit from adjusting the input task iterator")
                        outputs.close()


def _assemble(data: SplitData, results: list) -> SplitPredictions:
    """One data set's split outputs (in split order) as :class:`SplitPredictions` over all its classes."""
    probas, splits, rows = [], [], []
    for s, (part, classes, *_) in enumerate(results):
        test_idx = np.flatnonzero(data.test[s])
        full = np.zeros((len(test_idx), data.n_classes), dtype=np.float32)
        full[:, classes] = part
        probas.append(full)
        splits.append(np.full(len(test_idx), s, dtype=np.int32))
        rows.append(test_idx.astype(np.int32))
    return SplitPredictions(
        np.concatenate(probas),
        np.concatenate(splits),
        np.concatenate(rows),
        np.array([r[2] for r in results]),
        np.array([r[3] for r in results]),
        [r[4] for r in results],
    )
