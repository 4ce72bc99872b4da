"""benchmarks/cluster.py's runs of run_cell.py, on a stand-in script: ``copies`` processes run side by side (the
machine's ceiling), a run whose predictions differ counts as not the same bytes, and a failed run stops the script
with its last error line; cluster_trace.py names a bad cell in one line. Nothing here times a train cell."""

from __future__ import annotations

import ast
import json
import sys

import pytest
from benchmark_scripts import BENCHMARKS, in_folder

# run_cell.py's stand-in: records when it ran, waits, exits with the code it is given (0 identical, 3 different)
STAND_IN = """import json, os, sys, time
start = time.time()
time.sleep(1.0)
with open(os.path.join(os.environ["LOG_DIR"], f"{os.getpid()}.json"), "w") as f:
    json.dump({"argv": sys.argv[1:], "start": start, "end": time.time()}, f)
code = int(os.environ.get("EXIT_CODE", "0"))
if code not in (0, 3):
    print("Traceback (most recent call last):", file=sys.stderr)
    print("ValueError: no such learner", file=sys.stderr)
sys.exit(code)
"""


@pytest.fixture
def cluster(monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    for module in in_folder(monkeypatch, "cluster"):
        stand_in = tmp_path / "run_cell.py"
        stand_in.write_text(STAND_IN)
        monkeypatch.setattr(module, "RUN_CELL", stand_in)
        monkeypatch.setenv("LOG_DIR", str(tmp_path))
        yield module


@pytest.fixture
def trace(monkeypatch):
    pytest.importorskip("matplotlib")
    yield from in_folder(monkeypatch, "cluster_trace")


def _runs(tmp_path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(tmp_path.glob("*.json"))]


def test_copies_run_side_by_side(cluster, tmp_path):
    wall, same = cluster.timed("benchmark", "nbtree", 1, {}, "ref/predictions", copies=2)
    runs = _runs(tmp_path)
    assert same and len(runs) == 2
    assert all(run["argv"] == ["benchmark", "nbtree", "--jobs", "1", "--reference", "ref/predictions"] for run in runs)
    first, second = sorted(runs, key=lambda run: run["start"])
    assert second["start"] < first["end"]  # the second began before the first ended: at once, not one after another
    assert wall >= max(run["end"] for run in runs) - min(run["start"] for run in runs)  # until the last one ends


def test_a_copy_with_other_predictions_is_not_the_same_bytes(cluster, monkeypatch):
    monkeypatch.setenv("EXIT_CODE", "3")
    assert cluster.timed("benchmark", "nbtree", 2, {}, "ref", copies=2)[1] is False


@pytest.mark.parametrize("code", ["1", "2"])  # an error's traceback; a bad argument or params.yaml name
def test_a_failed_run_stops_with_its_last_error_line(cluster, monkeypatch, code):
    monkeypatch.setenv("EXIT_CODE", code)
    with pytest.raises(SystemExit, match=r"^benchmark/nbtree: run_cell.py failed: ValueError: no such learner$"):
        cluster.timed("benchmark", "nbtree", 1, {}, "ref")


def test_the_interpreter_is_this_one(cluster, monkeypatch):
    """The copies run under this interpreter (the virtual environment the benchmark was started in)."""
    seen = []
    monkeypatch.setattr(cluster.subprocess, "Popen", lambda cmd, **kw: seen.append(cmd) or _Done())
    cluster.timed("benchmark", "nbtree", 1, {}, "ref", copies=3)
    assert len(seen) == 3 and all(cmd[0] == sys.executable for cmd in seen)


class _Done:
    returncode = 0

    def wait(self):
        return 0


def _constant(script: str, name: str) -> list:
    """The values assigned to ``name`` at the top of a benchmark script, read from its source (importing run_cell.py
    would pin this process's kernels)."""
    tree = ast.parse((BENCHMARKS / script).read_text())
    return [n.value.value for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == name]


def test_the_exit_status_of_other_predictions_is_run_cells():
    """cluster.py reads run_cell.py's status for "a prediction differs" (3, as the stand-in above exits)."""
    assert _constant("run_cell.py", "DIFFERENT") == _constant("cluster.py", "DIFFERENT") == [3]


@pytest.mark.parametrize(
    "cell, message",
    [
        ("nbtree", "--cell must be EXPERIMENT/LEARNER, got 'nbtree'"),
        ("benchmark/", "--cell must be EXPERIMENT/LEARNER, got 'benchmark/'"),
        ("nosuch/nbtree", "unknown experiment 'nosuch'"),
        ("benchmark/nosuch", "unknown learner 'nosuch'"),
    ],
)
def test_cluster_trace_names_a_bad_cell_in_one_line(trace, monkeypatch, tmp_path, capsys, cell, message):
    """cluster_trace.py stops with argparse's one-line error (exit status 2) before it starts any pool: a cell
    that is not EXPERIMENT/LEARNER, or a name params.yaml does not have."""
    monkeypatch.setattr(trace, "available", lambda experiment: ["letter"])  # data/ as after `dvc repro`
    monkeypatch.setattr(trace, "split_data", lambda *args: None)
    monkeypatch.setattr(sys, "argv", ["cluster_trace.py", "--cell", cell, "--results", str(tmp_path / "r.json")])
    with pytest.raises(SystemExit) as stop:
        trace.main()
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and message in err[-1] and err[-1].startswith("cluster_trace.py: error: ")
