"""Stage train@<experiment>: every learner of the experiment on every split of its data sets (a learner of the
experiment's ``limited`` block only on the data sets within its size limits).

Writes ``data/predictions/<exp>/<learner>/<dataset>.npz`` (test-set class probabilities, deterministic),
``<learner>/fit_info.json`` when the learner reports what its fit did (deterministic), ``data/trained/<exp>.json``
(what each learner's results were computed from, below) and this machine's wall-clock times to
``data/timings/<exp>/<learner>.json`` (not versioned: they differ on every run): per data set its fit, predict and
wall seconds, and ``seconds_per_split``, each split's fit + predict (one task of a pool: benchmarks/full_protocol.py
schedules them on N workers).

Only what changed is fitted. The stage's outputs persist (dvc.yaml), and for each learner and data set
``data/trained/<exp>.json`` keeps a key (:func:`cell_key`: the learner's source files, its params block, the seed,
its size limit, the experiment's name and imputation, and the input files of that data set) with the sha256 of the
predictions it produced. A rerun reuses a data set's predictions whose key and file are unchanged, fits the rest,
and removes what no longer belongs (a learner or data set taken out of the experiment). So adding a learner fits
that learner, adding a data set fits that data set, editing a model's module refits the learners that import it,
and a run interrupted by Ctrl-C goes on where it stopped, within a data set from its finished splits
(:mod:`nbx.pipeline.checkpoints`). The outputs are byte-identical to a run from scratch: a
data set's results depend only on its own splits' seeds and inputs. The keys hold no machine-dependent value, so
the file is the same on every machine that writes the same predictions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys

from nbx.core.errors import NbxError, message
from nbx.core.io import sha256_file, write_json, write_npz
from nbx.pipeline import code, config, layout, learners
from nbx.pipeline.checkpoints import SplitCheckpoints
from nbx.pipeline.inputs import available, load_folds, load_plan, load_table, require
from nbx.protocol.progress import Progress
from nbx.protocol.runner import SplitData, TrainError, discrete_input, mixed_input, run_datasets

KEY_VERSION = 1  # bump when the results of the same key would change (how predictions are stored)


class CellError(NbxError, RuntimeError):
    """One learner failed: reported as ``train <exp>/<learner>: ...`` (its ``label``)."""

    def __init__(self, label: str, text: str):
        super().__init__(text)
        self.label = label


def split_data(experiment: config.Experiment, dataset: str, kind: str, numeric: bool = False) -> SplitData:
    """A data set's per-split inputs (as :func:`nbx.protocol.crossval.cross_validate` makes them in memory): the
    discretize stage's codes ('discrete') or the table and plan ('mixed'); with ``numeric`` the discrete input also
    says which columns were numeric (read from the prepared table, which a discrete cell otherwise does not need)."""
    if kind == "discrete":
        kinds = load_table(experiment.name, dataset).n_values == 0 if numeric else None
        return discrete_input(load_folds(experiment.name, dataset), kinds)
    test, _ = load_plan(experiment.name, dataset)
    return mixed_input(load_table(experiment.name, dataset), test, experiment.impute)


def input_files(experiment: str, dataset: str, setup: learners.LearnerSetup) -> list:
    """The files a learner's run on a data set reads (what :func:`split_data` loads), each checked to be there."""
    if setup.input == "discrete":
        files = [(layout.fold_codes(experiment, dataset), "discretize")]
        files += [(layout.prepared(experiment, dataset), "prepare")] if setup.numeric_ordinal else []
    else:
        files = [(layout.prepared(experiment, dataset), "prepare"), (layout.split_plan(experiment, dataset), "split")]
    return [require(path, f"{stage}@{experiment}") for path, stage in files]


def cell_key(params: config.Params, exp: config.Experiment, learner: str, dataset: str, setup, source=None) -> str:
    """A digest of everything a learner's results on a data set depend on (see the module docstring); ``source``:
    the digest text of the learner's source files, when the caller has it already."""
    h = hashlib.sha256(f"nbx train key {KEY_VERSION}\n".encode())
    h.update((source or code.digest_text(code.learner_files(params, learner))).encode())
    blocks = {
        "seed": params["seed"],
        "experiment": exp.name,
        "dataset": dataset,
        "learner": params["learners"][learner],
        "limit": exp.limited.get(learner),
        "impute": exp.impute if setup.input == "mixed" else None,
    }
    h.update(json.dumps(blocks, sort_keys=True, default=str).encode() + b"\n")
    for path in input_files(exp.name, dataset, setup):
        h.update(f"{code.file_sha256(path)}  {path.as_posix()}\n".encode())
    return h.hexdigest()


class Trained:
    """``data/trained/<exp>.json``: learner -> data set -> {key, sha256 of its predictions file}."""

    def __init__(self, experiment: str):
        self.path = layout.trained(experiment)
        try:
            self.entries = json.loads(self.path.read_text())
            assert isinstance(self.entries, dict)
        except (OSError, ValueError, AssertionError):  # none yet, or unreadable: nothing is reused
            self.entries = {}

    def reusable(self, experiment: str, learner: str, dataset: str, key: str) -> bool:
        entry = self.entries.get(learner, {}).get(dataset)
        path = layout.predictions(experiment, learner, dataset)
        return (
            isinstance(entry, dict)
            and entry.get("key") == key
            and path.is_file()
            and sha256_file(path) == entry.get("sha256")
        )

    def record(self, experiment: str, learner: str, dataset: str, key: str) -> None:
        sha = sha256_file(layout.predictions(experiment, learner, dataset))
        self.entries.setdefault(learner, {})[dataset] = {"key": key, "sha256": sha}
        write_json(self.path, self.entries)

    def keep(self, kept: dict[str, list[str]]) -> None:
        """Only these learners and data sets."""
        self.entries = {
            learner: {ds: e for ds, e in self.entries.get(learner, {}).items() if ds in datasets}
            for learner, datasets in kept.items()
        }
        write_json(self.path, self.entries)


def _json(value):
    """A fit_info value as JSON reads it back (str keys, lists): reused and new entries are written alike."""
    return json.loads(json.dumps(value, sort_keys=True, allow_nan=False))


def train(params: config.Params, name: str, *only: str) -> None:
    """Train the experiment's learners (``only``: these of them, the others' results kept as they are)."""
    exp = config.experiment(params, name)
    for learner in only:
        if learner not in exp.learners:
            hint = config.did_you_mean(learner, exp.learners)
            raise params.error(
                ("experiments", name, "learners"), f"{learner!r} is not one of this experiment's learners{hint}"
            )
    # every block of the experiment is built, in order, before any input is read: a bad one stops the stage first
    setups = {learner: learners.build_learner(params, learner) for learner in exp.learners}
    datasets = available(name)
    trained = Trained(name)
    sizes, inputs = {}, {}  # per data set, read once for all the learners (the pool idles while this process reads)
    kept = {}
    for learner, setup in setups.items():
        if learner not in only and only:
            kept[learner] = list(trained.entries.get(learner, {}))
            continue
        try:
            kept[learner] = _train_learner(params, exp, learner, setup, datasets, trained, sizes, inputs)
        except (KeyboardInterrupt, CellError):
            raise
        except Exception as exc:
            raise CellError(f"train {name}/{learner}", message(exc)) from exc
    _remove_stale(name, kept)
    trained.keep(kept)


def _train_learner(params, exp, learner, setup, datasets, trained, sizes, inputs) -> list[str]:
    """Fit the data sets whose key changed; return the data sets the learner runs on. ``sizes`` and ``inputs``
    keep what earlier learners of the stage read: each data set's size and its :func:`split_data` per input."""
    name = exp.name
    data = {}
    for ds in datasets:
        if ds not in sizes:
            table = load_table(name, ds)
            sizes[ds] = (len(table.y), table.X.shape[1], len(table.classes))
        if exp.runs_on(learner, *sizes[ds]):  # experiments.<exp>.limited
            data[ds] = None
    source = code.digest_text(code.learner_files(params, learner))
    keys = {ds: cell_key(params, exp, learner, ds, setup, source) for ds in data}
    todo = {}
    for ds in data:
        if not trained.reusable(name, learner, ds, keys[ds]):
            kind = (ds, setup.input, setup.numeric_ordinal)
            if kind not in inputs:
                inputs[kind] = split_data(exp, ds, setup.input, setup.numeric_ordinal)
            todo[ds] = inputs[kind]
    old_info = _read_json(layout.fit_info(name, learner))
    old_timings = _read_json(layout.timings(name, learner))
    fit_info = {ds: old_info[ds] for ds in data if ds not in todo and ds in old_info}
    timings = {ds: old_timings[ds] for ds in data if ds not in todo and ds in old_timings}
    if todo and len(todo) < len(data):
        print(f"{name}/{learner}: {len(data) - len(todo)} of {len(data)} data sets unchanged, kept", file=sys.stderr)
    checkpoints = {ds: SplitCheckpoints(name, learner, ds, keys[ds]) for ds in todo}
    done = {ds: checkpoints[ds].load([int(t.sum()) for t in todo[ds].test]) for ds in todo}
    if any(done.values()):
        print(f"{name}/{learner}: {sum(map(len, done.values()))} finished splits kept", file=sys.stderr)
    n_splits = sum(len(d.test) - len(done[ds]) for ds, d in todo.items())
    with Progress(f"{name}/{learner}", n_splits) as progress:
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
                done=done,
                on_result=lambda ds, s, out: checkpoints[ds].save(s, out),
            ):
                wall_seconds = progress.finish(ds, len(todo[ds].test))
                write_npz(layout.predictions(name, learner, ds), **out.arrays())
                if any(info is not None for info in out.fit_info):
                    fit_info[ds] = _json(out.fit_info)
                else:
                    fit_info.pop(ds, None)
                timings[ds] = {
                    "fit_seconds": round(float(out.fit_seconds.sum()), 4),
                    "predict_seconds": round(float(out.predict_seconds.sum()), 4),
                    "wall_seconds": round(wall_seconds, 4),
                    "seconds_per_split": [round(float(f + p), 4) for f, p in zip(out.fit_seconds, out.predict_seconds)],
                }
                # written with each data set, so what an interrupted run finished stays whole
                if fit_info:
                    write_json(layout.fit_info(name, learner), {ds: fit_info[ds] for ds in data if ds in fit_info})
                write_json(layout.timings(name, learner), timings)
                trained.record(name, learner, ds, keys[ds])
                checkpoints[ds].clear()
        except TrainError as exc:
            raise CellError(
                f"train {name}/{learner}", f"data set {exc.dataset}, split {exc.split}: {exc.cause}"
            ) from exc
    info_path = layout.fit_info(name, learner)
    if fit_info:
        write_json(info_path, {ds: fit_info[ds] for ds in data if ds in fit_info})
    elif info_path.exists():
        info_path.unlink()
    write_json(layout.timings(name, learner), timings)
    return list(data)


def _read_json(path) -> dict:
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _remove_stale(name: str, kept: dict[str, list[str]]) -> None:
    """Learners and data sets no longer in the experiment: the outputs persist between runs, so remove them."""
    folder = layout.predictions(name, "x").parent
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.name not in kept:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
            continue
        for file in path.glob("*.npz"):
            if file.stem not in kept[path.name]:
                file.unlink()
        for folder in path.glob(f"*{layout.CHECKPOINT_SUFFIX}"):
            if folder.name.removesuffix(layout.CHECKPOINT_SUFFIX) not in kept[path.name]:
                shutil.rmtree(folder)
