"""Parsers, download/verification, the .Z decoder and the catalogue's error messages."""

import hashlib
from pathlib import Path

import numpy as np
import pytest

from nbx.data.catalogue import CatalogueError, Entry, FileSpec, get_entry, load_catalogue
from nbx.data.fetch import FetchError, fetch_entry, fetch_file
from nbx.data.lzw import unlzw
from nbx.data.parsers import DataFormatError, read_arff, read_delimited
from nbx.data.prepare import build_table

FIXTURES = Path(__file__).with_name("fixtures")


def test_delimited_reader_reports_file_and_line(tmp_path):
    f = tmp_path / "d.data"
    f.write_text("1,2,a\n\n3,4,b\n5,6\n")
    with pytest.raises(DataFormatError, match=r"d\.data:4: expected 3 values, found 2"):
        read_delimited(f, ",", n_columns=3)
    f.write_text("header\n1 2  a\n3\t4 b\n")
    table = read_delimited(f, "whitespace", header_lines=1, n_columns=3)
    assert table.rows == [["1", "2", "a"], ["3", "4", "b"]] and table.lines == [2, 3]


def test_arff_reader(tmp_path):
    f = tmp_path / "t.arff"
    f.write_text(
        "% comment\n@relation t\n@attribute 'a b' numeric\n@attribute c {x, 'y z'}\n"
        "@attribute class {p,n}\n@data\n1.5,'y z',p\n?,x,n\n"
    )
    table = read_arff(f)
    assert table.declared == [("a b", "numeric", []), ("c", "nominal", ["x", "y z"]), ("class", "nominal", ["p", "n"])]
    assert table.rows == [["1.5", "y z", "p"], ["?", "x", "n"]]
    f.write_text("@relation t\n@attribute a numeric\n@attribute class {p,n}\n@data\n1,p\n2,n,3\n")
    with pytest.raises(DataFormatError, match=r"t\.arff:6: expected 2 values, found 3"):
        read_arff(f)


def test_non_numeric_value_in_numeric_column_names_line(tmp_path):
    (tmp_path / "x.data").write_text("1.0,a\nfoo,b\n")
    entry = Entry(name="toy", source="local", format="csv", columns="ny", files=[FileSpec(path="x.data", sha256="")])
    with pytest.raises(DataFormatError, match=r"toy: x\.data:2: column 'a1': 'foo' is not a number"):
        build_table(entry, [tmp_path / "x.data"])


def test_fetch_verifies_sha256_and_names_the_mirror(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "dir").mkdir(parents=True)
    (mirror / "dir" / "f.data").write_bytes(b"1,a\n")
    monkeypatch.setenv("NBX_UCI_MIRROR", str(mirror))
    good = hashlib.sha256(b"1,a\n").hexdigest()
    out = fetch_file("toy", FileSpec("dir/f.data", good), tmp_path / "raw")
    assert out.read_bytes() == b"1,a\n"
    with pytest.raises(FetchError, match=r"toy.*sha256 mismatch.*NBX_UCI_MIRROR="):
        fetch_file("toy", FileSpec("dir/f.data", "0" * 64), tmp_path / "raw2")
    assert not (tmp_path / "raw2" / "dir" / "f.data").exists()  # nothing half-written
    with pytest.raises(FetchError, match=r"toy.*cannot fetch .*missing\.data.*NBX_UCI_MIRROR"):
        fetch_file("toy", FileSpec("dir/missing.data", good), tmp_path / "raw")


def test_mirror_only_entries_need_a_mirror(monkeypatch, tmp_path):
    monkeypatch.delenv("NBX_UCI_MIRROR")
    labor = load_catalogue()["labor"]
    with pytest.raises(FetchError, match="only as a stand-in in the offline mirror"):
        fetch_entry(labor, tmp_path)


def test_unlzw_matches_ncompress_output():
    rng = np.random.default_rng(7)
    words = np.array(["alpha", "beta", "gamma", "delta", "0.13", "1,2,3", "?", "\n"])
    text = "".join(words[rng.integers(0, len(words), 12000)]).encode()
    assert unlzw((FIXTURES / "sample.txt.Z").read_bytes()) == text
    with pytest.raises(ValueError, match="magic"):
        unlzw(b"PK\x03\x04")


def test_catalogue_errors_name_the_problem(tmp_path):
    cat = load_catalogue()
    with pytest.raises(CatalogueError, match="unknown data set 'iriss'.*did you mean iris"):
        get_entry(cat, "iriss")
    bad = tmp_path / "mine.yaml"
    bad.write_text(f"datasets:\n  mine:\n    files: [{{path: a.csv, sha256: {'a' * 64}}}]\n    columns: nnx\n")
    with pytest.raises(CatalogueError, match="'mine'.*exactly one y"):
        load_catalogue([bad])
    bad.write_text("datasets:\n  mine:\n    base: nothere\n")
    with pytest.raises(CatalogueError, match=r"'mine': 'nothere' \(base/join\) is not in the catalogue"):
        load_catalogue([bad])


def test_user_dataset_without_code_change(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # local paths are relative to the repository root, under data/local/
    data = b"1.0,x,yes\n2.0,y,no\n3.5,?,yes\n"
    (tmp_path / "data" / "local").mkdir(parents=True)
    (tmp_path / "data" / "local" / "mine.csv").write_bytes(data)
    (tmp_path / "cat.yaml").write_text(
        "datasets:\n  mine:\n    source: local\n    files:\n"
        f"      - {{path: data/local/mine.csv, sha256: {hashlib.sha256(data).hexdigest()}, local: true}}\n"
        "    columns: ncy\n    rows: 3\n    classes: 2\n"
    )
    entry = load_catalogue([tmp_path / "cat.yaml"])["mine"]
    paths = fetch_entry(entry, tmp_path / "raw", repo_root=tmp_path)
    table = build_table(entry, paths)
    assert table.classes == ["no", "yes"] and table.y.tolist() == [1, 0, 1]
    assert np.isnan(table.X[2, 1]) and table.X[:, 0].tolist() == [1.0, 2.0, 3.5]


def test_count_mismatch_fails_loudly(load_dataset):
    from nbx.data.prepare import check_counts

    entry = load_catalogue()["iris"]
    entry.rows = 151
    with pytest.raises(DataFormatError, match="'iris': catalogue says 151 rows, the data have 150"):
        check_counts(entry, load_dataset("iris"))


def test_joined_entry_stacks_parts_by_label(load_dataset):
    whole, first, second = (load_dataset(n) for n in ("solar-flare-all", "solar-flare1", "solar-flare"))
    assert whole.X.shape == (1389, 10) and whole.X.shape[0] == first.X.shape[0] + second.X.shape[0]
    for j, attr in enumerate(whole.attributes):
        labels = [attr["values"][int(c)] for c in whole.X[:, j]]
        expected = [
            a["values"][int(c)]
            for part in (first, second)
            for a, c in zip([part.attributes[j]] * len(part.X), part.X[:, j])
        ]
        assert labels == expected
    assert [whole.classes[k] for k in whole.y] == [first.classes[k] for k in first.y] + [
        second.classes[k] for k in second.y
    ]
