"""Report of the cross-paper benchmark (experiment ``benchmark``): every learner family on every data set under
one protocol, compared by accuracy and by the quality of its probabilities.

Statistics (each with its reference in :mod:`nbx.stats.multicompare` and :mod:`nbx.stats.bayes_signrank`):
- per metric, mean ranks over data sets with the Friedman / Iman-Davenport test (Demšar 2006), and for accuracy
  and log loss a critical-difference diagram with the Nemenyi CD at alpha = 0.05;
- per pair of learners, the Holm-corrected Wilcoxon signed-rank test (Benavoli, Corani & Mangili 2016) and the
  Bayesian signed-rank test with a region of practical equivalence of one accuracy point (Benavoli et al. 2017);
- per data set, wins / ties / losses by the corrected resampled t-test (Nadeau & Bengio 2003) at p < 0.05;
- "which learner when": mean accuracy ranks within groups of data sets by size, share of numeric attributes and
  number of classes, written from those numbers.
No wall-clock times here: a rerun writes the report byte for byte again on machines of one kind (README, "Same
bytes on which machines"; `nbx timings benchmark`).
"""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np
import pandas as pd

from nbx.pipeline import layout
from nbx.pipeline.inputs import load_table
from nbx.protocol.scoring import reliability_bins
from nbx.report.context import ReportContext
from nbx.report.figures import figure_path
from nbx.report.stat_plots import cd_diagram, heatmap, posterior_matrix, reliability_grid, simplex_plot
from nbx.report.tables import fmt, md_table
from nbx.stats import multicompare
from nbx.stats import significance as stats
from nbx.stats.bayes_signrank import bayes_signed_rank

METRICS = {  # column of data/results/<exp>.csv -> (title, higher is better, scale, digits)
    "accuracy": ("accuracy (%)", True, 100.0, 2),
    "log_loss": ("log loss", False, 1.0, 3),
    "brier": ("Brier score", False, 1.0, 3),
    "ece": ("expected calibration error", False, 1.0, 3),
    "auc": ("macro AUC", True, 1.0, 3),
}
ROPE = 0.01  # one accuracy point on the 0-1 scale
ALPHA = 0.05


def per_dataset(ctx: ReportContext, metric: str) -> pd.DataFrame:
    """Mean over splits of a metric, data sets (rows, params order) x learners (columns, params order)."""
    s = ctx.splits
    table = s.groupby(["dataset", "learner"])[metric].mean().unstack("learner")
    return table.loc[list(ctx.datasets.values()), ctx.learners]


def rank_section(ctx: ReportContext, heading: str = "## Mean ranks per metric") -> list[str]:
    out = [
        heading,
        "",
        "Rank 1 = best on a data set (ties share their mean rank), averaged over the data sets; the value "
        "columns are means over data sets. Friedman's test with the Iman-Davenport correction asks whether "
        "the learners differ at all.",
        "",
    ]
    header, rows, tests = ["learner"], {x: [f"`{x}`"] for x in ctx.learners}, []
    for metric, (title, higher, scale, digits) in METRICS.items():
        table = per_dataset(ctx, metric).dropna()
        result = multicompare.friedman(table.to_numpy(), higher_is_better=higher)
        header += [f"{title}: rank", "mean"]
        for j, x in enumerate(ctx.learners):
            rows[x] += [f"{result.mean_ranks[j]:.2f}", fmt(scale * table[x].mean(), digits)]
        tests.append(
            f"- {title}: {len(table)} data sets, Friedman χ² = {result.chi2:.1f} "
            f"(p = {result.p_chi2:.2g}), Iman-Davenport F = {result.ff:.2f} (p = {result.p_ff:.2g})."
        )
    order = np.argsort([float(rows[x][1]) for x in ctx.learners], kind="stable")
    return out + md_table(header, [rows[ctx.learners[j]] for j in order]) + tests + [""]


def reliability_sums(ctx: ReportContext, learner: str) -> np.ndarray:
    """The reliability sums (:func:`nbx.protocol.scoring.reliability_bins`, the ECE's 15 bins) of a learner's
    stored test predictions over every data set, each data set weighing as much as any other (its rows weigh
    1 / its number of test rows), as in the tables' means over data sets."""
    total = 0.0
    for ds in ctx.datasets.values():
        y = ctx.memo(_labels, ds)
        with np.load(layout.predictions(ctx.exp.name, learner, ds)) as z:
            total = total + reliability_bins(z["proba"], y[z["row"]], weight=1.0 / len(z["row"]))
    return total


def _labels(ctx: ReportContext, ds: str) -> np.ndarray:
    return load_table(ctx.exp.name, ds).y


def reliability_section(ctx: ReportContext) -> list[str]:
    """reliability.png: a reliability diagram per learner, ordered by mean ECE, with its three table scores."""
    scores = {m: per_dataset(ctx, m).dropna().mean() for m in ("ece", "brier", "log_loss")}
    order = sorted(ctx.learners, key=lambda x: (scores["ece"][x], ctx.learners.index(x)))
    panels = [
        (
            x,
            reliability_sums(ctx, x),
            f"ECE {scores['ece'][x]:.3f}\nBrier {scores['brier'][x]:.3f}\nlog loss {scores['log_loss'][x]:.3f}",
        )
        for x in order
    ]
    reliability_grid(figure_path(ctx, "reliability.png"), panels)
    return [
        "## Reliability diagrams",
        "",
        "Per learner (by mean ECE, best first), the test predictions of every data set in the 15 equal-width bins "
        "of the top probability that the ECE uses: blue bars up to the bin's accuracy, a red segment from there "
        "to its mean top probability (the gap the ECE adds up), narrow dark bars the share of rows in each bin, "
        "the dashed diagonal perfect calibration. Every data set weighs the same (its rows weigh one over its number "
        "of test rows), so the bars pool the data sets and their gaps are not the table's ECE, which is the mean "
        "over data sets of each fold's ECE; each panel's ECE, Brier score and log loss are the table's.",
        "",
        f"![reliability diagrams](figures/{ctx.exp.name}/reliability.png)",
        "",
    ]


def cd_section(ctx: ReportContext, heading: str = "## Critical-difference diagrams", suffix: str = "") -> list[str]:
    out = [
        heading,
        "",
        "Learners joined by a bar are not significantly different by the Nemenyi test at α = 0.05 "
        "(Demšar 2006, §3.2.4); the best ranks are on the right.",
        "",
    ]
    for metric in ("accuracy", "log_loss"):
        title, higher, *_ = METRICS[metric]
        table = per_dataset(ctx, metric).dropna()
        ranks = multicompare.rank_rows(table.to_numpy(), higher).mean(axis=0)
        cd = multicompare.nemenyi_cd(len(ctx.learners), len(table), ALPHA)
        groups = cd_diagram(
            figure_path(ctx, f"cd_{metric}{suffix}.png"),
            ranks,
            ctx.learners,
            cd,
            title=f"{title}: CD = {cd:.2f} over {len(table)} data sets",
        )
        out += [
            f"![CD diagram, {title}](figures/{ctx.exp.name}/cd_{metric}{suffix}.png)",
            "",
            f"{title}: CD = {cd:.2f}; groups: " + "; ".join("{" + ", ".join(g) + "}" for g in groups) + ".",
            "",
        ]
    return out


def split_table(ctx: ReportContext, metric: str = "accuracy") -> dict[tuple[str, str], np.ndarray]:
    s = ctx.splits.sort_values("split")
    return {(ds, x): g[metric].to_numpy() for (ds, x), g in s.groupby(["dataset", "learner"])}


def rank_order(ctx: ReportContext) -> list[str]:
    """The learners by mean accuracy rank over data sets, best first: the order of the matrix figures."""
    ranks = multicompare.rank_rows(per_dataset(ctx, "accuracy").dropna().to_numpy()).mean(axis=0)
    return [ctx.learners[j] for j in np.argsort(ranks, kind="stable")]


def win_loss_figure(ctx: ReportContext, wins: pd.DataFrame) -> list[str]:
    """win_loss.png: the wins–losses table as a heatmap, learners by mean accuracy rank."""
    order = rank_order(ctx)
    net = [[np.nan if a == b else float(wins.loc[a, b] - wins.loc[b, a]) for b in order] for a in order]
    text = [["" if a == b else f"{wins.loc[a, b]}–{wins.loc[b, a]}" for b in order] for a in order]
    reach = max(1.0, float(np.nanmax(np.abs(net))))
    heatmap(
        figure_path(ctx, "win_loss.png"),
        net,
        order,
        order,
        text,
        cmap="RdBu",
        vmin=-reach,
        vmax=reach,
        cbar_label="wins − losses of the row learner",
        title="Row vs column: data sets won–lost (corrected resampled t-test, p < 0.05); learners by mean rank",
    )
    return [f"![wins–losses per pair, learners by mean accuracy rank](figures/{ctx.exp.name}/win_loss.png)", ""]


def win_loss_matrix(ctx: ReportContext) -> list[str]:
    """Row learner vs column learner: data sets won-lost by the corrected resampled t-test at p < 0.05."""
    acc = split_table(ctx)
    wins = pd.DataFrame(0, index=ctx.learners, columns=ctx.learners)
    for a, b in combinations(ctx.learners, 2):
        for p, ds in ctx.datasets.items():
            x, y = acc[ds, a], acc[ds, b]
            if x.mean() != y.mean() and stats.corrected_t(x, y, ctx.test_fraction(p)) < ALPHA:
                winner, loser = (a, b) if x.mean() > y.mean() else (b, a)
                wins.loc[winner, loser] += 1
    rows = [
        [f"`{a}`"] + ["·" if a == b else f"{wins.loc[a, b]}–{wins.loc[b, a]}" for b in ctx.learners]
        for a in ctx.learners
    ]
    short = [f"{j + 1}" for j in range(len(ctx.learners))]
    legend = ", ".join(f"{j + 1} = `{x}`" for j, x in enumerate(ctx.learners))
    return (
        [
            "## Wins–losses per pair (accuracy, per data set)",
            "",
            f"Cell (row, column) = data sets on which the row learner is significantly more – less accurate than "
            f"the column learner (corrected resampled t-test, p < {ALPHA}, over the "
            f"{int(ctx.splits['split'].max()) + 1} folds). Columns: {legend}.",
            "",
        ]
        + md_table(["learner"] + short, [[r[0]] + r[1:] for r in rows])
        + win_loss_figure(ctx, wins)
    )


PAIR_HEADER = ["A", "B", "mean A − B (points)", "p", "p (Holm)", "differ", "P(A)", "P(rope)", "P(B)"]


def _posteriors(table: pd.DataFrame, pairs) -> list:
    """(Wilcoxon result, Bayesian signed-rank posterior) of each pair (a, b, mean_diff, p, p_holm, reject)."""
    return [
        (r, bayes_signed_rank(table[r.a].to_numpy(), table[r.b].to_numpy(), rope=ROPE, seed=0, n_samples=20_000))
        for r in pairs
    ]


def _pair_rows(results) -> list[list[str]]:
    """Table rows of :func:`_posteriors`: the Wilcoxon results with the Bayesian signed-rank test."""
    rows = []
    for r, post in results:
        rows.append(
            [
                f"`{r.a}`",
                f"`{r.b}`",
                f"{100 * r.mean_diff:+.2f}",
                f"{r.p:.3g}",
                f"{r.p_holm:.3g}",
                "yes" if r.reject else "no",
                f"{post.p_a:.3f}",
                f"{post.p_rope:.3f}",
                f"{post.p_b:.3f}",
            ]
        )
    return rows


def pairwise_section(ctx: ReportContext) -> list[str]:
    """Holm-Wilcoxon and Bayesian signed-rank for every pair on per-data-set accuracy, with the posterior of the
    headline pair (the two best mean ranks)."""
    table = per_dataset(ctx, "accuracy").dropna()
    wil = multicompare.pairwise_wilcoxon_holm(table.to_numpy(), ctx.learners, ALPHA)
    results = _posteriors(table, wil.itertuples())
    rows = _pair_rows(results)
    ranks = multicompare.rank_rows(table.to_numpy()).mean(axis=0)
    best = [ctx.learners[j] for j in np.argsort(ranks, kind="stable")[:2]]
    out = [
        "## Every pair: Holm-corrected Wilcoxon and Bayesian signed-rank tests (accuracy)",
        "",
        f"Per-data-set mean accuracies. Wilcoxon signed-rank p-values, Holm-corrected over the {len(wil)} pairs "
        f"(Benavoli, Corani & Mangili 2016); Bayesian signed-rank test with a region of practical equivalence "
        f"of ±{100 * ROPE:g} accuracy point (Benavoli et al. 2017; prior strength 0.5, 20,000 posterior "
        f"samples, seed 0): P(A better), P(equivalent), P(B better).",
        "",
    ]
    out += md_table(PAIR_HEADER, rows)
    posterior_matrix(
        figure_path(ctx, "bayes_pairs.png"),
        {(r.a, r.b): (p.p_a, p.p_rope, p.p_b) for r, p in results},
        rank_order(ctx),
        title=f"Bayesian signed-rank test, rope ±{100 * ROPE:g} point: most probable outcome, row vs column (%)",
    )
    out += [f"![Bayesian signed-rank test of every pair as a matrix](figures/{ctx.exp.name}/bayes_pairs.png)", ""]
    post = bayes_signed_rank(table[best[0]].to_numpy(), table[best[1]].to_numpy(), rope=ROPE, seed=0)
    simplex_plot(
        figure_path(ctx, "simplex.png"),
        post,
        names=tuple(best),
        title=f"{best[0]} vs {best[1]}: P = {post.p_a:.2f} / {post.p_rope:.2f} / {post.p_b:.2f}",
    )
    out += [
        f"The two best-ranked learners, `{best[0]}` vs `{best[1]}`: P(`{best[0]}` better) = {post.p_a:.3f}, "
        f"P(equivalent) = {post.p_rope:.3f}, P(`{best[1]}` better) = {post.p_b:.3f} (50,000 samples).",
        "",
        f"![Bayesian signed-rank posterior](figures/{ctx.exp.name}/simplex.png)",
        "",
    ]
    return out


def data_set_traits(ctx: ReportContext) -> pd.DataFrame:
    """Rows, share of numeric attributes and classes of each data set (from the prepared tables)."""
    from nbx.pipeline.inputs import load_table

    rows = []
    for ds in ctx.datasets.values():
        t = load_table(ctx.exp.name, ds)
        rows.append(
            {
                "dataset": ds,
                "rows": len(t.y),
                "numeric": float(np.mean(t.n_values == 0)) if len(t.n_values) else 0.0,
                "classes": len(t.classes),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


GROUPS = {  # trait -> [(label, predicate)]
    "rows": [
        ("< 500 rows", lambda v: v < 500),
        ("500–5,000 rows", lambda v: 500 <= v <= 5000),
        ("> 5,000 rows", lambda v: v > 5000),
    ],
    "numeric": [
        ("no numeric attributes", lambda v: v == 0),
        ("some numeric (≤ 50%)", lambda v: 0 < v <= 0.5),
        ("mostly numeric (> 50%)", lambda v: v > 0.5),
    ],
    "classes": [
        ("2 classes", lambda v: v == 2),
        ("3–5 classes", lambda v: 3 <= v <= 5),
        ("> 5 classes", lambda v: v > 5),
    ],
}


def which_learner_when(ctx: ReportContext) -> list[str]:
    acc = per_dataset(ctx, "accuracy").dropna()
    traits = ctx.memo(data_set_traits).loc[acc.index]
    ranks = pd.DataFrame(multicompare.rank_rows(acc.to_numpy()), index=acc.index, columns=ctx.learners)
    header, rows, lines = ["learner"], {x: [f"`{x}`"] for x in ctx.learners}, []
    values = {x: [] for x in ctx.learners}  # the numbers of rows, for the heatmap
    for trait, groups in GROUPS.items():
        for label, keep in groups:
            members = traits.index[[bool(keep(v)) for v in traits[trait]]]
            header.append(f"{label} ({len(members)})")
            group = ranks.loc[members].mean() if len(members) else pd.Series(np.nan, index=ctx.learners)
            for x in ctx.learners:
                rows[x].append(fmt(group[x], 1))
                values[x].append(float(group[x]))
            if len(members):
                top = group.sort_values(kind="stable").index[:3]
                lines.append(
                    f"- {label} ({len(members)} data sets): best mean ranks "
                    + ", ".join(f"`{x}` ({group[x]:.1f})" for x in top)
                    + "."
                )
    overall = ranks.mean().sort_values(kind="stable")
    heatmap(
        figure_path(ctx, "rank_by_group.png"),
        [values[x] for x in overall.index],
        list(overall.index),
        header[1:],
        [[v if v != "–" else "" for v in rows[x][1:]] for x in overall.index],
        cmap="viridis",
        vmin=1,
        vmax=len(ctx.learners),
        cbar_label="mean accuracy rank in the group (1 = best)",
        title="Mean accuracy rank within groups of data sets (learners by overall mean rank)",
        col_groups=3,
    )
    return (
        [
            "## Which learner when",
            "",
            "Mean accuracy rank of each learner within groups of data sets (the number of data sets in "
            "parentheses). The sentences below list the three best mean ranks of each group; they are read "
            "off this table, not taken from the papers' claims.",
            "",
        ]
        + md_table(header, [rows[x] for x in overall.index])
        + [f"![mean accuracy rank per group of data sets](figures/{ctx.exp.name}/rank_by_group.png)", ""]
        + lines
        + [""]
    )


def per_dataset_section(ctx: ReportContext) -> list[str]:
    acc = split_table(ctx)
    ref = ctx.exp.reference
    rows = []
    for p, ds in ctx.datasets.items():
        cells, fraction = [p], ctx.test_fraction(p)
        for x in ctx.learners:
            a = acc[ds, x]
            mark = ""
            if x != ref and a.mean() != acc[ds, ref].mean() and stats.corrected_t(a, acc[ds, ref], fraction) < ALPHA:
                mark = " v" if a.mean() > acc[ds, ref].mean() else " *"
            cells.append(f"{100 * a.mean():.1f}{mark}")
        rows.append(cells)
    return [
        "## Accuracy per data set",
        "",
        f"Mean accuracy (%) over the folds; `v` / `*` = significantly better / worse than the reference "
        f"`{ref}` (corrected resampled t-test, p < {ALPHA}), as in Weka's Experimenter.",
        "",
    ] + md_table(["data set"] + [f"`{x}`" for x in ctx.learners], rows)


def limited_section(ctx: ReportContext) -> list[str]:
    """Every learner, the size-limited ones included, over the data sets where all of them ran (nothing when no
    learner is limited)."""
    limited = limited_learners(ctx)
    if not limited:
        return []
    ran = ctx.splits.groupby("dataset")["learner"].agg(set)
    datasets = {p: ds for p, ds in ctx.datasets.items() if set(ctx.learners) <= ran.get(ds, set())}
    sub = ctx.view(datasets=datasets)
    limits = ctx.exp.limited[limited[0]]
    bounds = " and ".join(f"{v:,} {k}" for k, v in limits.items() if v != float("inf"))
    names = ", ".join(f"`{x}`" for x in limited)
    return (
        [
            f"## All {len(ctx.learners)} learners on the {len(datasets)} data sets within the size limits",
            "",
            f"{names} run only on the data sets of at most {bounds} (`limited` in params.yaml, where the cost "
            "behind it is stated): the limits keep the pipeline within its time budget and follow from the fit "
            f"cost, not from any result. Over these {len(datasets)} data sets (the same folds) every learner is "
            "ranked again; the sections above leave the limited learners out.",
            "",
        ]
        + rank_section(sub, "### Mean ranks per metric")
        + cd_section(sub, "### Critical-difference diagrams", suffix="_limited")
        + limited_pairs(sub, limited)
    )


def limited_pairs(ctx: ReportContext, limited: list[str]) -> list[str]:
    """The pairs with a limited learner: Holm-Wilcoxon (corrected over all pairs) and Bayesian signed-rank."""
    table = per_dataset(ctx, "accuracy").dropna()
    wil = multicompare.pairwise_wilcoxon_holm(table.to_numpy(), ctx.learners, ALPHA)
    pairs = [r for r in wil.itertuples() if r.a in limited or r.b in limited]
    return (
        [
            "### Pairs with a size-limited learner (accuracy)",
            "",
            f"As in the section on every pair, over these {len(table)} data sets; Holm's correction covers all "
            f"{len(wil)} pairs of the {len(ctx.learners)} learners, the table shows the {len(pairs)} with "
            f"{', '.join(f'`{x}`' for x in limited)}.",
            "",
        ]
        + md_table(PAIR_HEADER, _pair_rows(_posteriors(table, pairs)))
        + [""]
    )


def limited_learners(ctx: ReportContext) -> list[str]:
    """The learners run on the smaller data sets only (``limited`` in params.yaml)."""
    return [x for x in ctx.learners if x in ctx.exp.limited]


def full_view(ctx: ReportContext) -> ReportContext:
    """The learners run on every data set: all sections but the last compare these."""
    limited = limited_learners(ctx)
    return ctx.view(learners=[x for x in ctx.learners if x not in limited])


def on_full(section):
    """``section`` applied to :func:`full_view` (made once per report)."""
    return functools.wraps(section)(lambda ctx: section(ctx.memo(full_view)))


def overview_section(ctx: ReportContext) -> list[str]:
    limited = limited_learners(ctx)
    full = ctx.memo(full_view)
    traits = full.memo(data_set_traits)
    out = [
        f"{len(full.learners)} learners on {len(full.datasets)} data sets ({int(traits['rows'].min())}–"
        f"{int(traits['rows'].max())} rows, 2–{int(traits['classes'].max())} classes); every learner sees the "
        "same folds, and discretization (MDL) and imputation are fitted on each fold's training part.",
        "",
    ]
    if limited:
        out += [
            f"{', '.join(f'`{x}`' for x in limited)} run on the smaller data sets only (the time budget): "
            "they are compared with every other learner in the last section.",
            "",
        ]
    if ctx.exp.protocol.get("repeats", 1) < 3:
        out += [
            f"Protocol: {ctx.exp.protocol.get('repeats', 1)} x {ctx.exp.protocol.get('folds')}-fold CV instead "
            "of the planned 3 repeats, to keep the whole pipeline near its 30-minute budget on two cores "
            f"(`dvc exp run -S experiments.{ctx.exp.name}.protocol.full=true` runs the planned protocol with every "
            "learner on every data set; the first repeat's folds stay as they are).",
            "",
        ]
    return out


SHOWS_EVERY_LEARNER = True  # the tables and rankings are over every learner of the experiment

SECTIONS = [
    overview_section,
    on_full(rank_section),
    on_full(reliability_section),
    on_full(cd_section),
    on_full(win_loss_matrix),
    on_full(pairwise_section),
    on_full(which_learner_when),
    on_full(per_dataset_section),
    limited_section,
]
CLAIMS = {}  # beyond the papers: no published claims to judge
