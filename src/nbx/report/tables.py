"""Markdown tables of our results beside the published ones, with significance marks and summary rows."""

from __future__ import annotations

import numpy as np

from nbx.report.context import ReportContext
from nbx.stats import significance as stats


def fmt(x: float, digits: int = 1) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{x:.{digits}f}"


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    return (
        ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        + ["| " + " | ".join(map(str, r)) + " |" for r in rows]
        + [""]
    )


def marks(ctx: ReportContext, learner: str, baseline: str, test=None) -> dict[str, str]:
    """Wiering's mark (++/+/=/-/--) of learner vs baseline per available data set, by ``test`` (a function of
    the two per-split accuracy arrays giving a two-sided p; default the paired t-test)."""
    out = {}
    for p in ctx.datasets:
        a, b = ctx.split_acc(p, learner), ctx.split_acc(p, baseline)
        out[p] = stats.mark(a, b, None if test is None else test(a, b))
    return out


def win_loss(ms: dict[str, str]) -> tuple[int, int]:
    """Significant (p < 0.05) wins and losses from a dict of marks."""
    vals = list(ms.values())
    return sum(m in ("+", "++") for m in vals), sum(m in ("-", "--") for m in vals)


def error_reduction(ctx: ReportContext, learner: str, baseline: str, paper_names=None, acc=None) -> float:
    """Bauer & Kohavi's average relative error reduction of learner over baseline, (e_b - e_l) / e_b, in %.
    Data sets where the baseline makes no error are skipped. ``acc(paper_name, learner)`` gives the
    accuracies in % (default ours, ``ctx.acc``; ``ctx.published_acc`` for the paper's)."""
    acc = acc or ctx.acc
    ratios = []
    for p in paper_names or ctx.datasets:
        e_b, e_l = 100 - acc(p, baseline), 100 - acc(p, learner)
        if e_b > 0:
            ratios.append((e_b - e_l) / e_b)
    return 100 * float(np.mean(ratios)) if ratios else float("nan")


def mean_abs_difference(ctx: ReportContext, learner: str, names=None) -> tuple[float, int]:
    """Mean |ours - published| accuracy (points) over data sets with both (of ``names``, default all available),
    and their number."""
    diffs = [ctx.acc(p, learner) - ctx.published_acc(p, learner) for p in (ctx.datasets if names is None else names)]
    diffs = [d for d in diffs if np.isfinite(d)]
    return (float(np.mean(np.abs(diffs))) if diffs else float("nan")), len(diffs)


def comparison_table(
    ctx: ReportContext,
    learners: list[str],
    baseline: str | None = None,
    error: bool = False,
    digits: int = 1,
    names: dict[str, str] | None = None,
    average_over: list[str] | None = None,
    test=None,
) -> list[str]:
    """One row per paper data set: for each learner ours (± std), our mark vs ``baseline`` (by ``test``, see
    :func:`marks`; default the paired t-test),
    and the published value; then the average row over the data sets we have (or those of ``average_over``,
    which also restricts the win:loss row). ``error`` shows error rates (100 - accuracy) instead of accuracies."""
    learners = [x for x in learners if ctx.has(x)]
    summarized = [p for p in ctx.datasets if average_over is None or p in average_over]
    names = names or {}
    value = (lambda a: 100 - a) if error else (lambda a: a)
    has_pub = {x: any(np.isfinite(ctx.published_acc(p, x)) for p in ctx.datasets) for x in learners}
    all_marks = {x: marks(ctx, x, baseline, test) for x in learners if baseline and x != baseline and ctx.has(baseline)}
    header = ["data set"]
    for x in learners:
        header += [names.get(x, x)] + (["pub."] if has_pub[x] else [])
    rows = []
    for p in ctx.exp.datasets:
        row = [p]
        for x in learners:
            if p in ctx.datasets:
                cell = f"{fmt(value(ctx.acc(p, x)), digits)} ± {fmt(ctx.acc_std(p, x), digits)}"
                if x in all_marks:
                    cell += f" {all_marks[x][p]}"
            else:
                cell = "n/a"
            row.append(cell)
            if has_pub[x]:
                row.append(fmt(value(ctx.published_acc(p, x)), digits))
        rows.append(row)
    avg = ["**average**"]
    for x in learners:
        avg.append(f"**{fmt(np.mean([value(ctx.acc(p, x)) for p in summarized]), digits)}**")
        if has_pub[x]:
            common = [p for p in summarized if np.isfinite(ctx.published_acc(p, x))]
            pub = fmt(np.mean([value(ctx.published_acc(p, x)) for p in common]), digits) if common else "–"
            avg.append(f"{pub}")
    rows.append(avg)
    if all_marks:
        wl = ["significant win:loss vs " + names.get(baseline, baseline)]
        for x in learners:
            wl.append(
                "ref"
                if x == baseline
                else ("%d:%d" % win_loss({p: all_marks[x][p] for p in summarized}) if x in all_marks else "")
            )
            if has_pub[x]:
                wl.append("")
        rows.append(wl)
    return md_table(header, rows)
