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
