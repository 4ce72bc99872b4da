"""Learner blocks (nbx.pipeline.learners): the registry is every learner class of nbx.models, found without
importing them; a bad hyperparameter anywhere in a block, nested blocks too, stops the first stage of
``dvc repro`` and the train stage before any data is read, as one line naming file, line and key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from estimators import estimator_classes

from nbx.pipeline import code, config, learners

REPO = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}


def test_registry_is_every_learner_class_of_nbx_models():
    """The registry reads the modules' class lines; importing them all must find the same classes."""
    assert {
        cls.__name__: f"{cls.__module__}:{cls.__name__}" for cls in estimator_classes("nbx.models")
    } == learners.CLASSES


def test_a_train_cell_imports_only_the_modules_of_its_learner():
    code = (
        "import sys; from nbx.pipeline import config, learners, train; "
        "learners.build_learner(config.load_params(), 'bagging_nb'); "
        "print(sorted(m for m in sys.modules if m.startswith('nbx.models.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=ENV, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(["nbx.models.ensembles", "nbx.models.naive_bayes"])


# a heavy import is loaded only by the fits that use it: numba by ridge LR's indicator design (nominal codes), not
# by LR on numeric attributes; scipy.special by TAN's Bayesian score, not by Friedman et al.'s CMI (each about
# 0.2-0.3 s of every process, e.g. of 67 of the 73 lee2006 cells, which fit TAN or MUV)
@pytest.mark.parametrize(
    "model, data, module, loaded",
    [
        ("logistic import LogisticRegression as M; m = M()", "X, y", "numba", False),
        ("logistic import LogisticRegression as M; m = M()", "C, y, n_values=n_values", "numba", True),
        ("tan import TAN; m = TAN()", "C, y, n_values=n_values", "scipy.special", False),
        ("tan import TAN; m = TAN(criterion='bayes')", "C, y, n_values=n_values", "scipy.special", True),
    ],
)
def test_a_fit_loads_a_heavy_module_only_where_it_uses_it(model, data, module, loaded):
    code = (
        "import sys, numpy as np\n"
        "rng = np.random.default_rng(0)\n"
        "X, y, n_values = rng.normal(size=(60, 3)), rng.integers(0, 3, 60), np.array([3, 3, 3])\n"
        "C = rng.integers(0, 3, (60, 3)).astype(float)\n"
        f"from nbx.models.{model}\n"
        f"m.fit({data}).predict_proba({data.split(',')[0]})\n"
        f"print({module!r} in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=ENV, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(loaded)


def test_the_code_stage_imports_no_learner_module(monkeypatch):
    """The code stage (the first of ``dvc repro``) builds every learner block to check it, but imports the
    learners' classes by name: its source files, the import closure of stages/code_digest.py, hold the modules that
    build and check the blocks and no model module. nbx.pipeline.code finds a stage's files from its imports, and a
    train stage's digest is its script's closure (with nbx.pipeline.learners) plus its learners' own modules: a model
    imported by the checks would be in every train digest, and editing it would refit every experiment."""
    monkeypatch.chdir(REPO)
    files = code.closure([Path("stages/code_digest.py")])
    assert {"src/nbx/pipeline/check.py", "src/nbx/pipeline/learners.py"} <= set(files)
    assert not [f for f in files if f.startswith("src/nbx/models/")]
    assert not [f for f in code.closure([Path("stages/train.py")]) if f.startswith("src/nbx/models/")]


# ------------------------------------------------------------------------------------- errors at read time
HEAD = """seed: 1
data: {catalogues: []}
experiments:
  toy: {datasets: [iris], protocol: {kind: cv, folds: 3}, discretizer: mdl, impute: null, learners: [nb, bad]}
analyses: {toy: {}}
learners:
  nb: {class: NaiveBayes}
"""  # the block of learner ``bad`` starts on line 8

# (the block of learner ``bad``, its mistake as params.yaml:LINE: KEY: MESSAGE)
MISTAKES = [
    (
        "bad: {class: TAN, criterion: bayse}",
        (
            "params.yaml:8: learners.bad.criterion: The 'criterion' parameter of TAN must be a str among {'cmi', 'bayes'}. "
            "Got 'bayse' instead."
        ),
    ),
    (
        "bad: {class: NaiveBayes, alpah: 1}",
        "params.yaml:8: key 'alpah' is not a known key of learners.bad (NaiveBayes); did you mean alpha?",
    ),
    (
        "bad: {class: AdaBoostM1, n_estimators: ten}",
        (
            "params.yaml:8: learners.bad.n_estimators: The 'n_estimators' parameter of AdaBoostM1 must be an int in the "
            "range [1, inf). Got 'ten' instead."
        ),
    ),
    (
        "bad:\n  class: AdaBoostM1\n  base:\n    class: NaiveBayes\n    alpha: -1",
        (
            "params.yaml:12: learners.bad.base.alpha: The 'alpha' parameter of NaiveBayes must be a float in the range "
            "[0.0, inf). Got -1 instead."
        ),
    ),
    (
        "bad:\n  class: Bagging\n  base: {class: NaiveBayse}",
        "params.yaml:10: learners.bad.base.class: unknown learner class 'NaiveBayse'; did you mean NaiveBayes?",
    ),
    (
        "bad:\n  class: SelfAdaptiveNBTree\n  leaf:\n    class: GeneralNB\n    density: kde",
        (
            "params.yaml:12: learners.bad.leaf.density: The 'density' parameter of GeneralNB must be a str among "
            "{'kernel', 'gaussian'}. Got 'kde' instead."
        ),
    ),
    (
        "bad:\n  class: MUVofMUV\n  members:\n  - {class: MUV}\n  - {class: MUV, n_estimators: 0}",
        (
            "params.yaml:12: learners.bad.members.1.n_estimators: The 'n_estimators' parameter of MUV must be an int in "
            "the range [1, inf). Got 0 instead."
        ),
    ),
    (
        "bad: {class: NaiveBayes, input: codes}",
        "params.yaml:8: learners.bad.input: 'codes' must be one of ('discrete', 'mixed')",
    ),
]


def _repo(tmp_path: Path, block: str) -> Path:
    (tmp_path / "params.yaml").write_text(HEAD + "  " + block.replace("\n", "\n  ") + "\n")
    return tmp_path


@pytest.mark.parametrize("block, message", MISTAKES, ids=[m[1].split(": ")[1] for m in MISTAKES])
def test_a_bad_block_is_one_line_with_file_line_and_key(tmp_path, monkeypatch, block, message):
    monkeypatch.chdir(_repo(tmp_path, block))
    params = config.load_params()
    with pytest.raises(config.ConfigError) as err:
        learners.build_learner(params, "bad")
    assert str(err.value) == message
    with pytest.raises(config.ConfigError) as err:
        learners.check_learners(params)
    assert str(err.value) == message


# (the command, its label in the error): the code stage; the train stage of experiment toy (learners nb, bad), all
# its learners or some of them: a config error is labelled ``train EXPERIMENT`` (a learner's failure while it is
# fitted would be ``train EXPERIMENT/LEARNER``)
STAGES = [
    ("code_digest.py", "code_digest"),
    ("train.py toy", "train toy"),
    ("train.py toy bad", "train toy"),
    ("train.py toy nb", "train toy"),
]


@pytest.mark.parametrize("stage, label", STAGES, ids=[s[0] for s in STAGES])
@pytest.mark.parametrize("block, message", MISTAKES[3:5], ids=["nested value", "nested class"])
def test_the_first_stage_and_the_train_stage_stop_before_reading_data(tmp_path, stage, label, block, message):
    """The code stage runs before every other stage of ``dvc repro`` and checks every block before it writes its
    digests; the train stage builds every block of its experiment, in order, before it reads any input, so the bad
    block stops it even when only the good learner is asked for (it stops at the first block that fails to build).
    There are no inputs here: a stage that read one first would stop with "... is missing: run `dvc repro
    prepare@toy` first" instead."""
    script, *args = stage.split()
    out = subprocess.run(
        [sys.executable, str(REPO / "stages" / script), *args],
        cwd=_repo(tmp_path, block),
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (out.returncode, out.stdout, out.stderr) == (1, "", f"{label}: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["params.yaml"]  # nothing read, nothing written
