"""Readers for the archive's file formats. Each returns rows of strings and reports errors with file:line.

Formats: delimited text (comma or whitespace, optional header lines and trailing blank lines) and ARFF
(dense data section; nominal value order taken from the header). A comma-separated line with double quotes
is split as CSV (``"a, b"`` is one cell), so files written by spreadsheets and pandas read as they look.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from nbx.core.errors import NbxError


class DataFormatError(NbxError, ValueError):
    """A data file does not match what the catalogue says about it."""


@dataclass
class RawTable:
    """Rows of string cells, plus for ARFF the declared attributes (name, kind, nominal values)."""

    rows: list[list[str]]
    lines: list[int]  # 1-based line number of each row, for error messages
    declared: list[tuple[str, str, list[str]]] = field(default_factory=list)
    header: list[str] | None = None  # cells of the last header line of a delimited file


def value_order(values) -> list[str]:
    """Distinct values in order: numerically when all are numbers, else alphabetically (the order of nominal
    values and classes that no ARFF header declares)."""
    values = sorted({str(v) for v in values})
    try:
        return sorted(values, key=float)
    except ValueError:
        return values


def _read_text(path) -> str:
    """UTF-8 (a spreadsheet's byte-order mark dropped), else Latin-1 (some archive files)."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _split(line: str, delimiter: str) -> list[str]:
    if delimiter == "whitespace":
        return line.split()
    if '"' in line:  # quoted cells may hold the delimiter
        return [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter, skipinitialspace=True))]
    return [cell.strip().strip("'\"") for cell in line.split(delimiter)]


def read_delimited(
    path: str | Path, delimiter: str = ",", header_lines: int = 0, n_columns: int | None = None, name: str | None = None
) -> RawTable:
    """Read a delimited text file; blank lines are skipped. A row with the wrong number of cells is an
    error naming ``name`` (or the path) and the 1-based line number. ``header`` holds the cells of the
    last of the ``header_lines`` (the column names of a CSV header); without ``n_columns``, rows must have
    as many cells as the header."""
    label = name or str(path)
    text = _read_text(path)
    rows, lines, header = [], [], None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if lineno <= header_lines:
            header = _split(line.strip(), delimiter)
            if lineno == header_lines and n_columns is None:
                n_columns = len(header)
            continue
        if not line.strip():
            continue
        cells = _split(line.strip(), delimiter)
        if n_columns is not None and len(cells) != n_columns:
            raise DataFormatError(
                f"{label}:{lineno}: expected {n_columns} values, found {len(cells)}: {line.strip()[:80]!r}"
            )
        rows.append(cells)
        lines.append(lineno)
    if not rows:
        raise DataFormatError(f"{label}: no data rows")
    return RawTable(rows, lines, header=header)


_ARFF_ATTR = re.compile(r"@attribute\s+('[^']*'|\"[^\"]*\"|\S+)\s+(.*)$", re.IGNORECASE)


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}  # Weka's backslash escapes in a quoted value; others stand for themselves


def _arff_cells(line: str) -> list[str]:
    """Comma-separated cells with single or double quotes; in a quoted cell a backslash escapes the next character
    (``'it\\'s'``, as Weka writes a quote inside a value)."""
    cells, cur, quote = [], [], None
    chars = iter(line)
    for ch in chars:
        if quote:
            if ch == "\\":
                nxt = next(chars, "\\")
                cur.append(_ESCAPES.get(nxt, nxt))
            elif ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if quote:
        raise ValueError("unterminated quote")
    cells.append("".join(cur).strip())
    return cells


def read_arff(path: str | Path, name: str | None = None, text: str | None = None) -> RawTable:
    """Read a dense ARFF file: declared attributes (numeric or nominal) and data rows. ``text``: the file's text
    when the caller decoded it (a user's file, read only as UTF-8 or UTF-16/32: :mod:`nbx.data.encoding`)."""
    label = name or str(path)
    declared: list[tuple[str, str, list[str]]] = []
    rows: list[list[str]] = []
    lines: list[int] = []
    in_data = False
    text = _read_text(path) if text is None else text
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@attribute"):
                match = _ARFF_ATTR.match(line)
                if not match:
                    raise DataFormatError(f"{label}:{lineno}: malformed @attribute line: {line[:80]!r}")
                attr_name, spec = match.group(1).strip("'\""), match.group(2).strip()
                if spec.startswith("{"):
                    if not spec.endswith("}"):
                        raise DataFormatError(f"{label}:{lineno}: unclosed nominal value list")
                    try:
                        values = _arff_cells(spec[1:-1])
                    except ValueError as exc:
                        raise DataFormatError(f"{label}:{lineno}: attribute {attr_name!r}: {exc}") from None
                    twice = next((v for k, v in enumerate(values) if v in values[:k]), None)
                    if twice is not None:  # a second code for one value would shift every code after it
                        raise DataFormatError(
                            f"{label}:{lineno}: attribute {attr_name!r}: the value {twice!r} is declared twice; "
                            "remove one"
                        )
                    declared.append((attr_name, "nominal", values))
                elif spec.lower() in ("numeric", "real", "integer"):
                    declared.append((attr_name, "numeric", []))
                else:
                    raise DataFormatError(f"{label}:{lineno}: unsupported attribute type {spec!r}")
            elif low.startswith("@data"):
                in_data = True
            elif not low.startswith("@relation"):
                raise DataFormatError(f"{label}:{lineno}: unexpected header line {line[:80]!r}")
            continue
        if line.startswith("{"):
            raise DataFormatError(f"{label}:{lineno}: sparse ARFF rows are not supported")
        try:
            cells = _arff_cells(line)
        except ValueError as exc:
            raise DataFormatError(f"{label}:{lineno}: {exc}") from None
        if len(cells) != len(declared):
            raise DataFormatError(f"{label}:{lineno}: expected {len(declared)} values, found {len(cells)}")
        rows.append(cells)
        lines.append(lineno)
    if not declared or not in_data:
        raise DataFormatError(f"{label}: no @attribute or @data section")
    if not rows:
        raise DataFormatError(f"{label}: no data rows")
    return RawTable(rows, lines, declared)
