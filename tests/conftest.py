"""Shared test setup: the offline UCI mirror (NBX_UCI_MIRROR, default ../shared/uci next to the repo)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "uci"
os.environ.setdefault("NBX_UCI_MIRROR", str(DEFAULT_MIRROR))
os.environ.setdefault("DVC_NO_ANALYTICS", "1")
# One BLAS thread: the tests' problems are tiny, and on a shared machine threaded BLAS inside scipy's
# L-BFGS-B (logistic regression, HBayes) is 4-10x slower than one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(scope="session")
def mirror() -> Path:
    path = Path(os.environ["NBX_UCI_MIRROR"])
    if not (path / "MANIFEST.tsv").exists():
        pytest.fail(f"NBX_UCI_MIRROR={path} is not a UCI mirror (no MANIFEST.tsv); set it to ../shared/uci")
    return path


@pytest.fixture(scope="session")
def load_dataset(mirror, tmp_path_factory):
    """Build a prepared table from the catalogue via the mirror: load_dataset('iris')."""
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import fetch_entry
    from nbx.data.prepare import build_table

    cat = load_catalogue()
    raw = tmp_path_factory.mktemp("raw")
    cache = {}

    def load(name: str):
        if name not in cache:
            entry = cat[name]
            paths = fetch_entry(entry, raw) if entry.source != "generator" else []
            cache[name] = build_table(entry, paths)
        return cache[name]

    return load
