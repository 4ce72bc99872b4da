"""Atomic file output and hashing: nothing half-written survives a crash or an error, and an error names the file
being written, never the temporary file behind it."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
from pathlib import Path

import numpy as np


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path next to ``path``; rename it over ``path`` only if the block succeeds.

    The file gets the mode a plain ``open`` would give (0666 minus the umask): mkstemp's private 0600
    would otherwise survive the rename and hide reports from other users of a shared machine. An OSError
    about the folder or the temporary file is raised as one about ``path`` (same errno, so the same subclass:
    PermissionError, IsADirectoryError, ...)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a parent is a file, or not writable
        raise _about(path, exc, f"cannot create the folder {exc.filename}: {exc.strerror}") from exc
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _about(path, exc) from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        if isinstance(exc.filename, str | bytes) and Path(os.fsdecode(exc.filename)) not in (tmp, path):
            raise  # about another file the block used: its own name is the right one
        raise _about(path, exc) from exc
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
