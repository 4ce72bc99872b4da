"""Per-experiment report: the paper's tables with our numbers beside the published ones, the claims, timings.

The paper-specific sections live in :mod:`nbx.report.papers` (one module per experiment, named like it);
an experiment without such a module (for example one a user adds) gets the generic comparison table.
"""
from __future__ import annotations

import importlib
import json

import numpy as np

from .. import layout
from ..io import write_text
from .context import ReportContext
from .figures import figure_path, plt, save_figure
from .tables import comparison_table, fmt, md_table, mean_abs_difference


def scatter(ctx: ReportContext, learner: str, path) -> bool:
    """Our accuracy vs the published one, one point per data set; False when there is nothing to plot."""
    pairs = [(ctx.published_acc(p, learner), ctx.acc(p, learner), ds) for p, ds in ctx.datasets.items()
             if np.isfinite(ctx.published_acc(p, learner))]
    if not pairs:
        return False
    pub, ours, names = map(np.array, zip(*pairs))
    fig, ax = plt.subplots(figsize=(5, 5))
    lo, hi = min(pub.min(), ours.min()) - 2, max(pub.max(), ours.max()) + 2
    ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8)
    ax.scatter(pub, ours, s=14)
    for x, yv, name in zip(pub, ours, names):
        ax.annotate(name, (x, yv), fontsize=6, xytext=(2, 2), textcoords="offset points")
    ax.set_xlabel("published accuracy (%)")
    ax.set_ylabel("nbx accuracy (%)")
    ax.set_title(learner)
    fig.tight_layout()
    save_figure(fig, path)
    return True


def accuracy_chart(ctx: ReportContext, learners: list[str], path) -> None:
    """Horizontal bars: our accuracy per data set and learner, published values as black ticks."""
    names = list(ctx.datasets)
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(names) * max(1, len(learners) / 2) + 1.2))
    height = 0.8 / len(learners)
    for k, learner in enumerate(learners):
        pos = np.arange(len(names)) + k * height
        ax.barh(pos, [ctx.acc(p, learner) for p in names], height=height, label=learner)
        pub = [(y, ctx.published_acc(p, learner)) for y, p in zip(pos, names)
               if np.isfinite(ctx.published_acc(p, learner))]
        if pub:
            ax.scatter([v for _, v in pub], [y for y, _ in pub], marker="|", color="black", s=80,
                       label="published" if k == 0 else None)
    ax.set_yticks(np.arange(len(names)) + 0.4 - height / 2, names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("accuracy (%)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    save_figure(fig, path)


def paper_module(name: str):
    try:
        return importlib.import_module(f"{__package__}.papers.{name}")
    except ModuleNotFoundError:
        return None


def agreement_section(ctx: ReportContext) -> list[str]:
    """Mean absolute difference from each published column, with a scatter plot per learner."""
    out = ["## Agreement with the published numbers", ""]
    for learner in ctx.learners:
        mad, n = mean_abs_difference(ctx, learner)
        if n and scatter(ctx, learner, figure_path(ctx, f"{learner}_vs_published.png")):
            out += [f"- `{learner}`: mean |ours − published| = **{mad:.2f}** accuracy points over {n} data sets.",
                    f"  ![{learner} vs published](figures/{ctx.exp.name}/{learner}_vs_published.png)"]
    return out + ([""] if len(out) > 2 else ["The paper publishes no table we can compare with.", ""])


def timing_section(ctx: ReportContext) -> list[str]:
    rows = [[f"`{x}`", fmt(ctx.train_seconds(x), 1)] for x in ctx.learners]
    return ["## Train-stage wall time", "",
            "Seconds per learner over all data sets and splits (the splits run in parallel processes, "
            "so this is elapsed time, not CPU time); per data set in `data/predictions/<experiment>/<learner>/"
            "timings.json`.", ""] + md_table(["learner", "seconds"], rows)


def render(params: dict, name: str) -> str:
    ctx = ReportContext.load(params, name)
    exp = ctx.exp
    out = [f"# {exp.title}", "",
           f"Experiment `{name}`: protocol `{json.dumps(exp.protocol)}`, discretizer "
           f"`{json.dumps(exp.discretizer)}`, missing values: {exp.impute or 'kept (skipped by the learners)'}.",
           "Numbers are ours (mean ± std over splits) unless marked *pub.* (the paper's).", ""]
    module = paper_module(name)
    if module is not None:
        out += module.sections(ctx)
    else:
        out += comparison_table(ctx, ctx.learners)
    out += agreement_section(ctx)
    if len(ctx.learners) <= 10:
        accuracy_chart(ctx, ctx.learners, figure_path(ctx, "accuracy.png"))
        out += [f"![accuracy per data set](figures/{name}/accuracy.png)", ""]
    out += timing_section(ctx)
    out += ["## Unavailable data sets", ""]
    out += [f"- {p} (`{exp.datasets[p]}`): {reason}" for p, reason in ctx.unavailable.items()] or ["None."]
    return "\n".join(out) + "\n"


def write(params: dict, name: str) -> None:
    write_text(layout.REPORTS / f"{name}.md", render(params, name))
