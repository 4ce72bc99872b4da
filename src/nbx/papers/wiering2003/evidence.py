"""Wiering (2003): the evidence the sections, claims and gaps read, loaded and computed once per report: the
paper's data (published/paper.yaml, its tables), our and the paper's significance marks, Table 1's class counts
against the files', and the NBC refits and synthetic checks of analyse@wiering2003 (``ctx.analysis``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from nbx.pipeline import layout
from nbx.pipeline.inputs import MissingInputError, load_table
from nbx.report.context import ReportContext
from nbx.report.paper import paper_data
from nbx.report.published import name_key, read_table
from nbx.report.tables import marks
from nbx.stats import significance as stats

DATA = paper_data("wiering2003")
LEARNERS = DATA["learners"]
NB, HM14, HM22, BAG, BOOST = LEARNERS
ATTRNORM = dict(zip(LEARNERS, DATA["attribute_total"]))  # the same learners with P(f | C) over the attribute's total
SEEN = dict(zip(LEARNERS, DATA["training_half_classes"]))  # ... with counters for the training half's classes
TITLES = DATA["names"]
SIG_COLUMNS = DATA["mark_columns"]
NOT_COMPARABLE = DATA["not_comparable"]
PRINTED = DATA["printed"]
CLASS_COUNTS = DATA["class_counts"]  # Table 1, as a published CSV


def comparable(ctx: ReportContext) -> list[str]:
    """The available data sets whose setup matches the paper's (all but :data:`NOT_COMPARABLE`)."""
    return [p for p in ctx.datasets if p not in NOT_COMPARABLE]


def published_marks(ctx: ReportContext) -> dict[str, dict[str, str]]:
    """The paper's marks per learner and paper data set name."""
    table = read_table("wiering2003_table2.csv", "wiering2003")
    return {
        x: {p: str(table.loc[name_key(p), col]) for p in ctx.exp.datasets if name_key(p) in table.index}
        for x, col in SIG_COLUMNS.items()
    }


def corrected_marks(ctx: ReportContext, learner: str, baseline: str = NB) -> dict[str, str]:
    """Marks vs NBC by the corrected resampled t-test instead of the paired t-test."""
    out = {}
    for p in ctx.datasets:
        a, b = ctx.split_acc(p, learner), ctx.split_acc(p, baseline)
        out[p] = stats.mark(a, b, stats.corrected_t(a, b, ctx.test_fraction(p)))
    return out


# §4's "t-test" under its two readings (reading -> title; the first is the default, see T_TEST_DECISION) and the
# test each runs over the 50 per-split accuracies of a learner and of NBC.
T_TESTS = {"two-sample": "two-sample t-test (default)", "paired": "paired t-test"}
DEFAULT_TEST = next(iter(T_TESTS))
TEST_OF = {"two-sample": stats.two_sample_t, "paired": stats.paired_t}
SPLITS = 50  # Table 2's n per column: "50 simulations"


def our_marks(ctx: ReportContext, test: str = DEFAULT_TEST) -> dict[str, dict[str, str]]:
    """Our marks vs NBC of every other Table 2 learner that ran, by the ``test`` reading of §4's "t-test" ({}
    without NBC)."""
    if not ctx.has(NB):
        return {}
    return {x: ctx.memo(marks, x, NB, TEST_OF[test]) for x in LEARNERS if x != NB and ctx.has(x)}


def printed_marks(welch: bool = False) -> dict[str, dict[str, str]]:
    """The paper's own diagnostic of its "t-test": Table 2's marks recomputed from its printed mean ± std of each
    column and NBC's (n = 50 each) by the two-sample t-test (Student's, or Welch's), per learner and data set,
    with the paper's levels (++/+ at p < 0.01/0.05; every loss ``-``, as the converted text writes them). The
    paired test cannot be run on printed numbers (it needs the splits' correlation)."""
    table = read_table("wiering2003_table2.csv", "wiering2003")
    nb_col = "nbc"
    out = {}
    for x, col in SIG_COLUMNS.items():
        stem = col.removesuffix("_sig")
        out[x] = {}
        for name, row in table.iterrows():
            m1, s1, m0, s0 = (float(row[c]) for c in (f"{stem}_acc", f"{stem}_std", f"{nb_col}_acc", f"{nb_col}_std"))
            p = float(sps.ttest_ind_from_stats(m1, s1, SPLITS, m0, s0, SPLITS, equal_var=not welch).pvalue)
            mark = stats.mark(np.array([m1]), np.array([m0]), p)
            out[x][name] = "-" if mark == "--" else mark
    return out


def printed_mark_agreement(welch: bool = False) -> tuple[int, int, list[tuple[str, str, str, str]]]:
    """How many of Table 2's printed marks (every learner and data set, levels included) :func:`printed_marks`
    reproduces, out of how many, and the cells it does not: (learner, data set key, printed, recomputed)."""
    table = read_table("wiering2003_table2.csv", "wiering2003")
    recomputed = printed_marks(welch)
    agree, total, off = 0, 0, []
    for x, col in SIG_COLUMNS.items():
        for name, row in table.iterrows():
            printed_mark, ours = str(row[col]), recomputed[x][name]
            total += 1
            agree += printed_mark == ours
            if printed_mark != ours:
                off.append((x, name, printed_mark, ours))
    return agree, total, off


def only(ms: dict[str, str], names: list[str]) -> dict[str, str]:
    return {p: m for p, m in ms.items() if p in names}


def direction(mark: str) -> int:
    """+1 significantly better, -1 significantly worse, 0 otherwise."""
    return 1 if "+" in mark else -1 if "-" in mark else 0


def table1(ctx: ReportContext) -> dict[str, dict[str, int]]:
    """Table 1's classes, features and instances per data set of the experiment."""
    table = read_table(CLASS_COUNTS, "wiering2003")
    cols = ("classes", "features", "instances")
    return {p: {c: int(table.loc[name_key(p), c]) for c in cols} for p in ctx.datasets if name_key(p) in table.index}


def file_counts(ctx: ReportContext, p: str) -> dict[str, int]:
    """Classes, features and instances of data set ``p`` as our prepared table has them."""
    t = load_table(ctx.exp.name, ctx.exp.datasets[p])
    return {"classes": len(t.classes), "features": t.X.shape[1], "instances": t.X.shape[0]}


def nbc_runs(ctx: ReportContext, p: str, denominator: str, n_classes: int, rounding: str | None = None) -> dict:
    """Wiering's NBC as analyse@wiering2003 refitted it (:mod:`nbx.papers.wiering2003.refits`: params.yaml's
    ``learners.nb_wiering``) with P(f|C) over ``denominator`` and counters for
    ``n_classes`` classes (indices beyond the file's never occur: Table 1's extra classes), on every split of ``p``,
    with the standard-deviation discretizer's ``rounding`` (None: the experiment's): test accuracy per split and
    the share of test rows predicted as a class that never occurs."""
    key = (p, denominator, n_classes, rounding)
    for run in (ctx.analysis.get("nbc") or {}).get("runs", []):
        if (run["dataset"], run["denominator"], run["classes"], run["rounding"]) == key:
            return {"acc": np.array(run["accuracy"]), "phantom": run["phantom"]}
    raise MissingInputError(
        f"{layout.analysis(ctx.exp.name)} has no NBC refit of {p} with the {denominator} denominator, {n_classes} "
        f"classes and rounding {rounding or 'of the experiment'}: set params.yaml's analyses.wiering2003 "
        "(denominators, nbc_rounding) and run `dvc repro analyse@wiering2003`"
    )


def phantom_rows(ctx: ReportContext) -> list[str]:
    """The data sets where Table 1 states more classes than the file has."""
    stated = ctx.memo(table1)
    return [p for p in ctx.datasets if p in stated and stated[p]["classes"] > file_counts(ctx, p)["classes"]]


def analysis(ctx: ReportContext) -> dict | None:
    return ctx.analysis or None


PRINTED_ROUNDING = 0.05  # Table 2 prints accuracies and its summary rows to 0.1: each is within ± this of its value


@dataclass(frozen=True)
class PrintedCell:
    """One number of Table 2's printed summary rows beside the same quantity recomputed from its data set rows
    (all of them, Abalone included, as the printed rows are): ``low``-``high`` is what the recomputation can be
    when every printed accuracy moves within its rounding (equal for the win:loss counts, which are exact)."""

    row: str
    learner: str
    printed: float | tuple[int, int]
    recomputed: float | tuple[int, int]
    low: float | None = None
    high: float | None = None

    @property
    def matches(self) -> bool:
        """Within rounding: the printed value's interval (± :data:`PRINTED_ROUNDING`) meets the recomputation's
        (``low``-``high``); win:loss counts must be equal."""
        if self.low is None:
            return self.printed == self.recomputed
        return self.printed - PRINTED_ROUNDING <= self.high and self.printed + PRINTED_ROUNDING >= self.low

    def text(self, value) -> str:
        return "%d:%d" % value if isinstance(value, tuple) else f"{value:.1f}"


def printed_summary() -> list[PrintedCell]:
    """Table 2's printed summary rows (paper.yaml's ``printed``) against the same rows recomputed from its
    wiering2003_table2.csv: average accuracy (± the rounding of the mean of rounded accuracies), Bauer &
    Kohavi's average error reduction vs the NBC (its range when each accuracy moves within its rounding: the
    reduction 1 − e_x/e_NBC is smallest with the NBC's accuracy up and the learner's down) and the significant
    win:loss counted from the marks (a `-` is a loss: the text lost `--`)."""
    table = read_table("wiering2003_table2.csv", "wiering2003")
    acc = {x: table[col.replace("_sig", "_acc")].to_numpy(float) for x, col in SIG_COLUMNS.items()}
    acc[NB] = table["nbc_acc"].to_numpy(float)
    r = PRINTED_ROUNDING

    def reduction(nb: np.ndarray, x: np.ndarray) -> float:
        return 100 * float(np.mean(((100 - nb) - (100 - x)) / (100 - nb)))

    out = []
    for x, value in PRINTED["average_accuracy"].items():
        mean = float(acc[x].mean())
        out.append(PrintedCell("average accuracy", x, value, mean, mean - r, mean + r))
    for x, value in PRINTED["error_reduction"].items():
        lo, hi = reduction(acc[NB] + r, acc[x] - r), reduction(acc[NB] - r, acc[x] + r)
        out.append(PrintedCell("average error reduction %", x, value, reduction(acc[NB], acc[x]), lo, hi))
    for x, (wins, losses) in PRINTED["win_loss"].items():
        marks = [str(m) for m in table[SIG_COLUMNS[x]]]
        counted = (sum("+" in m for m in marks), sum("-" in m for m in marks))
        out.append(PrintedCell("significant win:loss", x, (wins, losses), counted))
    return out
