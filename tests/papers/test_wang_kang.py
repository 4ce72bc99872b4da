"""Report sections of Wang et al. 2006 (S1-S3) and Kang & Tian 2006 (K1-K3): the verdict helpers on
hand-made inputs, and the sections on a small hand-built experiment directory."""

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hand_built import write_results
from scipy import stats as sps

from nbx.data.prepare import Table
from nbx.papers.kang2006 import claims as kang_claims
from nbx.papers.kang2006 import evidence as kang_evidence
from nbx.papers.kang2006 import gaps as kang_gaps
from nbx.papers.kang2006 import report as kang2006
from nbx.papers.wang2006 import claims as wang_claims
from nbx.papers.wang2006 import evidence as wang_evidence
from nbx.papers.wang2006 import report as wang2006
from nbx.papers.wang2006 import sections as wang_sections
from nbx.pipeline import layout
from nbx.report import paper
from nbx.report.claims import NOT_REPRODUCED, NOT_TESTABLE, PARTLY, REPRODUCED
from nbx.report.context import ReportContext
from nbx.report.paper import render
from nbx.report.published import folder
from nbx.stats import significance as stats


# ------------------------------------------------------------------------------------------ Wang helpers
def test_within_class_skewness_matches_hand_values_and_scipy():
    # class 0: [0, 0, 3] -> mean 1, deviations (-1, -1, 2): m2 = 2, m3 = 2, skew = 2 / 2**1.5
    # class 1: [1, 2, 3, 4] -> symmetric, skew 0; weights 3 and 4
    X = np.array([[0.0], [0.0], [3.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    got = wang_evidence.within_class_skewness(X, y)
    assert got[0] == pytest.approx(3 * (2 / 2**1.5) / 7)
    rng = np.random.default_rng(0)
    X = rng.exponential(size=(300, 3))
    X[::7, 1] = np.nan  # missing values are skipped
    X[:, 2] = 5.0  # constant within every class: no shape
    y = rng.integers(0, 2, 300)
    got = wang_evidence.within_class_skewness(X, y)
    want = [sum((y == c).sum() * abs(sps.skew(X[y == c, 0])) for c in (0, 1)) / 300]
    assert got[0] == pytest.approx(want[0])
    keep = ~np.isnan(X[:, 1])
    n1 = [(keep & (y == c)).sum() for c in (0, 1)]
    want1 = sum(n * abs(sps.skew(X[keep & (y == c), 1])) for n, c in zip(n1, (0, 1))) / sum(n1)
    assert got[1] == pytest.approx(want1)
    assert np.isnan(got[2])


def test_spearman_and_counts():
    assert wang_evidence.spearman([1, 2, 3, 4], [10, 20, 25, 40])[0] == pytest.approx(1.0)
    assert wang_evidence.spearman([1, 2, 3, 4], [4, 3, 2, 1])[0] == pytest.approx(-1.0)
    assert np.isnan(wang_evidence.spearman([1, 1, 1], [1, 2, 3])[0])
    assert np.isnan(wang_evidence.spearman([1, 2], [1, 2])[0])
    assert wang_evidence.counts([1.0, -2.0, 0.0, 3.0]) == (2, 1, 1)
    assert wang_evidence.counts([1.0, -2.0, 0.0, 3.0], [0.01, 0.01, 0.5, 0.2]) == (1, 1, 2)


def test_pairwise_uses_the_nbx_tests():
    a = {"A": np.array([0.8, 0.9, 0.85, 0.7]), "B": np.array([0.5, 0.5, 0.6, 0.55])}
    b = {"A": np.array([0.7, 0.9, 0.80, 0.6]), "B": np.array([0.6, 0.55, 0.6, 0.65])}
    pw = wang_evidence.pairwise(a, b, {"A": 0.25, "B": 0.25})
    assert pw.loc["A", "diff"] == pytest.approx(100 * 0.0625)
    assert pw.loc["B", "diff"] == pytest.approx(-6.25)
    assert pw.loc["A", "p_t"] == stats.paired_t(a["A"], b["A"])
    assert pw.loc["B", "p_corr"] == stats.corrected_t(a["B"], b["B"], 0.25)
    assert pw.loc["B", "p_corr"] > pw.loc["B", "p_t"]  # the correction only widens the test


def _pw(diffs, p=0.01):
    return pd.DataFrame({"diff": diffs, "p_t": p, "p_corr": p}, index=[f"d{i}" for i in range(len(diffs))])


def test_verdict_s1_counts_against_the_papers_marks_on_the_same_sets():
    marks = {f"d{i}": ("better" if i < 10 else "worse") for i in range(12)}
    ten = _pw([1.0] * 10 + [-1.0] * 2)
    v = wang_claims.verdict_s1(ten, marks)
    assert v.verdict == REPRODUCED and "**10 of 12**" in v.evidence and "on 12 of 12" in v.evidence
    # a count the paper states is a number, compared exactly: fewer or more wins do not reproduce it
    v = wang_claims.verdict_s1(_pw([1.0] * 7 + [-1.0] * 5), marks)
    assert v.verdict == NOT_REPRODUCED and "S-NBTree beats NBTree on 10 of 12 (fails)" in v.evidence
    assert wang_claims.verdict_s1(_pw([1.0] * 11 + [-1.0]), marks).verdict == NOT_REPRODUCED
    # only 3 data sets available, where the paper itself had 2 wins: 2 wins of 3 reproduce it
    sub = {k: marks[k] for k in ("d0", "d1", "d11")}
    assert wang_claims.verdict_s1(_pw([1.0, 2.0, -1.0]).set_axis(["d0", "d1", "d11"]), sub).verdict == REPRODUCED
    assert wang_claims.verdict_s1(_pw([]), {}).verdict == NOT_TESTABLE
    # per reading: the alternative S-NBTree's count judged beside the default's
    v = wang_claims.verdict_s1(ten, marks, {"root tested": _pw([1.0] * 4 + [-1.0] * 8)})
    assert v.verdict == REPRODUCED and v.readings == {"default": REPRODUCED, "root tested": NOT_REPRODUCED}


def test_verdict_s2_by_rank_correlation():
    frac = np.linspace(0, 1, 12)
    count = np.arange(12)
    assert wang_claims.verdict_s2(frac * 5, frac, count).verdict == REPRODUCED
    assert wang_claims.verdict_s2(-frac, frac, count).verdict == NOT_REPRODUCED
    weak = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1.5])  # rho > 0 but far from significant
    rho, p = wang_evidence.spearman(frac, weak)
    assert rho > 0 and p > 0.05
    v = wang_claims.verdict_s2(weak, frac, count)  # the paper gives no test: the statement holds on its direction
    assert v.verdict == REPRODUCED and f"p = {p:.3f}" in v.evidence
    assert wang_claims.verdict_s2([1.0, 2.0], [0.1, 0.2], [1, 2]).verdict == NOT_TESTABLE
    v = wang_claims.verdict_s2(frac * 5, frac, count, readings={"h in within-class std": -frac})
    assert v.readings == {"default": REPRODUCED, "h in within-class std": NOT_REPRODUCED}


def test_verdict_s3_parts():
    skew = pd.Series([0.1, 0.5, 1.0, 2.0, 3.0, 4.0], index=[f"d{i}" for i in range(6)])
    up = _pw([0.1, 0.5, 1.0, 2.0, 2.5, 3.0])  # advantage grows with skewness; 6:0, sign test p = 1/64
    assert wang_claims.verdict_s3(up, up, up, skew).verdict == REPRODUCED
    down = _pw([-0.1, -0.5, -1.0, -2.0, -2.5, -3.0])
    v = wang_claims.verdict_s3(down, down, up, skew)
    assert v.verdict == PARTLY and "HUE-MEAN" in v.evidence  # only kernel vs discretized holds
    v = wang_claims.verdict_s3(down, down, down, skew)
    assert v.verdict == NOT_REPRODUCED
    assert wang_claims.verdict_s3(up, up, down, skew).verdict == PARTLY
    # wins on 4 data sets of 4 are the paper's direction; a sign test could not reach 0.05 (p = 1/16), but the
    # paper ran none, so the direction is what holds
    few = _pw([0.1, 0.5, 1.0, 2.0])
    v = wang_claims.verdict_s3(few, few, few, skew.iloc[:4])
    assert v.verdict == REPRODUCED and "shown, not judged: sign test p = 0.062" in v.evidence
    tied = _pw([1.0, -1.0, 2.0, -2.0])  # 2:2, the mean above 0: more wins than losses is the direction, not met
    assert "GNB kernel vs Gaussian (fails)" in wang_claims.verdict_s3(tied, few, few, skew.iloc[:4]).evidence
    assert wang_claims.verdict_s3(_pw([]), _pw([]), _pw([]), skew).verdict == NOT_TESTABLE
    v = wang_claims.verdict_s3(up, up, up, skew, {"h in within-class std": (down, down, down)})
    assert v.readings == {"default": REPRODUCED, "h in within-class std": NOT_REPRODUCED}


# ------------------------------------------------------------------------------------------ Kang helpers
def test_wilcoxon_row_hand_values():
    r = kang_evidence.wilcoxon_row([1.0, 2.0, 3.0], [2.0, 2.0, 5.0])  # d = -1, 0, -2: two wins, one tie
    assert (r["wins"], r["losses"], r["ties"]) == (2, 0, 1)
    # exact null of 2 non-zero ranks: P(T+ = 0) = 1/4
    assert r["p_less"] == pytest.approx(0.25) and r["p"] == pytest.approx(0.5)
    assert r["mean_a"] == pytest.approx(2.0) and r["mean_b"] == pytest.approx(3.0)
    same = kang_evidence.wilcoxon_row([1.0, 2.0], [1.0, 2.0])
    assert same["p"] == 1.0 and same["ties"] == 2


def _row(mean_a, mean_b, p, n=20):
    return {"n": n, "wins": 0, "losses": 0, "ties": 0, "mean_a": mean_a, "mean_b": mean_b, "p": p, "p_less": p / 2}


def test_verdict_k1():
    claim = {  # the defaults (Weka's NB and LR) and NB's eq. 4 reading; _row's one-sided p is half the two-sided
        "nb_laplace": _row(13, 15, 0.01),
        "nb_kang": _row(13, 14, 0.02),
        "lr_kang_weka": _row(13, 15, 0.03),
        "tan_weka": _row(13, 14, 0.3),
        "c45_kang": _row(13, 17, 0.2),
    }
    v = kang_claims.verdict_k1(claim)
    assert v.verdict == REPRODUCED and v.readings == {
        "default": REPRODUCED,
        "NB by eq. 4": REPRODUCED,
        "two-sided Wilcoxon": REPRODUCED,
    }
    v = kang_claims.verdict_k1({**claim, "tan_weka": _row(13, 16, 0.001)})  # too strong: direction only
    assert v.verdict == PARTLY and "gain over TAN (Weka) (direction only)" in v.evidence
    v = kang_claims.verdict_k1({**claim, "nb_kang": _row(13, 14, 0.2)})  # the eq. 4 reading only
    assert v.verdict == REPRODUCED and v.readings["NB by eq. 4"] == PARTLY
    assert (
        "vs NB (eq. 4): mean error 13.00 vs 14.00 %, w/l/t 0/0/0, one-sided (HBayes-NB lower) p = 0.100" in v.evidence
    )
    assert "p = 0.100 → *direction only*" in v.evidence  # a significant-win part, as NB's
    v = kang_claims.verdict_k1({**claim, "lr_kang": _row(13, 15, 0.2)})  # LR at the optimum: not significant
    assert v.verdict == REPRODUCED and v.readings["LR at the optimum"] == PARTLY
    assert kang_claims.verdict_k1({**claim, "lr_kang_weka": _row(13, 15, 0.2)}).verdict == PARTLY
    none = {
        "nb_laplace": _row(16, 15, 0.01),
        "lr_kang_weka": _row(13, 15, 0.4),  # lower but not significant: direction only
        "tan_weka": _row(15, 14, 0.3),
        "c45_kang": _row(18, 17, 0.2),
    }
    assert kang_claims.verdict_k1(none).verdict == NOT_REPRODUCED
    v = kang_claims.verdict_k1({k: claim[k] for k in ("nb_laplace", "nb_kang", "lr_kang_weka")})
    assert v.verdict == PARTLY and "gain over TAN (Weka) (not testable: not run)" in v.evidence
    assert kang_claims.verdict_k1({}).verdict == NOT_TESTABLE


def test_k1_sidedness_one_sided_by_default_two_sided_as_a_reading():
    """The paper's Table 1 gives vs NB two-sided p = 0.064, one-sided 0.032: its "significant" win holds only
    one-sided, the default (its own diagnostic: 4 of its 4 statements one-sided, 3 two-sided)."""
    rows = {
        "nb_laplace": {**_row(13.2, 14.8, 0.064), "p_less": 0.032},
        "lr_kang_weka": {**_row(13.2, 14.9, 0.033), "p_less": 0.0165},
        "tan_weka": {**_row(13.2, 14.4, 0.26), "p_less": 0.13},
        "c45_kang": {**_row(13.2, 17.0, 0.112), "p_less": 0.054},
    }
    v = kang_claims.verdict_k1(rows, rows)
    assert v.readings == {"default": REPRODUCED, "two-sided Wilcoxon": PARTLY}
    assert "significantly beats NB (direction only)" in v.evidence.split("- reading *two-sided Wilcoxon*")[1]
    assert "agrees with 4 of its 4 statements one-sided and with 3 two-sided" in v.evidence


CLAIMED = {"hbayes_nb": 13.23, "hbayes_tan_weka": 13.68}  # the paper's averages (Table 1), shown beside ours


def test_verdict_k2():
    paper = {"hbayes_nb": 13.0, "nb_laplace": 15.0}
    std = {"hbayes_nb": 0.3, "nb_laplace": 0.5}  # within 2 std: 0.5 <= 0.6 and 0.8 <= 1.0
    v = kang_claims.verdict_k2({"hbayes_nb": 13.5, "nb_laplace": 14.2}, paper, CLAIMED, std)
    assert v.verdict == REPRODUCED and "Claimed over all 20: HBayes-NB 13.23, HBayes-TAN (Weka) 13.68." in v.evidence
    # without a std only the printed precision (0.01 points) is left
    assert kang_claims.verdict_k2({"hbayes_nb": 13.5, "nb_laplace": 14.2}, paper, CLAIMED).verdict == NOT_REPRODUCED
    assert kang_claims.verdict_k2({"hbayes_nb": 13.005, "nb_laplace": 14.2}, paper, CLAIMED).verdict == PARTLY
    v = kang_claims.verdict_k2({"hbayes_nb": 11.0, "nb_laplace": 14.2}, paper, CLAIMED, std)
    assert v.verdict == PARTLY and "HBayes-NB 13.00 (fails)" in v.evidence
    assert (
        kang_claims.verdict_k2({"hbayes_nb": 18.0, "nb_laplace": 17.0}, paper, CLAIMED, std).verdict == NOT_REPRODUCED
    )


def test_verdict_k2_per_reading():
    # NB's column holds one published number; the eq. 4 reading is judged against it inside NB's part
    paper = {"hbayes_nb": 13.0, "nb_laplace": 15.0, "nb_kang": 15.0}
    std = {"hbayes_nb": 0.3, "nb_laplace": 0.5, "nb_kang": 0.5}
    v = kang_claims.verdict_k2({"hbayes_nb": 13.5, "nb_laplace": 14.2, "nb_kang": 17.0}, paper, CLAIMED, std)
    assert v.readings == {"default": REPRODUCED, "NB by eq. 4": PARTLY}
    assert "Our lowest average: HBayes-NB" in v.evidence  # the ranking is among the defaults


def test_verdict_k3():
    slightly = _row(13.7, 13.2, 0.4)  # HBayes-TAN error vs HBayes-NB error; work = logistic fits
    k3 = kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], slightly, CLAIMED, [40, 60], [4, 6])
    assert k3.verdict == REPRODUCED and "ratio 10.0" in k3.evidence and "Newton iterations 100 vs 10" in k3.evidence
    assert "the paper: 13.68 vs 13.23" in k3.evidence
    # no test or timing in the paper: "much faster" holds on its direction, fewer fits (ratio 1.3)
    assert kang_claims.verdict_k3([10.0, 20.0], [8.0, 15.0], slightly, CLAIMED).verdict == REPRODUCED
    v = kang_claims.verdict_k3([10.0, 20.0], [10.0, 20.0], slightly, CLAIMED)  # the same work: not faster
    assert v.verdict == PARTLY and "much faster (fails)" in v.evidence
    v = kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], _row(12.0, 13.2, 0.4), CLAIMED)
    assert v.verdict == PARTLY and "slightly less accurate (fails)" in v.evidence
    # "slightly" has no test in the paper either: a higher error holds on its direction, p shown
    v = kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], _row(18.0, 13.2, 0.01), CLAIMED)
    assert v.verdict == REPRODUCED and "Wilcoxon p = 0.010" in v.evidence
    # per reading of the HBayes-TAN column (Weka's TAN the default): an alternative that is more accurate
    alt = {"HBayes-TAN (outward tree)": ([2.0, 3.0], _row(12.0, 13.2, 0.4), None)}
    v = kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], slightly, CLAIMED, readings=alt)
    assert v.readings == {"default": REPRODUCED, "HBayes-TAN (outward tree)": PARTLY}
    assert "*HBayes-TAN (outward tree)*: 5 logistic fits, mean error 12.00 %" in v.evidence
    # a reading of both columns (Weka's optimizer in HBayes): HBayes-TAN's fits against HBayes-NB's under it
    alt = {"Weka's LR": ([20.0, 15.0], _row(18.0, 13.2, 0.01), [10.0, 20.0 + 6.0])}
    v = kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], slightly, CLAIMED, readings=alt)
    assert "*Weka's LR*: 35 logistic fits (HBayes-NB 36), mean error 18.00 %" in v.evidence
    assert v.readings["Weka's LR"] == REPRODUCED  # 35 < 36: faster on its direction; higher error
    alt = {"Weka's LR": ([20.0, 15.0], _row(18.0, 13.2, 0.01), [10.0, 20.0])}
    assert (
        kang_claims.verdict_k3([10.0, 20.0], [1.0, 2.0], slightly, CLAIMED, readings=alt).readings["Weka's LR"]
        == PARTLY
    )  # 35 > 30 fits: not faster


# ------------------------------------------------------------------------------------------ sections
def _experiment(root, name, datasets, learners, accuracy, folds, published, fit=None, fit_info=None):
    """A hand-built experiment directory: per-split accuracies accuracy(dataset, learner, split)."""
    rows = []
    for ds in datasets.values():
        for x in learners:
            for s in range(folds):
                rows.append(
                    {
                        "dataset": ds,
                        "learner": x,
                        "split": s,
                        "repeat": 0,
                        "test_rows": 10,
                        "accuracy": accuracy(ds, x, s),
                    }
                )
    write_results(name, rows, folds, test_fraction=1 / folds)
    for x in learners:
        seconds = (fit or {}).get(x, 1.0)
        layout.predictions(name, x).mkdir(parents=True, exist_ok=True)
        (layout.predictions(name, x) / "timings.json").write_text(
            json.dumps(
                {
                    ds: {"fit_seconds": seconds, "predict_seconds": 0.1, "wall_seconds": seconds + 0.5}
                    for ds in datasets.values()
                }
            )
        )
    for x, per_split in (fit_info or {}).items():  # the same fit_info for every data set and split
        (layout.predictions(name, x) / "fit_info.json").write_text(
            json.dumps({ds: [per_split] * folds for ds in datasets.values()})
        )
    learner_blocks = {x: {"class": "NaiveBayes"} for x in learners}
    return {
        "seed": 0,
        "learners": learner_blocks,
        "experiments": {
            name: {
                "datasets": datasets,
                "protocol": {"kind": "cv", "folds": folds, "repeats": 1},
                "discretizer": {"kind": "mdl"},
                "impute": "mode",
                "learners": learners,
                "published": published,
            }
        },
    }


def test_kang_sections_on_a_hand_built_experiment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ["Annealing", "Balance-scale", "Credit", "Glass", "Iris", "Labor", "Wine", "Zoo"]
    datasets = {p: p.lower() for p in names}
    # accuracy below HBayes-NB's per data set: NB and LR lose everywhere; TAN and C4.5 lose 2 points on three
    # data sets and win 1 point on three (T- = 15, T+ = 6 of n = 6: p = 0.31, not significant);
    # HBayes-TAN loses 0.5 or wins 0.25 (mean error higher, not significant)
    mixed = [0.02, -0.01, 0.02, -0.01, 0.02, -0.01, 0.0, 0.0]
    gap = {
        "hbayes_nb": [0.0] * 8,
        "hbayes_tan_weka": [0.005, -0.0025] * 4,
        "hbayes_tan": [0.005, -0.0025] * 4,
        "nb_laplace": [0.03] * 8,
        "nb_kang": [0.035] * 8,
        "lr_kang_weka": [0.04] * 8,
        "lr_kang": [0.045] * 8,
        "c45_kang": mixed,
        "tan_weka": mixed,
        "tan_bayes": mixed,
        "tan": [0.01] * 8,
        "hbayes_tan_cmi": [0.01] * 8,
        "hbayes_nb_wekaopt": [0.01] * 8,  # HBayes-NB with Weka's optimizer: 1 point lower everywhere
        "hbayes_tan_wekaopt": [0.005, -0.0025] * 4,
    }

    def accuracy(ds, x, s):
        i = [p.lower() for p in names].index(ds)
        return 0.8 - gap[x][i] - 0.01 * i + 0.002 * s

    spec = [
        {
            "table": "kang2006_table1.csv",
            "metric": "error_fraction",
            "columns": {
                "hbayes_nb": "hbayes_nb_err",
                "hbayes_tan_weka": "hbayes_tan_err",
                "hbayes_tan": "hbayes_tan_err",
                "nb_laplace": "nb_err",
                "lr_kang_weka": "lr_err",
                "c45_kang": "c45_err",
                "tan_weka": "tan_err",
                "tan_bayes": "tan_err",
                "nb_kang": "nb_err",
                "lr_kang": "lr_err",
            },
        }
    ]
    work = {
        "hbayes_nb": {"s1": [0, 1], "n_lr_fits": 60, "n_newton_iterations": 600},
        "hbayes_tan_weka": {"s1": [], "n_lr_fits": 10, "n_newton_iterations": 80},
        "hbayes_tan": {"s1": [], "n_lr_fits": 10, "n_newton_iterations": 80},
        "hbayes_nb_wekaopt": {"s1": [0, 2], "n_lr_fits": 55, "n_newton_iterations": 900},
        "hbayes_tan_wekaopt": {"s1": [], "n_lr_fits": 10, "n_newton_iterations": 120},
        "lr_kang": {"n_iter": 21, "converged": True, "objective": 0.5, "max_abs_slope": 2.0},
        "lr_kang_weka": {"n_iter": 30, "converged": True, "objective": 5.0, "max_abs_slope": 8.0},
    }
    params = _experiment(tmp_path, "kang2006", datasets, kang_evidence.TABLE1, accuracy, 5, spec, fit_info=work)
    text = "\n".join(render(kang2006, ReportContext.load(params, "kang2006")))
    assert "| Annealing | 19.60 ± 0.32 | 11.16 |" in text  # 100 - mean(80.0 .. 80.8); pub. .1116
    # vs NB and LR: 8 wins of 8, exact one-sided p = 1 / 2**8, two-sided 2 / 2**8
    assert (
        f"w/l/t 8/0/0, one-sided (HBayes-NB lower) p = {1 / 2**8:.3f} → *holds*, two-sided p = {2 / 2**8:.3f}" in text
    )
    # TAN (CMI) loses 1 point everywhere: under that reading the "non-significant gain" is significant
    assert (
        "| K1 | **reproduced** (default); **reproduced** (two-sided Wilcoxon); **reproduced** (NB by eq. 4); "
        "**partly reproduced** (HBayes' LR stopped where Weka stops); **reproduced** (LR at the optimum); "
        "**reproduced** (TAN (outward tree)); **partly reproduced** (TAN (CMI)) |" in text
    )
    # HBayes-NB with Weka's optimizer: 1 point worse everywhere, so no longer ahead of TAN and C4.5; its S1 differs
    assert "HBayes-NB: the same S1 in 0 of 40 folds; mean error 23.10 % at the optimum, 24.10 % with" in text
    assert "HBayes-TAN (Weka): the same S1 in 40 of 40 folds" in text
    assert "24000 Newton iterations against 36000 iterations of Weka's optimizer" in text
    assert (
        "| K3 | **reproduced** (default); **reproduced** (HBayes-TAN (outward tree)); **partly reproduced** (HBayes' "
        in text
    )
    assert "ratio 6.0" in text  # 8 x 5 x 60 vs 8 x 5 x 10 fits
    assert "Newton iterations 24000 vs 3200" in text
    assert "gradient tolerance in 40 of 40 folds" in text
    assert "S1 is empty in 0 of 5 folds" in text
    assert "| NB (eq. 4) |" in text and "| TAN (CMI) |" in text  # both readings in the Wilcoxon table
    # Weka's stopping point against the optimum, from fit_info: slopes 8 / 2, objectives 5 / 0.5
    assert "largest standardized slope 4x the optimum's (median over 40 folds; objective 10x)" in text
    assert "on Labor 4x larger coefficients at a 10x higher objective" in text
    # K2: our averages (about 23 %) are far from the paper's over the same data sets, beyond 2 std
    assert "| K2 | **not reproduced** |" in text and "HBayes-NB 10.64 (fails)" in text
    # the paper's averages over its 20 data sets: the Average row of kang2006_table1.csv
    assert (
        "Claimed over all 20: HBayes-NB 13.23, HBayes-TAN (Weka) 13.68, NB 14.77, LR 14.90, C4.5 17.01, TAN (Weka) 14.40."
        in text
    )
    assert "- reading *HBayes-TAN (outward tree)*: **reproduced**" in text  # K3 per reading of HBayes-TAN


def test_wang_sections_on_a_hand_built_experiment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(1)
    names = {"Australian": "australian", "Breast": "breast-cancer", "Diabetes": "diabetes"}
    layout.prepared("wang2006").mkdir(parents=True)
    numeric = {"australian": 2, "breast-cancer": 0, "diabetes": 4}
    for ds, k in numeric.items():  # 4 attributes, k of them numeric (skewed), the rest nominal
        X = np.column_stack(
            [rng.exponential(size=40) for _ in range(k)] + [rng.integers(0, 3, 40).astype(float) for _ in range(4 - k)]
        )
        attrs = [{"name": f"a{j}", "kind": "numeric", "values": []} for j in range(k)] + [
            {"name": f"a{j}", "kind": "nominal", "values": ["x", "y", "z"]} for j in range(k, 4)
        ]
        Table(ds, X, rng.integers(0, 2, 40), attrs, ["0", "1"]).save(layout.prepared("wang2006", ds))
    learners = wang_evidence.PAPER + wang_evidence.REFERENCE
    # S-NBTree's advantage over NBTree grows with the number of numeric attributes (S2), kernel > Gauss (S3)
    bonus = {"snbtree": 0.01, "gnb": 0.01}

    def accuracy(ds, x, s):
        return 0.7 + bonus.get(x, 0) * (1 + numeric[ds]) + 0.01 * (s % 2)

    spec = [
        {
            "table": "wang2006_table1.csv",
            "metric": "accuracy_pct",
            "columns": {"c45": "c45_acc", "nbtree": "nbtree_acc", "snbtree": "snbtree_acc"},
        }
    ]
    params = _experiment(tmp_path, "wang2006", names, learners, accuracy, 4, spec)
    text = "\n".join(paper.render(wang2006, ReportContext.load(params, "wang2006")))
    assert "| Diabetes | 4/4 | +5.00 |" in text
    assert "| Breast | 0/4 | +1.00 |" in text
    # 3 wins of 3 where the paper had 2 (Australian ×): a count is compared exactly
    assert "| S1 | **not reproduced** |" in text and "S-NBTree beats NBTree on 2 of 3 (fails)" in text
    # no test in the paper: the advantage rising with the share of numeric attributes holds on its direction
    assert "| S2 | **reproduced** |" in text
    # S3 over the two data sets with numeric attributes; Breast (all nominal) is left out
    assert "| Australian | 2 |" in text and "| Breast | 0 |" not in text
    # kernel wins everywhere (2:0, the direction; no test in the paper), a skewness correlation needs 3 data sets
    assert "GNB kernel vs Gaussian: 2:0" in text and "| S3 | **partly reproduced** |" in text
    assert "does not hold: the kernel advantage grows with skewness (not testable)" in text
    assert "HUE-MEAN" in text
    # ours 70.5 vs published C4.5 65.9 / 63.8 / 67.3: none more than 10 points below
    assert "- C4.5: ours − published = " in text and "more than 10 points below ours on 0." in text


def test_wang_root_reading_and_gaps_on_a_hand_built_experiment(tmp_path, monkeypatch):
    """S3's S-NBTree part is judged under the root reading with the Gaussian-leaf tree of the same reading; the
    GAPS lines give the gap in the paper's own std, our worst fold and the majority-class rate."""
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(2)
    names = {"Australian": "australian", "Diabetes": "diabetes", "German": "german"}
    layout.prepared("wang2006").mkdir(parents=True)
    for ds in names.values():
        X = np.column_stack([rng.exponential(size=40) for _ in range(3)])
        attrs = [{"name": f"a{j}", "kind": "numeric", "values": []} for j in range(3)]
        Table(ds, X, np.r_[np.zeros(30, int), np.ones(10, int)], attrs, ["0", "1"]).save(
            layout.prepared("wang2006", ds)
        )
    learners = wang_evidence.PAPER + wang_evidence.REFERENCE + ["snbtree_rootsplit", "snbtree_gaussian_rootsplit"]
    # kernel leaves beat Gaussian ones by default (S3 direction), lose to them when the root is always split
    bonus = {"snbtree": 0.02, "snbtree_gaussian_rootsplit": 0.03}

    def accuracy(ds, x, s):
        return 0.7 + bonus.get(x, 0) + 0.01 * (s % 2)

    spec = [
        {
            "table": "wang2006_table1.csv",
            "metric": "accuracy_pct",
            "columns": {"c45": "c45_acc", "nbtree": "nbtree_acc", "snbtree": "snbtree_acc"},
        }
    ]
    params = _experiment(tmp_path, "wang2006", names, learners, accuracy, 4, spec)
    ctx = ReportContext.load(params, "wang2006")
    v = wang_claims.s3(ctx)
    assert v.readings["root always split (Fig. 2)"] == NOT_REPRODUCED
    assert "S-NBTree kernel vs Gaussian leaves (fails)" in v.evidence.split("reading *root always split")[1]
    default = v.evidence.split("reading *default*")[1].split("- reading")[0]
    assert "S-NBTree kernel vs Gaussian leaves" in default.split("does not hold")[0]  # holds on its direction
    lines = wang2006.GAPS["Australian"](ctx)
    # C4.5: ours (70 + 71 + 70 + 71) / 4 = 70.5, published 65.86 (std 1.97): +4.64 = 2.4 std, below our folds
    assert lines[0] == (
        "- C4.5: the gap is 2.4 times the paper's own std (1.97); our 4 folds range 70.0 to 71.0, the published "
        "value outside it."
    )
    assert lines[-1].startswith("- Unexplained.") and "most frequent class scores 75.0%" in lines[-1]
    assert "outside the range of our folds for 3 of 3 learners" in lines[-1]
    assert set(wang2006.GAPS) == set(pd.read_csv(folder("wang2006") / "wang2006_table1.csv")["dataset"])


def test_wang_kernel_width_reading_says_what_the_paper_cites():
    ctx = SimpleNamespace(
        has=lambda *xs: True,
        datasets={"Iris": "iris"},
        acc=lambda p, x: 90.0,
        fit_info=lambda x: {},
        exp=SimpleNamespace(protocol={"kind": "cv", "folds": 10}, datasets={"Iris": "iris"}),
    )
    text = "\n".join(wang_sections.readings_section(ctx))
    assert "citing Silverman (1986)" in text and "Smyth, Gray & Fayyad (1995)" in text
    assert "it does not give the unit of h" in text and "it cites neither John & Langley (1995) nor Weka" in text
    assert "The kernel width's formula read literally (§4)" in text and "not both at hand" in text


@pytest.mark.parametrize(("raw", "verdict"), [(0.5, "so the default stands"), (0.05, "the literal reading would")])
def test_wang_raw_unit_reading_is_judged_by_the_grid_bounds(raw, verdict):
    """Per data set the share of bandwidth searches at a grid bound, averaged over folds, then over data sets."""
    runs = {  # learner -> data set -> per fold (share at 0.2, share at 0.8)
        "gnb": {"a": [(0.1, 0.0), (0.1, 0.1)], "b": [(0.0, 0.2), (0.0, 0.2)]},  # 15 % and 20 %: 17.5 %
        "gnb_stdunit": {"a": [(0.0, 0.6), (0.0, 0.6)], "b": [(0.0, 0.9), (0.0, 0.9)]},  # 75 %
        "gnb_rawunit": {"a": [(raw, 0.0), (raw, 0.0)], "b": [(0.0, raw), (0.0, raw)]},
    }
    ctx = SimpleNamespace(
        has=lambda *xs: all(x in runs for x in xs),
        datasets={"A": "a", "B": "b"},
        exp=SimpleNamespace(datasets={"A": "a", "B": "b"}),
        fit_info=lambda x: {
            ds: [{"kernel_c_at_min": lo, "kernel_c_at_max": hi} for lo, hi in folds] for ds, folds in runs[x].items()
        },
    )
    text = wang_sections.raw_unit_verdict(ctx)
    assert f"{100 * raw:.0f} % end at a grid bound in the attribute's units, against 18 % in range units" in text
    assert "75 % in standard deviations" in text and verdict in text


class _GapContext:
    """The few ReportContext views the gap lines read: per-split accuracies (fractions) and fit_info."""

    datasets = {"Balance-scale": "balance-scale"}

    def __init__(self, split_acc: dict, fit_info: dict):
        self._split, self._info = split_acc, fit_info

    def has(self, *learners):
        return all(x in self._split for x in learners)

    def split_acc(self, p, x):
        return np.asarray(self._split[x])

    def acc(self, p, x):
        return 100 * float(np.mean(self._split[x]))

    def fit_info(self, x):
        return self._info.get(x, {})


def test_gap_lines_hbayes_with_empty_s1():
    nb = [0.92, 0.91, 0.93, 0.92]  # HBayes-NB = NB (eq. 4) fold by fold: S1 stayed empty
    folds = [{"s1": [], "search_path": [[[], 0.9]]}] * 4
    ctx = _GapContext(
        {"hbayes_nb": nb, "nb_kang": nb, "lr_kang_weka": [0.98] * 4}, {"hbayes_nb": {"balance-scale": folds}}
    )
    ours = 100 * np.mean(nb)
    std = float(np.std(100 * np.array(nb), ddof=1))
    cell = kang_gaps.Cell("Balance-scale", "hbayes_nb", ours, std, 97.27)
    lines = kang_gaps._cell_lines(ctx, cell)
    gap = (100 - ours) - 2.73
    se = np.sqrt(2 / 4) * std  # of the difference of two 4-fold means
    assert lines[0].startswith(f"`hbayes_nb`: {gap:+.1f} error points, {gap / se:.1f} standard errors")
    assert "kept S1 = ∅ in 4 of 4 folds" in lines[1] and "equals in 4 of 4 folds" in lines[1]
    assert "mean 90.0 %" in lines[1] and "*LR* 2.00 %" in lines[1]
    assert lines[-1].startswith("Measured cause: the greedy search returns S1 = ∅ on all 4 folds")


def test_gap_lines_reading_and_sampling():
    ctx = _GapContext({"tan_weka": [0.66, 0.64], "tan": [0.60, 0.59]}, {})  # TAN (Weka) the default, CMI a reading
    lines = kang_gaps._cell_lines(ctx, kang_gaps.Cell("Balance-scale", "tan_weka", 65.0, 1.41, 60.5))
    assert "*TAN (CMI)* errs 40.50 % (+1.0)" in lines[1]
    assert lines[-1].startswith("Measured cause: the reading")
    noisy = _GapContext({"c45_kang": [0.9, 0.5]}, {})  # fold std 28.28: 4.5 points is 0.16 standard errors
    lines = kang_gaps._cell_lines(noisy, kang_gaps.Cell("Balance-scale", "c45_kang", 70.0, 28.28, 65.5))
    assert lines[-1].startswith("What the numbers show: a gap of 0.2 standard errors of the difference, under two")
    flat = _GapContext({"c45_kang": [0.70, 0.70]}, {})
    lines = kang_gaps._cell_lines(flat, kang_gaps.Cell("Balance-scale", "c45_kang", 70.0, 0.0, 60.0))
    assert lines[-1] == "Unexplained beyond these measurements."
