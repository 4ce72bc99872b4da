"""A user's file through nbx's reader beside pandas: time and peak memory of ``read_user_file`` and of
``pandas.read_csv`` plus ``pandas.factorize`` of the nominal columns, side by side in one run.

    python benchmarks/reader.py [--rows 100000 1000000] [--repeats 3] [--dir DIR] [--kinds plain marked]
        [--src SRC ...] [--results benchmarks/results/reader.json] [--plots DIR]

Writes (seeded, into ``--dir``, by default a temporary folder removed at the end) a CSV per row count and kind:
12 columns, 9 numeric (normal x 10, 6 decimals), 2 nominal attributes (5 and 40 values) and a class (3), about
100 bytes a row. ``plain`` has nothing else; ``marked`` has 1 % of the cells ``?`` and the 5-valued column's
``dark, red`` quoted (what sent every block of the reader before pandas to the csv module). Each reading runs in
a fresh process (one BLAS thread): wall and CPU seconds of the reading alone (imports done before the clock
starts), and its peak memory, the process's peak resident size (``VmHWM`` of /proc/self/status) minus its resident
size after the imports (``VmRSS``): the memory the reading added, the result included. (Not ``ru_maxrss``: a
child's keeps its parent's peak from before ``exec``.) pandas reads with its defaults
(``na_values=["?"]`` added for ``marked``, whose markers it would otherwise read as text); nbx reads with its
own (sniffed dialect, markers ``?``, empty and ``NA``). Each ``--src`` (a folder holding ``nbx``, e.g. an older
checkout's ``src``) is measured in the same run; the default is this checkout's ``src``. The best of
``--repeats`` runs is printed, with ours over pandas' (wall, CPU, peak) and the peak over the file size; the
time target is read on CPU seconds, the closer estimate of a quiet run when the machine is busy.

Targets (benchmarks/README.md, target 11), read at 10^6 rows of ``plain``: time <= 1.5x pandas', peak memory
<= 3x the file. Every number printed goes to ``--results`` (default benchmarks/results/reader.json, untracked)
and is drawn as reader_targets.png (``--plots``, default the results file's folder; benchmarks/plots.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from plots import DEFAULT_DIR, Results, check, draw, within

REPO = Path(__file__).resolve().parents[1]
N_NUMERIC, SEED, MARKED = 9, 2026, 0.01
COLOURS = ["red", "green", "blue", "cyan", "dark, red"]
SHAPES = [f"s{k}" for k in range(40)]
NOMINAL = ["colour", "shape", "class"]
TARGET_RATIO, TARGET_MEMORY, TARGET_ROWS = 1.5, 3.0, 1_000_000

# One reading in a fresh process: argv = reader, path, kind; prints one JSON line.
CHILD = r"""
import json, sys, time
import numpy as np, pandas as pd
from nbx.data.userfile import read_user_file
def status(key):  # bytes
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))
reader, path, kind = sys.argv[1:]
before = status("VmRSS")
wall, cpu = time.perf_counter(), time.process_time()
if reader == "nbx":
    read = read_user_file(path)
    rows = len(read.table.X)
else:
    frame = pd.read_csv(path, na_values=["?"] if kind == "marked" else None)
    codes = [pd.factorize(frame[c]) for c in ("colour", "shape", "class")]
    rows = len(frame)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "peak": status("VmHWM") - before, "rows": rows}))
"""


def write_file(path: Path, rows: int, kind: str, chunk: int = 100_000) -> None:
    """The benchmark's CSV, written in chunks (seeded: the same bytes every time)."""
    rng = np.random.default_rng(SEED)
    quoted = np.array([f'"{c}"' if "," in c else c for c in COLOURS])
    with open(path, "w") as out:
        out.write(",".join([f"x{j + 1}" for j in range(N_NUMERIC)] + NOMINAL) + "\n")
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            cells = np.char.mod("%.6f", rng.normal(size=(n, N_NUMERIC)) * 10).astype(object)
            colour = quoted[rng.integers(len(COLOURS) - (kind == "plain"), size=n)]
            shape = np.array(SHAPES)[rng.integers(len(SHAPES), size=n)]
            label = np.array(["c0", "c1", "c2"])[rng.integers(3, size=n)]
            table = np.column_stack([cells, colour, shape, label])
            if kind == "marked":
                table[:, :-1][rng.random((n, table.shape[1] - 1)) < MARKED] = "?"  # the class stays
            out.write("\n".join(",".join(r) for r in table.tolist()) + "\n")


def run(reader: str, path: Path, kind: str, src: str) -> dict:
    """One reading in a fresh process: wall and CPU seconds, peak memory added (bytes), rows read."""
    env = dict(os.environ, PYTHONPATH=src, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, reader, str(path), kind], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{reader} on {path} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def best(runs: list[dict]) -> dict:
    """The least of each measurement over the repeats (a busy machine only adds)."""
    return {k: min(r[k] for r in runs) for k in runs[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--kinds", nargs="+", choices=["plain", "marked"], default=["plain", "marked"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--dir", type=Path, help="folder of the CSVs, kept (default: a temporary folder, removed)")
    ap.add_argument("--src", nargs="+", default=[str(REPO / "src")], help="nbx source folders to compare")
    ap.add_argument("--results", type=Path, default=DEFAULT_DIR / "reader.json", help="JSON file of every number")
    ap.add_argument("--plots", type=Path, help="folder of the targets figure (default: the results file's)")
    args = ap.parse_args()
    results = Results(args.results, "reader.py", sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"best of {args.repeats}; peak: resident memory the reading added (VmHWM - VmRSS after the imports)")
        head = f"{'kind':7} {'rows':>9} {'MB':>5} {'reader':34} {'wall s':>7} {'cpu s':>6} {'peak MB':>8} {'x file':>6}"
        print(f"{head} {'wall/pd':>7} {'cpu/pd':>6} {'mem/pd':>6}")
        for kind in args.kinds:
            part = {"title": f"read_user_file beside pandas.read_csv + factorize, {kind} CSV", "runs": [], "checks": []}
            for rows in args.rows:
                path = folder / f"nbx_reader_{kind}_{rows}.csv"
                if not path.exists():
                    write_file(path, rows, kind)
                size = path.stat().st_size
                readers = [("pandas", "pandas.read_csv + factorize", args.src[0])]
                readers += [("nbx", f"read_user_file ({src[-20:]})", src) for src in args.src]
                peer = None
                for reader, label, src in readers:
                    r = best([run(reader, path, kind, src) for _ in range(args.repeats)])
                    peer = peer or r
                    part["runs"].append({"kind": kind, "rows": rows, "bytes": size, "reader": label, **r})
                    line = (
                        f"{kind:7} {rows:9,d} {size / 1e6:5.0f} {label:34} {r['wall']:7.2f} {r['cpu']:6.2f} "
                        f"{r['peak'] / 1e6:8.0f} {r['peak'] / size:6.2f}"
                    )
                    if reader == "nbx":
                        wall, cpu, memory = (r[k] / peer[k] for k in ("wall", "cpu", "peak"))
                        full = kind == "plain" and rows >= TARGET_ROWS
                        targets = [
                            check(f"{kind}: {label}", "CPU seconds / pandas'", cpu, TARGET_RATIO, rows, applies=full),
                            check(
                                f"{kind}: {label}", "peak / file", r["peak"] / size, TARGET_MEMORY, rows, applies=full
                            ),
                        ]
                        part["checks"] += targets
                        ok = " ok" if all(map(within, targets)) else " OVER"
                        line += f" {wall:7.2f} {cpu:6.2f} {memory:6.2f}{ok if full else ''}"
                    print(line, flush=True)
                    results.add(kind, part)
    print(f"results: {results.path}")
    for png in draw(results.path, args.plots):
        print(f"figure: {png}")


if __name__ == "__main__":
    main()
