"""Kang & Tian (2006), HBayes: Table 1 (classification error) beside ours, Wilcoxon tests, claims K1-K3.

Their "Experimental Results": 20 UCI data sets, numeric attributes in 10 equal-width bins, missing values
replaced by the mode, 10-fold CV (3-fold for Chess, Hypothyroid, Segment, Wave); HBayes-NB (Fig. 2) and
HBayes-TAN (eq. 3) against NB (eq. 4), ridge logistic regression, C4.5 (J48) and TAN. The text reports
Wilcoxon paired-sample signed-rank tests over data sets (K1), the averages of Table 1 (K2) and that
HBayes-TAN is much faster (O(ml) vs O(m^2 l) LR fits, "Algorithm" section) but slightly less accurate (K3).
"""
from __future__ import annotations

import numpy as np
from scipy import stats as sps

from ... import stats
from .. import claims
from ..claims import NOT_REPRODUCED, NOT_TESTABLE, PARTLY, REPRODUCED, Verdict
from ..context import ReportContext
from ..published import name_key, read_table
from ..tables import comparison_table, fmt, md_table

LEARNERS = ["hbayes_nb", "hbayes_tan", "nb_kang", "lr_kang", "c45_kang", "tan"]
NAMES = {"hbayes_nb": "HBayes-NB", "hbayes_tan": "HBayes-TAN", "nb_kang": "NB", "lr_kang": "LR",
         "c45_kang": "C4.5", "tan": "TAN"}
SIGNIFICANT = ("nb_kang", "lr_kang")   # K1: HBayes-NB significantly better
MODEST = ("tan", "c45_kang")           # K1: better on average, not significantly
TABLE = "kang2006_table1.csv"
ALPHA = 0.05
MUCH_FASTER = 2.0                      # K3: total fit-time ratio HBayes-NB / HBayes-TAN called "much faster"


# ---------------------------------------------------------------------------------------------- pure helpers
def wilcoxon_row(err_a, err_b) -> dict:
    """Wilcoxon signed-rank of per-data-set errors a vs b (zero differences dropped, as Wilcoxon did):
    wins/losses/ties of a (lower error wins), two-sided p, one-sided p that a has the lower error."""
    a, b = np.asarray(err_a, float), np.asarray(err_b, float)
    d = a - b
    row = {"n": len(d), "wins": int(np.sum(d < 0)), "losses": int(np.sum(d > 0)), "ties": int(np.sum(d == 0)),
           "mean_a": float(np.mean(a)) if len(a) else float("nan"),
           "mean_b": float(np.mean(b)) if len(b) else float("nan")}
    if np.all(d == 0):
        return {**row, "p": 1.0, "p_less": 1.0 if len(d) else float("nan")}
    row["p"] = stats.wilcoxon(a, b)
    row["p_less"] = float(sps.wilcoxon(a, b, zero_method="wilcox", alternative="less").pvalue)
    return row


def k1_parts(rows: dict[str, dict]) -> dict[str, bool]:
    """Per competitor: whether our test agrees with K1's wording (significant win over NB and LR; lower mean
    error but no significant difference against TAN and C4.5)."""
    out = {}
    for x, r in rows.items():
        better = r["mean_a"] < r["mean_b"]
        out[x] = better and r["p"] < ALPHA if x in SIGNIFICANT else better and r["p"] >= ALPHA
    return out


def verdict_k1(rows: dict[str, dict], paper_rows: dict[str, dict] | None = None) -> Verdict:
    """K1 from Wilcoxon rows (see wilcoxon_row) of HBayes-NB vs NB, LR, TAN and C4.5: reproduced if all four
    agree with the wording, partly if some do, not reproduced if none (or neither significant win holds)."""
    if not rows:
        return Verdict("K1", NOT_TESTABLE, "no competitor was run.")
    parts = k1_parts(rows)
    ev = "; ".join(f"vs {NAMES.get(x, x)}: mean error {r['mean_a']:.2f} vs {r['mean_b']:.2f} %, w/l/t "
                   f"{r['wins']}/{r['losses']}/{r['ties']}, two-sided p = {r['p']:.3f}, one-sided "
                   f"(HBayes-NB lower) p = {r['p_less']:.3f} {'✓' if parts[x] else '✗'}"
                   for x, r in rows.items())
    ev = f"Ours (Wilcoxon over {next(iter(rows.values()))['n']} data sets): {ev}."
    if paper_rows:
        ev += " The same test on the paper's Table 1 (its {} data sets): ".format(
            next(iter(paper_rows.values()))["n"]) + "; ".join(
            f"vs {NAMES.get(x, x)} p = {r['p']:.3f}" for x, r in paper_rows.items()) + "."
    missing = [x for x in SIGNIFICANT + MODEST if x not in rows]
    if missing:
        ev += f" Not run: {', '.join(NAMES.get(x, x) for x in missing)}."
    if all(parts.values()) and not missing:
        return Verdict("K1", REPRODUCED, ev)
    if not any(parts.get(x, False) for x in SIGNIFICANT):
        return Verdict("K1", NOT_REPRODUCED, ev + " HBayes-NB is not significantly better than NB or LR.")
    return Verdict("K1", PARTLY, ev + " Only the comparisons marked ✓ agree with the claim.")


def paper_average() -> dict[str, float]:
    """K2's numbers: the "Average" row of the paper's Table 1 over its 20 data sets, as error %."""
    row = read_table(TABLE).loc[name_key("Average")]
    return {x: 100 * float(row[f"{c}_err"]) for x, c in
            (("hbayes_nb", "hbayes_nb"), ("hbayes_tan", "hbayes_tan"), ("nb_kang", "nb"), ("lr_kang", "lr"),
             ("c45_kang", "c45"), ("tan", "tan"))}


def verdict_k2(ours: dict[str, float], paper_same: dict[str, float], tolerance: float = 1.0) -> Verdict:
    """K2: average errors (%). Reproduced if every learner's average over our data sets is within
    ``tolerance`` points of the paper's average over the same data sets *and* HBayes-NB has the lowest
    average (the paper's ranking); partly if one of the two holds; else not reproduced."""
    common = [x for x in ours if np.isfinite(paper_same.get(x, np.nan))]
    if not common:
        return Verdict("K2", NOT_TESTABLE, "no learner with published errors.")
    close = {x: abs(ours[x] - paper_same[x]) <= tolerance for x in common}
    lowest = min(ours, key=ours.get)
    ev = ", ".join(f"{NAMES.get(x, x)} {ours[x]:.2f} (paper {paper_same[x]:.2f})" for x in common)
    ev = (f"Average error % over our data sets, ours (paper's average over the same data sets): {ev}. "
          f"Claimed over all 20: " + ", ".join(f"{NAMES.get(x, x)} {v:.2f}" for x, v in paper_average().items())
          + f". Within {tolerance:g} point: {sum(close.values())} of {len(close)}; our lowest average: "
          f"{NAMES.get(lowest, lowest)}.")
    ok_close, ok_rank = all(close.values()), lowest == "hbayes_nb"
    if ok_close and ok_rank:
        return Verdict("K2", REPRODUCED, ev)
    if ok_close or ok_rank:
        return Verdict("K2", PARTLY, ev + (" HBayes-NB has the lowest average, but not every average is "
                                           "close to the paper's." if ok_rank else
                                           " The averages are close, but HBayes-NB is not the best."))
    return Verdict("K2", NOT_REPRODUCED, ev)


def verdict_k3(fit_nb, fit_tan, wilcoxon_tan_vs_nb: dict) -> Verdict:
    """K3: HBayes-TAN much faster (total fit seconds over data sets, ratio >= MUCH_FASTER) but slightly less
    accurate (higher mean error, not significantly: Wilcoxon p >= ALPHA). ``wilcoxon_tan_vs_nb`` is
    wilcoxon_row(err_tan, err_nb)."""
    nb, tan = np.asarray(fit_nb, float), np.asarray(fit_tan, float)
    if len(nb) == 0 or not np.isfinite(nb).all() or not np.isfinite(tan).all():
        return Verdict("K3", NOT_TESTABLE, "no timings for HBayes-NB and HBayes-TAN.")
    ratio = nb.sum() / tan.sum() if tan.sum() > 0 else float("inf")
    faster = int(np.sum(tan < nb))
    r = wilcoxon_tan_vs_nb
    fast = ratio >= MUCH_FASTER
    slightly = r["mean_a"] > r["mean_b"] and r["p"] >= ALPHA
    ev = (f"Fit time summed over folds and data sets: HBayes-NB {nb.sum():.1f} s, HBayes-TAN {tan.sum():.1f} s "
          f"(ratio {ratio:.1f}; HBayes-TAN faster on {faster} of {len(nb)} data sets; 'much faster' taken as "
          f"ratio ≥ {MUCH_FASTER:g}). Mean error HBayes-TAN {r['mean_a']:.2f} % vs HBayes-NB {r['mean_b']:.2f} % "
          f"(Wilcoxon p = {r['p']:.3f}); the paper: {paper_average()['hbayes_tan']:.2f} vs "
          f"{paper_average()['hbayes_nb']:.2f} over its 20 data sets, and no timings.")
    if fast and slightly:
        return Verdict("K3", REPRODUCED, ev)
    if fast or slightly:
        return Verdict("K3", PARTLY, ev + (" Faster, but not 'slightly less accurate'." if fast else
                                           " Slightly less accurate, but not much faster."))
    return Verdict("K3", NOT_REPRODUCED, ev)


# ---------------------------------------------------------------------------------------------- sections
def _errors(ctx: ReportContext, learner: str, names) -> np.ndarray:
    return np.array([100 - ctx.acc(p, learner) for p in names])


def _published_errors(ctx: ReportContext, learner: str, names) -> np.ndarray:
    return np.array([100 - ctx.published_acc(p, learner) for p in names])


def wilcoxon_table(rows: dict[str, dict], paper_rows: dict[str, dict]) -> list[str]:
    out = []
    for x, r in rows.items():
        pr = paper_rows.get(x, {})
        out.append([NAMES.get(x, x), r["n"], f"{r['mean_a']:.2f} vs {r['mean_b']:.2f}",
                    f"{r['wins']}/{r['losses']}/{r['ties']}", fmt(r["p"], 3), fmt(r["p_less"], 3),
                    fmt(pr.get("p", np.nan), 3), fmt(pr.get("p_less", np.nan), 3)])
    return md_table(["HBayes-NB vs", "data sets", "mean error % (HBayes-NB vs other)", "w/l/t", "p two-sided",
                     "p one-sided (HBayes-NB lower)", "paper's table: p two-sided", "paper's: p one-sided"], out)


def timing_rows(ctx: ReportContext) -> tuple[list[str], np.ndarray, np.ndarray]:
    t_nb, t_tan = ctx.learner_file("hbayes_nb", "timings.json"), ctx.learner_file("hbayes_tan", "timings.json")
    rows, fit_nb, fit_tan = [], [], []
    for p, ds in ctx.datasets.items():
        a, b = t_nb.get(ds, {}), t_tan.get(ds, {})
        fa, fb = a.get("fit_seconds", np.nan), b.get("fit_seconds", np.nan)
        fit_nb.append(fa)
        fit_tan.append(fb)
        rows.append([p, fmt(a.get("wall_seconds", np.nan), 2), fmt(b.get("wall_seconds", np.nan), 2),
                     fmt(fa, 2), fmt(fb, 2), fmt(fa / fb if fb else np.nan, 1)])
    table = md_table(["data set", "HBayes-NB wall s", "HBayes-TAN wall s", "HBayes-NB fit s", "HBayes-TAN fit s",
                      "fit ratio NB/TAN"], rows)
    return table, np.array(fit_nb, float), np.array(fit_tan, float)


def sections(ctx: ReportContext) -> list[str]:
    names = list(ctx.datasets)
    paper_names = list(ctx.exp.datasets)
    out = ["## Table 1: classification error (%)", "",
           "Ours: mean ± std of the error over the folds, marks vs HBayes-NB (paired t over folds: ++/+ "
           "significantly *higher accuracy* than HBayes-NB at p < 0.01/0.05, −/−− lower); *pub.* = the "
           "paper's Table 1 (its error fractions × 100).", ""]
    out += comparison_table(ctx, LEARNERS, baseline="hbayes_nb", error=True, digits=2, names=NAMES)

    verdicts = []
    if ctx.has("hbayes_nb") and names:
        others = [x for x in SIGNIFICANT + MODEST + ("hbayes_tan",) if ctx.has(x)]
        base = _errors(ctx, "hbayes_nb", names)
        rows = {x: wilcoxon_row(base, _errors(ctx, x, names)) for x in others}
        pub_base = _published_errors(ctx, "hbayes_nb", paper_names)
        paper_rows = {}
        for x in others:
            e = _published_errors(ctx, x, paper_names)
            ok = np.isfinite(e) & np.isfinite(pub_base)
            if ok.any():
                paper_rows[x] = wilcoxon_row(pub_base[ok], e[ok])
        out += ["## Wilcoxon signed-rank tests over data sets", "",
                "Per-data-set mean errors of HBayes-NB against each learner (zero differences dropped); the "
                f"last two columns apply the same test to the paper's own Table 1 over the {len(paper_names)} data "
                "sets of this experiment, available or not (the paper shows its p-values only in figures 3-4, "
                "whose values the text does not give).", ""]
        out += wilcoxon_table(rows, paper_rows)
        verdicts.append(verdict_k1({x: rows[x] for x in SIGNIFICANT + MODEST if x in rows},
                                   {x: paper_rows[x] for x in SIGNIFICANT + MODEST if x in paper_rows}))
    else:
        verdicts.append(claims.missing("K1", "hbayes_nb"))

    present = [x for x in LEARNERS if ctx.has(x)]
    if present and names:
        ours = {x: float(np.mean(_errors(ctx, x, names))) for x in present}
        paper_same = {x: float(np.nanmean(_published_errors(ctx, x, names))) for x in present}
        verdicts.append(verdict_k2(ours, paper_same))
    else:
        verdicts.append(Verdict("K2", NOT_TESTABLE, "no learner or data set available."))

    if ctx.has("hbayes_nb", "hbayes_tan") and names:
        table, fit_nb, fit_tan = timing_rows(ctx)
        out += ["## HBayes-NB vs HBayes-TAN train time per data set", "",
                "Wall = elapsed seconds of the train stage for the data set (folds in parallel processes); "
                "fit = seconds inside `fit`, summed over folds.", ""]
        out += table
        row = wilcoxon_row(_errors(ctx, "hbayes_tan", names), _errors(ctx, "hbayes_nb", names))
        verdicts.append(verdict_k3(fit_nb, fit_tan, row))
    else:
        verdicts.append(claims.missing("K3", "hbayes_nb", "hbayes_tan"))
    return out + claims.render(verdicts)
