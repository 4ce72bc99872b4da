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
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                          "tests/data/test_data_io.py::test_count_mismatch_fails_loudly"],
                         cwd=REPO, env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.count("SKIPPED [1]") == 1, out.stdout + out.stderr
    assert "no data files: cannot fetch" in out.stdout
