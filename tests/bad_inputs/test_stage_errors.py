"""Bad inputs to the pipeline's stages (nbx.pipeline.stage): every error is one line naming the stage, its
experiment (and learner), and for a learner's failure the data set and split, exit code 1; Ctrl-C is one line,
exit code 130; NBX_DEBUG=1 adds the traceback. And a train cell interrupted after some data sets resumes from
them (nbx.pipeline.train): the outputs are byte-identical to an uninterrupted run's, and results made under
other code, params or inputs are never reused.

The stages run in-process (``nbx.pipeline.stage.main`` with the argv the stage script would get) on a toy project
in a temporary folder: two small data sets, split and discretized by the real stages."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nbx.cli.common import read_table
from nbx.core.io import write_json
from nbx.pipeline import layout, stage
from nbx.pipeline import train as train_stage
from nbx.pipeline.config import load_params
from nbx.pipeline.discretize import discretize
from nbx.pipeline.evaluate import evaluate
from nbx.pipeline.split import split
from nbx.protocol import runner

PARAMS = """seed: 1
experiments:
  toy:
    datasets: {A: a, B: b}
    protocol: {kind: cv, folds: 3, repeats: 2, stratified: true}
    discretizer: {kind: mdl}
    impute: null
    learners: [nb, boost]
learners:
  nb: {class: NaiveBayes, alpha: 1.0}
  boost: {class: AdaBoostM1, base: {class: NaiveBayes}, n_estimators: 3}
"""  # the learners list of toy is on line 8
SPLITS = 6  # per data set: 3 folds x 2 repeats
REPO = Path(__file__).resolve().parents[2]


def _csv(path: Path, seed: int, n: int) -> Path:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    size = np.round(rng.normal(2.0 * y, 1.0), 2)
    colour = np.where(rng.random(n) < 0.8, np.where(y == 1, "red", "blue"), "green")
    lines = ["size,colour,label"] + [f"{s},{c},{'yes' if k else 'no'}" for s, c, k in zip(size, colour, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """The toy project, prepared, split and discretized, as the current folder; one process for the splits."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NBX_JOBS", "1")
    monkeypatch.delenv("NBX_DEBUG", raising=False)
    (tmp_path / "params.yaml").write_text(PARAMS)
    for name, seed, n in (("a", 1, 40), ("b", 2, 50)):
        read_table(str(_csv(tmp_path / f"{name}.csv", seed, n))).table.save(layout.prepared("toy", name))
    write_json(layout.availability("toy"), {"a": {"available": True}, "b": {"available": True}})
    params = load_params()
    split(params, "toy")
    discretize(params, "toy")
    return tmp_path


PROGRESS = re.compile(r"toy/\w+: \w+: \d+ splits, [\d.]+ s|toy/\w+: \d+ data sets finished before, read from \S+")


def run(capsys, stage_fn, *argv, script="stages/train.py") -> tuple[int, str, str]:
    """(exit code, stdout, stderr without the progress lines: a line per data set finished or read back)."""
    args = ("experiment", "learner") if stage_fn is train_stage.train else ("experiment",)
    code = stage.main(stage_fn, "a stage", args, [script, *argv])
    out, err = capsys.readouterr()
    return code, out, "".join(line for line in err.splitlines(True) if not PROGRESS.fullmatch(line.rstrip("\n")))


FIT_PREDICT = runner.fit_predict


def patch_fit(monkeypatch, fail_at: tuple[str, int] | None = None, exc: BaseException | None = None) -> list:
    """Count the fits (the list of their data sets, in order) and make the one of split ``fail_at`` =
    (data set, split) raise ``exc``. The splits run in this process, in order (NBX_JOBS=1, a tiny cell)."""
    calls = []
    sizes = {40: "a", 50: "b"}

    def patched(model, X_train, y_train, n_values, X_test):
        ds = sizes[len(X_train) + len(X_test)]
        calls.append(ds)
        if (ds, calls.count(ds) - 1) == fail_at:
            raise exc
        return FIT_PREDICT(model, X_train, y_train, n_values, X_test)

    monkeypatch.setattr(runner, "fit_predict", patched)
    return calls


def outputs(learner: str) -> dict[str, bytes]:
    folder = layout.predictions("toy", learner)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ------------------------------------------------------------------------------------------------ errors
def test_a_learner_failing_on_one_split_names_stage_cell_data_set_and_split(project, capsys, monkeypatch):
    patch_fit(monkeypatch, ("b", 4), ValueError("the counts\nare negative"))
    assert run(capsys, train_stage.train, "toy", "nb") == (
        1,
        "",
        "train toy/nb: data set b, split 4: ValueError: the counts are negative\n",
    )


def test_ctrl_c_is_one_line_and_exit_130(project, capsys, monkeypatch):
    patch_fit(monkeypatch, ("a", 1), KeyboardInterrupt())
    assert run(capsys, train_stage.train, "toy", "nb") == (130, "", "train toy/nb: interrupted\n")


def test_nbx_debug_adds_the_traceback(project, capsys, monkeypatch):
    patch_fit(monkeypatch, ("a", 0), ValueError("boom"))
    monkeypatch.setenv("NBX_DEBUG", "1")
    code, out, err = run(capsys, train_stage.train, "toy", "nb")
    assert (code, out) == (1, "")
    assert err.startswith("Traceback (most recent call last):\n") and "ValueError: boom" in err
    assert err.endswith("\ntrain toy/nb: data set a, split 0: ValueError: boom\n")


def test_a_learner_not_in_the_experiment_names_params_line(project, capsys):
    assert run(capsys, train_stage.train, "toy", "nbb") == (
        1,
        "",
        "train toy/nbb: params.yaml:8: experiments.toy.learners: 'nbb' is not one of this experiment's learners; "
        "did you mean nb?\n",
    )


def test_a_missing_input_names_the_stage_to_run(project, capsys):
    shutil.rmtree(layout.FOLDS / "toy")
    assert run(capsys, train_stage.train, "toy", "nb") == (
        1,
        "",
        "train toy/nb: data/folds/toy/a.npz is missing: run `dvc repro discretize@toy` first (or `dvc repro`)\n",
    )


def test_a_corrupt_input_is_an_internal_error_in_one_line(project, capsys):
    layout.fold_codes("toy", "a").write_bytes(b"not an npz file")
    code, out, err = run(capsys, train_stage.train, "toy", "nb")
    assert (code, out, err.count("\n")) == (1, "", 1)
    assert err.startswith("train toy/nb: internal error: ") and err.endswith("(NBX_DEBUG=1 shows the traceback)\n")


def test_an_output_folder_that_is_a_file_names_the_output(project, capsys):
    layout.predictions("toy", "nb").parent.mkdir(parents=True)
    layout.predictions("toy", "nb").write_text("")
    assert run(capsys, train_stage.train, "toy", "nb") == (
        1,
        "",
        "train toy/nb: data/predictions/toy/nb/a.npz: cannot create the folder data/predictions/toy/nb: File exists\n",
    )


def test_another_stage_names_itself_and_its_experiment(project, capsys):
    """evaluate before any train cell ran: the first missing predictions."""
    assert run(capsys, evaluate, "toy", script="stages/evaluate.py") == (
        1,
        "",
        "evaluate toy: data/predictions/toy/nb/a.npz is missing: run the train cell of toy/nb first (`dvc repro`)\n",
    )


def test_a_discretizer_that_cannot_take_a_data_set_names_it(project, capsys):
    Path("params.yaml").write_text(PARAMS.replace("discretizer: {kind: mdl}", "discretizer: {kind: none}"))
    assert run(capsys, discretize, "toy", script="stages/discretize.py") == (
        1,
        "",
        "discretize toy: params.yaml:6: experiments.toy.discretizer: data set a: discretizer.kind 'none' needs all "
        "columns nominal; numeric columns: [0]\n",
    )


def test_a_wrong_command_line_is_one_line(project, capsys):
    assert run(capsys, train_stage.train, "toy") == (
        1,
        "",
        "train: the following arguments are required: learner (see `python stages/train.py --help`)\n",
    )


def test_unreadable_params_is_one_line(project, capsys):
    Path("params.yaml").write_text(PARAMS.replace("folds: 3,", "folds: [3,"))
    code, out, err = run(capsys, train_stage.train, "toy", "nb")
    assert (code, out, err.count("\n")) == (1, "", 1)
    assert err.startswith("train toy/nb: params.yaml:5")


# ------------------------------------------------------------------------------------------------ resume
def test_an_interrupted_cell_resumes_from_its_finished_data_sets_byte_identical(project, capsys, monkeypatch):
    assert run(capsys, train_stage.train, "toy", "boost")[0] == 0
    uninterrupted = outputs("boost")
    assert sorted(uninterrupted) == ["a.npz", "b.npz", "fit_info.json"]
    assert not layout.resume("toy", "boost").exists()  # removed once the cell completes
    shutil.rmtree(layout.predictions("toy", "boost"))  # as DVC does before it runs the stage

    patch_fit(monkeypatch, ("b", 2), KeyboardInterrupt())
    assert run(capsys, train_stage.train, "toy", "boost") == (130, "", "train toy/boost: interrupted\n")
    (kept,) = layout.resume("toy", "boost").iterdir()
    assert sorted(p.name for p in kept.iterdir()) == ["a.pkl"]

    shutil.rmtree(layout.predictions("toy", "boost"))
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy", "boost") == (0, "", "")
    assert calls == ["b"] * SPLITS  # data set a was read, not fitted again
    assert outputs("boost") == uninterrupted
    assert not layout.resume("toy", "boost").exists()


@pytest.mark.parametrize("change", ["learner block", "seed", "input file"])
def test_a_changed_key_does_not_reuse(project, capsys, monkeypatch, change):
    patch_fit(monkeypatch, ("b", 0), KeyboardInterrupt())
    assert run(capsys, train_stage.train, "toy", "nb")[0] == 130
    (old,) = layout.resume("toy", "nb").iterdir()
    if change == "learner block":
        Path("params.yaml").write_text(PARAMS.replace("alpha: 1.0", "alpha: 0.5"))
    elif change == "seed":
        Path("params.yaml").write_text(PARAMS.replace("seed: 1", "seed: 2"))
    else:  # the discretize stage rewrote data set a's codes (here: with the plan of seed 2)
        Path("params.yaml").write_text(PARAMS.replace("seed: 1", "seed: 2"))
        params = load_params()
        split(params, "toy")
        discretize(params, "toy")
        Path("params.yaml").write_text(PARAMS)
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy", "nb")[0] == 0
    assert calls == ["a"] * SPLITS + ["b"] * SPLITS  # everything fitted again
    assert not old.exists()
    resumed = outputs("nb")

    shutil.rmtree(layout.predictions("toy", "nb"))  # a run that was never interrupted gives the same bytes
    assert run(capsys, train_stage.train, "toy", "nb")[0] == 0
    assert outputs("nb") == resumed


def test_the_key_covers_the_code(project, tmp_path_factory, monkeypatch):
    package = tmp_path_factory.mktemp("nbx")
    (package / "model.py").write_text("ALPHA = 1\n")
    monkeypatch.setattr(train_stage, "PACKAGE", package)
    params = load_params()
    before = train_stage.resume_key(params, "toy", "nb")
    assert train_stage.resume_key(params, "toy", "nb") == before  # deterministic
    (package / "model.py").write_text("ALPHA = 2\n")
    assert train_stage.resume_key(params, "toy", "nb") != before
    assert train_stage.resume_key(params, "toy", "boost") != train_stage.resume_key(params, "toy", "nb")


def test_the_code_digest_stage_outside_the_repository_says_where_to_run_it(tmp_path):
    out = subprocess.run(
        [sys.executable, str(REPO / "stages" / "code_digest.py")],
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (out.returncode, out.stdout) == (1, "")
    assert (
        out.stderr == "code_digest: cannot read params.yaml: No such file or directory; run from the repository root\n"
    )
    assert list(tmp_path.iterdir()) == []
