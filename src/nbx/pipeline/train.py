"""Stage train: one learner of params.yaml on every split of one experiment's data sets (for a learner of the
experiment's ``limited`` block, of those within its size limits).

Writes ``data/predictions/<exp>/<learner>/<dataset>.npz`` (test-set class probabilities, deterministic),
``fit_info.json`` when the learner reports what its fit did (deterministic), and this machine's wall-clock
times to ``data/timings/<exp>/<learner>.json`` (not versioned: they differ on every run).

Resuming: DVC deletes a stage's outputs before it runs it, so each finished data set is also kept in
``data/resume/<exp>/<learner>/<key>/<dataset>.pkl`` (outside DVC's outputs) until the cell completes. A rerun
after an interruption loads the data sets finished under the same key instead of fitting them again; the key
(:func:`resume_key`) digests everything the results depend on, so results of other code, params or inputs are
never reused. The outputs are byte-identical to an uninterrupted run's: a data set's results depend only on its
own splits' seeds and inputs, not on which other data sets run beside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import platform
import shutil
import sys
from pathlib import Path

import numpy as np

from nbx.core.io import sha256_file, write_bytes, write_json, write_npz
from nbx.pipeline import config, layout, learners
from nbx.pipeline.inputs import available, load_folds, load_plan, load_table
from nbx.pipeline.kernels import BIT_VARIABLES
from nbx.protocol.progress import Progress
from nbx.protocol.runner import SplitData, TrainError, discrete_input, mixed_input, run_datasets

PACKAGE = Path(__file__).resolve().parents[1]  # src/nbx
SCRIPT = Path("stages") / "train.py"


def split_data(experiment: config.Experiment, dataset: str, kind: str, numeric: bool = False) -> SplitData:
    """A data set's per-split inputs (as :func:`nbx.protocol.crossval.cross_validate` makes them in memory): the
    discretize stage's codes ('discrete') or the table and plan ('mixed'); with ``numeric`` the discrete input also
    says which columns were numeric (read from the prepared table, which a discrete cell otherwise does not need)."""
    if kind == "discrete":
        kinds = load_table(experiment.name, dataset).n_values == 0 if numeric else None
        return discrete_input(load_folds(experiment.name, dataset), kinds)
    test, _ = load_plan(experiment.name, dataset)
    return mixed_input(load_table(experiment.name, dataset), test, experiment.impute)


def resume_key(params: config.Params, name: str, learner: str) -> str:
    """A digest of what a cell's results depend on: the code (every module of nbx and the stage script, a
    superset of the cell's ``data/code`` digest, hashed now so that a run outside DVC with a stale digest cannot
    reuse results of other code), the params (the seed, the experiment's block, the learner's block), the
    experiment's input files (prepared tables, split plans, fold codes) and the numeric environment (Python,
    numpy, machine, the variables of :data:`nbx.pipeline.kernels.BIT_VARIABLES`)."""
    code = sorted(PACKAGE.rglob("*.py")) + ([SCRIPT] if SCRIPT.exists() else [])
    stages = (layout.prepared(name), layout.SPLITS / name, layout.FOLDS / name)
    inputs = sorted(p for folder in stages if folder.is_dir() for p in folder.iterdir() if p.is_file())
    blocks = {"seed": params["seed"], "experiment": params["experiments"][name], "learner": params["learners"][learner]}
    environment = [sys.version, np.__version__, platform.machine()]
    environment += [f"{v}={os.environ.get(v)}" for v in BIT_VARIABLES]
    h = hashlib.sha256()
    for line in (
        [f"{sha256_file(f)}  {f.relative_to(PACKAGE.parent) if f.is_relative_to(PACKAGE) else f}" for f in code]
        + [json.dumps(blocks, sort_keys=True, default=str)]
        + [f"{sha256_file(f)}  {f.as_posix()}" for f in inputs]
        + environment
    ):
        h.update(line.encode() + b"\n")
    return h.hexdigest()[:16]


class Resume:
    """The finished data sets of one cell under one key (see the module docstring)."""

    def __init__(self, name: str, learner: str, key: str):
        self.cell = layout.resume(name, learner)
        self.folder = self.cell / key
        for stale in self.cell.glob("*"):  # other keys: results of other code, params or inputs
            if stale != self.folder:
                shutil.rmtree(stale)

    def path(self, dataset: str) -> Path:
        return self.folder / f"{dataset}.pkl"

    def load(self, dataset: str):
        """(SplitPredictions, wall seconds) of a data set finished under this key, or None."""
        path = self.path(dataset)
        return pickle.loads(path.read_bytes()) if path.exists() else None

    def save(self, dataset: str, out, wall_seconds: float) -> None:
        # a pickle, not JSON: fit_info's values come back exactly as they were (tuples, int keys, floats)
        write_bytes(self.path(dataset), pickle.dumps((out, wall_seconds), protocol=pickle.HIGHEST_PROTOCOL))

    def done(self) -> None:
        """The cell's outputs are complete: drop its folder (the folders above stay: other cells may use them)."""
        shutil.rmtree(self.cell, ignore_errors=True)


def train(params: config.Params, name: str, learner: str) -> None:
    exp = config.experiment(params, name)
    if learner not in exp.learners:
        hint = config.did_you_mean(learner, exp.learners)
        raise params.error(
            ("experiments", name, "learners"), f"{learner!r} is not one of this experiment's learners{hint}"
        )
    setup = learners.build_learner(params, learner)
    data = {ds: split_data(exp, ds, setup.input, setup.numeric_ordinal) for ds in available(name)}
    data = {ds: d for ds, d in data.items() if exp.runs_on(learner, *d.size)}  # experiments.<exp>.limited
    resume = Resume(name, learner, resume_key(params, name, learner))
    finished = {ds: done for ds in data if (done := resume.load(ds)) is not None}
    timings, fit_info = {}, {}

    def store(ds, out, wall_seconds):
        write_npz(layout.predictions(name, learner, ds), **out.arrays())
        if any(info is not None for info in out.fit_info):
            fit_info[ds] = out.fit_info
        timings[ds] = {
            "fit_seconds": round(float(out.fit_seconds.sum()), 4),
            "predict_seconds": round(float(out.predict_seconds.sum()), 4),
            "wall_seconds": round(wall_seconds, 4),
        }

    for ds, (out, wall_seconds) in finished.items():
        store(ds, out, wall_seconds)
    if finished:
        print(
            f"{name}/{learner}: {len(finished)} data sets finished before, read from {resume.folder}", file=sys.stderr
        )
    todo = {ds: d for ds, d in data.items() if ds not in finished}
    with Progress(f"{name}/{learner}", sum(len(d.test) for d in todo.values())) as progress:
        try:
            for ds, out in run_datasets(
                setup.estimator,
                todo,
                params["seed"],
                name,
                setup.seed_name,
                on_split=progress.advance,
                all_classes=setup.all_classes,
                numeric_ordinal=setup.numeric_ordinal,
            ):
                wall_seconds = progress.finish(ds, len(data[ds].test))
                store(ds, out, wall_seconds)
                resume.save(ds, out, wall_seconds)
        except TrainError as exc:
            where = f"data set {exc.dataset}, split {exc.split}"
            raise TrainError(f"{where}: {exc.cause}", exc.dataset, exc.split, exc.cause) from exc
    if fit_info:
        write_json(layout.fit_info(name, learner), fit_info)
    write_json(layout.timings(name, learner), timings)
    resume.done()
