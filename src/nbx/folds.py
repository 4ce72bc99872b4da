"""Per-fold preprocessing: imputation and discretization fitted on the training part only.

For split s, the imputer and the discretizer see only the rows with ``test[s] == False``; the fitted
transforms are then applied to every row, so test rows never influence cut points or imputed values.
"""
from __future__ import annotations

import numpy as np

from .table import Table
from .discretize import ModeImputer, make_discretizer


def impute(table: Table, train: np.ndarray, how: str | None) -> np.ndarray:
    """X with missing values filled from the training rows (``how='mode'``), or X unchanged."""
    if how is None:
        return table.X
    return ModeImputer(n_values=table.n_values).fit(table.X[train]).transform(table.X)


def discretize_splits(table: Table, test: np.ndarray, discretizer: dict,
                      how_impute: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes (n_splits, n, d), -1 for missing, and cardinalities (n_splits, d)."""
    n_splits, (n, d) = test.shape[0], table.X.shape
    codes = np.empty((n_splits, n, d), dtype=np.int16)
    n_values = np.empty((n_splits, d), dtype=np.int64)
    for s in range(n_splits):
        train = ~test[s]
        X = impute(table, train, how_impute)
        disc = make_discretizer(discretizer).set_params(n_values=table.n_values).fit(X[train], table.y[train])
        codes[s] = disc.transform(X)
        n_values[s] = disc.n_values_
    return codes, n_values
