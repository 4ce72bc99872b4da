"""``nbx add-data FILE --name N [--class COL]``: write (or update) the catalogue entry of your own file, then
print what to add to params.yaml.

The entry is what ``prepare`` would infer (:mod:`nbx.data.infer`): column kinds from the header and values,
the class column (``--class`` or the last), the missing markers (``?``, the empty cell and ``NA`` unless
``--missing`` says otherwise), and the row, attribute and class counts that ``prepare`` checks. A file under
data/local/ gets no sha256 (the prepare stages depend on that folder, so DVC sees every edit); any other file
gets its sha256, and after editing it you run this command again. The catalogue file (default
data/catalogue.yaml) is rewritten as YAML: comments in it are not kept.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

from nbx.cli.common import SpecError, load_params
from nbx.core.io import sha256_file, write_text
from nbx.data.catalogue import LOCAL_DIR, LOCAL_MISSING, in_local_dir, load_catalogue
from nbx.data.infer import local_entry
from nbx.data.prepare import build_table, read_columns

HEADER = "# Your own data sets (see `nbx add-data --help`); list this file under `data.catalogues` in params.yaml.\n"


def register(sub) -> None:
    p = sub.add_parser(
        "add-data",
        help="write the catalogue entry of your own CSV/ARFF file",
        description=__doc__.split("\n\n")[0].replace("``", ""),
    )
    p.add_argument(
        "file",
        help="a CSV file whose first line names the columns, or an ARFF file (a path "
        f"relative to the repository root; put it under {LOCAL_DIR}/ to skip the sha256)",
    )
    p.add_argument("--name", required=True, help="the data set's catalogue id (what params.yaml names)")
    p.add_argument("--class", dest="class_column", metavar="COL", help="class column name (default: the last)")
    p.add_argument("--missing", help=f"comma-separated missing-value markers (default: {LOCAL_MISSING!r})")
    p.add_argument("--title", help="a title for reports (default: the file name)")
    p.add_argument(
        "--catalogue", default="data/catalogue.yaml", help="the catalogue file to write (default data/catalogue.yaml)"
    )
    p.set_defaults(func=run)


def entry_for(path: Path, name: str, class_column: str | None, missing: list[str] | None, title: str | None):
    """(catalogue entry as a dict, the prepared table) for a user's file."""
    entry = local_entry(path, name, class_column, missing)
    names, columns = read_columns(entry, [path])
    table = build_table(entry, [path])
    spec = {"path": path.as_posix()}
    if not in_local_dir(path.as_posix()):
        spec["sha256"] = sha256_file(path)
    raw = {"title": title or path.name, "source": "local", "files": [spec], "format": entry.format}
    if entry.format == "csv":
        raw.update(header_lines=1, columns=columns)
    elif class_column:
        raw["class"] = class_column
    if missing is not None:
        raw["missing"] = list(missing)
    raw.update(rows=len(table.y), attributes=int(table.X.shape[1]), classes=len(table.classes))
    return raw, table, names[columns.index("y")]


def run(args) -> None:
    path = Path(args.file)
    if not path.is_file():
        raise SpecError(f"{args.file}: no such file")
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            raise SpecError(f"{args.file}: not inside this repository; copy it to {LOCAL_DIR}/ first") from None
    if not args.name.replace("-", "").replace("_", "").isalnum():
        raise SpecError(f"--name: {args.name!r} must be letters, digits, '-' or '_'")
    missing = [m.strip() for m in args.missing.split(",")] if args.missing is not None else None
    raw, table, class_name = entry_for(path, args.name, args.class_column, missing, args.title)
    catalogue = Path(args.catalogue)
    doc = read_catalogue(catalogue)
    updated = args.name in doc["datasets"]
    doc["datasets"][args.name] = raw
    text = HEADER + yaml.safe_dump(doc, sort_keys=False, width=120, allow_unicode=True)
    load_catalogue_text(catalogue, text)
    write_text(catalogue, text)
    numeric = int((~table.nominal).sum())
    print(
        f"{'updated' if updated else 'added'} {args.name!r} in {catalogue}: {raw['rows']} rows, "
        f"{raw['attributes']} attributes ({numeric} numeric, {raw['attributes'] - numeric} nominal), "
        f"{raw['classes']} classes (class column {class_name!r})"
        + (f"; columns {raw['columns']}" if "columns" in raw else "")
    )
    print(params_hint(catalogue, args.name, path))


def read_catalogue(path: Path) -> dict:
    """The catalogue file's document ({"datasets": {}} for a new file); never overwrite something else."""
    if not path.exists():
        return {"datasets": {}}
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise SpecError(
            f"{path}: not valid YAML ({getattr(exc, 'problem', exc)}); fix it or choose another --catalogue"
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("datasets"), dict):
        raise SpecError(f"{path}: not a catalogue (no top-level 'datasets' mapping); choose another --catalogue")
    return doc


def load_catalogue_text(catalogue: Path, text: str) -> None:
    """Check the new catalogue loads (with the built-in one) before writing it."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / catalogue.name
        probe.write_text(text)
        load_catalogue([probe])


def params_hint(catalogue: Path, name: str, path: Path) -> str:
    params = load_params()
    listed = params is not None and catalogue.as_posix() in [
        Path(c).as_posix() for c in (params.get("data") or {}).get("catalogues") or []
    ]
    lines = ["", "To use it in the pipeline, in params.yaml:"]
    if not listed:
        lines += ["  data:", f"    catalogues: [{catalogue.as_posix()}]      # once per catalogue file"]
    experiments = f"   # one of {', '.join(params['experiments'])}" if params is not None else ""
    lines += [
        "  experiments:",
        f"    <experiment>:{experiments}",
        "      datasets:",
        f"        {name}: {name}   # the name reports show: the catalogue id",
        "",
    ]
    if not listed:
        lines.append(
            "then `python -m nbx.pipeline.dvcgen` (the catalogue becomes a dependency of prepare) and `dvc repro`."
        )
    else:
        lines.append("then `dvc repro` (only the experiments that list it re-run).")
    lines.append(f"Without the pipeline: `nbx evaluate {path.as_posix()} --learners nb_laplace,c45`.")
    return "\n".join(lines)
