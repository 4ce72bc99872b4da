"""Train cells on one process, on joblib's local process pool and on a Dask cluster: wall seconds and byte
identity with the committed predictions (the runner's promise: the same bytes for any worker count and backend).

    python benchmarks/cluster.py [--cells benchmark/c45,benchmark/blnbt3] [--workers 2]
        [--reference data/predictions] [--scheduler tcp://host:8786] [--baseline-src OLD/src] [--repeats 1]

Run it in a clone that holds the pipeline's data (after `dvc repro`). Each cell runs three times, each in a fresh
`benchmarks/run_cell.py` process (start-up included, as a stage pays it): one process (`--jobs 1`), the local pool
(`NBX_BACKEND=loky`, `--jobs N`) and Dask (`NBX_BACKEND=dask`, a LocalCluster of N single-threaded worker
processes started by the cell, or the cluster at `--scheduler`). The speed-up is one process's wall seconds over
Dask's; on a LocalCluster it includes the cluster's start-up, which a long-lived real cluster does not pay.
``--baseline-src`` also runs the Dask way with another checkout's ``src`` (before and after in one run);
``--repeats`` runs every way that many times, interleaved, one row per repeat (the spread on a busy machine).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

RUN_CELL = Path(__file__).with_name("run_cell.py")


def timed(experiment: str, learner: str, jobs: int, env: dict, reference: str) -> tuple[float, bool]:
    """Wall seconds of one run_cell.py process and whether every data set's predictions were identical."""
    cmd = [sys.executable, str(RUN_CELL), experiment, learner, "--jobs", str(jobs), "--reference", reference]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=os.environ | env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{experiment}/{learner}: run_cell.py failed: {done.stderr.strip().splitlines()[-1]}")
    return wall, done.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", default="benchmark/c45,benchmark/blnbt3", help="EXPERIMENT/LEARNER, comma-separated")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reference", default="data/predictions")
    ap.add_argument("--scheduler", help="a running Dask scheduler (default: a LocalCluster per cell)")
    ap.add_argument("--baseline-src", help="also run the Dask way with this src folder (e.g. an older checkout's)")
    ap.add_argument("--repeats", type=int, default=1)
    a = ap.parse_args()
    dask = {"NBX_BACKEND": "dask"} | ({"NBX_DASK_SCHEDULER": a.scheduler} if a.scheduler else {})
    runs = {
        "1 process": (1, {"NBX_BACKEND": "loky"}),
        f"loky x{a.workers}": (a.workers, {"NBX_BACKEND": "loky"}),
        f"dask x{a.workers}": (a.workers, dask),
    }
    if a.baseline_src:
        runs["dask baseline"] = (a.workers, dask | {"PYTHONPATH": str(Path(a.baseline_src).resolve())})
    dask_name = f"dask x{a.workers}"
    print(f"{'cell':24s}" + "".join(f"{name:>14s}" for name in runs) + f"{'speed-up':>10s}  same bytes", flush=True)
    for cell in a.cells.split(","):
        experiment, learner = cell.split("/")
        for _ in range(a.repeats):
            results = {name: timed(experiment, learner, jobs, env, a.reference) for name, (jobs, env) in runs.items()}
            walls = [w for w, _ in results.values()]
            same = (
                "yes"
                if all(ok for _, ok in results.values())
                else "NO: " + ", ".join(n for n, (_, ok) in results.items() if not ok)
            )
            speed_up = walls[0] / results[dask_name][0]
            print(f"{cell:24s}" + "".join(f"{w:12.1f} s" for w in walls) + f"{speed_up:9.2f}x  {same}", flush=True)


if __name__ == "__main__":
    main()
