"""``nbx results EXPERIMENT`` and ``nbx timings [EXPERIMENT]``: the pipeline's per-data-set tables.

``results`` reads data/results/<experiment>.csv (every learner's accuracy on every split, written by
``evaluate@<experiment>``) and prints, like Weka Experimenter's result table, the mean ± standard deviation of
accuracy (%) per data set and learner, with ``v`` / ``*`` where a learner is significantly better / worse than the
experiment's reference learner (``experiments.<exp>.reference``) by the corrected resampled t-test at p < 0.05
(Nadeau & Bengio 2003; the test fraction from the split plan). In a fresh clone, where that DVC output is not
there yet, it prints the committed metrics/<experiment>/<learner>.json instead: per learner the mean accuracy over
the data sets, mean rank, wins/ties/losses against the reference, log loss, Brier score, calibration error and
AUC. ``timings`` prints the wall-clock seconds of this machine's last train run (data/timings/, not versioned):
the place reports point to for time; ``timings EXPERIMENT --pareto`` sets each learner's total fit seconds beside
its mean accuracy rank and marks the learners no other learner beats on both (the accuracy vs fit-time front, also
written as CSV and PNG there); the ranks are over the learners with timings and the data sets all of them ran on,
and a learner or data set left out is named in an ``nbx: note:`` line (not an error: a learner not run on this
machine still leaves a front to see). Many learners are split over several tables that fit ``--width`` columns,
each repeating the reference.
"""

from __future__ import annotations

import json
import textwrap
import time

import numpy as np

from nbx.cli.common import (
    SpecError,
    add_format_option,
    count,
    load_params,
    note,
    print_records,
    render,
    require_extra,
    split_top,
)
from nbx.core.errors import NbxError
from nbx.core.io import atomic_path
from nbx.pipeline import config, layout
from nbx.pipeline.inputs import MissingInputError

SIGNIFICANCE = 0.05
RESULTS_COLUMNS = ("dataset", "learner", "split", "accuracy")  # what the tables read of a results CSV


class ResultsFileError(NbxError, ValueError):
    """A results CSV or timings JSON that the pipeline did not write as it is (truncated, edited, another file)."""


def register(sub) -> None:
    p = sub.add_parser(
        "results",
        help="per-data-set accuracy table of an experiment, with significance marks",
        description=__doc__.split("\n\n")[1].split(" ``timings``")[0],
    )
    p.add_argument("experiment")
    p.add_argument("--dataset", help="comma-separated data sets (catalogue ids) to show")
    p.add_argument("--learner", help="comma-separated learners to show (the reference is always shown)")
    p.add_argument("--width", type=count(1), default=160, help="terminal width to fit (default 160)")
    add_format_option(
        p,
        "per data set and learner: experiment, dataset, splits, learner, accuracy and accuracy_std (%% over the "
        "splits), mark (v / * when significantly better / worse than the reference, else empty); from metrics/ "
        "(no data/results/ yet): experiment, learner and the metrics file's keys",
    )
    p.set_defaults(func=run_results)
    p = sub.add_parser(
        "timings",
        help="this machine's wall-clock seconds of the last train run",
        description="Wall-clock seconds per learner and data set of this machine's last train run "
        "(data/timings/<experiment>/<learner>.json, not versioned).",
    )
    p.add_argument("experiment", nargs="?", help="default: every experiment with timings")
    p.add_argument("--width", type=count(1), default=160, help="terminal width to fit (default 160)")
    p.add_argument(
        "--pareto",
        action="store_true",
        help="accuracy rank vs total fit seconds per learner, the front marked; also writes "
        "data/timings/<experiment>/pareto.csv and pareto.png (a note names learners without timings, left out)",
    )
    p.set_defaults(func=run_timings)


# ------------------------------------------------------------------------------------------------- layout
def two_lines(name: str, width: int) -> list[str]:
    """A column name over two header lines of at most ``width`` characters, broken after an underscore when
    possible ('muv_tan4_boot_bal_sum_prob' -> ['muv_tan4_boot_bal_', 'sum_prob']); cut with '~' if still longer."""
    if len(name) <= width:
        return ["", name]
    cut = name.rfind("_", 0, width) + 1 or width
    rest = name[cut:]
    return [name[:cut], rest if len(rest) <= width else rest[: width - 1] + "~"]


def wide_table(
    label: str, rows: list[str], columns: list[tuple[str, list[str]]], width: int, fixed: int = 0, min_cell: int = 8
) -> str:
    """One or more tables of ``columns`` (name, cells) beside the row labels, each at most ``width`` wide; the
    first ``fixed`` columns are repeated in every table; long names take two header lines."""
    cell = max([len(c) for _, cells in columns for c in cells] + [min_cell])
    label_w = max([len(r) for r in rows] + [len(label)])
    per_table = max(1, (width - label_w) // (cell + 2) - fixed)
    head, rest = columns[:fixed], columns[fixed:]
    blocks = []
    for start in range(0, max(len(rest), 1), per_table):
        chunk = head + rest[start : start + per_table]
        names = [two_lines(name, cell) for name, _ in chunk]
        header = [[""] + [n[0] for n in names], [label] + [n[1] for n in names]]
        if not any(header[0]):
            header = header[1]
        body = [[r] + [cells[i] for _, cells in chunk] for i, r in enumerate(rows)]
        blocks.append(render(header, body, right=set(range(1, len(chunk) + 1))))
    return "\n\n".join(blocks)


def _pick(given: str | None, known: list[str], option: str) -> list[str] | None:
    if not given:
        return None
    picked = split_top(given)
    for name in picked:
        if name not in known:
            raise SpecError(f"{option}: {name!r} is not in these results{config.did_you_mean(name, known)}")
    return picked


# ------------------------------------------------------------------------------------------------ results
def test_fraction(exp: config.Experiment, dataset: str) -> float:
    """Share of rows a split tests on: from the stored plan (as evaluate computes it), else the protocol."""
    path = layout.split_plan(exp.name, dataset)
    if path.exists():
        with np.load(path) as z:
            return float(z["test"].sum(axis=1).mean() / z["test"].shape[1])
    p = exp.protocol
    if p["kind"] == "holdout":
        return float(p.get("test_fraction", 0.5))
    return 1.0 / (p.get("folds_by_dataset") or {}).get(dataset, p.get("folds", 10))


def load_results(name: str) -> dict[str, dict[str, np.ndarray]]:
    """data/results/<name>.csv as {data set: {learner: per-split accuracy}} in file order."""
    import pandas as pd

    path = layout.results(name)
    if not path.exists():
        raise MissingInputError(f"{path} is missing: run `dvc repro evaluate@{name}` first")
    rewrite = f"rerun `dvc repro evaluate@{name}` to rewrite it"
    try:
        frame = pd.read_csv(path, encoding="utf-8-sig")  # a spreadsheet may add a byte-order mark
    except ValueError as exc:  # pandas' parser errors, an empty file, bytes that are not UTF-8
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsFileError(f"{path}: not a results table ({reason}); {rewrite}") from None
    absent = [c for c in RESULTS_COLUMNS if c not in frame.columns]
    if absent:
        raise ResultsFileError(
            f"{path}:1: no column {', '.join(map(repr, absent))} (a results table has {', '.join(RESULTS_COLUMNS)}); "
            + rewrite
        )
    for column in ("split", "accuracy"):
        values = pd.to_numeric(frame[column], errors="coerce")
        bad = values.isna() | ~np.isfinite(values)
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise ResultsFileError(
                f"{path}:{row + 2}: column {column!r}: {frame[column].iloc[row]!r} is not a number; {rewrite}"
            )
        frame[column] = values
    out: dict = {}
    for (ds, learner), group in frame.groupby(["dataset", "learner"], sort=False):
        out.setdefault(ds, {})[learner] = group.sort_values("split")["accuracy"].to_numpy()
    return out


METRIC_COLUMNS = {  # a metrics file's keys, in the table's order: the table's column name and format
    "acc": ("accuracy %", "{:.3f}"),
    "rank": ("rank", "{:.3f}"),
    "wins": ("v", "{}"),
    "ties": ("=", "{}"),
    "losses": ("*", "{}"),
    "log_loss": ("log loss", "{:.4f}"),
    "brier": ("Brier", "{:.4f}"),
    "ece": ("ECE", "{:.4f}"),
    "auc": ("AUC", "{:.4f}"),
    "sets": ("data sets", "{}"),
}


def run_summary(args, exp: config.Experiment) -> None:
    """The committed metrics/<experiment>/<learner>.json files, one row per learner: what a fresh clone has
    before the pipeline has run (data/results/ is a DVC output)."""
    csv_path = layout.results(exp.name)
    rerun = f"`dvc repro evaluate@{exp.name}` writes it"
    folder = layout.learner_metrics(exp.name)
    present = [x for x in exp.learners if layout.learner_metrics(exp.name, x).is_file()]
    if not present:
        raise MissingInputError(
            f"no results of {exp.name} here: neither {csv_path} nor {folder}/ (committed in the repository); "
            f"run in the root of a clone of nbx, where `dvc repro evaluate@{exp.name}` writes the results"
        )
    if args.dataset:
        raise MissingInputError(
            f"--dataset: per-data-set results need {csv_path} ({rerun}); {folder}/ holds means over the data sets"
        )
    ref = exp.reference
    learners = _pick(args.learner, present, "--learner") or present
    learners = ([ref] if ref in present else []) + [x for x in learners if x != ref]
    records = []
    for x in learners:
        path = layout.learner_metrics(exp.name, x)
        try:
            values = json.loads(path.read_bytes().decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            values = None
        if not isinstance(values, dict) or list(values) != sorted(METRIC_COLUMNS):
            raise ResultsFileError(
                f"{path}: not a metrics file (keys {', '.join(sorted(METRIC_COLUMNS))}); "
                f"rerun `dvc repro evaluate@{exp.name}` to rewrite it"
            )
        records.append({"experiment": exp.name, "learner": x} | {k: values[k] for k in METRIC_COLUMNS})
    if args.format != "table":
        print_records(records, args.format)
        return
    print(
        textwrap.fill(
            f"{exp.name}: means over the data sets ({folder}/, committed); v / = / *: data sets where a learner is "
            f"significantly better / not different / worse than {ref} (corrected resampled t-test, "
            f"p < {SIGNIFICANCE}); rank: mean accuracy rank",
            args.width,
        )
        + "\n"
    )
    rows = [[r["learner"]] + [fmt.format(r[k]) for k, (_, fmt) in METRIC_COLUMNS.items()] for r in records]
    header = ["learner"] + [name for name, _ in METRIC_COLUMNS.values()]
    print(render(header, rows, right=set(range(1, len(header)))))
    print(
        f"\nPer data set: {layout.REPORTS / exp.name}.md (the paper's tables), or this command once {csv_path} "
        f"is there ({rerun})."
    )


def run_results(args) -> None:
    from nbx.stats import significance as stats  # scipy.stats, about 0.8 s: imported by the commands that use it

    params = load_params()
    exp = config.experiment(params, args.experiment)
    if not layout.results(exp.name).exists():
        return run_summary(args, exp)
    acc = load_results(exp.name)
    datasets = _pick(args.dataset, list(acc), "--dataset") or list(acc)
    present = [x for x in exp.learners if all(x in acc[ds] for ds in datasets)]
    for x in split_top(args.learner) if args.learner else []:
        if x in exp.learners and x not in present and any(x in acc[ds] for ds in acc):
            raise SpecError(
                f"--learner: {x!r} did not run on every data set shown (the experiment's size limits): "
                f"pick data sets it ran on with --dataset"
            )
    learners = _pick(args.learner, present, "--learner") or present
    ref = exp.reference
    if ref not in present:
        raise MissingInputError(
            f"{layout.results(exp.name)} has no results of the reference learner {ref!r} on "
            f"every data set: run `dvc repro evaluate@{exp.name}`"
        )
    learners = [ref] + [x for x in learners if x != ref]
    wins = {x: [0, 0, 0] for x in learners}
    records: dict[str, list[dict]] = {ds: [] for ds in datasets}
    columns = []
    for x in learners:
        cells = []
        for ds in datasets:
            a, b = acc[ds][x] * 100, acc[ds][ref] * 100
            mark = " "
            if (
                x != ref
                and len(a) > 1
                and a.mean() != b.mean()
                and stats.corrected_t(a, b, test_fraction(exp, ds)) < SIGNIFICANCE
            ):
                mark = "v" if a.mean() > b.mean() else "*"
            wins[x][{"v": 0, " ": 1, "*": 2}[mark]] += 1
            std = a.std(ddof=1) if len(a) > 1 else 0.0
            cells.append(f"{a.mean():6.2f} ± {std:5.2f} {mark}")
            records[ds].append(
                {
                    "experiment": exp.name,
                    "dataset": ds,
                    "splits": len(acc[ds][ref]),
                    "learner": x,
                    "accuracy": round(float(a.mean()), 2),
                    "accuracy_std": round(float(std), 2),
                    "mark": mark.strip(),
                }
            )
        mean = np.mean([acc[ds][x].mean() * 100 for ds in datasets])
        cells += [f"{mean:6.2f}" + " " * 10, "" if x == ref else f"({wins[x][0]}/{wins[x][1]}/{wins[x][2]})"]
        columns.append((x, cells))
    splits = {ds: len(acc[ds][ref]) for ds in datasets}
    if args.format != "table":
        print_records([r for ds in datasets for r in records[ds]], args.format)
        return
    rows = [f"{ds} ({splits[ds]})" for ds in datasets] + ["mean", "(v/ /*)"]
    print(
        textwrap.fill(
            f"{exp.name}: accuracy % (mean ± std over splits); v / * = significantly better / worse "
            f"than {ref} (corrected resampled t-test, p < {SIGNIFICANCE}), counted in (v/ /*)",
            args.width,
        )
        + "\n"
    )
    print(wide_table("data set (splits)", rows, columns, args.width, fixed=1))
    partial = [x for x in exp.learners if x not in present] if not args.learner else []
    if partial:
        print(
            f"\nNot on every data set shown (the experiment's size limits), so left out: {', '.join(partial)}; "
            "pick data sets they ran on with --dataset."
        )


# ------------------------------------------------------------------------------------------------ timings
def load_timings(path) -> dict[str, dict[str, float]]:
    """A train cell's timings file: {data set: {"fit_seconds": s, "wall_seconds": s, ...}}, refused as one line
    naming the file (and line:column for broken JSON) when it is not one."""
    rerun = "rerun the learner's train cells (`dvc repro`) to rewrite it"
    try:
        times = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path}: not a timings file (not UTF-8 text at byte {exc.start}); {rerun}") from None
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); {rerun}") from None
    if not isinstance(times, dict) or not all(isinstance(v, dict) for v in times.values()):
        raise ResultsFileError(f"{path}: not a timings file (a mapping data set -> seconds); {rerun}")
    for ds, entry in times.items():
        for key, value in entry.items():
            if key.endswith("_seconds") and (isinstance(value, bool) or not isinstance(value, int | float)):
                raise ResultsFileError(f"{path}: {ds}.{key}: {value!r} is not a number of seconds; {rerun}")
    return times


def pareto_front(cost: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """True where no other point is at least as cheap and as well ranked, and strictly better in one."""
    cost, rank = np.asarray(cost, float), np.asarray(rank, float)
    no_worse = (cost[None, :] <= cost[:, None]) & (rank[None, :] <= rank[:, None])
    better = (cost[None, :] < cost[:, None]) | (rank[None, :] < rank[:, None])
    return ~(no_worse & better).any(axis=1)


def run_pareto(params, name: str) -> None:
    """Mean accuracy rank over the data sets every learner ran on vs the sum of its fit seconds there."""
    import pandas as pd

    from nbx.stats import significance as stats  # scipy.stats, about 0.8 s: imported by the commands that use it

    exp = config.experiment(params, name)
    acc = load_results(exp.name)
    times = {}
    for x in exp.learners:
        path = layout.timings(exp.name, x)
        if path.exists():
            times[x] = load_timings(path)
    learners = [x for x in exp.learners if x in times]
    datasets = [ds for ds in acc if all(x in acc[ds] and ds in times[x] for x in learners)]
    if len(learners) < 2 or not datasets:
        raise MissingInputError(
            f"--pareto needs results and timings of two or more learners on common data sets: "
            f"run `dvc repro report@{exp.name}` first"
        )
    # what the ranks leave out, said on stderr: the ranks are relative to the learners and data sets kept
    absent = [x for x in exp.learners if x not in times]
    if absent:
        note(
            f"--pareto: no timings of {', '.join(absent)} in {layout.TIMINGS / exp.name}/, left out of the ranks "
            f"(run their train cells: `dvc repro report@{exp.name}`)"
        )
    dropped = [ds for ds in acc if ds not in datasets]
    if dropped:
        note(f"--pareto: data sets {', '.join(dropped)} left out: not every learner kept has results and timings there")
    mean_acc = np.array([[acc[ds][x].mean() for x in learners] for ds in datasets])
    frame = pd.DataFrame(
        {
            "learner": learners,
            "fit_seconds": [sum(times[x][ds]["fit_seconds"] for ds in datasets) for x in learners],
            "mean_rank": stats.rank_rows(mean_acc).mean(axis=0),
            "accuracy": mean_acc.mean(axis=0) * 100,
        }
    )
    frame["front"] = pareto_front(frame["fit_seconds"], frame["mean_rank"])
    frame = frame.sort_values("fit_seconds", kind="stable")
    out = layout.TIMINGS / exp.name
    with atomic_path(out / "pareto.csv") as tmp:
        frame.round(4).to_csv(tmp, index=False)
    plot_pareto(frame, out / "pareto.png", f"{exp.name}: {len(datasets)} data sets")
    rows = [
        [r.learner, f"{r.fit_seconds:.1f}", f"{r.mean_rank:.2f}", f"{r.accuracy:.2f}", "*" if r.front else ""]
        for r in frame.itertuples()
    ]
    print(
        f"{exp.name}: total fit seconds (this machine's last run) vs mean accuracy rank over {len(datasets)} data "
        f"sets; * = on the front (no learner both faster and better ranked); {out}/pareto.csv, pareto.png\n"
    )
    print(render(["learner", "fit s", "mean rank", "accuracy %", "front"], rows, right={1, 2, 3}))


def plot_pareto(frame, path, title: str) -> None:
    from nbx.report.figures import plt, save_figure

    fig, ax = plt.subplots(figsize=(7, 5))
    ax.scatter(frame["fit_seconds"], frame["mean_rank"], c=["C3" if f else "C0" for f in frame["front"]])
    front = frame[frame["front"]]
    ax.step(front["fit_seconds"], front["mean_rank"], where="post", color="C3", lw=1)
    for r in frame.itertuples():
        ax.annotate(r.learner, (r.fit_seconds, r.mean_rank), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set(xscale="log", xlabel="total fit seconds (log scale)", ylabel="mean accuracy rank (1 = best)", title=title)
    ax.invert_yaxis()
    save_figure(fig, path)


def run_timings(args) -> None:
    if args.pareto:  # before any file is written: matplotlib comes with the pipeline extra, not with nbx itself
        require_extra("matplotlib", "pipeline", "timings --pareto (its figure, pareto.png)")
    params = load_params()
    if args.pareto:
        if not args.experiment:
            raise SpecError("--pareto needs an experiment, e.g. `nbx timings benchmark --pareto`")
        return run_pareto(params, args.experiment)
    names = [config.experiment(params, args.experiment).name] if args.experiment else list(params["experiments"])
    shown = 0
    for name in names:
        files = {p.stem: p for p in sorted(layout.TIMINGS.joinpath(name).glob("*.json"))}
        learners = [x for x in params["experiments"][name]["learners"] if x in files]
        if not learners:
            if args.experiment:
                raise MissingInputError(
                    f"no timings in {layout.TIMINGS / name}: run the experiment's train "
                    f"cells first (`dvc repro report@{name}`)"
                )
            continue
        times = {x: load_timings(files[x]) for x in learners}
        datasets = list(dict.fromkeys(ds for x in learners for ds in times[x]))
        columns = []
        for x in learners:
            wall = [times[x].get(ds, {}).get("wall_seconds") for ds in datasets]
            cells = ["-" if w is None else f"{w:.1f}" for w in wall]
            columns.append((x, cells + [f"{sum(w for w in wall if w is not None):.1f}"]))
        newest = max(files[x].stat().st_mtime for x in learners)
        text = wide_table("data set", datasets + ["total"], columns, args.width, min_cell=13)
        print(
            f"{name}: wall-clock seconds of the last train run on this machine (latest "
            f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(newest))}; {layout.TIMINGS / name}/)\n"
        )
        print(text + "\n")
        shown += 1
    if not shown:
        print(f"no timings yet in {layout.TIMINGS}/: they are written by the train stages (`dvc repro`)")
