"""A hand-built experiment's results, written where the report reads them (the current directory): what the
paper reports' section tests render from."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from nbx.pipeline import layout


def write_results(name: str, rows: list[dict], splits: int, test_fraction: float) -> None:
    """data/results/<name>.csv from per-split rows {dataset, learner, split, repeat, test_rows, accuracy}, the
    per-data-set means and standard deviations in data/results/<name>.json, every data set available, and split
    plans testing ``test_fraction`` of the rows (:func:`write_plans`)."""
    frame = pd.DataFrame(rows)
    datasets = list(dict.fromkeys(frame["dataset"]))
    metrics = {
        ds: {
            x: {
                "acc": 100 * g["accuracy"].mean(),
                "acc_std": 100 * g["accuracy"].std(ddof=1),
                "err": 100 - 100 * g["accuracy"].mean(),
                "splits": splits,
            }
            for x, g in frame[frame["dataset"] == ds].groupby("learner")
        }
        for ds in datasets
    }
    layout.RESULTS.mkdir(parents=True, exist_ok=True)
    layout.results(name, "json").write_text(json.dumps(metrics))
    frame.to_csv(layout.results(name), index=False)
    layout.prepared(name).mkdir(parents=True, exist_ok=True)
    layout.availability(name).write_text(json.dumps({ds: {"available": True, "reason": ""} for ds in datasets}))
    write_plans(name, frame, test_fraction)


def write_plans(name: str, frame: pd.DataFrame, test_fraction: float) -> None:
    """Each data set's split plan (data/splits/<name>/<dataset>.npz) with the rows' ``test_rows`` of
    ``round(test_rows / test_fraction)`` rows per split: the share each split tests is ``test_fraction``."""
    for ds, g in frame.drop_duplicates(["dataset", "split"]).groupby("dataset", sort=False):
        n = int(round(g["test_rows"].max() / test_fraction))
        test = np.zeros((len(g), n), dtype=bool)
        for s, rows in enumerate(g["test_rows"]):
            test[s, :rows] = True
        layout.split_plan(name, ds).parent.mkdir(parents=True, exist_ok=True)
        np.savez(layout.split_plan(name, ds), test=test, repeat=g["repeat"].to_numpy())
