"""Every timing target of benchmarks/README.md in one command (about 35 minutes on two cores; keep the machine
otherwise quiet):

    python benchmarks/all.py [--skip-scaling]

1. ``pipeline.py fresh-clone``: a full ``dvc repro`` from an empty cache in a fresh clone (target 1), that run's
   train time per experiment and hot cells (target 4), then no-op ``dvc status`` / ``dvc repro`` and the
   per-cell overhead in the same clone (target 2);
2. ``weka_compare.py``: every learner's 10-fold CV over Weka's 26 data sets beside Weka 3.6's seconds (target 4);
3. ``scaling.py``: fit time against rows per learner, and NB at 1M rows against CategoricalNB (target 5).

Target 3 (editing stage code reruns only the stages that use it) is a property of dvc.yaml, checked by the
tests (tests/pipeline/test_dvcgen.py), not a timing. Run it from the repository's root.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-scaling", action="store_true", help="leave out target 5 (a few minutes)")
    a = ap.parse_args()
    steps = [["pipeline.py", "fresh-clone"], ["weka_compare.py"]] + ([] if a.skip_scaling else [["scaling.py"]])
    for script, *args in steps:
        print(f"\n== {script} {' '.join(args)}", flush=True)
        subprocess.run([sys.executable, str(HERE / script), *args], check=True)


if __name__ == "__main__":
    main()
