"""Figure files of the reports: matplotlib without a display, atomic PNG writes, paths per experiment, and the
report's generic figures: dot plots of accuracy and of ours − published per data set, ours-vs-published scatters
whose labels do not collide."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files only, no display
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from nbx.core.io import atomic_path
from nbx.pipeline import layout

__all__ = [
    "dot_plot",
    "figure_path",
    "gap_plot",
    "place_labels",
    "plot_path",
    "plt",
    "save_figure",
    "vs_published_scatter",
]

MARKERS = "osD^vP<>Xh"  # one shape per series, beside its colour (tab10), for grey-scale prints
MAX_SERIES = 20  # series a dot plot tells apart (two rounds of the ten colours, shapes shifted in the second)
ROW_INCHES = 0.3  # height of one data set's row in the dot plots


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


def _style(k: int) -> dict:
    """Series k's colour and shape: every (colour, shape) pair differs for the first MAX_SERIES series (from the
    eleventh on, the shapes shift by one against the colours)."""
    return {"color": f"C{k % 10}", "marker": MARKERS[(k + k // 10) % len(MARKERS)]}


def _dodge(n: int, span: float = 0.56) -> np.ndarray:
    """Vertical offsets of n series within one row (one unit high), so equal values do not hide each other."""
    return np.linspace(-span / 2, span / 2, n) if n > 1 else np.zeros(1)


def _rows_axes(rows: Sequence[str], width: float = 7.5):
    """A figure with one band per row (data set), the first at the top, every other band shaded."""
    fig, ax = plt.subplots(figsize=(width, ROW_INCHES * len(rows) + 1.1))
    for i in range(0, len(rows), 2):
        ax.axhspan(i - 0.5, i + 0.5, color="0.94", lw=0, zorder=0)
    ax.set_yticks(np.arange(len(rows)), rows, fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color="0.85", lw=0.6)
    ax.set_axisbelow(True)
    return fig, ax


def _legend_outside(ax, **kw) -> None:
    """The legend right of the axes, never over the data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False, borderaxespad=0, **kw)


def dot_plot(path, rows: Sequence[str], series: dict, published: dict | None = None, xlabel: str = "") -> None:
    """One row per data set, one dot per series (learner) in it, nudged apart vertically; ``published[name]``,
    where given, as a black tick at the height of that series' dot. Values are per row, NaN = none. The axis
    spans the values (not from 0), so differences of a point or two show."""
    published = published or {}
    fig, ax = _rows_axes(rows)
    offsets = _dodge(len(series))
    y = np.arange(len(rows))
    values = [np.asarray(v, float) for v in series.values()] + [np.asarray(v, float) for v in published.values()]
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.zeros(0)
    tick = {"marker": "|", "s": 30, "color": "black", "linewidths": 1.0}
    for k, (name, v) in enumerate(series.items()):
        v = np.asarray(v, float)
        ax.scatter(v, y + offsets[k], s=16, linewidths=0, label=name, zorder=3, **_style(k))
        pub = np.asarray(published.get(name, np.full(len(rows), np.nan)), float)
        if np.isfinite(pub).any():
            ax.scatter(pub, y + offsets[k], zorder=4, **tick)
    if any(np.isfinite(np.asarray(v, float)).any() for v in published.values()):
        ax.scatter([], [], label="published (at its learner's height)", **tick)
    if len(finite):
        lo, hi = float(finite.min()), float(finite.max())
        ax.set_xlim(np.floor(lo - 1), np.ceil(hi + 1))
    ax.set_xlabel(xlabel, fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    _legend_outside(ax)
    fig.tight_layout()
    save_figure(fig, path)


def gap_plot(
    path,
    rows: Sequence[str],
    cells: Sequence[tuple[int, str, float, float]],
    tolerance: float = 3.0,
    xlabel: str = "ours − published",
    title: str = "",
) -> None:
    """Ours − published per data set: ``cells`` are (row, series, gap, std); each gap is a dot around 0, the grey
    band is ± ``tolerance`` and a cell outside max(tolerance, 2 std) (std of our splits: the report's rule) gets
    a black ring."""
    fig, ax = _rows_axes(rows)
    names = list(dict.fromkeys(c[1] for c in cells))
    offsets = _dodge(len(names))
    ax.axvspan(-tolerance, tolerance, color="0.82", lw=0, zorder=1, label=f"± {tolerance:g} points")
    ax.axvline(0, color="black", lw=0.8, zorder=2)
    for k, name in enumerate(names):
        mine = [c for c in cells if c[1] == name]
        r = np.array([c[0] for c in mine], float) + offsets[k]
        gap = np.array([c[2] for c in mine], float)
        std = np.array([c[3] for c in mine], float)
        far = np.abs(gap) > np.maximum(tolerance, 2 * std)
        style = _style(k)
        ax.scatter(gap, r, s=18, linewidths=0, label=name, zorder=4, **style)
        if far.any():
            ax.scatter(gap[far], r[far], s=46, facecolors="none", edgecolors="black", linewidths=0.9, zorder=5)
    gaps = [c[2] for c in cells]
    ax.set_xlim(min(gaps + [-tolerance - 1.0]) - 1.0, max(gaps + [tolerance + 1.0]) + 1.0)  # the band always shows
    ax.set_xlabel(xlabel, fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    if title:
        ax.set_title(title, fontsize=9)
    ax.scatter(
        [], [], s=46, facecolors="none", edgecolors="black", linewidths=0.9, label=f"outside max({tolerance:g}, 2 std)"
    )
    _legend_outside(ax)
    fig.tight_layout()
    save_figure(fig, path)


# candidate label offsets (points) around a point: close ones first, then farther ones with a leader line
NEAR = [(4, 3), (4, -3), (-4, 3), (-4, -3), (6, 0), (-6, 0), (0, 6), (0, -6)]
FAR = [(dx * 2.5, dy * 2.5) for dx, dy in NEAR] + [(dx * 4, dy * 4) for dx, dy in NEAR]


def place_labels(ax, x, y, labels, order, fontsize: float = 7, marker_px: float = 4.0) -> list[int]:
    """Label the points ``order`` (indices, most important first) where a label overlaps no point, no label
    placed before and no text already on the axes, and stays inside them: each tries the offsets of NEAR, then
    those of FAR (with a thin leader line); a label with no free place is left out. Call it once the axes'
    layout is final. Returns the indices labelled."""
    renderer = ax.figure.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    xy = ax.transData.transform(np.column_stack([x, y]))
    points = [Bbox.from_extents(px - marker_px, py - marker_px, px + marker_px, py + marker_px) for px, py in xy]
    taken = [t.get_window_extent(renderer).padded(1.0) for t in ax.texts]  # titles, notes already drawn
    done = []
    for i in order:
        for dx, dy in NEAR + FAR:
            far = (dx, dy) not in NEAR
            text = ax.annotate(
                labels[i],
                (x[i], y[i]),
                xytext=(dx, dy),
                textcoords="offset points",
                ha="left" if dx > 0 else "right" if dx < 0 else "center",
                va="bottom" if dy > 0 else "top" if dy < 0 else "center",
                fontsize=fontsize,
                arrowprops={"arrowstyle": "-", "color": "0.4", "lw": 0.6, "shrinkA": 1, "shrinkB": 3} if far else None,
            )
            text.update_positions(renderer)
            bb = Text.get_window_extent(text, renderer).padded(1.0)  # the text, not its leader line
            inside = box.x0 <= bb.x0 and bb.x1 <= box.x1 and box.y0 <= bb.y0 and bb.y1 <= box.y1
            if inside and not any(bb.overlaps(o) for o in taken + points):
                taken.append(bb)
                done.append(i)
                break
            text.remove()
    return done


def vs_published_scatter(path, published, ours, names, title: str = "", n_labels: int = 8, band: float = 3.0):
    """Our accuracy against the published one, one point per data set, the diagonal and a band of ± ``band``
    points around it (red points lie outside). Labelled where a label fits (:func:`place_labels`): the points
    outside the band, or the ``n_labels`` farthest from the diagonal if that is more, never one within a point
    of it. Returns the names labelled."""
    pub, mine = np.asarray(published, float), np.asarray(ours, float)
    fig, ax = plt.subplots(figsize=(5, 5))
    lo, hi = min(pub.min(), mine.min()) - 2, max(pub.max(), mine.max()) + 2
    ax.fill_between([lo, hi], [lo - band, hi - band], [lo + band, hi + band], color="0.9", lw=0, label=f"± {band:g}")
    ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8)
    gap = mine - pub
    far = np.abs(gap) > band
    ax.scatter(pub[~far], mine[~far], s=14, color="C0", zorder=3)
    ax.scatter(pub[far], mine[far], s=14, color="C3", zorder=3)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel("published accuracy (%)")
    ax.set_ylabel("nbx accuracy (%)")
    ax.set_title(title, fontsize=10)
    ax.text(
        0.02,
        0.98,
        f"grey: within ± {band:g} points; red: outside\nlabelled: the largest gaps that fit",
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=7,
        color="0.3",
    )
    fig.tight_layout()
    ranked = [int(i) for i in np.argsort(-np.abs(gap), kind="stable") if abs(gap[i]) > 1.0]
    order = ranked[: max(n_labels, int(far.sum()))]
    done = place_labels(ax, pub, mine, list(names), order)
    save_figure(fig, path)
    return [names[i] for i in done]
