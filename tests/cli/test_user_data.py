"""Your own data (README.md, "Your own data"): header names, default missing markers, inferred columns, errors
that name the local file, no sha256 under data/local/, and the built-in catalogue's tables unchanged by all of it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

from nbx.data.catalogue import CatalogueError, Entry, FileSpec, load_catalogue
from nbx.data.fetch import FetchError, fetch_entry
from nbx.data.parsers import DataFormatError
from nbx.data.prepare import build_table

CSV = 'width,colour,"size, cm",label\n1.5,red,3,yes\n2,,NA,no\nNA,blue,4.5,yes\n3,red,?,no\n'


def _catalogue(tmp_path: Path, body: str) -> dict:
    (tmp_path / "cat.yaml").write_text("datasets:\n  mine:\n" + body)
    return load_catalogue([tmp_path / "cat.yaml"])


LOCAL = "    source: local\n    files: [{path: data/local/mine.csv}]\n    header_lines: 1\n"


def _build(entry, root: Path):
    return build_table(entry, fetch_entry(entry, root / "raw", repo_root=root))


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # catalogue paths of local files are relative to the repository root
    (tmp_path / "data" / "local").mkdir(parents=True)
    (tmp_path / "data" / "local" / "mine.csv").write_text(CSV)
    return tmp_path


def test_header_names_missing_markers_and_inferred_columns(repo):
    entry = _catalogue(repo, LOCAL)["mine"]
    table = _build(entry, repo)
    assert [a["name"] for a in table.attributes] == ["width", "colour", "size, cm"]
    assert [a["kind"] for a in table.attributes] == ["numeric", "nominal", "numeric"]
    nan = np.nan
    np.testing.assert_array_equal(table.X, [[1.5, 1, 3], [2, nan, nan], [nan, 0, 4.5], [3, 1, nan]])
    assert table.classes == ["no", "yes"] and table.y.tolist() == [1, 0, 1, 0]


def test_class_column_by_name_and_a_did_you_mean(repo):
    entry = _catalogue(repo, LOCAL + "    class: colour\n")["mine"]
    table = _build(entry, repo)
    assert table.classes == ["blue", "red"] and [a["name"] for a in table.attributes] == ["width", "size, cm", "label"]
    assert len(table.y) == 3  # the row whose class is an empty cell is dropped, as any missing class
    entry.class_column = "colur"
    with pytest.raises(DataFormatError, match=r"mine: data/local/mine\.csv: no column 'colur'.*did you mean colour"):
        _build(entry, repo)


def test_given_missing_markers_and_archive_entries_keep_question_mark_only(repo):
    entry = _catalogue(repo, LOCAL + "    missing: ['?']\n")["mine"]
    table = _build(entry, repo)  # '' and 'NA' are now values, so no column reads as numbers
    assert [a["kind"] for a in table.attributes] == ["nominal", "nominal", "nominal"]
    assert table.attributes[0]["values"] == ["1.5", "2", "3", "NA"] and np.isnan(table.X[3, 2])
    uci = Entry(name="u", source="uci", columns="ncny", header_lines=1, files=[FileSpec("x.csv", "0")])
    assert uci.missing == ["?"] and load_catalogue()["iris"].missing == ["?"]


@pytest.mark.parametrize(
    "path", ["elsewhere.csv", "data/local/../../elsewhere.csv", "data/local/link.csv", "/tmp/x.csv"]
)
def test_a_local_file_outside_data_local_is_refused(repo, path):
    """The prepare stages depend on data/local/ by content; a file elsewhere (also through ``..`` or a link) would be
    read without DVC seeing its edits, so it is refused, with or without a sha256."""
    (repo / "elsewhere.csv").write_text(CSV)
    (repo / "data" / "local" / "link.csv").symlink_to(repo / "elsewhere.csv")
    digest = hashlib.sha256(CSV.encode()).hexdigest()
    for sha in ("", f", sha256: {digest}"):
        with pytest.raises(
            CatalogueError, match=rf"local file {re.escape(path)} must lie under data/local/ \(copy it there"
        ):
            _catalogue(repo, f"    source: local\n    files: [{{path: {path}{sha}}}]\n    header_lines: 1\n")


def test_a_local_file_needs_no_sha256(repo):
    assert _build(_catalogue(repo, LOCAL)["mine"], repo).X.shape == (4, 3)


def test_missing_local_file_names_the_local_path_never_the_mirror(repo, monkeypatch):
    monkeypatch.setenv("NBX_UCI_MIRROR", str(repo / "mirror"))
    entry = _catalogue(repo, LOCAL.replace("mine.csv", "gone.csv"))["mine"]
    with pytest.raises(FetchError) as err:
        _build(entry, repo)
    assert "local file data/local/gone.csv does not exist" in str(err.value)
    assert "mirror" not in str(err.value).lower()


def test_count_check_of_a_local_entry_says_to_rerun_add_data(repo):
    entry = _catalogue(repo, LOCAL + "    rows: 3\n")["mine"]
    with pytest.raises(
        DataFormatError,
        match=r"catalogue says 3 rows, the data have 4; after editing "
        r"data/local/mine\.csv, re-run `nbx add-data",
    ):
        _build(entry, repo)


def test_columns_needed_without_a_header_and_catalogue_errors_name_file_and_line(repo):
    with pytest.raises(CatalogueError, match=r"cat\.yaml:2: data set 'mine': needs 'columns'"):
        _catalogue(repo, "    source: local\n    files: [{path: data/local/mine.csv}]\n")
    with pytest.raises(
        CatalogueError, match=r"^\S*cat\.yaml:\d+: datasets\.mine\.rows: 'many' must be an integer >= 1$"
    ):
        _catalogue(repo, LOCAL + "    rows: many\n")


def test_utf8_header_with_byte_order_mark(repo):
    (repo / "data" / "local" / "mine.csv").write_bytes("\ufeffgröße,klasse\n1,ja\n2,nein\n".encode("utf-8"))
    entry = _catalogue(repo, LOCAL)["mine"]
    table = _build(entry, repo)
    assert table.attributes[0]["name"] == "größe" and table.classes == ["ja", "nein"]


# Tables of the built-in catalogue hashed before the changes above (X, y and schema; see _digest): reading
# user files differently must leave every archive table byte-identical.
BEFORE = {
    "iris": "bd64b63f740f183806217364ad69a547cfb75339e40df4d047356e2034a23b4b",
    "anneal": "fcdec10b65b118b862c33ff4b358ca16f40539fee42efeb37608a1a0661fcbe3",
    "splice": "80bec43875db385fdcf6938524d8221008ff54de3e3b88dac03165820eb62e86",
    "solar-flare-all": "e4a1dabe61796f3864dcc9a345c45269d936db530b70fd3a48c07925991f4289",
    "segment2310": "d83544359290d3eb61ca898238b98d70fe4add408eedb7b0decd0eff67862fe2",
}


def _digest(t) -> str:
    h = hashlib.sha256()
    for a in (t.X, t.y):
        h.update(np.ascontiguousarray(a).tobytes())
        h.update(a.dtype.str.encode())
    h.update(json.dumps({"a": t.attributes, "c": t.classes, "n": t.name}, sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_builtin_tables_are_byte_identical(load_dataset, name):
    assert _digest(load_dataset(name)) == BEFORE[name]


def test_a_column_of_missing_values_only_is_numeric(repo):
    (repo / "data" / "local" / "mine.csv").write_text("a,empty,label\n1,,x\n2,NA,y\n")
    table = _build(_catalogue(repo, LOCAL)["mine"], repo)
    assert table.attributes[1]["kind"] == "numeric" and np.isnan(table.X[:, 1]).all()
