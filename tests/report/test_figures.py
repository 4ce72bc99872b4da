"""The report's generic figures: labels that overlap nothing, dot plots on an axis that does not start at 0, the
legend outside the data, and the same bytes on every run."""

import numpy as np
from matplotlib.text import Text

from nbx.report.figures import dot_plot, gap_plot, place_labels, plt, vs_published_scatter

ROWS = ["Annealing", "Balance-scale", "Chess", "Credit"]


def test_labels_overlap_neither_each_other_nor_the_points():
    rng = np.random.default_rng(0)
    x = np.r_[rng.normal(90, 0.3, 12), [60.0, 75.0]]  # a tight cluster and two lone points
    y = x + rng.normal(0, 0.3, len(x))
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.scatter(x, y, s=14)
    ax.set_xlim(55, 95)
    ax.set_ylim(55, 95)
    fig.tight_layout()
    names = [f"data set {i}" for i in range(len(x))]
    done = place_labels(ax, x, y, names, order=list(range(len(x))))
    assert 12 in done and 13 in done  # the lone points always find room
    assert len(done) < len(x)  # the cluster cannot take every label
    renderer = fig.canvas.get_renderer()
    texts = [Text.get_window_extent(t, renderer) for t in ax.texts]  # the words, without leader lines
    assert len(texts) == len(done)
    px, py = ax.transData.transform(np.column_stack([x, y])).T
    box = ax.get_window_extent(renderer)
    for i, a in enumerate(texts):
        assert all(not a.overlaps(b) for b in texts[i + 1 :])
        assert not np.any((a.x0 < px) & (px < a.x1) & (a.y0 < py) & (py < a.y1))
        assert box.contains(a.x0, a.y0) and box.contains(a.x1, a.y1)
    plt.close(fig)


def test_scatter_labels_the_largest_gaps(tmp_path):
    pub = np.array([80.0, 85.0, 90.0, 70.0, 60.0])
    ours = np.array([80.2, 84.9, 80.0, 70.5, 66.0])  # gaps 10 and 6 are the ones to read
    done = vs_published_scatter(tmp_path / "s.png", pub, ours, ["a", "b", "c", "d", "e"], title="nb")
    assert done == ["c", "e"]  # |gap| <= 1 point: no label


def test_dot_plot_axis_spans_the_values_and_the_legend_is_outside(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr("nbx.report.figures.save_figure", lambda fig, path: seen.update(fig=fig))
    series = {"nb": [90.0, 60.0, 88.0, 85.0], "tan": [91.0, 62.0, np.nan, 84.0]}
    dot_plot(tmp_path / "a.png", ROWS, series, {"nb": [89.0, np.nan, 87.0, 86.0]}, xlabel="accuracy (%)")
    ax = seen["fig"].axes[0]
    lo, hi = ax.get_xlim()
    assert 55 <= lo <= 60 and 91 <= hi <= 93  # not from 0
    renderer = seen["fig"].canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 > ax.get_window_extent(renderer).x1  # right of the plotted data
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["nb", "tan", "published (at its learner's height)"]
    assert seen["fig"].get_size_inches()[1] < 3  # four rows: a short figure
    plt.close(seen["fig"])


def test_gap_plot_rings_the_cells_outside_the_tolerance(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr("nbx.report.figures.save_figure", lambda fig, path: seen.update(fig=fig))
    cells = [(0, "nb", 1.0, 0.5), (1, "nb", -5.0, 1.0), (2, "nb", 5.0, 3.0), (3, "tan", 4.0, 1.0)]
    gap_plot(tmp_path / "g.png", ROWS, cells)
    ax = seen["fig"].axes[0]
    rings = [c for c in ax.collections if len(c.get_offsets()) and c.get_facecolor().size == 0]
    ringed = sorted(float(v) for c in rings for v in c.get_offsets()[:, 0])
    assert ringed == [-5.0, 4.0]  # 5 ± 2 * 3 reaches 0: it agrees
    assert ax.get_xlim()[0] < -5 and ax.get_xlim()[1] > 5
    plt.close(seen["fig"])


def test_figures_are_byte_identical_on_a_rerun(tmp_path):
    series = {"nb": [90.0, 60.0, 88.0, 85.0]}
    for name in ("a", "b"):
        dot_plot(tmp_path / f"{name}.png", ROWS, series, xlabel="accuracy (%)")
        vs_published_scatter(tmp_path / f"{name}_s.png", [80, 85, 90, 70], [81, 80, 90, 66], ROWS)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert (tmp_path / "a_s.png").read_bytes() == (tmp_path / "b_s.png").read_bytes()
