"""params.yaml: reading and validating the experiment and learner blocks, with errors naming the key."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .data.catalogue import Entry, get_entry, load_catalogue
from .folds import IMPUTE
from .models.registry import input_kind, make_learner

PARAMS_FILE = Path("params.yaml")


class ConfigError(ValueError):
    """params.yaml names something that does not exist or is malformed."""


@dataclass
class Experiment:
    name: str
    title: str
    datasets: dict[str, str]       # the paper's name -> catalogue id
    protocol: dict
    discretizer: dict
    impute: str | None
    learners: list[str]
    published: list[dict]          # the paper's tables: {table, metric, columns: {learner: column}}


def load_params(path: Path = PARAMS_FILE) -> dict:
    try:
        params = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    for key in ("seed", "experiments", "learners"):
        if key not in params:
            raise ConfigError(f"{path}: missing top-level key {key!r}")
    return params


def catalogue(params: dict) -> dict[str, Entry]:
    return load_catalogue(params.get("data", {}).get("catalogues", []))


def experiment(params: dict, name: str) -> Experiment:
    blocks = params["experiments"]
    if name not in blocks:
        raise ConfigError(f"params.yaml: unknown experiment {name!r}; known: {sorted(blocks)}")
    block = blocks[name]
    where = f"params.yaml: experiments.{name}"
    for key in ("datasets", "protocol", "discretizer", "learners"):
        if key not in block:
            raise ConfigError(f"{where}: missing key {key!r}")
    datasets = block["datasets"]
    if isinstance(datasets, list):
        datasets = {d: d for d in datasets}
    for learner in block["learners"]:
        if learner not in params["learners"]:
            raise ConfigError(f"{where}.learners: unknown learner {learner!r}; "
                              f"defined in learners: {sorted(params['learners'])}")
    impute = block.get("impute")
    if impute not in IMPUTE:
        raise ConfigError(f"{where}.impute: {impute!r} must be one of {IMPUTE} (null = none)")
    return Experiment(name, block.get("title", name), dict(datasets), block["protocol"], block["discretizer"],
                      impute, list(block["learners"]), list(block.get("published") or []))


def experiment_entries(params: dict, exp: Experiment) -> dict[str, Entry]:
    """Catalogue entries of an experiment's data sets, by catalogue id (unknown ids are an error)."""
    cat = catalogue(params)
    return {ds: get_entry(cat, ds, f"params.yaml: experiments.{exp.name}.datasets") for ds in exp.datasets.values()}


def learner_spec(params: dict, name: str) -> dict:
    if name not in params["learners"]:
        raise ConfigError(f"params.yaml: unknown learner {name!r}; defined: {sorted(params['learners'])}")
    return params["learners"][name]


INPUTS = ("discrete", "mixed")
PIPELINE_KEYS = ("input", "seed_as")  # learner-block keys read by the pipeline, not constructor arguments


@dataclass
class LearnerSetup:
    estimator: object
    input: str         # "discrete": the experiment's per-split codes; "mixed": numeric columns kept
    seed_name: str     # the name random seeds are derived from


def build_learner(params: dict, name: str) -> LearnerSetup:
    """The estimator of ``learners.<name>`` and how the pipeline runs it. Two optional block keys:

    - ``input: discrete | mixed`` overrides the learner's own input kind; ``input: discrete`` feeds a
      mixed-input learner such as C4.5 the experiment's discretized codes (Kang & Tian discretize for all).
    - ``seed_as: NAME`` derives the learner's per-split random seeds from NAME instead of its own name, so
      learners that differ only in how they combine (Lee et al.'s js/mle/SumVote... MUVs, or AdaBoost vs
      MUV over AdaBoost's models) get the same random samples and are compared on the same members.
    """
    spec = dict(learner_spec(params, name))
    kind, seed_name = spec.pop("input", None), spec.pop("seed_as", name)
    learner = make_learner(spec, f"params.yaml: learners.{name}")
    if kind is not None and kind not in INPUTS:
        raise ConfigError(f"params.yaml: learners.{name}.input: {kind!r} must be one of {INPUTS}")
    return LearnerSetup(learner, kind or input_kind(learner), str(seed_name))
