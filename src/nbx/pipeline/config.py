"""params.yaml: reading it, checking the experiment and learner blocks, and errors that name file, line and key.

Every error a user can cause here is a :class:`ConfigError` whose message is one line of the form
``params.yaml:57: experiments.kang2006.protocol.folds: 'ten' must be an integer >= 2``, with a did-you-mean
where a name is unknown. Data-set names are checked against the catalogue by the prepare stage
(:mod:`nbx.data.catalogue`), so this module does not import it (train cells depend on this file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from nbx.core.errors import NbxError, did_you_mean
from nbx.data.yaml_io import load_yaml, yaml_error_at
from nbx.protocol.spec import IMPUTE, ProtocolError
from nbx.protocol.spec import check_protocol as check_protocol_block

PARAMS_FILE = Path("params.yaml")


class ConfigError(NbxError, ValueError):
    """params.yaml names something that does not exist or is malformed."""


class Params(dict):
    """The parsed params file, which also knows the line of every key (for error messages)."""

    def __init__(self, data: dict, path: Path, lines: dict[tuple, int]):
        super().__init__(data)
        self.path = Path(path)
        self._lines = lines

    def where(self, *keys) -> str:
        """``params.yaml:LINE: a.b.c`` for a key path (the line of the deepest key that exists)."""
        for n in range(len(keys), 0, -1):
            if keys[:n] in self._lines:
                return f"{self.path}:{self._lines[keys[:n]]}: {'.'.join(map(str, keys))}"
        return f"{self.path}: {'.'.join(map(str, keys))}"

    def error(self, keys: tuple, message: str) -> ConfigError:
        return ConfigError(f"{self.where(*keys)}: {message}")


def _key_lines(node, prefix: tuple = ()) -> dict[tuple, int]:
    """Line (1-based) of every mapping key and sequence item below a composed YAML node."""
    out: dict[tuple, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = prefix + (key.value,)
            out[path] = key.start_mark.line + 1
            out.update(_key_lines(value, path))
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            out[prefix + (i,)] = value.start_mark.line + 1
            out.update(_key_lines(value, prefix + (i,)))
    return out


def load_params(path: Path | str = PARAMS_FILE) -> Params:
    path = Path(path)
    try:
        data, node = load_yaml(path.read_text())
        lines = _key_lines(node)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}; run from the repository root") from None
    except yaml.YAMLError as exc:
        raise ConfigError(yaml_error_at(path, exc)) from None
    params = Params(data if isinstance(data, dict) else {}, path, lines)
    for key in ("seed", "experiments", "learners"):
        if key not in params:
            raise ConfigError(f"{path}: missing top-level key {key!r}")
    seed = params["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise params.error(("seed",), f"{seed!r} must be a non-negative integer")
    for key in ("experiments", "learners"):
        if not isinstance(params[key], dict) or not params[key]:
            raise params.error((key,), "must be a non-empty mapping")
    return params


def as_params(params) -> Params:
    """A Params view of a plain dict (errors then name the default params file, without line numbers)."""
    return params if isinstance(params, Params) else Params(params, PARAMS_FILE, {})


# ---------------------------------------------------------------------------------------------- experiments
@dataclass
class Experiment:
    name: str
    title: str
    datasets: dict[str, str]  # the paper's name -> catalogue id
    protocol: dict
    discretizer: dict
    impute: str | None
    learners: list[str]
    published: list[dict]  # the paper's tables: {table, metric, columns: {learner: column}}
    reference: str  # the learner others are marked against (default: the first)
    limited: dict = field(default_factory=dict)  # learner -> its size limits {rows, attributes, classes}

    def runs_on(self, learner: str, rows: int, attributes: int, classes: int) -> bool:
        """Whether ``learner`` runs on a data set of this size: always, unless the experiment's ``limited`` block
        names it; then only within that block's ``max_rows``, ``max_attributes`` and ``max_classes``."""
        limit = self.limited.get(learner)
        return limit is None or (
            rows <= limit["rows"] and attributes <= limit["attributes"] and classes <= limit["classes"]
        )


def _int(params: Params, keys: tuple, value, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise params.error(keys, f"{value!r} must be an integer >= {low}")
    return value


def protocol_error(params: Params, name: str, exc: ProtocolError) -> ConfigError:
    """A protocol error of experiment ``name`` at the line and key of params.yaml it is about."""
    return params.error(("experiments", name, "protocol") + exc.keys, exc.message)


def check_protocol(params: Params, name: str, protocol) -> dict:
    """The resampling protocol block, checked by :func:`nbx.protocol.spec.check_protocol`."""
    try:
        return check_protocol_block(protocol)
    except ProtocolError as exc:
        raise protocol_error(params, name, exc) from None


def experiment(params: Params, name: str) -> Experiment:
    params = as_params(params)
    blocks = params["experiments"]
    if name not in blocks:
        raise params.error(("experiments",), f"unknown experiment {name!r}{did_you_mean(name, blocks)}")
    block = blocks[name]
    if not isinstance(block, dict):
        raise params.error(("experiments", name), "must be a mapping")
    for key in ("datasets", "protocol", "discretizer", "learners"):
        if key not in block:
            raise params.error(("experiments", name), f"missing key {key!r}")
    datasets = block["datasets"]
    if isinstance(datasets, list):
        datasets = {d: d for d in datasets}
    if not isinstance(datasets, dict) or not datasets:
        raise params.error(("experiments", name, "datasets"), "must be a non-empty list or mapping")
    learners = block["learners"]
    if not isinstance(learners, list) or not learners:
        raise params.error(("experiments", name, "learners"), "must be a non-empty list of learner names")
    for i, learner in enumerate(learners):
        if learner not in params["learners"]:
            raise params.error(
                ("experiments", name, "learners", i),
                f"unknown learner {learner!r}{did_you_mean(learner, params['learners'])}",
            )
    impute = block.get("impute")
    if impute not in IMPUTE:
        raise params.error(("experiments", name, "impute"), f"{impute!r} must be one of {IMPUTE} (null = none)")
    discretizer = block["discretizer"]
    if isinstance(discretizer, str):
        discretizer = {"kind": discretizer}
    if not isinstance(discretizer, dict) or "kind" not in discretizer:
        raise params.error(("experiments", name, "discretizer"), f"{discretizer!r} must be a mapping with a 'kind'")
    reference = block.get("reference", learners[0])
    if reference not in learners:
        raise params.error(
            ("experiments", name, "reference"),
            f"{reference!r} is not one of the experiment's learners{did_you_mean(reference, learners)}",
        )
    return Experiment(
        name,
        block.get("title", name),
        {str(k): str(v) for k, v in datasets.items()},
        check_protocol(params, name, block["protocol"]),
        discretizer,
        impute,
        list(learners),
        list(block.get("published") or []),
        reference,
        check_limited(params, name, learners, reference),
    )


LIMITS = ("max_rows", "max_attributes", "max_classes")


def check_limited(params: Params, name: str, learners: list[str], reference: str) -> dict:
    """The experiment's ``limited`` block, {learners: [...], and any of max_rows, max_attributes, max_classes}:
    learners that run only on the data sets within those sizes (a time budget), as learner -> {rows,
    attributes, classes} (a missing limit is no limit)."""
    block = params["experiments"][name].get("limited")
    keys = ("experiments", name, "limited")
    if block is None:
        return {}
    if not isinstance(block, dict) or "learners" not in block or not set(block) & set(LIMITS):
        raise params.error(keys, f"must be a mapping with the key learners and one or more of {', '.join(LIMITS)}")
    for key in block:
        if key not in ("learners", *LIMITS):
            raise params.error(keys + (key,), f"unknown key{did_you_mean(key, ('learners', *LIMITS))}")
    limits = {
        key.removeprefix("max_"): _int(params, keys + (key,), block[key], 1) if key in block else float("inf")
        for key in LIMITS
    }
    names = block["learners"]
    if not isinstance(names, list) or not names:
        raise params.error(keys + ("learners",), "must be a non-empty list of the experiment's learners")
    for i, learner in enumerate(names):
        if learner not in learners:
            raise params.error(
                keys + ("learners", i),
                f"{learner!r} is not one of the experiment's learners{did_you_mean(learner, learners)}",
            )
        if learner == reference:
            raise params.error(
                keys + ("learners", i), f"{learner!r} is the reference learner, which must run on every data set"
            )
    return dict.fromkeys(names, limits)
