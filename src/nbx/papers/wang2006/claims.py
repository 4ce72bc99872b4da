"""Wang et al. (2006): claims S1-S3 judged by the rubric of :mod:`nbx.report.claims` under each reading of the paper
(the verdicts from the comparisons, and the claims' functions of the report context), from
:mod:`nbx.papers.wang2006.evidence`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbx.papers.wang2006.evidence import (
    ALPHA,
    DATA,
    DEFAULT,
    KERNEL_LEARNERS,
    alternative,
    counts,
    kernel_comparisons,
    learner_pairwise,
    numeric_attributes,
    paper_difference,
    paper_marks,
    snbtree_readings,
    snbtree_vs_nbtree,
    spearman,
    with_numeric,
)
from nbx.report import claims
from nbx.report.claims import NOT_TESTABLE, Verdict
from nbx.report.context import ReportContext
from nbx.report.tables import fmt
from nbx.stats import significance as stats


def verdict_s1(
    pw: pd.DataFrame, paper_marks: dict[str, str], readings: dict[str, pd.DataFrame] | None = None
) -> Verdict:
    """S1: S-NBTree beats NBTree on 10 of 12 (Table 1's ✓/× marks, no test). One part: our count of data sets
    where S-NBTree's mean accuracy is higher equals the paper's count on the same data sets; ``readings``
    (alternative reading -> its S-NBTree - NBTree frame) judges it under each reading too."""
    n = len(pw)
    if n == 0:
        return Verdict("S1", NOT_TESTABLE, "no data set available.")
    w, l, t = counts(pw["diff"])
    w_t, l_t, _ = counts(pw["diff"], pw["p_t"])
    w_c, l_c, _ = counts(pw["diff"], pw["p_corr"])
    pub = {p: paper_marks.get(p) for p in pw.index}
    paper_w = sum(m == "better" for m in pub.values())
    marked = [(m, d) for m, d in zip(pub.values(), pw["diff"]) if m in ("better", "worse")]
    same = sum((m == "better") == (d > 0) for m, d in marked)
    ev = (
        f"Ours: S-NBTree beats NBTree on **{w} of {n}** data sets (losses {l}, ties {t}); significantly "
        f"(p < {ALPHA}) {w_t}:{l_t} by the paired t-test over folds and {w_c}:{l_c} by the corrected "
        f"resampled t-test. The paper: {paper_w} of the same {n} ({DATA['s1']['wins']} of its "
        f"{DATA['s1']['data_sets']}), by its ✓/× marks, without a test. Our direction agrees with the paper's ✓/× "
        f"mark on {same} of {len(marked)}."
    )
    status = {DEFAULT: claims.count_status(w, paper_w)}  # "10 of 12": a count, one part, compared exactly
    for reading, alt in (readings or {}).items():
        wa, la, _ = counts(alt["diff"])
        status[reading] = claims.count_status(wa, paper_w)
        ev += f" Reading *{reading}*: S-NBTree beats NBTree on {wa} of {len(alt)} (losses {la})."
    part = claims.Part(f"S-NBTree beats NBTree on {paper_w} of {n}", status if readings else status[DEFAULT])
    return claims.judge("S1", [part], ev)


def verdict_s2(diff, numeric_fraction, numeric_count, paper_diff=None, readings: dict | None = None) -> Verdict:
    """S2: the advantage (S-NBTree - NBTree) is largest where many attributes are continuous. The paper gives no
    test, so the statement holds on its direction (:func:`nbx.report.claims.direction_status`): one part, the
    Spearman correlation of the advantage with the fraction of numeric attributes is positive (its p is shown,
    not judged; the number of numeric attributes is shown beside it); ``readings``: alternative reading -> its
    differences."""
    rho, p = spearman(numeric_fraction, diff)
    rho_n, p_n = spearman(numeric_count, diff)
    if not np.isfinite(rho):
        return Verdict("S2", NOT_TESTABLE, f"fewer than 3 data sets with varying values ({len(diff)}).")
    ev = (
        f"Spearman ρ of our S-NBTree − NBTree accuracy difference with the fraction of numeric attributes "
        f"= **{rho:+.2f}** (p = {p:.3f}, n = {np.isfinite(np.asarray(diff, float)).sum()}); with their "
        f"number ρ = {rho_n:+.2f} (p = {fmt(p_n, 3)})."
    )
    if paper_diff is not None:
        rho_p, p_p = spearman(numeric_fraction, paper_diff)
        ev += f" The same correlation on the paper's Table 1 differences: ρ = {fmt(rho_p, 2)} (p = {fmt(p_p, 3)})."
    status = {DEFAULT: claims.direction_status(rho)}
    for reading, alt in (readings or {}).items():
        rho_a, p_a = spearman(numeric_fraction, alt)
        status[reading] = claims.direction_status(rho_a)
        ev += f" Reading *{reading}*: ρ = {fmt(rho_a, 2)} (p = {fmt(p_a, 3)})."
    part = claims.Part(
        "the advantage grows with the share of numeric attributes", status if readings else status[DEFAULT]
    )
    return claims.judge("S2", [part], ev)


def untested_status(pw: pd.DataFrame) -> tuple[str, str]:
    """A comparison over data sets where the paper states no test: it holds on its direction, more data sets won
    than lost by the mean over folds (:func:`nbx.report.claims.direction_status`); the one-tailed sign test (as
    Ting & Zheng 2003 compare learners over domains) and the corrected-t counts are shown, not judged. Its
    status and a text."""
    w, l, t = counts(pw["diff"])
    p = stats.sign_test(w, l)
    ws, ls, _ = counts(pw["diff"], pw["p_corr"])
    text = f"{w}:{l} (ties {t}; shown, not judged: sign test p = {p:.3f}, corrected-t significant {ws}:{ls})"
    text += f", mean {pw['diff'].mean():+.2f} points"
    return claims.direction_status(w - l), text


def verdict_s3(
    kernel_vs_gauss: pd.DataFrame,
    tree_vs_gauss: pd.DataFrame,
    kernel_vs_bins: pd.DataFrame,
    skew: pd.Series,
    readings: dict[str, tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]] | None = None,
) -> Verdict:
    """S3: kernel leaves beat Gaussian and discretized ones where attributes are not normal (§6, Fig. 3; no
    numbers, no test, so each part holds on its direction). Four parts over the data sets with numeric
    attributes: kernel GNB beats Gaussian GNB, kernel S-NBTree beats Gaussian-leaf S-NBTree, kernel GNB beats
    discretized NB (each: more data sets won than lost), and the kernel advantage grows with within-class
    skewness (a positive Spearman ρ); ``readings``: an alternative reading of the kernel width -> its three
    comparisons."""
    if len(kernel_vs_gauss) == 0:
        return Verdict("S3", NOT_TESTABLE, "no available data set has numeric attributes.")
    labels = ("GNB kernel vs Gaussian", "S-NBTree kernel vs Gaussian leaves", "GNB kernel vs discretized NB")
    frames = {DEFAULT: (kernel_vs_gauss, tree_vs_gauss, kernel_vs_bins), **(readings or {})}
    status: dict[str, list[str]] = {r: [] for r in frames}
    lines = []
    for reading, comps in frames.items():
        texts = []
        for label, pw in zip(labels, comps):
            st, text = untested_status(pw)
            status[reading].append(st)
            texts.append(f"{label}: {text}")
        rho, p = spearman(skew.reindex(comps[0].index), comps[0]["diff"])
        status[reading].append(claims.direction_status(rho))
        texts.append(
            f"Spearman ρ of the GNB kernel − Gaussian difference with mean within-class |skewness| = "
            f"{fmt(rho, 2)} (p = {fmt(p, 3)})"
        )
        lines.append(("" if reading == DEFAULT else f"Reading *{reading}*: ") + "; ".join(texts))
    names = labels + ("the kernel advantage grows with skewness",)
    parts = [
        claims.Part(name, {r: st[i] for r, st in status.items()} if readings else status[DEFAULT][i])
        for i, name in enumerate(names)
    ]
    ev = (
        "Over the data sets with numeric attributes: " + ". ".join(lines) + ". The paper's example (HUE-MEAN "
        "of Image segmentation, Fig. 3) is not one of the 12 data sets, so it is not rebuilt; the paper "
        "gives no numbers for S3, only the figure."
    )
    return claims.judge("S3", parts, ev)


def s1(ctx: ReportContext) -> Verdict:
    if not ctx.has("snbtree", "nbtree"):
        return claims.missing("S1", "snbtree", "nbtree")
    return verdict_s1(snbtree_vs_nbtree(ctx), ctx.memo(paper_marks), snbtree_readings(ctx))


def s2(ctx: ReportContext) -> Verdict:
    if not ctx.has("snbtree", "nbtree"):
        return claims.missing("S2", "snbtree", "nbtree")
    pw, info = snbtree_vs_nbtree(ctx), ctx.memo(numeric_attributes)
    return verdict_s2(
        pw["diff"].to_numpy(),
        info["fraction"].reindex(pw.index).to_numpy(),
        info["numeric"].reindex(pw.index).to_numpy(),
        paper_difference(ctx),
        {r: alt["diff"].reindex(pw.index).to_numpy() for r, alt in snbtree_readings(ctx).items()},
    )


def s3(ctx: ReportContext) -> Verdict:
    if not ctx.has(*KERNEL_LEARNERS):
        return claims.missing("S3", *[x for x in KERNEL_LEARNERS if not ctx.has(x)])
    gnb, tree, gauss = alternative(ctx, "gnb"), alternative(ctx, "snbtree"), alternative(ctx, "snbtree_gaussian")
    names = with_numeric(ctx)
    # a reading changes the learners it names (paper.yaml) and keeps the default's others
    readings = {
        r: (
            learner_pairwise(ctx, gnb.get(r, "gnb"), "gnb_gaussian", names),
            learner_pairwise(ctx, tree[r], gauss.get(r, "snbtree_gaussian"), names),
            learner_pairwise(ctx, gnb.get(r, "gnb"), "nb_laplace", names),
        )
        for r in tree
        if r in gnb or r in gauss
    }
    return verdict_s3(*ctx.memo(kernel_comparisons).values(), ctx.memo(numeric_attributes)["skew"], readings)
