"""Scaling: fit time against the number of rows for every learner, and naive Bayes at 1M rows against
scikit-learn's CategoricalNB (target 5 in benchmarks/README.md).

    python benchmarks/scaling.py [--learners nb_laplace,c45] [--max-rows 100000]
        [--skip-learners] [--skip-nb] [--nb-rows 1000000]

Part 1: each learner block of params.yaml listed in LEARNERS (one per learner class, as the pipeline
builds it) is fitted on synthetic data of 1k, 3k, 10k, ... rows (up to its own cap, so the whole script
runs in a few minutes), 20 attributes, 3 classes. Discrete learners get integer codes (2-6 values per
attribute), mixed-input ones the numeric values the codes were binned from. The slope of log(fit seconds)
on log(rows) is printed over all sizes and over the three largest (fixed costs flatten the small end);
a slope near 1 is linear. CPU seconds, one thread. The kernel-density learners (gnb, snbtree) run twice:
on the all-distinct values (exact leave-one-out over pairs of distinct values: quadratic) and on the same
values recorded to 2 decimals (bounded distinct values per class: linear).

Part 2: NaiveBayes (Laplace) fit and predict on 1M x 20 codes (int64, 5 values, 2 classes), each in a
fresh process, against scikit-learn's CategoricalNB on the same data when scikit-learn is installed (it
is not a dependency of nbx: ``pip install scikit-learn`` to compare). Peak memory is the peak of the
memory allocated during fit + predict (tracemalloc, which sees numpy's buffers, in a second run so the
timed one is not traced), as a multiple of the input (X.nbytes); the target is <= 3x.
"""

from __future__ import annotations

import argparse
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

REPO = Path(__file__).resolve().parents[1]
sys.path.append(str(REPO / "src"))  # this checkout's nbx when none is installed (PYTHONPATH still wins)

# params.yaml learner block -> largest number of rows to fit (a few seconds per fit at most here). The kernel
# density learners (gnb, snbtree) choose bandwidths by leave-one-out over all pairs of kernel centres, which
# grows with the square of the distinct values per class: on all-distinct values they stop at 3k. RECORDED
# repeats them on the same values recorded to DECIMALS decimals, as measurements are (UCI's numeric columns
# carry a few digits): the distinct values per class are then bounded and the fit grows linearly.
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
    "snbtree": 3_000,
    "gnb": 3_000,
    "muv_of_muv_js": 30_000,
}
RECORDED = {"gnb": 300_000, "snbtree": 100_000}
DECIMALS = 2
SIZES = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000]
N_ATTRS, N_CLASSES, SEED = 20, 3, 2026


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


def fit_seconds(name: str, n: int, decimals: int | None = None) -> float:
    """CPU seconds of one fit of params.yaml's learner ``name`` on ``n`` synthetic rows, the best of two fits,
    numeric values rounded to ``decimals`` if given. Best of two at every size: the first large fit in a process
    also pays the kernel's first touch of fresh memory (gnb_gaussian at 1M rows: 2.8 s, then 0.77 s), so timing
    one fit only where it is slow would bend the slope upwards."""
    from nbx.core.base import clone
    from nbx.pipeline import config, learners

    setup = learners.build_learner(config.load_params(REPO / "params.yaml"), name)
    X, codes, n_values, y = synthetic(n)
    if setup.input == "discrete":
        X, nv = codes, n_values
    else:
        X, nv = (X if decimals is None else np.round(X, decimals)), np.zeros(N_ATTRS, np.int64)
    best = np.inf
    for _ in range(2):
        model = clone(setup.estimator)
        if "random_state" in model.get_params(deep=False):
            model.set_params(random_state=0)
        t0 = time.process_time()
        model.fit(X, y, n_values=nv)
        best = min(best, time.process_time() - t0)
    return best


def slope(rows: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) on log(rows)."""
    return float(np.polyfit(np.log(rows), np.log(np.maximum(seconds, 1e-6)), 1)[0])


def learners_part(names: list[str], max_rows: int) -> None:
    print("Part 1: fit CPU seconds by rows (synthetic, 20 attributes, 3 classes); slope of log time on log rows\n")
    shown = [s for s in SIZES if s <= max_rows]
    print(f"{'learner':22s}" + "".join(f"{s:>10,d}" for s in shown) + f"{'slope':>8s}{'top 3':>7s}")
    runs = [(name, LEARNERS[name], None) for name in names]
    runs += [(name, cap, DECIMALS) for name, cap in RECORDED.items() if name in names]
    for name, cap, decimals in runs:
        print(f"{name if decimals is None else f'{name} ({decimals} dp)':22s}", end="", flush=True)
        rows = [n for n in shown if n <= cap]
        secs = []
        for n in rows:
            secs.append(fit_seconds(name, n, decimals))
            print(f"{secs[-1]:10.3f}", end="", flush=True)
        top = slope(rows[-3:], secs[-3:]) if len(rows) >= 3 else float("nan")
        print(" " * 10 * (len(shown) - len(rows)) + f"{slope(rows, secs):8.2f}{top:7.2f}", flush=True)
    print(
        "\nA slope of 1 is linear in rows; the small sizes carry fixed costs, so the top-3 slope is the "
        f"one to read. '(2 dp)': numeric values recorded to {DECIMALS} decimals (bounded distinct values).\n"
    )


# ------------------------------------------------------------------------------------- naive Bayes
def nb_child(which: str, n: int) -> None:
    """Fit + predict one naive Bayes on n x 20 codes in this (fresh) process; prints one result line."""
    if which == "sklearn":
        from sklearn.naive_bayes import CategoricalNB as Model
    else:
        from nbx.models.naive_bayes import NaiveBayes as Model
    rng = np.random.default_rng(SEED)
    X = rng.integers(0, 5, size=(n, N_ATTRS))
    y = rng.integers(0, 2, n)
    t0 = time.process_time()
    model = Model().fit(X, y)
    t1 = time.process_time()
    model.predict(X)
    t2 = time.process_time()
    del model
    tracemalloc.start()  # a second, traced run for the peak memory
    Model().fit(X, y).predict(X)
    peak = tracemalloc.get_traced_memory()[1]
    print(f"{t1 - t0:.3f} {t2 - t1:.3f} {peak / X.nbytes:.2f} {X.nbytes / 1e6:.0f}")


def nb_part(n: int) -> None:
    print(
        f"Part 2: naive Bayes fit + predict on {n:,d} x {N_ATTRS} int64 codes (5 values, 2 classes), "
        "fresh process each, CPU seconds\n"
    )
    try:
        import sklearn  # noqa: F401

        contenders = ["nbx", "sklearn"]
    except ImportError:
        contenders = ["nbx"]
        print("scikit-learn is not installed (pip install scikit-learn): CategoricalNB not measured\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    names = {"nbx": "nbx NaiveBayes", "sklearn": "sklearn CategoricalNB"}
    print(f"{'':22s}{'fit s':>8s}{'predict s':>10s}{'total s':>9s}{'peak memory':>20s}")
    totals = {}
    for which in contenders:
        out = subprocess.run(
            [sys.executable, __file__, "--nb-child", which, str(n)], env=env, check=True, capture_output=True, text=True
        ).stdout.split()
        fit, predict, peak, mb = float(out[0]), float(out[1]), float(out[2]), out[3]
        totals[which] = fit + predict
        print(f"{names[which]:22s}{fit:8.2f}{predict:10.2f}{fit + predict:9.2f}{peak:9.2f}x of {mb} MB")
    if len(totals) == 2:
        print(
            f"\nnbx / CategoricalNB: {totals['nbx'] / totals['sklearn']:.2f} (target < 1); "
            "peak memory target <= 3x the input"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--learners", default=",".join(LEARNERS), help="comma-separated params.yaml learner names")
    ap.add_argument("--max-rows", type=int, default=max(SIZES), help="cap on rows for every learner")
    ap.add_argument("--nb-rows", type=int, default=1_000_000, help="rows of the naive Bayes comparison")
    ap.add_argument("--skip-learners", action="store_true", help="only the naive Bayes comparison")
    ap.add_argument("--skip-nb", action="store_true", help="only the learners' scaling")
    ap.add_argument("--nb-child", nargs=2, metavar=("WHICH", "ROWS"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.nb_child:
        nb_child(a.nb_child[0], int(a.nb_child[1]))
        return
    names = a.learners.split(",")
    unknown = [x for x in names if x not in LEARNERS]
    if unknown:
        ap.error(f"unknown learners {unknown}; choose from {', '.join(LEARNERS)}")
    if not a.skip_learners:
        learners_part(names, a.max_rows)
    if not a.skip_nb:
        nb_part(a.nb_rows)


if __name__ == "__main__":
    main()
