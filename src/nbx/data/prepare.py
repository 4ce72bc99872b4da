"""Typed tables: one per data set, nominal vs numeric, missing kept as missing, checked against the catalogue.

A prepared table holds ``X`` (float, shape (n, d)): numeric values as they are, nominal values as codes
0..V-1 into the attribute's ``values``; NaN marks a missing value. ``y`` holds class codes into ``classes``.
Nominal values are ordered as an ARFF header declares them, else numerically when all values are numbers,
else alphabetically; classes likewise. Attribute names: the catalogue's ``names``, else the ARFF's declared
names or a CSV header's cells, else a1, a2, ...
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from nbx.data.catalogue import Entry
from nbx.data.infer import class_index, infer_columns
from nbx.data.parsers import DataFormatError, RawTable, read_arff, read_delimited, value_order
from nbx.data.synthetic import generate
from nbx.data.userfile import Options, read_user_file
from nbx.protocol.table import Table


def _read_files(entry: Entry, paths: list[Path]) -> RawTable:
    rows, lines, declared, origin, header = [], [], [], [], None
    for spec, path in zip(entry.files, paths):
        label = f"{entry.name}: {spec.path}"
        if entry.format == "arff":
            part = read_arff(path, name=label)
            if declared and [d[:2] for d in declared] != [d[:2] for d in part.declared]:
                raise DataFormatError(f"{label}: attributes differ from the first file")
            declared = part.declared
        else:
            delim = "," if entry.format == "csv" else "whitespace"
            part = read_delimited(path, delim, entry.header_lines, len(entry.columns) or None, name=label)
            if header is not None and not entry.columns and part.header != header:
                raise DataFormatError(f"{label}: header differs from the first file's")
            header = part.header
        rows += part.rows
        lines += part.lines
        origin += [label] * len(part.rows)
    table = RawTable(rows, lines, declared, header)
    table.origin = origin  # type: ignore[attr-defined]
    return table


def columns_for(entry: Entry, raw: RawTable) -> str:
    """The entry's column letters: given, or inferred from an ARFF header or a local file's CSV header."""
    label = f"{entry.name}: {entry.files[0].path}"
    if entry.format != "arff":
        if entry.columns:
            return entry.columns
        if not raw.header:
            raise DataFormatError(f"{label}: no header line to infer 'columns' from (give columns or header_lines)")
        return infer_columns(raw.header, raw.rows, entry.missing, entry.class_column, label)
    inferred = "".join("n" if kind == "numeric" else "c" for _, kind, _ in raw.declared)
    y = class_index([d[0] for d in raw.declared], entry.class_column, label)  # ARFF convention: class last
    inferred = inferred[:y] + "y" + inferred[y + 1 :]
    if entry.columns and len(entry.columns) != len(inferred):
        raise DataFormatError(
            f"{entry.name}: catalogue columns {entry.columns!r} do not match the ARFF header "
            f"({len(inferred)} attributes)"
        )
    return entry.columns or inferred


def read_columns(entry: Entry, paths: list[Path]) -> tuple[list[str], str]:
    """(the files' column names, their letters) as :func:`build_table` reads them: names from an ARFF or CSV
    header (a1, a2, ... without one), letters given or inferred (``nbx add-data`` writes them)."""
    raw = _read_files(entry, paths)
    columns = columns_for(entry, raw)
    names = [d[0] for d in raw.declared] if raw.declared else raw.header or []
    return [n or f"a{j + 1}" for j, n in enumerate(names + [""] * (len(columns) - len(names)))], columns


def build_table(entry: Entry, paths: list[Path]) -> Table:
    """Parse an entry's files (or run its generator), apply its derivation, and check the counts."""
    if entry.parts:
        table = _join(entry, paths)
    elif entry.source == "generator":
        X, y, attributes, classes = generate(entry.generator, entry.name)
        table = Table(entry.name, X, np.asarray(y, np.int64), attributes, classes)
    elif entry.source == "local" and entry.class_map is None and entry.class_bins is None and "s" not in entry.columns:
        table = _read_local(entry, paths)
    else:
        table = _parse(entry, paths)
    check_counts(entry, table)
    return table


def _read_local(entry: Entry, paths: list[Path]) -> Table:
    """A user's file(s) through :func:`nbx.data.userfile.read_user_file`, as ``nbx add-data`` read them: the
    entry's delimiter (else sniffed), header line, class column, missing markers and column letters (else
    inferred); several files are stacked as :func:`_join` stacks parts."""
    if entry.format == "whitespace" or entry.header_lines > 1:
        raise DataFormatError(f"{entry.name}: a local file is CSV or ARFF with at most one header line")
    options = Options(entry.class_column, entry.delimiter, entry.header_lines == 1, entry.missing)
    tables = []
    for spec, path in zip(entry.files, paths):
        label = f"{entry.name}: {spec.path}"
        read = read_user_file(path, options, kinds=entry.columns or None, name=entry.name, label=label)
        if tables and [a["name"] for a in read.table.attributes] != [a["name"] for a in tables[0].attributes]:
            raise DataFormatError(f"{label}: header differs from the first file's")
        tables.append(read.table)
    table = tables[0] if len(tables) == 1 else _stack(entry.name, tables)
    if entry.names:
        if len(entry.names) != len(table.attributes):
            raise DataFormatError(f"{entry.name}: {len(entry.names)} names for {len(table.attributes)} attributes")
        for attr, name in zip(table.attributes, entry.names):
            attr["name"] = str(name)
    return table


def _join(entry: Entry, paths: list[Path]) -> Table:
    """Stack the parts' rows (:func:`_stack`)."""
    tables, start = [], 0
    for part in entry.parts:
        tables.append(build_table(part, paths[start : start + len(part.files)]))
        start += len(part.files)
    return _stack(entry.name, tables)


def _stack(name: str, tables: list[Table]) -> Table:
    """One table of the rows of ``tables``; nominal codes and classes are re-mapped by their labels."""
    first = tables[0]
    attributes = [
        dict(a, values=value_order(v for t in tables for v in t.attributes[j]["values"]))
        if a["kind"] == "nominal"
        else dict(a)
        for j, a in enumerate(first.attributes)
    ]
    classes = value_order(c for t in tables for c in t.classes)
    blocks, ys = [], []
    for t in tables:
        if [a["kind"] for a in t.attributes] != [a["kind"] for a in attributes]:
            raise DataFormatError(f"{name}: part {t.name!r} has different attribute kinds")
        X = t.X.copy()
        for j, a in enumerate(attributes):
            if a["kind"] == "nominal":
                remap = np.array([a["values"].index(v) for v in t.attributes[j]["values"]], dtype=float)
                known = ~np.isnan(X[:, j])
                X[known, j] = remap[X[known, j].astype(int)]
        blocks.append(X)
        ys.append(np.array([classes.index(c) for c in t.classes])[t.y])
    return Table(name, np.vstack(blocks), np.concatenate(ys).astype(np.int64), attributes, classes)


def _parse(entry: Entry, paths: list[Path]) -> Table:
    raw = _read_files(entry, paths)
    columns = columns_for(entry, raw)
    missing = set(entry.missing)
    cells = np.array(raw.rows, dtype=object)
    y_col = columns.index("y")
    labels = cells[:, y_col]
    where = [f"{o}:{ln}" for o, ln in zip(raw.origin, raw.lines)]  # type: ignore[attr-defined]

    attributes: list[dict] = []
    blocks: list[np.ndarray] = []
    for j, kind in enumerate(columns):
        col = cells[:, j]
        is_missing = np.array([v in missing for v in col])
        if kind in "xy":
            continue
        if kind == "n":
            values = np.full(len(col), np.nan)
            for i in np.flatnonzero(~is_missing):
                try:
                    values[i] = float(col[i])
                except ValueError:
                    raise DataFormatError(f"{where[i]}: column {j + 1}: {col[i]!r} is not a number") from None
            blocks.append(values[:, None])
            attributes.append({"kind": "numeric", "values": []})
        elif kind == "c":
            declared = raw.declared[j][2] if raw.declared else None
            order = declared or value_order(col[~is_missing])
            lookup = {v: k for k, v in enumerate(order)}
            codes = np.full(len(col), np.nan)
            for i in np.flatnonzero(~is_missing):
                if col[i] not in lookup:
                    raise DataFormatError(f"{where[i]}: column {j + 1}: {col[i]!r} is not a declared value")
                codes[i] = lookup[col[i]]
            blocks.append(codes[:, None])
            attributes.append({"kind": "nominal", "values": list(order)})
        else:  # "s": one nominal attribute per character
            strings = [str(s).strip() for s in col]
            width = len(strings[0])
            bad = [i for i, s in enumerate(strings) if len(s) != width]
            if bad:
                raise DataFormatError(
                    f"{where[bad[0]]}: column {j + 1}: sequence length {len(strings[bad[0]])}, expected {width}"
                )
            chars = np.array([list(s) for s in strings])
            order = [str(c) for c in value_order(chars.ravel())]
            codes = np.searchsorted(np.array(order), chars).astype(float)
            blocks.append(codes)
            attributes += [{"kind": "nominal", "values": list(order)} for _ in range(width)]
    names = entry.names or [f"a{k + 1}" for k in range(len(attributes))]
    if raw.declared and not entry.names:
        names = [raw.declared[j][0] for j, kind in enumerate(columns) if kind not in "xy"]
    elif raw.header and not entry.names and "s" not in columns:
        names = [raw.header[j] or f"a{j + 1}" for j, kind in enumerate(columns) if kind not in "xy"]
    if len(names) != len(attributes):
        raise DataFormatError(f"{entry.name}: {len(names)} names for {len(attributes)} attributes")
    for attr, name in zip(attributes, names):
        attr["name"] = str(name)
    X = np.hstack(blocks) if blocks else np.empty((len(cells), 0))

    keep = np.array([lab not in missing for lab in labels])
    if entry.class_map is not None:
        keep &= np.isin(labels, list(entry.class_map))
        labels = np.array([entry.class_map.get(lab, lab) for lab in labels], dtype=object)
    X, labels = X[keep], labels[keep]
    if entry.class_bins is not None:
        try:
            target = labels.astype(float)
        except ValueError:
            raise DataFormatError(f"{entry.name}: class_bins needs a numeric class column") from None
        y = np.digitize(target, entry.class_bins)
        classes = [str(k) for k in range(len(entry.class_bins) + 1)]
    else:
        # A class_map relabels the classes, so the ARFF's declared class values no longer apply.
        declared = raw.declared[y_col][2] if raw.declared and entry.class_map is None else None
        classes = declared or value_order(labels)
        lookup = {c: k for k, c in enumerate(classes)}
        y = np.array([lookup[c] for c in labels])
        present = np.flatnonzero(np.bincount(y))  # np.unique would import numpy.ma (~20 ms)
        if declared and len(present) < len(classes):  # ARFF may declare unused labels: drop them
            classes = [classes[k] for k in present]
            y = np.searchsorted(present, y)
    return Table(entry.name, X, y.astype(np.int64), attributes, [str(c) for c in classes])


def check_counts(entry: Entry, table: Table) -> None:
    """Fail loudly when rows, attributes or classes differ from the catalogue."""
    found = {
        "rows": table.X.shape[0],
        "attributes": table.X.shape[1],
        "classes": np.count_nonzero(np.bincount(table.y)),
    }
    for key, value in found.items():
        expected = getattr(entry, key)
        if expected is not None and expected != value:
            hint = (
                f"; after editing {entry.files[0].path}, re-run `nbx add-data {entry.files[0].path} --name "
                f"{entry.name} --replace` to update the entry"
                if entry.source == "local" and entry.files
                else ""
            )
            raise DataFormatError(
                f"data set {entry.name!r}: catalogue says {expected} {key}, the data have {value}{hint}"
            )
