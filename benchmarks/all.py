"""Every timing target of benchmarks/README.md in one command (about two hours on two cores; keep the machine
otherwise quiet):

    python benchmarks/all.py [--out DIR] [--skip-pipeline [--data-clone DIR]] [--skip-STEP ...] [--STEP-args "..."]

1. ``pipeline.py fresh-clone``: a full ``dvc repro`` from an empty cache in a fresh clone (target 1), that run's
   train time per experiment and hot cells (target 4), then no-op ``dvc status`` / ``dvc repro`` and the
   per-cell overhead in the same clone (target 2); then, in that clone before it is deleted (``--in-clone``):
2. ``cluster.py``: train cells on one process, joblib's local pool and a Dask LocalCluster, the same bytes
   (target 8);
3. ``limit.py``: the price of the benchmark's size limit, the first fold of its limited learners on the data sets
   the limit leaves out, CPU seconds per learner and data set and the estimate over ten folds;
4. ``weka_compare.py``: every learner's 10-fold CV over Weka's 26 data sets beside Weka 3.6's seconds (target 4);
5. ``scaling.py``: fit time against rows per learner, and the peers: NB at 1M rows against CategoricalNB, MDL
   against argsort, C4.5, ridge LR and the kernel-density learners against scikit-learn (targets 5, 7 and 10);
6. ``big_file.py``: ``nbx evaluate``, ``fit`` and ``predict`` on a 200 MB CSV, time and peak memory (target 6).

Steps 2 and 3 read the pipeline's data. With ``--skip-pipeline`` they run in ``--data-clone DIR`` (a clone after
``dvc repro``, with this checkout's scripts and the nbx this Python imports), and without it they are skipped
with a line saying so. STEP is cluster, limit, weka, scaling or big-file: ``--skip-STEP`` leaves it out and
``--STEP-args`` passes further options to its script, one string (e.g. ``--scaling-args "--skip-learners
--repeats 1"``, ``--limit-args "--datasets sonar"``).

Each step writes every measurement it prints to ``--out`` (default benchmarks/results/, untracked):
pipeline.json, cluster.json, limit.json, weka.json, scaling.json and big_file.json, and the PNGs
benchmarks/plots.py draws from them (pipeline_targets.png, cluster_targets.png, limit_cost.png,
weka_targets.png, scaling_<part>.png, scaling_targets.png, big_file_targets.png).

Target 3 (editing stage code reruns only the stages that use it) is a property of dvc.yaml, checked by the
tests (tests/pipeline/test_pipeline_e2e.py), not a timing. Run it from the repository's root.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the steps after pipeline.py: name (--skip-NAME, --NAME-args, results NAME.json), script and its own options,
# whether it reads the pipeline's data (then it runs in the fresh clone or --data-clone), what it measures
STEPS = [
    ("cluster", ["cluster.py"], True, "train cells on one process, loky and Dask (target 8)"),
    ("limit", ["limit.py"], True, "the size limit's price, first fold (about 12 min)"),
    ("weka", ["weka_compare.py"], False, "10-fold CV beside Weka 3.6's seconds (target 4)"),
    (
        "scaling",
        ["scaling.py", "--full-size"],  # every learner to 10^6 rows: the sizes of the slope targets
        False,
        "time against rows and the peers (targets 1, 5, 7, 10; about 30 min)",
    ),
    ("big_file", ["big_file.py"], False, "nbx on a 200 MB CSV (target 6; a few minutes)"),
]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE / "results", help="folder of the results files and PNGs")
    ap.add_argument("--skip-pipeline", action="store_true", help="leave out pipeline.py fresh-clone (about 30 min)")
    ap.add_argument(
        "--data-clone", type=Path, metavar="DIR", help="with --skip-pipeline: the clone with data for cluster and limit"
    )
    for name, (script, *_), _, what in STEPS:
        flag = name.replace("_", "-")
        ap.add_argument(f"--skip-{flag}", action="store_true", help=f"leave out {script}: {what}")
        ap.add_argument(
            f"--{flag}-args", default="", metavar='"OPTIONS"', help=f"further options of {script}, one string"
        )
    a = ap.parse_args(argv)
    if a.data_clone and not a.skip_pipeline:
        ap.error("--data-clone: only with --skip-pipeline (else cluster.py and limit.py run in the fresh clone)")
    if a.data_clone and not (a.data_clone / "data").is_dir():
        ap.error(f"--data-clone: {a.data_clone} has no data/ folder (run `dvc repro` there first)")
    return a


def command(a: argparse.Namespace, name: str, *script: str) -> list[str]:
    """A step's script (and subcommand) with its options: its results file and PNGs in --out (absolute: it may
    run in another folder), then its --NAME-args."""
    out = a.out.resolve()
    extra = shlex.split(getattr(a, f"{name}_args", ""))
    return [*script, "--results", str(out / f"{name}.json"), "--plots", str(out), *extra]


def steps(a: argparse.Namespace) -> list[tuple[Path | None, list[str]]]:
    """Each step's working folder (None: here) and command, a script of benchmarks/ and its options. The steps
    that read the pipeline's data go into pipeline.py's fresh clone, else into --data-clone, else are skipped."""
    wanted = [(data, command(a, name, *script)) for name, script, data, _ in STEPS if not getattr(a, f"skip_{name}")]
    on_data = [cmd for data, cmd in wanted if data]
    out = []
    if not a.skip_pipeline:
        in_clone = [arg for cmd in on_data for arg in ("--in-clone", shlex.join(cmd))]
        out.append((None, [*command(a, "pipeline", "pipeline.py", "fresh-clone"), *in_clone]))
    elif a.data_clone:
        out += [(a.data_clone.resolve(), cmd) for cmd in on_data]
    elif on_data:
        scripts = " and ".join(cmd[0] for cmd in on_data)
        print(f"skipped {scripts}: they read the pipeline's data (give --data-clone DIR, or run the pipeline step)")
    return out + [(None, cmd) for data, cmd in wanted if not data]


def main() -> None:
    for cwd, (script, *args) in steps(parse()):
        print(f"\n== {script} {shlex.join(args)}" + (f"   (in {cwd})" if cwd else ""), flush=True)
        subprocess.run([sys.executable, str(HERE / script), *args], cwd=cwd, check=True)


if __name__ == "__main__":
    main()
