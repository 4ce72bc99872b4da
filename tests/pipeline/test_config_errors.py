"""Every mistake in params.yaml ends as one line naming file, line and key (no tracebacks, no raw Python
errors), with a did-you-mean where a name is unknown."""

import copy
from pathlib import Path

import pytest
import yaml

from nbx.pipeline import config
from nbx.pipeline.inputs import MissingInputError, load_plan
from nbx.pipeline.learners import build_learner

REPO = Path(__file__).resolve().parents[2]
BASE = yaml.safe_load((REPO / "params.yaml").read_text())


def _set(d: dict, keys: tuple, value):
    for k in keys[:-1]:
        d = d[k]
    d[keys[-1]] = value


CASES = [  # (keys to change, new value, what to call, phrase expected in the message)
    (
        ("experiments", "kang2006", "protocol", "folds"),
        "ten",
        "experiment",
        "experiments.kang2006.protocol.folds: 'ten' must be an integer >= 2",
    ),
    (
        ("experiments", "ting2003", "protocol", "repeats"),
        0,
        "experiment",
        "experiments.ting2003.protocol.repeats: 0 must be an integer >= 1",
    ),
    (
        ("experiments", "wiering2003", "protocol", "test_fraction"),
        1.5,
        "experiment",
        "experiments.wiering2003.protocol.test_fraction: 1.5 must be a number in (0, 1)",
    ),
    (
        ("experiments", "wiering2003", "protocol", "kind"),
        "loo",
        "experiment",
        "experiments.wiering2003.protocol.kind: 'loo' must be one of ('cv', 'holdout')",
    ),
    (
        ("experiments", "kang2006", "protocol", "fold"),
        10,
        "experiment",
        "key 'fold' is not a known key of experiments.kang2006.protocol (kind 'cv'); did you mean folds?",
    ),
    (
        ("experiments", "kang2006", "protocol", "stratified"),
        "yes",
        "experiment",
        "experiments.kang2006.protocol.stratified: 'yes' must be true or false",
    ),
    (
        ("experiments", "kang2006", "impute"),
        "median",
        "experiment",
        "experiments.kang2006.impute: 'median' must be one of (None, 'mode', 'mode_after_discretize')",
    ),
    (
        ("experiments", "kang2006", "reference"),
        "nb",
        "experiment",
        "experiments.kang2006.reference: 'nb' is not one of the experiment's learners",
    ),
    (
        ("experiments", "kang2006", "learners", 0),
        "hbayes_nbb",
        "experiment",
        "experiments.kang2006.learners.0: unknown learner 'hbayes_nbb'; did you mean hbayes_nb",
    ),
    (
        ("experiments", "kang2006", "datasets"),
        [],
        "experiment",
        "experiments.kang2006.datasets: must be a non-empty list or mapping",
    ),
    (
        ("experiments", "benchmark", "limited", "max_rows"),
        0,
        "experiment",
        "experiments.benchmark.limited.max_rows: 0 must be an integer >= 1",
    ),
    (
        ("experiments", "benchmark", "limited", "learners", 0),
        "lr_kangg",
        "experiment",
        "experiments.benchmark.limited.learners.0: 'lr_kangg' is not one of the experiment's learners; did you mean lr_kang",
    ),
    (
        ("experiments", "benchmark", "limited", "learners", 0),
        "nb_laplace",
        "experiment",
        "experiments.benchmark.limited.learners.0: 'nb_laplace' is the reference learner, which must run on every",
    ),
    (
        ("experiments", "benchmark", "limited", "max_row"),
        10,
        "experiment",
        "key 'max_row' is not a known key of experiments.benchmark.limited; did you mean max_rows?",
    ),
    (
        ("experiments", "benchmark", "protocol", "full"),
        "yes please",
        "experiment",
        "experiments.benchmark.protocol.full: 'yes please' must be true or false",
    ),
    (
        ("experiments", "kang2006", "protocol", "ful"),
        True,
        "experiment",
        "key 'ful' is not a known key of experiments.kang2006.protocol (kind 'cv'); did you mean full?",
    ),
    (
        ("experiments", "benchmark", "protocol", "full_protocol", "repeat"),
        3,
        "experiment",
        "key 'repeat' is not a known key of experiments.benchmark.protocol.full_protocol (kind 'cv'); did you mean "
        "repeats?",
    ),
    (
        ("experiments", "benchmark", "protocol", "full_protocol", "repeats"),
        0,
        "experiment",
        "experiments.benchmark.protocol.full_protocol.repeats: 0 must be an integer >= 1",
    ),
    (
        ("experiments", "benchmark", "protocol", "full_protocol", "full"),
        True,
        "experiment",
        "key 'full' is not a known key of experiments.benchmark.protocol.full_protocol (kind 'cv')",
    ),
    (
        ("experiments", "benchmark", "protocol", "full_protocol"),
        "3 repeats",
        "experiment",
        "experiments.benchmark.protocol.full_protocol: '3 repeats' must be a mapping of protocol keys",
    ),
    (("seed",), -5, "load", "seed: -5 must be a non-negative integer"),
    (("seed",), "2026", "load", "seed: '2026' must be a non-negative integer"),
    (
        ("learners", "nb_kang", "class"),
        "NaiveBayse",
        "learner",
        "learners.nb_kang.class: unknown learner class 'NaiveBayse'; did you mean NaiveBayes",
    ),
    (
        ("learners", "nb_kang", "alpah"),
        1,
        "learner",
        "key 'alpah' is not a known key of learners.nb_kang (NaiveBayes); did you mean alpha?",
    ),
    (("learners", "lr_kang", "input"), "codes", "learner", "learners.lr_kang.input: 'codes' must be one of"),
    (
        ("learners", "nb_kang"),
        "NaiveBayes",
        "learner",
        "learners.nb_kang: 'NaiveBayes' must be a mapping with a 'class' key",
    ),
    (
        ("learners", "nb_wiering", "all_classes"),
        "yes",
        "learner",
        "learners.nb_wiering.all_classes: 'yes' must be true or false",
    ),
    (
        ("learners", "c45", "all_classes"),
        True,
        "learner",
        "learners.c45.all_classes: C45Tree has no 'classes' parameter to set",
    ),
    (
        ("learners", "lnbt3", "numeric_ordinal"),
        "yes",
        "learner",
        "learners.lnbt3.numeric_ordinal: 'yes' must be true or false",
    ),
    (
        ("learners", "nb_ting", "numeric_ordinal"),
        True,
        "learner",
        "learners.nb_ting.numeric_ordinal: NaiveBayes has no 'ordinal' parameter to set",
    ),
]


@pytest.mark.parametrize("keys, value, call, phrase", CASES, ids=[c[3][:40] for c in CASES])
def test_params_mistakes_are_one_line_with_file_line_and_key(tmp_path, keys, value, call, phrase):
    params = copy.deepcopy(BASE)
    _set(params, keys, value)
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False))
    with pytest.raises(config.ConfigError) as err:
        p = config.load_params(path)
        if call == "experiment":
            config.experiment(p, keys[1])
        elif call == "learner":
            build_learner(p, keys[1])
    message = str(err.value)
    assert phrase in message and "\n" not in message
    file_line = message.split(": ", 1)[0]
    assert file_line.startswith(str(path) + ":"), message
    line = path.read_text().splitlines()[int(file_line.rsplit(":", 1)[1]) - 1]
    assert str(keys[-1] if not isinstance(keys[-1], int) else value) in line, (line, message)


def test_unknown_experiment_gets_a_did_you_mean(tmp_path):
    params = config.load_params(REPO / "params.yaml")
    with pytest.raises(config.ConfigError, match=r"unknown experiment 'kang2060'; did you mean kang2006"):
        config.experiment(params, "kang2060")


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "params.yaml"
    path.write_text("seed: 1\nexperiments: {a: [1, 2\nlearners: {}\n")
    with pytest.raises(config.ConfigError, match=rf"^{path}:\d+: not valid YAML"):
        config.load_params(path)


def test_missing_params_file_says_where_to_run(tmp_path):
    with pytest.raises(config.ConfigError, match="cannot read .*; run from the repository root"):
        config.load_params(tmp_path / "nope.yaml")


def test_stage_run_out_of_order_names_the_stage_to_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MissingInputError, match=r"run `dvc repro split@kang2006` first"):
        load_plan("kang2006", "iris")


def test_limited_learners_run_only_within_every_size_limit():
    exp = config.experiment(config.load_params(REPO / "params.yaml"), "benchmark")
    limits = BASE["experiments"]["benchmark"]["limited"]
    rows, attributes = limits["max_rows"], limits["max_attributes"]
    for learner in limits["learners"]:
        assert exp.runs_on(learner, rows, attributes, 26)  # no class limit given: none applies
        assert not exp.runs_on(learner, rows + 1, attributes, 2)
        assert not exp.runs_on(learner, rows, attributes + 1, 2)
    assert exp.runs_on("nb_laplace", 10**9, 10**6, 1000)  # not limited


def _experiment(tmp_path: Path, name: str, **protocol) -> config.Experiment:
    """``name`` from params.yaml with these keys of its protocol block set (None: removed)."""
    params = copy.deepcopy(BASE)
    block = params["experiments"][name]["protocol"]
    block.update(protocol)
    for key in [k for k, v in block.items() if v is None]:
        del block[key]
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False))
    return config.experiment(config.load_params(path), name)


def test_full_switch_runs_the_full_protocol_of_params_yaml(tmp_path):
    committed = config.experiment(config.load_params(REPO / "params.yaml"), "benchmark")
    block = BASE["experiments"]["benchmark"]["protocol"]
    plain = {k: v for k, v in block.items() if k not in config.FULL_KEYS}
    # committed: the switch off, 1 x 10-fold CV and the size limit, as before the switch existed
    assert block["full"] is False and not committed.full and committed.protocol == plain
    assert plain["repeats"] == 1 and not committed.runs_on("hbayes_nb", 20_000, 16, 26)
    full = _experiment(tmp_path, "benchmark", full=True)
    assert full.full and full.protocol == {**plain, **block["full_protocol"]}
    assert full.protocol["repeats"] == block["full_protocol"]["repeats"] == 3  # the value of params.yaml
    assert full.limited == {}
    assert all(full.runs_on(learner, 20_000, 64, 26) for learner in full.learners)
    # the rest of the block as it was
    assert (full.datasets, full.learners, full.reference) == (committed.datasets, committed.learners, "nb_laplace")


def test_full_without_a_full_protocol_only_lifts_the_limit(tmp_path):
    exp = _experiment(tmp_path, "benchmark", full=True, full_protocol=None)
    assert exp.protocol["repeats"] == 1 and exp.full_protocol == {} and exp.limited == {}
    off = _experiment(tmp_path, "benchmark", full=None, full_protocol={"folds": 5})  # full: false by default
    assert not off.full and off.protocol["folds"] == 10 and off.full_protocol == {"folds": 5}
    assert set(off.limited) == {"lr_kang", "hbayes_nb", "hbayes_tan"}


def test_an_experiment_without_the_full_keys_is_unchanged():
    params = config.load_params(REPO / "params.yaml")
    plain = [name for name, block in BASE["experiments"].items() if not set(config.FULL_KEYS) & set(block["protocol"])]
    assert plain  # the papers' experiments
    for name in plain:
        exp = config.experiment(params, name)
        assert exp.protocol == BASE["experiments"][name]["protocol"] and not exp.full and exp.full_protocol == {}


def test_a_split_error_of_the_full_protocol_names_its_key(tmp_path):
    # make_plan's error (more folds than rows) at the key of full_protocol the folds came from, when it is in effect
    from nbx.protocol.spec import BlockError

    exc = BlockError(("protocol", "folds"), "30 folds but only 20 rows")
    on = _experiment(tmp_path, "benchmark", full=True, full_protocol={"folds": 30})
    message = str(config.protocol_error(config.load_params(tmp_path / "params.yaml"), on, exc))
    assert "experiments.benchmark.protocol.full_protocol.folds: 30 folds" in message
    off = _experiment(tmp_path, "benchmark", full_protocol={"folds": 30})
    message = str(config.protocol_error(config.load_params(tmp_path / "params.yaml"), off, exc))
    assert "experiments.benchmark.protocol.folds: 30 folds" in message
