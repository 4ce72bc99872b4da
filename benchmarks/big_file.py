"""A user's big file through the ``nbx`` command: time and peak memory of evaluate, fit and predict.

    python benchmarks/big_file.py [--rows 1000000] [--file /tmp/nbx_big_1000000.csv] [--src OLD_SRC ...]
        [--results benchmarks/results/big_file.json] [--plots DIR]

Writes (once, seeded) a CSV of ``--rows`` rows: 20 numeric attributes (6 decimals), one nominal attribute
(5 values) and a class column (3 classes from a noisy rule), about 200 MB at 1M rows. Then runs, each in a
fresh process from the repository root (params.yaml names ``nb_laplace``):

    nbx evaluate FILE --learners NaiveBayes --cv 2
    nbx evaluate FILE --learners nb_laplace --cv 2
    nbx fit FILE --learner NaiveBayes --save MODEL
    nbx predict MODEL FILE -o OUT

and prints wall seconds, CPU seconds and the peak resident memory (the child's ``ru_maxrss`` from
``os.wait4``) beside the file size, with the targets (<= 15 s for evaluate, peak <= 3x the file). Each
``--src`` (a folder holding ``nbx``, e.g. an older checkout's ``src``) is measured in the same run, side by
side; the default is this checkout's ``src``. ``--limit-gib G`` runs every command under an address-space
limit (``RLIMIT_AS``) of G GiB, to see how a command fails when memory runs out.

Every number printed goes to ``--results`` (default benchmarks/results/big_file.json, untracked) with each
target beside its limit, drawn as big_file_targets.png (``--plots``, default the results file's folder;
benchmarks/plots.py); a file of fewer than 1M rows is drawn hollow (the targets are set at 200 MB).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from plots import DEFAULT_DIR, Results, check, draw, within

REPO = Path(__file__).resolve().parents[1]
N_NUMERIC, NOMINAL, SEED = 20, ["red", "green", "blue", "cyan", "gray"], 2026
TARGET_SECONDS, TARGET_MEMORY, TARGET_ROWS = 15.0, 3.0, 1_000_000


def write_file(path: Path, rows: int, chunk: int = 100_000) -> None:
    """The benchmark's CSV, written in chunks (seeded: the same bytes every time)."""
    rng = np.random.default_rng(SEED)
    tmp = path.with_suffix(".part")
    with open(tmp, "w") as out:
        out.write(",".join([f"x{j + 1}" for j in range(N_NUMERIC)] + ["colour", "class"]) + "\n")
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            X = rng.normal(size=(n, N_NUMERIC)) * 10
            nominal = rng.integers(len(NOMINAL), size=n)
            score = X[:, 0] - 0.5 * X[:, 1] + 3 * (nominal == 2) + rng.normal(size=n) * 5
            y = np.digitize(score, [-5, 5])
            cells = np.char.mod("%.6f", X)
            body = [",".join(row) for row in cells.tolist()]
            out.write("\n".join(f"{b},{NOMINAL[k]},c{c}" for b, k, c in zip(body, nominal.tolist(), y.tolist())) + "\n")
    tmp.replace(path)


def count_rows(path: Path) -> int:
    """Data rows of the CSV (lines after the header): an existing ``--file`` may hold other than ``--rows``."""
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b"")) - 1


def checks(label: str, r: dict, size: int, rows: int) -> list[dict]:
    """The targets of one command's run: evaluate's wall seconds and every command's peak memory over the file
    size (nan where the command failed); hollow below the 1M rows they are set at."""
    nan, full = float("nan"), rows >= TARGET_ROWS
    peak, wall = (nan, nan) if r["rc"] else (r["rss"] / size, r["wall"])
    out = [check(label, "peak memory / file size", peak, TARGET_MEMORY, rows, applies=full)]
    if label.startswith("evaluate"):
        out.insert(0, check(label, "wall seconds", wall, TARGET_SECONDS, rows, applies=full))
    return out


def run(cmd: list[str], src: str, limit_gib: float | None) -> dict:
    """Run one command in a fresh process: wall and CPU seconds, peak RSS (bytes), exit code, last stderr line."""
    env = dict(os.environ, PYTHONPATH=src, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")

    def limit():
        if limit_gib:
            size = int(limit_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nbx.cli", *cmd],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    lines = [line for line in err.splitlines() if line.strip()]
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss * 1024,
        "rc": proc.returncode,
        "last": lines[-1][:100] if lines else "",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--file", help="the CSV, written if missing (default: nbx_big_ROWS.csv in the temp folder)")
    ap.add_argument("--src", nargs="+", default=[str(REPO / "src")], help="nbx source folders to compare")
    ap.add_argument("--limit-gib", type=float, help="address-space limit of every command, in GiB")
    ap.add_argument(
        "--results", type=Path, default=DEFAULT_DIR / "big_file.json", help="JSON file of every measurement printed"
    )
    ap.add_argument("--plots", type=Path, help="folder of the targets figure (default: the results file's)")
    args = ap.parse_args()
    path = Path(args.file or os.path.join(tempfile.gettempdir(), f"nbx_big_{args.rows}.csv"))
    if not path.exists():
        t = time.perf_counter()
        write_file(path, args.rows)
        print(f"wrote {path} ({args.rows} rows) in {time.perf_counter() - t:.1f} s")
    size, rows = path.stat().st_size, count_rows(path)
    print(
        f"{path}: {rows} rows, {size / 1e6:.0f} MB; targets: evaluate <= {TARGET_SECONDS:.0f} s, "
        f"peak <= {TARGET_MEMORY:.0f}x file"
    )
    results = Results(args.results, "big_file.py", sys.argv[1:])
    part = {
        "title": f"nbx on a {size / 1e6:.0f} MB CSV of {rows:,d} rows: evaluate, fit and predict, each a fresh process",
        "runs": [],
        "checks": [],
        "settings": {"file": str(path), "bytes": size, "rows": rows, "limit_gib": args.limit_gib},
    }
    with tempfile.TemporaryDirectory() as tmp:
        commands = {
            "evaluate NaiveBayes --cv 2": ["evaluate", str(path), "--learners", "NaiveBayes", "--cv", "2"],
            "evaluate nb_laplace --cv 2": ["evaluate", str(path), "--learners", "nb_laplace", "--cv", "2"],
            "fit NaiveBayes": ["fit", str(path), "--learner", "NaiveBayes", "--save", f"{tmp}/MODEL.pkl"],
            "predict": ["predict", f"{tmp}/MODEL.pkl", str(path), "-o", f"{tmp}/out.csv"],
        }
        print(f"{'command':28} {'src':32} {'wall s':>7} {'cpu s':>7} {'peak MB':>8} {'x file':>6}  rc")
        for label, cmd in commands.items():
            for src in args.src:
                r = run(cmd, src, args.limit_gib)
                targets = checks(label if len(args.src) == 1 else f"{label} ({src[-32:]})", r, size, rows)
                part["runs"].append({"command": label, "src": src, **r})
                part["checks"] += targets
                results.add("big_file", part)
                ok = "" if r["rc"] else " ok" if all(map(within, targets)) else " OVER"
                print(
                    f"{label:28} {src[-32:]:32} {r['wall']:7.1f} {r['cpu']:7.1f} {r['rss'] / 1e6:8.0f} "
                    f"{r['rss'] / size:6.1f}  {r['rc']}{ok}" + (f"  {r['last']}" if r["rc"] else "")
                )
    print(f"results: {results.path}")
    for png in draw(results.path, args.plots):
        print(f"figure: {png}")


if __name__ == "__main__":
    main()
