"""Kang & Tian (2006): claims K1-K3 judged by the rubric of :mod:`nbx.report.claims` (the verdicts from the
evidence's numbers, and the claims' functions of the report context), from :mod:`nbx.papers.kang2006.evidence`."""

from __future__ import annotations

import numpy as np

from nbx.papers.kang2006.evidence import (
    ALPHA,
    ALTERNATIVE_OF,
    DEFAULT,
    HBAYES_TAN,
    K2,
    MODEST,
    NAMES,
    READINGS,
    SIGNIFICANT,
    WEKA_LR,
    WEKA_LR_OF,
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

SIDED = {"one-sided": "p_less", "two-sided": "p"}  # K1's Wilcoxon sidedness -> its p in a wilcoxon_row
SUBJECT_WEKA = WEKA_LR_OF["hbayes_nb"]  # HBayes-NB under the reading WEKA_LR
TWO_SIDED = "two-sided Wilcoxon"  # the alternative reading's name (the default is one-sided, see K1_SIDEDNESS)


def k1_status(x: str, r: dict, sided: str = "one-sided") -> str:
    """K1's part for competitor ``x``, the paper's own test (:func:`nbx.report.claims.paper_test_status`): the
    Wilcoxon signed-rank test over data sets with ``sided`` p (one-sided: HBayes-NB's error lower). A significant
    win (NB, LR) holds when HBayes-NB's mean error is lower and p < ALPHA (direction only when lower only); a
    "modest, but not statistically significant improvement" (TAN, C4.5) holds when lower and p >= ALPHA, and is
    direction only when lower and significant."""
    return claims.paper_test_status(r["mean_b"] - r["mean_a"], r[SIDED[sided]], ALPHA, x in SIGNIFICANT)


def k1_sidedness(paper_rows: dict[str, dict]) -> str:
    """The paper's own diagnostic of its test's sidedness, computed: how many of its four statements
    (significant vs NB and LR, not significant vs TAN and C4.5) the Wilcoxon test on its own Table 1 gives, per
    sidedness."""
    defaults = [x for x in SIGNIFICANT + MODEST if x in paper_rows]
    agree = {sided: sum(k1_status(x, paper_rows[x], sided) == claims.HOLDS for x in defaults) for sided in SIDED}
    ps = "; ".join(
        f"vs {NAMES.get(x, x)} one-sided p = {paper_rows[x]['p_less']:.3f}, two-sided p = {paper_rows[x]['p']:.3f}"
        for x in defaults
    )
    return (
        'The paper says only that HBayes-NB "outperformed naive Bayes and Logistic Regression in the Wilcoxon '
        'paired-sample signed-ranks test" and gave "a modest, but not statistically significant improvement '
        'against TAN and C4.5", not the sidedness; its own diagnostic decides: the test on its Table 1 ('
        f"{ps}) agrees with {agree['one-sided']} of its {len(defaults)} statements one-sided and with "
        f"{agree['two-sided']} two-sided, so one-sided (HBayes-NB's error lower, the direction the text asserts) "
        f"is the default and two-sided the alternative reading *{TWO_SIDED}*."
    )


def verdict_k1(
    rows: dict[str, dict], paper_rows: dict[str, dict] | None = None, subject_rows: dict[str, dict] | None = None
) -> Verdict:
    """K1 from Wilcoxon rows (see wilcoxon_row) of HBayes-NB vs NB, LR, TAN and C4.5, one part per competitor
    (:func:`k1_status`), one-sided by default and two-sided as a reading; the learners of READINGS, where run,
    are the alternative readings of NB, LR and TAN (one-sided). ``subject_rows``: the same rows of HBayes-NB with
    Weka's optimizer (:data:`WEKA_LR`, a reading of HBayes-NB itself) against the default competitors."""
    if not rows:
        return Verdict("K1", NOT_TESTABLE, "no competitor was run.")
    ev = "; ".join(
        f"vs {NAMES.get(x, x)}: mean error {r['mean_a']:.2f} vs {r['mean_b']:.2f} %, w/l/t "
        f"{r['wins']}/{r['losses']}/{r['ties']}, one-sided (HBayes-NB lower) p = {r['p_less']:.3f} → "
        f"*{k1_status(ALTERNATIVE_OF.get(x, x), r)}*, two-sided p = {r['p']:.3f} → "
        f"*{k1_status(ALTERNATIVE_OF.get(x, x), r, 'two-sided')}*"
        for x, r in rows.items()
    )
    ev = f"Ours (Wilcoxon over {next(iter(rows.values()))['n']} data sets): {ev}."
    if subject_rows:
        ev += f" *{WEKA_LR}*: " + "; ".join(
            f"vs {NAMES.get(x, x)} mean error {r['mean_a']:.2f} vs {r['mean_b']:.2f} %, one-sided p = {r['p_less']:.3f}"
            for x, r in subject_rows.items()
        )
        ev += "."
    if paper_rows:
        ev += f" {k1_sidedness(paper_rows)}"
    parts = []
    for x in [x for x in SIGNIFICANT + MODEST if x not in ALTERNATIVE_OF]:
        what = "significantly beats" if x in SIGNIFICANT else "modest, non-significant gain over"
        name = f"HBayes-NB {what} {NAMES.get(x, x)}"
        if x not in rows:
            parts.append(claims.Part(name, claims.UNTESTABLE, "not run"))
            continue
        alts = {READINGS[a]: k1_status(x, rows[a]) for a, d in ALTERNATIVE_OF.items() if d == x and a in rows}
        status = {DEFAULT: k1_status(x, rows[x]), TWO_SIDED: k1_status(x, rows[x], "two-sided"), **alts}
        if subject_rows and x in subject_rows:
            status[WEKA_LR] = k1_status(x, subject_rows[x])
        parts.append(claims.Part(name, status))
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
    fits_nb,
    fits_tan,
    wilcoxon_tan_vs_nb: dict,
    claimed: dict[str, float],
    newton_nb=None,
    newton_tan=None,
    readings: dict[str, tuple] | None = None,
) -> Verdict:
    """K3: HBayes-TAN much faster but slightly less accurate. The paper supports neither with a test (no timings,
    only Table 1's averages), so each part holds on its direction (:func:`nbx.report.claims.direction_status`):
    faster — by work, not clocks: fewer logistic fits (one per candidate S1, the unit of the paper's O(m^2 l) vs
    O(ml)) summed over folds and data sets; less accurate — a higher mean error (the Wilcoxon p is shown, not
    judged). ``wilcoxon_tan_vs_nb`` is wilcoxon_row(err_tan, err_nb), ``claimed`` the paper's average errors
    (paper_average, its HBayes-TAN under :data:`HBAYES_TAN`); Newton iterations, if given, are reported beside the
    fits. ``readings``: per alternative reading of the HBayes-TAN column (its READINGS name), its (fits_tan,
    wilcoxon row vs HBayes-NB, and HBayes-NB's fits where the reading changes HBayes-NB too, else None); each
    part is then judged per reading, the default first."""
    nb, tan = np.asarray(fits_nb, float), np.asarray(fits_tan, float)
    if len(nb) == 0 or not np.isfinite(nb).all() or not np.isfinite(tan).all():
        return Verdict("K3", NOT_TESTABLE, "no work counts (fit_info) for HBayes-NB and HBayes-TAN.")
    ratio = nb.sum() / tan.sum() if tan.sum() > 0 else float("inf")
    fewer = int(np.sum(tan < nb))
    r = wilcoxon_tan_vs_nb
    tan_name = NAMES.get(HBAYES_TAN, HBAYES_TAN)  # the column's default
    newton = ""
    if newton_nb is not None and newton_tan is not None:
        newton = f"; Newton iterations {np.sum(newton_nb):.0f} vs {np.sum(newton_tan):.0f}"
    ev = (
        f"Logistic fits (candidate S1 evaluations) summed over folds and data sets: HBayes-NB {nb.sum():.0f}, "
        f"{tan_name} {tan.sum():.0f} (ratio {ratio:.1f}; fewer for HBayes-TAN on {fewer} of {len(nb)} data "
        f"sets){newton}. Mean error {tan_name} {r['mean_a']:.2f} % vs HBayes-NB {r['mean_b']:.2f} % (shown, not "
        f"judged: Wilcoxon p = {r['p']:.3f}); the paper: {fmt(claimed[HBAYES_TAN], 2)} vs "
        f"{fmt(claimed['hbayes_nb'], 2)} over its 20 data sets, and no timings. Neither part has a test in the "
        "paper, so each holds on its direction."
    )
    faster = {DEFAULT: claims.direction_status(nb.sum() - tan.sum())}
    worse = {DEFAULT: claims.direction_status(r["mean_a"] - r["mean_b"])}
    for name, (fits_alt, row, fits_nb_alt) in (readings or {}).items():
        alt = np.asarray(fits_alt, float)
        nb_alt = nb if fits_nb_alt is None else np.asarray(fits_nb_alt, float)
        if len(alt) != len(nb) or not np.isfinite(alt).all() or not np.isfinite(nb_alt).all():
            continue
        faster[name] = claims.direction_status(nb_alt.sum() - alt.sum())
        worse[name] = claims.direction_status(row["mean_a"] - row["mean_b"])
        ev += (
            f" *{name}*: {alt.sum():.0f} logistic fits"
            + (f" (HBayes-NB {nb_alt.sum():.0f})" if fits_nb_alt is not None else "")
            + f", mean error {row['mean_a']:.2f} % (Wilcoxon p = {row['p']:.3f})."
        )
    one = len(faster) == 1
    parts = [
        claims.Part("HBayes-TAN is much faster", faster[DEFAULT] if one else faster),
        claims.Part("HBayes-TAN is slightly less accurate", worse[DEFAULT] if one else worse),
    ]
    return claims.judge("K3", parts, ev)


def judge_k1(ctx: ReportContext) -> Verdict:
    if not (ctx.has("hbayes_nb") and ctx.datasets):
        return claims.missing("K1", "hbayes_nb")
    rows, paper_rows = ctx.memo(wilcoxon_rows)
    # K1's competitors and their readings (HBayes-TAN's readings belong to K2 and K3)
    competitors = SIGNIFICANT + MODEST + [x for x in READINGS if ALTERNATIVE_OF[x] in SIGNIFICANT + MODEST]
    subject = {}
    if ctx.has(SUBJECT_WEKA):
        names = list(ctx.datasets)
        mine = errors(ctx, SUBJECT_WEKA, names)
        subject = {x: wilcoxon_row(mine, errors(ctx, x, names)) for x in SIGNIFICANT + MODEST if ctx.has(x)}
    return verdict_k1(
        {x: rows[x] for x in competitors if x in rows},
        {x: paper_rows[x] for x in competitors if x in paper_rows},
        subject,
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
    """K3 for the HBayes-TAN column's default (:data:`HBAYES_TAN`, Weka's TAN), its readings (READINGS) where run."""
    if not (ctx.has("hbayes_nb", HBAYES_TAN) and ctx.datasets):
        return claims.missing("K3", "hbayes_nb", HBAYES_TAN)
    names = list(ctx.datasets)
    counts = ctx.memo(work_counts)
    base = errors(ctx, "hbayes_nb", names)
    readings = {}
    for a, d in ALTERNATIVE_OF.items():
        if d != HBAYES_TAN or not ctx.has(a):
            continue
        # Weka's LR in HBayes-TAN is set beside HBayes-NB under the same reading, where it ran
        nb = SUBJECT_WEKA if READINGS[a] == WEKA_LR and ctx.has(SUBJECT_WEKA) else None
        row = wilcoxon_row(errors(ctx, a, names), base if nb is None else errors(ctx, nb, names))
        readings[READINGS[a]] = (counts[f"{a}/n_lr_fits"], row, None if nb is None else counts[f"{nb}/n_lr_fits"])
    return verdict_k3(
        counts["hbayes_nb/n_lr_fits"],
        counts[f"{HBAYES_TAN}/n_lr_fits"],
        wilcoxon_row(errors(ctx, HBAYES_TAN, names), base),
        paper_average(ctx),
        counts["hbayes_nb/n_newton_iterations"],
        counts[f"{HBAYES_TAN}/n_newton_iterations"],
        readings,
    )
