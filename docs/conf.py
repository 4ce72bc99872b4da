"""Sphinx configuration of the nbx site: API reference from the numpydoc docstrings, guide pages that include
the README's sections (one source of truth), the paper reports and a few runnable examples.

Build: ``pip install -e '.[docs]' && sphinx-build -W -n -b html docs docs/_build/html``.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # the checkout's nbx, also without an editable install

import nbx  # noqa: E402

project = "nbx"
author = "the nbx developers"
copyright = "the nbx developers, BSD-3-Clause"
version = release = nbx.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md", "examples/*.py"]
templates_path = ["_templates"]

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": True, "show-inheritance": True}
autodoc_member_order = "groupwise"
numpydoc_show_class_members = False  # autodoc lists the members; numpydoc's own table would duplicate them
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set = set()

myst_heading_anchors = 3  # the README's [..](#same-bytes-on-which-machines) links
myst_enable_extensions = ["colon_fence"]

# Nitpicky mode (-n) checks every internal reference. The docstrings name private helpers and type words
# (ndarray, array-like) that have no page of their own: those are ignored here, by pattern, not globally.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|pd|pandas|sklearn)\..*"),
    (r"py:.*", r"nbx\.(core|data|pipeline|protocol|stats|report|papers|cli)\..*"),
    (r"py:.*", r"nbx\.models\.(variance|binned_kde|weka_optimization|\w+_loops)(\..*)?"),
    (r"py:(class|obj|data|func|meth|attr)", r"[A-Za-z_]\w*"),  # bare names of module-level helpers
    (r"py:.*", r"nbx\..*\._\w+"),  # private bases shown by show-inheritance
    (r"py:.*", r"nbx\.discretize\.base\.TransformerMixin"),
    (r"py:.*", r"nbx\.models\.muv\.(COMBINERS|paper_members)"),
    (r"py:.*", r"nbx\.discretize\.base\.\w+"),  # the discretizers' shared helpers (magnitudes, edges)
]
# The docstrings write an absolute value as |x| (plain text in help()); in reST that is a substitution reference,
# so it is defined as itself.
rst_prolog = ".. |x| replace:: \\|x\\|\n"
# The README is written for GitHub: its links to repository files (benchmarks/README.md) and to anchors of sections
# that the guide puts on another page have no target here, and its ### subsections follow a ## the guide page
# drops. Only these two myst warnings are silenced; everything else fails the -W build.
suppress_warnings = ["myst.xref_missing", "myst.header"]

# External links are not checked (no internet on the build machines); internal ones are, by -n.
linkcheck_ignore = [r"https?://.*"]

html_theme = "pydata_sphinx_theme"
html_title = f"nbx {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
toc_object_entries_show_parents = "hide"  # the page's table of contents: fit(), not NaiveBayes.fit(), which it cut off
