"""The documentation site: it builds with warnings as errors and internal references checked (-n), the landing
page and the NaiveBayes page carry the API reference's Parameters section, the landing page renders in a headless
chromium to a real picture, and the examples of docs/examples/ run."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = sorted((DOCS / "examples").glob("*.py"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install -e '.[docs]')")
    pytest.importorskip("numpydoc", reason="numpydoc is not installed (pip install -e '.[docs]')")
    pytest.importorskip("myst_parser", reason="myst-parser is not installed (pip install -e '.[docs]')")
    pytest.importorskip("pydata_sphinx_theme", reason="pydata-sphinx-theme is not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("html")
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return out


def test_landing_and_class_pages(site):
    landing = (site / "index.html").read_text()
    assert "naive Bayes" in landing and "API reference" in landing
    page = (site / "generated" / "nbx.models.naive_bayes.NaiveBayes.html").read_text()
    for text in ("Parameters", "Attributes", "References", "Examples", "Wiering", "NaiveBayes.fit"):
        assert text in page, text


def test_landing_page_renders(site, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed")
    png = tmp_path / "landing.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1280,1600",
            f"--screenshot={png}",
            (site / "index.html").as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert png.exists() and png.stat().st_size > 20_000  # a blank page is a few kB


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script):
    if "sklearn" in script.read_text():
        pytest.importorskip("sklearn")
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert run.returncode == 0, run.stderr[-4000:]
