"""Every number of Ting & Zheng (2003)'s Tables 2, 3 and 4 against ours, each with the tolerance it was judged by
(``PUBLISHED_COUNT`` of the report: the agreement section prints it in place of the count of the default
learners' per-domain errors alone).

Tolerances, one rule per kind of number:
- a per-domain error (%): max(3 error points, 2 std of our per-split errors), the project's rule for a published
  cell (:class:`nbx.report.experiment_report.Cell`);
- a per-domain ratio BLNBT(d)/LNBT(d): max(0.1, 2 std of our per-split ratios), the same rule with 0.1 for the
  floor (3 error points are 0.1 of a 30% error);
- a summary over domains (Mean rows, w/l, p): as the claims judge such numbers (:mod:`nbx.papers.ting2003.claims`),
  against the paper's value recomputed on our domains from its per-domain numbers: a mean within half a unit
  of its printed last digit or 2 std of our estimate, a w/l record exactly, a sign-test p on the same side of
  0.05;
- Table 4 (domain-averaged bias and variance, printed for the 25 domains only, no per-domain values): within half
  a printed unit or 2 std of our estimate (jackknife over the CV repetitions), against the 25-domain value as
  printed, so a different domain set stands in every comparison.
The paper's numbers on the 3 domains we lack are counted and marked not comparable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nbx.papers.ting2003.evidence import (
    BLNBT,
    DEPTHS,
    LNBT,
    PAPER,
    PAPER_DOMAINS,
    DomainData,
    decomposition_std,
    domain_means,
    record,
    split_ratio_std,
    std_mean_error,
    std_ratio,
)
from nbx.report import claims
from nbx.report.claims import number_tolerance, within
from nbx.report.context import ReportContext
from nbx.report.published import name_key
from nbx.report.tables import fmt, md_table

ERROR_FLOOR = 3.0  # error points
RATIO_FLOOR = 0.1
ALPHA = 0.05


@dataclass(frozen=True)
class Number:
    """One printed number of the paper beside ours: ``kind`` "error", "ratio", "mean", "wl", "p" or "t4";
    ``within`` None where not comparable (a domain we lack)."""

    table: str
    row: str
    column: str
    kind: str
    published: float | str
    ours: float | str | None
    tolerance: float | str | None
    within: bool | None
    same_domains: float | str | None = None  # the paper's value recomputed on our domains (summaries)


def error_tolerance(std: float) -> float:
    return max(ERROR_FLOOR, 2.0 * std) if np.isfinite(std) else ERROR_FLOOR


def ratio_tolerance(std: float) -> float:
    return max(RATIO_FLOOR, 2.0 * std) if np.isfinite(std) else RATIO_FLOOR


def same_side(ours: float, published: float, alpha: float = ALPHA) -> bool:
    """A sign-test p agrees when it leads to the same decision at ``alpha``."""
    return (ours < alpha) == (published < alpha)


# ------------------------------------------------------------------------------------------ the numbers
def _err(ctx: ReportContext, p: str, x: str) -> tuple[float, float]:
    """Our error (%) and its per-split std, NaN where the domain is not ours."""
    if p not in ctx.datasets:
        return float("nan"), float("nan")
    return 100.0 - ctx.acc(p, x), ctx.acc_std(p, x)


def _ratio(ctx: ReportContext, p: str, a: str, b: str) -> tuple[float, float]:
    """Our ratio of mean errors A/B on domain ``p`` (as Tables 2-3 print it) and the std of its per-split ratios."""
    if p not in ctx.datasets:
        return float("nan"), float("nan")
    ea, eb = 100.0 - ctx.acc(p, a), 100.0 - ctx.acc(p, b)
    return (ea / eb if eb > 0 else float("nan")), split_ratio_std(ctx, p, a, b)


def _error_number(table: str, p: str, column: str, ours: float, std: float, pub: float) -> Number:
    tol = error_tolerance(std)
    return Number(table, p, column, "error", pub, ours, tol, within(ours, pub, tol))


def _ratio_number(table: str, p: str, column: str, ours: float, std: float, pub: float) -> Number:
    tol = ratio_tolerance(std)
    return Number(table, p, column, "ratio", pub, ours, tol, within(ours, pub, tol))


def domain_numbers(ctx: ReportContext) -> list[Number]:
    """Tables 2 and 3, one Number per printed per-domain value (the paper's 25 domains, ours where we have them)."""
    data = ctx.memo(DomainData)
    out = []
    for p in ctx.exp.datasets:  # the paper's domains in its order, ours and the ones we lack
        key = name_key(p)
        nb, b0 = _err(ctx, p, LNBT[0]), _err(ctx, p, BLNBT[0])
        out.append(_error_number("Table 2", p, "LNBT(0)", *nb, float(data.t2.loc[key, "lnbt0_err"])))
        out.append(_error_number("Table 2", p, "BLNBT(0)", *b0, float(data.t2.loc[key, "blnbt0_err"])))
        ratio = _ratio(ctx, p, BLNBT[0], LNBT[0])
        out.append(_ratio_number("Table 2", p, "ratio", *ratio, float(data.t2.loc[key, "ratio"])))
        for d in DEPTHS:
            lnbt = _err(ctx, p, LNBT[d])
            out.append(_error_number("Table 3", p, f"LNBT({d}) err", *lnbt, float(data.t3.loc[key, f"d{d}_err"])))
            ratio = _ratio(ctx, p, BLNBT[d], LNBT[d])
            out.append(_ratio_number("Table 3", p, f"ratio d={d}", *ratio, float(data.t3.loc[key, f"d{d}_ratio"])))
    return out


def summary_numbers(ctx: ReportContext) -> list[Number]:
    """Tables 2 and 3's Mean, w/l and p rows against ours, through the paper's values on our domains."""
    data = ctx.memo(DomainData)
    out = []
    for table, depths in (("Table 2", [0]), ("Table 3", list(DEPTHS))):
        for d in depths:
            lnbt, blnbt = LNBT[d], BLNBT[d]
            ours, same = ctx.memo(record, blnbt, lnbt), data.paper_record(d)
            w, l, p = PAPER["table3_wl"][d]
            if table == "Table 2":
                err_cols = [("LNBT(0)", lnbt, "lnbt0_err"), ("BLNBT(0)", blnbt, "blnbt0_err")]
                ratio_col, where = "ratio", data.t2
            else:
                err_cols, ratio_col, where = [(f"LNBT({d}) err", lnbt, f"d{d}_err")], f"d{d}_ratio", data.t3
            for column, x, col in err_cols:
                mine, theirs = float(data.err(x).mean()), float(data.pub[x].mean())
                tol = number_tolerance(0.1, std_mean_error(ctx, x))
                out.append(
                    Number(
                        table,
                        "Mean",
                        column,
                        "mean",
                        float(where.loc["mean", col]),
                        mine,
                        tol,
                        within(mine, theirs, tol),
                        theirs,
                    )
                )
            tol = number_tolerance(0.01, std_ratio(ctx, blnbt, lnbt))
            column = "ratio" if table == "Table 2" else f"ratio d={d}"
            out.append(
                Number(
                    table,
                    "Mean",
                    column,
                    "mean",
                    float(where.loc["mean", ratio_col]),
                    ours.mean_ratio,
                    tol,
                    within(ours.mean_ratio, same.mean_ratio, tol),
                    same.mean_ratio,
                )
            )
            wl_ok = claims.count_status((ours.wins, ours.losses), (same.wins, same.losses)) == claims.HOLDS
            out.append(Number(table, "w/l", f"d={d}", "wl", f"{w}/{l}", ours.wl, "exact", wl_ok, same.wl))
            out.append(
                Number(
                    table,
                    "p. of w/l",
                    f"d={d}",
                    "p",
                    p,
                    ours.p,
                    f"same side of {ALPHA}",
                    same_side(ours.p, same.p),
                    same.p,
                )
            )
    return out


def table4_numbers(ctx: ReportContext) -> list[Number]:
    """Table 4's bias and variance of LNBT(d) and BLNBT(d) against ours (25 vs our domains, as printed)."""
    data = ctx.memo(DomainData)
    bias, var, _ = ctx.memo(domain_means)
    t4 = data.t4.set_index("max_depth")
    out = []
    for d in DEPTHS:
        for kind, x in (("LNBT", LNBT[d]), ("BLNBT", BLNBT[d])):
            if x not in bias:
                continue
            std_b, std_v = ctx.memo(decomposition_std, x)
            for what, ours, std in (("bias", bias[x], std_b), ("variance", var[x], std_v)):
                pub = float(t4.loc[d, f"{what}_{kind.lower()}"])
                tol = number_tolerance(0.1, std)
                out.append(
                    Number("Table 4", f"d = {d}", f"{what} {kind}(d)", "t4", pub, ours, tol, within(ours, pub, tol))
                )
    return out


def all_numbers(ctx: ReportContext) -> list[Number]:
    return ctx.memo(domain_numbers) + ctx.memo(summary_numbers) + ctx.memo(table4_numbers)


# ------------------------------------------------------------------------------------------ counts
def count(numbers: list[Number]) -> dict[str, int]:
    """printed, comparable, within — over ``numbers``."""
    comparable = [n for n in numbers if n.within is not None]
    return {"printed": len(numbers), "comparable": len(comparable), "within": sum(bool(n.within) for n in comparable)}


def count_line(table: str, numbers: list[Number]) -> str:
    """One table's count: every printed number, by kind."""
    mine = [n for n in numbers if n.table == table]
    total = count(mine)
    kinds = {
        "error": "per-domain errors",
        "ratio": "per-domain ratios",
        "mean": "Mean-row values",
        "wl": "w/l records",
        "p": "sign-test p",
        "t4": "domain-averaged bias/variance",
    }
    parts = []
    for kind, label in kinds.items():
        c = count([n for n in mine if n.kind == kind])
        if c["printed"]:
            lacking = c["printed"] - c["comparable"]
            parts.append(
                f"{label} {c['within']}/{c['comparable']}" + (f" ({lacking} on domains we lack)" if lacking else "")
            )
    return (
        f"- **{table}**: {total['printed']} printed numbers, {total['comparable']} comparable, **{total['within']} "
        f"within** their tolerance — {'; '.join(parts)}."
    )


def floors_line(numbers: list[Number]) -> str:
    """How much of the per-domain count the 2 std carry: the same cells judged by the floors alone."""
    cells = [n for n in numbers if n.kind in ("error", "ratio") and n.within is not None]
    parts = []
    for label, pick in (
        ("per-domain errors", lambda n: n.kind == "error"),
        ("per-domain ratios", lambda n: n.kind == "ratio"),
        (
            "of them Table 3's BLNBT(d)/LNBT(d) ratios for d >= 1",
            lambda n: n.kind == "ratio" and n.table == "Table 3" and not n.column.endswith("d=0"),
        ),
    ):
        mine = [n for n in cells if pick(n)]
        floor = ERROR_FLOOR if mine and mine[0].kind == "error" else RATIO_FLOOR
        close = sum(bool(within(n.ours, n.published, floor)) for n in mine)
        parts.append(f"{label} {close}/{len(mine)} (with the 2 std {sum(bool(n.within) for n in mine)})")
    return (
        f"The per-domain tolerances are wide where our per-split numbers scatter (a ratio of two errors of a few "
        f"percent on a third of the data most of all). By the floors alone ({fmt(ERROR_FLOOR, 0)} error points, "
        f"{fmt(RATIO_FLOOR, 1)} for a ratio): {'; '.join(parts)}."
    )


def _cell(n: Number, digits: int) -> str:
    """ "ours / paper's (tolerance)", ✗ when outside, "n/a / paper's" on a domain we lack."""
    if n.within is None:
        return f"n/a / {fmt(n.published, digits)}"
    mark = "" if n.within else " ✗"
    return f"{fmt(n.ours, digits)} / {fmt(n.published, digits)} (±{fmt(n.tolerance, digits)}){mark}"


def published_count(ctx: ReportContext) -> list[str]:
    """The agreement section's count of every published number of Tables 2-4, per table, and the cells."""
    data = ctx.memo(DomainData)
    if not ctx.has(*LNBT.values(), *BLNBT.values()):
        return []
    numbers = all_numbers(ctx)
    total = count(numbers)
    repeats = [n for n in numbers if n.table == "Table 3" and (n.column.endswith("d=0") or n.column == "LNBT(0) err")]
    distinct = count([n for n in numbers if n not in repeats])
    out = [
        "### Every published number within its tolerance",
        "",
        f"Tables 2-4 print {total['printed']} numbers; {total['comparable']} have a counterpart of ours (the rest "
        f"are on the {PAPER_DOMAINS - len(data.names)} domains we lack), and **{total['within']} of "
        f"{total['comparable']}** lie within their tolerance. Table 3's d = 0 columns and summaries repeat Table "
        f"2's ({len(repeats)} numbers, the same verdicts); without them {distinct['within']} of "
        f"{distinct['comparable']}. Tolerances (one rule per kind): a per-domain error max({fmt(ERROR_FLOOR, 0)} "
        "error points, 2 std of our per-split errors); a per-domain ratio BLNBT(d)/LNBT(d) "
        f"max({fmt(RATIO_FLOOR, 1)}, 2 std of our per-split ratios); a Mean-row value, w/l or p as the claims "
        "judge them, against the paper's value recomputed on our domains (a mean within half its printed unit or "
        f"2 std of our estimate, a w/l exactly, a p on the same side of {ALPHA}); Table 4, printed for the "
        f"{PAPER_DOMAINS} domains only, within half its unit or 2 std of our estimate (jackknife over the CV's "
        f"repetitions) of the printed value, ours over {len(data.names)} domains.",
        "",
        *(count_line(t, numbers) for t in ("Table 2", "Table 3", "Table 4")),
        "",
        floors_line(numbers),
        "",
        "Per-domain cells, *ours / paper's (±tolerance)*, ✗ outside it; Table 3's d = 0 columns are Table 2's "
        "LNBT(0) and ratio columns.",
        "",
    ]
    by = {(n.table, n.row, n.column): n for n in numbers}
    t2_cols = ["LNBT(0)", "BLNBT(0)", "ratio"]
    t3_cols = [c for d in DEPTHS[1:] for c in (f"LNBT({d}) err", f"ratio d={d}")]
    rows = []
    for p in ctx.exp.datasets:
        cells = [_cell(by["Table 2", p, c], 2 if c == "ratio" else 1) for c in t2_cols]
        cells += [_cell(by["Table 3", p, c], 2 if c.startswith("ratio") else 1) for c in t3_cols]
        rows.append([p, *cells])
    out += md_table(["domain", *(f"T2 {c}" for c in t2_cols), *(f"T3 {c}" for c in t3_cols)], rows)
    summary_rows = []
    for n in (m for m in numbers if m.kind in ("mean", "wl", "p")):
        printed = {"wl": 0, "p": 4}.get(n.kind, 2 if "ratio" in n.column else 1)
        more = printed + (n.kind == "mean")  # ours and the recomputed value to one more digit than printed

        def show(v, digits):
            return v if isinstance(v, str) else fmt(v, digits)

        tol = n.tolerance if isinstance(n.tolerance, str) else f"±{fmt(n.tolerance, more)}"
        summary_rows.append(
            [
                n.table,
                f"{n.row} {n.column}",
                show(n.published, printed),
                show(n.same_domains, more),
                show(n.ours, more),
                tol,
                "yes" if n.within else "no",
            ]
        )
    out += [
        f"Summary rows: the paper's printed value ({PAPER_DOMAINS} domains), recomputed on our {len(data.names)} "
        "domains from its per-domain numbers (what ours is judged against), and ours.",
        "",
        *md_table(
            [
                "table",
                "number",
                f"paper ({PAPER_DOMAINS})",
                f"paper on our {len(data.names)}",
                "ours",
                "tolerance",
                "within",
            ],
            summary_rows,
        ),
    ]
    t4_rows = []
    for d in DEPTHS:
        cells = [
            by.get(("Table 4", f"d = {d}", f"{w} {k}(d)")) for w in ("bias", "variance") for k in ("LNBT", "BLNBT")
        ]
        t4_rows.append([str(d), *(_cell(c, 1) if c else "n/a" for c in cells)])
    out += [
        f"Table 4 (%), *ours over {len(data.names)} domains / paper's over {PAPER_DOMAINS} (±tolerance)*:",
        "",
        *md_table(["d", "bias LNBT(d)", "bias BLNBT(d)", "variance LNBT(d)", "variance BLNBT(d)"], t4_rows),
    ]
    return out
