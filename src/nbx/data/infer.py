"""Column kinds of a file, inferred from its header and values (``prepare`` for an entry derived from a user's
file; the user's files themselves are read by :mod:`nbx.data.userfile`, which infers them the same way).

A column is numeric (``n``) when every value that is not a missing marker reads as a number, else nominal
(``c``); the class column (``y``) is the one named by ``class`` in the header, else the last one, and is always
nominal. This is what Weka's CSV loader does; write ``c`` in ``columns`` for a nominal attribute coded by
numbers (e.g. 1 = red, 2 = green).
"""

from __future__ import annotations

import numpy as np

from nbx.data.parsers import DataFormatError


def class_index(names: list[str], class_column: str | None, where: str) -> int:
    """Position of the class column: ``class_column`` by name, else the last column."""
    if class_column is None:
        return len(names) - 1
    if class_column not in names:
        from nbx.core.errors import did_you_mean

        raise DataFormatError(f"{where}: no column {class_column!r} for the class{did_you_mean(class_column, names)}")
    return names.index(class_column)


def is_numeric(values, missing) -> bool:
    """Whether every value that is not a missing marker reads as a number (true for a column of missing values
    only: it has no nominal values to list)."""
    present = np.asarray([v for v in values if v not in missing], dtype=object)
    if present.size == 0:
        return True
    try:
        present.astype(float)
    except ValueError:
        return False
    return True


def infer_columns(names: list[str], rows: list[list[str]], missing, class_column: str | None, where: str) -> str:
    """One letter per column (``n`` / ``c`` / ``y``) for rows of string cells under a header ``names``."""
    y = class_index(names, class_column, where)
    cells = np.array(rows, dtype=object).reshape(len(rows), len(names))
    missing = set(missing)
    return "".join("y" if j == y else "n" if is_numeric(cells[:, j], missing) else "c" for j in range(len(names)))
