"""The papers' published tables (copied verbatim from the papers into ``nbx/papers/<experiment>/published/``) as
accuracy in %, and the claims each paper makes (``claims.md`` beside them)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

PAPERS = Path(__file__).parents[1] / "papers"  # found by path: report/ does not import the papers
METRICS = {  # how a table stores its numbers -> accuracy in percent
    "accuracy_pct": lambda v: v,
    "error_pct": lambda v: 100.0 - v,
    "error_fraction": lambda v: 100.0 * (1.0 - v),
}


def name_key(name: str) -> str:
    """Data set names as the papers spell them, compared loosely ("Credit (A)" == "Credit(A)")."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def folder(experiment: str) -> Path:
    """An experiment's published tables and claims (``nbx/papers/<experiment>/published/``)."""
    return PAPERS / experiment / "published"


def read_table(file: str, experiment: str) -> pd.DataFrame:
    """A published CSV indexed by name_key of its first column (the paper's data set names)."""
    table = pd.read_csv(folder(experiment) / file)
    return table.set_index(table[table.columns[0]].map(name_key))


def published_accuracy(specs: list[dict], experiment: str) -> pd.DataFrame:
    """Rows = name_key of the paper's data set names, columns = our learner names, values = accuracy (%).

    ``specs``: a list of ``{table: FILE.csv, metric: accuracy_pct | error_pct | error_fraction,
    columns: {learner: column}}`` (experiments.<name>.published in params.yaml).
    """
    frames = []
    for spec in specs:
        if spec["metric"] not in METRICS:
            raise ValueError(f"published.metric {spec['metric']!r} is not one of {sorted(METRICS)}")
        table, convert = read_table(spec["table"], experiment), METRICS[spec["metric"]]
        frames.append(
            pd.DataFrame(
                {
                    learner: convert(pd.to_numeric(table[column], errors="coerce"))
                    for learner, column in spec.get("columns", {}).items()
                }
            )
        )
    return pd.concat(frames, axis=1) if frames else pd.DataFrame()
