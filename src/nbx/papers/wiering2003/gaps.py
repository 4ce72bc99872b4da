"""Wiering (2003): ``GAPS`` (:mod:`nbx.report.paper`), per data set the alternatives measured for its gap to Table 2
and the verdict: a reading that brings every far learner within max(3 points, 2 × the paper's std), or
unexplained. Each check returns (markdown lines, [(reading, {learner: its accuracy under the reading}, (mean
|ours - published| of those learners over the other comparable data sets, by default -> under the reading), or
None when the reading changes nothing elsewhere)])."""

from __future__ import annotations

import numpy as np

from nbx.papers.wiering2003.evidence import (
    ATTRNORM,
    CLASS_COUNTS,
    LEARNERS,
    NB,
    NOT_COMPARABLE,
    PRINTED,
    PRINTED_ROUNDING,
    SEEN,
    SIG_COLUMNS,
    TITLES,
    comparable,
    direction,
    file_counts,
    nbc_runs,
    our_marks,
    phantom_rows,
    printed_summary,
    published_marks,
    table1,
)
from nbx.pipeline.inputs import load_plan
from nbx.report.context import ReportContext
from nbx.report.experiment_report import Cell, Tally, cell_tally, std_agrees, std_tolerance
from nbx.report.published import name_key, read_table


def published_std(ctx: ReportContext, p: str, learner: str) -> float:
    """The paper's std over its 50 splits of ``learner``'s Table 2 column on data set ``p``."""
    column = next(s["columns"][learner] for s in ctx.exp.published if learner in s["columns"])
    return float(read_table("wiering2003_table2.csv", "wiering2003").loc[name_key(p), column.replace("_acc", "_std")])


def close(ctx: ReportContext, p: str, learner: str, value: float) -> bool:
    """``value`` within max(3 points, 2 × the paper's std) of the paper's number: the agreement count's tolerance
    with the paper's std over its splits in place of ours, so that a reading that spreads its splits more (e.g.
    one that fails on the halves lacking a class) does not get a wider tolerance."""
    return abs(value - ctx.published_acc(p, learner)) <= max(3.0, 2 * published_std(ctx, p, learner))


def gap_text(ctx: ReportContext, p: str, learner: str, value: float) -> str:
    pub = ctx.published_acc(p, learner)
    return f"{value:.1f} ({value - pub:+.1f} from {pub:.1f}{', close' if close(ctx, p, learner, value) else ''})"


def others(ctx: ReportContext, p: str) -> list[str]:
    return [q for q in comparable(ctx) if q != p and np.isfinite(ctx.published_acc(q, NB))]


def mean_gap(ctx: ReportContext, names: list[str], learners: list[str], acc) -> float:
    """Mean |acc(q, x) - published| over data sets ``names`` and the published columns of ``learners``."""
    return float(np.mean([abs(acc(q, x) - ctx.published_acc(q, x)) for q in names for x in learners]))


def split_check(ctx: ReportContext, p: str) -> tuple[list[str], list]:
    """How many standard errors of our 50-split means the gaps on ``p`` are (what another draw of the splits
    could move)."""
    ses = {x: ctx.acc_std(p, x) / np.sqrt(len(ctx.split_acc(p, x))) for x in LEARNERS if ctx.has(x)}
    z = {x: abs(ctx.acc(p, x) - ctx.published_acc(p, x)) / ses[x] for x in ses}
    line = (
        f"- The splits (random, unstratified, half/half as §4's): a mean over {len(ctx.split_acc(p, NB))} splits has "
        f"a standard error of {min(ses.values()):.1f}-{max(ses.values()):.1f} points here, the gaps are "
        f"{min(z.values()):.0f}-{max(z.values()):.0f} standard errors."
    )
    return [line], []  # a fact about the gap, not a reading that could close it (the tolerance has the paper's std)


def reading_check(ctx: ReportContext, p: str, alternative: dict[str, str], what: str) -> tuple[list[str], list]:
    """Every default learner beside its ``alternative`` learner (a reading run in the pipeline) on ``p``."""
    pairs = [(x, alternative[x]) for x in LEARNERS if ctx.has(x, alternative[x])]
    if not pairs:
        return [], []
    line = f"- {what}: " + ", ".join(f"{TITLES[x]} {gap_text(ctx, p, x, ctx.acc(p, a))}" for x, a in pairs) + "."
    rest, xs = others(ctx, p), [x for x, _ in pairs]
    spread = (
        mean_gap(ctx, rest, xs, ctx.acc),
        mean_gap(ctx, rest, xs, lambda q, x: ctx.acc(q, alternative[x])),
    )
    return [line], [(what, {x: ctx.acc(p, a) for x, a in pairs}, spread)]


def lacking_check(ctx: ReportContext, p: str) -> tuple[list[str], list]:
    """Counters for every class (default) vs only the training half's (``*_seenclasses``), on the halves that
    lack a class and on the others."""
    y = ctx.labels(p)
    test, _ = load_plan(ctx.exp.name, ctx.exp.datasets[p])
    lacking = np.array([len(np.unique(y[~t])) < len(np.unique(y)) for t in test])
    pairs = [(x, SEEN[x]) for x in LEARNERS if ctx.has(x, SEEN[x])]
    if not lacking.any() or not pairs:
        return [
            f"- No training half of {p} lacks one of the file's {len(np.unique(y))} classes, so counters for every "
            "class of the file and for the training half's classes only (`*_seenclasses`) give the same model here."
        ], []
    parts = [
        f"{TITLES[x]} {100 * ctx.split_acc(p, x)[lacking].mean():.1f} / {100 * ctx.split_acc(p, a)[lacking].mean():.1f}"
        f" on those halves, {100 * ctx.split_acc(p, x)[~lacking].mean():.1f} / "
        f"{100 * ctx.split_acc(p, a)[~lacking].mean():.1f} on the others"
        for x, a in pairs
    ]
    lines = [
        f"- {lacking.sum()}/{len(test)} training halves lack a class; every class's counters (default) / the half's "
        "classes only: " + "; ".join(parts) + "."
    ]
    more, checks = reading_check(ctx, p, SEEN, "Counters only for the training half's classes (`*_seenclasses`)")
    return lines + more, checks


def phantom_check(ctx: ReportContext, p: str) -> tuple[list[str], list]:
    """The NBC with Table 1's class count where it exceeds the file's (see :func:`phantom_section`)."""
    if p not in ctx.memo(phantom_rows):
        return [], []
    k, k1 = file_counts(ctx, p)["classes"], ctx.memo(table1)[p]["classes"]
    runs = {den: 100 * ctx.memo(nbc_runs, p, den, k1)["acc"].mean() for den in ("class", "attribute")}
    line = (
        f"- Table 1's {k1} classes ({k} in the file, the others never occurring), NBC: with the class counter "
        f"{gap_text(ctx, p, NB, runs['class'])}, with the attribute's total {gap_text(ctx, p, NB, runs['attribute'])}."
    )
    return [line], [(f"Table 1's {k1} classes, {den} denominator", {NB: v}, None) for den, v in runs.items()]


def cut_point_check(ctx: ReportContext, p: str) -> tuple[list[str], list]:
    """The NBC with the standard-deviation discretizer's other rounding (``trunc``: no cut at the mean), on ``p``
    and on the other comparable data sets."""
    rest = others(ctx, p)
    trunc = {
        q: 100 * ctx.memo(nbc_runs, q, "class", file_counts(ctx, q)["classes"], "trunc")["acc"].mean()
        for q in [p] + rest
    }
    spread = (mean_gap(ctx, rest, [NB], ctx.acc), mean_gap(ctx, rest, [NB], lambda q, x: trunc[q]))

    def gain(q: str) -> float:  # how much closer to the paper the reading brings q (negative: farther)
        return abs(ctx.acc(q, NB) - ctx.published_acc(q, NB)) - abs(trunc[q] - ctx.published_acc(q, NB))

    worse = sorted(rest, key=gain)
    line = (
        "- The cut points: the z-score truncated towards zero instead of floored (no cut at the mean, so "
        f"(mean − std, mean + std) is one bin; `rounding: trunc` of the stddev discretizer), NBC "
        f"{gap_text(ctx, p, NB, trunc[p])}; on the other {len(rest)} comparable data sets the NBC's mean "
        f"|ours − published| goes from {spread[0]:.2f} to {spread[1]:.2f} points, the largest moves away from the "
        "paper "
        + ", ".join(
            f"{q} {ctx.acc(q, NB):.1f} → {trunc[q]:.1f} (paper {ctx.published_acc(q, NB):.1f})" for q in worse[:3]
        )
        + "."
    )
    return [line], [("the cut points without the one at the mean", {NB: trunc[p]}, spread)]


def verdict(ctx: ReportContext, p: str, checks: list) -> str:
    """The measured cause: the readings that bring every default learner far from the paper on ``p`` (and the one
    with the largest gap) within :func:`close`'s tolerance, with how they move the other data sets; else
    unexplained, naming what closes part of it."""
    ran = [x for x in LEARNERS if ctx.has(x)]
    largest = max(ran, key=lambda x: abs(ctx.acc(p, x) - ctx.published_acc(p, x)), default=None)
    # the learners outside the tolerance, and the largest gap (the cell the agreement section shows) in any case
    far = [x for x in ran if not close(ctx, p, x, ctx.acc(p, x)) or x == largest]
    if not far:
        return f"- No learner ran on {p}."
    names = ", ".join(TITLES[x] for x in far)

    def spread_text(spread) -> str:
        if spread is None:
            return ""
        return f" (the other comparable data sets' mean gap {spread[0]:.2f} → {spread[1]:.2f} points)"

    causes = [(n, sp) for n, v, sp in checks if all(x in v and close(ctx, p, x, v[x]) for x in far)]
    if causes:
        return (
            f"- **Measured cause** of the gap of {names}: "
            + "; ".join(n + spread_text(sp) for n, sp in causes)
            + (": within max(3 points, 2 × the paper's std) of the paper's number with it.")
        )
    partial = [
        n + f" closes {', '.join(TITLES[x] for x in far if x in v and close(ctx, p, x, v[x]))}" + spread_text(sp)
        for n, v, sp in checks
        if any(x in v and close(ctx, p, x, v[x]) for x in far)
    ]
    return (
        f"- **Unexplained**: none of the readings above brings {names} within max(3 points, 2 × the paper's std) "
        "of the paper's number." + (f" Partly: {'; '.join(partial)}." if partial else "")
    )


def gap(*checks):
    """A GAPS entry: the lines of ``checks`` (functions of (ctx, data set)) and the verdict over them."""

    def lines(ctx: ReportContext, p: str) -> list[str]:
        out, found = [], []
        for check in checks:
            more, measured = check(ctx, p)
            out, found = out + more, found + measured
        return out + [verdict(ctx, p, found)]

    return lines


def _attrnorm_check(ctx: ReportContext, p: str) -> tuple[list[str], list]:
    return reading_check(ctx, p, ATTRNORM, "P(f|C) over the attribute's total (`*_attrnorm`)")


GAP_CHECKS = gap(split_check, _attrnorm_check, lacking_check, phantom_check, cut_point_check)
GAPS = {p: (lambda ctx, p=p: GAP_CHECKS(ctx, p)) for p in ("Glass", "Servo", "Soybeans")}


def published_numbers(ctx: ReportContext, names: list[str], cells: list[Cell]) -> list[Tally]:
    """Every number Wiering prints (Table 1's counts, Table 2's accuracies, stds, marks and summary rows), how
    many we compare and how many lie within the tolerance of their kind (:func:`nbx.report.experiment_report.
    tally_lines`)."""
    stated = ctx.memo(table1)
    t1 = read_table(CLASS_COUNTS, "wiering2003")
    kinds = ("classes", "features", "instances")
    equal = sum(stated[p][k] == file_counts(ctx, p)[k] for p in stated for k in kinds)
    t2 = read_table("wiering2003_table2.csv", "wiering2003")
    ran = [x for x in LEARNERS if ctx.has(x)]
    stds = [(p, x) for p in names for x in ran if name_key(p) in t2.index]
    n = len(ctx.split_acc(names[0], NB)) if names and ctx.has(NB) else 0
    std_ok = sum(std_agrees(ctx.acc_std(p, x), published_std(ctx, p, x), n, PRINTED_ROUNDING) for p, x in stds)
    ours, paper = ctx.memo(our_marks), ctx.memo(published_marks)
    marks = [(p, x) for p in names for x in SIG_COLUMNS if x in ours and p in paper.get(x, {})]
    same = sum(direction(ours[x][p]) == direction(paper[x][p]) for p, x in marks)
    printed = printed_summary()
    n_printed = sum(2 if isinstance(c.printed, tuple) else 1 for c in printed)
    return [
        Tally(
            "Table 1",
            "classes, features, instances",
            len(t1) * len(kinds),
            len(stated) * len(kinds),
            equal,
            "equal to the data set file's",
        ),
        cell_tally("Table 2", "accuracy per data set", len(t2) * len(LEARNERS), cells, "accuracy"),
        Tally(
            "Table 2",
            "std per data set",
            len(t2) * len(LEARNERS),
            len(stds),
            std_ok,
            std_tolerance(n, PRINTED_ROUNDING),
        ),
        Tally(
            "Table 2",
            "significance mark vs NBC",
            len(t2) * len(SIG_COLUMNS),
            len(marks),
            same,
            "same direction (`-` also for `--`, which the text lost)",
        ),
        Tally(
            "Table 2",
            "summary rows (average accuracy, error reduction, win:loss)",
            n_printed,
            0,
            0,
            "not compared here",
            f"printed over all {PRINTED['data_sets']} data sets, {', '.join(NOT_COMPARABLE)} included; claims W2-W4 "
            "judge them against ours on the comparable data sets; against the paper's own rows "
            f"{sum(c.matches for c in printed)} of {len(printed)} agree (Table 2's summary above)",
        ),
    ]
