"""Kang & Tian (2006): claims K1-K3 judged by the rubric of :mod:`nbx.report.claims` (the verdicts from the
evidence's numbers, and the claims' functions of the report context), from :mod:`nbx.papers.kang2006.evidence`."""

from __future__ import annotations

import numpy as np

from nbx.papers.kang2006.evidence import (
    ALPHA,
    ALTERNATIVE_OF,
    DEFAULT,
    K2,
    MODEST,
    MUCH_FASTER,
    NAMES,
    READINGS,
    SIGNIFICANT,
    errors,
    paper_average,
    published_errors,
    wilcoxon_row,
    wilcoxon_rows,
    work_counts,
)
from nbx.report import claims
from nbx.report.claims import NOT_TESTABLE, Verdict
from nbx.report.context import ReportContext
from nbx.report.tables import fmt


def k1_status(x: str, r: dict) -> str:
    """K1's part for competitor ``x``: a significant win (NB, LR) holds when HBayes-NB's mean error is lower and
    the two-sided Wilcoxon p < ALPHA (direction only when lower only); a "modest, non-significant gain" (TAN,
    C4.5) holds when lower and p >= ALPHA, and is direction only when lower but significant."""
    lower = r["mean_a"] < r["mean_b"]
    if not lower:
        return claims.FAILS
    significant = r["p"] < ALPHA
    if x in SIGNIFICANT:
        return claims.HOLDS if significant else claims.DIRECTION
    return claims.DIRECTION if significant else claims.HOLDS


def verdict_k1(rows: dict[str, dict], paper_rows: dict[str, dict] | None = None) -> Verdict:
    """K1 from Wilcoxon rows (see wilcoxon_row) of HBayes-NB vs NB, LR, TAN and C4.5, one part per competitor
    (:func:`k1_status`); the learners of READINGS, where run, are the alternative readings of NB, LR and TAN."""
    if not rows:
        return Verdict("K1", NOT_TESTABLE, "no competitor was run.")
    ev = "; ".join(
        f"vs {NAMES.get(x, x)}: mean error {r['mean_a']:.2f} vs {r['mean_b']:.2f} %, w/l/t "
        f"{r['wins']}/{r['losses']}/{r['ties']}, two-sided p = {r['p']:.3f}, one-sided "
        f"(HBayes-NB lower) p = {r['p_less']:.3f} → *{k1_status(ALTERNATIVE_OF.get(x, x), r)}*"
        for x, r in rows.items()
    )
    ev = f"Ours (Wilcoxon over {next(iter(rows.values()))['n']} data sets): {ev}."
    if paper_rows:
        ev += (
            " The same test on the paper's Table 1 (its {} data sets): ".format(next(iter(paper_rows.values()))["n"])
            + "; ".join(f"vs {NAMES.get(x, x)} p = {r['p']:.3f}" for x, r in paper_rows.items())
            + "."
        )
    parts = []
    for x in [x for x in SIGNIFICANT + MODEST if x not in ALTERNATIVE_OF]:
        what = "significantly beats" if x in SIGNIFICANT else "modest, non-significant gain over"
        name = f"HBayes-NB {what} {NAMES.get(x, x)}"
        if x not in rows:
            parts.append(claims.Part(name, claims.UNTESTABLE, "not run"))
            continue
        alts = {READINGS[a]: k1_status(x, rows[a]) for a, d in ALTERNATIVE_OF.items() if d == x and a in rows}
        status = k1_status(x, rows[x])
        parts.append(claims.Part(name, {DEFAULT: status, **alts} if alts else status))
    return claims.judge("K1", parts, ev)


def verdict_k2(
    ours: dict[str, float], paper_same: dict[str, float], claimed: dict[str, float], std: dict[str, float] | None = None
) -> Verdict:
    """K2: average errors (%), one part per learner: our average within the paper's printed precision (0.0001
    as a fraction, 0.01 points) or 2 std of our estimate (``std``, :func:`nbx.report.claims.std_of_average`) of
    the paper's average over the same data sets. ``claimed`` (the paper's averages over its 20 data sets, see
    paper_average) is shown beside them; the ranking is shown, not a part. A learner of READINGS in ``ours``
    is judged as the alternative reading of its default's part."""
    common = [x for x in ours if np.isfinite(paper_same.get(x, np.nan))]
    if not common:
        return Verdict("K2", NOT_TESTABLE, "no learner with published errors.")
    std = std or {}
    defaults = [x for x in ours if x not in ALTERNATIVE_OF]
    lowest = min(defaults or ours, key=ours.get)

    def status(x: str) -> str:
        return claims.number_status(ours[x], paper_same[x], 0.01, std.get(x, float("nan")))

    parts = []
    for x in common:
        if x in ALTERNATIVE_OF and ALTERNATIVE_OF[x] in common:
            continue  # judged inside its default's part
        alts = {READINGS[a]: status(a) for a in common if ALTERNATIVE_OF.get(a) == x}
        parts.append(
            claims.Part(f"{NAMES.get(x, x)} {paper_same[x]:.2f}", {DEFAULT: status(x), **alts} if alts else status(x))
        )
    ev = ", ".join(
        f"{NAMES.get(x, x)} {ours[x]:.2f} ± {fmt(2 * std.get(x, float('nan')), 2)} (paper {paper_same[x]:.2f})"
        for x in common
    )
    ev = (
        f"Average error % over our data sets ± 2 std of our estimate, ours (paper's average over the same data "
        f"sets): {ev}. Claimed over all 20: "
        + ", ".join(f"{NAMES.get(x, x)} {fmt(v, 2)}" for x, v in claimed.items())
        + f". Our lowest average: {NAMES.get(lowest, lowest)} (the paper's: HBayes-NB; shown, not a part)."
    )
    return claims.judge("K2", parts, ev)


def verdict_k3(
    fits_nb, fits_tan, wilcoxon_tan_vs_nb: dict, claimed: dict[str, float], newton_nb=None, newton_tan=None
) -> Verdict:
    """K3: HBayes-TAN much faster — by work, not clocks: logistic fits (one per candidate S1, the unit of the
    paper's O(m^2 l) vs O(ml)) summed over folds and data sets, ratio >= MUCH_FASTER (the paper gives no timings)
    — but slightly less accurate: higher mean error, not significantly (Wilcoxon p >= ALPHA; significantly
    higher is direction only). ``wilcoxon_tan_vs_nb`` is wilcoxon_row(err_tan, err_nb), ``claimed`` the paper's
    average errors (paper_average); Newton iterations, if given, are reported beside the fits."""
    nb, tan = np.asarray(fits_nb, float), np.asarray(fits_tan, float)
    if len(nb) == 0 or not np.isfinite(nb).all() or not np.isfinite(tan).all():
        return Verdict("K3", NOT_TESTABLE, "no work counts (fit_info) for HBayes-NB and HBayes-TAN.")
    ratio = nb.sum() / tan.sum() if tan.sum() > 0 else float("inf")
    fewer = int(np.sum(tan < nb))
    r = wilcoxon_tan_vs_nb
    worse = r["mean_a"] > r["mean_b"]
    slightly = claims.FAILS if not worse else claims.HOLDS if r["p"] >= ALPHA else claims.DIRECTION
    newton = ""
    if newton_nb is not None and newton_tan is not None:
        newton = f"; Newton iterations {np.sum(newton_nb):.0f} vs {np.sum(newton_tan):.0f}"
    ev = (
        f"Logistic fits (candidate S1 evaluations) summed over folds and data sets: HBayes-NB {nb.sum():.0f}, "
        f"HBayes-TAN {tan.sum():.0f} (ratio {ratio:.1f}; fewer for HBayes-TAN on {fewer} of {len(nb)} data "
        f"sets; 'much faster' taken as ratio ≥ {MUCH_FASTER:g}){newton}. Mean error HBayes-TAN "
        f"{r['mean_a']:.2f} % vs HBayes-NB {r['mean_b']:.2f} % (Wilcoxon p = {r['p']:.3f}); the paper: "
        f"{fmt(claimed['hbayes_tan'], 2)} vs {fmt(claimed['hbayes_nb'], 2)} over its 20 data sets, and "
        f"no timings."
    )
    parts = [
        claims.Part("HBayes-TAN is much faster", claims.HOLDS if ratio >= MUCH_FASTER else claims.FAILS),
        claims.Part("HBayes-TAN is slightly less accurate", slightly),
    ]
    return claims.judge("K3", parts, ev)


def judge_k1(ctx: ReportContext) -> Verdict:
    if not (ctx.has("hbayes_nb") and ctx.datasets):
        return claims.missing("K1", "hbayes_nb")
    rows, paper_rows = ctx.memo(wilcoxon_rows)
    competitors = SIGNIFICANT + MODEST + [x for x in READINGS if x not in SIGNIFICANT + MODEST]
    return verdict_k1(
        {x: rows[x] for x in competitors if x in rows},
        {x: paper_rows[x] for x in competitors if x in paper_rows},
    )


def judge_k2(ctx: ReportContext) -> Verdict:
    names = list(ctx.datasets)
    alternatives = [a for a, d in ALTERNATIVE_OF.items() if d in K2 and a in ctx.published.columns]  # mapped ones
    present = [x for x in K2 + alternatives if ctx.has(x)]
    if not (present and names):
        return Verdict("K2", NOT_TESTABLE, "no learner or data set available.")
    ours = {x: float(np.mean(errors(ctx, x, names))) for x in present}
    paper_same = {x: float(np.nanmean(published_errors(ctx, x, names))) for x in present}
    std = {x: claims.std_of_average([100 * (1 - ctx.split_acc(p, x)) for p in names]) for x in present}
    return verdict_k2(ours, paper_same, paper_average(ctx), std)


def judge_k3(ctx: ReportContext) -> Verdict:
    if not (ctx.has("hbayes_nb", "hbayes_tan") and ctx.datasets):
        return claims.missing("K3", "hbayes_nb", "hbayes_tan")
    names = list(ctx.datasets)
    counts = ctx.memo(work_counts)
    row = wilcoxon_row(errors(ctx, "hbayes_tan", names), errors(ctx, "hbayes_nb", names))
    return verdict_k3(
        counts["hbayes_nb/n_lr_fits"],
        counts["hbayes_tan/n_lr_fits"],
        row,
        paper_average(ctx),
        counts["hbayes_nb/n_newton_iterations"],
        counts["hbayes_tan/n_newton_iterations"],
    )
