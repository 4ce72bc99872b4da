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
CODE = DATA / "code"
LOCAL = DATA / "local"
METRICS = Path("metrics")
REPORTS = Path("reports")


def prepared(experiment: str, dataset: str | None = None) -> Path:
    base = PREPARED / experiment
    return base / f"{dataset}.npz" if dataset else base


def availability(experiment: str) -> Path:
    return PREPARED / experiment / "availability.json"


def split_plan(experiment: str, dataset: str) -> Path:
    return SPLITS / experiment / f"{dataset}.npz"


def fold_codes(experiment: str, dataset: str) -> Path:
    return FOLDS / experiment / f"{dataset}.npz"


def predictions(experiment: str, learner: str, dataset: str | None = None) -> Path:
    base = PREDICTIONS / experiment / learner
    return base / f"{dataset}.npz" if dataset else base


def fit_info(experiment: str, learner: str) -> Path:
    return predictions(experiment, learner) / "fit_info.json"


def timings(experiment: str, learner: str) -> Path:
    return TIMINGS / experiment / f"{learner}.json"


def trained(experiment: str) -> Path:
    return TRAINED / f"{experiment}.json"


def results(experiment: str, suffix: str = "csv") -> Path:
    return RESULTS / f"{experiment}.{suffix}"


def analysis(experiment: str) -> Path:
    return ANALYSIS / f"{experiment}.json"


def learner_metrics(experiment: str, learner: str | None = None) -> Path:
    base = METRICS / experiment
    return base / f"{learner}.json" if learner else base


def code_digest(family: str) -> Path:
    return CODE / f"{family}.txt"
