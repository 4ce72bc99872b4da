"""benchmarks/all.py's chain: which commands it runs, where, with which results files, for each set of --skip
flags and --data-clone; and that every script it runs takes the options it is given. Nothing here times anything."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_scripts import BENCHMARKS, load


@pytest.fixture(scope="module")
def chain():
    return load("all")


def _files(out: Path, name: str) -> list[str]:
    return ["--results", str(out / f"{name}.json"), "--plots", str(out)]


def test_the_full_chain_runs_the_data_steps_in_the_fresh_clone(chain, tmp_path):
    argv = ["--out", str(tmp_path), "--limit-args", "--datasets sonar,splice", "--cluster-args", "--reference '/a b/p'"]
    steps = chain.steps(chain.parse(argv))
    (here, pipeline), *rest = steps
    assert here is None and pipeline[:2] == ["pipeline.py", "fresh-clone"]
    assert pipeline[2:6] == _files(tmp_path, "pipeline")
    # each data step one --in-clone string, which splits back into the script, its results file and its options
    assert pipeline[6::2] == ["--in-clone", "--in-clone"]
    assert [shlex.split(x) for x in pipeline[7::2]] == [
        ["cluster.py", *_files(tmp_path, "cluster"), "--reference", "/a b/p"],  # a path with a space stays one
        ["limit.py", *_files(tmp_path, "limit"), "--datasets", "sonar,splice"],
    ]
    assert rest == [
        (None, ["weka_compare.py", *_files(tmp_path, "weka")]),
        (None, ["scaling.py", "--full-size", *_files(tmp_path, "scaling")]),  # every learner to 10^6 rows
        (None, ["big_file.py", *_files(tmp_path, "big_file")]),
    ]


def test_without_the_pipeline_the_data_steps_run_in_the_data_clone(chain, tmp_path):
    clone, out = tmp_path / "clone", tmp_path / "out"
    (clone / "data").mkdir(parents=True)
    argv = ["--out", str(out), "--skip-pipeline", "--data-clone", str(clone), "--skip-weka", "--skip-scaling"]
    steps = chain.steps(
        chain.parse([*argv, "--cluster-args", "--cells benchmark/c45", "--big-file-args", "--rows 20000"])
    )
    assert steps == [
        (clone, ["cluster.py", *_files(out, "cluster"), "--cells", "benchmark/c45"]),
        (clone, ["limit.py", *_files(out, "limit")]),
        (None, ["big_file.py", *_files(out, "big_file"), "--rows", "20000"]),
    ]


def test_without_a_clone_holding_data_the_data_steps_are_skipped_with_a_line(chain, tmp_path, capsys):
    steps = chain.steps(chain.parse(["--out", str(tmp_path), "--skip-pipeline", "--skip-scaling", "--skip-big-file"]))
    assert steps == [(None, ["weka_compare.py", *_files(tmp_path, "weka")])]
    assert capsys.readouterr().out.startswith("skipped cluster.py and limit.py: they read the pipeline's data")
    # nothing asked of the data: no line
    argv = ["--skip-pipeline", "--skip-cluster", "--skip-limit", "--skip-weka", "--skip-scaling", "--skip-big-file"]
    assert chain.steps(chain.parse(argv)) == []
    assert capsys.readouterr().out == ""


def test_skipping_both_data_steps_leaves_the_pipeline_alone(chain, tmp_path):
    argv = [
        "--out",
        str(tmp_path),
        "--skip-cluster",
        "--skip-limit",
        "--skip-weka",
        "--skip-scaling",
        "--skip-big-file",
    ]
    assert chain.steps(chain.parse(argv)) == [(None, ["pipeline.py", "fresh-clone", *_files(tmp_path, "pipeline")])]


def test_a_data_clone_needs_skip_pipeline_and_data(chain, tmp_path, capsys):
    with pytest.raises(SystemExit):
        chain.parse(["--data-clone", str(tmp_path)])
    assert "--data-clone: only with --skip-pipeline" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        chain.parse(["--skip-pipeline", "--data-clone", str(tmp_path)])
    assert f"--data-clone: {tmp_path} has no data/ folder" in capsys.readouterr().err


def test_every_script_of_the_chain_takes_results_and_plots(chain):
    # the chain passes --results, --plots and a step's own options to each script (pipeline.py also --in-clone):
    # their --help names them
    scripts = {"pipeline.py": ["--in-clone"]} | {script: own for _, (script, *own), _, _ in chain.STEPS}
    for script, more in scripts.items():
        done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--help"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        for option in ("--results", "--plots", *more):
            assert option in done.stdout, (script, option)
