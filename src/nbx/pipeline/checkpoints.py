"""The finished splits of a train cell that has not finished, so that an interrupted run loses at most the splits in
flight, not a whole data set (a cell of the benchmark's full protocol, 30 folds of HBayes-NB on letter, is about an
hour of two cores).

``data/predictions/<exp>/<learner>/<data set>.splits/`` holds ``key`` (the cell's key, :func:`nbx.pipeline.train.
cell_key`) and ``<split>.npz`` per finished split whose fit and prediction took at least ``CHECKPOINT_SECONDS`` (a
cheaper split is fitted again: its file would cost more than it saves). The next run of the cell reuses the files
whose key is its own and removes the folder once the data set's predictions are written. A split's file holds what
the split returned, its probabilities bit for bit, so the cell's predictions are the same bytes whether it ran at
once or in pieces.
"""

from __future__ import annotations

import json
import shutil
import zipfile

import numpy as np

from nbx.core.io import write_npz, write_text
from nbx.pipeline import layout

CHECKPOINT_SECONDS = 1.0


class SplitCheckpoints:
    """The finished splits of one (experiment, learner, data set) cell computed under ``key``."""

    def __init__(self, experiment: str, learner: str, dataset: str, key: str):
        self.folder = layout.split_checkpoints(experiment, learner, dataset)
        self.key = key

    def load(self, n_test: list[int]) -> dict[int, tuple]:
        """{split: what the split returned} for the files of this key (``n_test[s]``: split s's test rows, which
        its file must match); a folder of another key is removed."""
        try:
            key = (self.folder / "key").read_text()
        except OSError:
            self.clear()
            return {}
        if key != self.key:
            self.clear()
            return {}
        done = {}
        for s, rows in enumerate(n_test):
            try:
                with np.load(self.folder / f"{s}.npz", allow_pickle=False) as f:
                    part, classes, seconds, info = f["proba"], f["classes"], f["seconds"], f["fit_info"]
                    info = json.loads(str(info))
            except (OSError, ValueError, KeyError, zipfile.BadZipFile):  # absent or unreadable: fitted again
                continue
            if part.ndim == 2 and part.shape == (rows, classes.size) and seconds.shape == (2,):
                done[s] = (part, classes, float(seconds[0]), float(seconds[1]), info)
        return done

    def save(self, s: int, out: tuple) -> None:
        """Keep split ``s``'s output (probabilities, classes, fit and predict seconds, fit_info) if it took long."""
        part, classes, fit_seconds, predict_seconds, info = out
        if fit_seconds + predict_seconds < CHECKPOINT_SECONDS:
            return
        if not (self.folder / "key").is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_text(self.folder / "key", self.key)
        write_npz(
            self.folder / f"{s}.npz",
            proba=part,
            classes=classes,
            seconds=np.array([fit_seconds, predict_seconds]),
            fit_info=np.array(json.dumps(info, sort_keys=True, allow_nan=False)),
        )

    def clear(self) -> None:
        if self.folder.is_dir():
            shutil.rmtree(self.folder)
