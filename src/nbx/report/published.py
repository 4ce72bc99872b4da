"""The papers' published tables (copied verbatim from the papers into ``published/``) as accuracy in %."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

FOLDER = Path(__file__).with_name("published")
METRICS = {  # how a table stores its numbers -> accuracy in percent
    "accuracy_pct": lambda v: v,
    "error_pct": lambda v: 100.0 - v,
    "error_fraction": lambda v: 100.0 * (1.0 - v),
}


def published_accuracy(spec: dict) -> pd.DataFrame:
    """Rows = the paper's data set names, columns = our learner names, values = published accuracy (%).

    ``spec``: ``{table: FILE.csv, metric: accuracy_pct | error_pct | error_fraction, columns: {learner: column}}``.
    """
    table = pd.read_csv(FOLDER / spec["table"])
    table = table.set_index(table.columns[0])  # the paper's data set names
    if spec["metric"] not in METRICS:
        raise ValueError(f"published.metric {spec['metric']!r} is not one of {sorted(METRICS)}")
    convert = METRICS[spec["metric"]]
    return pd.DataFrame({learner: convert(table[column].astype(float))
                         for learner, column in spec.get("columns", {}).items()})
