"""benchmarks/plots.py, the results file and figures of scaling.py and weka_compare.py: the file gives back what
was recorded, the legends carry the slope a hand computation gives, the targets figure puts each value beside
its limit; and scaling.py's rule for where a target is read. Nothing here times anything."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from benchmark_scripts import in_folder, load


@pytest.fixture(scope="module")
def plots():
    pytest.importorskip("matplotlib")
    return load("plots")


@pytest.fixture
def scaling(monkeypatch):
    """scaling.py, the thread variables its import sets restored after the test."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, os.environ.get(var, "1"))
    yield from in_folder(monkeypatch, "scaling")


def _same(a, b) -> bool:
    """Equal, nan equal to nan, at any depth."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b and type(a) is type(b)


def _python(x):
    """``x`` with numpy scalars as the Python numbers they hold."""
    if isinstance(x, dict):
        return {k: _python(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_python(v) for v in x]
    return x.item() if isinstance(x, np.generic) else x


def test_results_file_gives_back_every_measurement(plots, tmp_path):
    # numpy scalars as the scripts measure them, a peer that was not measured (nan) and two parts written in turn
    lr = {
        "title": "Part 5",
        "series": [
            plots.series("LogisticRegression", "ours", [1_000, 10_000], [np.float64(0.25), 0.5], iterations=[21, 6]),
            plots.series("peer", "peer", [1_000, 10_000], [0.05, float("nan")]),
        ],
        "checks": [plots.check("LogisticRegression / peer", "time", float("nan"), 1, np.int64(10_000), applies=False)],
    }
    nb = {"title": "Part 2", "checks": [plots.check("numba start-up", "seconds", 0.37, 1)], "settings": {"mb": 2.0}}
    results = plots.Results(tmp_path / "r.json", "scaling.py", ["--repeats", "1"])
    results.add("lr", lr)
    results.add("nb", nb)
    text = (tmp_path / "r.json").read_text()
    strict = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))  # nan written as null
    assert strict["parts"]["lr"]["series"][1]["seconds"] == [0.05, None]
    assert "rows" not in strict["parts"]["nb"]["checks"][0]  # not read at a size: no key, never null
    back = plots.load(tmp_path / "r.json")
    assert back["script"] == "scaling.py" and back["argv"] == ["--repeats", "1"]
    assert _same(back["parts"], _python({"lr": lr, "nb": nb}))
    assert back["parts"]["lr"]["checks"][0]["rows"] == 10_000 and type(back["parts"]["lr"]["checks"][0]["rows"]) is int


def test_legend_slope_is_the_least_squares_slope_by_hand(plots):
    # log10 rows 3, 4, 5, 6 and log10 seconds 0, 0, 1, 3: slope sum(dx dy) / sum(dx^2) = 5 / 5 = 1; over the top
    # three sizes (4, 5, 6 against 0, 1, 3): 3 / 2 = 1.5; a line ten times slower has the same slope
    rows, seconds = [1_000, 10_000, 100_000, 1_000_000], [1.0, 1.0, 10.0, 1000.0]
    part = {
        "title": "t",
        "top3": True,
        "series": [
            plots.series("ours", "ours", rows, seconds),
            plots.series("peer", "peer", rows, [10 * s for s in seconds]),
            plots.series("ours before", "before", rows[:2], [2.0, 20.0], of="ours"),
            plots.series("one size", "ours", [100_000], [3.0]),
        ],
    }
    fig = plots.part_figure(part)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "ours: slope 1.00, top 3 1.50",
        "peer: slope 1.00, top 3 1.50",
        "ours before: slope 1.00",
        "one size (100,000 rows)",
    ]
    assert ax.get_xscale() == ax.get_yscale() == "log"
    lines = ax.get_lines()
    assert lines[2].get_color() == lines[0].get_color() and lines[2].get_linestyle() == "--"  # before in ours' colour
    assert np.allclose(lines[1].get_ydata(), [10.0, 10.0, 100.0, 10000.0])


def test_one_size_part_is_drawn_as_bars_of_its_seconds(plots):
    part = {
        "title": "nb",
        "series": [plots.series("nbx", "ours", [10_000], [0.25]), plots.series("sk", "peer", [10_000], [0.5])],
    }
    ax = plots.part_figure(part).axes[0]
    assert sorted(p.get_width() for p in ax.patches) == [0.25, 0.5]


def test_targets_figure_puts_each_value_beside_its_limit(plots):
    checks = [
        plots.check("a / peer", "time", 0.5, 1, 1_000_000),
        plots.check("b / peer", "time", 1.0, 1, 1_000_000, op="<"),  # the strict target: at the limit is beyond
        plots.check("c / peer", "time", 1.0, 1, 1_000, applies=False),  # a shorter run: hollow
        plots.check("d slope", "slope", 1.3, 1.15),
    ]
    assert [plots.within(c) for c in checks] == [True, False, True, False]
    fig = plots.targets_figure(checks, "title")
    time_ax, slope_ax = fig.axes
    assert [t.get_text() for t in time_ax.get_yticklabels()] == [
        "a / peer, 1,000,000 rows",
        "b / peer, 1,000,000 rows",
        "c / peer, 1,000 rows",
    ]
    dots = time_ax.collections[0]
    assert np.allclose(dots.get_offsets()[:, 0], [0.5, 1.0, 1.0])
    assert sorted(p.get_width() for p in time_ax.patches) == [1, 1, 1]  # each limit a bar
    from matplotlib.colors import to_rgb

    green, red, white = to_rgb("tab:green"), to_rgb("tab:red"), (1, 1, 1)
    assert np.allclose(dots.get_edgecolors()[:, :3], [green, red, green])
    assert np.allclose(dots.get_facecolors()[:, :3], [green, red, white])
    assert time_ax.get_xlabel() == "time" and slope_ax.get_xlabel() == "slope"
    assert [p.get_width() for p in slope_ax.patches] == [1.15]


def test_draw_writes_one_png_per_timed_part_and_the_targets(plots, tmp_path):
    results = plots.Results(tmp_path / "scaling.json", "scaling.py", [])
    results.add("mdl", {"title": "3", "series": [plots.series("MDL", "ours", [1_000, 10_000], [0.1, 1.0])]})
    results.add("kde", {"title": "6", "checks": [plots.check("start-up", "seconds", 0.4, 1)]})
    out = tmp_path / "png"
    assert plots.draw(tmp_path / "scaling.json", out) == [out / "scaling_mdl.png", out / "scaling_targets.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in out.iterdir())


def test_targets_are_read_at_their_sizes_else_at_the_largest(scaling):
    assert scaling.target_rows([1_000, 10_000, 100_000, 1_000_000]) == [100_000, 1_000_000]
    assert scaling.target_rows([1_000, 10_000]) == [10_000]
    (short,) = scaling.slope_checks("C45Tree", [1_000, 10_000], [0.1, 1.0])
    assert short["what"] == "C45Tree, 1,000 to 10,000 rows" and short["value"] == pytest.approx(1.0)
    assert short["applies"] is False and short["limit"] == 1.15
    (full,) = scaling.slope_checks("C45Tree", [1_000, 1_000_000], [0.1, 200.0])
    assert full["applies"] is True and full["value"] == pytest.approx(math.log(2000) / math.log(1000))
    assert scaling.slope_checks("C45Tree", [1_000], [0.1]) == []  # one size has no slope


def test_naive_bayes_part_checks_half_of_categoricalnb_at_both_sizes(scaling, monkeypatch, capsys):
    """Part 2 reads target 5 (NaiveBayes <= 0.5x CategoricalNB, best of the repeats) at 10^5 and 10^6 rows."""
    fields = {"nbx": ["0.01", "0.02", "0.40", "16"], "sklearn": ["0.04", "0.02", "0.30", "16"]}
    calls = []
    monkeypatch.setattr(scaling, "has_sklearn", lambda peer: True)
    monkeypatch.setattr(
        scaling, "child_fields", lambda flag, which, n, repeats: calls.append((which, n, repeats)) or fields[which]
    )
    part = scaling.nb_part(1_000_000, 3)
    assert sorted(calls) == [(w, n, 3) for w in ("nbx", "sklearn") for n in (100_000, 1_000_000)]
    ratios = [c for c in part["checks"] if c["kind"] == scaling.TIME_RATIO]
    assert [(c["rows"], c["limit"], c["applies"]) for c in ratios] == [(100_000, 0.5, True), (1_000_000, 0.5, True)]
    assert all(c["value"] == pytest.approx(0.03 / 0.06) for c in ratios)
    assert [c["value"] for c in part["checks"] if c["kind"] == scaling.MEMORY] == [0.40, 0.40]
    short = scaling.nb_part(10_000, 1)  # a short run: its one size, the target not applying
    assert [(c["rows"], c["applies"]) for c in short["checks"]] == [(10_000, False), (10_000, False)]


def test_full_size_takes_the_naive_bayes_family_ten_times_further(scaling, monkeypatch, capsys):
    timed = []

    def fit_seconds(name, n, decimals=None, trace=False):
        timed.append((name, n, decimals, trace))
        return n / 1e6, (2.5 if trace else float("nan"))

    monkeypatch.setattr(scaling, "fit_seconds", fit_seconds)
    part = scaling.learners_part(["nb_laplace", "c45"], 100_000, full_size=True)
    sizes = {name: [n for m, n, _, _ in timed if m == name] for name in ("nb_laplace", "c45")}
    assert sizes["c45"] == [1_000, 3_000, 10_000, 30_000, 100_000]
    assert sizes["nb_laplace"] == sizes["c45"] + [300_000, 1_000_000]
    assert [(name, n) for name, n, _, trace in timed if trace] == [("nb_laplace", 100_000), ("c45", 100_000)]
    peaks = [c for c in part["checks"] if c["kind"] == scaling.MEMORY]
    assert [(c["what"], c["value"], c["limit"], c["rows"]) for c in peaks] == [
        ("nb_laplace fit, peak memory", 2.5, 3, 100_000),
        ("c45 fit, peak memory", 2.5, 3, 100_000),
    ]


@pytest.fixture
def cluster(monkeypatch):
    yield from in_folder(monkeypatch, "cluster")


@pytest.fixture
def big_file(monkeypatch):
    yield from in_folder(monkeypatch, "big_file")


def test_limits_from_above_and_below(plots):
    at = [plots.check("x", "k", 1.0, 1, op=op) for op in ("<=", "<", ">", ">=")]
    assert [plots.within(c) for c in at] == [True, False, False, True]
    assert plots.within(plots.check("x", "k", 1.12, 1, op=">"))
    assert not plots.within(plots.check("x", "k", 0.9, 1, op=">"))


def test_cluster_rows_check_the_speed_up_and_the_bytes_and_draw_cluster_targets(plots, cluster, tmp_path):
    walls = {"1 process": 36.0, "loky x2": 20.0, "dask x2": 24.0}
    fast_same = cluster.row_checks("benchmark/c45", walls, {"1 process": True, "loky x2": True, "dask x2": True})
    slow_other = cluster.row_checks("benchmark/blnbt3", walls, {"1 process": True, "loky x2": True, "dask x2": False})
    assert [(c["what"], c["value"], c["limit"], plots.within(c)) for c in fast_same + slow_other] == [
        ("benchmark/c45, loky x2", 1.8, 1.7, True),
        ("benchmark/c45, dask x2", 1.5, 1.7, False),
        ("benchmark/c45", 3, 3, True),
        ("benchmark/blnbt3, loky x2", 1.8, 1.7, True),
        ("benchmark/blnbt3, dask x2", 1.5, 1.7, False),
        ("benchmark/blnbt3", 2, 3, False),
    ]
    results = plots.Results(tmp_path / "cluster.json", "cluster.py", [])
    results.add("cluster", {"title": "t", "runs": [], "checks": fast_same + slow_other})
    (png,) = plots.draw(tmp_path / "cluster.json")
    assert png == tmp_path / "cluster_targets.png" and png.read_bytes()[:4] == b"\x89PNG"
    speed, ways = plots.targets_figure(plots.load(tmp_path / "cluster.json")["parts"]["cluster"]["checks"], "t").axes
    assert np.allclose(speed.collections[0].get_offsets()[:, 0], [1.8, 1.5, 1.8, 1.5])
    assert np.allclose(ways.collections[0].get_offsets()[:, 0], [3, 2])
    assert [p.get_width() for p in ways.patches] == [3, 3]  # as many ways as ran


def test_big_file_checks_evaluate_time_and_every_peak_at_full_size_only(plots, big_file, tmp_path):
    ok = {"rc": 0, "wall": 12.0, "rss": 500e6}
    wall, peak = big_file.checks("evaluate NaiveBayes --cv 2", ok, 200e6, 1_000_000)
    assert (wall["kind"], wall["value"], wall["limit"]) == ("wall seconds", 12.0, 15.0)
    assert (peak["value"], peak["limit"], peak["rows"]) == (2.5, 3.0, 1_000_000)  # 500 MB over a 200 MB file
    assert wall["applies"] and peak["applies"] and plots.within(wall) and plots.within(peak)
    (fit,) = big_file.checks("fit NaiveBayes", ok, 100e6, 20_000)  # no time target; a small file: hollow
    assert fit["value"] == 5.0 and not plots.within(fit) and not fit["applies"]
    failed = big_file.checks("evaluate nb_laplace --cv 2", {"rc": 1, "wall": 1.0, "rss": 1.0}, 200e6, 1_000_000)
    assert all(math.isnan(c["value"]) for c in failed)
    path = tmp_path / "big.csv"
    big_file.write_file(path, 250, chunk=100)
    assert big_file.count_rows(path) == 250
    assert path.read_text().splitlines()[0].endswith(",x20,colour,class")


def test_costs_are_drawn_per_data_set_with_each_learners_sum_and_estimate(plots, tmp_path):
    size = {"rows": 208, "attributes": 60, "classes": 2}
    costs = [
        {"learner": "lr_kang", "dataset": "sonar", "cpu": 0.2, "splits": 1, "of_splits": 10, **size},
        {"learner": "lr_kang", "dataset": "audiology", "cpu": 13.1, "splits": 1, "of_splits": 10, **size},
        {"learner": "hbayes_nb", "dataset": "sonar", "cpu": 0.3, "splits": 2, "of_splits": 10, **size},
    ]
    results = plots.Results(tmp_path / "limit.json", "limit.py", [])
    results.add("cost", {"title": "t", "costs": costs})
    (png,) = plots.draw(tmp_path / "limit.json")
    assert png == tmp_path / "limit_cost.png" and png.read_bytes()[:4] == b"\x89PNG"
    ax = plots.costs_figure(plots.load(tmp_path / "limit.json")["parts"]["cost"]).axes[0]
    assert [p.get_width() for p in ax.patches] == [0.2, 13.1, 0.3]
    assert ax.get_xscale() == "log"
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [
        "lr_kang: 13.3 s, all splits about 133 s",  # (0.2 + 13.1) x 10
        "hbayes_nb: 0.3 s, all splits about 2 s",  # 0.3 x 10 / 2 = 1.5
    ]
    assert legend.get_title().get_text() == "all of them, all splits about 134 s"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["sonar (208, 60, 2)", "audiology (208, 60, 2)"]
