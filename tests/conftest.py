"""Shared test setup: where the data files come from.

``NBX_UCI_MIRROR`` when it is set (default: ../shared/uci next to the repository, when that folder exists),
else the UCI archive itself, as the pipeline does. Tests that need data files take the ``raw_dir`` /
``load_dataset`` fixtures (or ``mirror`` for the whole pipeline); when neither source delivers a probe file
(no mirror and no network) they are skipped with that one reason, never failed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "uci"
if "NBX_UCI_MIRROR" not in os.environ and DEFAULT_MIRROR.is_dir():
    os.environ["NBX_UCI_MIRROR"] = str(DEFAULT_MIRROR)


def absolute_mirror(value: str, cwd: Path) -> str:
    """A mirror folder given relative to where the tests were started, made absolute; URLs unchanged. The
    end-to-end tests run the pipeline in copies of the project elsewhere, where a relative path would point to
    another folder."""
    return value if "://" in value or Path(value).is_absolute() else str((cwd / value).resolve())


if os.environ.get("NBX_UCI_MIRROR"):
    os.environ["NBX_UCI_MIRROR"] = absolute_mirror(os.environ["NBX_UCI_MIRROR"], Path.cwd())
os.environ.setdefault("DVC_NO_ANALYTICS", "1")
# One BLAS thread: the tests' problems are tiny, and on a shared machine threaded BLAS inside scipy's
# L-BFGS-B (logistic regression, HBayes) is 4-10x slower than one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

PROBE = "iris"  # a small file every source has


def unavailable_reason(dest: Path) -> str | None:
    """None when the probe data set can be fetched into ``dest``, else why not (one line)."""
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import MIRROR_ENV, FetchError, fetch_entry, source_description

    entry = load_catalogue()[PROBE]
    try:
        fetch_entry(entry, dest)
    except FetchError:
        return (
            f"no data files: cannot fetch {source_description(entry.files[0])}; set {MIRROR_ENV} to a UCI "
            f"mirror (e.g. ../shared/uci) or let the tests reach the archive"
        )
    return None


@pytest.fixture(scope="session")
def raw_dir(tmp_path_factory) -> Path:
    """This session's download cache; skips the test when no data source delivers (see the module docstring)."""
    dest = tmp_path_factory.mktemp("raw")
    reason = unavailable_reason(dest)
    if reason:
        pytest.skip(reason)
    return dest


@pytest.fixture(scope="session")
def mirror(raw_dir) -> str | None:
    """The mirror the pipeline will read (None: the UCI archive); skips when no data source delivers."""
    from nbx.data.fetch import mirror as configured

    return configured()


@pytest.fixture(scope="session")
def load_dataset(raw_dir):
    """Build a prepared table from the catalogue: load_dataset('iris'); skips when its files cannot be had
    (e.g. a mirror-only stand-in without a mirror)."""
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import FetchError, fetch_entry
    from nbx.data.prepare import build_table

    cat = load_catalogue()
    cache = {}

    def load(name: str):
        if name not in cache:
            entry = cat[name]
            try:
                paths = fetch_entry(entry, raw_dir) if entry.source != "generator" else []
            except FetchError as exc:
                pytest.skip(f"{name}: {exc}")
            cache[name] = build_table(entry, paths)
        return cache[name]

    return load
