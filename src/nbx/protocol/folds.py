"""Per-fold preprocessing: imputation and discretization fitted on the training part only.

For split s, the imputer and the discretizer see only the rows with ``test[s] == False``; the fitted
transforms are then applied to every row, so test rows never influence cut points or imputed values.

Imputation (the experiment's ``impute`` key, one of :data:`nbx.protocol.spec.IMPUTE`):

* ``None``: missing values stay missing (code -1).
* ``"mode"``: before discretization, the training mode of a nominal attribute and the training mean of a
  numeric one (:class:`nbx.discretize.ModeImputer`, as Weka's ReplaceMissingValues).
* ``"mode_after_discretize"``: Kang & Tian (2006) discretize first ("Numeric attributes were discretized
  into ten equal-length intervals. Each occurrence of a missing value was replaced by the most frequently
  occurring value in that attribute"): the codes are imputed with the training mode of each attribute's
  codes, so a missing numeric value goes to the most frequent bin (with ``"mode"`` it goes to the mean's
  bin). Learners that take the raw values (input ``mixed``) have no discretization step and get ``"mode"``.
"""

from __future__ import annotations

import numpy as np

from nbx.discretize import ModeImputer, make_discretizer
from nbx.protocol.table import Table


def impute(table: Table, train: np.ndarray, how: str | None) -> np.ndarray:
    """X with missing values filled from the training rows (``how`` = 'mode' or 'mode_after_discretize'), or
    X unchanged (None)."""
    if how is None:
        return table.X
    return ModeImputer(n_values=table.n_values).fit(table.X[train]).transform(table.X)


def impute_codes(codes: np.ndarray, train: np.ndarray, n_values: np.ndarray) -> np.ndarray:
    """Codes (n, d) with -1 replaced by each attribute's mode over the training rows' codes (an attribute
    never observed in training stays missing)."""
    as_float = np.where(codes < 0, np.nan, codes.astype(float))
    filled = ModeImputer(n_values=n_values).fit(as_float[train]).transform(as_float)
    return np.nan_to_num(filled, nan=-1).astype(codes.dtype)


def discretize_splits(
    table: Table, test: np.ndarray, discretizer: dict, how_impute: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes (n_splits, n, d), -1 for missing, and cardinalities (n_splits, d)."""
    n_splits, (n, d) = test.shape[0], table.X.shape
    codes = np.empty((n_splits, n, d), dtype=np.int16)
    n_values = np.empty((n_splits, d), dtype=np.int64)
    after = how_impute == "mode_after_discretize"
    for s in range(n_splits):
        train = ~test[s]
        X = impute(table, train, None if after else how_impute)
        disc = make_discretizer(discretizer).set_params(n_values=table.n_values).fit(X[train], table.y[train])
        codes[s] = disc.transform(X)
        n_values[s] = disc.n_values_
        if after:
            codes[s] = impute_codes(codes[s], train, n_values[s])
    return codes, n_values


def fold_codes(table: Table, test: np.ndarray, discretizer: dict, how_impute: str | None) -> dict:
    """Everything a discrete learner needs of every split (what the discretize stage stores per data set): codes and
    n_values of :func:`discretize_splits`, the labels ``y``, the plan ``test`` and ``n_classes``."""
    codes, n_values = discretize_splits(table, test, discretizer, how_impute)
    return {"codes": codes, "n_values": n_values, "y": table.y, "test": test, "n_classes": np.int64(len(table.classes))}
