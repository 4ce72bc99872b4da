"""Kang & Tian (2006): ``GAPS`` (:mod:`nbx.report.paper`), per data set the cells the agreement section shows for
it, each with its size in standard errors, the alternative readings' errors and, for HBayes, where its search
stopped; a measured cause where one of these accounts for the gap."""

from __future__ import annotations

from functools import partial

import numpy as np

from nbx.papers.kang2006.evidence import ALTERNATIVE_OF, EMPTY_S1, NAMES
from nbx.report.claims import std_of_average
from nbx.report.context import ReportContext
from nbx.report.experiment_report import Cell, Tally, cell_tally, published_cells
from nbx.report.published import read_table


def _hbayes_lines(ctx: ReportContext, p: str, x: str, published: float) -> list[str]:
    """Where an HBayes cell's S1 search stopped (fit_info), beside the models at its two ends: S1 = ∅ (naive
    Bayes by eq. 4, or TAN) and S1 = every attribute (logistic regression alone)."""
    folds = ctx.fit_info(x).get(ctx.datasets[p], [])
    base = EMPTY_S1[x]
    if not folds or not ctx.has(base):
        return []
    empty = [f for f in folds if not f["s1"]]
    ours, at_base = ctx.split_acc(p, x), ctx.split_acc(p, base)
    same = int(np.sum(ours == at_base)) if len(ours) == len(at_base) else 0
    sizes = sorted({len(f["s1"]) for f in folds if f["s1"]})
    line = (
        f"{NAMES.get(x, x)}'s search kept S1 = ∅ in {len(empty)} of {len(folds)} folds"
        + (f" (else |S1| = {', '.join(map(str, sizes))})" if sizes else "")
        + f"; with S1 = ∅ it is {NAMES.get(base, base)}, whose per-fold errors it equals in {same} of {len(ours)}"
        + " folds"
    )
    if empty:
        start = float(np.mean([f["search_path"][0][1] for f in empty]))
        first = "pair of attributes" if x == "hbayes_nb" else "attribute"
        line += f" (in those folds no {first} raised the training accuracy above S1 = ∅'s, mean {100 * start:.1f} %)"
    ends = {y: 100 - ctx.acc(p, y) for y in (base, "lr_kang_weka", "lr_kang") if ctx.has(y)}
    line += (
        ". At the two ends of the search: "
        + ", ".join(f"*{NAMES.get(y, y)}* {e:.2f} %" for y, e in ends.items())
        + f" (S1 = every attribute is logistic regression alone); the paper's {NAMES.get(x, x)} {published:.2f} %."
    )
    out = [line]
    lr = [e for y, e in ends.items() if y != base]
    largest = max((len(f["s1"]) for f in folds), default=0)
    if largest <= 2 and lr and abs(min(lr) - published) < abs(ends[base] - published):
        out.append(
            "Measured cause: the greedy search "
            + (
                f"returns S1 = ∅ on all {len(folds)} folds"
                if largest == 0
                else f"stops at S1 of at most {largest} attributes (∅ in {len(empty)} of {len(folds)} folds)"
            )
            + ", while the paper's number is nearer what S1 = every attribute gives than what "
            "S1 = ∅ gives; the search as printed (Fig. 2, 'Our Algorithm') does not get there on our training "
            "accuracies, and what the paper's search did differently is unexplained."
        )
    return out


def _cell_lines(ctx: ReportContext, c: Cell) -> list[str]:
    """One gap cell: its size in standard errors of the difference of two 10-fold means (√2 × our mean's: the
    paper's folds are others, taken as equally variable), the alternative readings' errors, and for HBayes
    where its search stopped; a conclusion where one of these accounts for the gap."""
    x, p = c.learner, c.dataset
    n = len(ctx.split_acc(p, x))
    ours, published = 100 - c.ours, 100 - c.published
    se = np.sqrt(2.0 / n) * c.std if n else float("nan")
    z = abs(ours - published) / se if se > 0 else float("inf")
    lines = [
        f"`{x}`: {ours - published:+.1f} error points, {z:.1f} standard errors of the difference of two "
        f"{n}-fold means (our fold std {c.std:.1f})" + (", within max(3 points, 2 std)" if c.agrees else "") + "."
    ]
    alts = {a: 100 - ctx.acc(p, a) for a, d in ALTERNATIVE_OF.items() if d == x and ctx.has(a)}
    elsewhere = {a: _elsewhere(ctx, p, x, a) for a in alts}
    for a, e in alts.items():
        (n_other, d_default, d_alt) = elsewhere[a]
        lines.append(
            f"The alternative reading *{NAMES.get(a, a)}* errs {e:.2f} % ({e - published:+.1f})"
            + (
                f"; on the other {n_other} data sets its mean |ours − published| is {d_alt:.2f} points against "
                f"the default's {d_default:.2f}."
                if n_other
                else "."
            )
        )
    if x in EMPTY_S1:
        lines += _hbayes_lines(ctx, p, x, published)
    # a reading accounts for the gap where it comes within 3 points here and is no farther from the paper elsewhere
    near = [a for a, e in alts.items() if abs(e - published) <= 3.0 < abs(ours - published)]
    reading = [a for a in near if not elsewhere[a][0] or elsewhere[a][2] <= elsewhere[a][1]]
    if reading and z >= 2:
        lines.append(
            f"Measured cause: the reading — *{NAMES.get(reading[0], reading[0])}* lies within 3 points here and "
            "no farther from the paper on the other data sets."
        )
    elif z < 2:
        lines.append(
            f"What the numbers show: a gap of {z:.1f} standard errors of the difference, under two, so another "
            "draw of folds could give it"
            + (
                "; the alternative reading comes within 3 points here but lies farther from the paper on the "
                "other data sets, so it is not shown to be the cause"
                if near and not reading
                else ""
            )
            + "."
        )
    elif not any(line.startswith("Measured cause") for line in lines):
        lines.append("Unexplained beyond these measurements.")
    return lines


def _elsewhere(ctx: ReportContext, p: str, x: str, a: str) -> tuple[int, float, float]:
    """Over the data sets other than ``p`` where both ran: their number, and the mean |ours − published| (points)
    of the default ``x`` and of its alternative reading ``a`` (both against ``x``'s published column)."""
    others = [
        q
        for q in ctx.datasets
        if q != p and np.isfinite(ctx.published_acc(q, x)) and np.isfinite(ctx.acc(q, x)) and np.isfinite(ctx.acc(q, a))
    ]
    if not others:
        return 0, float("nan"), float("nan")
    gap = lambda y: float(np.mean([abs(ctx.acc(q, y) - ctx.published_acc(q, x)) for q in others]))  # noqa: E731
    return len(others), gap(x), gap(a)


def gap_lines(p: str, ctx: ReportContext) -> list[str]:
    """GAPS entry of data set ``p``: the cells the agreement section shows for it (those outside max(3 points,
    2 std), else the largest), each explained by :func:`_cell_lines` or marked unexplained."""
    cells = sorted(published_cells(ctx, [p]), key=lambda c: -abs(c.gap))
    shown = [c for c in cells if not c.agrees] or cells[:1]
    return [line for c in shown for line in _cell_lines(ctx, c)]


GAPS = {
    name: partial(gap_lines, name)
    for name in read_table("kang2006_table1.csv", "kang2006").iloc[:, 0]
    if name != "Average"
}


def published_numbers(ctx: ReportContext, names: list[str], cells: list[Cell]) -> list[Tally]:
    """Every number Kang & Tian's Table 1 prints (the errors per data set and its Average row), how many we
    compare and how many lie within the tolerance of their kind (:func:`nbx.report.experiment_report.
    tally_lines`). An Average cell agrees within 2 × the std of our average over the same data sets
    (:func:`nbx.report.claims.std_of_average`, as claim K2 uses it)."""
    table = read_table("kang2006_table1.csv", "kang2006")
    rows = [i for i in table.index if i != "average"]
    spec = next(s for s in ctx.exp.published if s["table"] == "kang2006_table1.csv")
    learners = list(dict.fromkeys({c: x for x, c in reversed(list(spec["columns"].items()))}.values()))
    averaged, within = 0, 0
    for x in learners:
        kept = [p for p in names if np.isfinite(ctx.acc(p, x))]
        if not ctx.has(x) or len(kept) < len(rows):
            continue
        column = spec["columns"][x]
        ours = 100 - float(np.mean([ctx.acc(p, x) for p in kept]))
        se = std_of_average([100 * (1 - ctx.split_acc(p, x)) for p in kept])
        averaged += 1
        within += abs(ours - 100 * float(table.loc["average", column])) <= 2 * se
    return [
        cell_tally("Table 1", "error per data set", len(rows) * len(learners), cells, "error"),
        Tally(
            "Table 1",
            "Average row",
            len(learners),
            averaged,
            within,
            "2 × the std of our average over the same data sets (as claim K2)",
        ),
    ]
