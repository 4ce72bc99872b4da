"""Weka's quasi-Newton optimizer (``optimizer="weka_bfgs"``, Kang & Tian 2006's Weka-stopped LR and HBayes' P(C | S1))
before and after a change, side by side in one run: the CPU seconds of fitting kang2006's learners on the first
split of a few data sets, each ``--src`` in a fresh process per repeat.

    python benchmarks/weka_bfgs.py --src OLD/src src [--datasets vehicle,soybean-large,waveform,segment2310]
        [--learners hbayes_nb_wekaopt,lr_kang_weka] [--repeats 3] [--results benchmarks/results/weka_bfgs.json]

Reads the pipeline's data/ (``dvc repro discretize`` first) and params.yaml's learner blocks of ``kang2006`` from
this checkout; each ``--src`` (a folder holding ``nbx``, e.g. a ``git worktree`` of an older commit's ``src``) is
the nbx the child imports. A child builds the learner, fits it once on a 30-row toy problem (numba's cached loops
loaded, not timed), then runs the first split of the data set as the train stage does (``run_splits``, one BLAS
thread) and prints the split's fit seconds (the runner's clock) and the process CPU seconds of that split. The
best of ``--repeats`` fresh processes is printed, with the 1-minute load average read before the data set's runs
(two cores shared with other work: CPU seconds are the closer estimate of a quiet run). Writes nothing tracked:
every number goes to ``--results`` (default benchmarks/results/weka_bfgs.json, untracked).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from plots import DEFAULT_DIR, Results

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import dataclasses, json, sys, time
from nbx.pipeline.kernels import pin
pin()
import numpy as np
from sklearn.base import clone
from nbx.pipeline import config, learners
from nbx.pipeline.train import split_data
from nbx.protocol.runner import run_splits
experiment, learner, ds = sys.argv[1:4]
params = config.load_params()
exp = config.experiment(params, experiment)
setup = learners.build_learner(params, learner)
rng = np.random.default_rng(0)  # warm-up: numba's cached loops loaded before the clock
clone(setup.estimator).fit(rng.integers(0, 3, (30, 4)), rng.integers(0, 3, 30))
data = split_data(exp, ds, setup.input, setup.numeric_ordinal)
discrete = data.codes is not None
data = dataclasses.replace(data, test=data.test[:1], codes=data.codes[:1] if discrete else None,
                           n_values=data.n_values[:1] if discrete else data.n_values)
cpu0 = time.process_time()
out = run_splits(setup.estimator, data, params["seed"], (experiment, ds, setup.seed_name), n_jobs=1,
                 all_classes=setup.all_classes, numeric_ordinal=setup.numeric_ordinal)
print(json.dumps({"fit": float(out.fit_seconds.sum()), "cpu": time.process_time() - cpu0}))
"""


def run(src: str, experiment: str, learner: str, ds: str) -> dict:
    """One fresh process: the first split's fit seconds and the process CPU seconds of the split."""
    env = dict(os.environ, PYTHONPATH=src, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, experiment, learner, ds], env=env, capture_output=True, text=True, cwd=REPO
    )
    if done.returncode:
        raise SystemExit(f"{learner} on {ds} with {src} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", nargs="+", default=[str(REPO / "src")], help="nbx source folders to compare")
    ap.add_argument("--experiment", default="kang2006")
    ap.add_argument("--learners", default="hbayes_nb_wekaopt,lr_kang_weka")
    ap.add_argument("--datasets", default="vehicle,soybean-large,waveform,segment2310")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--results", type=Path, default=DEFAULT_DIR / "weka_bfgs.json", help="JSON file of every number")
    args = ap.parse_args()
    results = Results(args.results, "weka_bfgs.py", sys.argv[1:])
    print(f"first split, best of {args.repeats} fresh processes (CPU s); load: 1-minute load average before the runs")
    print("speed-up: the first --src's CPU seconds over this one's")
    print(f"{'learner':20} {'data set':14} {'src':28} {'fit s':>7} {'cpu s':>7} {'load':>5} {'speed-up':>8}")
    for learner in args.learners.split(","):
        part = {"title": f"{args.experiment} {learner}, first split", "runs": []}
        for ds in args.datasets.split(","):
            first = None
            for src in args.src:
                load = os.getloadavg()[0]
                r = min((run(src, args.experiment, learner, ds) for _ in range(args.repeats)), key=lambda r: r["cpu"])
                first = first or r
                part["runs"].append({"learner": learner, "dataset": ds, "src": src, "load": load, **r})
                print(
                    f"{learner:20} {ds:14} {src[-28:]:28} {r['fit']:7.2f} {r['cpu']:7.2f} {load:5.2f} "
                    f"{first['cpu'] / r['cpu']:8.2f}",
                    flush=True,
                )
            results.add(learner, part)
    print(f"results: {results.path}")


if __name__ == "__main__":
    main()
