"""What a pool costs per task and how a larger cluster spreads a train cell: the numbers behind "the smallest cell
worth sending" (benchmarks/README.md, target 8).

    python benchmarks/cluster_trace.py [--cell benchmark/blnbt0] [--workers 8] [--pool 2] [--tasks 400]
        [--results benchmarks/results/cluster_trace.json] [--plots DIR]

Run it in a clone that holds the pipeline's data (after `dvc repro`). Two parts:

* Overhead, on the local pool (loky) and on a Dask LocalCluster, each of ``--pool`` single-threaded workers: the
  start-up (a fresh pool's first split of ``--cell``'s learner per worker back, less that split's seconds in a warm
  process: the workers' imports and kernel loads) and the cost per task (``--tasks`` tasks that only cut their
  split out of a shipped data set, through the runner's backend, after the start-up), with the smallest cell worth
  sending that follows from them.
* Trace: a LocalCluster of ``--workers`` worker processes, each pinned to one of this machine's cores in turn
  (``os.sched_setaffinity``: on two cores, 8 workers share them four by four, a small cluster in miniature) runs
  ``--cell`` through ``benchmarks/run_cell.py`` (``NBX_BACKEND=dask``, ``NBX_DASK_SCHEDULER`` = that cluster);
  the scheduler's task stream gives each task's worker and start and stop, printed per worker (tasks, busy
  seconds) and drawn as ``<stem>_trace.png``, one row per worker.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from pathlib import Path

from cluster import timed
from plots import DEFAULT_DIR, Results

from nbx.core.base import clone
from nbx.core.errors import NbxError
from nbx.pipeline import config, learners
from nbx.pipeline.inputs import available, load_table
from nbx.pipeline.train import split_data
from nbx.protocol import runner


def cut_split(data, s: int) -> int:
    """A task that does what every task of a cell does before fitting: cut its split out of the shipped data."""
    return len(data.task(s)[1])


def overhead(backend: str, first: tuple, data, pool: int, tasks: int) -> dict:
    """On ``backend`` (loky or dask), a fresh pool of ``pool`` workers: its start-up, the seconds until it has
    returned one ``first`` = (model, data, seconds of one split in a warm process) split per worker, less those
    seconds (the workers' imports and numba's kernel loads included, and a LocalCluster's own start); then the
    seconds per task of ``tasks`` tasks that only cut their split out of the shipped ``data``."""
    import joblib

    os.environ["NBX_BACKEND"] = backend
    os.environ.pop("NBX_DASK_SCHEDULER", None)
    _forget_dask()
    model, cell_data, warm = first
    splits = len(data.test)
    t0 = time.perf_counter()
    with runner._parallel_backend(backend):
        joblib.Parallel(n_jobs=pool)(
            joblib.delayed(runner.fit_split)(clone(model), cell_data, s % len(cell_data.test)) for s in range(pool)
        )
        start = time.perf_counter() - t0 - warm
        t0 = time.perf_counter()
        joblib.Parallel(n_jobs=pool)(joblib.delayed(cut_split)(data, s % splits) for s in range(tasks))
        per_task = (time.perf_counter() - t0) / tasks
    if backend == "loky":
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True)
    else:
        runner._start_pool("dask").result().close()
        _forget_dask()
    return {"backend": backend, "workers": pool, "start_seconds": start, "seconds_per_task": per_task}


def _forget_dask() -> None:
    """Drop the runner's Dask start of this process (and with it the client it made), so that the next pool is a
    fresh LocalCluster whose start-up is measured."""
    runner._dask_starts.clear()


def warm_split(model, data) -> float:
    """Seconds of one split of ``model`` on ``data`` in this process once its kernels are loaded."""
    runner.fit_split(clone(model), data, 0)
    t0 = time.perf_counter()
    runner.fit_split(clone(model), data, 0)
    return time.perf_counter() - t0


def pinned_cluster(workers: int):
    """The runner's LocalCluster of ``workers`` single-threaded worker processes, worker i pinned to core i mod
    cores."""
    from dask.distributed import Client

    cluster = runner.local_cluster(workers)
    client = Client(cluster)
    cores = sorted(os.sched_getaffinity(0))
    for i, address in enumerate(sorted(client.scheduler_info()["workers"])):
        client.run(functools.partial(os.sched_setaffinity, 0, {cores[i % len(cores)]}), workers=[address])
    return cluster, client


def trace(cell: str, workers: int) -> dict:
    """Run ``cell`` on a pinned LocalCluster of ``workers`` and read the scheduler's task stream."""
    experiment, learner = cell.split("/")
    cluster, client = pinned_cluster(workers)
    pins = client.run(lambda: sorted(os.sched_getaffinity(0)))
    client.get_task_stream()  # installs the scheduler's task-stream plugin before the cell's tasks arrive
    env = {"NBX_BACKEND": "dask", "NBX_DASK_SCHEDULER": cluster.scheduler_address}
    t0 = time.time()  # the task stream's clock
    wall = timed(experiment, learner, workers, env, None)[0]
    stream = client.get_task_stream(start=t0)
    client.close()
    cluster.close()
    tasks = []
    for record in stream:
        compute = [s for s in record["startstops"] if s["action"] == "compute"]
        if compute:
            tasks.append(
                {"worker": record["worker"], "start": compute[0]["start"] - t0, "stop": compute[-1]["stop"] - t0}
            )
    names = sorted(pins)
    per_worker = [
        {
            "worker": w,
            "core": pins[w],
            "tasks": sum(t["worker"] == w for t in tasks),
            "busy": sum(t["stop"] - t["start"] for t in tasks if t["worker"] == w),
        }
        for w in names
    ]
    return {"cell": cell, "workers": workers, "wall": wall, "tasks": tasks, "per_worker": per_worker}


def draw_trace(result: dict, path: Path) -> None:
    """One row per worker, one bar per task (its compute span), seconds from the cell's start."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [w["worker"] for w in result["per_worker"]]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(names) + 1.4))
    for row, name in enumerate(names):
        spans = [(t["start"], t["stop"] - t["start"]) for t in result["tasks"] if t["worker"] == name]
        ax.broken_barh(spans, (row - 0.35, 0.7), facecolor=f"C{row % 10}", edgecolor="white", linewidth=0.6)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(
        [f"worker {i} (core {w['core'][0]}): {w['tasks']} tasks" for i, w in enumerate(result["per_worker"])]
    )
    ax.invert_yaxis()
    ax.set_xlabel("seconds since the cell started (its process start-up and serial first splits included)")
    ax.set_title(
        f"{result['cell']} on a LocalCluster of {result['workers']} pinned workers: {result['wall']:.1f} s wall"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", default="benchmark/blnbt0", help="EXPERIMENT/LEARNER traced on the larger cluster")
    ap.add_argument("--workers", type=int, default=8, help="workers of the traced cluster")
    ap.add_argument("--pool", type=int, default=2, help="workers of the pools whose overhead is measured")
    ap.add_argument("--tasks", type=int, default=400, help="tasks timed per pool")
    ap.add_argument("--overhead-dataset", default="letter", help="the benchmark data set the overhead tasks ship")
    ap.add_argument("--startup-dataset", help="the data set of --cell's first split on a fresh pool (its smallest)")
    ap.add_argument("--skip-trace", action="store_true")
    ap.add_argument("--results", type=Path, default=DEFAULT_DIR / "cluster_trace.json")
    ap.add_argument("--plots", type=Path, help="folder of the trace figure (default: the results file's)")
    a = ap.parse_args()
    if a.cell.count("/") != 1 or "" in a.cell.split("/"):
        ap.error(f"--cell must be EXPERIMENT/LEARNER, got {a.cell!r}")
    try:
        measure(a)
    except NbxError as err:  # an unknown experiment, learner or data set, a data set's missing inputs: one line
        ap.error(str(err))


def measure(a: argparse.Namespace) -> None:
    """The pools' overhead and, unless ``--skip-trace``, the traced cell, printed and written to ``--results``."""
    results = Results(a.results, "cluster_trace.py", sys.argv[1:])
    params = config.load_params()
    exp = config.experiment(params, "benchmark")
    setup = learners.build_learner(params, "nb_laplace")  # only its input kind matters: the tasks fit nothing
    if a.overhead_dataset not in available("benchmark"):
        raise NbxError(f"--overhead-dataset: {a.overhead_dataset} is not a prepared data set of the benchmark")
    data = split_data(exp, a.overhead_dataset, setup.input)
    cell_exp, cell_learner = a.cell.split("/")
    cell_config = config.experiment(params, cell_exp)  # an unknown name fails here, before any data is read
    cell = learners.build_learner(params, cell_learner)
    smallest = a.startup_dataset or min(available(cell_exp), key=lambda ds: len(load_table(cell_exp, ds).y))
    small = split_data(cell_config, smallest, cell.input, cell.numeric_ordinal)
    first = (cell.estimator, small, warm_split(cell.estimator, small))
    rows = [overhead(b, first, data, a.pool, a.tasks) for b in ("loky", "dask")]
    print(f"per task, shipping {a.overhead_dataset} ({data.size[0]} rows x {data.size[1]}, {len(data.test)} splits):")
    for r in rows:
        # worth a pool of W workers when T / W + start + tasks x per_task / W < T, i.e. T > W (start + ...) / (W - 1)
        w = r["workers"]
        r["worth_seconds_100_tasks"] = w * (r["start_seconds"] + 100 * r["seconds_per_task"] / w) / (w - 1)
        print(
            f"  {r['backend']:5s} x{w}: start-up {r['start_seconds']:.2f} s, {1000 * r['seconds_per_task']:.2f} ms a "
            f"task; a cell of 100 splits pays from {r['worth_seconds_100_tasks']:.1f} s of serial work"
        )
    part = {"title": "pool start-up and cost per task", "runs": rows, "settings": vars(a) | {"cores": os.cpu_count()}}
    part["settings"] = {k: str(v) for k, v in part["settings"].items()}
    results.add("overhead", part)
    if not a.skip_trace:
        result = trace(a.cell, a.workers)
        print(f"\n{a.cell} on {a.workers} pinned workers: {result['wall']:.1f} s wall, {len(result['tasks'])} tasks")
        for i, w in enumerate(result["per_worker"]):
            print(f"  worker {i} (core {w['core'][0]}): {w['tasks']:4d} tasks, busy {w['busy']:6.1f} s")
        results.add("trace", {"title": f"{a.cell} on {a.workers} pinned workers", **result})
        out = (a.plots or a.results.parent) / f"{a.results.stem}_trace.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        draw_trace(result, out)
        print(f"figure: {out}")
    print(f"results: {results.path}")


if __name__ == "__main__":
    main()
