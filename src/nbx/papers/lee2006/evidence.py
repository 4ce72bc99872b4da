"""The evidence of Lee, Greiner & Wang (2006)'s report: the learner names of each comparison (``published/paper.yaml``),
the pooled one-sided paired t-tests of figures 2 and 3 over the stored fold accuracies, and what the stored
predictions measure (how often two learners predict the same class, how far the class-sorted parts are from the
class split). Sections and claims read it; it imports none of them. Nothing here fits a model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats as sps

from nbx.pipeline import layout
from nbx.report import claims
from nbx.report.context import ReportContext
from nbx.report.paper import paper_data
from nbx.report.tables import fmt

ALPHA = 0.05
KS = (2, 3, 4)
ADA_ROUNDS = (10, 25)  # AdaBoost rounds T beside T = k (Fig. 2(d) does not give T)
STRUCTURES = {"nb": "nb_laplace", "tan": "tan"}  # base structure -> its single classifier (1NB, 1TAN)
PAPER = paper_data("lee2006")
NAMES = PAPER["learners"]  # display names: 1NB, 1TAN
RULE_NAMES = PAPER["rules"]  # §4.5's five rules, SumP/V (js) first
SUMPV = RULE_NAMES["js"]  # the MUV rule
RULES = {r: t for r, t in RULE_NAMES.items() if r != "js"}  # the four rules it is compared with


def muv(structure: str, k: int | None, sampling: str, combiner: str) -> str:
    """Learner name of MUV(k structure, <sampling>, combiner) in params.yaml (k None: skewed, one per class)."""
    return f"muv_{structure}{'' if k is None else k}_{sampling}_{combiner}"


# ------------------------------------------------------------------------------------ pure helpers
def one_sided_p(better: np.ndarray, worse: np.ndarray) -> float:
    """p of the one-sided paired t-test, H1: mean(better - worse) > 0. Constant differences (no variance):
    0 if positive, 0.5 if zero (t = 0), 1 if negative."""
    d = np.asarray(better, float) - np.asarray(worse, float)
    if d.size < 2:
        return float("nan")
    if np.allclose(d, d[0], rtol=0, atol=1e-12):
        return 0.0 if d[0] > 1e-12 else (0.5 if abs(d[0]) <= 1e-12 else 1.0)
    return float(sps.ttest_rel(better, worse, alternative="greater").pvalue)


def status(mean_diff: float, p: float, alpha: float = ALPHA) -> str:
    """A part with the paper's own test (its one-sided paired t-test over the situations): holds (paper's sign,
    p < alpha), direction only (sign only) or fails (:func:`nbx.report.claims.paper_test_status`)."""
    return claims.paper_test_status(mean_diff, p, alpha)


@dataclass(frozen=True)
class Comparison:
    key: str  # file stem of the CSV, e.g. "fig2a_boot"
    title: str  # e.g. "2(a) js vs mle (boot,bal)"
    better: str  # axis label of the side the paper says is better (y)
    worse: str  # and of the other side (x)
    pairs: tuple[tuple[str, str], ...]  # (better learner, worse learner), pooled
    paper_p: float | None  # the paper's bound "p < paper_p"
    nonbinary: bool = False  # pool over the data sets with more than two classes only

    def restricted(self, has: Callable[..., bool]) -> Comparison:
        """The pairs whose two learners were run."""
        return replace(self, pairs=tuple(p for p in self.pairs if has(*p)))


@dataclass
class Outcome:
    comparison: Comparison
    n: int  # pooled situations
    mean_diff: float  # mean of better - worse, accuracy points
    p: float  # pooled one-sided p
    means: dict[str, tuple[float, float]]  # data set -> (worse %, better %), averaged over pairs and folds
    p_datasets: float  # one-sided p over the per-data-set means
    wins: int
    losses: int

    @property
    def status(self) -> str:
        return status(self.mean_diff, self.p)


def evaluate(comp: Comparison, split_acc: Callable[[str, str], np.ndarray], datasets) -> Outcome | None:
    """Pool ``comp``'s pairs over ``datasets`` and folds; ``split_acc(dataset, learner)`` gives fold accuracies
    (fractions, same fold order for every learner). None when no pair is left."""
    if not comp.pairs or not datasets:
        return None
    better, worse, means = [], [], {}
    for ds in datasets:
        b = np.concatenate([split_acc(ds, hi) for hi, _ in comp.pairs])
        w = np.concatenate([split_acc(ds, lo) for _, lo in comp.pairs])
        better.append(b)
        worse.append(w)
        means[ds] = (100 * float(w.mean()), 100 * float(b.mean()))
    b, w = np.concatenate(better), np.concatenate(worse)
    x, y = np.array(list(means.values())).T
    return Outcome(
        comp,
        len(b),
        100 * float((b - w).mean()),
        one_sided_p(b, w),
        means,
        one_sided_p(y, x),
        int(np.sum(y > x)),
        int(np.sum(y < x)),
    )


# ------------------------------------------------------------------------------------ comparisons
def comparisons() -> dict[str, Comparison]:
    """Every pooled test by key; ``paper_p`` is the paper's bound (paper.yaml), that of the default reading for
    the alternatives."""
    xis = [(s, k) for s in STRUCTURES for k in KS]
    bound = PAPER["p_values"]
    c = {}
    for sampling in ("boot", "disj"):
        pairs = tuple((muv(s, k, f"{sampling}_bal", "js"), muv(s, k, f"{sampling}_bal", "mle")) for s, k in xis)
        key, title = f"fig2a_{sampling}", f"2(a) js vs mle, {sampling},bal"
        c[key] = Comparison(
            key, title, f"MUV(ξ, {sampling},bal, js)", f"MUV(ξ, {sampling},bal, mle)", pairs, bound[key]
        )
        c[f"{key}_nonbinary"] = replace(
            c[key], key=f"{key}_nonbinary", title=f"{title}, non-binary sets only", paper_p=None, nonbinary=True
        )
    c["fig2b"] = Comparison(
        "fig2b",
        "2(b) boot vs disj (bal, js)",
        "MUV(ξ, boot,bal, js)",
        "MUV(ξ, disj,bal, js)",
        tuple((muv(s, k, "boot_bal", "js"), muv(s, k, "disj_bal", "js")) for s, k in xis),
        bound["fig2b"],
    )
    c["fig2c"] = Comparison(
        "fig2c",
        "2(c) bal vs skew (js), one member per class",
        "MUV(ξ, boot,bal, js)",
        "MUV(NB/TAN per class, disj,skew, js)",
        tuple((muv(s, k, "boot_bal", "js"), muv(s, None, "disj_skew", "js")) for s, k in xis),
        bound["fig2c"],
    )
    c["fig2c_sorted"] = Comparison(
        "fig2c_sorted",
        "2(c) bal vs skew (js), k class-sorted parts (alternative)",
        "MUV(ξ, boot,bal, js)",
        "MUV(ξ, disj,skew, js)",
        tuple((muv(s, k, "boot_bal", "js"), muv(s, k, "disj_skew", "js")) for s, k in xis),
        bound["fig2c"],
    )
    c["fig2d"] = Comparison(
        "fig2d",
        "2(d) MUV(kNB, Ada, js) vs AdaBoost(NB), T = k",
        "MUV(kNB, Ada, js)",
        "AdaBoost(NB)",
        tuple((f"muv_nb{k}_ada_js", f"adaboost_nb{k}") for k in KS),
        bound["fig2d"],
    )
    for t in ADA_ROUNDS:
        c[f"fig2d_t{t}"] = Comparison(
            f"fig2d_t{t}",
            f"2(d) MUV(Ada, js) vs AdaBoost(NB), T = {t} (alternative)",
            f"MUV({t}NB, Ada, js)",
            f"AdaBoost(NB), T = {t}",
            ((f"muv_nb{t}_ada_js", f"adaboost_nb{t}"),),
            bound["fig2d"],
        )
    for s, single in STRUCTURES.items():
        key = f"fig3a_1{s}"
        c[key] = Comparison(
            key,
            f"3(a) {SUMPV} vs {NAMES[single]}",
            f"{SUMPV} (k{s.upper()})",
            NAMES[single],
            tuple((muv(s, k, "boot_bal", "js"), single) for k in KS),
            bound[key],
        )
    for rule, name in RULES.items():
        c[f"fig3a_{rule}"] = Comparison(
            f"fig3a_{rule}",
            f"3(a) {SUMPV} vs {name}",
            f"{SUMPV} (ξ)",
            f"{name} (ξ)",
            tuple((muv(s, k, "boot_bal", "js"), muv(s, k, "boot_bal", rule)) for s, k in xis),
            bound[f"fig3a_{rule}"],
        )
    for rule, name in RULES.items():
        c[f"fig3b_{rule}"] = Comparison(
            f"fig3b_{rule}",
            f"3(b) MUV[MUV] vs {name}[MUV]",
            f"{SUMPV}[MUV]",
            f"{name}[MUV]",
            (("muv_of_muv_js", f"muv_of_muv_{rule}"),),
            bound.get(f"fig3b_{rule}"),
        )
    return c


FIGURES = {
    "fig2a": ["fig2a_boot", "fig2a_disj"],
    "fig2b": ["fig2b"],
    "fig2c": ["fig2c", "fig2c_sorted"],
    "fig2d": ["fig2d"] + [f"fig2d_t{t}" for t in ADA_ROUNDS],
    "fig3a": ["fig3a_1nb", "fig3a_1tan"] + [f"fig3a_{r}" for r in RULES],
    "fig3b": [f"fig3b_{r}" for r in RULES],
}


def nonbinary_datasets(ctx: ReportContext) -> list[str]:
    return [p for p in ctx.datasets if len(np.unique(ctx.labels(p))) > 2]


def outcomes(ctx: ReportContext) -> dict[str, Outcome | None]:
    """Every comparison pooled over the data sets (shared by sections and claims: ``ctx.memo(outcomes)``)."""
    datasets, nonbinary = list(ctx.datasets), nonbinary_datasets(ctx)
    return {
        key: evaluate(comp.restricted(ctx.has), ctx.split_acc, nonbinary if comp.nonbinary else datasets)
        for key, comp in comparisons().items()
    }


def agreement(ctx: ReportContext, a: str, b: str) -> float | None:
    """Fraction of test queries (all data sets and folds) on which learners a and b predict the same class,
    from their stored predictions; None when some are missing."""
    same = total = 0
    for ds in ctx.datasets.values():
        paths = [layout.predictions(ctx.exp.name, x, ds) for x in (a, b)]
        if not all(path.exists() for path in paths):
            return None
        with np.load(paths[0]) as za, np.load(paths[1]) as zb:
            if not (np.array_equal(za["split"], zb["split"]) and np.array_equal(za["row"], zb["row"])):
                return None
            same += int(np.sum(za["proba"].argmax(axis=1) == zb["proba"].argmax(axis=1)))
            total += za["proba"].shape[0]
    return same / total if total else None


def sorted_part_classes(counts, k: int) -> np.ndarray:
    """(k, K) class counts of the k class-sorted contiguous parts of a training set with class counts
    ``counts`` (unit weights): ``MUV(skew="sorted")`` puts the i-th row in class order (i = 0..n-1) into part
    i·k // n (:func:`nbx.models.muv._class_sorted_parts`), which depends on the class counts only."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    ends = np.cumsum(counts)
    starts = ends - counts
    cut = -(-np.arange(k + 1) * n // k)  # part j holds positions [ceil(j n / k), ceil((j + 1) n / k))
    lo = np.maximum(starts[None, :], cut[:-1, None])
    hi = np.minimum(ends[None, :], cut[1:, None])
    return np.maximum(hi - lo, 0)


def class_split_distance(ctx: ReportContext, learner: str) -> dict[str, tuple[float, float]]:
    """Per two-class data set: how far ``MUV(skew="sorted")``'s k = 2 parts are from §4.3's split into the
    positive and the negative rows, mean over folds: (% of the training rows in the part of the other class,
    % of the mixed part's rows that belong to the class it does not hold wholly). The training rows of each
    fold are those not in its test rows (``learner``'s stored predictions; cross-validation)."""
    out = {}
    for p, ds in ctx.datasets.items():
        labels = ctx.labels(p)
        classes, y = np.unique(labels, return_inverse=True)
        path = layout.predictions(ctx.exp.name, learner, ds)
        if len(classes) != 2 or not path.exists():
            continue
        with np.load(path) as z:
            split, row = z["split"], z["row"]
        total = np.bincount(y, minlength=2)
        moved, mixed = [], []
        for s in np.unique(split):
            parts = sorted_part_classes(total - np.bincount(y[row[split == s]], minlength=2), 2)
            off = parts[0, 1] + parts[1, 0]  # rows outside their class's part (class j belongs to part j)
            moved.append(off / parts.sum())
            mixed.append(off / parts[np.argmax(parts.min(axis=1))].sum())
        out[p] = (100 * float(np.mean(moved)), 100 * float(np.mean(mixed)))
    return out


# ------------------------------------------------------------------------------------ derived numbers
def mean_accuracy(ctx: ReportContext, ds: str, learners: list[str]) -> float:
    """Mean accuracy (%) over learners' folds (folds weigh equally, as in the pooled tests)."""
    return 100 * float(np.mean(np.concatenate([ctx.split_acc(ds, x) for x in learners])))


def learners_of(*keys: str) -> list[str]:
    """Every learner the comparisons ``keys`` pair, sorted."""
    comps = comparisons()
    return sorted({x for k in keys for pair in comps[k].pairs for x in pair})


def ada_learners(rounds: int | None) -> tuple[list[str], list[str]]:
    """(AdaBoost(NB) learners, MUV(Ada) learners) with T = k = 2, 3, 4 (rounds None) or T = rounds."""
    ts = KS if rounds is None else (rounds,)
    return [f"adaboost_nb{t}" for t in ts], [f"muv_nb{t}_ada_js" for t in ts]


def adaboost_rows(ctx: ReportContext, rounds: int | None) -> tuple[list[list[str]], dict, dict, list[str]]:
    """Per data set: classes, 1NB, mean over k of AdaBoost(NB) and MUV(kNB,Ada,js) (T = k, or T = rounds), and
    their drops below 1NB (shared by figure 2 and L4: ``ctx.memo(adaboost_rows, rounds)``)."""
    rows, drop_muv, drop_ada, nonbinary = [], {}, {}, []
    boosts, muvs = ada_learners(rounds)
    for p in ctx.datasets:
        k_classes = len(np.unique(ctx.labels(p)))
        nb = mean_accuracy(ctx, p, ["nb_laplace"])
        ada = mean_accuracy(ctx, p, boosts)
        mv = mean_accuracy(ctx, p, muvs)
        drop_ada[p], drop_muv[p] = nb - ada, nb - mv
        if k_classes > 2:
            nonbinary.append(p)
        rows.append([p, str(k_classes), fmt(nb, 2), fmt(ada, 2), fmt(mv, 2), f"{nb - ada:+.2f}", f"{nb - mv:+.2f}"])
    return rows, drop_muv, drop_ada, nonbinary


def skew_evidence(ctx: ReportContext) -> dict[str, str]:
    """Fig. 2(c)'s two readings measured: how often each skewed MUV predicts the class of its single base
    classifier (1NB / 1TAN), from the stored predictions, and how far the k = 2 class-sorted parts are from
    §4.3's split into positives and negatives (:func:`class_split_distance`)."""
    same = {s: fmt_share(agreement(ctx, muv(s, None, "disj_skew", "js"), single)) for s, single in STRUCTURES.items()}
    sorted_same = [agreement(ctx, muv(s, k, "disj_skew", "js"), one) for s, one in STRUCTURES.items() for k in KS]
    sorted_same = [x for x in sorted_same if x is not None]
    distance = class_split_distance(ctx, muv("nb", 2, "disj_skew", "js"))
    moved = np.array([m for m, _ in distance.values()])
    return {
        "per_class_nb": same["nb"],
        "per_class_tan": same["tan"],
        "sorted_range": f"{fmt_share(min(sorted_same))} to {fmt_share(max(sorted_same))}" if sorted_same else "–",
        "moved": (
            f"{moved.min():.1f}% to {moved.max():.1f}% (mean {moved.mean():.1f}%) of the training rows lie in the "
            f"part of the other class on our {len(moved)} two-class data sets"
            if len(moved)
            else "(the class-sorted MUVs were not run)"
        ),
    }


# ------------------------------------------------------------------------------------ numbers as text
def fmt_p(p: float | None) -> str:
    """A p-value to two significant digits, "–" when there is none."""
    return "–" if p is None or not np.isfinite(p) else f"{p:.2g}"


def fmt_share(x: float | None) -> str:
    """A share (0-1) as a percentage, "–" when there is none."""
    return "–" if x is None else f"{100 * x:.2f}%"
