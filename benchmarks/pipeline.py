"""Time the pipeline itself (targets 1, 2 and the hot cells of 4 in benchmarks/README.md): a full run, DVC's
no-op cost and the per-cell overhead.

    python benchmarks/pipeline.py fresh-clone   # clone this repository to a temporary folder, install it in a
                                                # new virtual environment, time a full `dvc repro` there (wall
                                                # and CPU seconds, and per stage kind the core-seconds idle,
                                                # from /proc/stat every second), then print its train time per
                                                # experiment, the hot cells against their targets and the
                                                # overhead, all from that same run
    python benchmarks/pipeline.py overhead      # on an up-to-date pipeline: dvc status, no-op dvc repro,
                                                # and a forced train stage refitting one small learner,
                                                # minus that learner's own fit time
    python benchmarks/pipeline.py hot-cells     # the hot cells of this workspace's last run (data/timings/)
    python benchmarks/pipeline.py stages        # on an up-to-date pipeline: every stage of dvc.yaml itself (all
                                                # but the train cells) forced in one `dvc repro`: DVC's and the
                                                # stages' own cost around the train cells (rewrites the same bytes)

``fresh-clone --in-clone "SCRIPT ARGS"`` (repeatable) then runs a script of benchmarks/ in the clone before it is
deleted (the clone's copy of the script, its virtual environment's python, the clone's data after the run; give
absolute paths for files outside it), e.g. ``--in-clone "cluster.py --results /abs/cluster.json"``: the
benchmarks that need the pipeline's data (benchmarks/all.py passes cluster.py and limit.py). A script that fails
is reported and the next one runs.

Prints seconds and writes them, with each target beside its limit, to a results file (``--results``, default
benchmarks/results/pipeline.json, untracked) and its figure pipeline_targets.png (``--plots``, default the results
file's folder; benchmarks/plots.py); nothing tracked (the forced cell rewrites its outputs byte for byte).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plots import DEFAULT_DIR, Results, check, draw

SMALL_CELL = ("lee2006", "nb_laplace")  # fits in well under a second: what is left is overhead
# target 4 (benchmarks/README.md): (label, experiment, learners whose train cells add up, target seconds or None:
# HBayes-NB's was retired, Kang & Tian's search being the method; its cell is still timed)
HOT_CELLS = [
    ("BLNBT, five cells", "ting2003", ["blnbt0", "blnbt1", "blnbt3", "blnbt5", "blnbt10"], 300),
    ("S-NBTree", "wang2006", ["snbtree"], 60),
    ("NBTree", "wang2006", ["nbtree"], 30),
    ("HBayes-NB", "kang2006", ["hbayes_nb"], None),
    ("2-2 HM", "wiering2003", ["hm22"], 40),
]


def timed(cmd: list[str], cwd: Path | None = None, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def _cpu_jiffies() -> tuple[int, int]:
    """(all, busy) clock ticks of every CPU since boot (Linux's /proc/stat)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    return sum(ticks), sum(ticks) - ticks[3] - ticks[4]  # less idle and iowait


def logged_run(cmd: list[str], log: Path, every: float, tick, cwd: Path | None = None, env=None) -> tuple:
    """Run ``cmd`` with its output to ``log``; from its start and every ``every`` seconds until it ends, call
    ``tick(seconds since the start, the lines the log gained, the command's pid)``. Returns its exit status, wall
    seconds and CPU seconds (``getrusage`` of the finished command and everything it waited for)."""
    import resource
    import threading

    stop = threading.Event()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "w") as out, open(log, errors="replace") as text:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)

        def sample():
            while True:
                tick(time.perf_counter() - t0, text.readlines(), proc.pid)
                if stop.wait(every):
                    return

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            code = proc.wait()
        except BaseException:  # interrupted: stop the command too, as subprocess.run does
            proc.kill()
            proc.wait()
            raise
        finally:
            wall = time.perf_counter() - t0
            stop.set()
            sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return code, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sampled_run(cmd: list[str], cwd: Path, env: dict, log: Path) -> dict:
    """Run ``cmd`` (its output to ``log``) and, every second, how busy the machine's cores are and which stage
    DVC runs (its last "Running stage" line): where the cores idle. Returns the wall and CPU seconds of the run
    and per stage kind (code, prepare, ..., train, report) its wall seconds and idle core-seconds."""
    samples, cores = [], os.cpu_count() or 1
    stage = ["(start)"]

    def tick(now, lines, _pid):
        for line in lines:
            if line.startswith("Running stage"):
                stage[0] = line.split("'")[1].split(":")[-1].split("@")[0]
        samples.append((now, *_cpu_jiffies(), stage[0]))

    code, wall, cpu = logged_run(cmd, log, 1.0, tick, cwd, env)
    if code:
        raise subprocess.CalledProcessError(code, cmd)
    stages: dict[str, dict] = {}
    for (t_a, all_a, busy_a, kind), (t_b, all_b, busy_b, _) in zip(samples, samples[1:]):
        share = (busy_b - busy_a) / max(all_b - all_a, 1)
        entry = stages.setdefault(kind, {"wall_seconds": 0.0, "idle_core_seconds": 0.0})
        entry["wall_seconds"] += t_b - t_a
        entry["idle_core_seconds"] += (t_b - t_a) * cores * (1 - share)
    return {"wall_seconds": wall, "cpu_seconds": cpu, "cores": cores, "stages": stages}


def cell_seconds(root: Path, experiment: str, learner: str) -> float:
    """Wall time of a train cell's last run: its data sets' ``wall_seconds`` add up to the cell's total."""
    path = root / "data" / "timings" / experiment / f"{learner}.json"
    if not path.is_file():  # a checkout that has not run the pipeline (or not this cell)
        raise SystemExit(f"pipeline.py: no {path}: run `dvc repro` there first")
    times = json.loads(path.read_text())
    return sum(t["wall_seconds"] for t in times.values())


def train_seconds(root: Path = Path(".")) -> dict:
    """Train-cell wall time per experiment, then the hot cells against their targets."""
    per_experiment = {}
    for path in sorted((root / "data" / "timings").glob("*/*.json")):
        per_experiment.setdefault(path.parent.name, []).append(cell_seconds(root, path.parent.name, path.stem))
    for experiment, cells in per_experiment.items():
        print(f"train cells {experiment:12s} {len(cells):3d} cells {sum(cells):7.1f} s")
    checks = []
    for label, experiment, learners, target in HOT_CELLS:
        seconds = sum(cell_seconds(root, experiment, learner) for learner in learners)
        if target is None:
            print(f"{label:20s} {experiment:12s} {seconds:7.1f} s   (no target)")
            continue
        verdict = "ok" if seconds <= target else "SLOWER"
        print(f"{label:20s} {experiment:12s} {seconds:7.1f} s   (target <= {target} s) {verdict}")
        checks.append(check(f"hot cell: {label} ({experiment})", "wall seconds", seconds, target))
    return {"train_seconds": {e: sum(cells) for e, cells in per_experiment.items()}, "checks": checks}


def overhead(root: Path = Path("."), env=None) -> dict:
    status, noop = timed(["dvc", "status"], root, env), timed(["dvc", "repro"], root, env)
    print(f"dvc status (no-op):          {status:6.2f} s   (target <= 3 s)")
    print(f"dvc repro (no-op):           {noop:6.2f} s   (target <= 3 s)")
    exp, learner = SMALL_CELL  # the train stage fits only what changed: a forced rerun after one learner's fit
    (root / "data" / "trained" / f"{exp}.json").write_text("{}")  # forget every key: all of lee2006 refits...
    stage = f"stages/train/dvc.yaml:train@{exp}"
    subprocess.run(["python", "stages/train.py", exp], cwd=root, check=True, capture_output=True, env=env)
    data = json.loads((root / "data" / "trained" / f"{exp}.json").read_text())
    data.pop(learner)  # ...then forget one learner's keys: the forced stage fits that learner only
    (root / "data" / "trained" / f"{exp}.json").write_text(json.dumps(data))
    wall = timed(["dvc", "repro", "--force", "--single-item", stage], root, env)
    work = json.loads((root / "data" / "timings" / exp / f"{learner}.json").read_text())
    fits = sum(t["fit_seconds"] + t["predict_seconds"] for t in work.values())
    print(
        f"forced {stage} refitting {learner} only: {wall:6.2f} s, of which fit+predict {fits:.2f} s -> "
        f"overhead {wall - fits:.2f} s   (target <= 1 s)"
    )
    return {
        "checks": [
            check("dvc status, nothing to do", "wall seconds", status, 3),
            check("dvc repro, nothing to do", "wall seconds", noop, 3),
            check(f"overhead of one train cell ({exp} {learner})", "wall seconds", wall - fits, 1),
        ]
    }


def top_level_stages(root: Path = Path("."), env=None) -> dict:
    """Wall seconds of one `dvc repro --force --single-item` of every stage dvc.yaml defines itself."""
    from nbx.pipeline import code, config

    names = [n for n in code.stage_names(config.load_params(root / "params.yaml")) if not n.startswith("train@")]
    wall = timed(["dvc", "repro", "--force", "--single-item", *names], root, env)
    print(f"every top-level stage forced ({len(names)} stages): {wall:6.1f} s")
    return {"stages": len(names), "wall_seconds": wall}


def in_clone(clone: Path, python: Path, env: dict, commands: list[str]) -> list[dict]:
    """Run each "SCRIPT ARGS" of the clone's benchmarks/ there, with its virtual environment's python."""
    done = []
    for command in commands:
        script, *args = shlex.split(command)
        print(f"\n== in the clone: {command}", flush=True)
        cmd = [str(python), str(clone / "benchmarks" / script), *args]
        rc = subprocess.run(cmd, cwd=clone, env=env).returncode
        if rc:
            print(f"{script} failed (exit code {rc})", flush=True)
        done.append({"command": command, "returncode": rc})
    return done


def fresh_clone(results: Results, then: list[str] = ()) -> None:
    """A full run in a fresh clone (targets 1, 2, 4), recorded, then the ``then`` commands there (``in_clone``)."""
    repo = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        clone, venv = Path(tmp) / "nbx", Path(tmp) / "venv"
        subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        py = venv / "bin" / "python"
        pins = str(clone / "constraints.txt")  # the numeric stack of the committed results, as README's quick start
        subprocess.run([str(py), "-m", "pip", "install", "-q", "-c", pins, "-e", f"{clone}[pipeline]"], check=True)
        install = time.perf_counter() - t0
        # the clone's own nbx (installed in the venv), whatever PYTHONPATH this process was started with
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PATH"] = f"{venv / 'bin'}:{os.environ['PATH']}"
        run = sampled_run(["dvc", "repro"], clone, env, Path(tmp) / "repro.log")
        repro, cpu, cores = run["wall_seconds"], run["cpu_seconds"], run["cores"]
        busy_limit = 1.05 * cpu / cores + 30  # target 1: every core busy
        print(f"install {install:.0f} s, full dvc repro {repro:.0f} s ({repro / 60:.1f} min; target <= 15 min)")
        print(
            f"  {cpu:.0f} CPU s, {cpu / repro:.2f} of {cores} cores busy; wall <= 1.05 x CPU / cores + 30 s = "
            f"{busy_limit:.0f} s {'ok' if repro <= busy_limit else 'SLOWER'}"
        )
        for kind, part in run["stages"].items():
            print(f"  {kind:12s} {part['wall_seconds']:7.1f} s wall, {part['idle_core_seconds']:6.1f} idle core-s")
        clean = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True).stdout
        print("git status after the run:", "clean" if not clean else "\n" + clean)
        train, over = train_seconds(clone), overhead(clone, env)  # with the clone's dvc and nbx
        outside = repro - sum(train["train_seconds"].values())
        print(f"everything but the train cells' own seconds: {outside:.0f} s")
        full = check("full dvc repro, fresh clone, empty cache", "wall minutes", repro / 60, 15)
        busy = check("full dvc repro: every core busy (1.05 x CPU s / cores + 30 s)", "wall seconds", repro, busy_limit)
        part = {
            "install_seconds": install,
            "repro_seconds": repro,
            "repro_cpu_seconds": cpu,
            "stages": run["stages"],
            "git_status_clean": not clean,
            "train_seconds": train["train_seconds"],
            "outside_train_seconds": outside,
            "checks": [full, busy, *train["checks"], *over["checks"]],
        }
        results.add("fresh-clone", part)  # before the clone's other benchmarks, which may take long
        if then:
            results.add("fresh-clone", {**part, "in_clone": in_clone(clone, py, env, then)})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["fresh-clone", "overhead", "hot-cells", "stages"])
    ap.add_argument("--results", type=Path, default=DEFAULT_DIR / "pipeline.json", help="JSON file of the measurements")
    ap.add_argument("--plots", type=Path, help="folder of the targets figure (default: the results file's)")
    ap.add_argument(
        "--in-clone",
        action="append",
        default=[],
        metavar='"SCRIPT ARGS"',
        help="fresh-clone: then run this script of benchmarks/ in the clone (repeatable)",
    )
    a = ap.parse_args()
    if a.in_clone and a.what != "fresh-clone":
        ap.error("--in-clone runs in the fresh clone: only with fresh-clone")
    results = Results(a.results, "pipeline.py", sys.argv[1:])
    if a.what == "fresh-clone":
        fresh_clone(results, a.in_clone)
    else:
        results.add(a.what, {"overhead": overhead, "hot-cells": train_seconds, "stages": top_level_stages}[a.what]())
    print(f"results: {results.path}")
    for path in draw(results.path, a.plots):
        print(f"figure: {path}")


if __name__ == "__main__":
    main()
