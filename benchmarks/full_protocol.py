"""An experiment's full protocol, timed per learner (target 4's cost in benchmarks/README.md).

    python benchmarks/full_protocol.py [--experiment benchmark] [--resume] [--every 5]
        [--log benchmarks/results/full_protocol.log] [--results benchmarks/results/full_protocol.json]
    python benchmarks/full_protocol.py --estimate 8 30 60 [--experiment benchmark]

Runs, in the current folder (a clone holding the data of a default run, so that only the experiment's stages
run), ``dvc exp run -S experiments.<experiment>.protocol.full=true``; with ``--resume``, ``dvc repro``, which goes
on from the finished splits of an interrupted run whose params.yaml already has the switch on. DVC's output goes
to ``--log``. Every ``--every`` seconds it reads the CPU seconds of the run's process tree from /proc (each
process's own seconds and those of the children it has waited for, so the pool's exited workers count) and the
train stage's log lines (``<experiment>/<learner>: <data set>: <n> splits, ...``). A learner's CPU seconds are the
tree's between the last line of the learner before it and its own last line: the first learner's include the
stages before it, and the total, the run's own (``getrusage``), less the learners' is the stages after the train
stage. The train stage's ``data/timings/`` are wall seconds per split, no measure of cost beside other work.
A resumed run counts only its own seconds: add the runs' results files. Prints and writes them (``--results``,
untracked like every timing).

``--estimate N ...`` runs nothing: it reads the experiment's ``data/timings/`` in the current folder (a finished
run, best one on otherwise idle cores: each split's seconds then are one core's) and prints the train stage's wall
time on N single-threaded workers. The stage runs its learners one after another, each a pool over all its splits;
here each learner's splits go largest first, each to the first free worker, and the learners' times add up. A
data set whose timings lack ``seconds_per_split`` (written before the train stage recorded them) counts as even
shares of its total over its splits (``data/splits/``), which understates a cell bound by one long split. Neither
the per-task overhead of a backend nor the stages other than train are counted.
"""

from __future__ import annotations

import argparse
import heapq
import os
import re
import sys
from pathlib import Path

import yaml
from pipeline import logged_run
from plots import DEFAULT_DIR, Results

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its waited-for children), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()  # the name in parentheses may hold spaces
    except OSError:
        return None
    return int(fields[1]), sum(int(v) for v in fields[11:15]) / TICKS  # ppid; utime, stime, cutime, cstime


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live descendant, each with its waited-for children."""
    stats = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(p)) is not None}
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats[pid][1] if pid in stats else 0.0
        todo.extend(children.get(pid, []))
    return total


def per_learner(samples: list[tuple[float, float]], lines: list[tuple[float, str]]) -> dict[str, float]:
    """Each learner's CPU seconds: the run's CPU (``samples``, (time, CPU s), interpolated) between the previous
    learner's last log line and its own (``lines``, (time, learner)); learners in the order they finished."""
    last: dict[str, float] = {}
    for t, learner in lines:
        last[learner] = t

    def cpu_at(t: float) -> float:
        before = [s for s in samples if s[0] <= t] or samples[:1]
        after = [s for s in samples if s[0] >= t] or samples[-1:]
        (t0, c0), (t1, c1) = before[-1], after[0]
        return c0 if t1 == t0 else c0 + (c1 - c0) * (t - t0) / (t1 - t0)

    out, previous = {}, cpu_at(samples[0][0])
    for learner, t in sorted(last.items(), key=lambda kv: kv[1]):
        now = cpu_at(t)
        out[learner], previous = now - previous, now
    return out


def timed_run(cmd: list[str], log: Path, experiment: str, every: float) -> dict:
    """Run ``cmd`` (output to ``log``), sampling its CPU and the train stage's lines; the measurements."""
    line = re.compile(rf"^{re.escape(experiment)}/([A-Za-z0-9_]+): .+: \d+ splits, ")
    samples, lines = [(0.0, 0.0)], []

    def tick(now, new_lines, pid):
        lines.extend((now, m.group(1)) for m in map(line.match, new_lines) if m)
        samples.append((now, tree_cpu(pid)))

    log.parent.mkdir(parents=True, exist_ok=True)
    code, wall, cpu = logged_run(cmd, log, every, tick)
    with open(log, errors="replace") as text:  # what the last interval wrote: at the run's end, with its total
        learners = [m.group(1) for m in map(line.match, text) if m]
    lines.extend((wall, learner) for learner in learners[len(lines) :])
    samples.append((wall, cpu))
    return {"exit": code, "wall_seconds": wall, "cpu_seconds": cpu, "learners": per_learner(samples, lines)}


def makespan(tasks: list[float], workers: int) -> float:
    """Wall seconds of ``tasks`` (seconds each) on ``workers`` workers that take them largest first, each task
    going to the worker free first."""
    free = [0.0] * max(1, min(workers, len(tasks)))
    for seconds in sorted(tasks, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + seconds)
    return max(free)


def cell_tasks(experiment: str, learners: list[str]) -> tuple[dict[str, list[float]], list[str]]:
    """{learner: the seconds of each of its splits} from the current folder's ``data/timings/<experiment>/``, and
    the ``learner/data set`` pairs counted as even shares of their totals; learners without a timings file are
    left out. A file that is not a timings file, or a data set without its splits, stops with one line."""
    from nbx.cli.results import load_timings
    from nbx.core.errors import NbxError
    from nbx.core.names import InvalidName
    from nbx.pipeline import layout
    from nbx.pipeline.inputs import load_plan

    cells, even = {}, []
    for learner in learners:
        path = layout.timings(experiment, learner)
        if not path.is_file():
            continue
        tasks = cells.setdefault(learner, [])
        try:
            times = load_timings(path)
        except NbxError as exc:
            raise SystemExit(str(exc)) from None
        for ds, entry in times.items():
            if "seconds_per_split" in entry:
                tasks.extend(float(t) for t in entry["seconds_per_split"])
                continue
            try:
                splits = layout.split_plan(experiment, ds)
                n = len(load_plan(experiment, ds)[0])
            except InvalidName as exc:  # a data set name in the file that is not an identifier: no path made
                raise SystemExit(f"{path}: {exc}") from None
            except (NbxError, OSError, KeyError, ValueError) as exc:  # missing, unreadable or not a split plan
                raise SystemExit(f"{splits}: no splits to share {path}'s {ds} over ({exc})") from None
            tasks.extend([(entry["fit_seconds"] + entry["predict_seconds"]) / n] * n)
            even.append(f"{learner}/{ds}")
    return cells, even


def estimate(cells: dict[str, list[float]], workers: list[int]) -> dict:
    """The train stage's CPU seconds, its wall seconds on each number of ``workers`` (learners in sequence) and
    its floor, where every learner takes as long as its longest split."""
    return {
        "cpu_seconds": sum(map(sum, cells.values())),
        "wall_seconds": {n: sum(makespan(t, n) for t in cells.values()) for n in workers},
        "floor_seconds": sum(max(t, default=0.0) for t in cells.values()),
    }


def print_estimate(experiment: str, cells: dict[str, list[float]], even: list[str], workers: list[int]) -> dict:
    est = estimate(cells, workers)
    print(
        f"{experiment}: train stage, {len(cells)} learners, {sum(map(len, cells.values()))} splits, "
        f"{est['cpu_seconds']:.0f} s of splits"
    )
    for n, wall in est["wall_seconds"].items():
        print(f"  {n:5d} workers {wall / 60:8.1f} min")
    print(f"  no fewer than {est['floor_seconds'] / 60:.1f} min (each learner's longest split)")
    if even:
        print(
            f"  {len(even)} data sets without seconds_per_split, counted as even shares: {', '.join(even[:5])}"
            + (" ..." if len(even) > 5 else "")
        )
    return {**est, "even_shares": even}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", default="benchmark", help="an experiment of params.yaml with a full_protocol")
    ap.add_argument("--resume", action="store_true", help="dvc repro: go on with a run already switched on")
    ap.add_argument("--every", type=float, default=5.0, help="seconds between samples of the run's CPU")
    ap.add_argument("--log", type=Path, default=DEFAULT_DIR / "full_protocol.log", help="DVC's output")
    ap.add_argument("--results", type=Path, default=DEFAULT_DIR / "full_protocol.json", help="JSON results file")
    ap.add_argument("--estimate", type=int, nargs="+", metavar="N", help="no run: the train stage on N workers")
    a = ap.parse_args()
    try:
        block = yaml.safe_load(Path("params.yaml").read_text())["experiments"][a.experiment]
        protocol, learners = block["protocol"], list(block.get("learners") or [])
    except (OSError, KeyError, TypeError, AttributeError):
        ap.error(f"--experiment {a.experiment}: not an experiment of ./params.yaml")
    if a.estimate:
        if min(a.estimate) < 1:
            ap.error("--estimate: a number of workers must be at least 1")
        cells, even = cell_tasks(a.experiment, learners)
        if not cells:
            ap.error(f"--estimate: no timings in data/timings/{a.experiment}/: run the experiment first")
        part = {
            "title": f"{a.experiment}: the train stage on N workers",
            **print_estimate(a.experiment, cells, even, a.estimate),
        }
        Results(a.results, "full_protocol.py", sys.argv[1:]).add(f"{a.experiment}-estimate", part)
        print(f"results: {a.results}")
        return
    if "full_protocol" not in protocol:
        ap.error(f"--experiment {a.experiment}: its protocol has no full_protocol")
    if a.every <= 0:
        ap.error("--every must be positive")
    switch = f"experiments.{a.experiment}.protocol.full=true"
    cmd = ["dvc", "repro"] if a.resume else ["dvc", "exp", "run", "-S", switch]
    run = timed_run(cmd, a.log, a.experiment, a.every)
    for learner, cpu in run["learners"].items():
        print(f"  {learner:24s} {cpu:9.1f} CPU s")
    print(f"{' '.join(cmd)}: exit {run['exit']}, {run['wall_seconds']:.0f} s wall, {run['cpu_seconds']:.0f} CPU s")
    part = {"title": f"{a.experiment}: full protocol", "command": cmd, **run}
    Results(a.results, "full_protocol.py", sys.argv[1:]).add(a.experiment, part)
    print(f"results: {a.results}")
    sys.exit(run["exit"])


if __name__ == "__main__":
    main()
