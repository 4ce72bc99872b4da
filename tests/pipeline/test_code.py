"""The code digests (nbx.pipeline.code): every stage's digest covers what the stage really imports, and the
pipeline DVC reads is the one the project describes (no generated file to go stale)."""

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from nbx.pipeline import code, config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_closure_follows_package_and_function_level_imports():
    files = set(code.closure([Path("src/nbx/pipeline/train.py")]))
    assert {
        "src/nbx/__init__.py",
        "src/nbx/pipeline/config.py",
        "src/nbx/protocol/runner.py",
        "src/nbx/pipeline/__init__.py",
        "src/nbx/protocol/__init__.py",
        "src/nbx/protocol/folds.py",
    } <= files  # folds is imported inside a function
    assert "src/nbx/report/tables.py" not in files and "src/nbx/data/fetch.py" not in files


def test_every_stage_has_its_digest_and_each_experiment_its_train_report_and_analyse_digests():
    params = config.load_params()
    digests = code.digests(params)
    stages = {"prepare", "split", "discretize", "evaluate"}
    per_experiment = {f"{kind}-{exp}" for exp in params["experiments"] for kind in ("train", "analyse", "report")}
    assert set(digests) == stages | per_experiment
    # the report digest holds the paper's published tables: editing one reruns that report only
    assert "src/nbx/papers/kang2006/published/kang2006_table1.csv" in digests["report-kang2006"]
    assert not any("/papers/kang2006/" in f for f in digests["report-wang2006"])
    # a train digest is the union of its learners' files: C4.5 for wang2006 (c45), not for lee2006
    assert "src/nbx/models/c45.py" in digests["train-wang2006"]
    assert "src/nbx/models/c45.py" not in digests["train-lee2006"]


def test_a_report_digest_covers_its_paper_modules_and_no_model_fit():
    """A paper's report is split into modules by job (nbx.report.paper): the report digest follows report.py's
    imports to each of them; model fits belong to the train and analyse stages, so no report digest holds a model,
    the learner blocks' builder or the split runner (analyse@wiering2003 refits its NBC variants instead)."""
    params = config.load_params()
    digests = code.digests(params)
    for exp in ("wiering2003", "wang2006", "kang2006"):
        for module in ("__init__", "report", "evidence", "sections", "claims", "gaps"):
            assert f"src/nbx/papers/{exp}/{module}.py" in digests[f"report-{exp}"]
    assert "src/nbx/papers/wiering2003/refits.py" in digests["analyse-wiering2003"]
    assert "src/nbx/papers/wiering2003/refits.py" not in digests["report-wiering2003"]
    fitting = ("src/nbx/models/", "src/nbx/pipeline/learners.py", "src/nbx/protocol/runner.py")
    for exp in params["experiments"]:
        assert not [f for f in digests[f"report-{exp}"] if f.startswith(fitting)], exp


def test_dvc_yaml_declares_one_stage_per_experiment_and_kind():
    """Nothing in the pipeline names an experiment or a learner: DVC iterates over params.yaml's experiments."""
    top = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    train = yaml.safe_load((REPO / "stages/train/dvc.yaml").read_text())["stages"]
    assert set(top) == {"code", "prepare", "split", "discretize", "evaluate", "analyse", "report"}
    assert set(train) == {"train"}
    params = config.load_params()
    text = yaml.safe_dump([top, train])
    assert not [name for name in [*params["experiments"], *params["learners"]] if name in text]
    for stage in [*top.values(), *train.values()]:
        assert stage.get("foreach", "${experiments}") == "${experiments}"


# One learner per set of files: the modules a real train run loads must all be in the learner's files.
LOADED = """
import json, sys
from pathlib import Path
import numpy as np
from nbx.pipeline import config
from nbx.pipeline import train as _  # the train path
from nbx.pipeline.learners import build_learner
params = config.load_params()
setup = build_learner(params, sys.argv[1])
rng = np.random.default_rng(0)
X = rng.integers(0, 3, (90, 4))
y = (X[:, 0] + rng.integers(0, 2, 90)) % 3
if setup.input == "mixed":
    X = X.astype(float) + rng.normal(0, 0.1, X.shape)
setup.estimator.fit(X, y, n_values=np.full(4, 3) if setup.input == "discrete" else np.zeros(4, int))
setup.estimator.predict_proba(X)
src = Path("src").resolve()
print(json.dumps(sorted(Path(m.__file__).resolve().relative_to(src.parent).as_posix()
                        for m in list(sys.modules.values())
                        if getattr(m, "__file__", None) and Path(m.__file__).resolve().is_relative_to(src))))
"""


@functools.cache  # about 5 s per call: once per session
def _one_learner_per_file_set():
    params = config.load_params(REPO / "params.yaml")
    first = {}
    for name in params["learners"]:
        first.setdefault(tuple(code.learner_files(params, name)), name)
    return {learner: list(files) for files, learner in first.items()}


@pytest.mark.parametrize("learner", sorted(_one_learner_per_file_set()))
def test_a_learners_files_cover_every_module_its_training_loads(learner):
    files = _one_learner_per_file_set()[learner]
    out = subprocess.run(
        [sys.executable, "-c", LOADED, learner],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout))
    assert loaded <= set(files), f"{learner}: its files miss {sorted(loaded - set(files))}"
