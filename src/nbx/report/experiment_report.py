"""Per-experiment report: data sets, our accuracies beside the published ones, differences, figures."""
from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .. import config, layout  # noqa: E402
from ..io import atomic_path, write_text  # noqa: E402
from .published import published_accuracy  # noqa: E402


def _fmt(x: float) -> str:
    return "–" if x is None or np.isnan(x) else f"{x:.1f}"


def comparison_rows(exp: config.Experiment, metrics: dict, availability: dict) -> list[dict]:
    """One row per paper data set: ours (mean, std) and published per learner."""
    published = published_accuracy(exp.published) if exp.published else None
    rows = []
    for paper_name, ds in exp.datasets.items():
        row = {"paper": paper_name, "id": ds, "available": availability.get(ds, {}).get("available", False),
               "reason": availability.get(ds, {}).get("reason", ""), "ours": {}, "published": {}}
        for learner in exp.learners:
            m = metrics.get(ds, {}).get(learner)
            row["ours"][learner] = (m["acc"], m["acc_std"]) if m else (np.nan, np.nan)
            if published is not None and learner in published and paper_name in published.index:
                row["published"][learner] = float(published.loc[paper_name, learner])
        rows.append(row)
    return rows


def mean_abs_difference(rows: list[dict], learner: str) -> tuple[float, int]:
    diffs = [r["ours"][learner][0] - r["published"][learner] for r in rows
             if learner in r["published"] and not np.isnan(r["ours"][learner][0])]
    return (float(np.mean(np.abs(diffs))) if diffs else float("nan")), len(diffs)


def scatter(rows: list[dict], learner: str, path) -> bool:
    pairs = [(r["published"][learner], r["ours"][learner][0], r["id"]) for r in rows
             if learner in r["published"] and not np.isnan(r["ours"][learner][0])]
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
    _save(fig, path)
    return True


def _save(fig, path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120, metadata={"Software": None})
    plt.close(fig)


def accuracy_chart(rows: list[dict], learners: list[str], path) -> None:
    """Horizontal bars: our accuracy per data set and learner, published values as black ticks."""
    rows = [r for r in rows if r["available"]]
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) * max(1, len(learners) / 2) + 1.2))
    height = 0.8 / len(learners)
    for k, learner in enumerate(learners):
        pos = np.arange(len(rows)) + k * height
        ax.barh(pos, [r["ours"][learner][0] for r in rows], height=height, label=learner)
        pub = [(p, r["published"][learner]) for p, r in zip(pos, rows) if learner in r["published"]]
        if pub:
            ax.scatter([v for _, v in pub], [p for p, _ in pub], marker="|", color="black", s=80,
                       label=f"{learner} published" if k == 0 else None)
    ax.set_yticks(np.arange(len(rows)) + 0.4 - height / 2, [r["paper"] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("accuracy (%)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    _save(fig, path)


def render(params: dict, name: str) -> str:
    exp = config.experiment(params, name)
    metrics = json.loads((layout.METRICS / f"{name}.json").read_text())
    availability = json.loads(layout.AVAILABILITY.read_text())
    rows = comparison_rows(exp, metrics, availability)
    out = [f"# {exp.title}", "",
           f"Experiment `{name}`: protocol `{json.dumps(exp.protocol)}`, discretizer "
           f"`{json.dumps(exp.discretizer)}`, missing values: {exp.impute or 'kept (skipped by the learners)'}.",
           "Accuracy in % (mean ± std over splits); *pub.* = the paper's number; Δ = ours − published.", ""]
    header = ["paper data set", "id"]
    for learner in exp.learners:
        header += [learner] + ([f"{learner} pub.", "Δ"] if any(learner in r["published"] for r in rows) else [])
    out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        cells = [r["paper"], f"`{r['id']}`"]
        for learner in exp.learners:
            mean, std = r["ours"][learner]
            cells.append(f"{mean:.1f} ± {std:.1f}" if r["available"] else "unavailable")
            if any(learner in x["published"] for x in rows):
                pub = r["published"].get(learner, np.nan)
                cells += [_fmt(pub), _fmt(mean - pub) if r["available"] else "–"]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    for learner in exp.learners:
        mad, n = mean_abs_difference(rows, learner)
        if n:
            out.append(f"- `{learner}`: mean absolute difference from the published column {mad:.2f} points "
                       f"over {n} data sets.")
            if scatter(rows, learner, layout.REPORTS / "figures" / name / f"{learner}_vs_published.png"):
                out.append(f"  ![{learner} vs published](figures/{name}/{learner}_vs_published.png)")
    accuracy_chart(rows, exp.learners, layout.REPORTS / "figures" / name / "accuracy.png")
    out += ["", f"![accuracy per data set](figures/{name}/accuracy.png)"]
    missing = [r for r in rows if not r["available"]]
    out += ["", "## Unavailable data sets", ""]
    out += [f"- {r['paper']} (`{r['id']}`): {r['reason']}" for r in missing] or ["None."]
    return "\n".join(out) + "\n"


def write(params: dict, name: str) -> None:
    write_text(layout.REPORTS / f"{name}.md", render(params, name))
