"""Wang et al. (2006): ``GAPS`` (:mod:`nbx.report.paper`), per data set what we measured about its gap between our
and the published accuracy (the report's agreement section prints it under the largest gaps)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from nbx.papers.wang2006.evidence import NAMES, PAPER, paper_marks
from nbx.report.context import ReportContext
from nbx.report.experiment_report import Cell, Tally, cell_tally, std_agrees, std_tolerance
from nbx.report.published import folder, name_key, read_table


def published_std(ctx: ReportContext, p: str, learner: str) -> float:
    """The paper's standard deviation (Table 1) of ``learner`` on data set ``p``; NaN when it gives none."""
    from nbx.report.published import name_key, read_table

    for spec in ctx.exp.published:
        column = spec["columns"].get(learner)
        if column is not None:
            table = read_table(spec["table"], "wang2006")
            std = column.replace("_acc", "_std")
            if std in table.columns and name_key(p) in table.index:
                return float(table.loc[name_key(p), std])
    return float("nan")


def gap_lines(ctx: ReportContext, p: str) -> list[str]:
    """What we measured about data set ``p``'s gaps between our Table 1 learners and the published ones: how
    far the published accuracy is from ours in the paper's own standard deviations and from our worst fold,
    from the weakest of every learner and reading we ran, and from predicting the most frequent class. None
    of these is a cause; the lines say so ("unexplained") and list what was ruled out."""
    labels = ctx.labels(p)
    majority = 100 * float(np.max(np.unique(labels, return_counts=True)[1]) / len(labels))
    ran = [x for x in ctx.learners if np.isfinite(ctx.acc(p, x))]
    weakest = min(ran, key=lambda x: ctx.acc(p, x))
    lines, outside = [], 0
    for x in [x for x in PAPER if ctx.has(x) and np.isfinite(ctx.published_acc(p, x))]:
        ours, pub, std = ctx.acc(p, x), ctx.published_acc(p, x), published_std(ctx, p, x)
        folds = 100 * np.asarray(ctx.split_acc(p, x), float)
        beyond = pub < folds.min() or pub > folds.max()
        outside += beyond
        lines.append(
            f"- {NAMES[x]}: the gap is {(ours - pub) / std:.1f} times the paper's own std ({std:.2f}); our "
            f"{len(folds)} folds range {folds.min():.1f} to {folds.max():.1f}"
            + (", the published value outside it." if beyond else ".")
        )
    shown = [x for x in PAPER if ctx.has(x) and np.isfinite(ctx.published_acc(p, x))]
    lines.append(
        f"- Unexplained. Measured and ruled out: split noise (the published value lies outside the range of our "
        f"folds for {outside} of {len(shown)} learners); the readings and reference learners we ran (the weakest of "
        f"the {len(ran)} here, {NAMES.get(weakest, weakest)}, reaches {ctx.acc(p, weakest):.1f}). Predicting the "
        f"most frequent class scores {majority:.1f}%; the published "
        + ", ".join(NAMES[x] for x in shown)
        + " lie "
        + ", ".join(f"{ctx.published_acc(p, x) - majority:+.1f}" for x in shown)
        + " points from it, ours "
        + ", ".join(f"{ctx.acc(p, x) - majority:+.1f}" for x in shown)
        + ". The paper describes no setup (§6: 10-fold CV, missing values by the most frequent value, C4.5 "
        "Release 8, Kohavi's NBTree) under which these learners would score so low here, so we attribute no cause."
    )
    return lines


# Every data set of Table 1 (the agreement section picks the three largest gaps).
GAPS = {
    name: functools.partial(gap_lines, p=name)
    for name in pd.read_csv(folder("wang2006") / "wang2006_table1.csv")["dataset"]
}


STD_ROUNDING = 0.005  # Table 1 prints its stds to 0.01


def published_numbers(ctx: ReportContext, names: list[str], cells: list[Cell]) -> list[Tally]:
    """Every number Wang et al.'s Table 1 prints (accuracies, stds, the ✓/× column), how many we compare and how
    many lie within the tolerance of their kind (:func:`nbx.report.experiment_report.tally_lines`)."""
    table = read_table("wang2006_table1.csv", "wang2006")
    columns = {x: c for s in ctx.exp.published for x, c in s["columns"].items() if s["table"] == "wang2006_table1.csv"}
    defaults = list(dict.fromkeys(columns.values()))
    learners = [next(x for x, c in columns.items() if c == col) for col in defaults]
    stds = [(p, x) for p in names for x in learners if ctx.has(x) and name_key(p) in table.index]
    n = len(ctx.split_acc(names[0], learners[0])) if names and learners and ctx.has(learners[0]) else 0
    std_ok = sum(
        std_agrees(
            ctx.acc_std(p, x),
            float(table.loc[name_key(p), columns[x].replace("_acc", "_std")]),
            n,
            STD_ROUNDING,
        )
        for p, x in stds
    )
    marks = ctx.memo(paper_marks)
    ours = {p: ctx.acc(p, "snbtree") - ctx.acc(p, "nbtree") for p in names} if ctx.has("snbtree", "nbtree") else {}
    compared = [p for p in names if p in marks and p in ours]
    same = sum((ours[p] > 0) == (marks[p] == "better") and ours[p] != 0 for p in compared)
    return [
        cell_tally("Table 1", "accuracy per data set", len(table) * len(defaults), cells, "accuracy"),
        Tally(
            "Table 1", "std per data set", len(table) * len(defaults), len(stds), std_ok, std_tolerance(n, STD_ROUNDING)
        ),
        Tally(
            "Table 1",
            "✓/× (S-NBTree better / worse than NBTree)",
            len(table),
            len(compared),
            same,
            "the same sign of our S-NBTree − NBTree (a tie matches neither)",
        ),
    ]
