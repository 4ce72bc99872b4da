"""dvc.yaml and params.yaml agree, and every name in params.yaml resolves."""
from pathlib import Path

import pytest
import yaml

from nbx import config
from nbx.models.registry import UnknownLearnerError, make_learner

REPO = Path(__file__).resolve().parents[1]
PARAMS = config.load_params(REPO / "params.yaml")
DVC = yaml.safe_load((REPO / "dvc.yaml").read_text())


def _vars(key):
    return next(v[key] for v in DVC["vars"] if key in v)


def test_train_cells_match_experiment_learners():
    cells = {(c["experiment"], c["learner"]) for c in _vars("train_cells").values()}
    wanted = {(e, l) for e in PARAMS["experiments"] for l in PARAMS["experiments"][e]["learners"]}
    assert cells == wanted
    for name, cell in _vars("train_cells").items():
        assert name == f"{cell['experiment']}-{cell['learner']}"
        for module in cell["uses"]:
            assert (REPO / "src/nbx/models" / module).exists()
    assert set(_vars("experiment_ids")) == set(PARAMS["experiments"])


def test_every_dataset_and_learner_resolves():
    for name in PARAMS["experiments"]:
        exp = config.experiment(PARAMS, name)
        config.experiment_entries(PARAMS, exp)          # raises on an unknown data set id
        for learner in exp.learners:
            make_learner(config.learner_spec(PARAMS, learner), learner)


def test_unknown_names_get_clear_errors():
    block = dict(next(iter(PARAMS["experiments"].values())), learners=["nope"])
    params = {**PARAMS, "experiments": {"x": block}}
    with pytest.raises(config.ConfigError, match="experiments.x.learners: unknown learner 'nope'"):
        config.experiment(params, "x")
    with pytest.raises(config.ConfigError, match="unknown experiment 'y'"):
        config.experiment(params, "y")
    with pytest.raises(UnknownLearnerError, match="unknown learner class 'Bayes'"):
        make_learner({"class": "Bayes"})
    with pytest.raises(UnknownLearnerError, match=r"NaiveBayes has no parameter\(s\) \['alpah'\]"):
        make_learner({"class": "NaiveBayes", "alpah": 1})
