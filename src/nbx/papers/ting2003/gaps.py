"""The measured causes of the largest gaps between Ting & Zheng (2003)'s published errors and ours (``GAPS``).

The agreement section (:func:`nbx.report.experiment_report.gaps_section`) prints ``GAPS[domain](ctx)`` under each
of the three domains with the largest |ours - published| of the default learners: the measured cause, or
"Unexplained" with what was tried. Every number comes from ``ctx`` (our cells, the other readings' cells, the fold
codes the learners saw).
"""

from __future__ import annotations

import numpy as np

from nbx.papers.ting2003.evidence import (
    BLNBT,
    DEPTHS,
    LNBT,
    LNBT_KEEPCUT,
    LNBT_NODE,
    LNBT_RAWCUT,
    LNBT_THRESHOLD,
    MISSVALUE,
    domain_depths,
)
from nbx.pipeline.inputs import load_folds
from nbx.report.context import ReportContext
from nbx.report.tables import fmt

PUBLISHED_COLUMNS = {LNBT[0]: "LNBT(0)", BLNBT[0]: "BLNBT(0)", **{LNBT[d]: f"LNBT({d})" for d in DEPTHS[1:]}}
CLOSE = 3.0  # error points: the agreement section's tolerance (without the 2 std)


def _err(ctx: ReportContext, p: str, learner: str) -> float:
    return 100.0 - ctx.acc(p, learner) if ctx.has(learner) else float("nan")


def _pub_err(ctx: ReportContext, p: str, learner: str) -> float:
    return 100.0 - ctx.published_acc(p, learner)


def _worst_cell(ctx: ReportContext, p: str) -> tuple[str, float, float]:
    """The default learner of the largest gap on ``p``: (learner, ours, paper's), errors in %."""
    cells = [(x, _err(ctx, p, x), _pub_err(ctx, p, x)) for x in PUBLISHED_COLUMNS if ctx.has(x)]
    cells = [c for c in cells if np.isfinite(c[1]) and np.isfinite(c[2])]
    return max(cells, key=lambda c: abs(c[1] - c[2]))


def _readings_line(ctx: ReportContext, p: str, learner: str) -> tuple[str, bool]:
    """The same cell under the other readings we run (node rule, threshold, keep-cut, raw-value cuts) and whether
    one of them comes within CLOSE error points of the paper's."""
    d = next((d for d, x in LNBT.items() if x == learner), None)
    pub = _pub_err(ctx, p, learner)
    if d is None or d == 0:
        return "", False
    alts = {
        "node rule": LNBT_NODE.get(d),
        "threshold": LNBT_THRESHOLD.get(d),
        "keep-cut": LNBT_KEEPCUT.get(d),
        "raw-value cuts": LNBT_RAWCUT.get(d),
    }
    vals = {r: _err(ctx, p, x) for r, x in alts.items() if x and ctx.has(x)}
    close = any(abs(v - pub) <= CLOSE for v in vals.values())
    text = ", ".join(f"{r} {fmt(v)}" for r, v in vals.items())
    return f"Other readings of LNBT({d}) on {p}: {text} (paper {fmt(pub)}).", close


def _missing_share(ctx: ReportContext, p: str) -> tuple[float, int, int]:
    """Share of missing cells ('?') in the fold codes of ``p``, and how many attributes are missing in over
    half of the rows, of how many."""
    codes = load_folds(ctx.exp.name, ctx.datasets[p])["codes"][0]
    per_attr = (codes < 0).mean(axis=0)
    return float((codes < 0).mean()), int((per_attr > 0.5).sum()), int(codes.shape[1])


def gap_annealing(ctx: ReportContext) -> list[str]:
    """Annealing: '?' read as missing (skipped by the NBs, sent to the largest branch by the trees) or as a value
    (the names file lists '-', 'not applicable', among the values of the attributes the data write '?' for)."""
    p = "Annealing"
    pairs = [(x, alt) for x, alt in MISSVALUE.items() if ctx.has(x, alt) and np.isfinite(_err(ctx, p, alt))]
    if not pairs:
        return ["Unexplained: the '?'-as-value cells (`*_missvalue`) did not run."]
    share, mostly, d = _missing_share(ctx, p)
    cells = []
    closed = []
    for x, alt in pairs:
        ours, other, pub = _err(ctx, p, x), _err(ctx, p, alt), _pub_err(ctx, p, x)
        cells.append(f"{PUBLISHED_COLUMNS[x]} {fmt(ours)} → {fmt(other)} (paper {fmt(pub)})")
        closed.append(abs(ours - pub) - abs(other - pub))
    depth = [
        f"{name} {domain_depths(ctx, x).get(p, float('nan')):.1f}"
        for name, x in (("as missing", LNBT[10]), ("as a value", MISSVALUE[LNBT[10]]))
        if ctx.has(x)
    ]
    same = ", ".join(f"LNBT({d}) {fmt(_pub_err(ctx, p, LNBT[d]))}" for d in DEPTHS[1:])
    # the smallest d from which the paper's LNBT(d) error no longer changes: its trees stopped growing there
    pub_by_d = [_pub_err(ctx, p, LNBT[d]) for d in DEPTHS[1:]]
    stop = next(d for i, d in enumerate(DEPTHS[1:]) if all(v == pub_by_d[i] for v in pub_by_d[i:]))
    plateau = f"no longer changes from d = {stop} on: its trees stopped growing by depth {stop}"
    narrower = sum(c > 0 for c in closed)
    mean = fmt(float(np.mean(closed)))
    moved = f"narrows the gap in {narrower} of {len(closed)} published cells (by {mean} error points on average)"
    if 2 * narrower > len(closed):
        verdict = f"Measured cause: reading '?' as a value {moved}."
    elif narrower:
        verdict = f"Partly measured: reading '?' as a value {moved}; the other cells' gaps stay unexplained."
    else:
        verdict = f"Unexplained: reading '?' as a value {moved}."
    return [
        f"{100 * share:.0f}% of Annealing's cells are '?' ({mostly} of its {d} attributes in over half of the "
        "rows); its names file lists '-' (not applicable) among the values of those attributes. Error (%) with "
        f"'?' read as missing → as a value (`*_missvalue`): {'; '.join(cells)}. LNBT(10) mean depth "
        f"{', '.join(depth)}; the paper's Table 3 ({same}) {plateau}.",
        verdict,
    ]


def gap_liver(ctx: ReportContext) -> list[str]:
    """Liver disorder: NB itself is off; the MDL discretization leaves most attributes with one interval."""
    p = "Liver disorder"
    folds = load_folds(ctx.exp.name, ctx.datasets[p])
    one = float((folds["n_values"] == 1).mean())
    y = ctx.labels(p)
    majority = 100.0 * (1.0 - np.bincount(y).max() / len(y))
    x, ours, pub = _worst_cell(ctx, p)
    nb, nb_pub = _err(ctx, p, LNBT[0]), _pub_err(ctx, p, LNBT[0])
    return [
        f"The gap is NB's own (LNBT(0) {fmt(nb)} vs paper {fmt(nb_pub)}; largest cell {PUBLISHED_COLUMNS[x]} "
        f"{fmt(ours)} vs {fmt(pub)}), so no reading of the tree moves it. Measured: the MDL discretization of the "
        f"training folds leaves {100 * one:.0f}% of (attribute, fold) pairs with a single interval, and NB then "
        f"errs at {fmt(nb)}%, near the majority-class error {fmt(majority)}%: it sees almost no attribute. The "
        f"paper's {fmt(nb_pub)}% needs informative cuts, so its discretizer cut where ours does not. Unexplained "
        "beyond that: the paper names Fayyad & Irani (1993) without its implementation or stopping rule, and we "
        "ran no other discretizer for this paper.",
    ]


def gap_generic(p: str):
    """A domain whose gap no measurement of ours explains: the other readings' values, and 'Unexplained'."""

    def gap(ctx: ReportContext) -> list[str]:
        x, ours, pub = _worst_cell(ctx, p)
        line, close = _readings_line(ctx, p, x)
        n = len(ctx.labels(p))
        # binomial std (error points) of an error rate near the paper's over a data set of this size
        draw = 100.0 * np.sqrt(pub / 100 * (1 - pub / 100) / n)
        out = [line] if line else []
        out.append(
            (
                "Sensitivity: a reading we run comes within 3 error points of the paper's; the default stays "
                "(chosen from the text, not from closeness)."
                if close
                else "Unexplained: no reading we run (node rule, threshold, keep-cut, raw-value cuts) comes within "
                f"{CLOSE:.0f} error points of the paper's."
            )
            + f" For scale: an error rate of {fmt(pub)}% over {n} examples has a binomial std of {fmt(draw)} error "
            f"points (the gap is {abs(ours - pub) / draw:.1f} of them)."
        )
        return out

    return gap
