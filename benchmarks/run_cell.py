"""Run one train cell (experiment x learner of params.yaml) as the train stage runs it, every (data set, split)
through one pool (``--jobs``), time it per data set, and optionally check its predictions against a reference copy
of data/predictions byte for byte.

Reads the pipeline's data/ (run `dvc repro discretize` first); writes only what --save asks for.

    python benchmarks/run_cell.py ting2003 blnbt3 --datasets splice,led24 --jobs 1 \
        --reference /path/to/old/data/predictions [--save DIR] [--profile cell.prof]

What a cell would cost beyond the experiment's ``limited`` block (benchmarks/README.md), on the first fold only:

    python benchmarks/run_cell.py benchmark hbayes_nb --datasets optdigits,letter --beyond-limits --splits 1

``--results FILE.json`` also writes, per data set, what the line printed and the CPU seconds of this process
(``--jobs 1``: a pool's workers are not counted), the data set's size and how many of its splits ran
(benchmarks/limit.py reads it).

Exit status: 0 when every prediction compared is identical (or none is compared), 3 when one differs, 2 with a
one-line error for bad arguments, an experiment or learner params.yaml does not name, or a data set without its
inputs in data/, 1 for any other error.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import os
import sys
import time

from nbx.pipeline.kernels import pin

pin()  # the train stage's kernels and threads, before numpy loads

import numpy as np

from nbx.core.errors import NbxError
from nbx.core.io import write_npz
from nbx.pipeline import config, learners
from nbx.pipeline.inputs import available
from nbx.pipeline.train import split_data
from nbx.protocol.runner import run_datasets
from nbx.protocol.scoring import accuracy, summarize

DIFFERENT = 3  # exit status when a prediction differs from the reference (Python exits 1 on an uncaught error)
SAME_PREDICTIONS, ACCURACY_POINTS = 0.995, 0.5  # the envelope of a change of CPU (benchmarks/envelope.py)


def run(
    experiment: str,
    learner: str,
    datasets: list[str] | None,
    jobs: int,
    reference: str | None,
    save: str | None = None,
    splits: int | None = None,
    beyond_limits: bool = False,
    results: str | None = None,
) -> bool:
    params = config.load_params()
    exp = config.experiment(params, experiment)
    setup = learners.build_learner(params, learner)
    same = True
    record = {}
    data, of_splits = {}, {}
    for ds in datasets or available(experiment):
        one = split_data(exp, ds, setup.input, setup.numeric_ordinal)
        if not (beyond_limits or exp.runs_on(learner, *one.size)):  # outside experiments.<exp>.limited: skipped
            continue
        of_splits[ds] = len(one.test)
        if splits is not None:  # the first splits only
            first = slice(0, splits)
            discrete = one.codes is not None
            one = dataclasses.replace(
                one,
                test=one.test[first],
                codes=one.codes[first] if discrete else None,
                n_values=one.n_values[first] if discrete else one.n_values,
            )
        data[ds] = one
    # every (data set, split) through one pool, as the train stage runs a cell; a data set's seconds are those
    # from the previous data set's last split to its own (with --jobs 1: its own splits)
    t_start = t0 = time.perf_counter()
    cpu0 = time.process_time()
    cell = run_datasets(
        setup.estimator,
        data,
        params["seed"],
        experiment,
        setup.seed_name,
        n_jobs=jobs,
        all_classes=setup.all_classes,
        numeric_ordinal=setup.numeric_ordinal,
    )
    for ds, out in cell:
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        t0, cpu0 = time.perf_counter(), time.process_time()
        rows, attributes, classes = data[ds].size
        record[ds] = {
            "wall": wall,
            "cpu": cpu,
            "fit": float(out.fit_seconds.sum()),
            "rows": rows,
            "attributes": attributes,
            "classes": classes,
            "splits": len(data[ds].test),
            "of_splits": of_splits[ds],
        }
        verdict = ""
        if save:
            write_npz(os.path.join(save, experiment, learner, f"{ds}.npz"), **out.arrays())
        if reference:
            with np.load(os.path.join(reference, experiment, learner, f"{ds}.npz")) as ref:
                ref = dict(ref)
            new = out.arrays()
            equal = all(np.array_equal(ref[k], v) and ref[k].dtype == v.dtype for k, v in new.items())
            info = same_fit_info(os.path.join(reference, experiment, learner, "fit_info.json"), ds, out.fit_info)
            same &= equal and info
            verdict = "identical" if equal else "DIFFERENT " + envelope(ref, new, data[ds].y)
            verdict += "" if info else "  fit_info DIFFERENT"
        print(f"{ds:24s} {wall:8.2f} s  fit {out.fit_seconds.sum():8.2f} s  {verdict}", flush=True)
    print(f"{'total':24s} {time.perf_counter() - t_start:8.2f} s")
    if results:
        with open(results, "w") as f:
            json.dump({"experiment": experiment, "learner": learner, "datasets": record}, f, indent=1)
    return same


def same_fit_info(path: str, ds: str, fit_info: list) -> bool:
    """Whether the splits' fit_info() equals the reference's fit_info.json entry of the data set as the train stage
    writes it (JSON); True when neither has one."""
    ours = json.loads(json.dumps(fit_info)) if any(info is not None for info in fit_info) else None
    if not os.path.exists(path):
        return ours is None
    with open(path) as f:
        return json.load(f).get(ds) == ours


def envelope(ref: dict, new: dict, y: np.ndarray) -> str:
    """How far predictions that are not byte-identical moved, as benchmarks/envelope.py measures it: the share
    of test rows whose predicted class is unchanged and the mean accuracy over splits before and after."""
    n_splits = int(ref["split"].max()) + 1
    acc = [summarize(accuracy(z["proba"], y[z["row"]], z["split"], n_splits))["acc"] for z in (ref, new)]
    same = float(np.mean(np.argmax(ref["proba"], 1) == np.argmax(new["proba"], 1)))
    inside = same >= SAME_PREDICTIONS and abs(acc[1] - acc[0]) <= ACCURACY_POINTS
    return f"{100 * same:.3f}% same predictions, accuracy {acc[0]:.3f} -> {acc[1]:.3f} ({acc[1] - acc[0]:+.3f})" + (
        "" if inside else "  OUTSIDE the envelope"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("experiment")
    ap.add_argument("learner")
    ap.add_argument("--datasets", help="comma-separated catalogue ids (default: the experiment's available ones)")
    ap.add_argument("--jobs", type=int, default=1, help="processes for the splits (default 1)")
    ap.add_argument("--reference", help="a data/predictions folder to compare with")
    ap.add_argument("--save", help="also write the predictions under DIR/EXPERIMENT/LEARNER/")
    ap.add_argument("--profile", help="write a cProfile file here")
    ap.add_argument("--splits", type=int, help="run only the first N splits (not with --reference or --save)")
    ap.add_argument("--beyond-limits", action="store_true", help="also the data sets outside the `limited` block")
    ap.add_argument("--results", help="write each data set's seconds (wall, CPU, fit), size and splits to this JSON")
    a = ap.parse_args()
    if a.splits is not None and a.splits < 1:
        ap.error(f"--splits must be at least 1, got {a.splits}")
    if a.splits is not None and (a.reference or a.save):
        ap.error("--splits runs part of a cell: it has no whole predictions to compare or save")
    datasets = a.datasets.split(",") if a.datasets else None
    args = (a.experiment, a.learner, datasets, a.jobs, a.reference, a.save, a.splits, a.beyond_limits, a.results)
    try:
        if a.profile:
            prof = cProfile.Profile()
            same = prof.runcall(run, *args)
            prof.dump_stats(a.profile)
        else:
            same = run(*args)
    except NbxError as err:  # an unknown experiment or learner, a data set's missing inputs: one line
        ap.error(str(err))
    sys.exit(0 if same else DIFFERENT)


if __name__ == "__main__":
    main()
