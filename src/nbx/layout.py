"""Where the pipeline's artifacts live (all relative to the repository root)."""
from __future__ import annotations

from pathlib import Path

DATA = Path("data")
RAW = DATA / "raw"
PREPARED = DATA / "prepared"
SPLITS = DATA / "splits"
FOLDS = DATA / "folds"
PREDICTIONS = DATA / "predictions"
RESULTS = DATA / "results"
METRICS = Path("metrics")
REPORTS = Path("reports")

AVAILABILITY = PREPARED / "availability.json"


def prepared(dataset: str) -> Path:
    return PREPARED / f"{dataset}.npz"


def split_plan(experiment: str, dataset: str) -> Path:
    return SPLITS / experiment / f"{dataset}.npz"


def fold_codes(experiment: str, dataset: str) -> Path:
    return FOLDS / experiment / f"{dataset}.npz"


def predictions(experiment: str, learner: str, dataset: str | None = None) -> Path:
    base = PREDICTIONS / experiment / learner
    return base / f"{dataset}.npz" if dataset else base
