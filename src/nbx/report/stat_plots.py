"""Figures of the statistics over data sets: the critical-difference diagram (Demšar 2006, JMLR 7, Sec. 3.2.4,
Fig. 1a) and the simplex of a Bayesian signed-rank posterior (Benavoli et al. 2017, JMLR 18)."""

from __future__ import annotations

import numpy as np

from nbx.report.figures import plt, save_figure
from nbx.stats.multicompare import cd_groups

BAR_STEP, LINE_STEP = 0.25, 0.45  # vertical spacing (data units) of group bars and of learner labels


def draw_cd_diagram(ax, mean_ranks, names, cd: float) -> list[tuple[str, ...]]:
    """Demšar's CD diagram on ``ax``: an axis of average ranks with the best (lowest) on the right, the better
    half of the learners labelled on the right, the rest on the left, the CD as a segment above the axis and a
    thick bar under each group of learners that are not significantly different. Returns the groups drawn
    (names, best first); each bar is a Line2D with gid 'cd-group' spanning the group's ranks."""
    r = np.asarray(mean_ranks, dtype=float)
    k = len(r)
    lo, hi = 1.0, float(max(k, np.ceil(r.max())))
    ax.plot([lo, hi], [0, 0], color="black", lw=1)
    for tick in range(int(lo), int(hi) + 1):
        ax.plot([tick, tick], [0, 0.08], color="black", lw=1)
        ax.text(tick, 0.12, str(tick), ha="center", va="bottom", fontsize=9)
    ax.plot([hi, hi - cd], [0.55, 0.55], color="black", lw=1)
    ax.text(hi - cd / 2, 0.6, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)

    groups = cd_groups(r, cd)
    for g, members in enumerate(groups):
        ax.plot(
            [r[list(members)].min(), r[list(members)].max()],
            [-(g + 1) * BAR_STEP] * 2,
            color="black",
            lw=3,
            solid_capstyle="round",
            gid="cd-group",
        )

    top = -(len(groups) + 1) * BAR_STEP
    order = np.argsort(r, kind="stable")
    n_right = (k + 1) // 2
    sides = [(order[:n_right], lo - 0.15, "right"), (order[n_right:][::-1], hi + 0.15, "left")]
    for members, x_text, side in sides:
        for line, j in enumerate(members):
            y = top - line * LINE_STEP
            ax.plot([r[j], r[j], x_text], [0, y, y], color="black", lw=0.8)
            ax.text(
                x_text,
                y,
                f"{names[j]} ({r[j]:.2f})  " if side == "left" else f"  {names[j]} ({r[j]:.2f})",
                ha="right" if side == "left" else "left",
                va="center",
                fontsize=9,
            )
    ax.set_xlim(hi + 0.15, lo - 0.15)  # inverted: the best rank on the right
    ax.set_ylim(top - max(n_right, 1) * LINE_STEP, 0.9)
    ax.axis("off")
    return [tuple(names[j] for j in members) for members in groups]


def cd_diagram(path, mean_ranks, names, cd: float, title: str = "") -> list[tuple[str, ...]]:
    """Write the CD diagram as a PNG; returns its groups (see :func:`draw_cd_diagram`)."""
    fig, ax = plt.subplots()
    groups = draw_cd_diagram(ax, mean_ranks, names, cd)
    fig.set_size_inches(6 + 0.14 * max(map(len, names)), 1.4 + 0.28 * ((len(names) + 1) // 2 + len(groups)))
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, path)
    return groups


# simplex corners: A better (bottom left), rope (top), B better (bottom right)
CORNERS = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])


def simplex_xy(samples) -> np.ndarray:
    """Barycentric (theta_a, theta_rope, theta_b) rows to points in the triangle of CORNERS."""
    return np.asarray(samples, dtype=float) @ CORNERS


def draw_simplex(ax, posterior, names=("A", "B"), max_points: int = 5000) -> None:
    """Ternary scatter of posterior samples (the first ``max_points``) with the three regions in which one
    theta is the largest; the corners are labelled with P(A better), P(rope), P(B better)."""
    ax.plot(*np.vstack([CORNERS, CORNERS[:1]]).T, color="black", lw=1)
    centre = CORNERS.mean(axis=0)
    for i, j in ((0, 1), (1, 2), (0, 2)):  # region borders: centre to the edges' midpoints
        mid = (CORNERS[i] + CORNERS[j]) / 2
        ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color="grey", ls="--", lw=0.8)
    xy = simplex_xy(posterior.samples[:max_points])
    ax.scatter(xy[:, 0], xy[:, 1], s=2, alpha=0.3, color="tab:blue", linewidths=0, gid="posterior")
    labels = [
        f"{names[0]} better\np = {posterior.p_a:.3f}",
        f"rope\np = {posterior.p_rope:.3f}",
        f"{names[1]} better\np = {posterior.p_b:.3f}",
    ]
    for (x, y), label, ha, va in zip(CORNERS, labels, ("right", "center", "left"), ("top", "bottom", "top")):
        ax.text(x, y, label, ha=ha, va=va, fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlim(-0.3, 1.3)
    ax.set_ylim(-0.2, 1.05)
    ax.axis("off")


def simplex_plot(path, posterior, names=("A", "B"), title: str = "") -> None:
    """Write the posterior simplex as a PNG."""
    fig, ax = plt.subplots(figsize=(5, 4.4))
    draw_simplex(ax, posterior, names)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, path)


def _cell_text_colour(rgba) -> str:
    """Black on light cells, white on dark ones (relative luminance of the cell's colour)."""
    r, g, b = rgba[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"


def _matrix_axes(n_rows: int, n_cols: int, row_names, col_names, cell: float = 0.42, extra_height: float = 0.0):
    longest = max(map(len, [*row_names, *col_names]))
    fig, ax = plt.subplots(
        figsize=(max(5.5, n_cols * cell + 0.075 * longest + 1.8), n_rows * cell + 0.075 * longest + 1.0 + extra_height)
    )
    ax.set_xticks(np.arange(n_cols), col_names, rotation=90, fontsize=8)
    ax.set_yticks(np.arange(n_rows), row_names, fontsize=8)
    ax.tick_params(length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
    for side in ax.spines.values():
        side.set_visible(False)
    return fig, ax


def heatmap(
    path,
    values,
    row_names,
    col_names,
    text,
    *,
    cmap: str,
    vmin: float,
    vmax: float,
    cbar_label: str,
    title: str = "",
    col_groups: int = 0,
) -> None:
    """A matrix of coloured cells with ``text[i][j]`` written in each (NaN cells stay white); a colour bar
    beside it; ``col_groups`` > 0 draws a white gap after every so many columns."""
    values = np.asarray(values, dtype=float)
    n_rows, n_cols = values.shape
    fig, ax = _matrix_axes(n_rows, n_cols, row_names, col_names)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax, aspect="equal")
    for i in range(n_rows):
        for j in range(n_cols):
            if text[i][j]:
                colour = _cell_text_colour(image.cmap(image.norm(values[i, j]))) if np.isfinite(values[i, j]) else "0.4"
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7, color=colour)
    if col_groups:
        for j in range(col_groups, n_cols, col_groups):
            ax.axvline(j - 0.5, color="white", lw=3)
    bar = fig.colorbar(image, ax=ax, fraction=0.035, pad=0.02)
    bar.set_label(cbar_label, fontsize=8)
    bar.ax.tick_params(labelsize=7)
    if title:
        ax.set_title(title, fontsize=9, pad=8)
    fig.tight_layout()
    save_figure(fig, path)


OUTCOMES = (
    ("row better", (0.13, 0.40, 0.67)),
    ("equivalent", (0.45, 0.45, 0.45)),
    ("column better", (0.70, 0.09, 0.17)),
)


def posterior_matrix(path, probabilities: dict, names, title: str = "") -> None:
    """The Bayesian signed-rank test of every pair as a matrix: ``probabilities[a, b]`` = (P(a better),
    P(equivalent), P(b better)) for one order of each pair (the other is its mirror). Each cell (row, column)
    takes the colour of its most probable outcome (row better / equivalent / column better), the stronger the
    more probable, and shows that probability in percent."""
    n = len(names)
    rgb = np.ones((n, n, 3))
    fig, ax = _matrix_axes(n, n, names, names, extra_height=0.3)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            p = probabilities[a, b] if (a, b) in probabilities else tuple(reversed(probabilities[b, a]))
            k = int(np.argmax(p))
            strength = (p[k] - 1 / 3) / (2 / 3)  # 1/3 (no outcome stands out) .. 1 (certain)
            rgb[i, j] = 1 - strength * (1 - np.array(OUTCOMES[k][1]))
            ax.text(j, i, f"{100 * p[k]:.0f}", ha="center", va="center", fontsize=7, color=_cell_text_colour(rgb[i, j]))
    ax.imshow(rgb, aspect="equal")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour) for _, colour in OUTCOMES]
    ax.legend(
        handles,
        [f"{label} (most probable)" for label, _ in OUTCOMES],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.01),
        ncol=3,
        fontsize=7,
        frameon=False,
    )
    if title:
        ax.set_title(title, fontsize=9, pad=8)
    fig.tight_layout()
    save_figure(fig, path)


def reliability_grid(path, panels, n_cols: int = 4, title: str = "") -> None:
    """Reliability diagrams, one panel per ``(name, sums, note)``: ``sums`` from
    :func:`nbx.protocol.scoring.reliability_bins` (weight, weighted confidence and weighted hits per bin, the
    ECE's bins). A bar per non-empty bin up to its accuracy, a red segment from there to its mean confidence
    (the gap the ECE adds up), the diagonal of perfect calibration, the share of rows per bin as a narrow dark
    bar, and ``note`` (e.g. the table's scores) in the corner; one legend below the panels."""
    n_rows = -(-len(panels) // n_cols)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(2.35 * n_cols, 2.35 * n_rows + 0.4), sharex=True, sharey=True)
    axes = np.atleast_1d(axes).ravel()
    for ax, (name, sums, note) in zip(axes, panels):
        weight, conf, hits = np.asarray(sums, dtype=float)
        n_bins = len(weight)
        left = np.arange(n_bins) / n_bins
        full = weight > 0
        acc = np.divide(hits, weight, out=np.zeros(n_bins), where=full)
        mean_conf = np.divide(conf, weight, out=np.zeros(n_bins), where=full)
        share = weight / weight.sum()
        mid = left[full] + 0.5 / n_bins
        ax.bar(left[full], acc[full], width=1 / n_bins, align="edge", color="C0", alpha=0.6, lw=0.3, ec="white")
        ax.vlines(mid, acc[full], mean_conf[full], color="C3", lw=1.6)
        ax.bar(mid, share[full], width=0.4 / n_bins, color="0.15", lw=0)
        ax.plot([0, 1], [0, 1], color="black", lw=0.7, ls="--")
        ax.set_title(name, fontsize=8, pad=3)
        ax.text(0.03, 0.97, note, transform=ax.transAxes, ha="left", va="top", fontsize=6.5)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.tick_params(labelsize=7)
    for ax in axes[len(panels) :]:
        ax.axis("off")
    for ax in axes[-n_cols:]:
        ax.set_xlabel("top probability", fontsize=7)
    for ax in axes[::n_cols]:
        ax.set_ylabel("accuracy", fontsize=7)
    handles = [
        plt.Rectangle((0, 0), 1, 1, color="C0", alpha=0.6),
        plt.Line2D([], [], color="C3", lw=1.6),
        plt.Rectangle((0, 0), 1, 1, color="0.15"),
        plt.Line2D([], [], color="black", lw=0.7, ls="--"),
    ]
    labels = ["accuracy of the bin", "gap to its mean top probability", "share of the rows", "perfect calibration"]
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7, frameon=False)
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    save_figure(fig, path)
