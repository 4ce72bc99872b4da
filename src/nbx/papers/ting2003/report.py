"""Report sections of Ting & Zheng (2003), "A study of AdaBoost with naive Bayesian classifiers: weakness and
improvement": Tables 2, 3 and 4 with the paper's numbers beside ours, Figure 3's ratios, the restarts of
Figure 2 at T = 100, the §6 linear-form check, and claims T1-T5.

Protocol (§4): ten 3-fold CVs; "the reported value is an average value over the ten threefold
cross-validations"; error ratio A/B = ε_A/ε_B per domain, averaged over domains (Table 2-3 "Mean" rows); the
w/l record counts domains where A's error is lower / higher (ties, which the paper never has, are dropped);
a one-tailed sign test on it. Mean relative error reduction = 1 - mean ratio (the paper: ratio 0.96 is
"only 4%", 0.84 is "16%"). The paper's w/l and means are over 25 domains; we have fewer (see "Data sets"),
so every summary also shows the paper's numbers recomputed on *our* domains from its per-domain values.
Table 3 gives BLNBT(d) only as a ratio to LNBT(d) (two decimals): the paper's w/l on our domains counts
ratio 1.00 as a tie, and the paper's BLNBT(d) errors used for T3 / Figure 3 are err·ratio (approximate).

§3.2 (iii)'s 30-example rule has two readings (``LeveledNBTree(min_split_on=...)``); the default is the one
the paper's own tree statistics (§4.2 mean depths, shallow domains, the LNBT(3) = LNBT(10) plateau) support,
and the other runs as the ``*_node`` cells. Numeric attributes have three readings: multiway tests on their MDL
codes, each once per path (the default: §3.1 "Continuous attributes are preprocessed using an entropy-based
discretization method", an explicit sentence, outranks Figure 1's caption "Temperature > 70°C"); binary
threshold tests on the codes with the cut attribute left out of the leaf NBs below it (``*_threshold``, §3.2 (ii)
read literally); threshold tests with the cut attribute kept until the path fixes its value (``*_keepcut``).
:func:`depth_section` and :func:`numeric_tests_section` weigh them against §4.2's depths and Tables 2-3; claims
T2-T4 give a verdict per reading. ``GAPS`` measures the causes of the largest gaps (``*_missvalue``: '?' read as
a value).

The learner lists and the numbers the paper states in its text are in ``published/paper.yaml``, its tables in
the CSV files beside it.

Table 4 (§4.3) is the Kohavi-Wolpert decomposition (eq. 5, bias including the noise) of each domain's ten
repeated predictions of every example (:func:`kohavi_wolpert`), averaged over domains.

Claims are judged by the rubric of :mod:`nbx.report.claims` (README, "Reading the results") over their stated
parts. A number holds within the paper's printed precision or 2 std of our estimate
(:func:`nbx.report.claims.std_of_average` of per-repetition values over our domains) of the paper's value
recomputed on our domains (the paper's over 25 shown beside); a w/l record holds when it equals the paper's on
our domains; "significantly" is the one-tailed sign test at 0.05. The parts:
- T1: boosting does not win significantly more often (p >= 0.05, as the paper's 0.345); its w/l; the mean
  relative error reduction (4%); the mean errors of NB and boosted NB (20.2 -> 19.3).
- T2: the mean ratio BLNBT(d)/LNBT(d) at d = 0 (0.96) and at each d >= 3 (0.74); significant at each d >= 3.
- T3, under each reading of the tree (default, node rule, threshold tests, keep-cut): BLNBT(10)'s mean relative error
  reduction over NB (16%) and over BLNBT(0) (15%); its w/l over BLNBT(0) (18/7), significant (p = 0.0216).
- T4: each inequality on the domain-averaged bias and variance (trees lower the bias and raise the variance of
  NB, LNBT(d) vs LNBT(0) for d = 1, 3, 5, 10; boosting lowers both, BLNBT(d) vs LNBT(d) for d = 3, 5, 10); the
  paper states directions, no test.
- T5 from the synthetic check (:mod:`nbx.papers.ting2003.checks`): the Real-AdaBoost vote of a boosted NB
  equals one linear form in per-attribute terms up to rounding (max deviation and least-squares residual
  <= 1e-9 relative to max |H|) and the K-class gap is class-independent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nbx.pipeline import layout
from nbx.pipeline.inputs import load_folds, load_plan
from nbx.report import claims
from nbx.report.claims import NOT_TESTABLE, Verdict
from nbx.report.context import ReportContext
from nbx.report.figures import figure_path, plt, save_figure
from nbx.report.paper import CLAIMS_SECTION, paper_data
from nbx.report.published import folder, name_key, read_table
from nbx.report.tables import fmt, md_table
from nbx.stats import significance as stats
from nbx.stats.bias_variance import BiasVariance, kohavi_wolpert

PAPER = paper_data("ting2003")
LNBT, BLNBT = PAPER["lnbt"], PAPER["blnbt"]  # our learner by maximum tree depth d
DEPTHS = tuple(LNBT)
LNBT_NODE, BLNBT_NODE = PAPER["lnbt_node"], PAPER["blnbt_node"]
LNBT_THRESHOLD, BLNBT_THRESHOLD = PAPER["lnbt_threshold"], PAPER["blnbt_threshold"]
LNBT_KEEPCUT, BLNBT_KEEPCUT = PAPER["lnbt_keepcut"], PAPER["blnbt_keepcut"]
MISSVALUE = PAPER["missvalue"]  # default learner -> the same with '?' read as a value
DEFAULT_READING = "default (multiway)"
# the readings of the numeric tests (children rule): name -> (LNBT by d, BLNBT by d); the default first
TEST_READINGS = {
    DEFAULT_READING: (LNBT, BLNBT),
    "threshold": ({0: LNBT[0], **LNBT_THRESHOLD}, {0: BLNBT[0], **BLNBT_THRESHOLD}),
    "keep-cut": ({0: LNBT[0], **LNBT_KEEPCUT}, {0: BLNBT[0], **BLNBT_KEEPCUT}),
}
PAPER_DOMAINS = PAPER["domains"]
T5_TOLERANCE = 1e-9  # relative to max |H|


# ------------------------------------------------------------------------------------------ pure helpers
@dataclass
class Record:
    """A vs B over domains: wins (A's error lower), losses, ties, one-tailed sign-test p, mean ratio A/B."""

    wins: int
    losses: int
    ties: int
    p: float
    mean_ratio: float
    n: int

    @property
    def reduction(self) -> float:
        """Mean relative error reduction of A over B, % (1 - mean ratio)."""
        return 100.0 * (1.0 - self.mean_ratio)

    @property
    def wl(self) -> str:
        return f"{self.wins}/{self.losses}" + (f" ({self.ties} tie{'s' * (self.ties > 1)})" if self.ties else "")


def mean_ratio(err_a, err_b) -> float:
    """Mean of ε_A/ε_B over the domains where ε_B > 0 (the ratio is undefined otherwise)."""
    a, b = np.asarray(err_a, float), np.asarray(err_b, float)
    ok = b > 0
    return float(np.mean(a[ok] / b[ok])) if ok.any() else float("nan")


def record_from_diff(diff, ratios) -> Record:
    """w/l from per-domain signed differences (negative = A better), ties where 0; ``ratios`` A/B."""
    d = np.asarray(diff, float)
    wins, losses = int((d < 0).sum()), int((d > 0).sum())
    r = np.asarray(ratios, float)
    r = r[np.isfinite(r)]
    return Record(
        wins,
        losses,
        int(d.size - wins - losses),
        stats.sign_test(wins, losses),
        float(r.mean()) if r.size else float("nan"),
        int(d.size),
    )


def compare(err_a, err_b) -> Record:
    """Record of A vs B from per-domain errors (same domain order)."""
    a, b = np.asarray(err_a, float), np.asarray(err_b, float)
    ratios = np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)
    return record_from_diff(np.round(a - b, 9), ratios)  # rounding: equal errors are ties, not float noise


def compare_ratios(ratios) -> Record:
    """Record from published ratios only (Table 3): ratio < 1 a win, > 1 a loss, 1.00 a tie."""
    r = np.asarray(ratios, float)
    return record_from_diff(np.round(r - 1.0, 9), r)


def t4_checks(bias: dict[str, float], variance: dict[str, float], lnbt=LNBT, blnbt=BLNBT) -> list[tuple[str, bool]]:
    """The inequalities of T4 on domain-averaged bias/variance keyed by learner name, for the learners ``lnbt`` /
    ``blnbt`` (by d) of one reading."""
    out = []
    for d in (1, 3, 5, 10):
        lo, base = lnbt.get(d), lnbt[0]
        if lo in bias and base in bias:
            out.append((f"bias LNBT({d}) {fmt(bias[lo], 2)} < LNBT(0) {fmt(bias[base], 2)}", bias[lo] < bias[base]))
            out.append(
                (
                    f"variance LNBT({d}) {fmt(variance[lo], 2)} > LNBT(0) {fmt(variance[base], 2)}",
                    variance[lo] > variance[base],
                )
            )
    for d in (3, 5, 10):
        lo, bo = lnbt.get(d), blnbt.get(d)
        if lo in bias and bo in bias:
            out.append((f"bias BLNBT({d}) {fmt(bias[bo], 2)} < LNBT({d}) {fmt(bias[lo], 2)}", bias[bo] < bias[lo]))
            out.append(
                (
                    f"variance BLNBT({d}) {fmt(variance[bo], 2)} < LNBT({d}) {fmt(variance[lo], 2)}",
                    variance[bo] < variance[lo],
                )
            )
    return out


def t5_status(result: dict) -> str:
    """T5's one part: the Real-AdaBoost vote of a boosted NB is one linear form up to rounding (max deviation and
    least-squares residual <= T5_TOLERANCE relative to max |H|) and the K-class gap is class-independent."""
    two = result["two_class"]
    scale = max(1.0, two["max_abs_H"])
    exact = (
        two["max_abs_deviation"] <= T5_TOLERANCE * scale
        and two["lstsq_boosted_nb"]["max_abs"] <= T5_TOLERANCE * scale
        and result["multiclass"]["max_abs_class_dependent_gap"] <= T5_TOLERANCE * scale
    )
    return claims.HOLDS if exact else claims.FAILS


def count_status(ours: Record, paper: Record) -> str:
    """A w/l record the paper states: our counts equal its counts on the same domains (whole numbers, exact)."""
    return claims.HOLDS if (ours.wins, ours.losses) == (paper.wins, paper.losses) else claims.FAILS


def sign_test_status(rec: Record) -> str:
    """A "significantly more often" the paper states: the one-tailed sign test at 0.05 in its direction."""
    return claims.sign_status(rec.wins - rec.losses, rec.p)


# ------------------------------------------------------------------------------------------ loaders
def repeated_predictions(experiment: str, dataset: str, learner: str, n_rows: int) -> tuple[np.ndarray, int]:
    """(R, n) predicted class codes, -1 where a row was not predicted in a repetition, and K.

    Reads ``data/predictions/<exp>/<learner>/<dataset>.npz`` (proba, split, row) and the split plan's
    ``repeat``; the prediction is the argmax of proba, ties to the lowest class (as the evaluate stage).
    """
    with np.load(layout.predictions(experiment, learner, dataset)) as z:
        proba, split, row = z["proba"], z["split"], z["row"]
    _, repeat = load_plan(experiment, dataset)
    n_rep = int(repeat.max()) + 1
    rep = repeat[split]
    if np.bincount(rep * n_rows + row, minlength=n_rep * n_rows).max() > 1:
        raise ValueError(f"{learner}/{dataset}: a row is predicted twice in one repetition")
    pred = np.full((n_rep, n_rows), -1, dtype=np.int64)
    pred[rep, row] = np.argmax(proba, axis=1)
    return pred, proba.shape[1]


def decomposition(experiment: str, dataset: str, learner: str, y: np.ndarray) -> BiasVariance:
    """Kohavi-Wolpert bias (incl. noise) and variance of one learner on one domain (eq. 5)."""
    pred, k = repeated_predictions(experiment, dataset, learner, len(y))
    return kohavi_wolpert(y, pred, max(k, int(y.max()) + 1))


def published() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Tables 2 and 3 indexed by name_key(domain) (the "Mean" row under key "mean"), and Table 4."""
    t2, t3 = (read_table(f, "ting2003") for f in ("ting_zheng_table2.csv", "ting_zheng_table3.csv"))
    return t2, t3, pd.read_csv(folder("ting2003") / "ting_zheng_table4.csv")


def paper_errors(t2: pd.DataFrame, t3: pd.DataFrame, keys: list[str]) -> dict[str, np.ndarray]:
    """The paper's per-domain errors (%) for our learner names on the given domains; BLNBT(d > 0) derived
    as LNBT(d) · ratio from Table 3 (rounded inputs, so approximate)."""
    out = {LNBT[d]: t3.loc[keys, f"d{d}_err"].to_numpy(float) for d in DEPTHS}
    out[BLNBT[0]] = t2.loc[keys, "blnbt0_err"].to_numpy(float)
    for d in DEPTHS[1:]:
        out[BLNBT[d]] = (t3.loc[keys, f"d{d}_err"] * t3.loc[keys, f"d{d}_ratio"]).to_numpy(float)
    return out


# ------------------------------------------------------------------------------------------ shared work
class _Data:
    """Our per-domain errors and decompositions, the paper's numbers on the same domains (one per report:
    ``ctx.memo(_Data)``)."""

    def __init__(self, ctx: ReportContext):
        self.ctx = ctx
        self.names = list(ctx.datasets)
        self.keys = [name_key(p) for p in self.names]
        self.t2, self.t3, self.t4 = published()
        self.all_keys = [k for k in self.t3.index if k != "mean"]  # the paper's 25 domains
        self.pub = paper_errors(self.t2, self.t3, self.keys)
        self.pub25 = paper_errors(self.t2, self.t3, self.all_keys)
        readings = [x for lnbt, blnbt in TEST_READINGS.values() for x in (*lnbt.values(), *blnbt.values())]
        self.learners = [x for x in dict.fromkeys(readings) if ctx.has(x)]
        self._bv: dict[str, list[BiasVariance]] = {}
        self._ys: dict[str, np.ndarray] = {}

    def err(self, learner: str) -> np.ndarray:
        return np.array([100.0 - self.ctx.acc(p, learner) for p in self.names])

    def bv(self, learner: str) -> list[BiasVariance]:
        if learner not in self._bv:
            if not self._ys:
                self._ys = {p: self.ctx.labels(p) for p in self.names}
            self._bv[learner] = [
                decomposition(self.ctx.exp.name, self.ctx.datasets[p], learner, self._ys[p]) for p in self.names
            ]
        return self._bv[learner]

    def depths(self) -> list[int]:
        """The d with both LNBT(d) and BLNBT(d) in this run."""
        return [d for d in DEPTHS if self.ctx.has(LNBT[d], BLNBT[d])]


def record(ctx: ReportContext, a: str, b: str) -> Record:
    """Our record of learner A vs B over our domains (a table and its claim share it: ``ctx.memo(record, a, b)``)."""
    data = ctx.memo(_Data)
    return compare(data.err(a), data.err(b))


def domain_means(ctx: ReportContext) -> tuple[dict, dict, dict]:
    """Kohavi-Wolpert bias, variance and error (%) of every LNBT(d) and BLNBT(d) run, averaged over our domains
    (Table 4 and claim T4 share it: ``ctx.memo(domain_means)``)."""
    data = ctx.memo(_Data)
    bias, var, err = {}, {}, {}
    for x in data.learners:
        bvs = data.bv(x)
        bias[x] = 100 * float(np.mean([b.bias2 for b in bvs]))
        var[x] = 100 * float(np.mean([b.variance for b in bvs]))
        err[x] = 100 * float(np.mean([b.error for b in bvs]))
    return bias, var, err


# ------------------------------------------------------------------------------------------ sections
def _big_reductions(err_boosted, err_base) -> int:
    """Domains where boosting cuts the error by more than 25% (§4.1: "only in five domains")."""
    return int(np.sum(np.asarray(err_boosted) < 0.75 * np.asarray(err_base)))


def _pair(ours: float, pub: float, digits: int = 1) -> str:
    return f"{fmt(ours, digits)} ({fmt(pub, digits)})"


def domains_section(ctx: ReportContext) -> list[str]:
    n = len(ctx.datasets)
    out = [
        "## Data sets",
        "",
        f"The paper uses {PAPER_DOMAINS} domains; we have {n}. Every mean, w/l record and sign test below "
        f"is over our {n} domains, shown beside the paper's own value over {PAPER_DOMAINS} domains and the "
        f"paper's values recomputed on the same {n} domains from its per-domain numbers.",
    ]
    if ctx.unavailable:
        out.append("Unavailable: " + "; ".join(f"{p} ({r})" for p, r in ctx.unavailable.items()) + ".")
    return out + [""]


def table2(ctx: ReportContext) -> list[str]:
    data, a, b = ctx.memo(_Data), LNBT[0], BLNBT[0]
    if not ctx.has(a, b):
        return []
    ea, eb = data.err(a), data.err(b)
    rows = []
    for p in ctx.exp.datasets:
        key = name_key(p)
        pa, pb = data.t2.loc[key, "lnbt0_err"], data.t2.loc[key, "blnbt0_err"]
        if p in ctx.datasets:
            i = data.names.index(p)
            ratio = eb[i] / ea[i] if ea[i] > 0 else float("nan")
            rows.append([p, fmt(ea[i]), fmt(pa), fmt(eb[i]), fmt(pb), fmt(ratio, 2), fmt(data.t2.loc[key, "ratio"], 2)])
        else:
            rows.append([p, "n/a", fmt(pa), "n/a", fmt(pb), "n/a", fmt(data.t2.loc[key, "ratio"], 2)])
    ours = ctx.memo(record, b, a)
    same = compare(data.pub[b], data.pub[a])
    all25 = compare(data.pub25[b], data.pub25[a])
    n = len(data.names)
    summary = [
        [
            f"ours ({n} domains)",
            fmt(ea.mean()),
            fmt(eb.mean()),
            fmt(ours.mean_ratio, 3),
            fmt(ours.reduction),
            ours.wl,
            fmt(ours.p, 4),
            str(_big_reductions(eb, ea)),
        ],
        [
            f"paper, same {n} domains",
            fmt(data.pub[a].mean()),
            fmt(data.pub[b].mean()),
            fmt(same.mean_ratio, 3),
            fmt(same.reduction),
            same.wl,
            fmt(same.p, 4),
            str(_big_reductions(data.pub[b], data.pub[a])),
        ],
        [
            f"paper, {PAPER_DOMAINS} domains (Mean row)",
            fmt(data.t2.loc["mean", "lnbt0_err"]),
            fmt(data.t2.loc["mean", "blnbt0_err"]),
            fmt(data.t2.loc["mean", "ratio"], 2),
            fmt(100 * (1 - data.t2.loc["mean", "ratio"])),
            all25.wl,
            fmt(all25.p, 4),
            str(_big_reductions(data.pub25[b], data.pub25[a])),
        ],
    ]
    out = [
        "## Table 2: boosted naive Bayes",
        "",
        "Error rates (%) of LNBT(0) (= NB, m-estimate) and BLNBT(0) (AdaBoost.M1, T = 100, restarts by "
        "bootstrap) and the ratio BLNBT(0)/LNBT(0); *pub.* = the paper's.",
        "",
    ]
    out += md_table(["domain", "LNBT(0)", "pub.", "BLNBT(0)", "pub.", "ratio", "pub."], rows)
    out += md_table(
        [
            "BLNBT(0) vs LNBT(0)",
            "mean err LNBT(0)",
            "mean err BLNBT(0)",
            "mean ratio",
            "mean rel. error reduction (%)",
            "w/l",
            "sign test p (one-tailed)",
            "domains > 25% reduction",
        ],
        summary,
    )
    return out


def table3(ctx: ReportContext) -> list[str]:
    data = ctx.memo(_Data)
    ds = data.depths()
    if not ds:
        return []
    errs = {d: (data.err(LNBT[d]), data.err(BLNBT[d])) for d in ds}
    rows = []
    for p in ctx.exp.datasets:
        key, row = name_key(p), [p]
        for d in ds:
            pe, pr = data.t3.loc[key, f"d{d}_err"], data.t3.loc[key, f"d{d}_ratio"]
            if p in ctx.datasets:
                i = data.names.index(p)
                el, eb = errs[d][0][i], errs[d][1][i]
                row += [_pair(el, pe), _pair(eb / el if el > 0 else float("nan"), pr, 2)]
            else:
                row += [f"n/a ({fmt(pe)})", f"n/a ({fmt(pr, 2)})"]
        rows.append(row)
    header = ["domain"] + [c for d in ds for c in (f"LNBT({d}) err", f"ratio d={d}")]
    records = {d: ctx.memo(record, BLNBT[d], LNBT[d]) for d in ds}
    n = len(data.names)
    summary = []
    for d in ds:
        same = compare_ratios(data.t3.loc[data.keys, f"d{d}_ratio"])
        w, l, p = PAPER["table3_wl"][d]
        r = records[d]
        summary += [
            [f"d = {d}", f"ours, {n} domains", fmt(errs[d][0].mean()), fmt(r.mean_ratio, 2), r.wl, fmt(r.p, 4)],
            ["", f"paper, same {n}", fmt(data.pub[LNBT[d]].mean()), fmt(same.mean_ratio, 2), same.wl, fmt(same.p, 4)],
            [
                "",
                f"paper, {PAPER_DOMAINS}",
                fmt(data.t3.loc["mean", f"d{d}_err"]),
                fmt(data.t3.loc["mean", f"d{d}_ratio"], 2),
                f"{w}/{l}",
                f"{p:.4f}",
            ],
        ]
    out = [
        "## Table 3: boosting leveled naive Bayesian trees",
        "",
        "Error (%) of LNBT(d) and ratio BLNBT(d)/LNBT(d); cells are *ours (paper's)*.",
        "",
    ]
    out += md_table(header, rows)
    out += [
        "Summary per d: ours, the paper's values on the same domains (its w/l there is read off its "
        f"two-decimal ratios, ratio 1.00 = tie), and the paper's over {PAPER_DOMAINS} domains.",
        "",
    ]
    out += md_table(
        ["d", "source", "mean err LNBT(d)", "mean ratio BLNBT(d)/LNBT(d)", "w/l", "sign test p (one-tailed)"], summary
    )
    return out


def figure3(ctx: ReportContext) -> list[str]:
    """Figure 3: mean error ratio of LNBT(d) and BLNBT(d) over NB, and BLNBT(d)'s mean error."""
    data, nb = ctx.memo(_Data), LNBT[0]
    ds = [d for d in data.depths() if ctx.has(nb)]
    if not ds:
        return []
    e0, p0 = data.err(nb), data.pub[nb]
    res = {
        d: {
            "lnbt": mean_ratio(data.err(LNBT[d]), e0),
            "blnbt": mean_ratio(data.err(BLNBT[d]), e0),
            "blnbt_err": float(data.err(BLNBT[d]).mean()),
            "pub_lnbt": mean_ratio(data.pub[LNBT[d]], p0),
            "pub_blnbt": mean_ratio(data.pub[BLNBT[d]], p0),
            "pub_blnbt_err": float(data.pub[BLNBT[d]].mean()),
        }
        for d in ds
    }
    rows = [
        [
            f"d = {d}",
            _pair(r["lnbt"], r["pub_lnbt"], 3),
            _pair(r["blnbt"], r["pub_blnbt"], 3),
            _pair(r["blnbt_err"], r["pub_blnbt_err"]),
        ]
        for d, r in res.items()
    ]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    x = list(res)
    for k, label in (("lnbt", "LNBT(d)/NB"), ("blnbt", "BLNBT(d)/NB")):
        (line,) = ax.plot(x, [res[d][k] for d in x], marker="o", label=f"{label} (ours)")
        ax.plot(
            x, [res[d][f"pub_{k}"] for d in x], ls="--", color=line.get_color(), label=f"{label} (paper, same domains)"
        )
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("maximum tree depth d")
    ax.set_ylabel("mean error ratio over NB")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, figure_path(ctx, "figure3_ratio_over_nb.png"))
    text = PAPER["figure3"]
    ratios = " → ".join(f"{v:.2f} (d = {d})" for d, v in text["ratio_over_nb"].items())
    errors = " → ".join(f"{v}%" for v in text["mean_err"].values())
    out = [
        "## Figure 3: error ratio over naive Bayes",
        "",
        f"Mean over our {len(data.names)} domains of LNBT(d)/LNBT(0) and BLNBT(d)/LNBT(0), and BLNBT(d)'s "
        "mean error; *ours (paper's on the same domains)*, the paper's BLNBT(d > 0) errors derived as "
        f"LNBT(d) err × ratio from Table 3. Paper's text ({PAPER_DOMAINS} domains): BLNBT(d)/NB {ratios}; "
        f"mean error {errors} (d ≥ {max(text['mean_err'])}).",
        "",
    ]
    out += md_table(["d", "LNBT(d)/NB", "BLNBT(d)/NB", "BLNBT(d) mean err (%)"], rows)
    out += [f"![ratio over NB](figures/{ctx.exp.name}/figure3_ratio_over_nb.png)", ""]
    return out


def table4(ctx: ReportContext) -> list[str]:
    data = ctx.memo(_Data)
    bias, var, err = ctx.memo(domain_means)
    rows = []
    t4 = data.t4.set_index("max_depth")
    for d in DEPTHS:
        lo, bo = LNBT[d], BLNBT[d]
        if not ctx.has(lo, bo):
            continue
        lower_bias = sum(b.bias2 < a.bias2 for a, b in zip(data.bv(lo), data.bv(bo)))
        lower_var = sum(b.variance < a.variance for a, b in zip(data.bv(lo), data.bv(bo)))
        rows.append(
            [
                str(d),
                _pair(bias[lo], t4.loc[d, "bias_lnbt"]),
                _pair(bias[bo], t4.loc[d, "bias_blnbt"]),
                _pair(var[lo], t4.loc[d, "variance_lnbt"]),
                _pair(var[bo], t4.loc[d, "variance_blnbt"]),
                f"{fmt(err[lo])} / {fmt(err[bo])}",
                f"{lower_bias}/{len(data.names)}",
                f"{lower_var}/{len(data.names)}",
            ]
        )
    if not rows:
        return []
    out = [
        "## Table 4: bias and variance",
        "",
        "Kohavi-Wolpert decomposition (eq. 5; the bias term includes the noise) of the "
        f"{ctx.exp.protocol.get('repeats', 1)} repeated CV predictions of every example, in %, averaged over our "
        f"{len(data.names)} domains; *ours (paper's, {PAPER_DOMAINS} domains)*. Bias + variance = the error "
        "pooled over all predictions (which differs from Table 2-3's mean over splits only by fold-size "
        "weighting). The last two columns count the domains where boosting lowers the bias / variance.",
        "",
    ]
    out += md_table(
        [
            "d",
            "bias LNBT(d)",
            "bias BLNBT(d)",
            "variance LNBT(d)",
            "variance BLNBT(d)",
            "error LNBT / BLNBT",
            "bias ↓ by boosting",
            "variance ↓ by boosting",
        ],
        rows,
    )
    return out


def domain_depths(ctx: ReportContext, learner: str) -> dict[str, float]:
    """Mean tree depth per domain (paper's name) over the splits, from the fitted models' fit_info: the
    tree's depth for LNBT, the mean depth of the boosted trees for BLNBT."""
    info = ctx.fit_info(learner) if ctx.has(learner) else {}
    out = {}
    for p, ds in ctx.datasets.items():
        depths = [r["base_mean"]["depth"] if "base_mean" in r else r.get("depth") for r in info.get(ds, []) if r]
        if depths and None not in depths:
            out[p] = float(np.mean(depths))
    return out


def domain_leaves(ctx: ReportContext, learner: str) -> float | None:
    """Mean number of leaves of ``learner``'s trees over splits (and boosted trees), then over our domains."""
    info = ctx.fit_info(learner) if ctx.has(learner) else {}
    per = []
    for ds in ctx.datasets.values():
        leaves = [(r.get("base_mean", r)).get("n_leaves") for r in info.get(ds, []) if r]
        if not leaves or None in leaves:
            return None
        per.append(float(np.mean(leaves)))
    return float(np.mean(per)) if per else None


def depth_section(ctx: ReportContext) -> list[str]:
    """§3.2 (iii) read two ways and the numeric tests read three ways, with the paper's own tree statistics
    (§4.2) beside each."""
    data, published_depth = ctx.memo(_Data), PAPER["depth"]
    pub_lnbt10, pub_blnbt10 = (published_depth["mean"][x] for x in (LNBT[10], BLNBT[10]))
    readings = {
        "children, multiway (default)": (LNBT, BLNBT),
        "node, multiway": (LNBT_NODE, BLNBT_NODE),
        "children, threshold": TEST_READINGS["threshold"],
        "children, keep-cut": TEST_READINGS["keep-cut"],
    }
    rows = []
    for label, (lnbt, blnbt) in readings.items():
        for d in (1, 3, 5, 10):
            for kind, names in (("LNBT", lnbt), ("BLNBT", blnbt)):
                name = names.get(d)
                depths = domain_depths(ctx, name) if name else {}
                if len(depths) < len(data.names):
                    continue
                dd = np.array([depths[p] for p in data.names])
                deep = sorted(depths, key=depths.get)[-2:][::-1]
                leaves = domain_leaves(ctx, name)
                rows.append(
                    [
                        label,
                        f"{kind}({d})",
                        fmt(dd.mean(), 2),
                        f"{int((dd < 3).sum())}/{len(dd)}",
                        ", ".join(f"{p} {depths[p]:.1f}" for p in deep),
                        fmt(leaves, 1) if leaves is not None else "n/a",
                        fmt(data.err(name).mean()),
                    ]
                )
    if not rows:
        return []
    plateau = []
    for label, (lnbt, _) in readings.items():
        if ctx.has(lnbt[3], lnbt[10]):
            same = int(np.sum(np.round(data.err(lnbt[3]) - data.err(lnbt[10]), 9) == 0))
            plateau.append(f"{label}: {same}/{len(data.names)}")
    pub_same = int(np.sum(data.t3.loc[data.all_keys, "d3_err"] == data.t3.loc[data.all_keys, "d10_err"]))
    deepest = []
    for p, v in published_depth["deepest"].items():
        dom = next((q for q in data.names if q.startswith(p)), None)
        if dom is None:
            continue
        ours = [
            f"{label} {domain_depths(ctx, lnbt[10])[dom]:.1f}"
            for label, (lnbt, _) in readings.items()
            if ctx.has(lnbt[10])
        ]
        deepest.append(f"{dom} (paper {v}): {', '.join(ours)}")
    reductions = []
    for label, (_, blnbt) in readings.items():
        if ctx.has(LNBT[0], blnbt[10]):
            rec = ctx.memo(record, blnbt[10], LNBT[0])
            reductions.append(f"{label}: {rec.reduction:.1f}% (w/l {rec.wl})")
    out = [
        "## §3.2 (iii) and the tests on numeric attributes: the readings",
        "",
        '"LNBT stops splitting a node, if it contains less than 30 training examples" (§3.2 (iii)). Read per '
        "node, a node of 30 or more may split into children of any size; read with the paper's purpose "
        '("to ensure reasonably accurate estimates for local naive Bayesian classifiers"), no split may create '
        "a non-empty child with fewer than 30 examples. **Evidence for the default (children):** the paper's own "
        f'tree statistics (§4.2: mean depth {pub_lnbt10} for LNBT(10) and {pub_blnbt10} for BLNBT(10), "d < 3 in '
        'more than half of the 25 domains", LNBT(3) = LNBT(10) in most domains of Table 3) are much closer to '
        "the children reading than to the node reading (table below).",
        "",
        "Tests on numeric attributes, three readings (children rule): **multiway tests on the MDL codes, each "
        "attribute once per path (default)**; *threshold*: binary cuts `code <= t` at the MDL cut points, an "
        "attribute may be cut again deeper, and the leaf NBs below a cut leave the cut attribute out (§3.2 (ii) "
        "read literally, although the attribute still varies in both branches); *keep-cut*: the same cuts, and "
        "the leaf NBs leave a cut attribute out only once the path fixes its value. **The deciding sentence** "
        '(§3.1): "Continuous attributes are preprocessed using an entropy-based discretization method (Fayyad and '
        'Irani 1993)". After it every attribute the tree grower sees is discrete, and §3.2 grows the tree by "the '
        'same tree-growing procedure as in a Top-Down Decision Tree induction algorithm. Like C4.5", which tests '
        'a discrete attribute by one multiway test; §3.2 (ii), the leaf NB uses "all attributes that do not '
        'appear on the path from the root to the leaf", then leaves out exactly the attributes whose value the '
        'path fixes. Only Figure 1\'s caption ("Color = blue" or "Temperature > 70°C") speaks for threshold '
        "tests, and by the project's rule an explicit sentence about the method outranks a figure; keep-cut "
        "besides contradicts (ii)'s wording. The table and the bullets below set all three beside the paper's "
        "§4.2 depth statistics; the per-domain errors are in the next section.",
        "",
        "Depths are the deepest leaf of each fitted tree (fit_info), averaged over the 30 splits per domain "
        "(for BLNBT over the 100 boosted trees too), then over domains; leaves likewise (the paper reports no "
        "tree sizes but depths). Cells: default `lnbt<d>`, `blnbt<d>`; node `*_node` (LNBT(1-10), BLNBT(10)); "
        "threshold `*_threshold` and keep-cut `*_keepcut` (LNBT(1-10), BLNBT(10)).",
        "",
    ]
    out += md_table(
        ["reading", "learner", "mean depth", "domains depth < 3", "deepest domains", "mean leaves", "mean err (%)"],
        rows,
    )
    out += [
        f"Paper ({PAPER_DOMAINS} domains): mean depth LNBT(10) {pub_lnbt10}, BLNBT(10) {pub_blnbt10}; depth < 3 "
        f"in {published_depth['shallow_domains']} domains; deepest "
        f"{', '.join(f'{p} {v}' for p, v in published_depth['deepest'].items())}.",
        "",
        f"- LNBT(3) = LNBT(10) (same mean error): {'; '.join(plateau)}; paper's Table 3: {pub_same}/{PAPER_DOMAINS}.",
        f"- BLNBT(10) mean relative error reduction over NB: {'; '.join(reductions)}; paper "
        f"{PAPER['blnbt10']['vs_nb_reduction']}%.",
        f"- The paper's deepest domains, LNBT(10) mean depth per reading: {'; '.join(deepest) or 'n/a'}.",
        "",
    ]
    return out


def numeric_tests_section(ctx: ReportContext) -> list[str]:
    """The three readings of the numeric tests side by side per domain against Tables 2-3, with a summary per
    reading: mean error, mean |ours - paper| in error points, w/l against NB, Table 4's bias and variance."""
    data = ctx.memo(_Data)
    ready = {r: (lnbt, blnbt) for r, (lnbt, blnbt) in TEST_READINGS.items() if ctx.has(*lnbt.values())}
    if len(ready) < 2:
        return []
    bias, var, _ = ctx.memo(domain_means)
    cols = [(f"LNBT({d})", [lnbt[d] for lnbt, _ in ready.values()], LNBT[d]) for d in DEPTHS[1:]]
    cols.append(("BLNBT(10)", [blnbt[10] for _, blnbt in ready.values()], BLNBT[10]))
    rows = []
    for i, p in enumerate(data.names):
        cells = [
            " / ".join(fmt(data.err(x)[i]) if ctx.has(x) else "n/a" for x in xs) + f" ({fmt(data.pub[col][i])})"
            for _, xs, col in cols
        ]
        rows.append([p, *cells])
    summary = []
    for r, (lnbt, blnbt) in ready.items():
        for label, x, col in [(f"LNBT({d})", lnbt[d], LNBT[d]) for d in DEPTHS[1:]] + [
            ("BLNBT(10)", blnbt[10], BLNBT[10])
        ]:
            if not ctx.has(x):
                summary.append([r, label, "not run", "", "", "", ""])
                continue
            rec = ctx.memo(record, x, LNBT[0])
            gap = np.abs(data.err(x) - data.pub[col])
            summary.append(
                [r, label, fmt(data.err(x).mean()), fmt(gap.mean(), 2), rec.wl, fmt(bias[x], 1), fmt(var[x], 1)]
            )
    t4 = data.t4.set_index("max_depth")
    pub_t4 = ", ".join(f"LNBT({d}) {fmt(t4.loc[d, 'bias_lnbt'])}/{fmt(t4.loc[d, 'variance_lnbt'])}" for d in DEPTHS[1:])
    pub_wl = ", ".join(compare(data.pub[LNBT[d]], data.pub[LNBT[0]]).wl for d in DEPTHS[1:])
    return [
        "## Numeric tests: the three readings per domain (Tables 2-3)",
        "",
        f"Error (%) per domain, *{' / '.join(ready)} (paper's)*; BLNBT(10)'s paper value is Table 3's err × ratio.",
        "",
        *md_table(["domain"] + [c for c, _, _ in cols], rows),
        f"Per reading over our {len(data.names)} domains: mean error, mean |ours − paper| in error points, w/l "
        f"against NB (LNBT(0), paper's Table 3: {pub_wl} for d = 1, 3, 5, 10 on our domains), and Table 4's bias "
        f"and variance (%; paper bias/variance {pub_t4}).",
        "",
        *md_table(
            ["reading", "learner", "mean err (%)", "mean abs gap (error points)", "w/l vs NB", "bias", "variance"],
            summary,
        ),
    ]


def restarts_section(ctx: ReportContext) -> list[str]:
    """Figure 2 at T = 100: restarts per boosting run (ε ≥ 0.5, ε = 0) and models kept."""
    rows = []
    for d in DEPTHS:
        learner = BLNBT[d]
        info = ctx.fit_info(learner) if ctx.has(learner) else {}
        runs = [r for ds in ctx.datasets.values() for r in info.get(ds, []) if r]
        if not runs:
            continue
        hi = np.array([r["restarts"]["error>=0.5"] for r in runs])
        zero_by_ds = {
            p: np.mean([r["restarts"]["error=0"] for r in info.get(ds, [])])
            for p, ds in ctx.datasets.items()
            if info.get(ds)
        }
        with_zero = [f"{p} ({v:.1f})" for p, v in zero_by_ds.items() if v > 0]
        rows.append(
            [
                f"BLNBT({d})",
                fmt(hi.mean(), 1),
                fmt(np.mean([r["restarts"]["error=0"] for r in runs]), 2),
                fmt(np.mean([r["kept"] for r in runs]), 1),
                ", ".join(with_zero) or "none",
            ]
        )
    if not rows:
        return []
    return [
        "## Restarts at T = 100 (Figure 2)",
        "",
        "Mean per boosting run over all domains and splits. Paper (Figure 2, NB, eight domains): ε = 0 "
        "restarts occur only in Annealing, fewer than 0.5 on average at T = 100.",
        "",
    ] + md_table(
        ["learner", "restarts ε ≥ 0.5", "restarts ε = 0", "models kept", "domains with ε = 0 restarts (mean per run)"],
        rows,
    )


def linear_form_section(ctx: ReportContext) -> list[str]:
    res = ctx.analysis
    if not res:
        return []
    two, multi = res["two_class"], res["multiclass"]
    tree = two["tree"]
    out = [
        "## §6: boosted naive Bayes is one linear form (synthetic check)",
        "",
        f"AdaBoost.M1 over NB (m-estimate, T = {res['params']['n_estimators']}) on a seeded synthetic domain "
        f"({two['n_rows']} rows, {two['n_attributes']} discrete attributes, class with an attribute "
        f"interaction), evaluated on all {two['grid_size']} attribute-value combinations and the training rows.",
        "",
        f"- eq. (6) Real-AdaBoost vote H(v) = Σ_t α_t log P_t(1|v)/P_t(0|v) vs eq. (7) single linear form: max "
        f"|deviation| = **{two['max_abs_deviation']:.2e}** (max |H| = {two['max_abs_H']:.1f}).",
        f"- least-squares fit of H on the one-hot attribute values over the whole attribute space: max "
        f"|residual| = {two['lstsq_boosted_nb']['max_abs']:.2e}.",
        f"- same fit for boosted LNBT({tree['depth']}) trees: max |residual| = {tree['lstsq']['max_abs']:.2f}, "
        f"relative RMS {tree['lstsq']['rel_rms']:.2f} — not linear, as §6 says of BLNBT(d).",
        f"- {multi['n_classes']} classes: Σ_t α_t log P_t(c|v) minus the linear score varies across classes by "
        f"at most {multi['max_abs_class_dependent_gap']:.2e}; same argmax on {100 * multi['same_argmax']:.1f}% "
        "of the attribute space.",
        f"- AdaBoost.M1's own vote is over the models' discrete predictions: its decision agrees with sign(H) on "
        f"{100 * two['discrete_vote_agreement']:.1f}% of the attribute space, and its vote margin is not linear "
        f"(relative RMS residual {two['lstsq_discrete_vote']['rel_rms']:.2f}).",
        f"- restarts in this run (NB): {two['fit_info']['restarts']['error>=0.5']} for ε ≥ 0.5, "
        f"{two['fit_info']['restarts']['error=0']} for ε = 0; {two['fit_info']['kept']} models kept.",
        "",
    ]
    return out


# ------------------------------------------------------------------------------------------ claims
def repeat_errors(ctx: ReportContext, p: str, learner: str) -> np.ndarray:
    """Error (%) of ``learner`` on domain ``p`` per repetition of the CV (folds pooled by test rows)."""
    s = ctx.splits
    rows = s[(s["dataset"] == ctx.exp.datasets[p]) & (s["learner"] == learner)]
    wrong = (1 - rows["accuracy"]) * rows["test_rows"]
    by = rows.assign(wrong=wrong).groupby("repeat")[["wrong", "test_rows"]].sum().sort_index()
    return 100 * (by["wrong"] / by["test_rows"]).to_numpy()


def std_mean_error(ctx: ReportContext, learner: str) -> float:
    """Std of our mean error over domains (per-repetition errors)."""
    return claims.std_of_average([repeat_errors(ctx, p, learner) for p in ctx.datasets])


def std_ratio(ctx: ReportContext, a: str, b: str) -> float:
    """Std of our mean error ratio A/B over domains (per-repetition ratios; NaN where B makes no error)."""
    per = []
    for p in ctx.datasets:
        ea, eb = repeat_errors(ctx, p, a), repeat_errors(ctx, p, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            per.append(np.where(eb > 0, ea / eb, np.nan))
    return claims.std_of_average(per)


def _number(name: str, ours: float, paper: float, precision: float, std: float) -> tuple[claims.Part, str]:
    """A number the paper states as a part (paper = its value on our domains) and its text, to one more digit
    than the paper prints."""
    digits = 3 if precision < 0.1 else 2
    return (
        claims.Part(name, claims.number_status(ours, paper, precision, std)),
        f"{fmt(ours, digits)} ± {fmt(2 * std, digits)} (paper on our domains {fmt(paper, digits)})",
    )


def claim_t1(ctx: ReportContext) -> Verdict:
    if not ctx.has(LNBT[0], BLNBT[0]):
        return claims.missing("T1", LNBT[0], BLNBT[0])
    data, rec = ctx.memo(_Data), ctx.memo(record, BLNBT[0], LNBT[0])
    same = compare(data.pub[BLNBT[0]], data.pub[LNBT[0]])
    n = len(data.names)
    w, l, p = PAPER["table3_wl"][0]
    sd = 100 * std_ratio(ctx, BLNBT[0], LNBT[0])
    reduction, red_text = _number(
        f"mean relative error reduction {PAPER['blnbt0_reduction']}%", rec.reduction, same.reduction, 1, sd
    )
    errors = [
        _number(
            f"mean error of {name} {fmt(data.t2.loc['mean', col])}",
            data.err(x).mean(),
            data.pub[x].mean(),
            0.1,
            std_mean_error(ctx, x),
        )
        for name, x, col in (("NB", LNBT[0], "lnbt0_err"), ("boosted NB", BLNBT[0], "blnbt0_err"))
    ]
    not_significant = claims.HOLDS if rec.p >= 0.05 else claims.FAILS
    parts = [
        claims.Part("boosting NB does not win significantly more often (sign test p >= 0.05)", not_significant),
        claims.Part(f"w/l {w}/{l}", count_status(rec, same)),
        reduction,
        *(part for part, _ in errors),
    ]
    ev = (
        f"Ours over {n} domains (± 2 std of our estimate): w/l {rec.wl}, sign test p = {rec.p:.4f}; mean relative "
        f"error reduction % {red_text}; mean error NB {errors[0][1]} → boosted NB {errors[1][1]}. Paper over "
        f"{PAPER_DOMAINS} domains: {w}/{l}, p = {p:.4f}, {PAPER['blnbt0_reduction']}%, "
        f"{fmt(data.t2.loc['mean', 'lnbt0_err'])} → {fmt(data.t2.loc['mean', 'blnbt0_err'])}; on our {n} domains "
        f"its numbers give {same.wl}, p = {same.p:.4f}."
    )
    return claims.judge("T1", parts, ev)


def claim_t2(ctx: ReportContext) -> Verdict:
    data = ctx.memo(_Data)
    records = {d: ctx.memo(record, BLNBT[d], LNBT[d]) for d in data.depths()}
    if 0 not in records or not any(d >= 3 for d in records):
        return claims.missing("T2", LNBT[0], BLNBT[0], *(BLNBT[d] for d in (3, 5, 10)))
    wl = PAPER["table3_wl"]
    same = {d: compare_ratios(data.t3.loc[data.keys, f"d{d}_ratio"]) for d in records}
    parts, texts = [], []
    others = {  # the other readings of the numeric tests that ran (they run BLNBT(d) at d = 10 only)
        r: (lnbt, blnbt)
        for r, (lnbt, blnbt) in TEST_READINGS.items()
        if r != DEFAULT_READING and ctx.has(lnbt[10], blnbt[10])
    }
    for d, r in records.items():
        if d not in (0,) and d < 3:
            continue
        printed = fmt(data.t3.loc["mean", f"d{d}_ratio"], 2)
        ratio_name = f"mean ratio {printed} at d = {d}"
        part, text = _number(ratio_name, r.mean_ratio, same[d].mean_ratio, 0.01, std_ratio(ctx, BLNBT[d], LNBT[d]))
        texts.append(f"d = {d}: ratio {text}, w/l {r.wl}, p = {r.p:.4f}")
        ratio_status, sig_status = {DEFAULT_READING: part.status}, {DEFAULT_READING: sign_test_status(r)}
        for reading, (lnbt, blnbt) in others.items():
            if d == 0:  # the same NB and boosted NB under every reading
                ratio_status[reading], sig_status[reading] = part.status, sig_status[DEFAULT_READING]
            elif d not in blnbt:
                ratio_status[reading] = sig_status[reading] = claims.UNTESTABLE
            else:
                rr = ctx.memo(record, blnbt[d], lnbt[d])
                alt, alt_text = _number(
                    ratio_name, rr.mean_ratio, same[d].mean_ratio, 0.01, std_ratio(ctx, blnbt[d], lnbt[d])
                )
                ratio_status[reading], sig_status[reading] = alt.status, sign_test_status(rr)
                texts.append(f"{reading}, d = {d}: ratio {alt_text}, w/l {rr.wl}, p = {rr.p:.4f}")
        parts.append(claims.Part(ratio_name, ratio_status))
        if d >= 3:
            parts.append(claims.Part(f"significant at d = {d}", sig_status))
    pub = "; ".join(f"d = {d}: {wl[d][0]}/{wl[d][1]}, p = {wl[d][2]:.4f}" for d in records)
    pub_ratios = ", ".join(fmt(data.t3.loc["mean", f"d{d}_ratio"], 2) for d in DEPTHS)
    same_txt = "; ".join(f"d = {d}: {r.mean_ratio:.2f}, {r.wl}, p = {r.p:.4f}" for d, r in same.items())
    return claims.judge(
        "T2",
        parts,
        f"Ours over {len(data.names)} domains (± 2 std of our estimate): {'; '.join(texts)}. Paper "
        f"({PAPER_DOMAINS} domains): ratios {pub_ratios} for d = {', '.join(map(str, DEPTHS))}; {pub}. Paper on "
        f"our domains: {same_txt}. (d = 1 is shown, not a part: the claim names d = 0 and d >= 3.)",
    )


T3_READINGS = {
    DEFAULT_READING: BLNBT[10],
    "node rule": BLNBT_NODE[10],
    "threshold": BLNBT_THRESHOLD[10],
    "keep-cut": BLNBT_KEEPCUT[10],
}


def claim_t3(ctx: ReportContext) -> Verdict:
    nb, b0, b10 = LNBT[0], BLNBT[0], BLNBT[10]
    if not ctx.has(nb, b0, b10):
        return claims.missing("T3", nb, b0, b10)
    data, pub = ctx.memo(_Data), PAPER["blnbt10"]
    p_nb, p_b0 = compare(data.pub[b10], data.pub[nb]), compare(data.pub[b10], data.pub[b0])
    n = len(data.names)
    status: dict[str, dict[str, str]] = {}
    lines = []
    for reading, x in T3_READINGS.items():
        if not ctx.has(x):
            continue
        vs_nb, vs_b0 = ctx.memo(record, x, nb), ctx.memo(record, x, b0)
        red_nb, text_nb = _number("", vs_nb.reduction, p_nb.reduction, 1, 100 * std_ratio(ctx, x, nb))
        red_b0, text_b0 = _number("", vs_b0.reduction, p_b0.reduction, 1, 100 * std_ratio(ctx, x, b0))
        status[reading] = {
            "nb": red_nb.status,
            "b0": red_b0.status,
            "wl": count_status(vs_b0, p_b0),
            "sig": sign_test_status(vs_b0),
        }
        lines.append(
            f"{reading} (`{x}`): vs NB mean relative error reduction % {text_nb} (w/l {vs_nb.wl}, p = "
            f"{vs_nb.p:.4f}; mean error {data.err(nb).mean():.1f} → {data.err(x).mean():.1f}); vs BLNBT(0) "
            f"{text_b0}, w/l {vs_b0.wl}, p = {vs_b0.p:.4f}"
        )
    names = {
        "nb": f"{pub['vs_nb_reduction']}% mean relative error reduction over NB",
        "b0": f"{pub['vs_b0_reduction']}% over BLNBT(0)",
        "wl": f"w/l {pub['vs_b0_wl'][0]}/{pub['vs_b0_wl'][1]} over BLNBT(0)",
        "sig": "BLNBT(10) beats BLNBT(0) significantly more often",
    }
    parts = [claims.Part(name, {r: st[key] for r, st in status.items()}) for key, name in names.items()]
    return claims.judge(
        "T3",
        parts,
        f"Ours over {n} domains (± 2 std of our estimate), per reading of the tree: {'; '.join(lines)}. Paper "
        f"({PAPER_DOMAINS} domains): {pub['vs_nb_reduction']}%, {pub['vs_b0_reduction']}%, "
        f"{pub['vs_b0_wl'][0]}/{pub['vs_b0_wl'][1]}, p = {pub['vs_b0_p']:.4f}; its Table 3 on our {n} domains "
        f"(BLNBT(10) = err × ratio, approximate) gives {p_nb.reduction:.1f}% and {p_b0.reduction:.1f}%, w/l "
        f"{p_b0.wl}, p = {p_b0.p:.4f}.",
    )


def _strip_numbers(check: str) -> str:
    """A T4 inequality without its numbers ("bias LNBT(1) 16.40 < LNBT(0) 17.30" -> "bias LNBT(1) < LNBT(0)"),
    to match the same inequality across readings."""
    return re.sub(r" -?\d+\.\d+", "", check)


def claim_t4(ctx: ReportContext) -> Verdict:
    bias, var, _ = ctx.memo(domain_means)
    checks = t4_checks(bias, var)
    if not checks:
        return claims.missing("T4", *LNBT.values(), *BLNBT.values())
    # the same inequalities under the other readings of the numeric tests that ran (BLNBT at d = 10 only); with
    # several readings a part is named without its numbers, which the evidence gives per reading
    per_reading = {
        r: {_strip_numbers(c): (c, ok) for c, ok in t4_checks(bias, var, lnbt, blnbt)}
        for r, (lnbt, blnbt) in TEST_READINGS.items()
        if r != DEFAULT_READING
    }
    per_reading = {r: found for r, found in per_reading.items() if found}
    parts = []
    for c, ok in checks:
        status = claims.HOLDS if ok else claims.FAILS
        if per_reading:
            key, status = _strip_numbers(c), {DEFAULT_READING: status}
            for r, found in per_reading.items():
                status[r] = (claims.HOLDS if found[key][1] else claims.FAILS) if key in found else claims.UNTESTABLE
        parts.append(claims.Part(key if per_reading else c, status))
    passed = sum(ok for _, ok in checks)
    alt = "".join(
        f" Under the {r} reading (BLNBT at d = 10 only), {sum(ok for _, ok in found.values())} of {len(found)} "
        f"hold: {', '.join(c for c, _ in found.values())}."
        for r, found in per_reading.items()
    )
    numbers = f" Ours ({DEFAULT_READING}): {', '.join(c for c, _ in checks)}." if per_reading else ""
    t4 = ctx.memo(_Data).t4.set_index("max_depth")
    trees, boosted = DEPTHS[1:], [d for d in DEPTHS if d >= 3]

    def pub(column: str, depths) -> str:
        return "/".join(fmt(t4.loc[d, column]) for d in depths)

    ev = (
        f"{passed} of {len(checks)} inequalities hold on our domain-averaged decomposition (Table 4, %). Paper: "
        f"bias {pub('bias_lnbt', [0])} → {pub('bias_lnbt', trees)} and variance "
        f"{pub('variance_lnbt', [0])} → {pub('variance_lnbt', trees)} for LNBT({'/'.join(map(str, trees))}); "
        f"boosting at d = {'/'.join(map(str, boosted))}: bias {pub('bias_lnbt', boosted)} → "
        f"{pub('bias_blnbt', boosted)}, variance {pub('variance_lnbt', boosted)} → "
        f"{pub('variance_blnbt', boosted)}. The paper states the directions, without a test.{numbers}{alt}"
    )
    return claims.judge("T4", parts, ev)


def claim_t5(ctx: ReportContext) -> Verdict:
    res = ctx.analysis
    if not res:
        return Verdict("T5", NOT_TESTABLE, "run `dvc repro analyse@ting2003`.")
    two = res["two_class"]
    ev = (
        f"Synthetic check (§6 section): the boosted NB's Real-AdaBoost vote equals one linear form in "
        f"per-attribute log-odds terms up to {two['max_abs_deviation']:.1e} (max |H| {two['max_abs_H']:.0f}); a "
        f"least-squares linear fit over the whole attribute space leaves {two['lstsq_boosted_nb']['max_abs']:.1e}, "
        f"against {two['tree']['lstsq']['max_abs']:.1f} for boosted LNBT({two['tree']['depth']}). The paper proves "
        "it algebraically (eq. 7). AdaBoost.M1's discrete vote (what BLNBT(0) uses) is not exactly linear: its "
        f"decisions agree with the linear form on {100 * two['discrete_vote_agreement']:.1f}% of the space."
    )
    return claims.judge("T5", [claims.Part("boosted NB is one linear form", t5_status(res))], ev)


# ------------------------------------------------------------------------------------------ gaps
# The agreement section (nbx.report.experiment_report.gaps_section) prints GAPS[domain](ctx) under each of the
# three domains with the largest |ours - published| of the default learners: the measured cause, or
# "Unexplained" with what was tried. Every number comes from ctx (our cells, the other readings' cells, the fold
# codes the learners saw).
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
    """The same cell under the other readings we run (node rule, threshold, keep-cut) and whether one of them
    comes within CLOSE error points of the paper's."""
    d = next((d for d, x in LNBT.items() if x == learner), None)
    pub = _pub_err(ctx, p, learner)
    if d is None or d == 0:
        return "", False
    alts = {"node rule": LNBT_NODE.get(d), "threshold": LNBT_THRESHOLD.get(d), "keep-cut": LNBT_KEEPCUT.get(d)}
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
                else f"Unexplained: no reading we run (node rule, threshold, keep-cut) comes within {CLOSE:.0f} "
                "error points of the paper's."
            )
            + f" For scale: an error rate of {fmt(pub)}% over {n} examples has a binomial std of {fmt(draw)} error "
            f"points (the gap is {abs(ours - pub) / draw:.1f} of them)."
        )
        return out

    return gap


GAPS = {
    "Annealing": gap_annealing,
    "Liver disorder": gap_liver,
    **{
        p: gap_generic(p) for p in ("Abalone", "Audiology", "Glass", "LED24", "Satellite", "Splice junction", "Soybean")
    },
}


SECTIONS = [
    domains_section,
    table2,
    table3,
    figure3,
    table4,
    depth_section,
    numeric_tests_section,
    restarts_section,
    linear_form_section,
    CLAIMS_SECTION,
]
CLAIMS = {"T1": claim_t1, "T2": claim_t2, "T3": claim_t3, "T4": claim_t4, "T5": claim_t5}
