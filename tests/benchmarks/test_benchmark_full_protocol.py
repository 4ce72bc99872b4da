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
