"""Scaling: fit time against the number of rows for every learner, and naive Bayes at 1M rows against
scikit-learn's CategoricalNB (target 5 in benchmarks/README.md).

    python benchmarks/scaling.py [--learners nb_laplace,c45] [--max-rows 100000] [--full-size]
        [--skip-learners] [--skip-nb] [--nb-rows 1000000]
        [--skip-mdl] [--mdl-rows 10000000] [--skip-c45] [--c45-rows 1000000] [--repeats 3]
        [--baseline-src OTHER/src] [--baseline-max-rows 1000000] [--results FILE.json] [--plots DIR]

Part 1: each learner block of params.yaml listed in LEARNERS (one per learner class, as the pipeline
builds it) is fitted on synthetic data of 1k, 3k, 10k, ... rows (up to its own cap, so the whole script
runs in a few minutes; ``--full-size``: every learner up to ``--max-rows``, 10^6 by default, and the naive Bayes
family (NB_FAMILY) ten times further, 10^7: the sizes target 1 of the slopes is set at), 20 attributes, 3
classes. Discrete learners get integer codes (2-6 values per attribute), mixed-input ones the numeric values the
codes were binned from. The slope of log(fit seconds) on log(rows) is printed over all sizes and over the three
largest (fixed costs flatten the small end); a slope near 1 is linear. The slope over every size is checked
against the target (<= 1.15), as in parts 3-6. CPU seconds, one thread. At 10^5 rows a further, traced fit gives
each learner's peak memory (target <= 3x the input, counted as an n x 20 float64 array).
The kernel-density learners (gnb, snbtree) run twice: on the all-distinct values and on the same values recorded
to 2 decimals.

Part 2: NaiveBayes (Laplace) fit and predict on 10^5 and 10^6 x 20 codes (int64, 5 values, 2 classes), best of
``--repeats``, a fresh process per size, against scikit-learn's CategoricalNB on the same data when scikit-learn
is installed (it is not a dependency of nbx: ``pip install scikit-learn`` to compare); the time ratio target is
<= 0.5. Peak memory is the peak of the memory allocated during fit + predict (tracemalloc, which sees numpy's
buffers, in a further run so the timed ones are not traced), as a multiple of the input (X.nbytes); the target
is <= 3x.

Part 3: the MDL discretizer (Fayyad & Irani 1993) on 1k .. 10M rows x 20 all-distinct numeric attributes
against numpy's argsort of every column (``np.argsort(X, axis=0)``, the floor of a method that sorts each column
once): CPU seconds, their ratio (target <= 5) and the slope of log time on log rows (target <= 1.15).
Part 4: C45Tree fit + predict on 1k .. 1M rows against scikit-learn's
``DecisionTreeClassifier(criterion="entropy")`` (one thread; ratio target <= 2, slope <= 1.15), and the peak
memory of a C45Tree fit as a multiple of the input (target <= 3x at 10^5 and 10^6 rows): tracemalloc's peak of
what one fit allocates (numpy's buffers included; the input X, made before, is not counted), divided by
X.nbytes (n x 20 float64), in a separate traced fit after the timed ones. Both parts time each size in a fresh
process, best of ``--repeats``; ``--baseline-src`` also times another checkout's ``src`` (before and after in one
run) up to ``--baseline-max-rows``. Part 4 alone, before and after:

    python benchmarks/scaling.py --skip-learners --skip-nb --skip-mdl --baseline-src OLD/src

Part 5: ridge LogisticRegression fit + predict on 1k .. 1M rows of 10-valued codes against scikit-learn's
LogisticRegression (lbfgs, same ridge and tolerance; ratio target <= 1, slope <= 1.15), then HBayesNB at 100k rows
against our LogisticRegression (printed, no target: Kang & Tian's search is the method, and its cost is that of
the logistic fits it makes).
Part 6: GeneralNB (kernel) and SelfAdaptiveNBTree fit + predict on 1k .. 1M rows x 20 all-distinct values
against scikit-learn's GaussianNB (the kernel reading's ratio printed, no target: Wang et al.'s 61-value search of
c_X is the method; slope <= 1.15, peak memory of a fit <= 3x the input) and numba's start-up; GeneralNB's Gaussian
reading beside it (ratio target <= 1).

Every printed measurement also goes to a JSON results file (``--results``, default
benchmarks/results/scaling.json, untracked), written after each part, and benchmarks/plots.py draws it (``--plots``,
default the results file's folder): per part time against rows on log-log axes beside the peer with the slopes,
and every target's measured value beside its limit (scaling_targets.png).
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
from plots import DEFAULT_DIR, Results, check, draw, series, slope

REPO = Path(__file__).resolve().parents[1]
sys.path.append(str(REPO / "src"))  # this checkout's nbx when none is installed (PYTHONPATH still wins)

# params.yaml learner block -> largest number of rows to fit (a few seconds per fit at most here). The kernel
# density learners (gnb, snbtree) sum exactly over the kernel centres of samples of at most 256 distinct values
# and by binned sums beyond (linear in rows; part 6 takes them to 1M rows beside GaussianNB). RECORDED repeats
# them on the same values recorded to DECIMALS decimals, as measurements are (UCI's numeric columns carry a few
# digits): fewer distinct values per class.
LEARNERS = {
    "nb_laplace": 1_000_000,
    "gnb_gaussian": 1_000_000,
    "tan": 300_000,
    "c45": 100_000,
    "c45_kang": 100_000,
    "lr_kang": 100_000,
    "boosting_nb": 300_000,
    "bagging_nb": 300_000,
    "muv_nb3_boot_bal_js": 300_000,
    "lnbt3": 100_000,
    "blnbt3": 30_000,
    "hm22": 30_000,
    "hbayes_nb": 30_000,
    "hbayes_tan": 10_000,
    "nbtree": 30_000,
    "snbtree": 30_000,
    "gnb": 100_000,
    "muv_of_muv_js": 30_000,
}
RECORDED = {"gnb": 300_000, "snbtree": 100_000}
DECIMALS = 2
SIZES = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000]
NB_FAMILY = ("nb_laplace", "gnb_gaussian", "gnb")  # naive Bayes proper: --full-size takes them 10x further (10^7)
N_ATTRS, N_CLASSES, SEED = 20, 3, 2026
# the kinds of target checked (one panel each in scaling_targets.png); ratio and memory targets are set at 10^5
# rows and more (benchmarks/README.md), slopes over sizes up to 10^6 and beyond
TIME_RATIO, MEMORY, SLOPE = "CPU time, ours / the peer's", "peak memory, x the input", "slope of log time on log rows"
TARGET_ROWS, SLOPE_ROWS = 100_000, 1_000_000


def synthetic(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(numeric X, codes, n_values, y): classes from a noisy rule on a few attributes with an interaction,
    so trees and mixtures have structure to find; codes are the numeric values binned into 2-6 values."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, N_ATTRS))
    score = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.6 * X[:, 3] + 0.5 * X[:, 4] ** 2 + rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    n_values = 2 + np.arange(N_ATTRS) % 5
    codes = np.column_stack(
        [np.digitize(X[:, j], np.linspace(-1.5, 1.5, v + 1)[1:-1]) for j, v in enumerate(n_values)]
    ).astype(np.int16)
    return X, codes, n_values, y


def fit_seconds(name: str, n: int, decimals: int | None = None, trace: bool = False) -> tuple[float, float]:
    """CPU seconds of one fit of params.yaml's learner ``name`` on ``n`` synthetic rows, the best of two fits,
    numeric values rounded to ``decimals`` if given; and with ``trace`` the peak memory of a third, traced fit
    (tracemalloc, numpy's buffers included) as a multiple of an n x 20 float64 array (the numeric input; the
    discrete learners' int16 codes of that shape counted at 8 bytes a value, as a user's array holds them), else
    nan. Best of two at every size: the first large fit in a process also pays the kernel's first touch of fresh
    memory (gnb_gaussian at 1M rows: 2.8 s, then 0.77 s), so timing one fit only where it is slow would bend the
    slope upwards."""
    from nbx.core.base import clone
    from nbx.pipeline import config, learners

    setup = learners.build_learner(config.load_params(REPO / "params.yaml"), name)
    X, codes, n_values, y = synthetic(n)
    if setup.input == "discrete":
        X, nv = codes, n_values
    else:
        X, nv = (X if decimals is None else np.round(X, decimals)), np.zeros(N_ATTRS, np.int64)

    def fresh():
        model = clone(setup.estimator)
        if "random_state" in model.get_params(deep=False):
            model.set_params(random_state=0)
        return model

    best = np.inf
    for _ in range(2):
        model = fresh()
        t0 = time.process_time()
        model.fit(X, y, n_values=nv)
        best = min(best, time.process_time() - t0)
    del model
    return best, peak_ratio(lambda: fresh().fit(X, y, n_values=nv), n * N_ATTRS * 8) if trace else float("nan")


def target_rows(rows: list[int]) -> list[int]:
    """The sizes a ratio or memory target is read at: TARGET_ROWS and more, else (a shorter run) the largest."""
    return [n for n in rows if n >= TARGET_ROWS] or rows[-1:]


def slope_checks(what: str, rows: list[int], seconds: list[float]) -> list[dict]:
    """The slope target (<= 1.15) of one timed series, set over sizes up to SLOPE_ROWS and beyond; none for one
    size."""
    if len(rows) < 2:
        return []
    what = f"{what}, {rows[0]:,d} to {rows[-1]:,d} rows"
    return [check(what, SLOPE, slope(rows, seconds), 1.15, applies=rows[-1] >= SLOPE_ROWS)]


def has_sklearn(peer: str) -> bool:
    """Whether scikit-learn is installed; if not, says which peer goes unmeasured."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        print(f"scikit-learn is not installed (pip install scikit-learn): {peer} not measured\n")
        return False
    return True


def learners_part(names: list[str], max_rows: int, full_size: bool = False) -> dict:
    """Part 1; each learner up to its LEARNERS cap, or with ``full_size`` every one up to ``max_rows`` and the
    naive Bayes family (NB_FAMILY) up to 10 x ``max_rows``. Peak memory of a fit at TARGET_ROWS."""
    print("Part 1: fit CPU seconds by rows (synthetic, 20 attributes, 3 classes); slope of log time on log rows\n")
    runs = [(name, max_rows if full_size else LEARNERS[name], None) for name in names]
    if full_size:
        runs = [(name, 10 * cap if name in NB_FAMILY else cap, d) for name, cap, d in runs]
    runs += [(name, max_rows if full_size else cap, DECIMALS) for name, cap in RECORDED.items() if name in names]
    shown = [s for s in SIZES if s <= max(cap for _, cap, _ in runs)]
    print(f"{'learner':22s}" + "".join(f"{s:>11,d}" for s in shown) + f"{'slope':>8s}{'top 3':>7s}{'peak':>7s}")
    lines, checks = [], []
    for name, cap, decimals in runs:
        label = name if decimals is None else f"{name} ({decimals} dp)"
        print(f"{label:22s}", end="", flush=True)
        rows = [n for n in shown if n <= cap]
        secs, peak = [], float("nan")
        for n in rows:
            seconds, traced = fit_seconds(name, n, decimals, trace=n == TARGET_ROWS)
            secs.append(seconds)
            peak = traced if n == TARGET_ROWS else peak
            print(f"{secs[-1]:11.3f}", end="", flush=True)
        top = slope(rows[-3:], secs[-3:]) if len(rows) >= 3 else float("nan")
        print(
            " " * 11 * (len(shown) - len(rows))
            + f"{slope(rows, secs):8.2f}{top:7.2f}"
            + ("" if np.isnan(peak) else f"{peak:6.2f}x"),
            flush=True,
        )
        lines.append(series(label, "ours", rows, secs, peak=[peak if n == TARGET_ROWS else None for n in rows]))
        checks += slope_checks(label, rows, secs)  # the fitted slope over every size, as parts 3-6 check it
        if TARGET_ROWS in rows:
            checks.append(check(f"{label} fit, peak memory", MEMORY, peak, 3, TARGET_ROWS))
    print(
        "\nA slope of 1 is linear in rows (target <= 1.15 over the sizes up to "
        f"{SLOPE_ROWS:,d} rows and beyond: --full-size, the naive Bayes family {', '.join(NB_FAMILY)} 10x further); "
        "the small sizes carry fixed costs, which flatten the whole slope, and the largest leave "
        "the caches, which steepens the top-3 slope: read both. '(2 dp)': numeric values recorded to "
        f"{DECIMALS} decimals (bounded distinct values). Peak: the peak memory of a fit at {TARGET_ROWS:,d} rows "
        "(target <= 3) over an n x 20 float64 array (the discrete learners' codes counted at 8 bytes a value).\n"
    )
    return {
        "title": f"Part 1: params.yaml learners, fit on synthetic data ({N_ATTRS} attributes, {N_CLASSES} classes)",
        "xlabel": "rows",
        "ylabel": "CPU seconds, fit (best of 2)",
        "top3": True,
        "series": lines,
        "checks": checks,
    }


# ------------------------------------------------------------------------------------- naive Bayes
def nb_child(which: str, n: int, repeats: int) -> None:
    """Fit + predict one naive Bayes on n x 20 codes in this (fresh) process, best of ``repeats`` by their total;
    prints that run's fit and predict CPU seconds, the peak memory and the input's MB."""
    if which == "sklearn":
        from sklearn.naive_bayes import CategoricalNB as Model
    else:
        from nbx.models.naive_bayes import NaiveBayes as Model
    rng = np.random.default_rng(SEED)
    X = rng.integers(0, 5, size=(n, N_ATTRS))
    y = rng.integers(0, 2, n)
    best = (np.inf, np.inf)
    for _ in range(repeats):
        t0 = time.process_time()
        model = Model().fit(X, y)
        t1 = time.process_time()
        model.predict(X)
        t2 = time.process_time()
        best = min(best, (t1 - t0, t2 - t1), key=sum)
        del model
    tracemalloc.start()  # a further, traced run for the peak memory
    Model().fit(X, y).predict(X)
    peak = tracemalloc.get_traced_memory()[1]
    print(f"{best[0]:.4f} {best[1]:.4f} {peak / X.nbytes:.2f} {X.nbytes / 1e6:.0f}")


def child_fields(flag: str, *args, src: Path = REPO / "src") -> list[str]:
    """The whitespace-separated fields this script prints when run as ``--FLAG ARGS`` in a fresh process with
    ``src`` first on PYTHONPATH (one measurement per process: no cache, allocator or import state carried over)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, __file__, flag] + [str(a) for a in args]
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout.split()


NB_SIZES = [100_000, 1_000_000]  # the sizes the NaiveBayes / CategoricalNB target is set at


def nb_part(max_rows: int, repeats: int) -> dict:
    rows = [n for n in NB_SIZES if n <= max_rows] or [max_rows]
    print(
        f"Part 2: naive Bayes fit + predict on n x {N_ATTRS} int64 codes (5 values, 2 classes), a fresh process per "
        f"size, CPU seconds, best of {repeats}\n"
    )
    contenders = ["nbx", "sklearn"] if has_sklearn("CategoricalNB") else ["nbx"]
    names = {"nbx": "nbx NaiveBayes", "sklearn": "sklearn CategoricalNB"}
    print(f"{'':22s}{'rows':>10s}{'fit s':>8s}{'predict s':>10s}{'total s':>9s}{'peak memory':>20s}")
    runs = {which: [child_fields("--nb-child", which, n, repeats) for n in rows] for which in contenders}
    lines, checks = [], []
    for which, outs in runs.items():
        fit, predict, peak = ([float(o[i]) for o in outs] for i in range(3))
        for n, f, p, m, o in zip(rows, fit, predict, peak, outs):
            print(f"{names[which]:22s}{n:10,d}{f:8.2f}{p:10.2f}{f + p:9.2f}{m:9.2f}x of {o[3]} MB")
        total = [f + p for f, p in zip(fit, predict)]
        lines.append(
            series(names[which], "ours" if which == "nbx" else "peer", rows, total, fit=fit, predict=predict, peak=peak)
        )
    ours = lines[0]
    for i, n in enumerate(rows):
        applies = n >= TARGET_ROWS
        if len(lines) == 2:
            ratio = ours["seconds"][i] / lines[1]["seconds"][i]
            print(f"nbx / CategoricalNB at {n:,d} rows: {ratio:.2f} (target <= 0.5)")
            checks.append(check("NaiveBayes / CategoricalNB", TIME_RATIO, ratio, 0.5, n, applies=applies))
        checks.append(check("NaiveBayes, peak memory", MEMORY, ours["peak"][i], 3, n, applies=applies))
    print("peak memory target <= 3x the input\n")
    return {
        "title": f"Part 2: naive Bayes fit + predict on n x {N_ATTRS} codes (5 values, 2 classes)",
        "xlabel": "rows",
        "ylabel": f"CPU seconds, fit + predict (best of {repeats})",
        "series": lines,
        "checks": checks,
        "settings": {"repeats": repeats},
    }


# ------------------------------------------------------------------------- MDL and C4.5 (parts 3 and 4)
MDL_SIZES = [1_000, 10_000, 100_000, 1_000_000, 10_000_000]
C45_SIZES = [1_000, 10_000, 100_000, 1_000_000]


def best_cpu(fn, repeats: int) -> float:
    """The least CPU seconds of ``repeats`` calls of ``fn``."""
    best = np.inf
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def peak_ratio(fn, nbytes: int) -> float:
    """Peak memory traced while ``fn`` runs (numpy's buffers included), as a multiple of ``nbytes``."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / nbytes


def tree_child(which: str, n: int, repeats: int) -> None:
    """In this (fresh) process, on ``synthetic(n)``: prints CPU seconds and peak memory (x input) of
    ``which`` = mdl (then numpy's argsort of every column), c45 or sklearn (fit + predict)."""
    X, _, _, y = synthetic(n)
    if which == "mdl":
        from nbx.discretize.mdl import MDLDiscretizer

        seconds = best_cpu(lambda: MDLDiscretizer().fit(X, y), repeats)
        print(f"{seconds:.4f} {best_cpu(lambda: np.argsort(X, axis=0), repeats):.4f}")
        return
    if which == "sklearn":
        from sklearn.tree import DecisionTreeClassifier

        def model():
            return DecisionTreeClassifier(criterion="entropy", random_state=0)
    else:
        from nbx.models.c45 import C45Tree as model
    seconds = best_cpu(lambda: model().fit(X, y).predict(X), repeats)
    print(f"{seconds:.4f} {peak_ratio(lambda: model().fit(X, y), X.nbytes):.2f}")


def run_tree_child(which: str, n: int, repeats: int, src: Path) -> list[float]:
    return [float(v) for v in child_fields("--tree-child", which, n, repeats, src=src)]


def mdl_part(max_rows: int, repeats: int, baseline: Path | None, baseline_max: int) -> dict:
    print(
        f"Part 3: MDLDiscretizer fit on n x {N_ATTRS} all-distinct numeric values, {N_CLASSES} classes, against "
        f"np.argsort(X, axis=0); CPU seconds, best of {repeats}, fresh process per size\n"
    )
    head = f"{'rows':>11s}{'argsort s':>11s}{'MDL s':>9s}{'ratio':>7s}"
    print(head + (f"{'before s':>10s}{'ratio':>7s}" if baseline else ""))
    rows, new, ref, old_rows, old = [], [], [], [], []
    for n in [s for s in MDL_SIZES if s <= max_rows]:
        mdl_s, sort_s = run_tree_child("mdl", n, repeats, REPO / "src")
        rows.append(n), new.append(mdl_s), ref.append(sort_s)
        line = f"{n:11,d}{sort_s:11.3f}{mdl_s:9.3f}{mdl_s / sort_s:7.2f}"
        if baseline and n <= baseline_max:
            before = run_tree_child("mdl", n, repeats, baseline)[0]
            old_rows.append(n), old.append(before)
            line += f"{before:10.3f}{before / sort_s:7.2f}"
        print(line, flush=True)
    print(f"\nslope of log time on log rows: MDL {slope(rows, new):.2f} (target <= 1.15), ", end="")
    print(f"argsort {slope(rows, ref):.2f}")
    if len(old) > 1:
        print(f"before: slope {slope(old_rows, old):.2f}")
    print(f"MDL / argsort at {rows[-1]:,d} rows: {new[-1] / ref[-1]:.2f} (target <= 5)\n")
    lines = [series("MDLDiscretizer", "ours", rows, new), series("np.argsort(X, axis=0)", "peer", rows, ref)]
    if old:
        lines.append(series("MDLDiscretizer before", "before", old_rows, old, of="MDLDiscretizer"))
    ratio = new[-1] / ref[-1]  # the target is set at 10^6 rows (benchmarks/README.md, target 7)
    return {
        "title": f"Part 3: MDLDiscretizer fit on n x {N_ATTRS} all-distinct values beside numpy's argsort",
        "xlabel": f"rows ({N_CLASSES} classes)",
        "ylabel": f"CPU seconds (best of {repeats})",
        "series": lines,
        "checks": [
            check("MDLDiscretizer / argsort", TIME_RATIO, ratio, 5, rows[-1], applies=rows[-1] >= 1_000_000),
            *slope_checks("MDLDiscretizer", rows, new),
        ],
        "settings": {"repeats": repeats, "baseline_src": str(baseline or "")},
    }


def c45_marks(n: int, ratio: float, peak: float) -> str:
    """Where the targets apply (10^5 rows and more): ' ok' or the missed ones, S (ratio > 2), M (peak > 3x)."""
    if n < 100_000:
        return " " * 7
    missed = ("S" if ratio > 2 else "") + ("M" if peak > 3 else "")
    return f"{missed or 'ok':>6s} "


def c45_part(max_rows: int, repeats: int, baseline: Path | None, baseline_max: int) -> dict:
    print(
        f"Part 4: C45Tree fit + predict on n x {N_ATTRS} numeric values, {N_CLASSES} classes, against scikit-learn's "
        f"DecisionTreeClassifier(criterion='entropy'); CPU seconds, best of {repeats}, fresh process per size\n"
    )
    with_sklearn = has_sklearn("DecisionTreeClassifier")
    head = f"{'rows':>11s}{'sklearn s':>11s}{'C45Tree s':>11s}{'ratio':>7s}{'peak':>7s}{'':7s}"
    print(head + (f"{'before s':>10s}{'ratio':>7s}{'peak':>7s}{'':7s}" if baseline else ""))
    rows, new, sk, peaks, old_rows, old, old_peaks = [], [], [], [], [], [], []
    for n in [s for s in C45_SIZES if s <= max_rows]:
        c45_s, peak = run_tree_child("c45", n, repeats, REPO / "src")
        sk_s = run_tree_child("sklearn", n, repeats, REPO / "src")[0] if with_sklearn else float("nan")
        rows.append(n), new.append(c45_s), sk.append(sk_s), peaks.append(peak)
        line = f"{n:11,d}{sk_s:11.3f}{c45_s:11.3f}{c45_s / sk_s:7.2f}{peak:6.2f}x{c45_marks(n, c45_s / sk_s, peak)}"
        if baseline and n <= baseline_max:
            before, before_peak = run_tree_child("c45", n, repeats, baseline)
            old_rows.append(n), old.append(before), old_peaks.append(before_peak)
            line += f"{before:10.3f}{before / sk_s:7.2f}{before_peak:6.2f}x{c45_marks(n, before / sk_s, before_peak)}"
        print(line, flush=True)
    print(f"\nslope of log time on log rows: C45Tree {slope(rows, new):.2f} (target <= 1.15)", end="")
    print(f", before {slope(old_rows, old):.2f}" if len(old) > 1 else "")
    print(
        "ratio target <= 2 and peak memory of a fit (x the input) <= 3 at 100k and 1M rows: 'ok', else the missed "
        "ones: S ratio, M memory\n"
    )
    lines = [series("C45Tree", "ours", rows, new, peak=peaks)]
    if with_sklearn:
        lines.append(series("DecisionTreeClassifier(criterion='entropy')", "peer", rows, sk))
    if old:
        lines.append(series("C45Tree before", "before", old_rows, old, peak=old_peaks, of="C45Tree"))
    checks = []
    for n in target_rows(rows):
        i = rows.index(n)
        if with_sklearn:
            ratio = new[i] / sk[i]
            checks.append(check("C45Tree / DecisionTreeClassifier", TIME_RATIO, ratio, 2, n, applies=n >= TARGET_ROWS))
        checks.append(check("C45Tree fit, peak memory", MEMORY, peaks[i], 3, n, applies=n >= TARGET_ROWS))
    return {
        "title": f"Part 4: C45Tree fit + predict on n x {N_ATTRS} numeric values beside DecisionTreeClassifier",
        "xlabel": f"rows ({N_CLASSES} classes)",
        "ylabel": f"CPU seconds, fit + predict (best of {repeats})",
        "series": lines,
        "checks": checks + slope_checks("C45Tree", rows, new),
        "settings": {"repeats": repeats, "baseline_src": str(baseline or "")},
    }


# ------------------------------------------------------------------ ridge LR and HBayes (part 5)
LR_SIZES = [1_000, 10_000, 100_000, 1_000_000]
LR_BINS, LR_RIDGE, LR_TOL = 10, 1e-8, 1e-10


def lr_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``synthetic(n)``'s numeric values binned into LR_BINS equal-width codes over [-2, 2] (all 20 attributes) and
    its 3 classes."""
    X, _, _, y = synthetic(n)
    edges = np.linspace(-2, 2, LR_BINS + 1)[1:-1]
    return np.digitize(X, edges).astype(np.int64), y


def lr_child(which: str, n: int, repeats: int) -> None:
    """In this (fresh) process, on ``lr_data(n)``: prints the least CPU seconds of ``repeats`` fit + predict and
    the solver's iterations, of ``which`` = nbx (LogisticRegression), hbayes (HBayesNB) or sklearn."""
    codes, y = lr_data(n)
    nv = np.full(codes.shape[1], LR_BINS)
    if which == "sklearn":
        # the same model on scikit-learn's terms: indicators scaled by Weka's weighted deviation (centering
        # only moves the unpenalized intercept), C = 1 / (2 ridge) as its objective is C·Σ loss + ||w||²/2 against
        # our Σ loss + ridge·||θ||², and its gradient tolerance is on the loss averaged over the rows, as ours
        import scipy.sparse as sparse
        from sklearn.linear_model import LogisticRegression as Model

        from nbx.models.logistic_design import active_columns, indicator_standardizer

        active = active_columns(codes, nv) - 1
        scale = indicator_standardizer(active + 1, np.ones(n), int(nv.sum()))[1]
        U = (
            sparse.csr_matrix(
                (np.ones(active.size), (np.repeat(np.arange(n), codes.shape[1]), active.ravel())), shape=(n, nv.sum())
            )
            .multiply(1.0 / scale)
            .tocsr()
        )
        model = Model(C=1.0 / (2.0 * LR_RIDGE), tol=LR_TOL, max_iter=100_000)
        seconds = best_cpu(lambda: model.fit(U, y).predict(U), repeats)
        print(f"{seconds:.4f} {int(model.n_iter_[0])}")
        return
    if which == "hbayes":
        from nbx.models.hbayes import HBayesNB as Model
    else:
        from nbx.models.logistic import LogisticRegression as Model
    model = Model()
    seconds = best_cpu(lambda: model.fit(codes, y, n_values=nv).predict(codes), repeats)
    print(f"{seconds:.4f} {model.n_iter_}")


def run_lr_child(which: str, n: int, repeats: int, src: Path) -> tuple[float, int]:
    out = child_fields("--lr-child", which, n, repeats, src=src)
    return float(out[0]), int(out[1])


def lr_part(max_rows: int, hbayes_rows: int, repeats: int, baseline: Path | None, baseline_max: int) -> dict:
    print(
        f"Part 5: ridge LogisticRegression (ridge {LR_RIDGE:g}, tol {LR_TOL:g}) fit + predict on n x {N_ATTRS} codes "
        f"of {LR_BINS} values, {N_CLASSES} classes, against scikit-learn's LogisticRegression (lbfgs) on the same "
        f"scaled indicators (sparse), C = 1/(2 ridge), tol {LR_TOL:g}; CPU seconds, best of {repeats}, fresh "
        "process per size; it = iterations\n"
    )
    with_sklearn = has_sklearn("its LogisticRegression")
    head = f"{'rows':>11s}{'sklearn s':>11s}{'it':>5s}{'nbx s':>9s}{'it':>4s}{'ratio':>7s}"
    print(head + (f"{'before s':>10s}{'ratio':>7s}" if baseline else ""))
    rows, new, its, sk, sk_its, old_rows, old = [], [], [], [], [], [], []
    for n in [s for s in LR_SIZES if s <= max_rows]:
        ours, it = run_lr_child("nbx", n, repeats, REPO / "src")
        sk_s, sk_it = run_lr_child("sklearn", n, repeats, REPO / "src") if with_sklearn else (float("nan"), 0)
        rows.append(n), new.append(ours), its.append(it), sk.append(sk_s), sk_its.append(sk_it)
        line = f"{n:11,d}{sk_s:11.3f}{sk_it:5d}{ours:9.3f}{it:4d}{ours / sk_s:7.2f}"
        if baseline and n <= baseline_max:
            before = run_lr_child("nbx", n, repeats, baseline)[0]
            old_rows.append(n), old.append(before)
            line += f"{before:10.3f}{before / sk_s:7.2f}"
        print(line, flush=True)
    print(f"\nslope of log time on log rows: LogisticRegression {slope(rows, new):.2f} (target <= 1.15)", end="")
    print(f", sklearn {slope(rows, sk):.2f}" if with_sklearn else "", end="")
    print(f", before {slope(old_rows, old):.2f}" if len(old) > 1 else "")
    print("ratio target <= 1 at 100k and 1M rows")
    lines = [series("LogisticRegression", "ours", rows, new, iterations=its)]
    if with_sklearn:
        lines.append(series("scikit-learn LogisticRegression (lbfgs)", "peer", rows, sk, iterations=sk_its))
    if old:
        lines.append(series("LogisticRegression before", "before", old_rows, old, of="LogisticRegression"))
    checks = [
        check("LogisticRegression / scikit-learn's", TIME_RATIO, new[i] / sk[i], 1, n, applies=n >= TARGET_ROWS)
        for i, n in enumerate(rows)
        if with_sklearn and n in target_rows(rows)
    ]
    checks += slope_checks("LogisticRegression", rows, new)
    if hbayes_rows:
        hb = run_lr_child("hbayes", hbayes_rows, repeats, REPO / "src")[0]
        lr = (
            new[rows.index(hbayes_rows)]
            if hbayes_rows in rows
            else run_lr_child("nbx", hbayes_rows, repeats, REPO / "src")[0]
        )
        line = f"HBayesNB fit + predict at {hbayes_rows:,d} rows: {hb:.2f} s = {hb / lr:.1f} x LogisticRegression"
        lines.append(series("HBayesNB", "ours", [hbayes_rows], [hb]))
        if baseline:
            hb_old = run_lr_child("hbayes", hbayes_rows, repeats, baseline)[0]
            line += f" (before: {hb_old:.2f} s)"
            lines.append(series("HBayesNB before", "before", [hbayes_rows], [hb_old], of="HBayesNB"))
        print(line + " (no target)")
    print()
    return {
        "title": f"Part 5: ridge LogisticRegression fit + predict on n x {N_ATTRS} codes beside scikit-learn's",
        "xlabel": f"rows ({LR_BINS}-valued codes, {N_CLASSES} classes)",
        "ylabel": f"CPU seconds, fit + predict (best of {repeats})",
        "series": lines,
        "checks": checks,
        "settings": {"repeats": repeats, "ridge": LR_RIDGE, "tol": LR_TOL, "baseline_src": str(baseline or "")},
    }


# ------------------------------------------------------------------ kernel-density learners (part 6)
KDE_SIZES = [1_000, 3_000, 10_000, 100_000, 1_000_000]


def kde_child(which: str, n: int, repeats: int) -> None:
    """In this (fresh) process, on ``synthetic(n)`` (all-distinct values): prints CPU seconds of fit + predict,
    best of ``repeats``, the peak memory of a fit as a multiple of the input, and the seconds of the first fit
    on 100 rows (numba's start-up: import and loading of the compiled loops; 0 when the learner does not use
    it). ``which``: gnb (GeneralNB, kernel), gauss (GeneralNB, gaussian), snbtree (SelfAdaptiveNBTree) or sklearn
    (GaussianNB). gauss runs as a fresh process would: numba is not loaded first, so below
    ``GAUSSIAN_COMPILED_FROM`` cells its array route runs."""
    X, _, _, y = synthetic(n)
    if which == "sklearn":
        from sklearn.naive_bayes import GaussianNB as model
    elif which in ("gnb", "gauss"):
        from nbx.models.kernel_nb import GeneralNB

        model = functools.partial(GeneralNB, density="gaussian" if which == "gauss" else "kernel")
    else:
        from nbx.models.snbtree import SelfAdaptiveNBTree as model
    startup = 0.0
    if which in ("gnb", "snbtree"):
        t0 = time.process_time()
        try:  # the first large set imports numba and loads the compiled loops (from the disk cache)
            from nbx.models.binned_kde import BinnedSet

            tiny = BinnedSet(np.arange(3.0), np.ones(3), 1.0, 3.0)
            tiny.loo_cross_entropy(np.arange(3), np.ones(3), np.ones(3), 3.0)
        except ImportError:  # a checkout without it
            pass
        startup = time.process_time() - t0
    seconds = best_cpu(lambda: model().fit(X, y).predict(X), repeats)
    print(f"{seconds:.4f} {peak_ratio(lambda: model().fit(X, y), X.nbytes):.2f} {startup:.3f}")


def run_kde_child(which: str, n: int, repeats: int, src: Path) -> list[float]:
    return [float(v) for v in child_fields("--kde-child", which, n, repeats, src=src)]


def kde_part(max_rows: int, snbtree_rows: int, repeats: int, baseline: Path | None, baseline_max: int) -> dict:
    print(
        f"Part 6: the kernel-density learners (Wang et al. 2006) fit + predict on n x {N_ATTRS} all-distinct numeric "
        f"values, {N_CLASSES} classes, against scikit-learn's GaussianNB; CPU seconds, best of {repeats}, fresh "
        "process per size; peak memory of a fit, x the input\n"
    )
    with_sklearn = has_sklearn("GaussianNB")
    sizes = [s for s in KDE_SIZES if s <= max_rows]
    names = {
        "gnb": "gnb (GeneralNB, kernel)",
        "gauss": "gauss (GeneralNB, gaussian)",
        "snbtree": "snbtree (SelfAdaptiveNBTree)",
    }
    limits = {"gauss": 1}  # time ratio to GaussianNB (the kernel reading's is printed, no target)
    lines, checks = [], []
    head = f"{'learner':10s}{'rows':>11s}{'GaussianNB s':>14s}{'ours s':>10s}{'ratio':>8s}{'peak':>7s}"
    print(head + (f"{'before s':>10s}{'ratio':>8s}{'peak':>7s}" if baseline else ""))
    startup = []
    for which in names:
        rows, new, refs, peaks, old_rows, old, old_peaks = [], [], [], [], [], [], []
        for n in [s for s in sizes if which != "snbtree" or s <= snbtree_rows]:
            ours, peak, start = run_kde_child(which, n, repeats, REPO / "src")
            ref = run_kde_child("sklearn", n, repeats, REPO / "src")[0] if with_sklearn else float("nan")
            startup.append(start)
            rows.append(n), new.append(ours), refs.append(ref), peaks.append(peak)
            line = f"{which:10s}{n:11,d}{ref:14.3f}{ours:10.3f}{ours / ref:8.1f}{peak:6.2f}x"
            if baseline and n <= baseline_max:
                before, before_peak, _ = run_kde_child(which, n, 1, baseline)
                old_rows.append(n), old.append(before), old_peaks.append(before_peak)
                line += f"{before:10.3f}{before / ref:8.1f}{before_peak:6.2f}x"
            print(line, flush=True)
        # GaussianNB is timed beside each learner; gnb's timings (every size) are the peer line drawn, snbtree's
        # (the denominators of its printed ratios) stay with its series
        lines.append(series(names[which], "ours", rows, new, peak=peaks, **({"peer_seconds": refs} if lines else {})))
        if with_sklearn and which == "gnb":
            lines.append(series("scikit-learn GaussianNB", "peer", rows, refs))
        if old:
            lines.append(series(f"{which} before", "before", old_rows, old, peak=old_peaks, of=names[which]))
        for n in target_rows(rows):
            i, applies = rows.index(n), n >= TARGET_ROWS
            if with_sklearn and which in limits:
                name = f"{names[which]} / GaussianNB"
                checks.append(check(name, TIME_RATIO, new[i] / refs[i], limits[which], n, applies=applies))
            checks.append(check(f"{which} fit, peak memory", MEMORY, peaks[i], 3, n, applies=applies))
        checks += slope_checks(which, rows, new)
        print(f"{which}: slope of log time on log rows {slope(rows, new):.2f} (target <= 1.15)", end="")
        print(f", before {slope(old_rows, old):.2f} (up to {old_rows[-1]:,d} rows)" if len(old) > 1 else "")
    print(
        "targets: GeneralNB / GaussianNB <= 1 (gaussian; the kernel reading's ratio has none) at 100k and 1M rows, "
        "peak memory of a fit <= 3x the input; "
        f"numba's start-up in a fresh process (import, compiled loops from the disk cache) {max(startup):.2f} s "
        "(target <= 1)\n"
    )
    checks.append(check("numba's start-up, fresh process", "CPU seconds", max(startup), 1))
    return {
        "title": f"Part 6: kernel-density learners fit + predict, n x {N_ATTRS} all-distinct values, beside GaussianNB",
        "xlabel": f"rows ({N_CLASSES} classes)",
        "ylabel": f"CPU seconds, fit + predict (best of {repeats})",
        "series": lines,
        "checks": checks,
        "settings": {"repeats": repeats, "baseline_repeats": 1, "baseline_src": str(baseline or "")},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--learners", default=",".join(LEARNERS), help="comma-separated params.yaml learner names")
    ap.add_argument("--max-rows", type=int, default=SLOPE_ROWS, help="cap on rows for every learner")
    ap.add_argument(
        "--full-size", action="store_true", help="part 1: every learner up to --max-rows, not its own cap (long)"
    )
    ap.add_argument("--nb-rows", type=int, default=max(NB_SIZES), help="largest size of the naive Bayes comparison")
    ap.add_argument("--skip-learners", action="store_true", help="only the naive Bayes comparison")
    ap.add_argument("--skip-nb", action="store_true", help="only the learners' scaling")
    ap.add_argument("--nb-child", nargs=3, metavar=("WHICH", "ROWS", "REPEATS"), help=argparse.SUPPRESS)
    ap.add_argument("--skip-mdl", action="store_true", help="leave out the MDL discretizer against argsort")
    ap.add_argument("--mdl-rows", type=int, default=max(MDL_SIZES), help="largest size of the MDL part")
    ap.add_argument("--skip-c45", action="store_true", help="leave out C45Tree against DecisionTreeClassifier")
    ap.add_argument("--c45-rows", type=int, default=max(C45_SIZES), help="largest size of the C4.5 part")
    ap.add_argument("--repeats", type=int, default=3, help="best of this many runs per size (parts 2-6)")
    ap.add_argument("--baseline-src", type=Path, help="also time this checkout's src (before/after, MDL and C4.5)")
    ap.add_argument("--baseline-max-rows", type=int, default=1_000_000, help="largest size timed for the baseline")
    ap.add_argument("--skip-kde", action="store_true", help="leave out the kernel-density learners (part 6)")
    ap.add_argument("--kde-only", action="store_true", help="only part 6, the kernel-density learners")
    ap.add_argument("--kde-rows", type=int, default=max(KDE_SIZES), help="largest size of part 6")
    ap.add_argument("--kde-snbtree-rows", type=int, default=max(KDE_SIZES), help="largest size of S-NBTree in part 6")
    ap.add_argument("--kde-baseline-max-rows", type=int, default=10_000, help="largest size timed for the baseline")
    ap.add_argument("--kde-child", nargs=3, metavar=("WHICH", "ROWS", "REPEATS"), help=argparse.SUPPRESS)
    ap.add_argument("--tree-child", nargs=3, metavar=("WHICH", "ROWS", "REPEATS"), help=argparse.SUPPRESS)
    ap.add_argument("--skip-lr", action="store_true", help="leave out ridge LR against scikit-learn and HBayesNB")
    ap.add_argument("--lr-rows", type=int, default=max(LR_SIZES), help="largest size of the LR part")
    ap.add_argument("--hbayes-rows", type=int, default=100_000, help="rows of the HBayesNB timing (0: none)")
    ap.add_argument("--lr-child", nargs=3, metavar=("WHICH", "ROWS", "REPEATS"), help=argparse.SUPPRESS)
    ap.add_argument(
        "--results", type=Path, default=DEFAULT_DIR / "scaling.json", help="JSON file of every measurement printed"
    )
    ap.add_argument("--plots", type=Path, help="folder of the PNGs drawn from it (default: the results file's)")
    a = ap.parse_args()
    if a.nb_child:
        nb_child(a.nb_child[0], int(a.nb_child[1]), int(a.nb_child[2]))
        return
    if a.tree_child:
        tree_child(a.tree_child[0], int(a.tree_child[1]), int(a.tree_child[2]))
        return
    if a.lr_child:
        lr_child(a.lr_child[0], int(a.lr_child[1]), int(a.lr_child[2]))
        return
    if a.kde_child:
        kde_child(a.kde_child[0], int(a.kde_child[1]), int(a.kde_child[2]))
        return
    names = a.learners.split(",")
    unknown = [x for x in names if x not in LEARNERS]
    if unknown:
        ap.error(f"unknown learners {unknown}; choose from {', '.join(LEARNERS)}")
    results = Results(a.results, "scaling.py", sys.argv[1:])
    kde = (a.kde_rows, a.kde_snbtree_rows, a.repeats, a.baseline_src, a.kde_baseline_max_rows)
    if a.kde_only:
        results.add("kde", kde_part(*kde))
    else:
        if not a.skip_learners:
            results.add("learners", learners_part(names, a.max_rows, a.full_size))
        if not a.skip_nb:
            results.add("nb", nb_part(a.nb_rows, a.repeats))
        if not a.skip_mdl:
            results.add("mdl", mdl_part(a.mdl_rows, a.repeats, a.baseline_src, a.baseline_max_rows))
        if not a.skip_c45:
            results.add("c45", c45_part(a.c45_rows, a.repeats, a.baseline_src, a.baseline_max_rows))
        if not a.skip_lr:
            results.add("lr", lr_part(a.lr_rows, a.hbayes_rows, a.repeats, a.baseline_src, a.baseline_max_rows))
        if not a.skip_kde:
            results.add("kde", kde_part(*kde))
    if results.data["parts"]:
        print(f"results: {results.path}")
        print("plots:", *draw(results.path, a.plots), sep="\n  ")


if __name__ == "__main__":
    main()
