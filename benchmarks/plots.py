"""The results files of the benchmarks (scaling.py, weka_compare.py, pipeline.py, big_file.py, cluster.py and
limit.py) and their figures.

    python benchmarks/plots.py RESULTS.json [RESULTS.json ...] [--out DIR]

Each script writes every measurement it prints to a JSON results file (``--results``, by default
benchmarks/results/<name>.json, untracked like every timing) through ``Results``, and draws it with ``draw``;
this command draws a results file again. The PNGs are named after the file (scaling.json -> scaling_<part>.png)
and written to ``--out`` (default: the results file's folder):

* ``<stem>_<part>.png``, one per part timed at several sizes: CPU seconds against rows on log-log axes, ours
  beside the peer (scikit-learn, numpy's argsort) and a baseline checkout's ``before`` (dashed, ours' colour),
  the slope of log time on log rows in the legend (``slope``, the function the scripts print with). A part
  timed at one size only (naive Bayes at 1M rows) gets bars.
* ``<stem>_<part>.png`` of a part with ``costs`` (limit.py): the CPU seconds of each learner on each data set,
  bars grouped by data set on a log axis, each learner's sum and its estimate over all the splits in the legend.
* ``<stem>_targets.png``: every target the file checks (time against the peer, peak memory against the input,
  slopes, start-up seconds, nbx against Weka 3.6's seconds, Dask's speed-up), each measured value (dot) beside
  its limit (bar): the target table of benchmarks/README.md as a figure. Green within the limit, red beyond;
  hollow where the run was shorter than the target's (fewer rows or data sets).

The file: ``{"script", "argv", "written", "parts": {KEY: PART}}``; a PART is ``{"title", "xlabel", "ylabel",
"series": [SERIES], "costs": [COST], "checks": [CHECK], "settings": {...}}`` (each key optional but the title)
plus the script's own records (``runs``, ``learners``, ...), a SERIES ``{"label", "role": ours|peer|before,
"rows": [...], "seconds": [...]}`` plus per-row lists of the other printed measurements (``peak``,
``iterations``, ``fit``, ``predict``, ...) and for ``before`` the ``of`` label it repeats; a COST ``{"learner",
"dataset", "cpu", "splits", "of_splits"}`` (CPU seconds of the first ``splits`` of the data set's ``of_splits``)
plus its ``rows``, ``attributes`` and ``classes``; a CHECK ``{"what", "kind", "value", "limit", "op": "<=" | "<"
| ">" | ">=", "applies"}`` and the ``rows`` it was read at, if any. A value that was not measured (nan) is
stored as null and read back as nan.
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

DEFAULT_DIR = Path(__file__).resolve().parent / "results"  # untracked (.gitignore)
STYLE = {"ours": ("o", "-"), "peer": ("s", "-"), "before": ("x", "--")}  # marker, line per series role
MARKERS = "osD^vP*X<>"
OPS = {"<=": operator.le, "<": operator.lt, ">": operator.gt, ">=": operator.ge}  # a check's value op its limit


def slope(rows, seconds) -> float:
    """Least-squares slope of log(seconds) on log(rows): about 1 is linear in rows."""
    return float(np.polyfit(np.log(rows), np.log(np.maximum(seconds, 1e-6)), 1)[0])


def series(label: str, role: str, rows, seconds, **per_row) -> dict:
    """One timed line of a part: CPU seconds by rows, with other per-row measurements (lists as long as rows)."""
    return {"label": label, "role": role, "rows": list(rows), "seconds": list(seconds), **per_row}


def check(what: str, kind: str, value: float, limit: float, rows: int | None = None, op: str = "<=", applies=True):
    """One target: the measured ``value`` of ``kind`` against ``limit`` (``op``, one of ``OPS``); ``applies`` is False
    where the run was shorter than the target's (fewer rows or data sets). No ``rows`` key for a target not read
    at one size (null in the file means nan)."""
    out = {"what": what, "kind": kind, "value": value, "limit": limit, "op": op, "applies": applies}
    return out if rows is None else {**out, "rows": rows}


def _plain(x):
    """``x`` as JSON: numpy scalars as Python numbers, nan as null."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    return x


def _nan(x):
    """The inverse of ``_plain``'s nan -> null."""
    if isinstance(x, dict):
        return {k: _nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_nan(v) for v in x]
    return float("nan") if x is None else x


class Results:
    """The results file of one run. Each part is written as soon as it is added, so an interrupted run keeps the
    parts it finished."""

    def __init__(self, path: Path, script: str, argv: list[str]):
        self.path = Path(path)
        self.data = {"script": script, "argv": list(argv), "written": None, "parts": {}}

    def add(self, key: str, part: dict) -> None:
        self.data["parts"][key] = part
        self.data["written"] = datetime.now(UTC).isoformat(timespec="seconds")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(_plain(self.data), indent=1) + "\n")
        tmp.replace(self.path)


def load(path: Path) -> dict:
    """A results file, null read back as nan."""
    try:
        return _nan(json.loads(Path(path).read_text()))
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: not a results file ({e})") from None


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def legend_label(s: dict, top3: bool = False) -> str:
    """A series' label with its slope (and the slope over its three largest sizes when ``top3``), as printed."""
    rows, secs = s["rows"], s["seconds"]
    if len(rows) < 2:
        return f"{s['label']} ({rows[0]:,d} rows)" if rows else s["label"]
    text = f"{s['label']}: slope {slope(rows, secs):.2f}"
    return text + (f", top 3 {slope(rows[-3:], secs[-3:]):.2f}" if top3 and len(rows) >= 3 else "")


def part_figure(part: dict):
    """CPU seconds against rows of one part (log-log, slopes in the legend); bars when it timed one size."""
    plt = _pyplot()
    lines = part["series"]
    if len({n for s in lines for n in s["rows"]}) == 1:
        return _bars(plt, part)
    many = len(lines) > 8  # part 1's learners: 20 colours, markers in turn, legend top-down as the lines end
    fig, ax = plt.subplots(figsize=(10, 6) if many else (7, 4.5))
    colour, drawn = {}, []
    for i, s in enumerate(lines):
        marker, line = STYLE[s["role"]]
        (handle,) = ax.loglog(
            s["rows"],
            s["seconds"],
            marker=MARKERS[i % len(MARKERS)] if many else marker,
            linestyle=line if len(s["rows"]) > 1 else "none",
            color=plt.get_cmap("tab20")(i % 20) if many else colour.get(s.get("of")),
            label=legend_label(s, part.get("top3", False)),
        )
        colour[s["label"]] = handle.get_color()
        drawn.append((s["seconds"][-1], handle))
    ax.set_xlabel(part.get("xlabel", "rows"))
    ax.set_ylabel(part.get("ylabel", "CPU seconds"))
    ax.set_title(part["title"], fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    if many:
        handles = [h for _, h in sorted(drawn, key=lambda d: -d[0])]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    else:
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def _bars(plt, part: dict):
    lines = part["series"]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(lines)))
    y = np.arange(len(lines))[::-1]
    seconds = [s["seconds"][0] for s in lines]
    ax.barh(y, seconds, color=[f"C{i}" for i in range(len(lines))])
    for yi, sec in zip(y, seconds):
        ax.annotate(f"{sec:.3g} s", (sec, yi), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, [s["label"] for s in lines], fontsize=8)
    ax.set_xlabel(f"{part.get('ylabel', 'CPU seconds')} at {lines[0]['rows'][0]:,d} rows")
    ax.set_xlim(0, 1.2 * max(seconds))
    ax.set_title(part["title"], fontsize=9)
    fig.tight_layout()
    return fig


def estimate(c: dict) -> float:
    """A cost's CPU seconds over all the data set's splits, from the first ``splits`` it ran."""
    return c["cpu"] * c["of_splits"] / c["splits"]


def costs_figure(part: dict):
    """Each learner's CPU seconds on each data set (``costs``), bars grouped by data set, log axis; the legend
    gives each learner's sum and its estimate over all the splits."""
    plt = _pyplot()
    costs = part["costs"]
    learners = list(dict.fromkeys(c["learner"] for c in costs))
    datasets = list(dict.fromkeys(c["dataset"] for c in costs))
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.25 * len(learners) * len(datasets)))
    height = 0.8 / len(learners)
    for i, learner in enumerate(learners):
        mine = {c["dataset"]: c for c in costs if c["learner"] == learner}
        y = [len(datasets) - 1 - datasets.index(ds) + 0.4 - (i + 0.5) * height for ds in mine]
        cpu = [c["cpu"] for c in mine.values()]
        label = f"{learner}: {sum(cpu):.1f} s, all splits about {sum(map(estimate, mine.values())):.0f} s"
        bars = np.maximum(cpu, 1e-3)  # log axis: a zero would vanish
        ax.barh(y, bars, height=height, label=label, log=True)
        for yi, sec, end in zip(y, cpu, bars):
            ax.annotate(f"{sec:.1f}", (end, yi), xytext=(2, 0), textcoords="offset points", va="center", fontsize=6)
    sizes = {c["dataset"]: f"{c['dataset']} ({c['rows']:,d}, {c['attributes']}, {c['classes']})" for c in costs}
    ax.set_yticks(np.arange(len(datasets))[::-1], [sizes[ds] for ds in datasets], fontsize=7)
    low, high = min(max(c["cpu"], 1e-3) for c in costs), max(c["cpu"] for c in costs)
    ax.set_xlim(10 ** math.floor(math.log10(low)), 3 * max(high, 1e-3))  # whole decades: every bar starts visibly
    ax.set_xlabel(part.get("xlabel", "CPU seconds"))
    ax.set_title(part["title"], fontsize=9)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    total = f"all of them, all splits about {sum(map(estimate, costs)):.0f} s"
    ax.legend(fontsize=7, title=total, title_fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return fig


def within(c: dict) -> bool:
    """Whether a check's value meets its limit."""
    return OPS[c["op"]](c["value"], c["limit"])


def targets_figure(checks: list[dict], title: str):
    """Every check as a dot (its value) beside a bar (its limit), one panel per kind."""
    plt = _pyplot()
    kinds = list(dict.fromkeys(c["kind"] for c in checks))
    counts = [sum(c["kind"] == k for c in checks) for k in kinds]
    fig, axes = plt.subplots(
        len(kinds), 1, figsize=(9, 1.1 * len(kinds) + 0.32 * len(checks) + 0.4), height_ratios=[n + 1.5 for n in counts]
    )
    for ax, kind in zip(np.atleast_1d(axes), kinds):
        rows = [c for c in checks if c["kind"] == kind]
        y = np.arange(len(rows))[::-1]
        values = np.array([c["value"] for c in rows], dtype=float)
        limits = np.array([c["limit"] for c in rows], dtype=float)
        # log axes where a value lies far beyond the limits (time ratios, memory); slopes stay linear
        log = bool(np.nanmin(values) > 0 and np.nanmax(values) > 10 * limits.min())
        ax.barh(y, limits, height=0.6, color="0.9", edgecolor="0.6", label="limit", log=log)
        colour = ["tab:green" if within(c) else "tab:red" for c in rows]
        face = [col if c["applies"] else "white" for col, c in zip(colour, rows)]
        ax.scatter(values, y, c=face, edgecolors=colour, linewidths=1.5, zorder=3, s=30)
        for yi, v, c in zip(y, values, rows):
            mark = f"{v:.2f}  (limit {c['op']} {c['limit']:g})"
            ax.annotate(mark, (v, yi), xytext=(5, 0), textcoords="offset points", va="center", fontsize=7)
        labels = [c["what"] + (f", {c['rows']:,d} rows" if "rows" in c else "") for c in rows]
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        top = max(np.nanmax(values) if np.isfinite(values).any() else 0, limits.max())
        ax.set_xlim(right=top * (4 if log else 1.45))
        ax.set_xlabel(kind, fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(True, axis="x", which="both", alpha=0.3)
    legend = "dot: measured (green within the limit, red beyond; hollow: a shorter run than the target's)"
    fig.suptitle(f"{textwrap.fill(title, 130)}\n{legend}; bar: the limit", fontsize=8)
    fig.tight_layout()
    return fig


def draw(path: Path, out: Path | None = None) -> list[Path]:
    """The PNGs of one results file (module docstring), written to ``out`` (default: the file's folder)."""
    path = Path(path)
    data, out = load(path), Path(out) if out else path.parent
    out.mkdir(parents=True, exist_ok=True)
    plt = _pyplot()
    figures = [
        (f"{path.stem}_{key}.png", figure(p))
        for key, p in data["parts"].items()
        for field, figure in (("series", part_figure), ("costs", costs_figure))
        if p.get(field)
    ]
    checks = [c for p in data["parts"].values() for c in p.get("checks", [])]
    if checks:
        title = f"{data['script']} {' '.join(data['argv'])}".strip()
        figures.append((f"{path.stem}_targets.png", targets_figure(checks, title)))
    written = []
    for name, fig in figures:
        fig.savefig(out / name, dpi=120)
        plt.close(fig)
        written.append(out / name)
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", type=Path, help="results files of the benchmarks' scripts")
    ap.add_argument("--out", type=Path, help="folder of the PNGs (default: each results file's folder)")
    a = ap.parse_args()
    for path in a.results:
        for png in draw(path, a.out):
            print(png)


if __name__ == "__main__":
    sys.exit(main())
