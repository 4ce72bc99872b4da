"""The zip behind :mod:`nbx.core.persist`, read defensively: only a regular file, no bigger than a share of this
machine's memory, only stored or deflated members whose sizes add up within the same bound, and ``.npy``
members parsed here (header by numpy's literal reader, data by ``frombuffer``) so no pickle and no object
array can come out. Every refusal is one :class:`PersistError` naming the file."""

from __future__ import annotations

import io
import os
import stat
import zipfile
import zlib

import numpy as np

from nbx.core.errors import NbxError

ZIP_MAGIC = b"PK\x03\x04"
DATE = (1980, 1, 1, 0, 0, 0)  # zip's earliest: the same object gives the same bytes
ARRAY_KINDS = "biufcSUmM"  # bool, ints, floats, complex, bytes, text, dates: data, never objects
_FILE_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


class PersistError(NbxError, ValueError):
    """A file that is not an object tree nbx can load, or an object nbx cannot save."""


def memory_bytes() -> int:
    """This machine's physical memory (8 GiB where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def size_limit() -> int:
    """The most bytes a file, and the sum of its unpacked members, may have: a quarter of the memory, as
    loading holds the file, its members and the objects built from them at once."""
    return memory_bytes() // 4


def _mib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def read_regular_file(path, limit: int | None = None) -> bytes:
    """The bytes of ``path``, refused before reading when it is not a regular file (a FIFO would block, a
    device never ends) or is bigger than ``limit`` (default :func:`size_limit`). Opened without blocking and
    checked on the open descriptor, so a file swapped for a FIFO after a check cannot hang the reader."""
    limit = size_limit() if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise PersistError(f"{path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _FILE_KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
            raise PersistError(f"{path}: {kind}, not a model file; give the file `nbx fit --save` wrote")
        if info.st_size > limit:
            raise PersistError(
                f"{path}: {_mib(info.st_size)}, more than a model file may have here ({_mib(limit)}, a quarter "
                "of this machine's memory)"
            )
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # grew while read
        raise PersistError(f"{path}: more than {_mib(limit)}, more than a model file may have here")
    return data


def is_pickle(data: bytes) -> bool:
    """Whether ``data`` starts as a pickle of protocol 2 to 5 does (its PROTO opcode), read from the bytes."""
    return len(data) >= 2 and data[0] == 0x80 and 2 <= data[1] <= 5


def is_zip(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


# ----------------------------------------------------------------------------------------------- writing
def pack(document: str, text: bytes, arrays: dict[str, np.ndarray]) -> bytes:
    """A zip of ``document`` (its bytes ``text``) and one ``.npy`` member per array, deflated, dated 1980."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        _member(zf, document, text)
        for name, array in arrays.items():
            npy = io.BytesIO()
            np.lib.format.write_array(npy, array, allow_pickle=False)
            _member(zf, name, npy.getvalue())
    return buf.getvalue()


def _member(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data)


# ----------------------------------------------------------------------------------------------- reading
def unpack(data: bytes, label: str, limit: int | None = None) -> dict[str, bytes]:
    """Member name -> bytes of the zip ``data``; refuses duplicate names, encrypted or otherwise compressed
    members, and unpacked sizes above ``limit`` (default :func:`size_limit`) before unpacking any."""
    limit = size_limit() if limit is None else limit
    if not is_zip(data):
        raise PersistError(f"{label}: not an nbx model file (it does not start as a zip)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            names = [i.filename for i in infos]
            if len(set(names)) != len(names):
                raise PersistError(f"{label}: a member name appears twice in the zip")
            for info in infos:
                if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise PersistError(f"{label}: member {info.filename} is encrypted or compressed in another way")
            total = sum(i.file_size for i in infos)
            if total > limit:
                raise PersistError(f"{label}: its members unpack to {_mib(total)}, more than {_mib(limit)}")
            members = {}
            for info in infos:
                with zf.open(info) as f:
                    members[info.filename] = f.read(info.file_size + 1)
                if len(members[info.filename]) != info.file_size:
                    raise PersistError(f"{label}: member {info.filename} is not the size the zip says")
            return members
    except PersistError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise PersistError(f"{label}: a damaged or truncated model file ({type(exc).__name__}: {exc})") from None


def dtype_refusal(dtype: np.dtype) -> str | None:
    """Why an array or scalar of ``dtype`` is refused (objects, records, raw void), else None."""
    if dtype.hasobject:
        return f"dtype {dtype.str!r}: Python objects (loading them would unpickle)"
    if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        return f"dtype {dtype.str!r}: only plain numbers, booleans, text and dates are kept"
    return None


def read_npy(data: bytes, label: str) -> np.ndarray:
    """The array in an ``.npy`` member, as ``np.load(allow_pickle=False)`` would read it, but checked first:
    its dtype (:func:`dtype_refusal`) and that the data are exactly as long as the header's shape says."""
    f = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"npy version {version}")
    except (ValueError, SyntaxError, TypeError, KeyError) as exc:
        raise PersistError(f"{label}: not a readable .npy array ({exc})") from None
    reason = dtype_refusal(dtype)
    if reason:
        raise PersistError(f"{label}: refused {reason}")
    count = 1
    for n in shape:
        count *= n
    body = data[f.tell() :]
    if len(body) != count * dtype.itemsize:
        raise PersistError(
            f"{label}: {len(body)} bytes of data where shape {shape} of {dtype.str} needs {count * dtype.itemsize}"
        )
    if dtype.itemsize == 0:
        return np.zeros(shape, dtype, order="F" if fortran else "C")
    flat = np.frombuffer(bytearray(body), dtype=dtype, count=count)  # a bytearray: writeable, as np.load's
    return flat.reshape(shape[::-1]).transpose() if fortran else flat.reshape(shape)
