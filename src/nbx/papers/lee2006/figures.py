"""The sections of Lee, Greiner & Wang (2006)'s report on its figures 2 and 3: the pooled tests, per-data-set
tables of the scatter points, the scatter and bar plots (PNG, and one CSV per panel for DVC plots), Fig. 2(d) per
number of AdaBoost rounds, and the count of every number the paper states (its figures are plots, its only table
gives p values)."""

from __future__ import annotations

import numpy as np

from nbx.core.io import write_text
from nbx.papers.lee2006.evidence import (
    ADA_ROUNDS,
    FIGURES,
    KS,
    NAMES,
    PAPER,
    RULE_NAMES,
    RULES,
    STRUCTURES,
    SUMPV,
    Comparison,
    Outcome,
    adaboost_rows,
    agreement,
    comparisons,
    evaluate,
    fmt_p,
    fmt_share,
    learners_of,
    mean_accuracy,
    muv,
    outcomes,
)
from nbx.report import claims
from nbx.report.context import ReportContext
from nbx.report.experiment_report import Cell, Tally, tally_lines
from nbx.report.figures import figure_path, plot_path, plt, save_figure
from nbx.report.tables import fmt, md_table


# ------------------------------------------------------------------------------------ plots
def write_csv(outcome: Outcome, path) -> None:
    lines = ["dataset,x,y"] + [f"{ds},{x:.4f},{y:.4f}" for ds, (x, y) in outcome.means.items()]
    write_text(path, "\n".join(lines) + "\n")


def scatter_png(ctx: ReportContext, name: str, panels: list[Outcome]) -> str:
    """Grid of scatter panels (one point per data set) for one paper figure; returns the markdown link."""
    cols = min(3, len(panels))
    rows = int(np.ceil(len(panels) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 4 * rows), squeeze=False)
    for ax, o in zip(axes.flat, panels):
        x, y = np.array(list(o.means.values())).T
        lo, hi = min(x.min(), y.min()) - 1, max(x.max(), y.max()) + 1
        ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8)
        ax.scatter(x, y, s=16)
        for ds, xv, yv in zip(o.means, x, y):
            ax.annotate(ds, (xv, yv), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel(f"{o.comparison.worse} acc. (%)", fontsize=8)
        ax.set_ylabel(f"{o.comparison.better} acc. (%)", fontsize=8)
        ax.set_title(f"{o.comparison.title}\np = {o.p:.2g} (n = {o.n})", fontsize=8)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.tight_layout()
    save_figure(fig, figure_path(ctx, f"{name}.png"))
    return f"![figure {name[3:]}](figures/{ctx.exp.name}/{name}.png)"


def bars_png(
    ctx: ReportContext, name: str, groups: list[str], series: dict[str, list[float]], lines: dict[str, float]
) -> str:
    """Average accuracies as grouped bars (the look of the paper's figure 3)."""
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(groups) + 2), 3.6))
    width = 0.8 / len(series)
    for i, (label, values) in enumerate(series.items()):
        ax.bar(np.arange(len(groups)) + i * width, values, width, label=label)
    for j, (label, v) in enumerate(lines.items()):
        ax.axhline(v, ls="--", lw=0.9, color=f"C{len(series) + j}", label=label)
    ax.set_xticks(np.arange(len(groups)) + 0.4 - width / 2, groups, fontsize=8)
    vals = [v for s in series.values() for v in s] + list(lines.values())
    ax.set_ylim(min(vals) - 3, max(vals) + 1.5)
    ax.set_ylabel("average accuracy (%)")
    ax.legend(fontsize=7, ncol=len(series) + len(lines), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    save_figure(fig, figure_path(ctx, f"{name}.png"))
    return f"![figure {name[3:]}](figures/{ctx.exp.name}/{name}.png)"


def _fig_outputs(ctx, out, name) -> list[str]:
    panels = [out[k] for k in FIGURES[name] if out.get(k) is not None]
    if not panels:
        return [f"(figure {name[3:]}: learners not run)", ""]
    for o in panels:
        write_csv(o, plot_path(ctx, f"figures/{o.comparison.key}.csv"))
    return [scatter_png(ctx, name, panels), ""]


# ------------------------------------------------------------------------------------ tables
def summary_table(out: dict[str, Outcome | None]) -> list[str]:
    rows = []
    for key, o in out.items():
        if o is None:
            rows.append([comparisons()[key].title, "0", "–", "–", "–", "–", "–", "not run"])
            continue
        c = o.comparison
        paper = f"< {c.paper_p:g}" if c.paper_p is not None else "–"
        rows.append(
            [
                f"{c.title}",
                str(o.n),
                f"{o.mean_diff:+.2f}",
                fmt_p(o.p),
                paper,
                fmt_p(o.p_datasets),
                f"{o.wins}:{o.losses}",
                o.status,
            ]
        )
    return md_table(
        [
            "comparison (better vs worse)",
            "situations",
            "mean diff (points)",
            "our p (pooled)",
            "paper p",
            "our p (data-set means)",
            "data sets won:lost",
            "result",
        ],
        rows,
    )


def side_by_side(out: dict[str, Outcome | None], keys: list[str], datasets: list[str]) -> list[str]:
    """Per data set: worse / better means of each comparison (the scatter points), with an average row."""
    keys = [k for k in keys if out.get(k) is not None]
    header = ["data set"]
    for k in keys:
        c = out[k].comparison
        header += [f"{c.key}: {c.worse}", c.better]
    rows = []
    for ds in datasets:
        row = [ds]
        for k in keys:
            x, y = out[k].means[ds]
            row += [fmt(x, 2), fmt(y, 2) + (" ▲" if y > x else (" ▼" if y < x else ""))]
        rows.append(row)
    avg = ["**average**"]
    for k in keys:
        x, y = np.array(list(out[k].means.values())).T
        avg += [f"**{fmt(x.mean(), 2)}**", f"**{fmt(y.mean(), 2)}**"]
    return md_table(header, rows + [avg])


def _mean_table(ctx, names, cols: dict[str, list[str]]) -> list[str]:
    if not cols or not names:
        return ["(learners not run)", ""]
    values = np.array([[mean_accuracy(ctx, p, xs) for xs in cols.values()] for p in names])
    rows = [
        [p] + [f"**{fmt(v, 2)}**" if v == vals.max() else fmt(v, 2) for v in vals]  # best in bold
        for p, vals in zip(names, values)
    ]
    rows.append(["**average**"] + [f"**{fmt(v, 2)}**" for v in values.mean(axis=0)])
    return md_table(["data set"] + list(cols), rows)


# ------------------------------------------------------------------------------------ sections
def pooled_tests(ctx: ReportContext) -> list[str]:
    return [
        "## Pooled one-sided paired t-tests (figures 2 and 3)",
        "",
        "Each row pools the fold accuracies of the paired learners over the data sets, the base settings "
        "ξ and the 5 folds (see the module docstring of `nbx.papers.lee2006.report` for the pooling). "
        "*mean diff* = better − worse; *result* applies the verdict rule to the row (holds: p < 0.05 in "
        "the paper's direction; direction only: p >= 0.05). Pooled folds are not independent, so the "
        "pooled p is optimistic; the test over per-data-set means is the conservative one. As in the "
        "paper, the combination rules combine the same members (shared seeds, `seed_as`).",
        "",
    ] + summary_table(ctx.memo(outcomes))


def figure2(ctx: ReportContext) -> list[str]:
    out, names = ctx.memo(outcomes), list(ctx.datasets)
    lines = [
        "## Figure 2: how to generate and combine the members",
        "",
        "Per data set, mean accuracy (%) over ξ ∈ {2,3,4} x {NB, TAN} (2(d): k = 2,3,4 NB, or the T "
        "named) and folds; ▲/▼: the paper's better side is above/below. Scatter: x = the paper's worse "
        "side.",
        "",
    ]
    lines += side_by_side(out, FIGURES["fig2a"] + FIGURES["fig2b"], names)
    lines += side_by_side(out, FIGURES["fig2c"] + FIGURES["fig2d"], names)
    for name in ("fig2a", "fig2b", "fig2c", "fig2d"):
        lines += _fig_outputs(ctx, out, name)
    lines += rounds_table(ctx)
    if ctx.has(*learners_of("fig2d"), "nb_laplace"):
        lines += [
            "Figure 2(d), non-binary data (the paper's waveform remark): accuracy (%) and drop below 1NB "
            "(points), mean over k = 2,3,4.",
            "",
        ]
        lines += md_table(
            ["data set", "classes", "1NB", "AdaBoost(NB)", "MUV(kNB,Ada,js)", "AdaBoost drop", "MUV drop"],
            ctx.memo(adaboost_rows, None)[0],
        )
    return lines + adaboost_notes(ctx)


def adaboost_notes(ctx: ReportContext) -> list[str]:
    """How often AdaBoost(NB) restarted and how many models it kept (MUV(kNB, Ada) combines the same ones)."""
    notes = []
    for k in KS + ADA_ROUNDS:
        info = ctx.fit_info(f"adaboost_nb{k}")
        runs = [r for splits in info.values() for r in splits if r]
        if runs:
            restarted = sum(any(v for v in r.get("restarts", {}).values()) for r in runs)
            kept = np.mean([r["kept"] for r in runs])
            notes.append(
                f"AdaBoost(NB) with {k} rounds: {kept:.2f} models kept on average, restarts in "
                f"{restarted} of {len(runs)} runs"
            )
    if not notes:
        return []
    return [
        "MUV(TNB, Ada) and AdaBoost(NB) with T rounds share their seed (`seed_as`), so they combine the same "
        "base models. " + "; ".join(notes) + ".",
        "",
    ]


def rounds_table(ctx: ReportContext) -> list[str]:
    """Fig. 2(d) per number of rounds T: average accuracies, the pooled test, and how often each ensemble
    predicts the class of 1NB (small T: AdaBoost(NB) is nearly 1NB)."""
    rows = []
    for t in KS + ADA_ROUNDS:
        boost, mix = f"adaboost_nb{t}", f"muv_nb{t}_ada_js"
        if not ctx.has(boost, mix, "nb_laplace") or not ctx.datasets:
            continue
        o = evaluate(Comparison("", "", "", "", ((mix, boost),), None), ctx.split_acc, list(ctx.datasets))
        x, y = np.array(list(o.means.values())).T
        rows.append(
            [
                str(t) + ("" if t in KS else " (alternative)"),
                fmt(x.mean(), 2),
                fmt(y.mean(), 2),
                f"{o.mean_diff:+.2f}",
                fmt_p(o.p),
                f"{o.wins}:{o.losses}",
                fmt_share(agreement(ctx, boost, "nb_laplace")),
                fmt_share(agreement(ctx, mix, "nb_laplace")),
            ]
        )
    if not rows:
        return []
    return [
        "Figure 2(d) per number of AdaBoost rounds T: average accuracy (%) over the data sets, MUV − "
        "AdaBoost pooled over data sets and folds (one-sided p), and the share of test queries on which "
        "each predicts the class 1NB predicts.",
        "",
    ] + md_table(
        [
            "T",
            "AdaBoost(NB)",
            "MUV(TNB, Ada, js)",
            "mean diff",
            "p",
            "data sets won:lost",
            "AdaBoost = 1NB",
            "MUV(Ada) = 1NB",
        ],
        rows,
    )


def figure3a(ctx: ReportContext) -> list[str]:
    return (
        [
            "## Figure 3(a): combination rules on the same kind of members",
            "",
            "Per data set, mean accuracy (%) over folds and the ξ named (boot,bal members).",
            "",
        ]
        + fig3a_table(ctx, list(ctx.datasets))
        + _fig_outputs(ctx, ctx.memo(outcomes), "fig3a")
        + fig3a_bars(ctx)
    )


def figure3b(ctx: ReportContext) -> list[str]:
    return (
        [
            "## Figure 3(b): combining nine MUVs (MUV[MUV])",
            "",
            "Members: 1-4 NB, 1-4 TAN (boot,bal, js) and AdaBoost(NB); mean accuracy (%) over folds.",
            "",
        ]
        + fig3b_table(ctx, list(ctx.datasets))
        + _fig_outputs(ctx, ctx.memo(outcomes), "fig3b")
        + fig3b_bars(ctx)
    )


def fig3a_table(ctx: ReportContext, names: list[str]) -> list[str]:
    cols = {}
    for s, single in STRUCTURES.items():
        cols[NAMES[single]] = [single]
        cols[f"{SUMPV} (k{s.upper()})"] = [muv(s, k, "boot_bal", "js") for k in KS]
    for rule, title in RULES.items():
        cols[f"{title} (ξ)"] = [muv(s, k, "boot_bal", rule) for s in STRUCTURES for k in KS]
    cols[f"{SUMPV} (ξ)"] = [muv(s, k, "boot_bal", "js") for s in STRUCTURES for k in KS]
    cols = {t: xs for t, xs in cols.items() if ctx.has(*xs)}
    return _mean_table(ctx, names, cols)


def fig3b_table(ctx: ReportContext, names: list[str]) -> list[str]:
    cols = {f"{title}[MUV]": [f"muv_of_muv_{r}"] for r, title in RULE_NAMES.items()}
    return _mean_table(ctx, names, {t: xs for t, xs in cols.items() if ctx.has(*xs)})


def fig3a_bars(ctx: ReportContext) -> list[str]:
    """The paper's figure 3(a): average accuracy of each rule per ξ, with 1NB and 1TAN as lines."""
    rules = {**RULES, "js": SUMPV}
    needs = [muv(s, k, "boot_bal", r) for s in STRUCTURES for k in KS for r in rules] + list(STRUCTURES.values())
    if not ctx.has(*needs) or not ctx.datasets:
        return []
    groups = [f"{k}{s.upper()}" for s in STRUCTURES for k in KS]
    series = {
        title: [
            np.mean([mean_accuracy(ctx, p, [muv(s, k, "boot_bal", r)]) for p in ctx.datasets])
            for s in STRUCTURES
            for k in KS
        ]
        for r, title in rules.items()
    }
    base = {NAMES[x]: np.mean([mean_accuracy(ctx, p, [x]) for p in ctx.datasets]) for x in STRUCTURES.values()}
    return [
        "Average accuracy over the data sets (the paper's figure 3(a) layout):",
        "",
        bars_png(ctx, "fig3a_averages", groups, series, base),
        "",
    ]


def fig3b_bars(ctx: ReportContext) -> list[str]:
    """The paper's figure 3(b): average accuracy of the five MUV[MUV] rules."""
    if not ctx.has(*[f"muv_of_muv_{r}" for r in RULE_NAMES]) or not ctx.datasets:
        return []
    series = {
        "MUV[MUV]": [np.mean([mean_accuracy(ctx, p, [f"muv_of_muv_{r}"]) for p in ctx.datasets]) for r in RULE_NAMES]
    }
    return [
        "Average accuracy over the data sets (the paper's figure 3(b) layout):",
        "",
        bars_png(ctx, "fig3b_averages", [f"{t}[MUV]" for t in RULE_NAMES.values()], series, {}),
        "",
    ]


# Where the paper states each p bound (paper.yaml's p_values, by the prefix of the comparison's key).
P_TABLES = {
    "fig2": "§4.1-4.4 text (Fig. 2(a)-(d))",
    "fig3a": "§4.5, the table of p values under Fig. 3(a)",
    "fig3b": "§4.6 text (Fig. 3(b))",
}
P_TOLERANCE = (
    "our pooled one-sided p < 0.05 with the paper's sign (the claims' rule for a test part; the paper's bound "
    "itself shown, not required)"
)
RECORD_TABLE = "§4.1 text (MUV(3NB,boot,bal) js vs mle)"


def published_numbers(ctx: ReportContext, names: list[str], cells: list[Cell]) -> list[Tally]:
    """Every number Lee, Greiner & Wang (2006) state that paper.yaml holds, per place and kind, against ours with
    the rule the claims apply to it (:func:`nbx.report.experiment_report.tally_lines`): each p bound "p < b" of a
    one-sided test against our pooled test of the default reading (holds: the paper's sign and p < 0.05, as
    :func:`nbx.papers.lee2006.evidence.status`), and §4.1's record "5 out of 12 sets and never worse" exactly (as
    claim L1: :func:`nbx.report.claims.count_status`). The paper prints no accuracy, so ``cells`` is empty and
    unused; ``names`` are the data sets the record is counted over."""
    out = ctx.memo(outcomes)
    bounds = PAPER["p_values"]
    tallies = []
    for prefix, table in P_TABLES.items():
        keys = [k for k in bounds if k.startswith(prefix)]
        ran = [out[k] for k in keys if out.get(k) is not None and np.isfinite(out[k].p)]
        below = sum(o.p < bounds[o.comparison.key] for o in ran)
        alternatives = [
            k for k, o in out.items() if k.startswith(prefix) and k not in bounds and o and o.comparison.paper_p
        ]
        note = f"{below} of {len(ran)} also below the paper's bound"
        if alternatives:
            note += f"; the alternative readings ({len(alternatives)}) are shown above, not counted again"
        if len(ran) < len(keys):
            note += f"; {len(keys) - len(ran)} not compared: their learners were not run"
        tallies.append(
            Tally(
                table,
                "p bounds of one-sided paired t-tests",
                len(keys),
                len(ran),
                sum(o.status == claims.HOLDS for o in ran),
                P_TOLERANCE,
                note,
            )
        )
    js, mle = muv("nb", 3, "boot_bal", "js"), muv("nb", 3, "boot_bal", "mle")
    record = PAPER["js_vs_mle_3nb"]
    if ctx.has(js, mle) and names:
        means = [(ctx.split_acc(p, js).mean(), ctx.split_acc(p, mle).mean()) for p in names]
        ours = (sum(a > b for a, b in means), sum(a < b for a, b in means))
        tallies.append(
            Tally(
                RECORD_TABLE,
                f"data sets better on, never worse ({record['better']}, 0)",
                1,
                1,
                int(claims.count_status(ours, (record["better"], 0)) == claims.HOLDS),
                "exactly the paper's record (better on, worse on), as claim L1",
                f"ours ({ours[0]}, {ours[1]})",
            )
        )
        tallies.append(
            Tally(
                RECORD_TABLE,
                f"data sets the record is over ({record['datasets']})",
                1,
                1,
                int(len(names) == record["datasets"]),
                "exactly",
                f"ours {len(names)}",
            )
        )
    else:
        tallies += [
            Tally(RECORD_TABLE, kind, 1, 0, 0, "exactly, as claim L1", "not compared: MUV(3NB,boot,bal) not run")
            for kind in ("data sets better on, never worse", "data sets the record is over")
        ]
    return tallies


def published_cells(ctx: ReportContext) -> list[str]:
    """The agreement section: every number the paper states, counted against ours with its tolerance (the
    paper publishes no table of accuracies, so there are no per-data-set cells and no largest gaps)."""
    return [
        "## Agreement with the published numbers",
        "",
        "Lee, Greiner & Wang (2006) publish no table of accuracies: figures 2 and 3 are scatter plots and bar "
        "charts whose per-data-set values the text does not state. The numbers the paper does state (paper.yaml) "
        "are the p bounds of its one-sided tests, in its text and in the table under Fig. 3(a), and one record "
        "(§4.1); each is counted below against ours, by the rule the claims apply to it. There are no published "
        "accuracies, so no per-data-set cells and no largest gaps to explain.",
        "",
        *tally_lines(published_numbers(ctx, list(ctx.datasets), [])),
    ]
