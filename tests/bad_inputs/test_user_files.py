"""A user's own file through ``nbx evaluate``, ``fit``, ``predict`` and ``add-data`` (:mod:`nbx.data.userfile`):
the dialects it must read right (delimiters, BOM, CRLF, quotes, no header), and the bad inputs it must refuse with
one line naming the file, line and column: duplicate or empty names, non-finite numbers, rows of the wrong
length, ARFF data its header does not declare, a model's column missing from the file, a catalogue name taken."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from nbx.cli import main
from nbx.cli.model import load_bundle
from nbx.data.userfile import read_user_file

REPO = Path(__file__).resolve().parents[2]
ROWS = [("1.5", "red", "yes"), ("2", "blue", "no"), ("3.25", "red", "yes"), ("0.5", "blue", "no")]


def nbx(capsys, *argv) -> tuple[int, str, list[str], list[str]]:
    """(exit code, stdout, error lines, note lines) of one in-process run."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    return (
        code,
        out,
        [x for x in lines if x.startswith("nbx: error: ")],
        [x for x in lines if x.startswith("nbx: note: ")],
    )


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def csv_text(delimiter: str = ",", header=("w", "colour", "label"), rows=ROWS, end: str = "\n") -> str:
    return end.join(delimiter.join(r) for r in ([header] if header else []) + list(rows)) + end


def assert_toy_table(read) -> None:
    """The table of ROWS: w numeric, colour nominal (blue < red), classes no < yes."""
    table = read.table
    assert [a["name"] for a in table.attributes] == ["w", "colour"]
    np.testing.assert_array_equal(table.X, [[1.5, 1], [2, 0], [3.25, 1], [0.5, 0]])
    assert table.attributes[1]["values"] == ["blue", "red"] and table.classes == ["no", "yes"]
    assert table.y.tolist() == [1, 0, 1, 0] and read.lines.tolist() == [2, 3, 4, 5]


# ---------------------------------------------------------------------------------------------- dialects
@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_every_delimiter_reads_the_same_table_without_a_note_on_it(tmp_path, delimiter):
    read = read_user_file(write(tmp_path, "toy.csv", csv_text(delimiter)))
    assert_toy_table(read)
    assert read.delimiter == delimiter and read.header
    assert read.assumptions == []  # a last column named 'label' is the class without a doubt


@pytest.mark.parametrize("name", ["class", "Label", "TARGET", "y"])
def test_a_last_column_named_as_a_class_needs_no_note_and_any_other_name_does(tmp_path, name):
    text = f"w,{name}\n1,a\n2,b\n"
    assert read_user_file(write(tmp_path, "a.csv", text)).assumptions == []
    notes = read_user_file(write(tmp_path, "b.csv", text.replace(name, "species"))).assumptions
    assert notes == ["class column 'species', the last (--class NAME to change)"]


def test_byte_order_mark_and_crlf_line_endings(tmp_path):
    read = read_user_file(write(tmp_path, "toy.csv", b"\xef\xbb\xbf" + csv_text(end="\r\n").encode()))
    assert_toy_table(read)


def test_old_mac_cr_line_endings(tmp_path):
    assert_toy_table(read_user_file(write(tmp_path, "toy.csv", csv_text(end="\r"))))


def test_quoted_fields_hold_the_delimiter(tmp_path):
    text = 'w;colour;label\n1.5;"red; dark";yes\n2;blue;no\n3.25;"red; dark";yes\n0.5;blue;no\n'
    read = read_user_file(write(tmp_path, "toy.csv", text))
    assert read.table.attributes[1]["values"] == ["blue", "red; dark"]
    assert read.table.X[:, 1].tolist() == [1, 0, 1, 0]


def test_no_header_line_names_the_columns_a1_a2(tmp_path):
    read = read_user_file(write(tmp_path, "toy.csv", csv_text(header=None)))
    assert [a["name"] for a in read.table.attributes] == ["a1", "a2"] and not read.header
    np.testing.assert_array_equal(read.table.X[:, 0], [1.5, 2, 3.25, 0.5])
    assert read.lines.tolist() == [1, 2, 3, 4]


def test_a_header_guessed_from_nominal_columns_only_is_a_note_naming_the_option(tmp_path, capsys):
    path = write(tmp_path, "toy.csv", "colour,label\nred,yes\nblue,no\nred,yes\nblue,no\n")
    code, _, errors, notes = nbx(capsys, "evaluate", path, "--learners", "NaiveBayes", "--cv", "2")
    assert code == 0 and not errors
    assert notes == ["nbx: note: read toy.csv: with the first line as the header (--header no to change)"]


def test_semicolon_file_with_missing_markers_in_one_note(tmp_path, capsys):
    """The audit's semicolon file: read as columns, not as one column per line."""
    text = "w;colour;species\n1.5;red;yes\n?;blue;no\n3.25;;yes\n0.5;blue;no\n2;red;yes\n1;blue;no\n"
    path = write(tmp_path, "x.csv", text)
    code, out, errors, notes = nbx(capsys, "evaluate", path, "--learners", "NaiveBayes", "--cv", "2")
    assert code == 0 and not errors
    assert "6 rows, 2 attributes (1 numeric, 1 nominal), 2 classes" in out
    assert notes == [
        "nbx: note: read x.csv: class column 'species', the last (--class NAME to change); missing values: "
        "'?' (1 cell), empty (1 cell) (--missing to change)"
    ]


def test_blocks_of_lines_read_as_one(tmp_path, monkeypatch):
    """A file read in many small blocks (some through the fast reader, one with a '?' through the csv reader)
    gives the table of one block, with every row's file line."""
    import nbx.data.userfile as userfile

    rows = [(f"{i / 7:.5f}", ["red", "blue", "green"][i % 3], ["yes", "no"][i % 2]) for i in range(300)]
    rows[150] = ("?", "red", "no")
    path = write(tmp_path, "toy.csv", csv_text(rows=rows))
    whole = read_user_file(path)
    monkeypatch.setattr(userfile, "BLOCK_BYTES", 97)
    blocks = read_user_file(path)
    np.testing.assert_array_equal(blocks.table.X, whole.table.X)
    assert blocks.table.y.tolist() == whole.table.y.tolist() and blocks.lines.tolist() == list(range(2, 302))
    assert np.isnan(whole.table.X[150, 0]) and whole.table.X[7, 0] == float(rows[7][0])


# ------------------------------------------------------------------------------------------ refused files
def one_error(capsys, *argv) -> str:
    code, _, errors, _ = nbx(capsys, *argv)
    assert code == 1 and len(errors) == 1, errors
    return errors[0]


def evaluate(path) -> tuple:
    return ("evaluate", path, "--learners", "NaiveBayes", "--cv", "2")


def test_duplicate_column_names(tmp_path, capsys):
    path = write(tmp_path, "x.csv", csv_text(header=("w", "colour", "w")))
    assert one_error(capsys, *evaluate(path)) == (
        f"nbx: error: {path}:1: column name 'w' appears twice (columns 1 and 3); rename one"
    )


def test_empty_column_name(tmp_path, capsys):
    path = write(tmp_path, "x.csv", csv_text(header=("w", "", "label")))
    assert one_error(capsys, *evaluate(path)) == (
        f"nbx: error: {path}:1: the header line has no name for column 2; name every column "
        "(or --header no if the first line is data)"
    )


@pytest.mark.parametrize("cell", ["inf", "-inf", "nan", "Infinity"])
def test_non_finite_numbers_name_line_and_column(tmp_path, capsys, cell):
    rows = list(ROWS)
    rows[2] = (cell, "red", "yes")
    path = write(tmp_path, "x.csv", csv_text(rows=rows))
    assert one_error(capsys, *evaluate(path)) == (
        f"nbx: error: {path}:4: column 'w': {cell!r} is not a finite number "
        "(mark a missing value with '?' or an empty cell)"
    )


def test_row_with_too_few_fields(tmp_path, capsys):
    path = write(tmp_path, "x.csv", csv_text() + "2.5,red\n")
    assert one_error(capsys, *evaluate(path)) == f"nbx: error: {path}:6: expected 3 fields (comma-separated), found 2"


ARFF = """@relation toy
@attribute w numeric
@attribute colour {red, blue}
@attribute label {yes, no}
@data
1.5,red,yes
2,blue,no
3.25,red,yes
0.5,blue,no
"""


def test_arff_reads_in_declared_value_order(tmp_path):
    read = read_user_file(write(tmp_path, "x.arff", ARFF))
    assert read.table.attributes[1]["values"] == ["red", "blue"] and read.table.classes == ["yes", "no"]
    np.testing.assert_array_equal(read.table.X, [[1.5, 0], [2, 1], [3.25, 0], [0.5, 1]])
    assert read.lines.tolist() == [6, 7, 8, 9]


@pytest.mark.parametrize(
    "row, message",
    [
        ("2,green,no", "attribute 'colour': 'green' is not one of the values its @attribute line declares (red, blue)"),
        ("2,blue,maybe", "attribute 'label': 'maybe' is not one of the values its @attribute line declares (yes, no)"),
        ("2,blue", "expected 3 values, found 2"),
        ("two,blue,no", "column 'w': 'two' is not a number"),
    ],
)
def test_arff_data_that_disagree_with_the_header(tmp_path, capsys, row, message):
    path = write(tmp_path, "x.arff", ARFF + row + "\n")
    assert one_error(capsys, *evaluate(path)) == f"nbx: error: {path}:10: {message}"


def test_memory_estimate_refuses_before_reading(tmp_path):
    from nbx.data.userfile import MemoryFileError, check_memory

    path = write(tmp_path, "x.csv", csv_text())
    with pytest.raises(MemoryFileError, match=r"x\.csv: 0 MiB \(1,000,000,000,000 lines x 3 columns\) needs about "):
        check_memory(path, 10**12, 3, str(path))


def test_running_out_of_memory_is_one_line(tmp_path, capsys, monkeypatch):
    """numpy's MemoryError while a command works on the file (here: in the cross-validation) names the file."""
    import nbx.cli.evaluate

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(nbx.cli.evaluate, "cross_validate", exhausted)
    path = write(tmp_path, "x.csv", csv_text())
    assert one_error(capsys, *evaluate(path)) == (
        f"nbx: error: {path}: 0 MiB: ran out of memory; free memory or raise the limit (ulimit -v), or use a "
        "sample of the rows (e.g. `head -n 100000`)"
    )


# ------------------------------------------------------------------------------------------------ predict
@pytest.fixture
def model(tmp_path, capsys) -> Path:
    rows = [(f"{i / 3:.3f}", ["red", "blue"][i % 2], ["yes", "no"][(i // 3) % 2]) for i in range(60)]
    data = write(tmp_path, "train.csv", csv_text(rows=rows))
    assert nbx(capsys, "fit", data, "--learner", "NaiveBayes", "--save", tmp_path / "m.nbx")[0] == 0
    return tmp_path / "m.nbx"


def test_predict_matches_columns_by_name_in_any_order(tmp_path, capsys, model):
    straight = write(tmp_path, "a.csv", csv_text())
    reordered = write(
        tmp_path, "b.csv", csv_text(header=("label", "w", "colour"), rows=[(r[2], r[0], r[1]) for r in ROWS])
    )
    code_a, out_a, *_ = nbx(capsys, "predict", model, straight)
    code_b, out_b, *_ = nbx(capsys, "predict", model, reordered)
    assert code_a == code_b == 0 and out_a == out_b and len(out_a.splitlines()) == 5
    bundle = load_bundle(model)
    codes = bundle.features(np.array([[1.5, 1.0]]))  # colour 'red' is code 1 in training (blue < red)
    expected = bundle.model.predict_proba(codes)[0]
    assert out_a.splitlines()[1].split(",")[3:] == [repr(float(p)) for p in expected]


def test_predict_without_a_column_of_the_model(tmp_path, capsys, model):
    path = write(tmp_path, "x.csv", csv_text(header=("width", "colour", "label")))
    assert one_error(capsys, "predict", model, path) == (
        f"nbx: error: {path}: no column 'w' (the model needs w, colour); known: colour, label, width"
    )


def test_predict_on_duplicated_names(tmp_path, capsys, model):
    path = write(tmp_path, "x.csv", csv_text(header=("w", "colour", "colour")))
    assert one_error(capsys, "predict", model, path) == (
        f"nbx: error: {path}:1: column name 'colour' appears twice (columns 2 and 3); rename one"
    )


def test_fit_refuses_the_audits_duplicated_header(tmp_path, capsys):
    """fit then predict on a file with a name twice matched the wrong column; now fit stops at the header."""
    path = write(tmp_path, "x.csv", "a,a,b,class\n1,2,3,x\n2,3,4,y\n")
    assert one_error(capsys, "fit", path, "--learner", "NaiveBayes", "--save", tmp_path / "m.nbx") == (
        f"nbx: error: {path}:1: column name 'a' appears twice (columns 1 and 2); rename one"
    )


# ----------------------------------------------------------------------------------------------- add-data
@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    (tmp_path / "data" / "local").mkdir(parents=True)
    (tmp_path / "params.yaml").write_text((REPO / "params.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_add_data_refuses_a_taken_name_without_replace(repo, capsys):
    write(repo, "data/local/x.csv", csv_text(";"))
    params = yaml.safe_load((repo / "params.yaml").read_text())
    listed = {
        e: b["datasets"].values() if isinstance(b["datasets"], dict) else b["datasets"]
        for e, b in params["experiments"].items()
    }
    users = [e for e, ids in listed.items() if "iris" in ids]
    assert users  # the archive's iris is used
    assert one_error(capsys, "add-data", "data/local/x.csv", "--name", "iris") == (
        f"nbx: error: --name: 'iris' is taken: your file would replace the uci data set 'iris' (Iris), which "
        f"experiments {', '.join(users)} list; choose another name, or add --replace to replace it"
    )
    assert not (repo / "data" / "local" / "catalogue.yaml").exists()
    code, out, errors, _ = nbx(capsys, "add-data", "data/local/x.csv", "--name", "iris", "--replace")
    assert code == 0 and not errors and out.startswith("replaced 'iris' in data/local/catalogue.yaml: 4 rows")
    entry = yaml.safe_load((repo / "data" / "local" / "catalogue.yaml").read_text())["datasets"]["iris"]
    assert entry["delimiter"] == ";" and entry["columns"] == "ncy" and entry["attributes"] == 2
    assert entry["classes"] == 2 and entry["header_lines"] == 1


def test_add_data_refuses_a_catalogue_with_a_repeated_key_at_its_line(repo, capsys):
    """Rewriting the file would silently drop one of the two entries."""
    write(repo, "data/local/x.csv", csv_text())
    text = "datasets:\n  a:\n    title: A\n  a:\n    title: B\n"
    write(repo, "data/local/catalogue.yaml", text)
    assert one_error(capsys, "add-data", "data/local/x.csv", "--name", "mine") == (
        "nbx: error: data/local/catalogue.yaml:4: duplicate key 'a' (first at line 2); fix it or choose another "
        "--catalogue"
    )
    assert (repo / "data" / "local" / "catalogue.yaml").read_text() == text


def test_add_data_then_prepare_reads_the_semicolon_file(repo, capsys):
    """The audit's semicolon file: add-data's entry (2 attributes, 2 classes) is what prepare builds."""
    write(repo, "data/local/x.csv", csv_text(";"))
    assert nbx(capsys, "add-data", "data/local/x.csv", "--name", "mine")[0] == 0
    from nbx.data.catalogue import load_catalogue
    from nbx.data.prepare import build_table

    entry = load_catalogue([repo / "data" / "local" / "catalogue.yaml"])["mine"]
    table = build_table(entry, [repo / "data" / "local" / "x.csv"])
    np.testing.assert_array_equal(table.X, [[1.5, 1], [2, 0], [3.25, 1], [0.5, 0]])
    assert table.classes == ["no", "yes"]
    code, _, errors, _ = nbx(capsys, "add-data", "data/local/x.csv", "--name", "mine")
    assert (
        code == 1
        and "your file would replace the local data set 'mine' (x.csv), which no experiment lists" in errors[0]
    )
