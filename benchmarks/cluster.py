"""Train cells on one process, on joblib's local process pool and on a Dask cluster: wall seconds and byte
identity with the committed predictions (the runner's promise: the same bytes for any worker count and backend).

    python benchmarks/cluster.py [--cells benchmark/c45,benchmark/blnbt3] [--workers 2]
        [--reference data/predictions] [--scheduler tcp://host:8786] [--baseline-src OLD/src] [--repeats 1]
        [--results benchmarks/results/cluster.json] [--plots DIR]

Run it in a clone that holds the pipeline's data (after `dvc repro`). Each cell runs three times, each in a fresh
`benchmarks/run_cell.py` process (start-up included, as a stage pays it): one process (`--jobs 1`), the local pool
(`NBX_BACKEND=loky`, `--jobs N`) and Dask (`NBX_BACKEND=dask`, a LocalCluster of N single-threaded worker
processes started by the cell, or the cluster at `--scheduler`). The speed-up is one process's wall seconds over
Dask's; on a LocalCluster it includes the cluster's start-up, which a long-lived real cluster does not pay.
``--baseline-src`` also runs the Dask way with another checkout's ``src`` (before and after in one run);
``--repeats`` runs every way that many times, interleaved, one row per repeat (the spread on a busy machine).
``--ceiling`` also runs N one-process copies of the cell side by side (N = ``--workers``) and prints the machine's
ceiling N x one process / side by side: what a pool of N could reach on this machine if it cost nothing (shared
caches, memory bandwidth and a virtual machine's neighbours slow each copy; on an idle machine with N free cores it
is N).

Every row printed goes to ``--results`` (default benchmarks/results/cluster.json, untracked) with target 8 of
benchmarks/README.md per row: the local pool's and Dask's speed-ups beside the limit (>= 1.7) and how many ways
wrote the reference's bytes beside how many ran; drawn as cluster_targets.png (``--plots``, default the results
file's folder; benchmarks/plots.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plots import DEFAULT_DIR, Results, check, draw

RUN_CELL = Path(__file__).with_name("run_cell.py")
DIFFERENT = 3  # run_cell.py's exit status when a prediction differs from the reference (its DIFFERENT)


def timed(
    experiment: str, learner: str, jobs: int, env: dict, reference: str | None, copies: int = 1
) -> tuple[float, bool]:
    """Wall seconds of ``copies`` run_cell.py processes started together (until the last one ends) and whether
    every one wrote each data set's predictions identical to the reference (None: nothing compared, True)."""
    cmd = [sys.executable, str(RUN_CELL), experiment, learner, "--jobs", str(jobs)]
    cmd += ["--reference", reference] if reference else []
    with contextlib.ExitStack() as stack:  # stderr to files, not pipes: a full pipe would stall a copy
        errors = [stack.enter_context(tempfile.TemporaryFile("w+")) for _ in range(copies)]
        t0 = time.perf_counter()
        procs = [subprocess.Popen(cmd, env=os.environ | env, stdout=subprocess.DEVNULL, stderr=err) for err in errors]
        for proc in procs:
            proc.wait()
        wall = time.perf_counter() - t0
        for proc, err in zip(procs, errors):
            if proc.returncode not in (0, DIFFERENT):
                err.seek(0)
                last = (err.read().strip().splitlines() or ["no error output"])[-1]
                raise SystemExit(f"{experiment}/{learner}: run_cell.py failed: {last}")
    return wall, all(proc.returncode == 0 for proc in procs)


SPEED_UP = 1.7  # target 8: a pool of two workers against one process, on a hot cell


def row_checks(label: str, walls: dict[str, float], same: dict[str, bool]) -> list[dict]:
    """Target 8 on one row: the local pool's and Dask's speed-ups over one process (>= 1.7) and every way's bytes
    identical."""
    one = walls["1 process"]
    return [
        *(
            check(f"{label}, {name}", "speed-up over one process, wall seconds", one / wall, SPEED_UP, op=">=")
            for name, wall in walls.items()
            if name.startswith(("loky", "dask x"))
        ),
        check(label, "ways that wrote the reference's bytes", sum(same.values()), len(same), op=">="),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", default="benchmark/c45,benchmark/blnbt3", help="EXPERIMENT/LEARNER, comma-separated")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reference", default="data/predictions")
    ap.add_argument("--scheduler", help="a running Dask scheduler (default: a LocalCluster per cell)")
    ap.add_argument("--baseline-src", help="also run the Dask way with this src folder (e.g. an older checkout's)")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--ceiling", action="store_true", help="also run --workers one-process copies side by side")
    ap.add_argument(
        "--results", type=Path, default=DEFAULT_DIR / "cluster.json", help="JSON file of every measurement printed"
    )
    ap.add_argument("--plots", type=Path, help="folder of the targets figure (default: the results file's)")
    a = ap.parse_args()
    dask = {"NBX_BACKEND": "dask"} | ({"NBX_DASK_SCHEDULER": a.scheduler} if a.scheduler else {})
    runs = {  # name: (jobs, environment, copies side by side)
        "1 process": (1, {"NBX_BACKEND": "loky"}, 1),
        f"loky x{a.workers}": (a.workers, {"NBX_BACKEND": "loky"}, 1),
        f"dask x{a.workers}": (a.workers, dask, 1),
    }
    if a.baseline_src:
        runs["dask baseline"] = (a.workers, dask | {"PYTHONPATH": str(Path(a.baseline_src).resolve())}, 1)
    side_by_side = f"1 process x{a.workers} at once"
    if a.ceiling:
        runs[side_by_side] = (1, {"NBX_BACKEND": "loky"}, a.workers)
    dask_name = f"dask x{a.workers}"
    results = Results(a.results, "cluster.py", sys.argv[1:])
    part = {
        "title": f"train cells on one process, loky and Dask x{a.workers}: wall seconds, {os.cpu_count()} cores",
        "runs": [],
        "checks": [],
        "settings": {
            **{k: getattr(a, k) for k in ("workers", "reference", "scheduler", "baseline_src", "repeats", "ceiling")},
            "load_average_before": os.getloadavg()[0],  # the target wants otherwise idle cores
        },
    }
    width = max(14, *(len(name) + 2 for name in runs))
    print(
        f"{'cell':24s}"
        + "".join(f"{name:>{width}s}" for name in runs)
        + f"{'speed-up':>10s}"
        + (f"{'ceiling':>10s}" if a.ceiling else "")
        + "  same bytes",
        flush=True,
    )
    for cell in a.cells.split(","):
        experiment, learner = cell.split("/")
        for repeat in range(1, a.repeats + 1):
            timings = {
                name: timed(experiment, learner, jobs, env, a.reference, copies)
                for name, (jobs, env, copies) in runs.items()
            }
            walls = {name: w for name, (w, _) in timings.items()}
            same = {name: ok for name, (_, ok) in timings.items()}
            speed_up = walls["1 process"] / walls[dask_name]
            row = {"cell": cell, "repeat": repeat, "wall": walls, "same": same, "speed_up": speed_up}
            if a.ceiling:  # N copies' work in the wall time of the side-by-side run
                row["ceiling"] = a.workers * walls["1 process"] / walls[side_by_side]
            verdict = "yes" if all(same.values()) else "NO: " + ", ".join(n for n, ok in same.items() if not ok)
            print(
                f"{cell:24s}"
                + "".join(f"{w:{width - 2}.1f} s" for w in walls.values())
                + f"{speed_up:9.2f}x"
                + (f"{row['ceiling']:9.2f}x" if a.ceiling else "")
                + f"  {verdict}",
                flush=True,
            )
            part["runs"].append(row)
            part["checks"] += row_checks(cell + (f", repeat {repeat}" if a.repeats > 1 else ""), walls, same)
            results.add("cluster", part)
    print(f"results: {results.path}")
    for path in draw(results.path, a.plots):
        print(f"figure: {path}")


if __name__ == "__main__":
    main()
