"""Per-experiment report: the paper's tables with our numbers beside the published ones, the claims, figures.

A report holds no timings, so it is byte-identical on every rerun on machines of one kind (Linux x86-64 with AVX2
and FMA, kernels pinned by :mod:`nbx.pipeline.kernels`; README, "Same bytes on which machines"); this machine's
wall-clock times are in ``data/timings/`` (``nbx timings EXPERIMENT``).

The paper-specific sections live in ``nbx.papers.<experiment>.report`` (found by name, see :mod:`nbx.papers`);
an experiment without such a module (for example one a user adds) gets the generic comparison table.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
from dataclasses import dataclass

import numpy as np

from nbx.core.io import write_text
from nbx.pipeline import layout
from nbx.report import paper
from nbx.report.context import ReportContext
from nbx.report.figures import MAX_SERIES, dot_plot, figure_path, gap_plot, plot_path, vs_published_scatter
from nbx.report.tables import comparison_table, fmt, md_table, mean_abs_difference


def scatter(ctx: ReportContext, learner: str, path) -> bool:
    """Our accuracy vs the published one, one point per data set, the largest gaps labelled; False when there is
    nothing to plot."""
    pairs = [
        (ctx.published_acc(p, learner), ctx.acc(p, learner), p)
        for p in ctx.datasets
        if np.isfinite(ctx.published_acc(p, learner))
    ]
    if not pairs:
        return False
    pub, ours, names = zip(*pairs)
    vs_published_scatter(path, pub, ours, names, title=learner)
    return True


def accuracy_chart(ctx: ReportContext, learners: list[str], path) -> None:
    """Dots: our accuracy per data set and learner, published values as black ticks (:func:`dot_plot`)."""
    names = list(ctx.datasets)
    ours = {x: [ctx.acc(p, x) for p in names] for x in learners}
    published = {x: [ctx.published_acc(p, x) for p in names] for x in learners}
    dot_plot(path, names, ours, published, xlabel="accuracy (%)")


def paper_module(name: str):
    try:
        return importlib.import_module(f"nbx.papers.{name}.report")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"nbx.papers.{name}", f"nbx.papers.{name}.report"):
            raise  # a paper module that fails to import is a bug, not a missing paper
        return None


def default_readings(specs: list[dict]) -> dict[str, str]:
    """Each published column -> the learner that holds its default reading: the first one ``published.columns``
    maps to it (the others are alternative readings of the same number)."""
    out: dict[str, str] = {}
    for spec in specs:
        for learner, column in spec.get("columns", {}).items():
            out.setdefault(f"{spec['table']}:{column}", learner)
    return out


@dataclass(frozen=True)
class Cell:
    """One published number beside ours (accuracy %, ``std`` over splits)."""

    dataset: str
    learner: str
    ours: float
    std: float
    published: float

    @property
    def gap(self) -> float:
        return self.ours - self.published

    @property
    def agrees(self) -> bool:
        """Within max(3 points, 2 std of our splits): the rubric's tolerance for one published cell."""
        return abs(self.gap) <= max(3.0, 2.0 * self.std)


def published_cells(ctx: ReportContext, names: list[str]) -> list[Cell]:
    """Every published number of ``names`` once, beside its column's default reading (where that learner ran)."""
    cells = []
    for learner in dict.fromkeys(default_readings(ctx.exp.published).values()):
        for p in names:
            ours, pub = ctx.acc(p, learner), ctx.published_acc(p, learner)
            if np.isfinite(ours) and np.isfinite(pub):
                cells.append(Cell(p, learner, ours, ctx.acc_std(p, learner), pub))
    return cells


@dataclass(frozen=True)
class Tally:
    """One kind of published number of one table (a paper module's ``PUBLISHED_NUMBERS``): how many the paper
    prints, how many we compare, how many of those lie within ``tolerance`` (the rule each of them used), and where
    the others are, if anywhere (``note``)."""

    table: str
    numbers: str
    published: int
    compared: int
    within: int
    tolerance: str
    note: str = ""


def cell_tally(table: str, numbers: str, published: int, cells: list[Cell], unit: str) -> Tally:
    """The per-data-set cells of :func:`published_cells` as a :class:`Tally` (``published``: all the table prints,
    not comparable data sets included)."""
    return Tally(
        table,
        numbers,
        published,
        len(cells),
        sum(c.agrees for c in cells),
        f"max(3 {unit} points, 2 × the std of our splits)",
    )


def std_agrees(ours: float, published: float, n: int, rounding: float) -> bool:
    """Our std over ``n`` splits and the paper's (printed to ± ``rounding``, over as many splits) agree: the
    two-sided F-test of equal variances at 5% (n − 1 degrees of freedom each) does not reject for some value the
    printed std can stand for."""
    from scipy.stats import f

    lo, hi = f.ppf(0.025, n - 1, n - 1), f.ppf(0.975, n - 1, n - 1)
    smallest = (ours / (published + rounding)) ** 2
    largest = (ours / max(published - rounding, 1e-12)) ** 2
    return bool(smallest <= hi and largest >= lo)


def std_tolerance(n: int, rounding: float) -> str:
    return f"F-test of equal variances does not reject (two-sided 5%, {n - 1} df each; the paper's std ± {rounding:g})"


def tally_lines(tallies: list[Tally]) -> list[str]:
    """Every published number of the paper, per table and kind, with the tolerance each used."""
    total = [sum(getattr(t, k) for t in tallies) for k in ("published", "compared", "within")]
    rows = [
        [
            t.table,
            t.numbers,
            str(t.published),
            str(t.compared),
            str(t.within),
            t.tolerance + (f"; {t.note}" if t.note else ""),
        ]
        for t in tallies
    ]
    return [
        f"Every number the paper publishes, per table: {total[0]} published, {total[1]} compared with ours, "
        f"**{total[2]} of {total[1]}** within the tolerance of their row.",
        "",
        *md_table(["table", "numbers", "published", "compared", "within tolerance", "tolerance"], rows),
    ]


def gap_figure(ctx: ReportContext, cells: list[Cell], names: list[str], errors: bool) -> str:
    """gaps.png: ours − published of every cell as a dot per data set (in error points when ``errors``), with
    the tolerance; returns its markdown line."""
    sign = -1.0 if errors else 1.0
    row = {p: i for i, p in enumerate(names)}
    unit = "error" if errors else "accuracy"
    agree = sum(c.agrees for c in cells)
    gap_plot(
        figure_path(ctx, "gaps.png"),
        names,
        [(row[c.dataset], c.learner, sign * c.gap, c.std) for c in cells],
        xlabel=f"ours − published ({unit} points)",
        title=f"{agree} of {len(cells)} published numbers within max(3 points, 2 std)",
    )
    return f"![ours − published per data set](figures/{ctx.exp.name}/gaps.png)"


def gaps_section(ctx: ReportContext, module, names: list[str], errors: bool) -> list[str]:
    """How many published cells we reproduce, and the three data sets with the largest gaps, each with the paper
    module's measured cause (``GAPS``) or the word that none was found."""
    cells = published_cells(ctx, names)
    if not cells:
        return []
    unit = "error" if errors else "accuracy"
    show = (lambda a: 100.0 - a) if errors else (lambda a: a)
    defaults = ", ".join(f"`{x}`" for x in dict.fromkeys(c.learner for c in cells))
    count = getattr(module, "PUBLISHED_COUNT", None)
    if count is not None:  # the paper counts every number its tables print, with each one's tolerance
        out = count(ctx)
    else:
        out = [
            f"### Published cells within max(3 {unit} points, 2 std)",
            "",
            f"**{sum(c.agrees for c in cells)} of {len(cells)}** published numbers (each once, beside the default "
            f"reading of its column: {defaults}; not comparable data sets left out) lie within max(3 {unit} points, "
            "twice the standard deviation of our per-split accuracies) of ours.",
            "",
            *(tally_lines(module.PUBLISHED_NUMBERS(ctx, names, cells)) if hasattr(module, "PUBLISHED_NUMBERS") else []),
        ]
    out += [gap_figure(ctx, cells, names, errors), "", "### The three largest gaps", ""]
    worst: dict[str, list[Cell]] = {}
    for c in sorted(cells, key=lambda c: -abs(c.gap)):
        worst.setdefault(c.dataset, []).append(c)
    causes = getattr(module, "GAPS", {})
    for p in list(worst)[:3]:
        shown = [c for c in worst[p] if not c.agrees] or worst[p][:1]
        numbers = "; ".join(
            f"`{c.learner}` {fmt(show(c.ours))} ± {fmt(c.std)} vs *pub.* {fmt(show(c.published))} "
            f"({show(c.ours) - show(c.published):+.1f} {unit} points)"
            for c in shown
        )
        out += [f"- **{p}**: {numbers}."]
        lines = causes[p](ctx) if p in causes else ["Unexplained: this report has no measured cause for it."]
        out += [f"  {line}" if line else "" for line in lines]
    return out + [""]


def agreement_section(ctx: ReportContext, module=None) -> list[str]:
    """Mean absolute difference from each published column, with a scatter plot per learner, then the count of
    published cells we reproduce and the largest gaps (:func:`gaps_section`). The means leave out the paper
    module's ``NOT_COMPARABLE`` data sets (the plot shows them); they are in error points when every published
    table gives errors (|difference| is the same in accuracy and error)."""
    excluded = {p: why for p, why in getattr(module, "NOT_COMPARABLE", {}).items() if p in ctx.datasets}
    names = [p for p in ctx.datasets if p not in excluded]
    errors = bool(ctx.exp.published) and all(s["metric"].startswith("error") for s in ctx.exp.published)
    unit = "error" if errors else "accuracy"
    out = ["## Agreement with the published numbers", ""]
    if excluded:
        out += [
            f"Not comparable, left out of the means (shown in the plots): {', '.join(excluded)} (see above).",
            "",
        ]
    for learner in ctx.learners:
        mad, n = mean_abs_difference(ctx, learner, names)
        if n and scatter(ctx, learner, figure_path(ctx, f"{learner}_vs_published.png")):
            out += [
                f"- `{learner}`: mean |ours − published| = **{mad:.2f}** {unit} points over {n} data sets.",
                f"  ![{learner} vs published](figures/{ctx.exp.name}/{learner}_vs_published.png)",
            ]
    if len(out) == 2:
        return out + ["The paper publishes no table we can compare with.", ""]
    return out + [""] + gaps_section(ctx, module, names, errors)


def _csv(rows) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def _cell(value: float) -> str:
    """A CSV cell: empty where a learner did not run on the data set (an experiment's ``limited``)."""
    return f"{value:.3f}" if np.isfinite(value) else ""


def plot_data(ctx: ReportContext) -> None:
    """The data behind ``dvc plots`` (data/plots/<experiment>/, the report stage's plots outputs): accuracy per
    data set and learner, ours vs published (one row per data set and learner the paper reports; only the header
    when it reports none), and ``figures/`` for the paper's own figures (written by its report module)."""
    names = list(ctx.datasets)
    acc = [["dataset", "learner", "accuracy"]]
    acc += [[p, x, _cell(ctx.acc(p, x))] for p in names for x in ctx.learners if np.isfinite(ctx.acc(p, x))]
    write_text(plot_path(ctx, "accuracy.csv"), _csv(acc))
    pub = [["dataset", "learner", "published", "nbx"]]
    pub += [
        [p, x, f"{ctx.published_acc(p, x):.3f}", f"{ctx.acc(p, x):.3f}"]
        for x in ctx.learners
        for p in names
        if np.isfinite(ctx.published_acc(p, x))
    ]
    write_text(plot_path(ctx, "vs_published.csv"), _csv(pub))
    plot_path(ctx, "figures").mkdir(parents=True, exist_ok=True)


def render(params: dict, name: str) -> str:
    ctx = ReportContext.load(params, name)
    exp = ctx.exp
    out = [
        f"# {exp.title}",
        "",
        f"Experiment `{name}`: protocol `{json.dumps(exp.protocol)}`, discretizer "
        f"`{json.dumps(exp.discretizer)}`, missing values: {exp.impute or 'kept (skipped by the learners)'}.",
        "Numbers are ours (mean ± std over splits) unless marked *pub.* (the paper's).",
        "",
    ]
    module = paper_module(name)
    if module is not None:
        out += paper.render(module, ctx)
    else:
        out += comparison_table(ctx, ctx.learners)
    if exp.published:
        out += agreement_section(ctx, module)
    if module is not None and not getattr(module, "SHOWS_EVERY_LEARNER", False):
        beyond = [x for x in ctx.learners if x not in ctx.shown]
        if beyond:  # learners no section read, e.g. one added to the experiment in params.yaml
            out += ["## Learners beyond the paper's tables", ""]
            out += comparison_table(ctx, list(dict.fromkeys([exp.reference, *beyond])))
    if len(ctx.learners) <= MAX_SERIES:
        accuracy_chart(ctx, ctx.learners, figure_path(ctx, "accuracy.png"))
        out += [f"![accuracy per data set](figures/{name}/accuracy.png)", ""]
    plot_data(ctx)
    out += [
        "Wall-clock times are not part of this report, so a rerun writes it again byte for byte on machines of one "
        "kind: Linux x86-64 with AVX2 and FMA, numeric kernels pinned by every stage, the versions of "
        'constraints.txt (README, "Same bytes on which machines"). Checked on one AVX-512 machine, run natively '
        "pinned and emulating an AVX2 machine (`benchmarks/machine_kinds.py`, on sample train cells' predictions); "
        "not yet on a real AVX2 machine, and other CPUs and builds write their own last bits. "
        f"`nbx timings {name}` prints the wall-clock times of this machine's last run.",
        "",
    ]
    out += ["## Unavailable data sets", ""]
    out += [f"- {p} (`{exp.datasets[p]}`): {reason}" for p, reason in ctx.unavailable.items()] or ["None."]
    return "\n".join(out) + "\n"


def write(params: dict, name: str) -> None:
    write_text(layout.REPORTS / f"{name}.md", render(params, name))
