"""A block of a user's delimited file through pandas' C parser (:func:`read_block`), for :mod:`nbx.data.userfile`,
which reads the blocks this module declines, and finds the line of every error, with the csv module.

pandas reads some cells otherwise than the reader's definitions do, so a block is read here only when its result
is provably the csv module's (cells stripped, ``_NUMBER`` numbers, markers), and is declined (None) otherwise:

- Fields. The block has no quote but whole simple quoted fields (``"..."`` right after a delimiter or a line start
  and spaces, right before a delimiter or a line end, neither a quote nor a line end inside), which the csv
  module's strict reading and pandas' split alike; outside them each line holds (fields - 1) delimiters: counted
  line by line (vectorized) when the block has quotes or columns are skipped (pandas ignores the extra fields
  of a line then), else over the block (pandas refuses a line of more fields, so none has fewer); pandas gives
  one row per line (no blank line).
- Numbers. pandas' float parser reads every spelling of a number the reader's definition does, to the same
  double (pandas 3 rounds correctly, as Python's ``float``, and pandas 2 is asked for Python's parser;
  tests/data/test_fastcsv.py holds it to that), and refuses ``1_000``, digits of other scripts, hex and ``nan``.
  It also reads ``inf``, ``infinity`` and numbers beyond the float range as infinite, which the reader refuses:
  such a block is declined, and the csv reader names its line. pandas makes NaN of the markers it is given, but
  also of an empty or blank cell and of a number equal to a numeric marker (``-999.0`` for ``-999``): each NaN
  cell is found between its delimiters, taken out of its quotes and stripped as the csv reader takes it, and
  must be a marker.
- Nominal cells. The distinct fields as written (``str`` columns, no NA values: markers stay text; pandas'
  ``category`` would make ``1.0`` of ``1`` and ``01``, ``True`` of ``true``), factorized, each stripped as the csv
  reader's cells are, so two fields may be one value, or a marker.
"""

from __future__ import annotations

import io
import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Block:
    """The used columns of a block: numbers (NaN missing) or codes into values; the markers met."""

    numbers: dict[int, np.ndarray] = field(default_factory=dict)  # file column -> float64
    codes: dict[int, np.ndarray] = field(default_factory=dict)  # file column -> index into values[column]
    values: dict[int, list[str]] = field(default_factory=dict)  # stripped distinct cells (markers, repeats too)
    markers: Counter = field(default_factory=Counter)  # missing marker -> NaN cells of numeric columns
    rows: int = 0  # one a line


def count(data, char: bytes) -> int:
    """How many times the one byte ``char`` occurs in ``data`` (bytes or a memoryview of them): numpy's vectorized
    comparison, several times faster than ``bytes.count``, whose loop over a one-byte needle is plain C."""
    return int(np.count_nonzero(np.frombuffer(data, np.uint8) == ord(char)))


def read_block(data: bytes, delimiter: str, kinds: str, missing: set[str]) -> Block | None:
    """Columns of ``kinds`` (``n`` numeric, ``c``/``y`` nominal, ``x`` skipped) of ``data``, whole lines of UTF-8
    ending in LF, or None when the csv reader must read the block (see the module docstring)."""
    d = delimiter.encode()
    if len(d) != 1 or d in b'" \r\n' or len(kinds) < 2:
        return None
    n_rows = count(data, b"\n")
    used = [j for j, k in enumerate(kinds) if k != "x"]
    fields = None  # the delimiters outside quotes and the line ends, found when needed
    if b'"' in data or len(used) < len(kinds):
        if (fields := _fields(data, d[0], len(kinds))) is None:
            return None
    elif count(data, d) != n_rows * (len(kinds) - 1):
        return None
    import pandas as pd  # here: a command reading a small file does not wait for pandas (~0.2 s)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # a first line of more fields than names
            frame = pd.read_csv(
                io.BytesIO(data),
                sep=delimiter,
                header=None,
                names=list(range(len(kinds))),
                index_col=False,
                usecols=used if len(used) < len(kinds) else None,
                dtype={j: "float64" if kinds[j] == "n" else "str" for j in used},  # "category" reads 1.0 for 1
                na_values={j: sorted(missing) for j in used if kinds[j] == "n"},
                keep_default_na=False,
                skipinitialspace=_space_before_quote(data),  # before an opening quote; else the strip removes them
                engine="c",
                encoding="utf-8",
                **_exact_floats(pd.__version__),
            )
    except (ValueError, pd.errors.ParserWarning):  # ParserError and UnicodeDecodeError are ValueErrors
        return None
    if len(frame) != n_rows:
        return None
    out = Block(rows=n_rows)
    nan_rows = {}
    for j in used:
        column = frame[j]
        if kinds[j] == "n":
            numbers = column.to_numpy(np.float64)
            if np.isinf(numbers).any():
                return None
            out.numbers[j] = numbers
            if (rows := np.flatnonzero(np.isnan(numbers))).size:
                nan_rows[j] = rows
        else:
            codes, values = pd.factorize(column, use_na_sentinel=False)
            if any(not isinstance(v, str) for v in values):  # not text as written: a NaN
                return None
            out.codes[j] = codes
            out.values[j] = [v.strip() for v in values]
    if nan_rows:
        fields = fields or _fields(data, d[0], len(kinds))
        if fields is None or not _markers(data, fields, len(kinds), nan_rows, missing, out.markers):
            return None
    return out


def _space_before_quote(data: bytes) -> bool:
    """Whether a space precedes a double quote in ``data``: a vectorized look at the bytes before its quotes (the
    two-byte search ``b' "' in data`` walks a block of 8 MiB in about 6 ms, most of the check's time)."""
    if b'"' not in data:  # memchr
        return False
    raw = np.frombuffer(data, np.uint8)
    quotes = np.flatnonzero(raw[1:] == ord('"'))  # quote positions - 1: the byte before each
    return bool((raw[quotes] == ord(" ")).any())


def _exact_floats(version: str) -> dict:
    """pandas 3 parses floats correctly rounded (fast_float), as Python's ``float`` does, and deprecates the option;
    pandas 2's default parser misses the last bit of some numbers (0.00000000000001953), so there Python's own."""
    return {} if int(version.split(".")[0]) >= 3 else {"float_precision": "round_trip"}


def _fields(data: bytes, d: int, n_fields: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(positions of the delimiters outside quoted fields, of the line ends) of ``data`` (whole lines), or None
    unless each quote opens or closes a simple quoted field and each line holds ``n_fields`` - 1 delimiters."""
    raw = np.frombuffer(data, np.uint8)
    quotes, delimiters, ends = (np.flatnonzero(raw == c) for c in (ord('"'), d, ord("\n")))
    if quotes.size:
        if quotes.size % 2:
            return None
        opens, closes = quotes[0::2], quotes[1::2]  # no quote inside a field: they pair in order
        if (np.searchsorted(ends, closes) != np.searchsorted(ends, opens)).any():
            return None
        if not np.isin(raw[closes + 1], (d, ord("\n"))).all():
            return None
        before = opens - 1  # the byte before the field's spaces: a delimiter or a line end, or the block's start
        while (spaced := (before >= 0) & (raw[np.maximum(before, 0)] == ord(" "))).any():
            before = before - spaced
        if not ((before < 0) | np.isin(raw[np.maximum(before, 0)], (d, ord("\n")))).all():
            return None
        # the delimiters inside each field, delimiters[lo:hi], marked by a running sum of +1 at lo and -1 at hi
        n = len(delimiters) + 1
        starts = np.bincount(np.searchsorted(delimiters, opens), minlength=n)
        inside = np.cumsum(starts - np.bincount(np.searchsorted(delimiters, closes), minlength=n))[:-1] > 0
        delimiters = delimiters[~inside]
    if len(delimiters) != len(ends) * (n_fields - 1):
        return None
    if n_fields > 1 and len(ends):  # each line's first and last delimiter lie between its start and its end
        per_line = delimiters.reshape(len(ends), n_fields - 1)
        if (per_line[:, -1] > ends).any() or (per_line[1:, 0] < ends[:-1]).any():
            return None
    return delimiters, ends


def _markers(data: bytes, fields, n_fields: int, nan_rows: dict[int, np.ndarray], missing: set[str], found) -> bool:
    """Count the marker of every NaN cell, its field found between its delimiters (a row is a line here, and each
    holds ``n_fields`` - 1 of them), quotes and spaces taken off as the csv reader does; False when a NaN cell
    is not a marker (an empty cell when '' is none, -999.0 for -999)."""
    delimiters, ends = fields
    starts = np.concatenate([[-1], ends[:-1]]) + 1
    met: Counter = Counter()
    cells: dict[bytes, str | None] = {}  # field as written -> its marker
    for j, rows in nan_rows.items():
        at = rows * (n_fields - 1) + j  # the delimiter after the field
        left = starts[rows] if j == 0 else delimiters[at - 1] + 1
        right = ends[rows] if j == n_fields - 1 else delimiters[at]
        for a, b in zip(left.tolist(), right.tolist()):
            field = data[a:b]
            if field not in cells:
                text = field[field.index(b'"') + 1 : -1] if b'"' in field else field  # spaces, then "..."
                try:
                    cell = text.decode("utf-8").strip()
                except UnicodeDecodeError:
                    return False
                cells[field] = cell if cell in missing else None
            if cells[field] is None:
                return False
            met[cells[field]] += 1
    found.update(met)
    return True
