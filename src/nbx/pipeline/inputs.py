"""What a stage reads from the stages before it, with a clear error when they have not run yet."""

from __future__ import annotations

import json

import numpy as np

from nbx.core.errors import NbxError
from nbx.pipeline import layout
from nbx.protocol.table import Table


class MissingInputError(NbxError, RuntimeError):
    """A stage's input is missing: an earlier stage has not run."""


def require(path, stage: str):
    """``path``, which ``stage`` writes; a MissingInputError naming the stage when it is not there."""
    return _require(path, stage)


def _require(path, stage: str):
    if not path.exists():
        raise MissingInputError(f"{path} is missing: run `dvc repro {stage}` first (or `dvc repro`)")
    return path


def available(experiment: str) -> list[str]:
    """Catalogue ids of the experiment's data sets that prepare@<experiment> could build (params order)."""
    info = json.loads(_require(layout.availability(experiment), f"prepare@{experiment}").read_text())
    return [ds for ds, entry in info.items() if entry["available"]]


def availability(experiment: str) -> dict:
    return json.loads(_require(layout.availability(experiment), f"prepare@{experiment}").read_text())


def load_plan(experiment: str, dataset: str) -> tuple[np.ndarray, np.ndarray]:
    """(test mask (n_splits, n), repeat id per split) written by split@<experiment>."""
    with np.load(_require(layout.split_plan(experiment, dataset), f"split@{experiment}")) as z:
        return z["test"], z["repeat"]


def load_table(experiment: str, dataset: str) -> Table:
    return Table.load(_require(layout.prepared(experiment, dataset), f"prepare@{experiment}"))


def load_folds(experiment: str, dataset: str) -> dict:
    """Per-split codes written by discretize@<experiment>: codes, n_values, y, test, n_classes."""
    with np.load(_require(layout.fold_codes(experiment, dataset), f"discretize@{experiment}")) as z:
        return {k: z[k] for k in z.files}
