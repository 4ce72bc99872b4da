"""The folder of the user's own data files and catalogues, data/local/: the prepare stages depend on it by content,
so an edit of a file there reruns what reads it, and a file elsewhere would be read without DVC seeing its edits."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

LOCAL_DIR = PurePosixPath("data/local")


def in_local_dir(path: str) -> bool:
    """Whether a repository-relative path names a file inside data/local/, with ``..`` and links resolved."""
    if not path or Path(path).is_absolute():
        return False
    root = Path.cwd().resolve()
    target, folder = (root / path).resolve(), (root / LOCAL_DIR).resolve()
    return target != folder and target.is_relative_to(folder)
