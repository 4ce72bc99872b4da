"""How often a Ctrl-C during a parallel ``nbx evaluate`` prints more than its one ``nbx: interrupted`` line.

Each run evaluates NaiveBayes and C45Tree (10 x 10-fold CV, two workers) on a seeded CSV of 3,000 rows and gets
SIGINT on its whole process group, as a terminal's Ctrl-C, as soon as it prints its first progress line. Four
runs go side by side, in rounds of 20 that alternate between the source trees given (``NAME=SRC``, e.g. an older
checkout's ``src`` beside this one's), so every tree meets the same machine. What stderr held is counted by kind:
the races it finds are rare, so give it hundreds of runs per tree (400 runs of two trees: about 8 minutes on two
cores). Nothing is timed.

    python benchmarks/ctrl_c.py 400 before=/tmp/old/src after=src
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

ONE_LINE = "nbx: interrupted\n"
ROUND = 20  # runs of one tree before the next tree's


def write_data(path: Path) -> None:
    """3,000 rows of 8 numeric attributes and 3 classes, seeded."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 3000)
    X = rng.normal(0.3 * y[:, None], 1.0, (3000, 8)).round(3)
    rows = [",".join(map(str, row)) + f",c{k}" for row, k in zip(X, y)]
    path.write_text("\n".join([",".join(f"x{i}" for i in range(8)) + ",label", *rows]) + "\n")


def kind(returncode: int, stderr: str) -> str:
    """What an interrupted run left on stderr, by kind."""
    if returncode == 130 and stderr == ONE_LINE:
        return "one line"
    if "leaked folder" in stderr:
        return "leaked-folder warning"
    if "KeyError" in stderr and "ExecutorManagerThread" in stderr:
        return "loky manager thread's KeyError"
    if "Traceback" in stderr:
        return "a traceback"
    if "resource_tracker" in stderr:
        return "another resource-tracker warning"
    return f"other (exit {returncode})"


class Run(NamedTuple):
    returncode: int
    first: str  # the progress line the Ctrl-C waited for
    stdout: str
    stderr: str  # after that line


def interrupted_run(data: Path, src: str) -> Run:
    """``nbx evaluate`` on ``data`` (by name, in its folder) with ``src`` on PYTHONPATH, interrupted by SIGINT to its
    process group once NaiveBayes is done and C45Tree's folds run in the pool (tests/bad_inputs/test_cli_errors.py
    runs it once)."""
    command = [sys.executable, "-m", "nbx.cli", "evaluate", data.name, "--learners", "NaiveBayes,C45Tree"]
    command += ["--repeats", "10", "--discretizer", "equal_width(bins=5)"]
    proc = subprocess.Popen(
        command,
        cwd=data.parent,
        env={**os.environ, "NBX_JOBS": "2", "PYTHONPATH": src},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # as a terminal starts it: a background job of a non-interactive shell (a CI script's `cmd &`) inherits
        # SIGINT ignored, and Python then installs no KeyboardInterrupt handler
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = proc.stderr.readline()
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    return Run(proc.returncode, first, stdout, stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", type=int, help="interrupted runs per source tree (a multiple of 20)")
    ap.add_argument("trees", nargs="+", metavar="NAME=SRC", help="a source tree to put on PYTHONPATH, by name")
    ap.add_argument("--show", action="store_true", help="then print the first stderr of each kind but one line")
    a = ap.parse_args()
    trees = {}
    for tree in a.trees:
        name, sep, src = tree.partition("=")
        if not sep or not Path(src, "nbx").is_dir():
            ap.error(f"{tree!r}: give NAME=SRC, SRC a folder holding the nbx package")
        trees[name] = str(Path(src).resolve())
    counts = {name: collections.Counter() for name in trees}
    examples = {}  # (tree, kind) -> the first stderr of that kind
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(4) as pool:
        data = Path(tmp) / "ctrl_c.csv"
        write_data(data)
        for _ in range(-(-a.runs // ROUND)):
            for name, src in trees.items():
                for run in pool.map(interrupted_run, [data] * ROUND, [src] * ROUND):
                    what = kind(run.returncode, run.stderr)
                    counts[name][what] += 1
                    examples.setdefault((name, what), run.stderr)
    for name, count in counts.items():
        print(f"{name}: {sum(count.values())} runs, " + ", ".join(f"{k} {n}" for k, n in count.most_common()))
    if a.show:
        for (name, what), err in examples.items():
            if what != "one line":
                print(f"\n== {name}: {what}\n{err}", end="")


if __name__ == "__main__":
    main()
