"""One implementation of the protocol: the pipeline's stages (split -> discretize -> train -> evaluate, through their
files) and :func:`nbx.protocol.crossval.cross_validate` (in memory; what ``nbx evaluate`` runs) give the same plan,
the same per-split predictions byte for byte and the same per-split scores."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from nbx.cli import evaluate as cli_evaluate
from nbx.cli import main
from nbx.cli.common import read_table
from nbx.core.io import write_json, write_npz
from nbx.pipeline import config, layout
from nbx.pipeline.discretize import discretize
from nbx.pipeline.evaluate import PROBABILITY_SCORES, evaluate
from nbx.pipeline.learners import build_learner
from nbx.pipeline.split import split
from nbx.pipeline.train import train
from nbx.protocol.crossval import cross_validate
from nbx.protocol.splits import EVALUATE_CELL

REPO = Path(__file__).resolve().parents[2]
LEARNERS = yaml.safe_load((REPO / "params.yaml").read_text())["learners"]
# discrete and mixed input, input: discrete on a mixed learner, numeric_ordinal, all_classes, a random learner
# seeded by its own name and one seeded by seed_as
PIPELINE_LEARNERS = ["nb_laplace", "c45", "c45_kang", "lnbt1", "nb_wiering", "adaboost_nb2", "muv_nb2_boot_bal_js"]
CLI_LEARNERS = ["nb_laplace", "c45", "lnbt1", "adaboost_nb2", "nb_wiering", "muv_nb2_boot_bal_js"]


@pytest.fixture(scope="module")
def data_csv(tmp_path_factory) -> Path:
    """152 rows: two numeric attributes and a nominal one that predict the class (a, b or c; two rows of d, so some
    training parts lack a class), missing values in all three attributes, a header line of names."""
    rng = np.random.default_rng(4)
    n = 150
    y = rng.integers(0, 3, n)
    size = np.round(rng.normal(1.5 * y, 1.0), 2).astype(str)
    weight = np.round(rng.normal(-y, 2.0), 1).astype(str)
    colour = np.where(rng.random(n) < 0.7, np.array(["red", "green", "blue"])[y], rng.choice(["red", "green"], n))
    size[::9], weight[4::13], colour[2::11] = "?", "?", "?"
    rows = [",".join(r) for r in zip(size, weight, colour, np.array(["a", "b", "c"])[y])] + ["1.0,0.0,red,d"] * 2
    lines = ["size,weight,colour,label"] + rows
    path = tmp_path_factory.mktemp("data") / "toy.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def params_for(name: str, dataset: str, protocol: dict, impute, learners: list[str], seed: int) -> config.Params:
    return config.as_params(
        {
            "seed": seed,
            "learners": {x: LEARNERS[x] for x in learners},
            "experiments": {
                name: {
                    "datasets": {dataset: dataset},
                    "protocol": protocol,
                    "discretizer": {"kind": "mdl"},
                    "impute": impute,
                    "learners": learners,
                }
            },
        }
    )


def run_stages(params: config.Params, name: str, table, plan: tuple | None = None) -> None:
    """The pipeline's stages on one prepared table (the current folder is the project); ``plan``: (test, repeat)
    stored instead of running the split stage."""
    (dataset,) = params["experiments"][name]["datasets"]
    table.save(layout.prepared(name, dataset))
    write_json(layout.availability(name), {dataset: {"available": True}})
    if plan is None:
        split(params, name)
    else:
        write_npz(layout.split_plan(name, dataset), test=plan[0], repeat=plan[1])
    discretize(params, name)
    for learner in params["experiments"][name]["learners"]:
        train(params, name, learner)
    evaluate(params, name)


def assert_same_as_stages(cv, name: str, dataset: str, learners: list[str]) -> None:
    with np.load(layout.split_plan(name, dataset)) as z:
        assert z["test"].tobytes() == cv.test.tobytes() and z["repeat"].tobytes() == cv.repeat.tobytes()
    for learner in learners:
        with np.load(layout.predictions(name, learner, dataset)) as z:
            for key, value in cv.predictions[learner].arrays().items():
                assert z[key].dtype == value.dtype and z[key].tobytes() == value.tobytes(), (learner, key)
    rows = [line.split(",") for line in layout.results(name).read_text().splitlines()[1:]]
    for learner in learners:
        stored = [r[5:] for r in rows if r[1] == learner]
        scores = cv.scores[learner]
        assert stored == [
            [f"{scores[m][s]:.6f}" for m in ("accuracy", *PROBABILITY_SCORES)] for s in range(len(cv.test))
        ], learner


@pytest.mark.parametrize(
    "protocol, impute, n_splits",
    [
        ({"kind": "cv", "folds": 3, "repeats": 2, "stratified": True}, "mode_after_discretize", 6),
        ({"kind": "cv", "folds": 10, "folds_by_dataset": {"toy": 4}, "stratified": False}, "mode", 4),
        ({"kind": "holdout", "repeats": 3, "test_fraction": 0.3, "stratified": True}, None, 3),
    ],
)
def test_cross_validate_with_pipeline_seeds_equals_the_stages(
    data_csv, tmp_path, monkeypatch, protocol, impute, n_splits
):
    table = read_table(str(data_csv)).table
    params = params_for("exp", "toy", protocol, impute, PIPELINE_LEARNERS, seed=11)
    monkeypatch.chdir(tmp_path)
    run_stages(params, "exp", table)
    setups = {x: build_learner(params, x) for x in PIPELINE_LEARNERS}
    cv = cross_validate(table, setups, protocol, {"kind": "mdl"}, impute, 11, experiment="exp", n_jobs=1)
    assert len(cv.test) == n_splits
    assert_same_as_stages(cv, "exp", "toy", PIPELINE_LEARNERS)


def test_nbx_evaluate_equals_the_stages_on_its_plan(capsys, data_csv, tmp_path, monkeypatch):
    """nbx evaluate's per-split predictions are the pipeline's, for an experiment and data set named as the cell
    nbx evaluate seeds its learners by and with the plan nbx evaluate made (seeded by --seed alone)."""
    runs = []
    monkeypatch.setattr(
        cli_evaluate, "cross_validate", lambda *a, **k: runs.append(cross_validate(*a, **k)) or runs[-1]
    )
    monkeypatch.chdir(REPO)
    code = main(
        [
            "evaluate",
            str(data_csv),
            "--learners",
            ",".join(CLI_LEARNERS),
            "--cv",
            "4",
            "--repeats",
            "2",
            "--impute",
            "mode",
            "--seed",
            "5",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    (cv,) = runs
    name, dataset = EVALUATE_CELL
    protocol = {"kind": "cv", "folds": 4, "repeats": 2, "stratified": True}
    params = params_for(name, dataset, protocol, "mode", CLI_LEARNERS, seed=5)
    monkeypatch.chdir(tmp_path)
    run_stages(params, name, read_table(str(data_csv)).table, plan=(cv.test, cv.repeat))
    assert_same_as_stages(cv, name, dataset, CLI_LEARNERS)
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for learner in CLI_LEARNERS:  # the printed accuracy is the one of the stages' predictions
        acc = cv.scores[learner]["accuracy"]
        assert f"{acc.mean() * 100:6.2f} ± {acc.std(ddof=1) * 100:5.2f}" in lines[learner]


def test_a_plan_with_more_folds_than_rows_names_the_key(data_csv, tmp_path, monkeypatch):
    table = read_table(str(data_csv)).table
    params = params_for(
        "exp", "toy", {"kind": "cv", "folds": 10, "folds_by_dataset": {"toy": 153}}, None, ["nb_laplace"], seed=1
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        config.ConfigError,
        match=r"^params\.yaml: experiments\.exp\.protocol\.folds_by_dataset\.toy: "
        r"153 must be at most the 152 rows of data set 'toy'$",
    ):
        run_stages(params, "exp", table)
