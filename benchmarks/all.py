"""Every timing target of benchmarks/README.md in one command (about 35 minutes on two cores; keep the machine
otherwise quiet):

    python benchmarks/all.py [--out DIR] [--skip-pipeline] [--skip-weka] [--skip-scaling]
        [--weka-args "..."] [--scaling-args "..."]

1. ``pipeline.py fresh-clone``: a full ``dvc repro`` from an empty cache in a fresh clone (target 1), that run's
   train time per experiment and hot cells (target 4), then no-op ``dvc status`` / ``dvc repro`` and the
   per-cell overhead in the same clone (target 2);
2. ``weka_compare.py``: every learner's 10-fold CV over Weka's 26 data sets beside Weka 3.6's seconds (target 4);
3. ``scaling.py``: fit time against rows per learner, and the peers: NB at 1M rows against CategoricalNB, MDL
   against argsort, C4.5, ridge LR and the kernel-density learners against scikit-learn (targets 5, 7 and 10).

Each step writes every measurement it prints to ``--out`` (default benchmarks/results/, untracked):
pipeline.json, weka.json and scaling.json, and the PNGs benchmarks/plots.py draws from them (pipeline_targets.png,
weka_targets.png, scaling_<part>.png, scaling_targets.png). ``--weka-args`` and ``--scaling-args`` pass further
options to those scripts (e.g. ``--scaling-args "--skip-learners --repeats 1"``).

Target 3 (editing stage code reruns only the stages that use it) is a property of dvc.yaml, checked by the
tests (tests/pipeline/test_dvcgen.py), not a timing. Run it from the repository's root.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE / "results", help="folder of the results files and PNGs")
    ap.add_argument("--skip-pipeline", action="store_true", help="leave out pipeline.py fresh-clone (about 30 min)")
    ap.add_argument("--skip-weka", action="store_true", help="leave out weka_compare.py")
    ap.add_argument("--skip-scaling", action="store_true", help="leave out scaling.py (a few minutes and more)")
    ap.add_argument("--weka-args", default="", help="further options of weka_compare.py, one string")
    ap.add_argument("--scaling-args", default="", help="further options of scaling.py, one string")
    a = ap.parse_args()
    pipeline = ["pipeline.py", "fresh-clone", "--results", str(a.out / "pipeline.json"), "--plots", str(a.out)]
    steps = [] if a.skip_pipeline else [pipeline]
    for script, name, skip, extra in (
        ("weka_compare.py", "weka", a.skip_weka, a.weka_args),
        ("scaling.py", "scaling", a.skip_scaling, a.scaling_args),
    ):
        if not skip:
            steps.append([script, "--results", str(a.out / f"{name}.json"), "--plots", str(a.out), *shlex.split(extra)])
    for script, *args in steps:
        print(f"\n== {script} {' '.join(args)}", flush=True)
        subprocess.run([sys.executable, str(HERE / script), *args], check=True)


if __name__ == "__main__":
    main()
