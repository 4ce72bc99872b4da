"""pandas' reading of a user's file (:mod:`nbx.data.fastcsv`) is the csv module's, cell for cell: the same
:class:`~nbx.data.userfile.UserFile` (every array to the bit, values, notes, lines) or the same error line as the
exact reader on generated files of every kind the reader meets (delimiters, quotes, line ends, byte-order marks,
UTF-16/32, markers, numeric/nominal mixes, headers, ragged rows), in one block and in many; every spelling of a
number pandas accepts is one of the reader's, read to the same double; what pandas would read otherwise is
declined to the csv reader."""

from __future__ import annotations

import codecs
from collections import Counter
from decimal import Decimal

import numpy as np
import pytest

import nbx.data.userfile as userfile
from nbx.data.dialect import is_number
from nbx.data.fastcsv import _space_before_quote, count, read_block
from nbx.data.userfile import Options, UserFileError, read_user_file

MISSING = {"?", "", "NA"}


# ------------------------------------------------------------------------------------- generated files
NUMBERS = ["1.5", "-2", "3.25e2", " +.5 ", "5.", "-2E-1", "0", "1e-400", "12345678901234567890", "0.1", "7"]
ODD_NUMBERS = ["1_000", "١٢", "inf", "nan", "-Infinity", "1e400", "\xa01.5", "0x10", "1e", "-999.0", "\t2"]
WORDS = ["red", "blue", "green", " red", "red ", "\xa0red", "blü", "日本", "NA", "?", "", "a b"]
WORDS += ["1", "01", "1.0", "true", "True"]  # pandas' category dtype reads 1.0 for the first three, True for two
QUOTED = ['"red"', '"red, dark"', ' "blue"', '""', '"a;b|c\td"']
BAD_QUOTES = ['"say ""hi"""', '"two\nlines"', 'ab"c', '"ab"c', '"ab" ', "5'10\""]


def _file(rng: np.random.Generator) -> tuple[bytes, Options, object]:
    """A random small file (bytes), the options to read it with and the kinds to give (None: inferred)."""
    d = str(rng.choice([",", ";", "\t", "|"]))
    n_cols, n_rows = int(rng.integers(2, 6)), int(rng.integers(1, 40))
    numeric = rng.random(n_cols) < 0.6
    odd = rng.random() < 0.3  # a file with cells pandas reads otherwise (declined to the csv reader)
    rows = []
    for _ in range(n_rows):
        row = []
        for j in range(n_cols):
            r = rng.random()
            if r < 0.08:
                cell = str(rng.choice(["?", "", "NA", " ? "]))
            elif numeric[j] and j < n_cols - 1:
                cell = str(rng.choice(ODD_NUMBERS if odd and r > 0.95 else NUMBERS))
                cell = f"{rng.normal() * 10.0 ** rng.integers(-5, 6):.{rng.integers(0, 18)}g}" if r < 0.5 else cell
            else:
                cell = str(rng.choice(WORDS[:3] if r < 0.6 else WORDS))
            if rng.random() < 0.1 and "\n" not in cell:
                cell = str(rng.choice(QUOTED)) if rng.random() < 0.7 else f'"{cell.strip()}"'
            if odd and rng.random() < 0.02:
                cell = str(rng.choice(BAD_QUOTES))
            row.append(cell)
        if odd and rng.random() < 0.03:
            row = row[:-1] if rng.random() < 0.5 else row + ["x"]  # a ragged row: an error at its line
        rows.append(row)
    if odd and rng.random() < 0.3:
        rows.insert(int(rng.integers(len(rows) + 1)), [str(rng.choice(["", "  "]))])  # a blank line
    header = [f"c{j}" for j in range(n_cols - 1)] + ["label"]
    if rng.random() < 0.2:
        header = [str(j) for j in range(n_cols)]  # a numbered header
    lines = ([header] if rng.random() < 0.7 else []) + rows
    ends = ["\n", "\r\n", "\r"]
    end = ends[int(rng.integers(3))]
    text = "".join(d.join(line) + (end if rng.random() < 0.9 else str(rng.choice(ends))) for line in lines)
    if rng.random() < 0.1:
        text = text.rstrip("\r\n")  # no line end after the last line
    encoding = str(rng.choice(["utf-8"] * 6 + ["utf-8-sig", "utf-16", "utf-16-be", "utf-32"]))
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    options = Options(
        delimiter=d if rng.random() < 0.3 else None,
        header=None if rng.random() < 0.8 else bool(rng.random() < 0.5),
        missing=None if rng.random() < 0.8 else ["?", "-999"],
    )
    kinds = None
    if rng.random() < 0.2:
        given = ["n" if numeric[j] and j < n_cols - 1 else "c" for j in range(n_cols)]
        given[-1] = "y"
        given[int(rng.integers(n_cols - 1))] = "x"  # a skipped column
        kinds = "".join(given)
    return data, options, kinds


def _read(path, options, kinds):
    """What the reader makes of a file: every field of the UserFile, arrays as bytes, or the error line."""
    try:
        read = read_user_file(path, options, kinds)
    except UserFileError as exc:
        return str(exc)
    t = read.table
    return (
        t.X.tobytes(),
        t.X.shape,
        t.y.tobytes(),
        t.attributes,
        t.classes,
        read.names,
        read.class_column,
        read.lines.tobytes(),
        None if read.labels is None else read.labels.tolist(),
        read.kinds,
        read.delimiter,
        read.header,
        read.assumptions,
    )


@pytest.mark.parametrize("seed", range(6))
def test_pandas_reads_every_generated_file_as_the_csv_reader_does(tmp_path, monkeypatch, seed):
    """Each file read in one block and in blocks of a few lines (some declined, some not), by pandas and by the
    csv reader alone (pandas from a size no file reaches). Blocks of a few lines read a file with a stray quote
    otherwise than one block does (a block may end inside what its quotes make a field): the same either way."""
    rng = np.random.default_rng(seed)
    parsed = []  # whether pandas read each block it was given (list.append: safe from the parsing threads)
    real = userfile.read_block

    def counted(*args):
        out = real(*args)
        parsed.append(out is not None)
        return out

    monkeypatch.setattr(userfile, "read_block", counted)
    for i in range(60):
        data, options, kinds = _file(rng)
        path = tmp_path / f"f{i}.csv"
        path.write_bytes(data)
        for block in (userfile.BLOCK_BYTES, 61):
            monkeypatch.setattr(userfile, "BLOCK_BYTES", block)
            monkeypatch.setattr(userfile, "PANDAS_BYTES", 1 << 60)
            exact = _read(path, options, kinds)
            monkeypatch.setattr(userfile, "PANDAS_BYTES", 0)
            assert _read(path, options, kinds) == exact, (data, options, kinds, block)
    assert sum(parsed) > 100 and parsed.count(False) > 10  # both readers were tried


def test_a_big_file_reads_as_the_csv_reader_does(tmp_path, monkeypatch):
    """A file over PANDAS_BYTES (pandas by default): quoted cells, markers in both kinds, CRLF, blocks of
    1 MiB; one row too short in a late block names its line from either reader."""
    rng = np.random.default_rng(7)
    n = 40_000
    x = np.char.mod("%.6f", rng.normal(size=(n, 3)) * 10)
    colour = np.array(["red", '"dark, red"', "blue", "?", ' "blü"'])[rng.integers(5, size=n)]
    x[rng.random((n, 3)) < 0.01] = "?"
    x[rng.random((n, 3)) < 0.01] = ""
    label = np.array(["yes", "no", "NA"])[rng.integers(3, size=n)]
    body = [",".join(r) for r in np.column_stack([x, colour, label]).tolist()]
    path = tmp_path / "big.csv"
    path.write_bytes(("a,b,c,colour,label\r\n" + "\r\n".join(body) + "\r\n").encode())
    assert path.stat().st_size > userfile.PANDAS_BYTES
    monkeypatch.setattr(userfile, "BLOCK_BYTES", 1 << 20)
    fast = _read(path, None, None)
    monkeypatch.setattr(userfile, "PANDAS_BYTES", 1 << 60)
    assert _read(path, None, None) == fast
    marks = [(x == "?").sum() + (colour == "?").sum(), (x == "").sum(), (label == "NA").sum()]
    assert fast[-1] == [
        "missing values: '?' ({} cells), empty ({} cells), 'NA' ({} cells) (--missing to change)".format(*marks)
    ]
    assert fast[1] == (n - marks[2], 4)  # rows without a class dropped
    body[30_000] = body[30_000].rsplit(",", 1)[0]
    path.write_bytes(("a,b,c,colour,label\n" + "\n".join(body) + "\n").encode())
    error = f"{path}:30002: expected 5 fields (comma-separated), found 4"
    assert _read(path, None, None) == error
    monkeypatch.setattr(userfile, "PANDAS_BYTES", 0)
    assert _read(path, None, None) == error


# ------------------------------------------------------------------------------------------------ numbers
def _spelling(rng: np.random.Generator) -> str:
    """Random characters of numbers and words, or a number's parts (sign, digits, point, exponent) with one
    character changed half of the time."""
    if rng.random() < 0.4:
        return "".join(rng.choice(list("0123456789.eE+-_ ") + ["inf", "nan", "x", "١", "\t"], size=rng.integers(1, 7)))
    parts = [
        rng.choice(["", "+", "-", " "]),
        "1" * int(rng.integers(0, 3)),
        rng.choice(["", ".", "."]),
        "25"[: rng.integers(0, 3)],
    ]
    parts += [rng.choice(["", "e", "E", "e+", "e-"]) + "7" * int(rng.integers(0, 4)), rng.choice(["", " "])]
    cell = "".join(map(str, parts))
    if rng.random() < 0.5 and cell:
        k = int(rng.integers(len(cell)))
        cell = cell[:k] + str(rng.choice(list("0._e+- x,"))) + cell[k + 1 :]
    return cell


def test_every_spelling_pandas_reads_is_a_number_of_the_reader_read_to_the_same_double():
    """Random spellings, one block each: read_block either declines the block or reads the reader's numbers (and
    markers) only, each to float(cell) bit for bit."""
    rng = np.random.default_rng(3)
    read = Counter()
    for cell in {_spelling(rng) for _ in range(3000)}:
        block = read_block(f"{cell},a\n".encode(), ",", "ny", MISSING)
        read[block is not None] += 1
        if block is not None:
            value = block.numbers[0][0]
            if cell.strip() in MISSING:
                assert np.isnan(value) and block.markers == Counter({cell.strip(): 1})
            else:
                assert is_number(cell) and value.tobytes() == np.float64(float(cell)).tobytes(), cell
    assert read[True] > 100 and read[False] > 100


def test_decimals_halfway_between_two_doubles_round_as_python_does():
    """The hardest decimals to round: exactly between two neighbouring doubles, and one digit either side."""
    rng = np.random.default_rng(11)
    cells = []
    for v in rng.normal(size=300) * 10.0 ** rng.integers(-300, 300, size=300):
        mid = (Decimal(float(v)) + Decimal(float(np.nextafter(v, np.inf)))) / 2
        cells += [f"{mid:.40e}", f"{mid:.17e}", f"{mid + Decimal(10) ** (mid.adjusted() - 40):.45e}"]
    cells += ["9007199254740993", "2.2250738585072011e-308", "4.9406564584124654e-324", "1" + "0" * 400 + "e-400"]
    block = read_block("".join(f"{c},a\n" for c in cells).encode(), ",", "ny", MISSING)
    assert block.numbers[0].tobytes() == np.array([float(c) for c in cells]).tobytes()


# ------------------------------------------------------------------------------------------------ blocks
def test_a_block_read_by_pandas_by_hand():
    block = read_block(b'1.5,"red, dark",yes\n?, blue ,no\n,\xc2\xa0red,NA\n', ",", "ncy", MISSING)
    assert block.rows == 3 and block.markers == Counter({"?": 1, "": 1})
    np.testing.assert_array_equal(block.numbers[0], [1.5, np.nan, np.nan])
    assert [block.values[1][k] for k in block.codes[1]] == ["red, dark", "blue", "red"]
    assert [block.values[2][k] for k in block.codes[2]] == ["yes", "no", "NA"]  # markers stay text here


@pytest.mark.parametrize(
    "data, why",
    [
        (b'1,"say ""hi""",y\n', "a quote inside a quoted field"),
        (b'1,"two\nlines",y\n', "a line end inside a quoted field"),
        (b'1,"ab"c,y\n', "text after a closing quote (the csv reader refuses it)"),
        (b'1,"ab" ,y\n', "a space after a closing quote"),
        (b'1,ab"c,y\n', "a quote inside an unquoted field"),
        (b"1,a,y,z\n2,b\n", "a long first row and a short one: the same delimiters in all"),
        (b"1,a,y\n2,b,n,z\n3,c\n", "a long row and a short one"),
        (b"1,a,y\n\n2,b,n\n", "a blank line"),
        (b"1,a,y\n   \n2,b,n\n", "a line of spaces"),
        (b"inf,a,y\n", "infinity, refused at its line by the csv reader"),
        (b"1e999,a,y\n", "a number beyond the float range"),
        (b"nan,a,y\n", "nan"),
        (b"1_000,a,y\n", "Python's spelling of a thousand: text"),
        (b"\xd9\xa1,a,y\n", "an Arabic-Indic digit: text"),
        (b"-999.0,a,y\n", "equal to the numeric marker -999, but not the marker"),
        (b" ,a,y\n", "an empty cell when '' is no marker"),
        (b"1 a,y\n", "one field short (a space is not the delimiter)"),
    ],
)
def test_blocks_pandas_would_read_otherwise_are_declined(data, why):
    assert read_block(data, ",", "ncy", {"?", "-999"}) is None, why


def test_skipped_columns_are_checked_line_by_line():
    """With a column skipped pandas ignores a line's extra fields: a long row and a short one are declined."""
    assert read_block(b"1,a,y\n2,b,n,z\n3,c\n", ",", "nxy", MISSING) is None
    block = read_block(b'1,"a,b",y\n2,c,n\n', ",", "nxy", MISSING)
    assert block.numbers[0].tolist() == [1, 2] and set(block.codes) == {2}


def test_count_is_bytes_count():
    data = b"a,b\r\nc,,d\n\n" * 7
    assert [count(data, c) for c in (b",", b"\n", b"\r", b"x")] == [data.count(c) for c in (b",", b"\n", b"\r", b"x")]


def test_space_before_quote_is_the_two_byte_search():
    rng = np.random.default_rng(7)
    cases = [b"", b'"', b" ", b' "', b'" ', b'a"b', b'x, "a",b\n']
    cases += [bytes(rng.choice(list(b' "a,\n'), size=rng.integers(0, 12)).tolist()) for _ in range(500)]
    assert [_space_before_quote(c) for c in cases] == [b' "' in c for c in cases]


def test_a_no_break_space_around_a_value_is_stripped_in_every_block(tmp_path, monkeypatch):
    """numpy's reader kept it (``\\xa0red`` a value of its own) where the csv module, in a block with a marker,
    strips it: one value, ``red``, whichever reader reads the block."""
    rows = [f"{i}.5,{chr(0xA0) if i % 2 else ''}red,{'yes' if i % 3 else 'no'}" for i in range(40)]
    rows[30] = "?,red,no"  # the last block goes to the csv reader, the others through pandas
    path = tmp_path / "x.csv"
    path.write_text("w,colour,label\n" + "\n".join(rows) + "\n")
    monkeypatch.setattr(userfile, "PANDAS_BYTES", 0)
    monkeypatch.setattr(userfile, "BLOCK_BYTES", 200)
    read = read_user_file(path)
    assert read.table.attributes[1]["values"] == ["red"] and read.table.X[:, 1].tolist() == [0] * 40
    assert read.assumptions == ["missing values: '?' (1 cell) (--missing to change)"]
