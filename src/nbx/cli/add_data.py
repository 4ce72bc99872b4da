"""``nbx add-data FILE --name N [--class COL]``: write the catalogue entry of your own file, then print what to add
to params.yaml.

The entry records how :mod:`nbx.data.userfile` read the file, which ``prepare`` then reads the same way: the
delimiter (when not a comma), whether the first line is a header, the column kinds, the class column (``--class``
or the last), the missing markers (``?``, the empty cell and ``NA`` unless ``--missing`` says otherwise), and the
row, attribute and class counts that ``prepare`` checks. A name the catalogues already have (the archive's
``iris``, or an earlier entry of yours) is refused unless ``--replace``: every experiment that lists the name
would read your file instead. The file and the catalogue live under data/local/: the prepare stages
depend on that folder by content, so DVC sees every edit of either (a file elsewhere is refused: copy it there).
The catalogue file (default data/local/catalogue.yaml) is rewritten as YAML: comments in it are not kept.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

from nbx.cli.common import (
    SpecError,
    add_file_options,
    check_output,
    file_options,
    load_params,
    memory_guard,
    note,
)
from nbx.core.io import write_text
from nbx.core.names import NAME
from nbx.data.catalogue import CatalogueError, load_catalogue
from nbx.data.local import LOCAL_DIR, in_local_dir
from nbx.data.userfile import check_regular, read_user_file
from nbx.data.yaml_io import load_yaml, read_yaml_text, yaml_error_at

HEADER = "# Your own data sets (see `nbx add-data --help`); list this file under `data.catalogues` in params.yaml.\n"


def register(sub) -> None:
    p = sub.add_parser(
        "add-data",
        help="write the catalogue entry of your own CSV/ARFF file",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument(
        "file",
        help="a CSV file (delimiter and header line sniffed) or an ARFF file, under "
        f"{LOCAL_DIR}/ (a path relative to the repository root)",
    )
    p.add_argument("--name", required=True, help="the data set's catalogue id (what params.yaml names)")
    add_file_options(p)
    p.add_argument("--replace", action="store_true", help="replace an entry of the same name (see above)")
    p.add_argument("--title", help="a title for reports (default: the file name)")
    p.add_argument(
        "--catalogue",
        default="data/local/catalogue.yaml",
        help="the catalogue file to write, under data/local/ (default data/local/catalogue.yaml)",
    )
    p.set_defaults(func=run)


def entry_for(path: Path, name: str, options, title: str | None):
    """(catalogue entry as a dict, the file as read) for a user's file."""
    with memory_guard(str(path)):
        read = read_user_file(path, options, name=name)
    note(read.note(path))
    spec = {"path": path.as_posix()}
    raw = {"title": title or path.name, "source": "local", "files": [spec], "format": "csv"}
    if read.delimiter is None:
        raw["format"] = "arff"
        if options.class_column:
            raw["class"] = options.class_column
    else:
        raw["header_lines"] = int(read.header)
        if read.delimiter != ",":
            raw["delimiter"] = read.delimiter
        raw["columns"] = read.kinds
    if options.missing is not None:
        raw["missing"] = list(options.missing)
    table = read.table
    raw.update(rows=len(table.y), attributes=int(table.X.shape[1]), classes=len(table.classes))
    return raw, read


def shadowed(catalogue: Path, name: str) -> str | None:
    """What an entry ``name`` would replace: the entry it shadows and the experiments that list it, or None."""
    params = load_params()
    files = [Path(c) for c in ((params or {}).get("data") or {}).get("catalogues") or []]
    files = [f for f in files if f.exists() and f.resolve() != catalogue.resolve()]
    known = load_catalogue(files + ([catalogue] if catalogue.exists() else []))
    if name not in known:
        return None
    entry = known[name]
    experiments = params["experiments"] if params is not None else {}
    users = [exp for exp, block in experiments.items() if name in _dataset_ids(block)]
    what = f"the {entry.source} data set {name!r} ({entry.title or name})"
    return what + (f", which experiments {', '.join(users)} list" if users else ", which no experiment lists yet")


def run(args) -> None:
    path = Path(args.file)
    check_regular(path, args.file)  # a missing file, a directory, a FIFO or a device: one line
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            raise SpecError(f"{args.file}: not inside this repository; copy it to {LOCAL_DIR}/ first") from None
    if not in_local_dir(path.as_posix()):
        raise SpecError(
            f"{args.file}: not under {LOCAL_DIR}/; copy it there first (the pipeline tracks that folder by content)"
        )
    if not NAME.fullmatch(args.name):
        raise SpecError(f"--name: {args.name!r} must be letters, digits, '-' or '_', starting with a letter or digit")
    catalogue = Path(args.catalogue)
    if not in_local_dir(catalogue.as_posix()):
        raise SpecError(f"--catalogue: {args.catalogue} must be a file under {LOCAL_DIR}/")
    check_output(args.catalogue, "--catalogue", {"data file": args.file})
    doc = read_catalogue(catalogue)
    replaced = shadowed(catalogue, args.name)
    if replaced and not args.replace:
        raise SpecError(
            f"--name: {args.name!r} is taken: your file would replace {replaced}; choose another name, or add "
            "--replace to replace it"
        )
    raw, read = entry_for(path, args.name, file_options(args), args.title)
    doc["datasets"][args.name] = raw
    text = HEADER + yaml.safe_dump(doc, sort_keys=False, width=120, allow_unicode=True)
    load_catalogue_text(catalogue, text)
    write_text(catalogue, text)
    numeric = int((~read.table.nominal).sum())
    print(
        f"{'replaced' if replaced else 'added'} {args.name!r} in {catalogue}: {raw['rows']} rows, "
        f"{raw['attributes']} attributes ({numeric} numeric, {raw['attributes'] - numeric} nominal), "
        f"{raw['classes']} classes (class column {read.class_column!r})"
        + (f"; columns {raw['columns']}" if "columns" in raw else "")
        + (f"; it replaces {replaced}" if replaced else "")
    )
    print(params_hint(catalogue, args.name, path))


def _dataset_ids(block) -> list[str]:
    """The catalogue ids an experiment block of params.yaml lists (``datasets``: a list, or paper name -> id)."""
    datasets = block.get("datasets") if isinstance(block, dict) else None
    return [str(d) for d in (datasets.values() if isinstance(datasets, dict) else datasets or [])]


def read_catalogue(path: Path) -> dict:
    """The catalogue file's document ({"datasets": {}} for a new file); never overwrite something else."""
    if not path.exists():
        return {"datasets": {}}
    try:
        doc, _ = load_yaml(read_yaml_text(path))  # refuses a repeated key, which rewriting the file would drop
    except yaml.YAMLError as exc:
        raise SpecError(f"{yaml_error_at(path, exc)}; fix it or choose another --catalogue") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("datasets"), dict):
        raise SpecError(f"{path}: not a catalogue (no top-level 'datasets' mapping); choose another --catalogue")
    return doc


def load_catalogue_text(catalogue: Path, text: str) -> None:
    """Check the new catalogue loads (with the built-in one) before writing it."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / catalogue.name
        probe.write_text(text)
        try:
            load_catalogue([probe])
        except CatalogueError as exc:  # name the user's file, not the probe
            raise SpecError(str(exc).replace(str(probe), str(catalogue))) from None


def params_hint(catalogue: Path, name: str, path: Path) -> str:
    params = load_params()
    listed = params is not None and catalogue.as_posix() in [
        Path(c).as_posix() for c in (params.get("data") or {}).get("catalogues") or []
    ]
    lines = ["", "To use it in the pipeline, in params.yaml:"]
    if not listed:
        lines += ["  data:", "    catalogues:   # once per catalogue file", f"    - {catalogue.as_posix()}"]
    experiments = f"   # one of {', '.join(params['experiments'])}" if params is not None else ""
    lines += [
        "  experiments:",
        f"    <experiment>:{experiments}",
        "      datasets:",
        f"        {name}: {name}   # the name reports show: the catalogue id",
        "",
    ]
    lines.append("then `dvc repro` (only the experiments that list it re-run).")
    lines.append(f"Without the pipeline: `nbx evaluate {path.as_posix()} --learners nb_laplace,c45`.")
    return "\n".join(lines)
