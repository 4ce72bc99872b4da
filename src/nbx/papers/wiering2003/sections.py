"""Wiering (2003): the report's sections (Table 2 and its summary, the two readings of §2.2, Table 1's class counts,
§3.2's loading curves), from :mod:`nbx.papers.wiering2003.evidence`."""

from __future__ import annotations

import numpy as np

from nbx.papers.wiering2003.evidence import (
    ATTRNORM,
    DEFAULT_TEST,
    LEARNERS,
    NB,
    NOT_COMPARABLE,
    PRINTED,
    PRINTED_ROUNDING,
    SEEN,
    SIG_COLUMNS,
    T_TESTS,
    TEST_OF,
    TITLES,
    analysis,
    comparable,
    corrected_marks,
    direction,
    file_counts,
    nbc_runs,
    only,
    our_marks,
    phantom_rows,
    printed_mark_agreement,
    printed_summary,
    published_marks,
    table1,
)
from nbx.pipeline.inputs import load_plan
from nbx.report.context import ReportContext
from nbx.report.published import name_key
from nbx.report.tables import comparison_table, error_reduction, fmt, marks, md_table, win_loss

DENOMINATOR_EVIDENCE = (
    "**Decision: the class counter stays the default.** The deciding sentence is §2.2's definition, \"P(C) = "
    'c(C)/tot; and P_i(f_i|C) = c_i(f_i, C)/c(C)", with its update step "1) c(C*) += weight": the paper indexes '
    "by attribute every quantity that depends on one (P_i, c_i) and defines one class counter c(C), raised once "
    "per example, so P_i(f_i|C) divides by γ + n_C; a per-attribute total would be a c_i(C) the paper never "
    'writes. The sentence after it, "we initialize the counters to some small value γ, and sum over them to get '
    'the totals", admits both readings: under the default the counters c(C) and c_i(f_i, C) start at γ and the '
    "total tot = Σ_C c(C) is their sum; under the per-attribute reading c(C) is a sum too, of attribute i's value"
    ' counters (n_C + V_i·γ, what a "parametrized Laplace correction" usually divides by), kept as the '
    "alternative (`*_attrnorm`). Table 1's class counts are evidence about what the author ran: where they exceed"
    " the file's (next section), the author's program held counters for classes that never occur; under the "
    "default such a class has P_i(f_i|C) = γ/γ = 1 for every value and takes many test rows, under the per-"
    "attribute reading it is harmless. That evidence bears on the denominator only through the accuracies it "
    "would give, which by the project's rule never decide, so it does not outweigh the explicit definition. Both "
    "keep counters for every class of the data set file (see the section after next)."
)
CLASSES_EVIDENCE = (
    "§2.2 initializes the counters, c(C) for every class and tot = Σ_C c(C), to γ before the first example, so "
    "an NBC (and every expert of an HM, §3.2) holds counters for every class of the problem, also for one its "
    "training half lacks; such a class keeps c(C) = c_i(f_i, C) = γ, i.e. P(C) = γ/tot and, with the class "
    "counter as denominator, P_i(f_i|C) = γ/γ = 1 for every value, so it can win where the other classes' "
    "products are small. That is the default. The other reading of §2.2 takes its correction, stated for "
    '"unobserved (feature-value, class) pairs in the training data", to concern the classes the training data '
    "show, and keeps counters only for the classes of the training half (a missing class gets probability 0), "
    "as `*_seenclasses`. (With the attribute's total as denominator such a class would get the uniform P(f|C) = "
    "1/V instead.)"
)


def summary_rows(ctx: ReportContext, names: list[str], label: str, learners: list[str]) -> list[list[str]]:
    """Average accuracy, error reduction and win:loss of ``learners`` (the first is the NBC) over ``names``,
    ours / the paper's."""
    base = learners[0]
    paper = ctx.memo(published_marks)
    avg = lambda x, f: np.mean([f(p, x) for p in names])  # noqa: E731
    return (
        [
            [f"average accuracy, {label}"]
            + [f"{avg(x, ctx.acc):.1f} / {avg(x, ctx.published_acc):.1f}" for x in learners],
            [f"average error reduction %, {label}"]
            + [
                "–"
                if x == base
                else f"{error_reduction(ctx, x, base, names):.1f} / "
                f"{error_reduction(ctx, x, base, names, ctx.published_acc):.1f}"
                for x in learners
            ],
        ]
        + [
            [f"significant win:loss, {title}, {label}"]
            + [
                "ref"
                if x == base
                else "%d:%d / %d:%d"
                % (
                    win_loss(only(ctx.memo(marks, x, base, TEST_OF[t]), names))
                    + win_loss(only(paper.get(d, {}), names))
                )
                for x, d in zip(learners, LEARNERS)
            ]
            for t, title in T_TESTS.items()
        ]
        + [
            [f"win:loss, corrected resampled t-test (ours), {label}"]
            + [
                "ref" if x == base else "%d:%d" % win_loss(only(corrected_marks(ctx, x, base), names)) for x in learners
            ],
        ]
    )


def summary(ctx: ReportContext, learners: list[str]) -> list[str]:
    kept = [p for p in comparable(ctx) if all(np.isfinite(ctx.published_acc(p, x)) for x in learners)]
    every = [p for p in ctx.datasets if all(np.isfinite(ctx.published_acc(p, x)) for x in learners)]
    rows = summary_rows(ctx, kept, f"{len(kept)} comparable data sets", learners)
    rows += summary_rows(ctx, every, f"all {len(every)} (with {', '.join(NOT_COMPARABLE)})", learners)
    return [
        "Summary, ours / the paper's (the paper's values recomputed from its table). " + printed_text(),
        "",
    ] + md_table([""] + [TITLES[x] for x in LEARNERS], rows)


def printed_text() -> str:
    """Which of Table 2's printed summary numbers its own data set rows give again, and which not
    (:func:`nbx.papers.wiering2003.evidence.printed_summary`)."""
    cells = printed_summary()
    rows = list(dict.fromkeys(c.row for c in cells))
    per_row = []
    for row in rows:
        these = [c for c in cells if c.row == row]
        ok = [TITLES[c.learner] for c in these if c.matches]
        per_row.append(f"{row} {len(ok)} of {len(these)}" + (f" ({', '.join(ok)})" if 0 < len(ok) < len(these) else ""))
    off = [c for c in cells if not c.matches]
    text = (
        f"Recomputed from the paper's {PRINTED['data_sets']} data set rows, its printed summary rows agree within the "
        f"rounding of its printed numbers (± {PRINTED_ROUNDING} each; win:loss counts exactly): "
        + "; ".join(per_row)
        + "."
    )
    if off:
        text += (
            " "
            + "; ".join(
                f"{TITLES[c.learner]}'s {c.row} does not: printed {c.text(c.printed)}, its column's "
                + (f"marks count {c.text(c.recomputed)}" if c.low is None else f"rows give {c.text(c.recomputed)}")
                for c in off
            )
            + "."
        )
    return text


def mark_table(ctx: ReportContext) -> list[str]:
    ours = {t: ctx.memo(our_marks, t) for t in T_TESTS}
    paper = ctx.memo(published_marks)
    learners = [x for x in SIG_COLUMNS if ctx.has(x)]
    rows, agree, total = [], dict.fromkeys(T_TESTS, 0), 0
    for p in ctx.datasets:
        row = [p + (" (not comparable)" if p in NOT_COMPARABLE else "")]
        for x in learners:
            q = paper.get(x, {}).get(p, "–")
            row.append(" / ".join(ours[t][x][p] for t in T_TESTS) + f" / {q}")
            if p not in NOT_COMPARABLE:
                total += 1
                for t in T_TESTS:
                    agree[t] += direction(ours[t][x][p]) == direction(q)
        rows.append(row)
    readings = " / ".join(f"ours by the {title}" for title in T_TESTS.values())
    same = ", ".join(f"{agree[t]} of {total} by the {title}" for t, title in T_TESTS.items())
    return [
        f"Significance marks vs NBC, {readings} / the paper's (the paper's text lost `--`; it writes every loss "
        f"`-`). Same direction of significance in the cells of the comparable data sets: {same}.",
        "",
    ] + md_table(["data set"] + [TITLES[x] for x in learners], rows)


def halves_lacking_a_class(ctx: ReportContext, p: str) -> str:
    """How many training halves of data set ``p`` lack at least one of its classes."""
    y = ctx.labels(p)
    test, _ = load_plan(ctx.exp.name, ctx.exp.datasets[p])
    n_classes = len(np.unique(y))
    lacking = sum(len(np.unique(y[~t])) < n_classes for t in test)
    return f"{lacking}/{len(test)}"


def reading_section(
    ctx: ReportContext,
    title: str,
    evidence: str,
    alternative: dict[str, str],
    caption: str,
    name: str,
    extra: tuple | None = None,
) -> list[str]:
    """Every learner under the default and an alternative reading (``alternative``: default -> its
    alternative learner), side by side, with the summary rows of the alternative; ``extra`` = (column
    header, function of the data set) adds a column."""
    pairs = [(x, alternative[x]) for x in LEARNERS if ctx.has(x, alternative[x])]
    if not pairs:
        return []
    rows = []
    for p in ctx.datasets:
        row = [p + (" (not comparable)" if p in NOT_COMPARABLE else ""), fmt(ctx.published_acc(p, NB))]
        row += [extra[1](ctx, p)] if extra else []
        row += [f"{ctx.acc(p, x):.1f} / {ctx.acc(p, a):.1f}" for x, a in pairs]
        rows.append(row)
    alt = [alternative[x] for x in LEARNERS]
    out = [title, "", evidence, "", caption, ""]
    out += md_table(["data set", "NBC pub."] + ([extra[0]] if extra else []) + [TITLES[x] for x, _ in pairs], rows)
    if all(ctx.has(x) for x in alt):
        kept = [p for p in comparable(ctx) if np.isfinite(ctx.published_acc(p, NB))]
        out += [f"Summary of the {name}, ours / the paper's (marks vs its own NBC):", ""]
        out += md_table(
            [""] + [TITLES[x] for x in LEARNERS],
            summary_rows(ctx, kept, f"{len(kept)} comparable data sets", alt)
            + summary_rows(ctx, list(ctx.datasets), f"all {len(ctx.datasets)}", alt),
        )
    return out


def denominator_section(ctx: ReportContext) -> list[str]:
    return reading_section(
        ctx,
        "## P(f | C): class counter (default) vs attribute total",
        DENOMINATOR_EVIDENCE,
        ATTRNORM,
        "Accuracy (%) with P(f|C) = c(f, C) / c(C) / with P(f|C) = c(f, C) / Σ_v c(v, C) (`*_attrnorm` "
        "learners, same seeds), and the paper's NBC:",
        "per-attribute reading",
    )


def classes_section(ctx: ReportContext) -> list[str]:
    return reading_section(
        ctx,
        "## Counters for every class (default) vs the training half's classes",
        CLASSES_EVIDENCE,
        SEEN,
        "Accuracy (%) with counters for every class of the data set / only for the classes of the training "
        "half (`*_seenclasses` learners, same seeds), both with P(f|C) = c(f, C) / c(C); the paper's NBC; and "
        "how many training halves lack a class (only their runs can differ):",
        "training-half classes",
        extra=("halves lacking a class", halves_lacking_a_class),
    )


def phantom_section(ctx: ReportContext) -> list[str]:
    stated = ctx.memo(table1)
    if not stated or not ctx.has(NB, ATTRNORM[NB]):
        return []
    rows = []
    for p in ctx.memo(phantom_rows):
        k, k1 = file_counts(ctx, p)["classes"], stated[p]["classes"]
        row = [p, f"{k} / {k1}", fmt(ctx.published_acc(p, NB))]
        for den in ("class", "attribute"):
            plain, extra = ctx.memo(nbc_runs, p, den, k), ctx.memo(nbc_runs, p, den, k1)
            row += [f"{100 * plain['acc'].mean():.1f}", f"{100 * extra['acc'].mean():.1f} ({extra['phantom']:.0f}%)"]
        rows.append(row)
    differ = [
        f"{p} ({', '.join(f'{c} {ours[c]} / {stated[p][c]}' for c in ours if ours[c] != stated[p][c])})"
        for p in ctx.datasets
        if p in stated and (ours := file_counts(ctx, p)) != stated[p]
    ]
    return (
        [
            "## Table 1's class counts: counters for classes that never occur",
            "",
            "Table 1 states more classes than the data set file has on "
            + ", ".join(ctx.memo(phantom_rows))
            + ". Read as what the author's program held, the extra classes are counters that start at γ like every "
            "counter (§2.2, §4: γ = 0.1) and never see an example. NBC accuracy (%) over the same 50 splits "
            "(params.yaml's `nb_wiering` block refitted here on the discretize stage's codes, recomputed with its "
            "function; with the file's classes they are the `nb_wiering` and `nb_wiering_attrnorm` cells), with the "
            "share of test rows predicted as a class that never occurs in parentheses:",
            "",
        ]
        + md_table(
            [
                "data set",
                "classes, file / Table 1",
                "NBC pub.",
                "c(f,C)/c(C), file's classes",
                "c(f,C)/c(C), Table 1's",
                "attribute total, file's classes",
                "attribute total, Table 1's",
            ],
            rows,
        )
        + [
            "Under the class counter a class that never occurs has P_i(f_i|C) = γ/γ = 1 for every value and takes the "
            "rows where every real class's product is small; under the attribute's total it gets P(f|C) = 1/V and "
            "its prior γ/tot, and almost never wins. The default (class counter, the file's classes) follows §2.2's "
            "definition (previous section); these readings are measured, not defaults, because no sentence about the "
            "method asks for counters of classes the data lack, and Table 1 is not an exact description of the files "
            "(ours / Table 1): " + "; ".join(differ) + ".",
            "",
        ]
    )


def parity_curve(a: dict) -> list[str]:
    """The loading curve over passes, one row per architecture and reading."""
    passes = [c["passes"] for c in a["parity"][0]["curve"]]
    rows = [
        [f"{len(r['layers'])}-layer binary HM", r["denominator"]]
        + [f"{c['loaded']}/{r['seeds']} ({c['mean_train_accuracy']:.2f})" for c in r["curve"]]
        for r in a["parity"]
    ]
    nb = "; ".join(f"{d}: {v['parity']:.2f}" for d, v in a["naive_bayes_train_accuracy"].items())
    return [
        "4-bit parity: seeds that load all 16 patterns (mean training accuracy) after n online EM passes; "
        f"P(f|C) reading `class` = c(f,C)/c(C) (default), `attribute` = over the attribute's total. "
        f"Naive Bayes' training accuracy: {nb}.",
        "",
    ] + md_table(["architecture", "P(f|C)"] + [f"{p} passes" for p in passes], rows)


def table2_section(ctx: ReportContext) -> list[str]:
    learners = [x for x in LEARNERS if ctx.has(x)]
    out = [
        "## Table 2: accuracy (%) over 50 random half/half splits",
        "",
        f'Ours ± std with our mark vs NBC by the {T_TESTS[DEFAULT_TEST]} (§4\'s "t-test"; the readings are '
        "compared under the summary), then the paper's number (*pub.*). P(f|C) = c(f, C) / "
        "c(C) as §2.2 writes it, with counters for every class of the data set (the per-attribute reading and "
        "counters for the training half's classes only are compared below).",
        "",
    ]
    out += [
        f"**Not comparable: {p}** — {why}. The average and win:loss rows of this table, the summary and the "
        f"claims leave {p} out; the summary also shows them with it."
        for p, why in NOT_COMPARABLE.items()
        if p in ctx.datasets
    ] + [""]
    return out + comparison_table(
        ctx,
        learners,
        baseline=NB if ctx.has(NB) else None,
        names=TITLES,
        average_over=comparable(ctx),
        test=TEST_OF[DEFAULT_TEST],
    )


def t_test_section(ctx: ReportContext) -> list[str]:
    """§4's "t-test" under its two readings, and the paper's own diagnostic that decides the default."""
    student, total, off = printed_mark_agreement()
    welch, _, _ = printed_mark_agreement(welch=True)
    title = {name_key(p): p for p in ctx.exp.datasets}
    cells = ", ".join(f"{TITLES[x]} on {title.get(k, k)} (printed {a}, recomputed {b})" for x, k, a, b in off)
    return [
        '**Which t-test.** §4 says only "t-test, p < 0.01" and "(p < 0.05)"; over 50 random half/half splits it '
        "may be the paired test over the splits or the two-sample test of the two columns. The paper's own "
        "diagnostic decides: Student's two-sample t-test on Table 2's printed mean ± std of each column and "
        f"NBC's (n = 50 each) gives the printed mark in {student} of the {total} cells, ++/+ levels included "
        f"(Welch's in {welch}); the others: {cells or 'none'}. The paired test cannot be run on printed numbers "
        f"(it needs the correlation of the splits). So the {T_TESTS[DEFAULT_TEST]} gives Table 2's marks, the "
        "win:loss rows and the claims by default; the paired t-test is the alternative reading, shown beside it.",
        "",
    ]


def summary_section(ctx: ReportContext) -> list[str]:
    """The summary rows and the significance marks beside the paper's (all five learners needed)."""
    return summary(ctx, LEARNERS) + t_test_section(ctx) + mark_table(ctx) if ctx.has(*LEARNERS) else []


def parity_section(ctx: ReportContext) -> list[str]:
    a = analysis(ctx)
    if a is None or "naive_bayes_train_accuracy" not in a:
        return []
    return ["## §3.2: loading XOR and 4-bit parity", ""] + parity_curve(a)
