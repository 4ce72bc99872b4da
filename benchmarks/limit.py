"""The price of an experiment's size limit: its ``limited`` learners on the data sets the limit leaves out, the
first split of each, in CPU seconds per (learner, data set), and the estimate over all the splits.

    python benchmarks/limit.py [--experiment benchmark] [--datasets sonar,splice] [--splits 1]
        [--results benchmarks/results/limit.json] [--plots DIR]

The data sets are, per learner of ``experiments.<experiment>.limited`` in params.yaml, those of the experiment
on which ``Experiment.runs_on`` is false at the catalogue's rows, attributes and classes (the sizes the prepare
stage checks its tables against); ``--datasets`` keeps some of them. Each learner runs in a fresh process, the
call of benchmarks/README.md's "size limit" table:

    run_cell.py EXPERIMENT LEARNER --datasets SETS --beyond-limits --splits N --results FILE

from the current folder, which must be a clone holding the pipeline's data (after ``dvc repro``). Prints per data
set (rows, attributes, classes) each learner's CPU seconds (run_cell.py's process, start-up and data loading not
included), each learner's sum and its estimate over all the splits (each data set's seconds times its splits over
the splits run), and writes them to ``--results`` (default benchmarks/results/limit.json, untracked) with the
figure limit_cost.png (``--plots``, default the results file's folder; benchmarks/plots.py). As long as the
cells' first splits: about 12 minutes for the benchmark's eight data sets and three learners.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from plots import DEFAULT_DIR, Results, draw, estimate

from nbx.pipeline import config
from nbx.pipeline.prepare import catalogue

RUN_CELL = Path(__file__).with_name("run_cell.py")


def excluded(params: config.Params, experiment: str) -> dict[str, list[str]]:
    """Per learner of the experiment's ``limited`` block, the catalogue ids of its data sets outside the limit."""
    exp, entries = config.experiment(params, experiment), catalogue(params)
    sizes = {}
    for ds in exp.datasets.values():
        e = entries[ds]
        if None in (e.rows, e.attributes, e.classes):
            raise SystemExit(f"catalogue entry {ds}: no rows, attributes or classes to hold against the size limit")
        sizes[ds] = e.rows, e.attributes, e.classes
    return {learner: [ds for ds, size in sizes.items() if not exp.runs_on(learner, *size)] for learner in exp.limited}


def limited_block(exp: config.Experiment) -> dict:
    """The experiment's ``limited`` block as in effect, in params.yaml's form (learners and the limits given)."""
    limits = next(iter(exp.limited.values()), {})
    return {"learners": list(exp.limited), **{f"max_{k}": v for k, v in limits.items() if v != float("inf")}}


def measure(experiment: str, learner: str, datasets: list[str], splits: int) -> list[dict]:
    """One learner's costs on the data sets, from a fresh run_cell.py process (its lines printed as they come)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cell.json"
        cmd = [sys.executable, str(RUN_CELL), experiment, learner, "--datasets", ",".join(datasets)]
        subprocess.run([*cmd, "--beyond-limits", "--splits", str(splits), "--results", str(out)], check=True)
        measured = json.loads(out.read_text())["datasets"]
    return [{"learner": learner, "dataset": ds, **r} for ds, r in measured.items()]


def print_table(costs: list[dict]) -> None:
    """Data sets down, learners across, CPU seconds; then each learner's sum and its estimate over all splits."""
    learners = list(dict.fromkeys(c["learner"] for c in costs))
    cell = {(c["learner"], c["dataset"]): c for c in costs}
    print(f"\n{'data set (rows, attributes, classes)':40s}" + "".join(f"{x:>12s}" for x in learners))
    for ds in dict.fromkeys(c["dataset"] for c in costs):
        size = next(c for c in costs if c["dataset"] == ds)
        name = f"{ds} ({size['rows']:,d}, {size['attributes']}, {size['classes']})"
        print(
            f"{name:40s}"
            + "".join(f"{cell[x, ds]['cpu']:12.1f}" if (x, ds) in cell else f"{'-':>12s}" for x in learners)
        )
    for label, value in (("sum, splits run", lambda c: c["cpu"]), ("sum, all splits (estimated)", estimate)):
        sums = [sum(value(c) for c in costs if c["learner"] == x) for x in learners]
        print(f"{label:40s}" + "".join(f"{s:12.1f}" for s in sums))
    print(f"all learners, all splits (estimated): {sum(map(estimate, costs)):.0f} CPU s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", default="benchmark", help="a params.yaml experiment with a `limited` block")
    ap.add_argument("--datasets", help="comma-separated: only these of the data sets outside the limit")
    ap.add_argument("--splits", type=int, default=1, help="the first N splits of each data set (default 1)")
    ap.add_argument(
        "--results", type=Path, default=DEFAULT_DIR / "limit.json", help="JSON file of every measurement printed"
    )
    ap.add_argument("--plots", type=Path, help="folder of the figure (default: the results file's)")
    a = ap.parse_args()
    if a.splits < 1:
        ap.error(f"--splits must be at least 1, got {a.splits}")
    params = config.load_params()
    exp = config.experiment(params, a.experiment)
    outside = excluded(params, a.experiment)
    if not outside:
        lifted = " in effect (`protocol.full: true` lifts it)" if exp.full else ""
        ap.error(f"--experiment: experiments.{a.experiment} has no `limited` block{lifted}")
    if a.datasets:
        keep = a.datasets.split(",")
        within = sorted(set(keep) - {ds for sets in outside.values() for ds in sets})
        if within:
            ap.error(f"--datasets: {', '.join(within)} not outside the size limit of {a.experiment}")
        outside = {learner: [ds for ds in sets if ds in keep] for learner, sets in outside.items()}
    results = Results(a.results, "limit.py", sys.argv[1:])
    first = "the first split" if a.splits == 1 else f"the first {a.splits} splits"
    part = {
        "title": f"{a.experiment} beyond its size limit: CPU seconds of {first} of each data set",
        "xlabel": f"CPU seconds, {first}",
        "costs": [],
        "settings": {
            "experiment": a.experiment,
            "splits": a.splits,
            "limited": limited_block(exp),
        },
    }
    for learner, datasets in outside.items():
        if datasets:
            print(f"\n== {a.experiment} {learner}: {', '.join(datasets)}", flush=True)
            part["costs"] += measure(a.experiment, learner, datasets, a.splits)
            results.add("cost", part)
    print_table(part["costs"])
    print(f"results: {results.path}")
    for path in draw(results.path, a.plots):
        print(f"figure: {path}")


if __name__ == "__main__":
    main()
