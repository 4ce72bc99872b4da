"""The data-set catalogue: what each data set is, where its files live and what they must contain.

The built-in catalogue is ``catalogue.yaml`` next to this module. A user adds data sets without code
changes by passing more catalogue files (``params.yaml: data.catalogues``); their entries are merged
over the built-in ones. Entry fields:

``files``        list of ``{path, sha256}``; ``path`` is relative to the UCI archive root (or, for a
                 user's own file, ``local: true``, implied by ``source: local``, and a path relative to the
                 repository, which must lie under ``data/local/``). Files are concatenated in order (e.g. train
                 + test). A local file needs no sha256 (the prepare stages depend on that folder, so DVC sees every
                 edit); any other file does (``nbx add-data`` writes it; re-run it after editing the file).
``origin``       optional per file: ``{path, compression}`` when the archive stores it differently (``Z``).
``format``       ``csv`` (comma), ``whitespace`` or ``arff``;  ``header_lines`` lines skipped per file. Unless
                 ``names`` is given, the attribute names are the cells of the last header line (a CSV header).
``delimiter``    a local CSV's column separator (``;``, a tab, ``|``) when it is not a comma; a local entry without
                 one has it sniffed (:mod:`nbx.data.userfile`).
``columns``      one letter per file column: ``n`` numeric, ``c`` nominal, ``y`` class, ``x`` ignored,
                 ``s`` a string whose characters are separate nominal attributes (DNA sequences). May be
                 omitted for a local file with a header: then a column is ``n`` when every value that is not
                 missing is a number, else ``c`` (:mod:`nbx.data.infer`, as ``nbx add-data`` writes it).
``class``        the class column's header name (ARFF: attribute name) when ``columns`` is inferred;
                 default the last column.
``missing``      the missing-value marker(s); default ``?``, and for ``source: local`` also the empty cell
                 and ``NA`` (what spreadsheets, pandas and R write).
``rows`` / ``attributes`` / ``classes``  expected counts after derivation; checked by ``prepare``.
``source``       ``uci``, ``mirror-only`` (stand-in file found only in the offline mirror), ``generator``,
                 ``local`` or ``unavailable`` (with ``reason``).
``base``         derive from another entry, inheriting its files and format; then
``class_map`` (old label -> new label; rows with unmapped labels are dropped), ``class_bins`` (right-open bin
                 edges for a numeric class column, labels = bin index) and an overriding ``columns`` string
                 (e.g. an ``x`` drops one attribute).
``join``         a list of entries whose rows are stacked (same attributes, matched by value label), for a data
                 set split over files of different formats (Ting & Zheng's solar flare: ARFF + text).
``generator``    ``{name, rows, seed, ...}`` for synthetic domains (see :mod:`nbx.data.synthetic`).
``names``        optional attribute names (one per attribute, in order).

Every mapping of a catalogue file is closed (:data:`FIELDS`, :data:`FILE_FIELDS`, :data:`ORIGIN_FIELDS`, a
generator's arguments; ``papers`` and ``notes`` are for readers): :func:`check_document` stops at an unknown key
(``cat.yaml:12: key 'titel' is not a known key of datasets.mine; did you mean title?``) or a value of the wrong
type or range, with the file and line of the key, and the loader refuses a key written twice.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from nbx.core.errors import NbxError
from nbx.core.names import RULE, is_name
from nbx.data.local import LOCAL_DIR, in_local_dir
from nbx.data.synthetic import GENERATORS
from nbx.data.yaml_io import key_lines, load_yaml, located, read_yaml_text, unknown_key, yaml_error_at

BUILTIN = Path(__file__).with_name("catalogue.yaml")
SOURCES = ("uci", "mirror-only", "generator", "local", "unavailable")
FORMATS = ("csv", "whitespace", "arff")
COMPRESSIONS = ("Z",)  # how the archive stores a file (nbx.data.fetch unpacks it)


# ------------------------------------------------------------------------------------------------ the schema
# Every mapping of a catalogue file is closed: the keys below, each with what its value must be (a test and
# the words for it), checked with the key's line before any entry is built.
def _scalar(v) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool)


def _ints(low: int):
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low), f"an integer >= {low}"


def _list_of(test, words: str):
    return (lambda v: isinstance(v, list) and all(map(test, v))), f"a list of {words}"


def _one_of(options):
    return (lambda v: v in options), f"one of {', '.join(options)}"


_TEXT = (lambda v: isinstance(v, str)), "a string"
_NAMES = _list_of(_scalar, "names")
_MARKERS = _list_of(_scalar, "markers")
_MAPPING = (lambda v: isinstance(v, dict)), "a mapping"
FIELDS = {  # an entry's keys (see the module docstring)
    "title": _TEXT,
    "files": ((lambda v: isinstance(v, list) and len(v) > 0), "a non-empty list of {path, sha256} mappings"),
    "format": _one_of(FORMATS),
    "header_lines": _ints(0),
    "columns": _TEXT,
    "missing": ((lambda v: _scalar(v) or _MARKERS[0](v)), "a marker or a list of markers"),
    "rows": _ints(1),
    "attributes": _ints(1),
    "classes": _ints(1),
    "source": _one_of(SOURCES),
    "reason": _TEXT,
    "base": _TEXT,
    "join": _list_of(lambda v: isinstance(v, str), "entry names"),
    "class_map": ((lambda v: isinstance(v, dict) and all(map(_scalar, [*v, *v.values()]))), "a mapping label -> label"),
    "class_bins": _list_of(lambda v: _scalar(v) and not isinstance(v, str), "numbers"),
    "generator": _MAPPING,
    "names": _NAMES,
    "notes": _TEXT,
    "papers": _list_of(lambda v: isinstance(v, str), "experiment names"),
    "class": (_scalar, "a column name"),
    "delimiter": ((lambda v: isinstance(v, str) and len(v) == 1), "one character"),
}
FILE_FIELDS = {
    "path": _TEXT,
    "sha256": (
        (lambda v: v is None or (isinstance(v, str) and len(v) == 64 and not v.strip("0123456789abcdefABCDEF"))),
        "64 hexadecimal digits",
    ),
    "local": ((lambda v: isinstance(v, bool)), "true or false"),
    "origin": _MAPPING,
}
ORIGIN_FIELDS = {"path": _TEXT, "compression": _one_of(COMPRESSIONS)}
INHERITED = (
    "files",
    "format",
    "header_lines",
    "columns",
    "missing",
    "source",
    "names",
    "generator",
    "class_column",
    "delimiter",
)
MISSING = ["?"]
LOCAL_MISSING = ["?", "", "NA"]  # a local file's default: also what spreadsheets, pandas and R write


class CatalogueError(NbxError, ValueError):
    """An entry is malformed or a data set name is unknown."""


@dataclass
class FileSpec:
    path: str
    sha256: str | None  # None only for a local file under data/local/
    local: bool = False
    origin_path: str | None = None
    compression: str | None = None


@dataclass
class Entry:
    name: str
    source: str
    title: str = ""
    files: list[FileSpec] = field(default_factory=list)
    format: str = "csv"
    header_lines: int = 0
    delimiter: str | None = None  # a local CSV's separator; None: a comma (archive), sniffed (local)
    columns: str = ""
    class_column: str | None = None
    missing: list[str] = field(default_factory=lambda: list(MISSING))
    rows: int | None = None
    attributes: int | None = None
    classes: int | None = None
    reason: str = ""
    class_map: dict[str, str] | None = None
    class_bins: list[float] | None = None
    generator: dict | None = None
    names: list[str] | None = None
    notes: str = ""
    parts: list[Entry] = field(default_factory=list)

    @property
    def available(self) -> bool:
        return self.source != "unavailable"


def _file_spec(name: str, raw, source: str) -> FileSpec:
    if not isinstance(raw, dict) or "path" not in raw:
        raise CatalogueError(f"data set {name!r}: each file needs 'path' and 'sha256', got {raw!r}")
    local, path = bool(raw.get("local", source == "local")), str(raw["path"])
    if local and not in_local_dir(path):
        raise CatalogueError(
            f"data set {name!r}: local file {path} must lie under {LOCAL_DIR}/ (copy it there: the pipeline "
            f"tracks that folder by content, so an edit of the file reruns what reads it)"
        )
    if raw.get("sha256") is None and not local:
        raise CatalogueError(f"data set {name!r}: file {path} needs a 'sha256'")
    origin = raw.get("origin") or {}
    sha256 = str(raw["sha256"]).lower() if raw.get("sha256") is not None else None
    return FileSpec(
        path=path, sha256=sha256, local=local, origin_path=origin.get("path"), compression=origin.get("compression")
    )


def _build_join(name: str, raw: dict, built: dict[str, Entry]) -> Entry:
    parts = [built[p] for p in raw["join"]]
    source = "mirror-only" if any(p.source == "mirror-only" for p in parts) else "uci"
    entry = Entry(
        name=name,
        source=source,
        title=str(raw.get("title", name)),
        parts=parts,
        files=[f for p in parts for f in p.files],
        notes=str(raw.get("notes", "")),
    )
    for key in ("rows", "attributes", "classes"):
        if raw.get(key) is not None:
            setattr(entry, key, int(raw[key]))
    return entry


def _build(name: str, raw: dict, entries: dict, out_entries: dict[str, Entry]) -> Entry:
    merged = dict(raw)
    if "base" in raw:
        base_name = raw["base"]
        if base_name not in entries:
            raise CatalogueError(f"data set {name!r}: base {base_name!r} is not in the catalogue")
        base = entries[base_name]
        for key in INHERITED:
            merged.setdefault(key, base[key])
    source = merged.get("source", "uci")
    if source not in SOURCES:
        raise CatalogueError(f"data set {name!r}: source {source!r} is not one of {SOURCES}")
    if raw.get("join"):
        return _build_join(name, raw, out_entries)
    entry = Entry(name=name, source=source)
    entry.title = str(merged.get("title", name))
    entry.files = [f if isinstance(f, FileSpec) else _file_spec(name, f, source) for f in merged.get("files") or []]
    entry.format = merged.get("format", "csv")
    entry.header_lines = int(merged.get("header_lines", 0))
    entry.delimiter = None if merged.get("delimiter") is None else str(merged["delimiter"])
    entry.columns = str(merged.get("columns", ""))
    entry.class_column = raw.get("class", merged.get("class_column"))
    if entry.class_column is not None:
        entry.class_column = str(entry.class_column)
    missing = merged.get("missing", LOCAL_MISSING if source == "local" else MISSING)
    entry.missing = [missing] if isinstance(missing, str) else [str(m) for m in missing]
    for key in ("rows", "attributes", "classes"):
        if merged.get(key) is not None:
            setattr(entry, key, int(merged[key]))
    entry.reason = str(merged.get("reason", ""))
    if merged.get("class_map"):
        entry.class_map = {str(k): str(v) for k, v in merged["class_map"].items()}
    entry.class_bins = [float(b) for b in merged["class_bins"]] if merged.get("class_bins") else None
    entry.generator = merged.get("generator")
    entry.names = merged.get("names")
    entry.notes = str(merged.get("notes", ""))
    _validate(entry)
    return entry


def _validate(e: Entry) -> None:
    if e.source == "unavailable":
        if not e.reason:
            raise CatalogueError(f"data set {e.name!r}: unavailable entries need a 'reason'")
        return
    if e.source == "generator":
        if not e.generator or "name" not in e.generator:
            raise CatalogueError(f"data set {e.name!r}: generator entries need generator.name")
        return
    if not e.files:
        raise CatalogueError(f"data set {e.name!r}: no files")
    if e.format not in FORMATS:
        raise CatalogueError(f"data set {e.name!r}: format {e.format!r} is not one of {FORMATS}")
    inferred = e.format == "arff" or (e.source == "local" and e.header_lines > 0)
    if not e.columns and not inferred:
        raise CatalogueError(
            f"data set {e.name!r}: needs 'columns' (one letter per column; it may be omitted "
            f"only for ARFF and for local files with a header, 'header_lines: 1')"
        )
    if e.delimiter is not None and e.source != "local":  # the schema checked that it is one character
        raise CatalogueError(f"data set {e.name!r}: 'delimiter' is for a local file only")
    if e.columns and (set(e.columns) - set("ncyxs") or e.columns.count("y") != 1):
        raise CatalogueError(f"data set {e.name!r}: columns {e.columns!r} must use n/c/y/x/s with exactly one y")


def check_document(doc, path, lines: dict[tuple, int]) -> None:
    """Every key of a catalogue file's document known and every value of the type :data:`FIELDS` (and
    :data:`FILE_FIELDS`, :data:`ORIGIN_FIELDS`, a generator's arguments) says, else a :class:`CatalogueError`
    ``file:line: ...`` at the key (``lines``: :func:`nbx.data.yaml_io.key_lines` of the file)."""

    def closed(keys: tuple, block: dict, known) -> None:
        for key in block:
            if key not in known:
                at = located(path, lines, keys + (key,))
                raise CatalogueError(f"{at}: {unknown_key(key, known, '.'.join(map(str, keys)) or 'the top level')}")

    def typed(keys: tuple, value, rule) -> None:
        test, words = rule
        if not test(value):
            raise CatalogueError(f"{located(path, lines, keys)}: {'.'.join(map(str, keys))}: {value!r} must be {words}")

    def fields(keys: tuple, block, rules: dict) -> None:
        typed(keys, block, _MAPPING)
        closed(keys, block, rules)
        for key, value in block.items():
            typed(keys + (key,), value, rules[key])

    if isinstance(doc, dict):
        closed((), doc, ("datasets",))
    if not isinstance(doc, dict) or not isinstance(doc.get("datasets"), dict):
        raise CatalogueError(f"catalogue {path}: expected a top-level 'datasets' mapping")
    for name, entry in doc["datasets"].items():
        keys = ("datasets", name)
        fields(keys, entry, FIELDS)
        for i, spec in enumerate(entry.get("files", [])):
            fields(keys + ("files", i), spec, FILE_FIELDS)
            if "origin" in spec:
                fields(keys + ("files", i, "origin"), spec["origin"], ORIGIN_FIELDS)
        if "generator" in entry:
            generator = entry["generator"]
            typed(keys + ("generator", "name"), generator.get("name"), _one_of(GENERATORS))
            closed(
                keys + ("generator",), generator, ["name", *inspect.signature(GENERATORS[generator["name"]]).parameters]
            )


def load_catalogue(extra: list[str | Path] = ()) -> dict[str, Entry]:
    """All entries: the built-in catalogue, then each extra file's entries over it. Errors in an entry name
    the catalogue file and the entry's line."""
    raw: dict[str, dict] = {}
    where: dict[str, str] = {}
    for path in [BUILTIN, *extra]:
        try:
            doc, node = load_yaml(read_yaml_text(path))
            lines = key_lines(node)
        except OSError as exc:
            raise CatalogueError(f"cannot read catalogue {path}: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            raise CatalogueError(yaml_error_at(path, exc)) from None
        check_document(doc, path, lines)
        for name, entry in doc["datasets"].items():
            where[str(name)] = located(path, lines, ("datasets", name))
            if not is_name(name):  # a data set's id names its files (data/prepared/<exp>/<id>.npz)
                raise CatalogueError(f"{where[str(name)]}: {name!r} is not a valid data set name: {RULE}")
            raw[str(name)] = entry
    for name, entry in raw.items():
        for ref in ([entry["base"]] if "base" in entry else []) + list(entry.get("join", [])):
            if ref not in raw:
                raise CatalogueError(f"{where[name]}: data set {name!r}: {ref!r} (base/join) is not in the catalogue")
    entries: dict[str, dict] = {}
    out: dict[str, Entry] = {}
    # Bases first: resolve in dependency order so a derived entry can name any other entry.
    pending = dict(raw)
    while pending:
        progressed = False
        for name in list(pending):
            needs = [pending[name]["base"]] if "base" in pending[name] else list(pending[name].get("join", []))
            if all(n in entries for n in needs):
                try:
                    out[name] = _build(name, pending.pop(name), entries, out)
                except CatalogueError as exc:
                    raise CatalogueError(f"{where[name]}: {exc}") from None
                entries[name] = {k: getattr(out[name], k) for k in INHERITED}
                progressed = True
        if not progressed:
            raise CatalogueError(f"circular 'base' references among {sorted(pending)}")
    return out


def get_entry(catalogue: dict[str, Entry], name: str, where: str = "params.yaml") -> Entry:
    """Look up a data set by name, with a clear error listing close names."""
    if name not in catalogue:
        import difflib

        close = difflib.get_close_matches(name, catalogue, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise CatalogueError(f"{where}: unknown data set {name!r}{hint}")
    return catalogue[name]
