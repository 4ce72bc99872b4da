"""Tests that need data files never error for want of them (conftest): they read the mirror, else download
from the UCI archive, else skip with one reason."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request

from conftest import REPO, unavailable_reason


def test_an_empty_mirror_gives_one_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("NBX_UCI_MIRROR", str(tmp_path / "empty"))
    reason = unavailable_reason(tmp_path / "raw")
    assert reason.startswith(f"no data files: cannot fetch {tmp_path / 'empty'}/machine-learning-databases/iris/")


def test_without_a_mirror_the_archive_is_tried(tmp_path, monkeypatch):
    monkeypatch.delenv("NBX_UCI_MIRROR", raising=False)
    asked = []

    def offline(url, timeout=None):
        asked.append(url)
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    reason = unavailable_reason(tmp_path / "raw")
    assert asked == ["https://archive.ics.uci.edu/ml/machine-learning-databases/iris/iris.data"]
    assert reason.startswith("no data files: cannot fetch https://archive.ics.uci.edu/ml/")


def test_a_test_that_needs_data_is_skipped_not_failed(tmp_path):
    env = {**os.environ, "NBX_UCI_MIRROR": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "tests/data/test_data_io.py::test_count_mismatch_fails_loudly",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and out.stdout.count("SKIPPED [1]") == 1, out.stdout + out.stderr
    assert "no data files: cannot fetch" in out.stdout


def test_a_relative_mirror_means_the_same_in_a_copy_of_the_project(tmp_path):
    """``export NBX_UCI_MIRROR=../shared/uci`` then the tests: the end-to-end tests' copies see the same folder."""
    from conftest import absolute_mirror

    assert absolute_mirror("../shared/uci", tmp_path / "repo") == str((tmp_path / "shared" / "uci").resolve())
    assert absolute_mirror("/srv/uci", tmp_path) == "/srv/uci"
    assert absolute_mirror("https://example.org/uci", tmp_path) == "https://example.org/uci"
