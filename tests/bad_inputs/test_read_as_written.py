"""A user's file read as what it is, or refused with one line naming file:line(:column), never read silently as
something else: its encoding (UTF-8 with or without a byte-order mark, UTF-16/32 with one; anything else
refused with a guess), a header of column numbers, what a number is, line ends of any mix, fields of any size
(quoted ones holding line ends), a header line over 1 MiB, ARFF value lists (a value declared twice, backslash
escapes, unterminated quotes), and only regular files (:mod:`nbx.data.userfile`, :mod:`nbx.data.parsers`)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from nbx.cli import main
from nbx.data.userfile import read_user_file

ROWS = [("1.5", "red", "yes"), ("2", "blue", "no"), ("3.25", "red", "yes"), ("0.5", "blue", "no")]
TEXT = "w,colour,label\n" + "".join(",".join(r) + "\n" for r in ROWS)


@pytest.fixture(autouse=True)
def no_traceback(monkeypatch):
    monkeypatch.delenv("NBX_DEBUG", raising=False)


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def one_error(capsys, path, *more) -> str:
    """The one ``nbx: error:`` line of ``nbx evaluate`` on ``path`` (exit code 1, nothing on stdout)."""
    code = main(["evaluate", str(path), "--learners", "NaiveBayes", "--cv", "2", *more])
    out, err = capsys.readouterr()
    assert (code, out, len(err.splitlines())) == (1, "", 1), err
    return err.removeprefix("nbx: error: ").rstrip("\n")


def assert_toy(read) -> None:
    """The table of ROWS: w numeric, colour nominal (blue < red), classes no < yes, rows on lines 2-5."""
    np.testing.assert_array_equal(read.table.X, [[1.5, 1], [2, 0], [3.25, 1], [0.5, 0]])
    assert [a["name"] for a in read.table.attributes] == ["w", "colour"]
    assert read.table.attributes[1]["values"] == ["blue", "red"] and read.table.classes == ["no", "yes"]
    assert read.table.y.tolist() == [1, 0, 1, 0] and read.lines.tolist() == [2, 3, 4, 5]


# ------------------------------------------------------------------------------------------------ encodings
@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_file_with_a_byte_order_mark_is_decoded(tmp_path, codec):
    """UTF-16 was read byte by byte (a NUL in every cell, the numeric column nominal, exit 0)."""
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}.get(codec, b"")
    read = read_user_file(write(tmp_path, "x.csv", bom + TEXT.encode(codec)))
    assert_toy(read)
    assert read.assumptions == []


def test_a_utf16_file_in_small_blocks_reads_the_same(tmp_path, monkeypatch):
    import nbx.data.userfile as userfile

    rows = [(f"{i / 7:.4f}", ["red", "blü"][i % 2], ["yes", "no"][i % 3 > 0]) for i in range(200)]
    text = "w,colour,label\n" + "".join(",".join(r) + "\r\n" for r in rows)
    whole = read_user_file(write(tmp_path, "a.csv", text))
    monkeypatch.setattr(userfile, "BLOCK_BYTES", 101)  # odd: blocks end in the middle of a character
    blocks = read_user_file(write(tmp_path, "b.csv", text.encode("utf-16")))
    np.testing.assert_array_equal(blocks.table.X, whole.table.X)
    assert blocks.table.attributes[1]["values"] == ["blü", "red"] and blocks.lines.tolist() == list(range(2, 202))


def test_latin1_is_refused_at_its_first_byte_with_a_guess(tmp_path, capsys):
    path = write(tmp_path, "x.csv", TEXT.replace("blue", "bl\xe4u", 2).encode("latin-1"))
    assert one_error(capsys, path) == (
        f"{path}:3:5: not UTF-8 text (byte 0xe4; it looks like Latin-1/cp1252): convert it, e.g. "
        f"`iconv -f cp1252 -t utf-8 {path} > {tmp_path / 'x.utf8.csv'}`"
    )


def test_utf16_without_a_byte_order_mark_is_refused(tmp_path, capsys):
    path = write(tmp_path, "x.csv", TEXT.encode("utf-16-le"))
    assert one_error(capsys, path) == (
        f"{path}:1:2: not UTF-8 text (byte 0x00; it looks like UTF-16-LE): convert it, e.g. "
        f"`iconv -f utf-16le -t utf-8 {path} > {tmp_path / 'x.utf8.csv'}`"
    )


def test_a_bad_byte_deep_in_a_big_file_is_named_at_its_line(tmp_path, capsys, monkeypatch):
    import nbx.data.userfile as userfile

    monkeypatch.setattr(userfile, "BLOCK_BYTES", 64)
    body = "".join(f"{i}.5,red,yes\n" for i in range(100))
    path = write(tmp_path, "x.csv", ("w,colour,label\n" + body).encode() + b"7,r\xffd,no\n")
    assert one_error(capsys, path).startswith(f"{path}:102:4: not UTF-8 text (byte 0xff; it looks like Latin-1")


def test_a_truncated_utf16_file_is_one_line(tmp_path, capsys):
    path = write(tmp_path, "x.csv", TEXT.encode("utf-16")[:-1])
    assert one_error(capsys, path) == f"{path}: not valid UTF-16 text after its byte-order mark"


def test_a_latin1_arff_is_refused_too(tmp_path, capsys):
    arff = "@relation r\n@attribute w numeric\n@attribute c {caf\xe9, tea}\n@data\n1,tea\n2,caf\xe9\n"
    path = write(tmp_path, "x.arff", arff.encode("latin-1"))
    assert one_error(capsys, path).startswith(f"{path}:3:18: not UTF-8 text (byte 0xe9; it looks like Latin-1")


def test_a_utf16_arff_is_decoded(tmp_path):
    arff = "@relation r\n@attribute w numeric\n@attribute c {café, tea}\n@data\n1,tea\n2,café\n3,tea\n"
    read = read_user_file(write(tmp_path, "x.arff", arff.encode("utf-16")))
    assert read.table.classes == ["café", "tea"] and read.table.X[:, 0].tolist() == [1, 2, 3]


# ------------------------------------------------------------------------------------------ numbered header
@pytest.mark.parametrize(
    "header, names, numbered",
    [
        ("0,1,label", ["0", "1"], "0..1"),  # pandas.DataFrame(X).assign(label=y).to_csv(index=False)
        ("0,1,2", ["0", "1"], "0..2"),  # every column numbered, the class too
        ("1,2,label", ["1", "2"], "1..2"),
    ],
)
def test_a_header_of_column_numbers_is_the_header_with_a_note(tmp_path, capsys, header, names, numbered):
    rows = [f"{i / 3:.3f},{i * 1.5 + 0.25},{'ab'[i % 2]}" for i in range(10)]
    path = write(tmp_path, "x.csv", header + "\n" + "\n".join(rows) + "\n")
    read = read_user_file(path)
    assert [a["name"] for a in read.table.attributes] == names and len(read.table.y) == 10 and read.header
    assert read.table.classes == ["a", "b"] and read.lines.tolist() == list(range(2, 12))
    assert read.assumptions[0] == (
        f"with the first line as the header (it numbers the columns {numbered}) (--header no to change)"
    )
    code = main(["evaluate", str(path), "--learners", "NaiveBayes", "--cv", "2", "--header", "no"])
    assert code == 0 and "11 rows" in capsys.readouterr().out  # the option the note names reads it as data


def test_a_first_row_of_0_1_in_a_table_of_0_1_is_data(tmp_path):
    rows = ["0,1,yes", "1,0,no", "1,1,yes", "0,0,no"]
    read = read_user_file(write(tmp_path, "x.csv", "\n".join(rows) + "\n"))
    assert not read.header and len(read.table.y) == 4 and read.table.X[0].tolist() == [0, 1]


# -------------------------------------------------------------------------------------------------- numbers
@pytest.mark.parametrize("spelling", ["1_000", "0x10", "١٢", "１２", "1e", "1.5f"])
def test_python_only_spellings_of_a_number_are_text(tmp_path, spelling):
    """One definition of a number in every block: numpy's reader's (ASCII digits, sign, point, exponent)."""
    rows = [("1.5", "yes"), (spelling, "no"), ("3", "yes"), ("4", "no")]
    path = write(tmp_path, "x.csv", "w,label\n" + "".join(f"{a},{b}\n" for a, b in rows))
    read = read_user_file(path)
    assert read.table.attributes[0]["kind"] == "nominal" and spelling in read.table.attributes[0]["values"]


@pytest.mark.parametrize("spelling, value", [("1e3", 1000.0), (" +.5 ", 0.5), ("5.", 5.0), ("-2E-1", -0.2)])
def test_the_spellings_numpy_reads_are_numbers(tmp_path, spelling, value):
    path = write(tmp_path, "x.csv", f"w,label\n1,yes\n{spelling},no\n3,yes\n")
    read = read_user_file(path)
    assert read.table.attributes[0]["kind"] == "numeric" and read.table.X[1, 0] == value


def test_an_underscore_number_in_a_models_numeric_column_is_refused(tmp_path, capsys):
    train = write(tmp_path, "t.csv", "w,label\n1,yes\n2,no\n3,yes\n4,no\n")
    assert main(["fit", str(train), "--learner", "NaiveBayes", "--save", str(tmp_path / "m.pkl")]) == 0
    new = write(tmp_path, "n.csv", "w,label\n1,yes\n1_000,no\n")
    assert main(["predict", str(tmp_path / "m.pkl"), str(new)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"nbx: error: {new}:3: column 'w': '1_000' is not a number"


# ------------------------------------------------------------------------------------------------ line ends
@pytest.mark.parametrize("ends", [["\r", "\n", "\r", "\n"], ["\r\n", "\r", "\n", "\r"], ["\n", "\r\n", "\r", "\r"]])
def test_line_ends_of_any_mix(tmp_path, ends):
    """CR-only ends mixed with LF ended in an internal error (more lines than counted)."""
    lines = TEXT.splitlines()
    text = lines[0] + ends[0] + "".join(line + end for line, end in zip(lines[1:], ends[1:] + ["\n"]))
    assert_toy(read_user_file(write(tmp_path, "x.csv", text)))


def test_cr_line_ends_across_blocks(tmp_path, monkeypatch):
    import nbx.data.userfile as userfile

    rows = [f"{i / 7:.4f},{['red', 'blue'][i % 2]},{['yes', 'no'][i % 3 > 0]}" for i in range(300)]
    ends = ["\r", "\n", "\r\n"]
    text = "w,colour,label\r\n" + "".join(r + ends[i % 3] for i, r in enumerate(rows))
    whole = read_user_file(write(tmp_path, "a.csv", "w,colour,label\n" + "\n".join(rows) + "\n"))
    for size in (17, 64, 97):  # CRLF split between blocks at some of them
        monkeypatch.setattr(userfile, "BLOCK_BYTES", size)
        mixed = read_user_file(write(tmp_path, "b.csv", text))
        np.testing.assert_array_equal(mixed.table.X, whole.table.X)
        assert mixed.lines.tolist() == list(range(2, 302))


def test_a_cr_only_file_over_1_mib_is_not_empty(tmp_path):
    rows = [f"{i},{i % 7}.5,{'ab'[i % 2]}" for i in range(120_000)]
    read = read_user_file(write(tmp_path, "x.csv", "n,w,label\r" + "\r".join(rows) + "\r"))
    assert len(read.table.y) == 120_000 and read.lines[-1] == 120_001


# --------------------------------------------------------------------------------------------- field sizes
@pytest.mark.parametrize("quote", ['"', ""])
@pytest.mark.parametrize("row", [1, 3])
def test_a_1_mib_cell_reads(tmp_path, quote, row):
    """A quoted cell of 1 MiB crashed (the csv module's 128 KiB limit; the sample cut inside it)."""
    big = "x" * (1 << 20)
    rows = [list(r) for r in ROWS]
    rows[row][1] = quote + big + quote
    read = read_user_file(write(tmp_path, "x.csv", "w,colour,label\n" + "".join(",".join(r) + "\n" for r in rows)))
    assert big in read.table.attributes[1]["values"] and read.table.y.tolist() == [1, 0, 1, 0]
    assert read.assumptions == []


def test_a_quoted_field_holding_line_ends(tmp_path, monkeypatch):
    import nbx.data.userfile as userfile

    notes = ["two\nlines", "two", "two", "two", "two"]
    rows = [f'{i}.5,"{notes[i % 5]}",{"ab"[i % 2]}' for i in range(60)]
    path = write(tmp_path, "x.csv", "w,note,label\n" + "\n".join(rows) + "\n")
    for size in (1 << 20, 40):  # blocks cut everywhere: never inside the quotes
        monkeypatch.setattr(userfile, "BLOCK_BYTES", size)
        read = read_user_file(path)
        assert read.table.attributes[1]["values"] == ["two", "two\nlines"] and len(read.table.y) == 60
        assert read.assumptions == []


def test_a_header_line_over_1_mib_is_read(tmp_path):
    """It was reported as "the file is empty"."""
    names = [f"column_{j}" for j in range(80_000)]
    rows = ["".join(f"{(i + j) % 3}," for j in range(80_000 - 1)) + "ab"[i % 2] for i in range(3)]
    read = read_user_file(write(tmp_path, "x.csv", ",".join(names) + "\n" + "\n".join(rows) + "\n"))
    assert read.names == names and read.table.X.shape == (3, 79_999) and read.header


# ------------------------------------------------------------------------------------------------------ ARFF
ARFF = "@relation r\n@attribute w numeric\n@attribute colour {values}\n@attribute label {{yes, no}}\n@data\n"


def test_an_arff_value_declared_twice_is_refused_at_its_line(tmp_path, capsys):
    """It shifted the codes of every value after it."""
    path = write(tmp_path, "x.arff", ARFF.format(values="{red, blue, red, green}") + "1,red,yes\n2,green,no\n")
    assert one_error(capsys, path) == f"{path}:3: attribute 'colour': the value 'red' is declared twice; remove one"


def test_backslash_escapes_in_an_arff_value_list(tmp_path):
    """A backslash-escaped quote crashed (unterminated quote, an internal error)."""
    path = write(
        tmp_path,
        "x.arff",
        ARFF.format(values="{'it\\'s', \"a\\\\b\", 'c,d'}") + "1,'it\\'s',yes\n2,'c,d',no\n3,\"a\\\\b\",no\n",
    )
    read = read_user_file(path)
    assert read.table.attributes[1]["values"] == ["it's", "a\\b", "c,d"]
    assert read.table.X[:, 1].tolist() == [0, 2, 1]


def test_an_unterminated_quote_in_an_arff_value_list_is_one_line(tmp_path, capsys):
    path = write(tmp_path, "x.arff", ARFF.format(values="{'red, blue}") + "1,red,yes\n")
    assert one_error(capsys, path) == f"{path}:3: attribute 'colour': unterminated quote"


def test_an_arff_too_big_for_memory_is_refused_before_reading(tmp_path, monkeypatch):
    import nbx.data.userfile as userfile

    seen = {}

    def refuse(path, rows, columns, label, need=None):
        seen.update(rows=rows, columns=columns, need=need)
        raise userfile.MemoryFileError(path, label, rows, columns, need, 0)

    monkeypatch.setattr(userfile, "check_memory", refuse)
    monkeypatch.setattr(userfile, "read_arff", lambda *a, **k: pytest.fail("read before the estimate"))
    path = write(tmp_path, "x.arff", ARFF.format(values="{red, blue}") + "1,red,yes\n" * 100)
    with pytest.raises(userfile.MemoryFileError, match=r"x\.arff: 0 MiB \(105 lines x 3 columns\) needs about"):
        read_user_file(path)
    assert seen["need"] == 24 * 105 * 3 + 10 * path.stat().st_size


# ----------------------------------------------------------------------------------------- regular files only
def test_a_fifo_as_data_is_one_line_without_waiting(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.csv")  # opening it for reading would wait for a writer forever
    assert one_error(capsys, tmp_path / "pipe.csv") == f"{tmp_path / 'pipe.csv'}: is a FIFO; give a data file"


def test_a_device_or_directory_as_data_is_one_line(tmp_path, capsys):
    assert one_error(capsys, "/dev/null") == "/dev/null: is a character device; give a data file"
    assert one_error(capsys, tmp_path) == f"{tmp_path}: is a directory, not a data file"


def test_add_data_names_a_fifo_as_such(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe.csv")
    assert main(["add-data", "pipe.csv", "--name", "p"]) == 1
    assert capsys.readouterr() == ("", "nbx: error: pipe.csv: is a FIFO; give a data file\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.csv"]


def test_results_and_timings_with_a_byte_order_mark_read(tmp_path):
    from nbx.cli.results import load_timings

    path = tmp_path / "t.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"iris": {"wall_seconds": 1.5}}')
    assert load_timings(path) == {"iris": {"wall_seconds": 1.5}}
