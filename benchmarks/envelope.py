"""Which train cells moved between two runs, and whether each move stays inside the envelope a change of CPU
already causes: per data set, the same predicted class on at least 99.5% of test rows and a mean accuracy
(over splits, as in data/results/) within 0.5 points.

    python benchmarks/envelope.py OLD_PREDICTIONS [NEW_PREDICTIONS]   # NEW defaults to this workspace's

Run it from a workspace's root after `dvc repro` (it reads params.yaml and data/ there for the classes), e.g.
with OLD the data/predictions of a run of the previous commit. Prints one line per cell that moved, one per data
set whose predictions differ, and a last line with the counts; exits 1 if any data set leaves the envelope.
Writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from nbx.pipeline import config, learners
from nbx.pipeline.train import split_data
from nbx.protocol.scoring import accuracy, summarize

SAME_PREDICTIONS = 0.995  # share of test rows whose predicted class must not change
ACCURACY_POINTS = 0.5  # largest move of a data set's mean accuracy, in points


def compare_cell(params, experiment: str, learner: str, old: Path, new: Path) -> list[tuple[str, float, float, float]]:
    """(data set, share of identical predictions, old and new mean accuracy in %) of each data set that differs."""
    exp, setup = config.experiment(params, experiment), learners.build_learner(params, learner)
    moved = []
    for path in sorted((new / experiment / learner).glob("*.npz")):
        with np.load(path) as b, np.load(old / experiment / learner / path.name) as a:
            if all(np.array_equal(a[k], b[k]) for k in a.files):
                continue
            y = split_data(exp, path.stem, setup.input, setup.numeric_ordinal).y
            n_splits = int(a["split"].max()) + 1
            acc = [summarize(accuracy(z["proba"], y[z["row"]], z["split"], n_splits))["acc"] for z in (a, b)]
            same = float(np.mean(np.argmax(a["proba"], 1) == np.argmax(b["proba"], 1)))
            moved.append((path.stem, same, *acc))
    return moved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path, nargs="?", default=Path("data/predictions"))
    args = ap.parse_args()
    params = config.load_params()
    cells = sorted(p.relative_to(args.new).parts for p in args.new.glob("*/*") if p.is_dir())
    new_cells = [cell for cell in cells if not (args.old / cell[0] / cell[1]).is_dir()]
    if new_cells:
        print("new cells, not in OLD: " + ", ".join(f"{e}/{x}" for e, x in new_cells))
    outside = moved_cells = 0
    for experiment, learner in (cell for cell in cells if cell not in new_cells):
        moved = compare_cell(params, experiment, learner, args.old, args.new)
        if not moved:
            continue
        moved_cells += 1
        print(f"{experiment}/{learner}: {len(moved)} data sets differ")
        for ds, same, before, after in moved:
            inside = same >= SAME_PREDICTIONS and abs(after - before) <= ACCURACY_POINTS
            outside += not inside
            print(
                f"  {ds:22s} {100 * same:7.3f}% same predictions, accuracy {before:.3f} -> {after:.3f}"
                + ("" if inside else "   OUTSIDE the envelope")
            )
    print(f"{moved_cells} of {len(cells)} cells moved; {outside} data sets outside the envelope")
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()
