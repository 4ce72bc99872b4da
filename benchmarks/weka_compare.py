"""nbx against Weka 3.6: per learner, stratified 10-fold CV over 26 UCI data sets, seconds beside Weka's.

    python benchmarks/weka_compare.py [--learners nb,c45] [--datasets iris,zoo]
        [--baseline-src /path/to/old/src] [--per-dataset] [--in-process [--profile out.prof]]
        [--results FILE.json] [--plots DIR]

Two protocols, both with start-up included and on one core (BLAS threads pinned to 1, processes one after
another):

* **one process per learner** (the protocol of the Weka target in benchmarks/README.md: one process, one core,
  start-up included): a fresh interpreter runs the learner's CV on all the sets; the verdict column is its CPU
  seconds over Weka's.
* **one process per data set**, as Weka's reference numbers include one JVM start per set: printed beside it,
  without a target (each set pays interpreter start-up and imports again: it measures an interpreter's start
  against a JVM's more than the learners).

Each timing covers interpreter start-up, imports, reading the data set from the UCI mirror through the
catalogue (``NBX_UCI_MIRROR``, default ../shared/uci as in tests/conftest.py, or ../../shared/uci from a
worktree), a stratified 10-fold plan, fold-local preprocessing and the ten fits and predictions. The
children find nbx compiled (bytecode cached under NBX_BENCH_PYCACHE, default /tmp/nbx_bench_pycache,
compiled before timing), as an installed package is, even where PYTHONDONTWRITEBYTECODE is set.
Discrete learners get fold-local MDL codes (Fayyad & Irani), as Weka's BayesNet (TAN) and NBTree
discretize internally; J48, Logistic and Gaussian NB (Weka's default NaiveBayes) see numeric columns as
they are. Missing values are left to the learner. Weka's names map to our catalogue ids in DATASETS
(credit-a = crx, kr-vs-kp = chess, hypothyroid = our 3163-row stand-in, ...); a set missing from the
catalogue or the mirror is skipped and listed.

Printed per learner: CPU (user + system) and wall seconds of the nbx processes under both protocols,
Weka's reference seconds (Weka 3.6, quiet machine, one JVM start per set: NaiveBayes 7, J48 13, TAN 15,
AdaBoostM1(NB, 100) 47, Logistic 99, NBTree 284) and the ratios nbx CPU / Weka; the target is <= 0.5 (CPU
time: on a busy machine wall time overstates nbx, CPU time is the closer estimate of a quiet run). The start-up
floor (CPU of a process that only imports numpy, times the number of sets) shows how much of a per-set total no
learner can save. Re-run on a quiet machine for the record.
``--baseline-src`` also times another checkout's nbx (its src folder) in alternation, one process per set,
for before/after in one run; ``--in-process`` runs every set in this process (no start-up), for
profiling.

Every printed measurement also goes to a JSON results file (``--results``, default benchmarks/results/weka.json,
untracked), and benchmarks/plots.py draws each learner's ratio to Weka's seconds beside the target
(weka_targets.png in ``--plots``, default the results file's folder).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from plots import DEFAULT_DIR, Results, check, draw

REPO = Path(__file__).resolve().parents[1]
sys.path.append(str(REPO / "src"))  # this checkout's nbx when none is installed (PYTHONPATH still wins)
# the offline mirror: NBX_UCI_MIRROR, else ../shared/uci next to the repository (or next to its worktree folder)
os.environ.setdefault(
    "NBX_UCI_MIRROR",
    str(
        next(
            (
                p
                for p in (REPO.parent / "shared" / "uci", REPO.parents[1] / "shared" / "uci")
                if (p / "MANIFEST.tsv").exists()
            ),
            REPO.parent / "shared" / "uci",
        )
    ),
)
RAW_CACHE = Path(os.environ.get("NBX_BENCH_RAW", "/tmp/nbx_bench_raw"))  # verified copies of mirror files
PYCACHE = Path(os.environ.get("NBX_BENCH_PYCACHE", "/tmp/nbx_bench_pycache"))  # children's compiled bytecode

# Weka's data set names -> our catalogue ids
DATASETS = {
    "iris": "iris",
    "diabetes": "diabetes",
    "breast-w": "breast-w",
    "glass": "glass",
    "ionosphere": "ionosphere",
    "vote": "vote",
    "kr-vs-kp": "chess",
    "hepatitis": "hepatitis",
    "credit-a": "crx",
    "credit-g": "german",
    "segment": "segment2310",
    "vehicle": "vehicle",
    "sonar": "sonar",
    "heart-statlog": "heart",
    "labor": "labor",
    "zoo": "zoo",
    "wine": "wine",
    "car": "car",
    "cmc": "cmc",
    "soybean": "soybean-large",
    "anneal": "anneal",
    "hypothyroid": "hypothyroid",  # our 3163-row stand-in for Weka's 3772-row file
    "lymph": "lymphography",
    "balance-scale": "balance-scale",
    "tic-tac-toe": "tic-tac-toe",
    "waveform-5000": "waveform",
}

# our learner -> (Weka learner, Weka seconds over the 26 sets, params block,
#                 input: "discrete" = fold-local MDL codes, "mixed" = numeric kept)
LEARNERS = {
    "nb": ("NaiveBayes", 7, {"class": "NaiveBayes", "prior": "laplace", "alpha": 1.0}, "discrete"),
    "gnb": ("NaiveBayes", 7, {"class": "GeneralNB", "density": "gaussian"}, "mixed"),
    "c45": ("J48", 13, {"class": "C45Tree", "min_leaf": 2, "confidence": 0.25}, "mixed"),
    "tan": ("BayesNet TAN", 15, {"class": "TAN", "alpha": 1.0}, "discrete"),
    "adaboost_nb": (
        "AdaBoostM1(NB, 100)",
        47,
        {"class": "AdaBoostM1", "base": {"class": "NaiveBayes", "prior": "laplace", "alpha": 1.0}, "n_estimators": 100},
        "discrete",
    ),
    "lr": ("Logistic", 99, {"class": "LogisticRegression", "ridge": 1e-8}, "mixed"),
    "nbtree": ("NBTree", 284, {"class": "NBTree"}, "discrete"),
}
SEED = 2026
TARGET = 0.5
WEKA_RATIO = "CPU seconds, nbx / Weka 3.6's"  # the kind of check (its panel in weka_targets.png)


def load_table(dataset: str):
    """The prepared table of a catalogue entry, built from the mirror (None if unavailable)."""
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import FetchError, fetch_entry
    from nbx.data.prepare import build_table

    entry = load_catalogue().get(dataset)
    if entry is None or not entry.available:
        return None
    try:
        paths = fetch_entry(entry, RAW_CACHE) if entry.source != "generator" else []
    except FetchError:
        return None
    return build_table(entry, paths)


def cross_validate(learner: str, dataset: str) -> float:
    """Stratified 10-fold CV of one learner on one data set; returns the accuracy."""
    import numpy as np

    from nbx.discretize import make_discretizer
    from nbx.pipeline.learners import make_learner
    from nbx.protocol.splits import dataset_seed, make_plan

    table = load_table(dataset)
    spec, kind = LEARNERS[learner][2:]
    test, _ = make_plan(table.y, {"kind": "cv", "folds": 10, "stratified": True}, dataset_seed(SEED, dataset))
    correct = 0
    for s in range(test.shape[0]):
        train = ~test[s]
        X, n_values = table.X, table.n_values
        if kind == "discrete":
            disc = make_discretizer({"kind": "mdl", "n_values": n_values}).fit(X[train], table.y[train])
            X, n_values = disc.transform(X), disc.n_values_
        model = make_learner(spec).fit(X[train], table.y[train], n_values=n_values)
        correct += int(np.sum(model.predict(X[test[s]]) == table.y[test[s]]))
    return correct / table.y.size


def available(datasets: list[str]) -> tuple[list[str], list[str]]:
    """(Weka names whose data set loads, Weka names skipped); fills the raw-file cache once."""
    ok, skipped = [], []
    for name in datasets:
        (ok if load_table(DATASETS[name]) is not None else skipped).append(name)
    return ok, skipped


def child_env(src: Path) -> dict:
    """Environment of a child process: nbx from ``src``, bytecode cached in PYCACHE (as an installed
    package has its .pyc files; PYTHONDONTWRITEBYTECODE would make every child compile nbx again)."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
        PYTHONPYCACHEPREFIX=str(PYCACHE),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_bytecode(src: Path) -> None:
    """Compile the nbx sources in ``src`` into PYCACHE once, before any timing."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(src)], env=child_env(src), check=True, stdout=subprocess.DEVNULL
    )


def time_child(learner: str, datasets: list[str], src: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of a fresh interpreter running one learner's 10-fold CV on each of ``datasets``
    (catalogue ids) in turn, with the nbx package found in ``src``."""
    env = child_env(src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", learner, ",".join(datasets)],
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - t0
    if done.returncode:
        last = done.stderr.strip().splitlines()[-1:] or ["?"]
        print(f"  {learner} on {','.join(datasets)} failed ({src}): {last[0]}", flush=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start_floor(repeats: int = 5) -> float:
    """CPU seconds of the cheapest process that could run a learner here: python that imports numpy."""
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "import numpy"], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def time_in_process(learner: str, dataset: str, prof) -> tuple[float, float]:
    """(wall, CPU) seconds of one learner's 10-fold CV on one data set in this process."""
    t0, c0 = time.perf_counter(), time.process_time()
    prof.runcall(cross_validate, learner, dataset) if prof else cross_validate(learner, dataset)
    return time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--learners", default=",".join(LEARNERS), help=f"comma-separated, of {','.join(LEARNERS)}")
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated Weka names (default: all 26)")
    ap.add_argument(
        "--baseline-src",
        type=Path,
        help="also time the nbx package in this src folder (e.g. an older checkout), alternating",
    )
    ap.add_argument("--in-process", action="store_true", help="run every set in this process (no start-up)")
    ap.add_argument("--profile", help="with --in-process: write a cProfile file here")
    ap.add_argument("--per-dataset", action="store_true", help="print each data set's seconds")
    ap.add_argument("--child", nargs=2, metavar=("LEARNER", "DATASETS"), help=argparse.SUPPRESS)
    ap.add_argument(
        "--results", type=Path, default=DEFAULT_DIR / "weka.json", help="JSON file of every measurement printed"
    )
    ap.add_argument("--plots", type=Path, help="folder of the PNG drawn from it (default: the results file's)")
    a = ap.parse_args()
    if a.child:
        for dataset in a.child[1].split(","):
            print(dataset, cross_validate(a.child[0], dataset))
        return
    learners = a.learners.split(",")
    unknown = [x for x in learners if x not in LEARNERS] + [x for x in a.datasets.split(",") if x not in DATASETS]
    if unknown:
        ap.error(f"unknown learner or data set: {unknown}")
    if a.in_process and a.baseline_src:
        ap.error("--baseline-src needs one process per set")
    datasets, skipped = available(a.datasets.split(","))
    if skipped:
        print(f"skipped (not in the catalogue or the mirror): {', '.join(skipped)}")
    ids = [DATASETS[name] for name in datasets]
    print(f"{len(datasets)} data sets, stratified 10-fold CV, one core; seconds summed over the data sets")
    sources = {"nbx": REPO / "src"}
    if a.baseline_src:
        sources["baseline"] = a.baseline_src.resolve()
    results = Results(a.results, "weka_compare.py", sys.argv[1:])
    whole = len(datasets) == len(DATASETS)  # Weka's seconds cover the 26 sets: a run on fewer is drawn hollow
    part = {
        "title": f"nbx against Weka 3.6: stratified 10-fold CV over {len(datasets)} data sets, CPU seconds",
        "learners": [],
        "checks": [],
        "settings": {
            "datasets": datasets,
            "skipped": skipped,
            "protocol": "in-process" if a.in_process else "fresh processes",
            "sources": {key: str(src) for key, src in sources.items()},
        },
    }
    prof = None
    if a.in_process:
        if a.profile:
            import cProfile

            prof = cProfile.Profile()
        print(f"in this process (no start-up)\n\n{'learner':12s} {'wall':>8s} {'CPU':>8s}")
    else:
        for src in sources.values():
            compile_bytecode(src)
        floor = start_floor()
        part["settings"]["start_floor"] = floor
        print(
            f"start-up floor here: python + import numpy = {floor:.3f} s CPU per process, "
            f"{floor * len(datasets):.1f} s per learner with one process per set\n"
        )
        per_set = "".join(f" {k + ' per set: CPU':>18s} {'/Weka':>5s}" for k in sources)
        print(
            f"{'learner':12s} {'Weka learner':20s} {'Weka':>4s} {'one process: CPU':>16s} {'(wall)':>7s} "
            f"{'/Weka':>5s}{per_set}  one process <= {TARGET} x Weka"
        )
    for learner in learners:
        weka_name, weka_s, *_ = LEARNERS[learner]
        if a.in_process:
            wall = cpu = 0.0
            for dataset in ids:
                w, c = time_in_process(learner, dataset, prof)
                wall, cpu = wall + w, cpu + c
            print(f"{learner:12s} {wall:8.1f} {cpu:8.1f}", flush=True)
            part["learners"].append({"learner": learner, "in_process_wall": wall, "in_process_cpu": cpu})
            results.add("weka", part)
            continue
        one_wall, one_cpu = time_child(learner, ids, sources["nbx"])  # the target's protocol
        per_set = dict.fromkeys(sources, 0.0)
        per_dataset = {key: {} for key in sources}
        for name, dataset in zip(datasets, ids):
            cells = []
            for key, src in sources.items():
                _, cpu = time_child(learner, [dataset], src)
                per_set[key] += cpu
                per_dataset[key][name] = cpu
                cells.append(f"{cpu:8.2f}")
            if a.per_dataset:
                print(f"  {name:30s} CPU per set" + " ".join(cells), flush=True)
        print(
            f"{learner:12s} {weka_name:20s} {weka_s:4d} {one_cpu:16.1f} {f'({one_wall:.1f})':>7s} "
            f"{one_cpu / weka_s:5.2f}"
            + "".join(f" {cpu:18.1f} {cpu / weka_s:5.2f}" for cpu in per_set.values())
            + f"  {'ok' if one_cpu / weka_s <= TARGET else 'SLOWER'}",
            flush=True,
        )
        part["learners"].append(
            {
                "learner": learner,
                "weka_learner": weka_name,
                "weka_seconds": weka_s,
                "one_process_cpu": one_cpu,
                "one_process_wall": one_wall,
                "per_set_cpu": per_set,
                "per_dataset_cpu": per_dataset,
            }
        )
        what = f"{learner} ({weka_name})"
        part["checks"].append(check(f"{what}, one process", WEKA_RATIO, one_cpu / weka_s, TARGET, applies=whole))
        results.add("weka", part)
    if prof:
        prof.dump_stats(a.profile)
    if skipped:
        print(f"\nWeka's seconds cover all 26 sets; nbx's omit {', '.join(skipped)}.")
    if "hypothyroid" in datasets:
        print("hypothyroid: our 3163-row stand-in for Weka's 3772-row hypothyroid.arff.")
    print(
        "Weka: 3.6 on a quiet machine, one JVM start per set (benchmarks/README.md); nbx: this machine now. "
        "'one process': one interpreter runs all the sets (the target's protocol); 'per set': one interpreter "
        "per set, as Weka's JVMs. On a busy machine wall time overstates nbx; CPU time is the closer estimate "
        "of a quiet run. Re-run on a quiet machine for the record."
    )
    if part["learners"]:
        print(f"results: {results.path}")
        written = draw(results.path, a.plots)
        if written:
            print("plots:", *written, sep="\n  ")


if __name__ == "__main__":
    main()
