"""The documentation site: it builds with warnings as errors and internal references checked (-n), the landing
page and the NaiveBayes page carry the API reference's Parameters section, both render in a headless chromium to a
real picture, and the examples of docs/examples/ run."""

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


PAGES = {"landing": "index.html", "class": "generated/nbx.models.naive_bayes.NaiveBayes.html"}


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_in_chromium(site, tmp_path, page):
    """A screenshot in headless chromium shows a page, not a blank or unstyled one: the theme's stylesheet
    loaded (its navigation bar is a band of colour) and text covers a real share of the picture."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (.ci/run installs Debian's chromium)")
    image = pytest.importorskip("matplotlib.image")
    png = tmp_path / f"{page}.png"
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
            (site / PAGES[page]).as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    pixels = image.imread(png)[..., :3]  # floats in [0, 1], (height, width, rgb)
    assert pixels.shape[:2] == (1600, 1280)
    ink = (pixels.min(axis=2) < 0.6).mean()  # dark or coloured pixels: text, code, bars
    assert 0.02 < ink < 0.6, ink  # a blank page has none, a failed render may be all dark
    colours = {tuple(c) for c in (pixels[::8, ::8] * 15).round().reshape(-1, 3)}
    assert len(colours) > 20, len(colours)  # a styled page, not black text on white only


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
