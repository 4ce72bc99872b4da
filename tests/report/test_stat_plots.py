"""The CD diagram draws Demšar's groups (checked on the drawn bars, not pixels); the simplex projection."""

import numpy as np

from nbx.protocol.scoring import reliability_bins
from nbx.report.figures import plt
from nbx.report.stat_plots import (
    CORNERS,
    OUTCOMES,
    cd_diagram,
    draw_cd_diagram,
    draw_simplex,
    heatmap,
    posterior_matrix,
    reliability_grid,
    simplex_plot,
    simplex_xy,
)
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


def _keep_figure(monkeypatch):
    seen = {}
    monkeypatch.setattr("nbx.report.stat_plots.save_figure", lambda fig, path: seen.update(fig=fig))
    return seen


def test_heatmap_writes_each_cell_text(tmp_path, monkeypatch):
    seen = _keep_figure(monkeypatch)
    values = [[np.nan, 3.0], [-3.0, np.nan]]
    heatmap(
        tmp_path / "h.png",
        values,
        ["a", "b"],
        ["a", "b"],
        [["", "4–1"], ["1–4", ""]],
        cmap="RdBu",
        vmin=-3,
        vmax=3,
        cbar_label="wins − losses",
    )
    ax = seen["fig"].axes[0]
    assert sorted((t.get_text(), t.get_position()) for t in ax.texts) == [("1–4", (0, 1)), ("4–1", (1, 0))]
    plt.close(seen["fig"])


def test_posterior_matrix_colours_the_most_probable_outcome_and_mirrors_pairs(tmp_path, monkeypatch):
    seen = _keep_figure(monkeypatch)
    probabilities = {("a", "b"): (0.9, 0.1, 0.0), ("a", "c"): (0.2, 0.7, 0.1), ("c", "b"): (1.0, 0.0, 0.0)}
    posterior_matrix(tmp_path / "p.png", probabilities, ["a", "b", "c"])
    ax = seen["fig"].axes[0]
    rgb = ax.get_images()[0].get_array()
    text = {t.get_position(): t.get_text() for t in ax.texts}
    assert text[(1, 0)] == text[(0, 1)] == "90"  # a vs b and b vs a: the same probability, opposite colours
    assert text[(2, 0)] == "70" and text[(1, 2)] == "100"
    np.testing.assert_allclose(rgb[2, 1], OUTCOMES[0][1])  # c certainly better than b: full "row better"
    np.testing.assert_allclose(rgb[1, 2], OUTCOMES[2][1])
    grey = np.array(OUTCOMES[1][1])
    np.testing.assert_allclose(rgb[0, 2], 1 - (0.7 - 1 / 3) / (2 / 3) * (1 - grey))  # equivalent, 70%
    np.testing.assert_allclose(rgb[0, 0], 1.0)
    plt.close(seen["fig"])


def test_reliability_grid_draws_the_ece_bins(tmp_path, monkeypatch):
    seen = _keep_figure(monkeypatch)
    proba = np.array([[0.9, 0.1], [0.9, 0.1], [0.6, 0.4], [0.3, 0.7]])
    sums = reliability_bins(proba, np.array([0, 1, 0, 1]), n_bins=5)  # bins 4 (.9, .9), 2 (.6), 3 (.7)
    reliability_grid(tmp_path / "r.png", [("nb", sums, "ECE")], n_cols=2)
    ax = seen["fig"].axes[0]
    accuracy_bars = ax.containers[0]
    assert [round(b.get_x(), 2) for b in accuracy_bars] == [0.4, 0.6, 0.8]
    assert [b.get_height() for b in accuracy_bars] == [1.0, 1.0, 0.5]
    gaps = ax.collections[0].get_segments()  # from each bin's accuracy to its mean top probability
    np.testing.assert_allclose([s[:, 1] for s in gaps], [[1.0, 0.6], [1.0, 0.7], [0.5, 0.9]])
    assert not seen["fig"].axes[1].axison  # the unused panel is blank
    plt.close(seen["fig"])
