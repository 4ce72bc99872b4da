"""The data catalogue has a closed schema: a key written twice, an unknown key (with its did-you-mean), a value
of the wrong type or out of range, at every level (top, entry, file, origin, generator) and a YAML syntax
error each stop loading as one exact line ``FILE:LINE: ...``, in a user's catalogue and in the built-in one,
and stop the prepare stage and ``nbx datasets`` before any data file is read."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from cli_run import python

from nbx.data import catalogue
from nbx.data.catalogue import CatalogueError, load_catalogue
from nbx.data.yaml_io import UniqueKeyLoader

REPO = Path(__file__).resolve().parents[2]
MAPPING_VALUES = "mapping values are not allowed " + (
    "in this context" if issubclass(UniqueKeyLoader, getattr(yaml, "CSafeLoader", ())) else "here"
)
VALID = """datasets:
  mine:
    title: My flowers
    source: local
    files:
      - {path: data/local/mine.csv}
    format: csv
    header_lines: 1
    columns: nnny
    rows: 4
    classes: 2
"""
SYNTH = "  synth:\n    source: generator\n    generator: {name: led, rows: 10, seed: 1}\n"
ORIGIN = (
    "      - path: archive/mine.data\n        sha256: "
    + "a" * 64
    + "\n        origin: {path: archive/mine.data.Z, compression: Z}\n"
)

# (id, text of VALID replaced ("" appends), replacement, the error's line as a text unique in the edited file,
# the message after "FILE:LINE: " ({first}: the line of the first occurrence of a duplicate key)
CASES = [
    ("duplicate top-level key", "", "datasets: {}\n", "datasets: {}", "duplicate key 'datasets' (first at line 1)"),
    ("duplicate entry", "", "  mine: {title: again}\n", "mine: {title", "duplicate key 'mine' (first at line 2)"),
    (
        "duplicate field",
        "    rows: 4\n",
        "    rows: 4\n    rows: 5\n",
        "rows: 5",
        "duplicate key 'rows' (first at line 10)",
    ),
    (
        "duplicate key of a file",
        "{path: data/local/mine.csv}",
        "{path: data/local/mine.csv, path: data/local/other.csv}",
        "other.csv",
        "duplicate key 'path' (first at line 6)",
    ),
    (
        "unknown top-level key",
        "datasets:",
        "dataset:",
        "dataset:",
        "key 'dataset' is not a known key of the top level; did you mean datasets?",
    ),
    (
        "unknown entry field",
        "    title:",
        "    titel:",
        "titel",
        "key 'titel' is not a known key of datasets.mine; did you mean title?",
    ),
    (
        "unknown file field",
        "{path: data/local/mine.csv}",
        "{path: data/local/mine.csv, sha: abc}",
        "sha: abc",
        "key 'sha' is not a known key of datasets.mine.files.0; did you mean sha256?",
    ),
    (
        "unknown origin field",
        "      - {path: data/local/mine.csv}\n",
        ORIGIN.replace("compression", "compresion"),
        "compresion",
        "key 'compresion' is not a known key of datasets.mine.files.0.origin; did you mean compression?",
    ),
    (
        "unknown generator argument",
        "",
        SYNTH.replace("seed: 1", "nosie: 0.1"),
        "nosie",
        "key 'nosie' is not a known key of datasets.synth.generator; did you mean noise?",
    ),
    ("entry not a mapping", "", "  other: iris\n", "other: iris", "datasets.other: 'iris' must be a mapping"),
    (
        "rows as a word",
        "    rows: 4",
        "    rows: many",
        "rows: many",
        "datasets.mine.rows: 'many' must be an integer >= 1",
    ),
    ("no rows", "    rows: 4", "    rows: 0", "rows: 0", "datasets.mine.rows: 0 must be an integer >= 1"),
    (
        "no classes",
        "    classes: 2",
        "    classes: 0",
        "classes: 0",
        "datasets.mine.classes: 0 must be an integer >= 1",
    ),
    (
        "negative header lines",
        "    header_lines: 1",
        "    header_lines: -1",
        "header_lines: -1",
        "datasets.mine.header_lines: -1 must be an integer >= 0",
    ),
    (
        "unknown format",
        "    format: csv",
        "    format: tsv",
        "format: tsv",
        "datasets.mine.format: 'tsv' must be one of csv, whitespace, arff",
    ),
    (
        "unknown source",
        "    source: local",
        "    source: web",
        "source: web",
        "datasets.mine.source: 'web' must be one of uci, mirror-only, generator, local, unavailable",
    ),
    (
        "columns as a list",
        "    columns: nnny",
        "    columns: [n, n, n, y]",
        "columns:",
        "datasets.mine.columns: ['n', 'n', 'n', 'y'] must be a string",
    ),
    (
        "local not a boolean",
        "{path: data/local/mine.csv}",
        "{path: data/local/mine.csv, local: yes please}",
        "local: yes",
        "datasets.mine.files.0.local: 'yes please' must be true or false",
    ),
    (
        "short sha256",
        "{path: data/local/mine.csv}",
        "{path: data/local/mine.csv, sha256: abc}",
        "sha256: abc",
        "datasets.mine.files.0.sha256: 'abc' must be 64 hexadecimal digits",
    ),
    (
        "unknown compression",
        "      - {path: data/local/mine.csv}\n",
        ORIGIN.replace("compression: Z", "compression: gz"),
        "compression: gz",
        "datasets.mine.files.0.origin.compression: 'gz' must be one of Z",
    ),
    (
        "unknown generator",
        "",
        SYNTH.replace("name: led", "name: lde"),
        "name: lde",
        "datasets.synth.generator.name: 'lde' must be one of led, waveform, parity",
    ),
    (
        "class bins not numbers",
        "    classes: 2",
        "    classes: 2\n    class_bins: [low, high]",
        "class_bins",
        "datasets.mine.class_bins: ['low', 'high'] must be a list of numbers",
    ),
    ("YAML syntax error", "    rows: 4", "    rows: 4: 5", "rows: 4: 5", f"not valid YAML ({MAPPING_VALUES})"),
]


def _edit(old: str, new: str) -> str:
    if not old:
        return VALID + new
    assert old in VALID, old
    return VALID.replace(old, new, 1)


def _line(text: str, needle: str) -> int:
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize("old, new, at, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_catalogue_mistake_is_one_exact_line_at_its_key(tmp_path, old, new, at, message):
    text = _edit(old, new)
    path = tmp_path / "cat.yaml"
    path.write_text(text)
    with pytest.raises(CatalogueError) as err:
        load_catalogue([path])
    assert str(err.value) == f"{path}:{_line(text, at)}: {message}"


def test_the_catalogue_the_cases_break_is_valid(tmp_path):
    """Each case above breaks one thing of a catalogue that loads, with every field as written."""
    path = tmp_path / "cat.yaml"
    path.write_text(VALID + SYNTH)
    entries = load_catalogue([path])
    mine, synth = entries["mine"], entries["synth"]
    assert (mine.title, mine.source, mine.format, mine.header_lines, mine.columns) == (
        "My flowers",
        "local",
        "csv",
        1,
        "nnny",
    )
    assert (mine.rows, mine.classes, [(f.path, f.sha256, f.local) for f in mine.files]) == (
        4,
        2,
        [("data/local/mine.csv", None, True)],
    )
    assert synth.generator == {"name": "led", "rows": 10, "seed": 1}


def test_a_duplicate_entry_of_the_built_in_catalogue_is_found(tmp_path, monkeypatch):
    text = catalogue.BUILTIN.read_text().replace("  glass:\n", "  iris: {title: again}\n  glass:\n", 1)
    (tmp_path / "catalogue.yaml").write_text(text)
    monkeypatch.setattr(catalogue, "BUILTIN", tmp_path / "catalogue.yaml")
    with pytest.raises(CatalogueError) as err:
        load_catalogue()
    first, second = _line(text, "  iris:\n"), _line(text, "  iris: {title: again}")
    assert str(err.value) == f"{tmp_path / 'catalogue.yaml'}:{second}: duplicate key 'iris' (first at line {first})"


PARAMS = """seed: 1
data: {catalogues: [data/local/cat.yaml]}
experiments:
  toy: {datasets: [mine], protocol: {kind: cv, folds: 2}, discretizer: mdl, impute: null, learners: [nb]}
analyses: {toy: {}}
learners:
  nb: {class: NaiveBayes}
"""


def test_the_prepare_stage_and_nbx_datasets_stop_before_reading_data(tmp_path):
    """The user's catalogue (under data/local/, as params.yaml's data.catalogues must be) is loaded before any file
    is fetched: nothing is read or written."""
    (tmp_path / "params.yaml").write_text(PARAMS)
    text = _edit("    title:", "    titel:")
    (tmp_path / "data" / "local").mkdir(parents=True)
    (tmp_path / "data" / "local" / "cat.yaml").write_text(text)
    line = (
        f"data/local/cat.yaml:{_line(text, 'titel')}: key 'titel' is not a known key of datasets.mine; "
        "did you mean title?"
    )
    assert python(tmp_path, str(REPO / "stages" / "prepare.py"), "toy") == (1, "", f"prepare toy: {line}\n")
    assert python(tmp_path, "-m", "nbx.cli", "datasets") == (1, "", f"nbx: error: {line}\n")
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert written == ["data", "data/local", "data/local/cat.yaml", "params.yaml"]
