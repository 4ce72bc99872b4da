"""The dialect of a delimited text file, sniffed from its first lines (:func:`sniff`; the rules are the module
docstring's of :mod:`nbx.data.userfile`, the one reader of a user's file), and what counts as a number in a cell
(:data:`NUMBER`, numpy's reader's spelling)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


@dataclass
class Dialect:
    delimiter: str
    header: bool
    delimiter_sure: bool  # no other candidate splits the sampled lines as consistently
    header_sure: bool  # a column is numeric below its first cell and that cell is not a number (or the reverse)
    header_why: str | None = None  # said in the note when the header is not sure


def split_cells(lines: list[str], delimiter: str) -> list[list[str]]:
    return [[c.strip() for c in row] for row in csv.reader(lines, delimiter=delimiter, skipinitialspace=True)]


# A number in a cell, as numpy's reader spells one: ASCII digits with an optional sign, point and exponent, or
# inf / infinity / nan (refused later as not finite), spaces around. Python's float() also reads 1_000, Unicode
# digits and more: those cells are text here, so a column reads the same in every block.
NUMBER = re.compile(r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)\s*", re.ASCII | re.IGNORECASE)


def is_number(text: str) -> bool:
    return NUMBER.fullmatch(text) is not None


def sniff(lines: list[str], missing, delimiter: str | None = None, header: bool | None = None) -> Dialect:
    """The dialect of a file from its first non-blank ``lines`` (the rules: :mod:`nbx.data.userfile`); ``delimiter`` and
    ``header`` given are taken as they are. Raises ValueError when no candidate delimiter fits."""
    lines = [line for line in lines if line.strip()]
    sure_delim = delimiter is not None
    if delimiter is None:
        fits = {}
        for d in DELIMITERS:
            counts = Counter(len(row) for row in csv.reader(lines, delimiter=d, skipinitialspace=True))
            fields, share = counts.most_common(1)[0]
            if fields > 1:
                fits[d] = (share / sum(counts.values()), fields)  # of records: a quoted field may hold line ends
        if not fits:
            *others, last = DELIMITERS.values()
            raise ValueError(f"no {', '.join(others)} or {last} splits its lines into columns")
        ranked = sorted(fits, key=lambda d: fits[d], reverse=True)
        delimiter = ranked[0]
        sure_delim = fits[delimiter][0] == 1.0 and all(fits[d][0] < 1.0 for d in ranked[1:])
    if header is not None:
        return Dialect(delimiter, header, sure_delim, True)
    rows = split_cells(lines, delimiter)
    first, rest = rows[0], rows[1:]
    numeric_below = [
        j
        for j in range(len(first))
        if any(len(r) > j and r[j] not in missing for r in rest)
        and all(is_number(r[j]) for r in rest if len(r) > j and r[j] not in missing)
    ]
    if numeric_below:
        if any(not is_number(first[j]) for j in numeric_below):
            return Dialect(delimiter, True, sure_delim, True)
        if numbered := _column_numbers(first, rest, numeric_below):
            return Dialect(delimiter, True, sure_delim, False, f"it numbers the columns {numbered}")
        return Dialect(delimiter, False, sure_delim, True)
    # Nominal columns only: a header's names do not recur as values below them.
    header = all(all(r[j] != first[j] for r in rest if len(r) > j) for j in range(len(first)))
    return Dialect(delimiter, header, sure_delim, False)


def _column_numbers(first: list[str], rest: list[list[str]], numeric: list[int]) -> str | None:
    """``0..3`` when the first line numbers the columns (``pandas.DataFrame(X).to_csv(index=False)`` writes
    ``0,1,2,3,label``; R's numbered columns start at 1): consecutive integers from 0 or 1 in at least two
    columns, a last non-numeric name allowed, and not all of them values of their columns below (a data row
    of a 0/1 table would be)."""
    names = first[:-1] if first and not is_number(first[-1]) else first
    for start in (0, 1):
        if len(names) >= 2 and names == [str(start + j) for j in range(len(names))]:
            below = [{r[j] for r in rest if len(r) > j} for j in range(len(names))]
            if all(
                j in numeric and any(is_number(v) and float(v) == start + j for v in below[j])
                for j in range(len(names))
            ):
                return None
            return f"{start}..{start + len(names) - 1}"
    return None
