"""The CD diagram draws Demšar's groups (checked on the drawn bars, not pixels); the simplex projection."""

import numpy as np

from nbx.report.figures import plt
from nbx.report.stat_plots import CORNERS, cd_diagram, draw_cd_diagram, draw_simplex, simplex_plot, simplex_xy
from nbx.stats.bayes_signrank import bayes_signed_rank
from nbx.stats.multicompare import nemenyi_cd

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
RANKS = np.array([44, 28, 40.5, 27.5]) / 14  # Demšar 2006 Table 6 average ranks


def _bars(ax):
    return sorted(tuple(line.get_xdata()) for line in ax.get_lines() if line.get_gid() == "cd-group")


def test_cd_diagram_draws_demsar_groups():
    fig, ax = plt.subplots()
    groups = draw_cd_diagram(ax, RANKS, NAMES, nemenyi_cd(4, 14, 0.10))
    # alpha 0.10 (CD 1.12): {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}, as in Demšar's Fig. 1(a)
    assert groups == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    assert _bars(ax) == sorted([(RANKS[3], RANKS[2]), (RANKS[2], RANKS[0])])
    assert ax.get_xlim()[0] > ax.get_xlim()[1]  # best rank on the right
    texts = [t.get_text() for t in ax.texts]
    assert all(any(t.strip().startswith(n + " (") for t in texts) for n in NAMES)
    plt.close(fig)

    fig, ax = plt.subplots()
    assert draw_cd_diagram(ax, RANKS, NAMES, nemenyi_cd(4, 14, 0.05)) == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    assert _bars(ax) == [(RANKS[3], RANKS[0])]
    plt.close(fig)


def test_cd_diagram_writes_png(tmp_path):
    groups = cd_diagram(tmp_path / "cd.png", RANKS, NAMES, 0.5, title="t")
    assert groups == [("C4.5+m+cf", "C4.5+m"), ("C4.5+cf", "C4.5")]
    assert (tmp_path / "cd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simplex_projection_and_plot(tmp_path):
    np.testing.assert_allclose(simplex_xy(np.eye(3)), CORNERS)
    np.testing.assert_allclose(simplex_xy([[1 / 3] * 3]), [CORNERS.mean(axis=0)])
    post = bayes_signed_rank(np.linspace(0.7, 0.9, 20), np.linspace(0.7, 0.9, 20) - 0.01, n_samples=2000)
    fig, ax = plt.subplots()
    draw_simplex(ax, post, ("x", "y"))
    points = next(c for c in ax.collections if c.get_gid() == "posterior").get_offsets()
    np.testing.assert_allclose(points, simplex_xy(post.samples))
    plt.close(fig)
    simplex_plot(tmp_path / "s.png", post, ("x", "y"))
    assert (tmp_path / "s.png").stat().st_size > 0
