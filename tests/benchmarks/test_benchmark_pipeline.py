"""benchmarks/pipeline.py's reading of a run's data/timings: the train seconds per experiment and the hot cells
against their limits, as the results file records them; and the scripts it runs in its fresh clone. Nothing here
times anything."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from benchmark_scripts import in_folder


@pytest.fixture
def pipeline(monkeypatch):
    pytest.importorskip("matplotlib")
    yield from in_folder(monkeypatch, "pipeline")


def _timings(root: Path, experiment: str, learner: str, walls: list[float]) -> None:
    folder = root / "data" / "timings" / experiment
    folder.mkdir(parents=True, exist_ok=True)
    cells = {f"set{i}": {"wall_seconds": w, "fit_seconds": w / 2, "predict_seconds": 0.0} for i, w in enumerate(walls)}
    (folder / f"{learner}.json").write_text(json.dumps(cells))


def test_hot_cells_add_their_learners_and_stand_beside_their_limits(pipeline, tmp_path, capsys):
    for label, experiment, learners, target in pipeline.HOT_CELLS:
        for k, learner in enumerate(learners):
            _timings(
                tmp_path, experiment, learner, [(target or 40) / 4, (target or 40) / 8 + k]
            )  # the first cells within, the rest not
    _timings(tmp_path, "lee2006", "nb_laplace", [0.5, 0.25])
    part = pipeline.train_seconds(tmp_path)
    assert part["train_seconds"]["lee2006"] == 0.75
    targeted = [cell for cell in pipeline.HOT_CELLS if cell[3] is not None]
    assert len(part["checks"]) == len(targeted) < len(pipeline.HOT_CELLS)  # a retired target is timed, not checked
    for (label, experiment, learners, target), c in zip(targeted, part["checks"]):
        expected = sum(target / 4 + target / 8 + k for k in range(len(learners)))
        assert c["what"] == f"hot cell: {label} ({experiment})"
        assert (c["value"], c["limit"], c["op"]) == (expected, target, "<=")
    out = capsys.readouterr().out
    assert "lee2006" in out
    assert "HBayes-NB            kang2006        15.0 s   (no target)" in out


def test_a_checkout_that_has_not_run_stops_with_the_missing_file(pipeline, tmp_path):
    label, experiment, learners, _ = pipeline.HOT_CELLS[0]
    with pytest.raises(SystemExit, match=rf"^pipeline.py: no .*{experiment}/{learners[0]}\.json: run `dvc repro`"):
        pipeline.train_seconds(tmp_path)


def test_in_clone_runs_the_clones_own_scripts_there_and_goes_on_after_a_failure(pipeline, tmp_path):
    clone, out = tmp_path / "clone", tmp_path / "out" / "argv.json"
    (clone / "benchmarks").mkdir(parents=True)
    (clone / "benchmarks" / "probe.py").write_text(
        "import json, os, sys\njson.dump([os.getcwd(), sys.argv[1:]], open(sys.argv[-1], 'w'))\n"
    )
    (clone / "benchmarks" / "fails.py").write_text("raise SystemExit(3)\n")
    out.parent.mkdir()
    commands = ["fails.py", f"probe.py --datasets 'a b' {out}"]
    done = pipeline.in_clone(clone, Path(sys.executable), dict(os.environ), commands)
    assert done == [{"command": "fails.py", "returncode": 3}, {"command": commands[1], "returncode": 0}]
    assert json.loads(out.read_text()) == [str(clone), ["--datasets", "a b", str(out)]]


def test_a_sampled_run_gives_its_cpu_seconds_and_each_stage_kinds_wall(pipeline, tmp_path):
    """sampled_run times a command and files each second under the DVC stage it ran last (by kind, as
    ``prepare`` for ``prepare@lee2006``); the CPU seconds are the command's own."""
    script = (
        "import time\n"
        "print(\"Running stage 'prepare@lee2006':\", flush=True)\n"
        "t = time.process_time()\n"
        "while time.process_time() - t < 1.2: pass\n"
        "print(\"Running stage 'stages/train/dvc.yaml:train@lee2006':\", flush=True)\n"
        "time.sleep(2.5)\n"
    )
    run = pipeline.sampled_run([sys.executable, "-c", script], tmp_path, dict(os.environ), tmp_path / "log")
    assert run["wall_seconds"] >= 3.5 and 1.2 <= run["cpu_seconds"] < run["wall_seconds"]
    assert set(run["stages"]) <= {"(start)", "prepare", "train"} and "train" in run["stages"]
    assert sum(p["wall_seconds"] for p in run["stages"].values()) <= run["wall_seconds"] + 1
    assert "Running stage 'prepare@lee2006'" in (tmp_path / "log").read_text()


def test_an_interrupted_logged_run_stops_its_command(pipeline, tmp_path):
    """An exception while waiting (Ctrl-C, a timer) kills the command before it propagates, as subprocess.run
    does: no run goes on unwatched."""
    import signal

    pids = []

    def interrupt(*_):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            pipeline.logged_run(["sleep", "30"], tmp_path / "log", 0.1, lambda now, lines, pid: pids.append(pid))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert pids
    with pytest.raises(ChildProcessError):  # already reaped: nothing of it is left
        os.waitpid(pids[0], 0)
    assert not Path(f"/proc/{pids[0]}").exists()
