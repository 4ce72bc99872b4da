"""Bad inputs to the pipeline's stages (nbx.pipeline.stage): every error is one line naming the stage, its
experiment (and learner), and for a learner's failure the data set and split, exit code 1; Ctrl-C is one line,
exit code 130; NBX_DEBUG=1 adds the traceback. And a train stage fits only what changed (nbx.pipeline.train): a
run interrupted after some data sets goes on from them, the outputs are byte-identical to an uninterrupted run's,
and results made under other code, params or inputs are never reused.

The stages run in-process (``nbx.pipeline.stage.main`` with the argv the stage script would get) on a toy project
in a temporary folder: two small data sets, split and discretized by the real stages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nbx.cli.common import read_table
from nbx.core.io import write_json
from nbx.pipeline import checkpoints, config, layout, learners, stage
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


PROGRESS = re.compile(
    r"toy/\w+: \w+: \d+ splits, [\d.]+ s|toy/\w+: \d+ of \d+ data sets unchanged, kept|toy/\w+: \d+ finished splits kept"
)


def run(capsys, stage_fn, *argv, script="stages/train.py") -> tuple[int, str, str]:
    """(exit code, stdout, stderr without the progress lines: a line per data set finished or read back)."""
    args = ("experiment", "learners*") if stage_fn is train_stage.train else ("experiment",)
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
    assert run(capsys, train_stage.train, "toy", "nb") == (130, "", "train toy: interrupted\n")


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
        "train toy: params.yaml:8: experiments.toy.learners: 'nbb' is not one of this experiment's learners; "
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
        "evaluate toy: data/predictions/toy/nb/a.npz is missing: run `dvc repro train@toy` first (or `dvc repro`)\n",
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
    assert run(capsys, train_stage.train) == (
        1,
        "",
        "train: the following arguments are required: experiment, learners (see `python stages/train.py --help`)\n",
    )


def test_unreadable_params_is_one_line(project, capsys):
    Path("params.yaml").write_text(PARAMS.replace("folds: 3,", "folds: [3,"))
    code, out, err = run(capsys, train_stage.train, "toy", "nb")
    assert (code, out, err.count("\n")) == (1, "", 1)
    assert err.startswith("train toy: params.yaml:5")


# ------------------------------------------------------------------------------------ only what changed
def test_a_rerun_fits_nothing_and_rewrites_nothing(project, capsys, monkeypatch):
    assert run(capsys, train_stage.train, "toy")[0] == 0
    before = outputs("nb") | {f"boost/{k}": v for k, v in outputs("boost").items()}
    trained = layout.trained("toy").read_bytes()
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy") == (0, "", "")
    assert calls == []
    assert outputs("nb") | {f"boost/{k}": v for k, v in outputs("boost").items()} == before
    assert layout.trained("toy").read_bytes() == trained


def test_an_interrupted_run_goes_on_where_it_stopped_byte_identical(project, capsys, monkeypatch):
    assert run(capsys, train_stage.train, "toy")[0] == 0
    uninterrupted = outputs("boost")
    assert sorted(uninterrupted) == ["a.npz", "b.npz", "fit_info.json"]
    shutil.rmtree(layout.PREDICTIONS)
    layout.trained("toy").unlink()

    patch_fit(monkeypatch, ("b", 2 + SPLITS), KeyboardInterrupt())  # boost's third split of b (nb ran first)
    assert run(capsys, train_stage.train, "toy") == (130, "", "train toy: interrupted\n")
    assert sorted(outputs("boost")) == ["a.npz", "fit_info.json"]  # what it finished, kept
    assert sorted(json.loads(layout.timings("toy", "boost").read_text())) == ["a"]  # with its seconds
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy") == (0, "", "")
    assert calls == ["b"] * SPLITS  # only boost on b: nb and boost on a were kept
    assert outputs("boost") == uninterrupted
    assert sorted(json.loads(layout.timings("toy", "boost").read_text())) == ["a", "b"]


def test_an_interrupted_cell_goes_on_from_its_finished_splits_byte_identical(project, capsys, monkeypatch):
    """With every split kept as it finishes (checkpoints.CHECKPOINT_SECONDS = 0), a run interrupted inside a data
    set fits only that data set's splits it had not finished; the predictions and fit_info are the same bytes as an
    uninterrupted run's, and the checkpoint folder is gone once the data set is written."""
    assert run(capsys, train_stage.train, "toy")[0] == 0
    uninterrupted = outputs("boost")
    shutil.rmtree(layout.PREDICTIONS)
    layout.trained("toy").unlink()
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.0)

    patch_fit(monkeypatch, ("b", 2 + SPLITS), KeyboardInterrupt())  # boost's third split of b
    assert run(capsys, train_stage.train, "toy") == (130, "", "train toy: interrupted\n")
    folder = layout.split_checkpoints("toy", "boost", "b")
    assert sorted(p.name for p in folder.iterdir()) == ["0.npz", "1.npz", "key"]
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy") == (0, "", "")
    assert calls == ["b"] * (SPLITS - 2)  # splits 2 to 5 of boost on b
    assert outputs("boost") == uninterrupted
    assert not folder.exists()


def test_finished_splits_of_other_params_are_not_reused(project, capsys, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.0)
    patch_fit(monkeypatch, ("b", 2 + SPLITS), KeyboardInterrupt())
    assert run(capsys, train_stage.train, "toy")[0] == 130
    Path("params.yaml").write_text(PARAMS.replace("n_estimators: 3", "n_estimators: 2"))
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy") == (0, "", "")
    assert sorted(calls) == ["a"] * SPLITS + ["b"] * SPLITS  # boost afresh on both; nb kept
    assert not list(layout.predictions("toy", "boost").glob(f"*{layout.CHECKPOINT_SUFFIX}"))


def test_a_corrupt_split_file_is_fitted_again(project, capsys, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.0)
    patch_fit(monkeypatch, ("b", 2 + SPLITS), KeyboardInterrupt())
    assert run(capsys, train_stage.train, "toy")[0] == 130
    (layout.split_checkpoints("toy", "boost", "b") / "1.npz").write_bytes(b"not a zip")
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy") == (0, "", "")
    assert calls == ["b"] * (SPLITS - 1)  # split 1 again, and 2 to 5


@pytest.mark.parametrize("change", ["learner block", "seed", "input file", "predictions file", "record"])
def test_what_changed_is_fitted_again(project, capsys, monkeypatch, change):
    assert run(capsys, train_stage.train, "toy")[0] == 0
    first = outputs("nb")
    expected = {
        "learner block": ["a", "b"],
        "seed": ["a", "b"] * 2,
        "input file": ["a", "a"],
        "predictions file": ["b"],
    }
    if change == "learner block":
        Path("params.yaml").write_text(PARAMS.replace("alpha: 1.0", "alpha: 0.5"))
    elif change == "seed":
        Path("params.yaml").write_text(PARAMS.replace("seed: 1", "seed: 2"))
    elif change == "input file":  # data set a's codes change (written under another seed); b's stay
        saved = layout.fold_codes("toy", "b").read_bytes()
        Path("params.yaml").write_text(PARAMS.replace("seed: 1", "seed: 2"))
        params = load_params()
        split(params, "toy")
        discretize(params, "toy")
        Path("params.yaml").write_text(PARAMS)
        layout.fold_codes("toy", "b").write_bytes(saved)
    elif change == "predictions file":  # altered or corrupted: its sha256 no longer matches the record
        layout.predictions("toy", "nb", "b").write_bytes(b"tampered")
    else:  # the record itself unreadable: nothing is reused
        layout.trained("toy").write_text("{not json")
        expected[change] = ["a", "b"] * 2
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy")[0] == 0
    assert sorted(calls) == sorted(ds for ds in expected[change] for _ in range(SPLITS))
    if change in ("predictions file", "record"):
        assert outputs("nb") == first


def test_a_learner_taken_out_of_the_experiment_leaves_no_output(project, capsys):
    assert run(capsys, train_stage.train, "toy")[0] == 0
    Path("params.yaml").write_text(PARAMS.replace("learners: [nb, boost]", "learners: [nb]"))
    assert run(capsys, train_stage.train, "toy")[0] == 0
    assert not layout.predictions("toy", "boost").exists()
    assert set(json.loads(layout.trained("toy").read_text())) == {"nb"}


def test_training_one_learner_keeps_the_others(project, capsys, monkeypatch):
    assert run(capsys, train_stage.train, "toy")[0] == 0
    boost = outputs("boost")
    Path("params.yaml").write_text(
        PARAMS.replace("alpha: 1.0", "alpha: 0.5").replace("n_estimators: 3", "n_estimators: 2")
    )
    calls = patch_fit(monkeypatch)
    assert run(capsys, train_stage.train, "toy", "nb")[0] == 0
    assert calls == ["a"] * SPLITS + ["b"] * SPLITS  # nb only, though boost's block changed too
    assert outputs("boost") == boost


def test_the_key_covers_the_code(project, tmp_path_factory, monkeypatch):
    root = tmp_path_factory.mktemp("repo")
    (root / "model.py").write_text("ALPHA = 1\n")
    monkeypatch.setattr(train_stage.code, "ROOT", root)
    monkeypatch.setattr(train_stage.code, "learner_files", lambda params, learner: ["model.py"])
    params = load_params()
    exp = config.experiment(params, "toy")
    setup = learners.build_learner(params, "nb")
    before = train_stage.cell_key(params, exp, "nb", "a", setup)
    assert train_stage.cell_key(params, exp, "nb", "a", setup) == before  # deterministic
    (root / "model.py").write_text("ALPHA = 22\n")
    assert train_stage.cell_key(params, exp, "nb", "a", setup) != before
    assert train_stage.cell_key(params, exp, "nb", "b", setup) != train_stage.cell_key(params, exp, "nb", "a", setup)


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
