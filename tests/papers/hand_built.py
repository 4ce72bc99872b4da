"""A hand-built experiment's results, written where the report reads them (the current directory): what the
paper reports' section tests render from."""

from __future__ import annotations

import json

import pandas as pd

from nbx.pipeline import layout


def write_results(name: str, rows: list[dict], splits: int) -> None:
    """data/results/<name>.csv from per-split rows {dataset, learner, split, repeat, test_rows, accuracy}, the
    per-data-set means and standard deviations in data/results/<name>.json, and every data set available."""
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
