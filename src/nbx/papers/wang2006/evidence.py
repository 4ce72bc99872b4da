"""Wang et al. (2006): the evidence the sections, claims and gaps read: the paper's data (published/paper.yaml, its
Table 1 marks), pure statistics (Spearman with exact small-sample p-values, within-class skewness, paired
comparisons and their win/loss counts), and what they are computed on per report (numeric attributes, S-NBTree
against NBTree and the kernel comparisons, fit_info of the trees and the bandwidth searches)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats as sps

from nbx.pipeline.inputs import load_table
from nbx.report.context import ReportContext
from nbx.report.paper import paper_data
from nbx.stats import significance as stats

DATA = paper_data("wang2006")
PAPER, REFERENCE, NAMES = DATA["learners"], DATA["reference"], DATA["names"]
READINGS = DATA["readings"]  # per ambiguous point: default learner -> the alternative reading's learner
KERNEL_COMPARISONS = {  # S3: kernel densities against Gaussian ones and against discretization
    "GNB kernel − Gauss": ("gnb", "gnb_gaussian"),
    "S-NBTree kernel − Gauss": ("snbtree", "snbtree_gaussian"),
    "GNB kernel − NB (MDL bins)": ("gnb", "nb_laplace"),
}
KERNEL_LEARNERS = list(dict.fromkeys(x for pair in KERNEL_COMPARISONS.values() for x in pair))
FAR_BELOW = 10.0  # points by which a published C4.5 accuracy must trail ours to be called "far below"
ALPHA = 0.05
DEFAULT = "default"  # the name of the default reading in the claims' per-reading verdicts
EXACT_N = 8  # up to 8! = 40320 orderings: exact Spearman p-values


def spearman(x, y) -> tuple[float, float]:
    """Spearman rank correlation and its two-sided p-value; NaN when fewer than 3 pairs or a constant input.

    With n <= EXACT_N pairs the p-value is exact (all n! orderings of y's ranks), since the t approximation
    scipy uses is far off there (it gives p = 0 for any perfect ranking, even of 3 points)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan")
    rho = float(sps.spearmanr(x, y).statistic)
    if len(x) > EXACT_N:
        return rho, float(sps.spearmanr(x, y).pvalue)
    rx, ry = sps.rankdata(x), sps.rankdata(y)
    perms = ry[np.array(list(itertools.permutations(range(len(ry)))))]
    rx, perms = rx - rx.mean(), perms - ry.mean()
    null = perms @ rx / np.sqrt((rx**2).sum() * (perms**2).sum(1))
    return rho, float(np.mean(np.abs(null) >= abs(rho) - 1e-12))


def within_class_skewness(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per column: |sample skewness| within each class, averaged with class-size weights (NaN-aware).

    NB's Gaussian leaves assume each attribute is normal *given the class* (Wang et al. §4), so skewness is
    measured inside classes. Columns constant within every class give NaN."""
    X = np.asarray(X, float)
    total = np.zeros(X.shape[1])
    weight = np.zeros(X.shape[1])
    for c in np.unique(y):
        Xc = X[y == c]
        known = ~np.isnan(Xc)
        n = known.sum(0)
        mu = np.where(known, Xc, 0).sum(0) / np.maximum(n, 1)
        d = np.where(known, Xc - mu, 0)
        m2, m3 = (d**2).sum(0) / np.maximum(n, 1), (d**3).sum(0) / np.maximum(n, 1)
        # a column with a single value in this class has no shape (and m2 is rounding noise)
        spread = np.where(known, Xc, -np.inf).max(0) > np.where(known, Xc, np.inf).min(0)
        ok = (n >= 3) & spread
        g = np.abs(m3) / np.where(ok, m2, 1.0) ** 1.5
        total += np.where(ok, n * g, 0)
        weight += np.where(ok, n, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weight > 0, total / weight, np.nan)


def pairwise(a: dict[str, np.ndarray], b: dict[str, np.ndarray], test_fraction: dict[str, float]) -> pd.DataFrame:
    """Per data set: mean accuracy difference a - b (points), plain paired-t and corrected resampled-t p (with the
    data set's share of rows tested, ``test_fraction[p]``)."""
    rows = []
    for p in a:
        x, z = np.asarray(a[p]), np.asarray(b[p])
        rows.append(
            {
                "dataset": p,
                "diff": 100 * float(np.mean(x - z)),
                "p_t": stats.paired_t(x, z),
                "p_corr": stats.corrected_t(x, z, test_fraction[p]),
            }
        )
    return pd.DataFrame(rows, columns=["dataset", "diff", "p_t", "p_corr"]).set_index("dataset")


def counts(diff, p=None) -> tuple[int, int, int]:
    """(wins, losses, ties) of the diffs; with p-values, only those with p < ALPHA count as wins/losses."""
    diff = np.asarray(diff, float)
    sig = np.ones(len(diff), bool) if p is None else np.asarray(p, float) < ALPHA
    wins, losses = int(np.sum((diff > 0) & sig)), int(np.sum((diff < 0) & sig))
    return wins, losses, len(diff) - wins - losses


def numeric_attributes(ctx: ReportContext) -> pd.DataFrame:
    """Per available data set: number and fraction of numeric attributes and mean within-class |skewness|
    of the numeric ones (from the prepared tables, before imputation)."""
    rows = []
    for p, ds in ctx.datasets.items():
        t = load_table(ctx.exp.name, ds)
        numeric = t.n_values == 0
        skew = within_class_skewness(t.X[:, numeric], t.y) if numeric.any() else np.array([])
        rows.append(
            {
                "dataset": p,
                "attributes": len(numeric),
                "numeric": int(numeric.sum()),
                "fraction": float(numeric.mean()),
                "skew": float(np.nanmean(skew)) if np.isfinite(skew).any() else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=["dataset", "attributes", "numeric", "fraction", "skew"]).set_index("dataset")


def learner_pairwise(ctx: ReportContext, a: str, b: str, names=None) -> pd.DataFrame:
    names = list(names if names is not None else ctx.datasets)
    return pairwise(
        {p: ctx.split_acc(p, a) for p in names},
        {p: ctx.split_acc(p, b) for p in names},
        {p: ctx.test_fraction(p) for p in names},
    )


def paper_marks(ctx: ReportContext) -> dict[str, str]:
    """The paper's ✓/× column of Table 1 by paper data set name."""
    from nbx.report.published import name_key, read_table

    spec = next((s for s in ctx.exp.published if s["table"] == "wang2006_table1.csv"), None)
    if spec is None:
        return {}
    table = read_table(spec["table"], "wang2006")
    return {p: str(table.loc[name_key(p), DATA["mark_column"]]) for p in ctx.exp.datasets if name_key(p) in table.index}


def bandwidth_shares(ctx: ReportContext, learner: str, names: list[str]) -> dict[str, tuple[float, float]]:
    """Per data set: % of (numeric attribute, class) bandwidth searches of ``learner`` that ended at the §4
    grid's lower (0.2) and upper (0.8) bound, mean over folds."""
    info = ctx.fit_info(learner) if ctx.has(learner) else {}
    out = {}
    for p in names:
        runs = [r for r in info.get(ctx.exp.datasets[p], []) if r and r.get("kernel_c_at_min") is not None]
        if runs:
            out[p] = (
                100 * np.mean([r["kernel_c_at_min"] for r in runs]),
                100 * np.mean([r["kernel_c_at_max"] for r in runs]),
            )
    return out


def root_splits(ctx: ReportContext, learner: str) -> dict[str, tuple[int, int]]:
    """Per data set: (folds whose tree split its root, folds) of ``learner``, from its fit_info ({} when
    the learner did not run or records no tree)."""
    info = ctx.fit_info(learner) if ctx.has(learner) else {}
    out = {}
    for p, ds in ctx.datasets.items():
        runs = [r for r in info.get(ds, []) if r and "root_split" in r]
        if runs:
            out[p] = (sum(bool(r["root_split"]) for r in runs), len(runs))
    return out


def folds_text(ctx: ReportContext) -> str:
    p = ctx.exp.protocol
    return f"{p.get('folds', '?')} folds" if p.get("kind") == "cv" else "splits"


def snbtree_vs_nbtree(ctx: ReportContext) -> pd.DataFrame:
    return ctx.memo(learner_pairwise, "snbtree", "nbtree")


def paper_difference(ctx: ReportContext) -> list[float]:
    """The paper's S-NBTree − NBTree accuracy difference (Table 1) per data set of :func:`snbtree_vs_nbtree`."""
    return [ctx.published_acc(p, "snbtree") - ctx.published_acc(p, "nbtree") for p in snbtree_vs_nbtree(ctx).index]


def with_numeric(ctx: ReportContext) -> list[str]:
    """The available data sets with at least one numeric attribute."""
    info = ctx.memo(numeric_attributes)
    return [p for p in ctx.datasets if info.loc[p, "numeric"] > 0]


def kernel_comparisons(ctx: ReportContext) -> dict[str, pd.DataFrame]:
    """:data:`KERNEL_COMPARISONS` over the data sets with numeric attributes."""
    return {label: learner_pairwise(ctx, a, b, with_numeric(ctx)) for label, (a, b) in KERNEL_COMPARISONS.items()}


def alternative(ctx: ReportContext, learner: str) -> dict[str, str]:
    """The alternative readings' learners of ``learner`` that ran: reading title -> learner (paper.yaml)."""
    titles = {
        "kernel_unit": "h in within-class std",
        "kernel_unit_raw": "h in the attribute's units",
        "root_split": "root always split (Fig. 2)",
    }
    return {titles[k]: alts[learner] for k, alts in READINGS.items() if learner in alts and ctx.has(alts[learner])}


def snbtree_readings(ctx: ReportContext) -> dict[str, pd.DataFrame]:
    """S-NBTree − NBTree under each alternative reading that ran."""
    return {r: ctx.memo(learner_pairwise, x, "nbtree") for r, x in alternative(ctx, "snbtree").items()}
