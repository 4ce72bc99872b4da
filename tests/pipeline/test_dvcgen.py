"""The generated pipeline (nbx.pipeline.dvcgen): up to date with params.yaml, and every stage's code digest covers what
the stage really imports."""

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from nbx.pipeline import config, dvcgen

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_generated_files_are_up_to_date():
    assert dvcgen.stale(dvcgen.render()) == [], "run `python -m nbx.pipeline.dvcgen`"


def test_every_experiment_learner_has_exactly_one_cell():
    params = config.load_params()
    for name, block in params["experiments"].items():
        cells = yaml.safe_load((REPO / "stages/train" / name / "dvc.yaml").read_text())["stages"]
        assert list(cells) == block["learners"]


def test_a_cell_declares_the_table_it_reads_for_numeric_ordinal():
    """A discrete cell reads the prepared table only when it asks which columns were numeric."""
    cells = yaml.safe_load((REPO / "stages/train/ting2003/dvc.yaml").read_text())["stages"]
    assert "data/prepared/ting2003" in cells["blnbt10_threshold"]["deps"]
    assert "data/prepared/ting2003" not in cells["blnbt10"]["deps"]
    assert "data/prepared/ting2003" not in cells["nb_ting"]["deps"]


def test_expand_names_stages_as_dvc_does():
    """A foreach stage once per experiment as ``name@experiment`` with ``${item}`` replaced; other stages as they are."""
    dvc_yaml = {
        "vars": [{"experiment_ids": ["a", "b"]}],
        "stages": {
            "code": {"cmd": "python stages/code_digest.py"},
            "split": {"foreach": "${experiment_ids}", "do": {"cmd": "split ${item}", "deps": ["data/${item}"]}},
        },
    }
    assert dvcgen.expand(dvc_yaml) == {
        "code": {"cmd": "python stages/code_digest.py"},
        "split@a": {"cmd": "split a", "deps": ["data/a"]},
        "split@b": {"cmd": "split b", "deps": ["data/b"]},
    }
    stages = dvcgen.expand(yaml.safe_load((REPO / "dvc.yaml").read_text()))
    assert "report@ting2003" in stages and "${item}" not in json.dumps(stages["report@ting2003"])


def test_closure_follows_package_and_function_level_imports():
    files = set(dvcgen.closure([Path("src/nbx/pipeline/train.py")]))
    assert {
        "src/nbx/__init__.py",
        "src/nbx/pipeline/config.py",
        "src/nbx/protocol/runner.py",
        "src/nbx/pipeline/__init__.py",
        "src/nbx/protocol/__init__.py",
        "src/nbx/protocol/folds.py",
    } <= files  # folds is imported inside a function
    assert "src/nbx/report/tables.py" not in files and "src/nbx/data/fetch.py" not in files


# One learner per family: the modules a real train run loads must all be in its family's digest.
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


@functools.cache  # about 5 s per call: once per session, not once per family
def _families():
    families = dvcgen.learner_families(config.load_params())
    first = {}
    for learner, (fam, deps) in families.items():
        first.setdefault(fam, (learner, deps))
    return first


@pytest.mark.parametrize("fam", sorted(_families()))
def test_code_digest_covers_every_module_a_cell_loads(fam):
    learner, deps = _families()[fam]
    out = subprocess.run(
        [sys.executable, "-c", LOADED, learner],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout))
    assert loaded <= set(deps), f"{learner}: digest misses {sorted(loaded - set(deps))}"
