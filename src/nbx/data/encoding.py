"""Which text encoding a user's file is in: UTF-8 (with or without a byte-order mark) and UTF-16 or UTF-32 with a
byte-order mark are read; anything else is refused with one line naming the file, line and column of the first
byte that is not UTF-8, a guess of the encoding and the command that converts it (never read as Latin-1 on a
guess: a wrong guess reads wrong values without a word)."""

from __future__ import annotations

import codecs
import shlex
from pathlib import Path

from nbx.core.errors import NbxError

# byte-order marks, longest first: UTF-32-LE's starts with UTF-16-LE's
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def bom_encoding(head: bytes) -> str:
    """The codec of a file starting with ``head`` ("utf-16"/"utf-32" decode their byte-order mark and drop it),
    "utf-8-sig" otherwise (UTF-8, a byte-order mark dropped)."""
    return next((codec for bom, codec in BOMS if head.startswith(bom)), "utf-8-sig")


def guess(data: bytes) -> tuple[str, str]:
    """(what ``data``, which is not UTF-8, looks like; iconv's name of it)."""
    if b"\0" in data:
        even, odd = data[0::2].count(0), data[1::2].count(0)
        return ("UTF-16-LE", "utf-16le") if odd > even else ("UTF-16-BE", "utf-16be")
    return "Latin-1/cp1252", "cp1252"


class NotTextError(NbxError, ValueError):
    """A file that is not in an encoding nbx reads; ``message`` names where and what to do, ``line``/``column``
    (1-based) where the first offending byte is."""

    def __init__(self, label: str, reason: str, line: int, column: int):
        self.line, self.column, self.reason = line, column, reason
        super().__init__(f"{label}:{line}:{column}: {reason}")


def not_utf8(label: str, data: bytes, at: int, line0: int = 1) -> NotTextError:
    """The error for bytes ``data`` (starting at line ``line0`` of the file) that are not text from offset ``at``
    on. A NUL byte counts as not text: it is a UTF-16 file without its byte-order mark far more often than a
    character of a table."""
    before = data[:at].decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    name, iconv = guess(data)
    converted = Path(label).with_name(f"{Path(label).stem}.utf8{Path(label).suffix}")
    return NotTextError(
        label,
        f"not UTF-8 text (byte 0x{data[at : at + 1].hex()}; it looks like {name}): convert it, e.g. "
        f"`iconv -f {iconv} -t utf-8 {shlex.quote(label)} > {shlex.quote(str(converted))}`",
        line0 + before.count("\n"),
        len(before) - before.rfind("\n"),
    )


def first_nul_or_error(data: bytes) -> int | None:
    """Offset of the first byte of ``data`` that makes it not text: a NUL, or the start of invalid UTF-8."""
    nul = data.find(b"\0")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start if nul < 0 else min(nul, exc.start)
    return None if nul < 0 else nul


def read_text(path: str | Path, label: str | None = None, utf8_only: bool = False) -> str:
    """A whole text file decoded (see the module docstring), CRLF and CR line ends read as LF; raises
    :class:`NotTextError` for any other encoding (``utf8_only``: for UTF-16 and UTF-32 too)."""
    label = label or str(path)
    data = Path(path).read_bytes()
    codec = bom_encoding(data[:4])
    if codec != "utf-8-sig" and utf8_only:
        converted = Path(label).with_name(f"{Path(label).stem}.utf8{Path(label).suffix}")
        raise NotTextError(
            label,
            f"{codec.upper()} text (its byte-order mark says so), not UTF-8: convert it, e.g. "
            f"`iconv -f {codec} -t utf-8 {shlex.quote(label)} > {shlex.quote(str(converted))}`",
            1,
            1,
        )
    if codec != "utf-8-sig":
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            raise NotTextError(label, f"not valid {codec.upper()} (byte {exc.start})", 1, 1) from None
    else:
        bad = first_nul_or_error(data)
        if bad is not None:
            raise not_utf8(label, data, bad)
        text = data.decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
