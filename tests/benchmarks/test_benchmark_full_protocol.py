"""benchmarks/full_protocol.py's accounting: a learner's CPU seconds from the run's samples and the train stage's
lines (hand-computed), a process tree's CPU with a waited-for child's, a stand-in run measured end to end, and a
bad experiment named in one line. Nothing here runs DVC."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from benchmark_scripts import BENCHMARKS, in_folder

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


@pytest.fixture
def full(monkeypatch):
    pytest.importorskip("matplotlib")
    yield from in_folder(monkeypatch, "full_protocol")


def test_a_learner_gets_the_cpu_between_the_learner_before_it_and_its_last_line(full):
    samples = [(0.0, 0.0), (10.0, 20.0), (20.0, 40.0)]  # two CPU seconds per second
    lines = [(5.0, "nb"), (8.0, "nb"), (15.0, "tan"), (20.0, "tan")]
    assert full.per_learner(samples, lines) == {"nb": 16.0, "tan": 24.0}
    assert full.per_learner(samples, []) == {}


def test_the_tree_counts_a_child_that_has_exited_and_been_waited_for(full):
    script = (
        f"import subprocess, sys, time\nsubprocess.run([sys.executable, '-c', {BUSY.format(s=0.5)!r}])\ntime.sleep(30)"
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.time() + 20
        while full.tree_cpu(proc.pid) < 0.5 and time.time() < deadline:
            time.sleep(0.1)
        assert 0.5 <= full.tree_cpu(proc.pid) < 5
    finally:
        proc.kill()
        proc.wait()


def test_a_stand_in_run_is_measured_per_learner_and_in_total(full, tmp_path):
    lines = ["benchmark/nb: iris: 30 splits, 0.1 s", "benchmark/tan: iris: 30 splits, 0.3 s", "evaluate done"]
    script = "".join(f"{BUSY.format(s=s)}print({text!r}, flush=True)\n" for s, text in zip((0.3, 0.6, 0.3), lines))
    run = full.timed_run([sys.executable, "-c", script], tmp_path / "log", "benchmark", every=0.05)
    assert run["exit"] == 0 and list(run["learners"]) == ["nb", "tan"]
    # each learner's busy seconds, give or take a sample's lag (nb's also hold the interpreter's start)
    assert abs(run["learners"]["nb"] - 0.3) < 0.3 and abs(run["learners"]["tan"] - 0.6) < 0.3
    assert 1.2 <= run["cpu_seconds"] < 10 and (tmp_path / "log").read_text().splitlines() == lines


@pytest.mark.parametrize(
    "params, error",
    [
        ("experiments: {}\n", "--experiment benchmark: not an experiment of ./params.yaml"),
        (
            "experiments: {benchmark: {protocol: {kind: cv}}}\n",
            "--experiment benchmark: its protocol has no full_protocol",
        ),
    ],
)
def test_an_experiment_without_a_full_protocol_is_named_in_one_line(tmp_path, params, error):
    (tmp_path / "params.yaml").write_text(params)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "full_protocol.py")], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].endswith(error)


def test_splits_go_largest_first_to_the_worker_free_first(full):
    # 2 workers: 5 | 4, then 3 -> the 4's worker (7), 3 -> the 5's (8), 1 -> the 7 (8): hand-scheduled
    assert full.makespan([3, 1, 5, 3, 4], 2) == 8.0
    assert full.makespan([3, 1, 5, 3, 4], 1) == 16.0 and full.makespan([3, 1, 5, 3, 4], 9) == 5.0
    assert full.makespan([], 4) == 0.0


def test_the_estimate_adds_up_the_learners_one_after_another(full):
    est = full.estimate({"nb": [1.0, 1.0, 1.0, 1.0], "tan": [6.0, 2.0]}, [1, 2, 4])
    assert est == {"cpu_seconds": 12.0, "wall_seconds": {1: 12.0, 2: 2.0 + 6.0, 4: 1.0 + 6.0}, "floor_seconds": 7.0}


def test_timings_without_per_split_seconds_count_as_even_shares(full, tmp_path, monkeypatch):
    import json

    import numpy as np

    timings, splits = tmp_path / "data" / "timings" / "benchmark", tmp_path / "data" / "splits" / "benchmark"
    timings.mkdir(parents=True)
    splits.mkdir(parents=True)
    (timings / "nb.json").write_text(
        json.dumps(
            {
                "iris": {"fit_seconds": 2.5, "predict_seconds": 0.5, "seconds_per_split": [2.0, 1.0]},
                "wine": {"fit_seconds": 3.0, "predict_seconds": 1.0},
            }
        )
    )
    np.savez(splits / "wine.npz", test=np.zeros((4, 10), bool), repeat=np.zeros(4, int))  # as split@ writes it
    monkeypatch.chdir(tmp_path)
    cells, even = full.cell_tasks("benchmark", ["nb", "tan"])  # tan: no timings, left out
    assert cells == {"nb": [2.0, 1.0, 1.0, 1.0, 1.0, 1.0]} and even == ["nb/wine"]
    (splits / "wine.npz").unlink()
    with pytest.raises(SystemExit, match="wine.npz: no splits to share"):
        full.cell_tasks("benchmark", ["nb"])
    (timings / "nb.json").write_text(json.dumps({"../wine": {"fit_seconds": 1.0, "predict_seconds": 0.0}}))
    with pytest.raises(SystemExit, match=r"nb.json: '../wine' is not a valid data set name"):
        full.cell_tasks("benchmark", ["nb"])
    (timings / "nb.json").write_text("{")
    with pytest.raises(SystemExit, match=r"nb.json:1:2: not valid JSON"):
        full.cell_tasks("benchmark", ["nb"])


def test_the_estimate_command_reads_the_timings_of_the_current_folder(tmp_path):
    import json

    (tmp_path / "params.yaml").write_text("experiments: {kang2006: {protocol: {kind: cv}, learners: [nb]}}\n")
    command = [sys.executable, str(BENCHMARKS / "full_protocol.py"), "--experiment", "kang2006", "--estimate", "1", "2"]
    command += ["--results", str(tmp_path / "est.json")]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2 and "no timings in data/timings/kang2006/" in done.stderr.splitlines()[-1]
    (tmp_path / "data" / "timings" / "kang2006").mkdir(parents=True)
    entry = {"fit_seconds": 5.0, "predict_seconds": 1.0, "seconds_per_split": [1.0, 2.0, 3.0]}
    (tmp_path / "data" / "timings" / "kang2006" / "nb.json").write_text(json.dumps({"iris": entry}))
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "1 workers      0.1 min" in done.stdout and "no fewer than 0.1 min" in done.stdout
    part = json.loads((tmp_path / "est.json").read_text())["parts"]["kang2006-estimate"]
    assert part["wall_seconds"] == {"1": 6.0, "2": 3.0} and part["floor_seconds"] == 3.0
