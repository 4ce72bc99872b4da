"""The one reader of a user's own file: ``nbx evaluate``, ``fit``, ``predict``, ``add-data`` and ``prepare``'s
local catalogue entries all read through :func:`read_user_file`.

Only a regular file is read (a FIFO, device or directory is refused). Its encoding is UTF-8 (a byte-order mark
dropped) or UTF-16/UTF-32 with a byte-order mark (transcoded to UTF-8 as it is read); any other bytes, and a NUL
byte, are refused at file:line:column with a guess of the encoding (:mod:`nbx.data.encoding`). Lines end in
LF, CRLF or CR, in any mix.

A delimited text file's dialect is sniffed from its first lines (:func:`nbx.data.dialect.sniff`): the delimiter (one of
``,`` ``;`` tab ``|``: the one that splits every sampled record into the same number of fields, the most fields
when several do), double-quoted fields (of any length; they may hold line ends) and whether the first line
is a header (it is when a column is numeric below and not numeric on the first line, or when the first line
numbers the columns 0, 1, ... or 1, 2, ..., as ``pandas.DataFrame(X).to_csv(index=False)`` writes, said in a
note). ARFF files (``.arff``) are read by :func:`nbx.data.parsers.read_arff` and their data checked against the
header.

A number in a cell is what :data:`nbx.data.dialect.NUMBER` matches (numpy's reader's spelling): ASCII digits with an
optional sign, decimal point and exponent, or ``inf``/``infinity``/``nan`` in any case (refused below as not
finite), spaces around it. Python's ``float()`` also reads ``1_000`` and digits of other scripts: those are text
here, in every block alike. Column kinds follow Weka's CSV loader (:mod:`nbx.data.infer`): numeric when every value
that is not a missing marker is a number, else nominal; the class column is ``--class`` or the last one. Refused
with one line naming the file, line and column: duplicate or empty column names, a row with the wrong number of
fields, a non-finite number (``inf``, ``nan``: a missing value is written with a marker), an ARFF value its header
does not declare or declares twice.

Every guess a reader of the file could dispute and that the file does not settle (a delimiter other delimiters
would also fit, a header line guessed from nominal columns only, the class column taken as the last, the
missing-value markers met) is returned in :attr:`UserFile.assumptions` and printed by the commands as one
``nbx: note:`` line naming the option that changes it.

A file is read in blocks of lines (:data:`BLOCK_BYTES`) into a table preallocated from a first pass that checks
the encoding and counts the lines, so the memory held is the table (8 bytes per cell) plus a few blocks. A file of
:data:`PANDAS_BYTES` or more has each block parsed by pandas' C parser (:mod:`nbx.data.fastcsv`; the next
:data:`PARSE_THREADS` blocks on threads of their own while one is assembled, each alone), which declines a
block whose reading by pandas it cannot prove to be the csv module's (a quote inside a field, a blank line, a row
of the wrong length, a cell that is not a marker, a number or text): the csv module reads that block, one cell
at a time, and finds the exact line of any error; smaller files are read by the csv module alone.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import stat
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nbx.core.errors import did_you_mean
from nbx.data.dialect import DELIMITERS, Dialect, is_number, sniff, split_cells
from nbx.data.encoding import NotTextError, bom_encoding, not_utf8, read_text
from nbx.data.fastcsv import count, read_block
from nbx.data.parsers import DataFormatError, read_arff, value_order
from nbx.protocol.table import Table

CLASS_NAMES = ("class", "label", "target", "y")  # a last column named so is the class without a doubt
BLOCK_BYTES = 8 << 20  # one block of lines parsed at a time (its temporaries stay in the allocator after it)
PANDAS_BYTES = 1 << 20  # from this size on, blocks go through pandas: below it the csv module reads a file sooner
# than pandas is imported (~0.2 s)
PARSE_THREADS = 2  # blocks pandas parses at once, beside the one being assembled (the machines here have two cores)
SAMPLE_LINES = 200  # lines the dialect and the initial column kinds are sniffed from
QUOTED_BYTES = 16 << 20  # a block grows to find the end of a quoted field up to this size
# an ARFF file's peak while read (its rows are lists of strings until checked): bytes per cell plus a multiple
# of the file; measured ~19 and ~9 on files of 20 numbers (6 decimals) and of 20 one-digit values a row
ARFF_CELL_BYTES, ARFF_FILE_FACTOR = 24, 10
MEMORY_FACTOR = 4  # a command's peak memory, in units of the table's float64 cells (table + codes + fold copies)

# A quoted field may be as long as memory allows, not the csv module's 128 KiB. The limit is the module's, for the
# whole process: raised here, never lowered (2 GiB, a C long everywhere).
csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))


class UserFileError(DataFormatError):
    """A user's file cannot be read as a table (one line naming the file, line and column)."""


@dataclass
class Options:
    """What the command line says about the file; None = sniff or default."""

    class_column: str | None = None
    delimiter: str | None = None
    header: bool | None = None
    missing: list[str] | None = None


@dataclass
class UserFile:
    """The typed table of a user's file and how it was read."""

    table: Table  # rows with a missing class dropped (``keep_unlabelled`` keeps them, with y = -1)
    names: list[str]  # every column of the file, in order (a1, a2, ... without a header)
    class_column: str
    missing: list[str]
    lines: np.ndarray  # the file line of each table row
    labels: np.ndarray | None  # the class cells as written (predict compares them), None without a class column
    kinds: str  # per file column n / c / y / x (a catalogue entry's ``columns``)
    delimiter: str | None  # None for ARFF
    header: bool  # whether the first line named the columns (ARFF: always)
    assumptions: list[str] = field(default_factory=list)  # disputable guesses, with the option that changes each

    def note(self, path) -> str | None:
        """The assumptions as one line, or None when the file settled everything."""
        if not self.assumptions:
            return None
        return f"read {Path(path).name}: " + "; ".join(self.assumptions)


# ------------------------------------------------------------------------------------------------- sniffing
def _decode(data: bytes, encoding: str) -> str:
    text = data.decode(encoding)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _lf(data: bytes) -> bytes:
    """UTF-8 bytes with CRLF and CR line ends read as LF (neither byte is ever part of a longer character)."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data


class _Transcoded:
    """A UTF-16 or UTF-32 file read as UTF-8 bytes, block by block (``read(n)`` as a binary file's), so the
    readers of UTF-8 read it unchanged; its byte-order mark is dropped by the codec."""

    def __init__(self, path: Path, codec: str, label: str):
        self.file, self.label, self.codec = open(path, "rb"), label, codec  # noqa: SIM115 (closed by __exit__)
        self.decoder = codecs.getincrementaldecoder(codec)()
        self.buffer = b""

    def read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.file.read(n)
            try:
                self.buffer += self.decoder.decode(chunk, final=not chunk).encode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                raise UserFileError(
                    f"{self.label}: not valid {self.codec.upper()} text after its byte-order mark"
                ) from None
            if not chunk:
                break
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def _open(path: Path, codec: str, label: str):
    """The file as UTF-8 bytes: itself, or a UTF-16/32 file transcoded (:class:`_Transcoded`)."""
    return open(path, "rb") if codec == "utf-8-sig" else _Transcoded(path, codec, label)


def _scan(path: Path, label: str) -> tuple[str, int]:
    """(codec, number of lines) in one pass: the codec from the byte-order mark (UTF-8 without one); a file that is
    not UTF-8 (or holds a NUL byte, as UTF-16 without its mark does) is refused at its first such byte with a
    guess of its encoding (:mod:`nbx.data.encoding`). Lines end in LF, CRLF or CR, in any mix."""
    with open(path, "rb") as f:
        codec = bom_encoding(f.read(4))
    check = codecs.getincrementaldecoder("utf-8")() if codec == "utf-8-sig" else None
    lines, last = 0, b"\n"
    with _open(path, codec, label) as f:
        while chunk := f.read(BLOCK_BYTES):
            # ASCII is UTF-8 (isascii() is many times faster than decoding), unless it ends a character cut before it
            if check is not None and (not chunk.isascii() or check.getstate()[0]):
                try:
                    check.decode(chunk)
                except UnicodeDecodeError as exc:  # exc.object: the chunk and the bytes held from the last one
                    raise UserFileError(str(not_utf8(label, exc.object, exc.start, lines + 1))) from None
            if check is not None and b"\0" in chunk:
                raise UserFileError(str(not_utf8(label, chunk, chunk.index(b"\0"), lines + 1))) from None
            # a CR ends a line unless a LF follows it (a CRLF split between two chunks counts at the LF)
            n_cr = count(chunk, b"\r") if b"\r" in chunk else 0  # `in` is a memchr, count() a full pass
            lines += count(chunk, b"\n") + n_cr - (chunk.count(b"\r\n") if n_cr else 0)
            lines -= last == b"\r" and chunk[:1] == b"\n"
            last = chunk[-1:]
    return codec, lines + (last not in b"\r\n")  # a last line without its end


def _head(path: Path, codec: str, label: str) -> str:
    """The first lines of the file (about 1 MiB, and at least its first two lines whole however long), decoded."""
    with _open(path, codec, label) as f:
        head = f.read(1 << 20)
        while more := f.read(1 << 20):  # more follows: cut after the last whole line, or read on to two
            cut = max(head.rfind(b"\n"), head.rfind(b"\r")) + 1
            if len(head[:cut].splitlines()) >= 2:
                head = head[:cut]
                break
            head += more
    return _decode(head, "utf-8-sig")


# ------------------------------------------------------------------------------------------------- reading
def read_user_file(
    path,
    options: Options | None = None,
    kinds: dict[str, str] | str | None = None,
    keep_unlabelled: bool = False,
    name: str | None = None,
    label: str | None = None,
) -> UserFile:
    """Read a user's CSV or ARFF file (see the module docstring) as a :class:`UserFile`.

    ``kinds`` fixes the columns' kinds (``n`` numeric, ``c`` nominal, ``y`` class, ``x`` skipped): by name (every
    column not named is skipped; ``nbx predict`` reads a new file with a fitted model's columns so), or as a
    string of letters in column order (a catalogue entry's ``columns``). ``name``:
    the table's name (default the file's stem); ``label``: how errors name the file (default its path)."""
    path = Path(path)
    options = options or Options()
    label = label or str(path)
    check_regular(path, label)
    missing = list(options.missing) if options.missing is not None else ["?", "", "NA"]
    if path.suffix.lower() == ".arff":
        read = _read_arff(path, label, missing, options, kinds)
    else:
        read = _read_csv(path, label, missing, options, kinds)
    return _finish(read, name or path.stem, label, missing, options, kinds, keep_unlabelled)


def check_regular(path: Path, label: str) -> None:
    """Only a regular file is read (a FIFO would block, a device never end)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UserFileError(f"{label}: no such file") from None
    except OSError as exc:
        raise UserFileError(f"{label}: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise UserFileError(f"{label}: is a directory, not a data file")
    if not stat.S_ISREG(mode):
        what = {stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device", stat.S_IFIFO: "a FIFO"}
        raise UserFileError(f"{label}: is {what.get(stat.S_IFMT(mode), 'not a regular file')}; give a data file")


@dataclass
class _Read:
    names: list[str]
    kinds: str  # per file column: n, c, y, x
    X: np.ndarray  # (n, number of n/c columns) float; nominal columns hold ids into ``values``
    values: list[list[str]]  # per n/c column, the nominal values by id ([] numeric)
    y: np.ndarray | None  # class ids into ``classes``, -1 missing
    classes: list[str]
    lines: np.ndarray
    found: Counter  # missing marker -> cells
    assumptions: list[str]
    delimiter: str | None = None
    header: bool = True
    declared: frozenset = frozenset()  # file columns whose values keep their declared order (ARFF nominal)


class _KindChange(Exception):
    """A column read as numeric holds a value that is not a number: re-read it as nominal."""

    def __init__(self, column: int):
        self.column = column


def _read_csv(path: Path, label: str, missing, options: Options, kinds) -> _Read:
    codec, n_lines = _scan(path, label)
    sample = [line for line in _head(path, codec, label).split("\n")[:SAMPLE_LINES] if line.strip()]
    if not sample:
        raise UserFileError(f"{label}: the file is empty")
    try:
        dialect = sniff(sample, set(missing), options.delimiter, options.header)
    except ValueError as exc:
        raise UserFileError(f"{label}: cannot tell how the columns are separated: {exc} (give --delimiter)") from None
    rows = split_cells(sample, dialect.delimiter)
    n_cols = len(rows[0])
    if dialect.header:
        names = rows[0]
        _check_names(names, label)
        rows = rows[1:]
    else:
        names = [f"a{j + 1}" for j in range(n_cols)]
    assumptions = []
    how = f"{DELIMITERS.get(dialect.delimiter, repr(dialect.delimiter))}-separated"
    doubt = []
    if not dialect.delimiter_sure:
        doubt.append(f"as {how} (--delimiter to change)")
    if not dialect.header_sure:
        doubt.append(
            ("with the first line as the header" if dialect.header else "without a header line")
            + (f" ({dialect.header_why})" if dialect.header_why else "")
            + f" (--header {'no' if dialect.header else 'yes'} to change)"
        )
    if doubt:
        assumptions.append(" ".join(doubt))
    file_kinds = _initial_kinds(names, rows, missing, options.class_column, kinds, label)
    fixed = kinds is not None
    while True:
        try:
            read = _read_blocks(path, label, codec, n_lines, dialect, names, file_kinds, missing, fixed)
        except _KindChange as change:
            file_kinds = file_kinds[: change.column] + "c" + file_kinds[change.column + 1 :]
            continue
        read.assumptions, read.delimiter, read.header = assumptions, dialect.delimiter, dialect.header
        return read


def _check_names(names: list[str], label: str) -> None:
    empty = [j + 1 for j, n in enumerate(names) if not n]
    if empty:
        raise UserFileError(
            f"{label}:1: the header line has no name for column {', '.join(map(str, empty))}; name every column "
            "(or --header no if the first line is data)"
        )
    seen: dict[str, int] = {}
    for j, n in enumerate(names):
        if n in seen:
            raise UserFileError(
                f"{label}:1: column name {n!r} appears twice (columns {seen[n] + 1} and {j + 1}); rename one"
            )
        seen[n] = j


def _initial_kinds(names, rows, missing, class_column, kinds, label) -> str:
    """Per column n / c / y / x: ``kinds`` given, else from the sampled rows (numeric until a value says not)."""
    if kinds is not None:
        return _given_kinds(kinds, names, label)
    y = _class_index(names, class_column, label)
    missing = set(missing)
    out = []
    for j in range(len(names)):
        cells = [r[j] for r in rows if len(r) > j and r[j] not in missing]
        out.append("y" if j == y else "n" if all(map(is_number, cells)) else "c")
    return "".join(out)


def _class_index(names: list[str], class_column: str | None, label: str) -> int:
    """The class column: ``--class`` by name, else the last."""
    if class_column is not None and class_column not in names:
        raise UserFileError(f"{label}: no column {class_column!r} for the class{did_you_mean(class_column, names)}")
    return names.index(class_column) if class_column is not None else len(names) - 1


def _given_kinds(kinds: dict[str, str] | str, names: list[str], label: str) -> str:
    """Per file column its kind: ``kinds`` as letters in column order (a catalogue's ``columns``), or by name
    (``x`` for a name not given; every name but the class's must be in the file)."""
    if isinstance(kinds, str):
        if len(kinds) != len(names) or set(kinds) - set("ncyx") or kinds.count("y") != 1:
            raise UserFileError(
                f"{label}: columns {kinds!r} must have one letter n/c/y/x per column ({len(names)}) and one y"
            )
        return kinds
    absent = [n for n, k in kinds.items() if k != "y" and n not in names]
    if absent:
        needed = ", ".join(n for n, k in kinds.items() if k != "y")
        raise UserFileError(
            f"{label}: no column {absent[0]!r} (the model needs {needed}){did_you_mean(absent[0], names)}"
        )
    return "".join(kinds.get(n, "x") for n in names)


def check_memory(path: Path, rows: int, columns: int, label: str, need: int | None = None) -> None:
    """Refuse, before reading, a file whose table would not fit: the estimate ``need`` is by default
    :data:`MEMORY_FACTOR` times its float64 cells, against the memory available (MemAvailable of /proc/meminfo,
    and the address-space limit ``ulimit -v`` when one is set)."""
    need = MEMORY_FACTOR * 8 * rows * max(columns, 1) if need is None else need
    avail = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                avail.append(int(line.split()[1]) * 1024)
    except OSError:
        pass
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as f:
                used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            avail.append(soft - used)
    except (ImportError, OSError, ValueError):
        pass
    if avail and need > min(avail):
        raise MemoryFileError(path, label, rows, columns, need, min(avail))


class MemoryFileError(UserFileError):
    """A file too big for the memory available: refused before reading (with the estimate), or numpy ran out."""

    def __init__(self, path, label, rows=None, columns=None, need=None, avail=None):
        what = f"{label}: {_mb(Path(path).stat().st_size)}"
        if need is None:
            msg = f"{what}: ran out of memory"
        else:
            msg = (
                f"{what} ({rows:,} lines x {columns} columns) needs about {_mb(need)} of memory, "
                f"{_mb(max(avail, 0))} is available"
            )
        super().__init__(
            f"{msg}; free memory or raise the limit (ulimit -v), or use a sample of the rows (e.g. `head -n 100000`)"
        )


def _mb(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def _blocks(path: Path, codec: str, label: str):
    """(UTF-8 bytes, number of their first line) of consecutive blocks of whole lines, CRLF and CR read as LF, a
    byte-order mark dropped. A block ends at a line end outside double quotes (an even number of them before it),
    so a quoted field may hold line ends; unbalanced quotes (``5'10"`` in a field) stop that search after
    :data:`QUOTED_BYTES`."""
    line, rest, first = 1, b"", True
    with _open(path, codec, label) as f:
        while True:
            chunk = f.read(BLOCK_BYTES)
            data = rest + chunk
            if not chunk:
                if data:
                    yield _lf(data[3:] if first and data.startswith(codecs.BOM_UTF8) else data) + b"\n", line
                return
            # the last line end; a CR at the very end may be half of a CRLF: cut before it
            cut = max(data.rfind(b"\n", 0, len(data) - 1), data.rfind(b"\r", 0, len(data) - 1)) + 1
            if data.endswith(b"\n"):
                cut = len(data)
            if cut == 0 or (b'"' in data and count(memoryview(data)[:cut], b'"') % 2 and len(data) < QUOTED_BYTES):
                rest = data
                continue
            block, rest = _lf(data[:cut]), data[cut:]
            yield block[3:] if first and block.startswith(codecs.BOM_UTF8) else block, line
            first = False
            line += count(block, b"\n")


def _data_blocks(path: Path, codec: str, label: str, header: bool):
    """:func:`_blocks` without the header line and without blocks of blank lines only."""
    for block, line0 in _blocks(path, codec, label):
        if header and line0 == 1:
            block, line0 = block[block.index(b"\n") + 1 :], 2
        if block and not block.isspace():
            yield block, line0


def _parsed(blocks, ctx: _Context, fast: bool):
    """(block, its first line, :func:`nbx.data.fastcsv.read_block` of it or None) in file order. With ``fast``,
    pandas parses the next two blocks on two threads (its tokenizer and number parsing release the GIL) while
    this one is assembled; each block is parsed alone, so the result is the same in any order of the threads."""
    if not fast:
        yield from ((block, line0, None) for block, line0 in blocks)
        return
    pending: deque = deque()
    with ThreadPoolExecutor(max_workers=PARSE_THREADS) as pool:
        for block, line0 in blocks:
            pending.append((block, line0, pool.submit(read_block, block, ctx.delimiter, ctx.kinds, ctx.missing)))
            if len(pending) > PARSE_THREADS:
                block, line0, parsed = pending.popleft()
                yield block, line0, parsed.result()
        while pending:
            block, line0, parsed = pending.popleft()
            yield block, line0, parsed.result()


def _read_blocks(path, label, encoding, n_lines, dialect: Dialect, names, kinds: str, missing, fixed) -> _Read:
    used = [j for j, k in enumerate(kinds) if k != "x"]
    check_memory(path, n_lines, len(used), label)
    attr = [j for j, k in enumerate(kinds) if k in "nc"]
    X = np.empty((n_lines, len(attr)))
    y = np.empty(n_lines, np.int64) if "y" in kinds else None
    lines = np.empty(n_lines, np.int64)
    ids: list[dict[str, int]] = [{} for _ in kinds]  # nominal value -> id, per file column
    found: Counter = Counter()
    ctx = _Context(label, dialect.delimiter, names, kinds, set(missing), fixed, ids, found)
    fast = path.stat().st_size >= PANDAS_BYTES
    at = 0
    for block, line0, parsed in _parsed(_data_blocks(path, encoding, label, dialect.header), ctx, fast):
        read = _fast_block(parsed, line0, ctx) if parsed is not None else None
        cols, block_lines = read or _slow_block(block.decode("utf-8"), line0, ctx)
        n = len(block_lines)
        for k, j in enumerate(attr):
            X[at : at + n, k] = cols[j]
        if y is not None:
            y[at : at + n] = cols[kinds.index("y")]
        lines[at : at + n] = block_lines
        at += n
    if at == 0:
        raise UserFileError(f"{label}: no data rows")
    values = [list(ids[j]) if kinds[j] == "c" else [] for j in attr]
    classes = list(ids[kinds.index("y")]) if y is not None else []
    return _Read(names, kinds, X[:at], values, y[:at] if y is not None else None, classes, lines[:at], found, [])


@dataclass
class _Context:
    label: str
    delimiter: str
    names: list[str]
    kinds: str
    missing: set
    fixed: bool  # kinds given (predict): a non-number in a numeric column is an error, not a nominal column
    ids: list[dict[str, int]]
    found: Counter


def _fast_block(read, line0: int, ctx: _Context):
    """A block as pandas' C parser read it (:func:`nbx.data.fastcsv.read_block`), its values given their ids. A
    nominal column's distinct fields come in the order they are met, so their stripped values get their ids in
    the csv reader's order."""
    cols = dict(read.numbers)
    for j, codes in read.codes.items():
        ids, lookup = [], ctx.ids[j]
        for value, cells in zip(read.values[j], np.bincount(codes, minlength=len(read.values[j])).tolist()):
            if value in ctx.missing:
                ctx.found[value] += cells
            ids.append(-1 if value in ctx.missing else lookup.setdefault(value, len(lookup)))
        cols[j] = np.asarray(ids, np.int64)[codes]
    ctx.found.update(read.markers)
    return cols, line0 + np.arange(read.rows)


def _slow_block(text: str, line0: int, ctx: _Context):
    """The block parsed by the csv module, row by row: exact lines for every error."""
    reader = csv.reader(io.StringIO(text), delimiter=ctx.delimiter, skipinitialspace=True, strict=True)
    rows, lines = [], []
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(ctx.kinds):
                raise UserFileError(
                    f"{ctx.label}:{line0 + reader.line_num - 1}: expected {len(ctx.kinds)} fields "
                    f"({DELIMITERS.get(ctx.delimiter, repr(ctx.delimiter))}-separated), found {len(row)}"
                )
            rows.append(row)
            lines.append(line0 + reader.line_num - 1)
    except csv.Error as exc:
        raise UserFileError(f"{ctx.label}:{line0 + reader.line_num - 1}: {exc}") from None
    lines = np.asarray(lines, np.int64)
    return _columns(rows, lines, ctx), lines


def _columns(rows: list[list[str]], lines: np.ndarray, ctx: _Context) -> dict[int, np.ndarray]:
    """Per used column: floats (numeric, NaN missing) or value ids (nominal and class, -1 missing)."""
    cols = {}
    for j, kind in enumerate(ctx.kinds):
        if kind == "x":
            continue
        cells = np.array([r[j].strip() for r in rows], dtype=object)
        if kind == "n":
            cols[j] = _numbers(cells, lines, j, ctx)
        else:
            cols[j] = _nominal_ids(cells.astype(str) if len(cells) else np.array([], str), j, ctx)
    return cols


def _numbers(cells: np.ndarray, lines: np.ndarray, j: int, ctx: _Context) -> np.ndarray:
    present = np.flatnonzero(~_missing_mask(cells, ctx))
    out = np.full(len(cells), np.nan)
    # numpy's float() reads 1_000 too, as Python's does: each cell is checked against the one definition first
    bad = next((i for i in present if not is_number(cells[i])), None)
    if bad is not None:
        if not ctx.fixed:
            raise _KindChange(j)
        raise UserFileError(f"{ctx.label}:{lines[bad]}: column {ctx.names[j]!r}: {cells[bad]!r} is not a number")
    out[present] = np.array(cells[present], dtype=str).astype(float)
    infinite = present[~np.isfinite(out[present])]
    if len(infinite):
        i = infinite[0]
        raise UserFileError(
            f"{ctx.label}:{lines[i]}: column {ctx.names[j]!r}: {cells[i]!r} is not a finite number "
            f"(mark a missing value with {_marker(ctx.missing)})"
        )
    return out


def _marker(missing: set) -> str:
    """How this read marks a missing value, for a message: "'?' or an empty cell"."""
    shown = sorted(missing, key=lambda m: (m != "?", m != "", m))[:2]
    return " or ".join("an empty cell" if m == "" else repr(m) for m in shown) if shown else "a marker (--missing)"


def _missing_mask(cells: np.ndarray, ctx: _Context) -> np.ndarray:
    mask = np.zeros(len(cells), bool)
    for m in ctx.missing:
        if cells.dtype.kind == "S":
            try:
                hit = cells == m.encode("latin-1")
            except UnicodeEncodeError:
                continue
        else:
            hit = cells == m
        if hit.any():
            ctx.found[m] += int(hit.sum())
            mask |= hit
    return mask


def _nominal_ids(cells: np.ndarray, j: int, ctx: _Context) -> np.ndarray:
    """Ids of the values in first-seen order of the file (-1 missing); the order is fixed at the end."""
    is_missing = _missing_mask(cells, ctx)
    present = cells[~is_missing]
    _, first, inverse = np.unique(present, return_index=True, return_inverse=True)
    lookup = ctx.ids[j]
    values = present[first].tolist()
    mapped = np.array([lookup.setdefault(str(v), len(lookup)) for v in values], np.int64)
    out = np.full(len(cells), -1, np.int64)
    out[~is_missing] = mapped[inverse] if len(first) else []
    return out


def _arff_size(path: Path) -> tuple[int, int]:
    """(lines, @attribute lines before @data) of an ARFF file, counted in blocks without decoding it."""
    lines, attributes, in_header = 0, 0, True
    with open(path, "rb") as f:
        while block := f.read(BLOCK_BYTES):
            lines += block.count(b"\n")
            if in_header:  # a header line cut between two blocks is rare, and only moves the estimate
                low = block.lower()
                data = low.find(b"@data")
                attributes += low.count(b"@attribute", 0, len(low) if data < 0 else data)
                in_header = data < 0
    return max(lines, 1), max(attributes, 1)


def _read_arff(path: Path, label: str, missing, options: Options, kinds) -> _Read:
    """An ARFF file through :func:`nbx.data.parsers.read_arff` (which checks every row's number of values),
    then each value against the header: a number for a numeric attribute, a declared value for a nominal one."""
    rows, columns = _arff_size(path)
    need = ARFF_CELL_BYTES * rows * columns + ARFF_FILE_FACTOR * path.stat().st_size
    check_memory(path, rows, columns, label, need)
    try:
        raw = read_arff(path, name=label, text=read_text(path, label))
    except NotTextError as exc:
        raise UserFileError(str(exc)) from None
    names = [d[0] for d in raw.declared]
    _check_names(names, label)
    if kinds is not None:
        file_kinds = _given_kinds(kinds, names, label)
    else:
        y = _class_index(names, options.class_column, label)
        file_kinds = "".join(
            "y" if j == y else "n" if kind == "numeric" else "c" for j, (_, kind, _) in enumerate(raw.declared)
        )
    for j, (n, kind, _) in enumerate(raw.declared):
        if file_kinds[j] == "n" and kind != "numeric":
            raise UserFileError(f"{label}: attribute {n!r} is declared nominal, but is to be read as numeric")
    ids = [{v: k for k, v in enumerate(d[2])} for d in raw.declared]
    found: Counter = Counter()
    ctx = _Context(label, ",", names, file_kinds, set(missing), True, ids, found)
    lines = np.asarray(raw.lines, np.int64)
    cols = _columns(raw.rows, lines, ctx)
    for j, (n, kind, declared) in enumerate(raw.declared):
        if kind == "nominal" and file_kinds[j] != "x" and len(ids[j]) > len(declared):
            value = list(ids[j])[len(declared)]
            first = int(np.flatnonzero(cols[j] == ids[j][value])[0])
            raise UserFileError(
                f"{label}:{lines[first]}: attribute {n!r}: {value!r} is not one of the values its @attribute line "
                f"declares ({', '.join(declared)})"
            )
    attr = [j for j, k in enumerate(file_kinds) if k in "nc"]
    X = np.empty((len(lines), len(attr)))
    for k, j in enumerate(attr):
        X[:, k] = cols[j]
    y_col = file_kinds.find("y")
    return _Read(
        names,
        file_kinds,
        X,
        [list(ids[j]) if file_kinds[j] == "c" else [] for j in attr],
        cols[y_col] if y_col >= 0 else None,
        list(ids[y_col]) if y_col >= 0 else [],
        lines,
        found,
        [],
        declared=frozenset(j for j, d in enumerate(raw.declared) if d[1] == "nominal"),
    )


# -------------------------------------------------------------------------------------------------- table
def _finish(read: _Read, name, label, missing, options: Options, kinds, keep_unlabelled) -> UserFile:
    """Nominal ids put in value order (declared, else numeric, else alphabetical), NaN for missing; rows with a
    missing class dropped; the assumptions completed."""
    attributes = []
    attr_cols = [j for j, k in enumerate(read.kinds) if k in "nc"]
    for k, j in enumerate(attr_cols):
        values = read.values[k]
        if read.kinds[j] == "n":
            attributes.append({"kind": "numeric", "values": [], "name": read.names[j]})
            continue
        order = values if j in read.declared else value_order(values)
        _recode(read.X[:, k], values, order)
        attributes.append({"kind": "nominal", "values": list(order), "name": read.names[j]})
    labels = None
    classes: list[str] = []
    y = read.y
    if y is not None:
        order = read.classes if read.kinds.index("y") in read.declared else value_order(read.classes)
        remap = np.array([order.index(c) for c in read.classes] + [-1], np.int64)
        y = remap[y]  # -1 (missing) indexes the appended -1
        labels = np.asarray(order + [""], dtype=object)[y]
        classes = order
    X, lines = read.X, read.lines
    if y is not None and not keep_unlabelled and (y < 0).any():
        keep = y >= 0
        X, y, lines, labels = X[keep], y[keep], lines[keep], labels[keep]
    if y is not None and not keep_unlabelled:
        present = np.flatnonzero(np.bincount(y, minlength=len(classes)))
        if len(present) < len(classes):  # an ARFF may declare unused labels: drop them
            classes = [classes[k] for k in present]
            y = np.searchsorted(present, y)
    table = Table(name, X, (y if y is not None else np.zeros(len(X), np.int64)).astype(np.int64), attributes, classes)
    class_column = read.names[read.kinds.index("y")] if "y" in read.kinds else ""
    assumptions = list(read.assumptions)
    if kinds is None and options.class_column is None and class_column.lower() not in CLASS_NAMES:
        assumptions.append(f"class column {class_column!r}, the last (--class NAME to change)")
    if read.found:
        met = ", ".join(
            f"{'empty' if m == '' else repr(m)} ({read.found[m]} cell{'s' if read.found[m] > 1 else ''})"
            for m in missing
            if m in read.found
        )
        assumptions.append(f"missing values: {met}" + ("" if options.missing is not None else " (--missing to change)"))
    return UserFile(
        table, read.names, class_column, missing, lines, labels, read.kinds, read.delimiter, read.header, assumptions
    )


def _recode(column: np.ndarray, ids: list[str], order: list[str]) -> None:
    """Ids (first-seen order, -1 missing) -> positions in ``order`` (NaN missing), in place."""
    position = {v: k for k, v in enumerate(order)}
    remap = np.array([position[v] for v in ids] + [np.nan], float)
    idx = column.astype(np.int64)
    column[:] = remap[np.where(idx < 0, len(ids), idx)]
