"""Figure files of the reports: matplotlib without a display, atomic PNG writes, paths per experiment."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files only, no display
from pathlib import Path

import matplotlib.pyplot as plt

from nbx.core.io import atomic_path
from nbx.pipeline import layout

__all__ = ["figure_path", "plot_path", "plt", "save_figure"]


def plot_path(ctx, file: str) -> Path:
    """data/plots/<experiment>/<file>: the data of the report stage's ``dvc plots`` (dvc.yaml), beside the figures."""
    return layout.DATA / "plots" / ctx.exp.name / file


def figure_path(ctx, file: str) -> str:
    """reports/figures/<experiment>/<file>; the markdown link from the report is figures/<experiment>/<file>."""
    return str(layout.REPORTS / "figures" / ctx.exp.name / file)


def save_figure(fig, path) -> None:
    """Write a PNG atomically (no timestamp metadata, so reruns give the same bytes) and close the figure."""
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120, metadata={"Software": None})
    plt.close(fig)
