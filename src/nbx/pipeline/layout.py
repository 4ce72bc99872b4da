"""Where the pipeline's artifacts live (all relative to the repository root).

Per experiment (each one a DVC output, so changing one experiment never invalidates another):
``data/prepared/<exp>/`` tables, ``data/splits/<exp>/`` resampling plans, ``data/folds/<exp>/`` per-split
codes, ``data/predictions/<exp>/<learner>/`` test-set probabilities, ``data/results/<exp>.*`` per-split and
per-data-set accuracy, ``data/analysis/<exp>.json`` synthetic checks, ``metrics/<exp>/<learner>.json``
summaries, ``reports/<exp>.md``. Not versioned: ``data/raw/`` (the download cache, verified by sha256),
``data/timings/`` (wall-clock times of this machine's last run). ``data/trained/<exp>.json`` records what each
learner's predictions were computed from, so a rerun of train@<exp> fits only what changed (:mod:`nbx.pipeline.train`).
"""

from __future__ import annotations

from pathlib import Path

from nbx.core.names import path_part

DATA = Path("data")
RAW = DATA / "raw"
PREPARED = DATA / "prepared"
SPLITS = DATA / "splits"
FOLDS = DATA / "folds"
PREDICTIONS = DATA / "predictions"
RESULTS = DATA / "results"
ANALYSIS = DATA / "analysis"
TIMINGS = DATA / "timings"
TRAINED = DATA / "trained"
CHECKPOINT_SUFFIX = ".splits"  # beside <data set>.npz in a learner's predictions while its cell runs
CODE = DATA / "code"
METRICS = Path("metrics")
REPORTS = Path("reports")


def _exp(experiment: str) -> str:
    return path_part(experiment, "experiment name")


def _ds(dataset: str) -> str:
    return path_part(dataset, "data set name")


def prepared(experiment: str, dataset: str | None = None) -> Path:
    base = PREPARED / _exp(experiment)
    return base / f"{_ds(dataset)}.npz" if dataset else base


def availability(experiment: str) -> Path:
    return PREPARED / _exp(experiment) / "availability.json"


def split_plan(experiment: str, dataset: str) -> Path:
    return SPLITS / _exp(experiment) / f"{_ds(dataset)}.npz"


def fold_codes(experiment: str, dataset: str) -> Path:
    return FOLDS / _exp(experiment) / f"{_ds(dataset)}.npz"


def predictions(experiment: str, learner: str, dataset: str | None = None) -> Path:
    base = PREDICTIONS / _exp(experiment) / path_part(learner, "learner name")
    return base / f"{_ds(dataset)}.npz" if dataset else base


def split_checkpoints(experiment: str, learner: str, dataset: str) -> Path:
    """The finished splits of a data set whose cell has not finished (nbx.pipeline.checkpoints)."""
    return predictions(experiment, learner) / f"{_ds(dataset)}{CHECKPOINT_SUFFIX}"


def fit_info(experiment: str, learner: str) -> Path:
    return predictions(experiment, learner) / "fit_info.json"


def timings(experiment: str, learner: str) -> Path:
    return TIMINGS / _exp(experiment) / f"{path_part(learner, 'learner name')}.json"


def trained(experiment: str) -> Path:
    return TRAINED / f"{_exp(experiment)}.json"


def results(experiment: str, suffix: str = "csv") -> Path:
    return RESULTS / f"{_exp(experiment)}.{suffix}"


def analysis(experiment: str) -> Path:
    return ANALYSIS / f"{_exp(experiment)}.json"


def learner_metrics(experiment: str, learner: str | None = None) -> Path:
    base = METRICS / _exp(experiment)
    return base / f"{path_part(learner, 'learner name')}.json" if learner else base


def code_digest(family: str) -> Path:
    return CODE / f"{family}.txt"
