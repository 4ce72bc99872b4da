"""Bad inputs to the ``nbx`` command: every error is one line ``nbx: error: ...`` on stderr with exit code 1 (an
unexpected exception as ``internal error``), Ctrl-C is ``nbx: interrupted`` with exit code 130, and NBX_DEBUG=1
adds the traceback. Run in-process through ``nbx.cli.main`` (one test sends a real Ctrl-C to a real process)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load
from cli_run import error, nbx

from nbx.cli import evaluate as cli_evaluate
from nbx.cli import model as cli_model

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def outside_the_repository(tmp_path, monkeypatch):
    """No params.yaml in the current folder (nbx reads the one it ships), no traceback unless a test asks."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NBX_DEBUG", raising=False)


def _csv(path: Path, numeric: bool = True, n: int = 40) -> Path:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    if numeric:
        header, rows = "sepal_length,sepal_width,class", [f"{5 + k + rng.random():.2f},{rng.random():.2f}" for k in y]
    else:
        header, rows = "colour,class", [("red" if k else "blue") if rng.random() < 0.8 else "green" for k in y]
    lines = [header] + [f"{r},c{k}" for r, k in zip(rows, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def numeric_csv(tmp_path) -> Path:
    return _csv(tmp_path / "iris.csv")


@pytest.fixture
def nominal_csv(tmp_path) -> Path:
    return _csv(tmp_path / "colours.csv", numeric=False)


# -------------------------------------------------------------------------------------------- --discretizer
@pytest.mark.parametrize(
    "spec, message",
    [
        ("equal_width(bins=0)", "--discretizer: equal_width(bins=0): bins must be an int in the range [1, inf), got 0"),
        (
            "equal_width(bins=two)",
            "--discretizer: equal_width(bins=two): bins must be an int in the range [1, inf), got 'two'",
        ),
        (
            "equal_width(bins=2.5)",
            "--discretizer: equal_width(bins=2.5): bins must be an int in the range [1, inf), got 2.5",
        ),
        ("stddev(width=0)", "--discretizer: stddev(width=0): width must be a float in the range (0.0, inf), got 0"),
        (
            "equal_width(bin=3)",
            "--discretizer: equal_width(bin=3): bin: unknown option for kind 'equal_width'; valid: ['bins', 'n_values']",
        ),
        ("mdll", "--discretizer: unknown discretizer 'mdll'; did you mean mdl?"),
        ("kmeans", "--discretizer: unknown discretizer 'kmeans'; known: equal_width, mdl, none, stddev"),
        ("mdl(", "--discretizer: cannot read 'mdl('; write NAME or Class(option=value, ...)"),
        ("equal_width(5)", "--discretizer: 'equal_width(5)': '5' is not key=value"),
    ],
)
@pytest.mark.parametrize("command", ["evaluate", "fit"])
def test_a_bad_discretizer_is_one_line_naming_the_option(capsys, numeric_csv, tmp_path, command, spec, message):
    rest = ["--learners", "NaiveBayes"] if command == "evaluate" else ["--learner", "NaiveBayes", "--save", "m.pkl"]
    assert nbx(capsys, command, numeric_csv, *rest, "--discretizer", spec) == error(message)
    assert not (tmp_path / "m.pkl").exists()


NONE_ON_NUMERIC = (
    "--discretizer none: the learner {} needs nominal inputs, but columns sepal_length, sepal_width are numeric; "
    "choose mdl, equal_width(bins=N) or stddev"
)


def test_discretizer_none_on_numeric_columns_names_learner_and_columns(capsys, numeric_csv):
    assert nbx(
        capsys, "evaluate", numeric_csv, "--learners", "C45Tree,TAN,NaiveBayes", "--discretizer", "none"
    ) == error(NONE_ON_NUMERIC.format("TAN"))
    assert nbx(
        capsys, "fit", numeric_csv, "--learner", "NaiveBayes(alpha=0.5)", "--discretizer", "none", "--save", "m.pkl"
    ) == error(NONE_ON_NUMERIC.format("NaiveBayes(alpha=0.5)"))


def test_discretizer_none_is_fine_where_nothing_is_numeric_or_nothing_discrete(capsys, numeric_csv, nominal_csv):
    code, out, err = nbx(capsys, "evaluate", nominal_csv, "--learners", "NaiveBayes", "--discretizer", "none")
    assert (code, "nbx: error" in err) == (0, False) and "NaiveBayes  discrete" in out
    code, out, err = nbx(capsys, "evaluate", numeric_csv, "--learners", "C45Tree", "--discretizer", "none", "--cv", "2")
    assert (code, "nbx: error" in err) == (0, False) and "C45Tree  mixed" in out


# ------------------------------------------------------------------------------------------------ learners
def test_an_unknown_learner_is_one_line_with_did_you_mean(capsys, numeric_csv):
    assert nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayse") == error(
        "--learners: unknown learner 'NaiveBayse'; did you mean NaiveBayes?"
    )


def test_a_bad_learner_option_is_one_line(capsys, numeric_csv):
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes(alpha=-1)", "--save", "m.pkl") == error(
        "--learner: NaiveBayes(alpha=-1): alpha: The 'alpha' parameter of NaiveBayes must be a float in the range "
        "[0.0, inf). Got -1 instead."
    )


def test_an_unknown_command_is_one_line(capsys):
    assert nbx(capsys, "evalute") == error("unknown command 'evalute'; did you mean evaluate? (see `nbx --help`)")


# ------------------------------------------------------------------------------------------------- files
def test_a_missing_or_directory_input_names_it(capsys, numeric_csv, tmp_path):
    for path in (tmp_path / "missing.csv", tmp_path):
        code, out, err = nbx(capsys, "evaluate", path, "--learners", "NaiveBayes")
        assert (code, out, err.count("\n")) == (1, "", 1) and err.startswith(f"nbx: error: {path}: ")
    assert nbx(capsys, "predict", tmp_path / "missing.pkl", numeric_csv) == error(
        f"{tmp_path / 'missing.pkl'}: No such file or directory"
    )
    assert nbx(capsys, "show", tmp_path) == error(
        f"{tmp_path}: a directory, not a model file; give the file `nbx fit --save` wrote"
    )


def test_a_non_writable_output_folder_names_the_output_not_a_temporary_file(capsys, numeric_csv, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder; the next test covers it with a simulated refusal")
    (tmp_path / "ro").mkdir(mode=0o555)
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", tmp_path / "ro" / "m.pkl") == error(
        f"{tmp_path / 'ro' / 'm.pkl'}: Permission denied"
    )


def test_a_refused_temporary_file_is_reported_as_the_output(capsys, numeric_csv, tmp_path, monkeypatch):
    def refuse(dir, prefix, suffix):
        raise PermissionError(13, "Permission denied", os.path.join(dir, f"{prefix}x1y2z3{suffix}"))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", "out/m.pkl") == error(
        "out/m.pkl: Permission denied"
    )


def test_an_output_that_is_a_directory_or_under_a_file_is_named(capsys, numeric_csv, tmp_path):
    (tmp_path / "afile").write_text("")
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", "afile/m.pkl") == error(
        "afile/m.pkl: cannot create the folder afile: File exists"
    )
    (tmp_path / "adir").mkdir()
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", "adir") == error("adir: Is a directory")
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", "m.pkl")[0] == 0
    capsys.readouterr()
    assert nbx(capsys, "predict", "m.pkl", numeric_csv, "--output", "adir") == error("adir: Is a directory")
    assert sorted(p.name for p in (tmp_path / "adir").iterdir()) == []  # no temporary file left behind


# ------------------------------------------------------------------------------------ Ctrl-C, internal errors
def test_ctrl_c_in_the_middle_of_a_command_is_one_line_and_exit_130(capsys, numeric_csv, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_evaluate, "cross_validate", interrupted)
    assert nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayes") == (130, "", "nbx: interrupted\n")
    monkeypatch.setattr(cli_model, "fit_bundle", interrupted)
    assert nbx(capsys, "fit", numeric_csv, "--learner", "NaiveBayes", "--save", "m.pkl") == (
        130,
        "",
        "nbx: interrupted\n",
    )


def test_an_unexpected_exception_is_one_line_internal_error(capsys, numeric_csv, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("proba")

    monkeypatch.setattr(cli_evaluate, "cross_validate", broken)
    assert nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayes") == error(
        "internal error: KeyError: 'proba' (NBX_DEBUG=1 shows the traceback)"
    )

    def multiline(*args, **kwargs):
        raise RuntimeError("first line\n  second line\n")

    monkeypatch.setattr(cli_evaluate, "cross_validate", multiline)
    assert nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayes") == error(
        "internal error: RuntimeError: first line second line (NBX_DEBUG=1 shows the traceback)"
    )


def test_nbx_debug_adds_the_traceback(capsys, numeric_csv, monkeypatch):
    monkeypatch.setenv("NBX_DEBUG", "1")
    code, out, err = nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayes", "--discretizer", "mdll")
    assert (code, out) == (1, "")
    assert err.startswith("Traceback (most recent call last):\n") and "SpecError" in err
    assert err.endswith("\nnbx: error: --discretizer: unknown discretizer 'mdll'; did you mean mdl?\n")

    monkeypatch.setattr(cli_evaluate, "cross_validate", lambda *a, **k: 1 / 0)
    code, out, err = nbx(capsys, "evaluate", numeric_csv, "--learners", "NaiveBayes")
    assert err.startswith("Traceback (most recent call last):\n") and err.endswith(
        "\nnbx: error: internal error: ZeroDivisionError: division by zero (NBX_DEBUG=1 shows the traceback)\n"
    )


def test_a_real_ctrl_c_stops_workers_and_main_with_one_line(tmp_path):
    """SIGINT to the whole process group, as a terminal's Ctrl-C, while the second learner's folds run in a pool
    (benchmarks/ctrl_c.py runs the same hundreds of times and counts the rare runs that print more)."""
    ctrl_c = load("ctrl_c")
    ctrl_c.write_data(tmp_path / "big.csv")
    run = ctrl_c.interrupted_run(tmp_path / "big.csv", str(REPO / "src"))
    assert run.first.startswith("evaluate big.csv: NaiveBayes: 100 splits")  # C45Tree's folds are running
    assert (run.returncode, run.stdout, run.stderr) == (130, "", "nbx: interrupted\n")
