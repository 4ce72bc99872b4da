"""Download archive files by their path relative to the UCI archive root, verify sha256, write atomically.

Files come from the origin ``https://archive.ics.uci.edu/ml/`` or, when the environment variable
``NBX_UCI_MIRROR`` is set, from that mirror: a URL or a local folder with the archive's layout. The
mirror holds files uncompressed, so ``origin.compression`` (the archive's ``.Z`` files) applies to the
origin only. A user's local file (``local: true``) is read where it is, never copied or looked up in a
mirror; its sha256 is checked when the catalogue gives one (files under data/local/ need none).
"""

from __future__ import annotations

import os
from pathlib import Path

from nbx.core.errors import NbxError
from nbx.core.io import sha256_bytes, sha256_file, write_bytes
from nbx.data.catalogue import Entry, FileSpec
from nbx.data.local import LOCAL_DIR
from nbx.data.lzw import unlzw

ORIGIN = "https://archive.ics.uci.edu/ml/"
MIRROR_ENV = "NBX_UCI_MIRROR"


class FetchError(NbxError, RuntimeError):
    """A file could not be fetched or failed verification."""


def mirror() -> str | None:
    return os.environ.get(MIRROR_ENV) or None


def _is_url(location: str) -> bool:
    return location.split(":", 1)[0] in ("http", "https", "file", "ftp")


def _read(location: str, relpath: str) -> bytes:
    if _is_url(location):
        import urllib.request  # here, not at the top: it adds ~15 ms to every process that loads data

        url = location.rstrip("/") + "/" + relpath
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.read()
    return (Path(location) / relpath).read_bytes()


def source_description(spec: FileSpec) -> str:
    """Where a file is fetched from, for messages."""
    m = mirror()
    if m:
        return (m.rstrip("/") + "/" + spec.path) if _is_url(m) else str(Path(m) / spec.path)
    return ORIGIN + (spec.origin_path or spec.path)


def local_file(dataset: str, spec: FileSpec, repo_root: Path = Path(".")) -> Path:
    """A user's file, where it is; errors name its path (never the mirror) and say how to fix them."""
    path = repo_root / spec.path
    if not path.is_file():
        raise FetchError(
            f"data set {dataset!r}: local file {spec.path} does not exist (catalogue paths of "
            f"local files are relative to the repository root)"
        )
    if spec.sha256 is not None:
        digest = sha256_file(path)
        if digest != spec.sha256:
            raise FetchError(
                f"data set {dataset!r}: {spec.path} changed since its catalogue entry was written "
                f"(sha256 {digest[:12]}..., catalogue {spec.sha256[:12]}...); re-run `nbx add-data "
                f"{spec.path} --name {dataset}` after editing it (files under {LOCAL_DIR}/ need no "
                f"sha256)"
            )
    return path


def fetch_file(dataset: str, spec: FileSpec, dest_root: Path, repo_root: Path = Path(".")) -> Path:
    """Fetch one file into ``dest_root / spec.path`` unless a verified copy is already there (a local file:
    its own path, see :func:`local_file`)."""
    if spec.local:
        return local_file(dataset, spec, repo_root)
    dest = dest_root / spec.path
    if dest.exists() and sha256_file(dest) == spec.sha256:
        return dest
    where = source_description(spec)
    try:
        if mirror():
            data = _read(mirror(), spec.path)
        else:
            data = _read(ORIGIN, spec.origin_path or spec.path)
            if spec.compression == "Z":
                data = unlzw(data)
    except (OSError, ValueError) as exc:  # urllib's URLError is an OSError
        raise FetchError(
            f"data set {dataset!r}: cannot fetch {where}: {exc}. "
            f"Set {MIRROR_ENV} to a mirror of the UCI archive (a URL or a folder with the "
            f"archive's layout) if the origin is unreachable."
        ) from None
    digest = sha256_bytes(data)
    if digest != spec.sha256:
        raise FetchError(
            f"data set {dataset!r}: sha256 mismatch for {where}: expected {spec.sha256}, got "
            f"{digest} ({MIRROR_ENV}={mirror() or 'unset'}); the file is not the catalogued one"
        )
    write_bytes(dest, data)
    return dest


def fetch_entry(entry: Entry, dest_root: Path, repo_root: Path = Path(".")) -> list[Path]:
    """Fetch every file of an entry. Mirror-only stand-ins fail with a clear error when no mirror is set."""
    if entry.source == "mirror-only" and not mirror():
        raise FetchError(
            f"data set {entry.name!r} exists only as a stand-in in the offline mirror "
            f"({', '.join(f.path for f in entry.files)}); set {MIRROR_ENV}"
        )
    return [fetch_file(entry.name, spec, dest_root, repo_root) for spec in entry.files]
