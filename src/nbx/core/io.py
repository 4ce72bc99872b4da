"""Atomic file output and hashing: nothing half-written survives a crash or an error, and an error names the file
being written, never the temporary file behind it.

Outputs go only to regular files or new paths: a device, FIFO, socket or directory at the path is refused (a
rename would replace a device node with a file), and a symbolic link is written through, its target replaced
atomically, never the link itself (:func:`output_target`)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import stat
import tempfile
from pathlib import Path

import numpy as np

# what a path that is not a regular file is, by the type bits of its mode
_NOT_REGULAR = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


def output_target(path: str | os.PathLike) -> Path:
    """The file that writing ``path`` replaces: ``path``, or the final target of a symbolic link (written through,
    the link kept). Raises an OSError naming ``path`` when it is empty, a directory, or something other than a
    regular file (device, FIFO, socket), or when its links loop."""
    if os.fspath(path) in ("", b""):
        raise OSError(errno.ENOENT, "an empty output path; give a file name", "''")
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return target  # a new file (a dangling link's target is created, as open() would); a bad folder: see below
    except OSError as exc:  # a loop of links, no permission
        raise _about(path, exc) from exc
    if stat.S_ISDIR(mode):
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(mode):
        what = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")
        raise OSError(errno.EINVAL, f"is {what}, not a regular file; write to a file", str(path))
    return target


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path next to ``path``; rename it over ``path`` only if the block succeeds. ``path`` is
    checked first (:func:`output_target`): a symbolic link is written through, anything but a regular file or a
    new path refused.

    The file gets the mode a plain ``open`` would give (0666 minus the umask): mkstemp's private 0600
    would otherwise survive the rename and hide reports from other users of a shared machine. An OSError
    about the folder or the temporary file is raised as one about ``path`` (same errno, so the same subclass:
    PermissionError, IsADirectoryError, ...)."""
    shown = Path(path)  # errors name the path as given, not a link's target
    path = output_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a parent is a file, or not writable
        raise _about(shown, exc, f"cannot create the folder {exc.filename}: {exc.strerror}") from exc
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _about(shown, exc) from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        if isinstance(exc.filename, str | bytes) and Path(os.fsdecode(exc.filename)) not in (tmp, path, shown):
            raise  # about another file the block used: its own name is the right one
        raise _about(shown, exc) from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _about(path: Path, exc: OSError, reason: str | None = None) -> OSError:
    """``exc`` naming ``path``; OSError(errno, ...) picks the subclass of the errno."""
    return OSError(exc.errno, reason or exc.strerror or str(exc), str(path))


def _umask() -> int:
    mask = os.umask(0)  # the only portable way to read it is to set it
    os.umask(mask)
    return mask


def write_bytes(path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(data)


def write_text(path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_json(path, obj) -> None:
    write_text(path, json.dumps(obj, indent=2, sort_keys=True, allow_nan=False) + "\n")


def write_npz(path, **arrays) -> None:
    """Compressed npz written atomically; byte-identical for identical arrays (no timestamps in npz)."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    write_bytes(path, buf.getvalue())


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
