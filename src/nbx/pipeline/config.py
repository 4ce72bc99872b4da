"""params.yaml: reading it, checking the experiment and learner blocks, and errors that name file, line and key.

Every error a user can cause here is a :class:`ConfigError` whose message is one line of the form
``params.yaml:57: experiments.kang2006.protocol.folds: 'ten' must be an integer >= 2``, with a did-you-mean
where a name is unknown. Every mapping is closed: the keys this module reads are listed here (:data:`TOP_KEYS`,
:data:`DATA_KEYS`, :data:`EXPERIMENT_KEYS`, :data:`PUBLISHED_KEYS`, :data:`LIMITS`, :data:`FULL_KEYS`; the
protocol's in :mod:`nbx.protocol.spec`, a learner block's in :mod:`nbx.pipeline.learners`), an unknown key is
``params.yaml:141: key 'refrence' is not a known key of experiments.kang2006; did you mean reference?``, and a key
written twice is refused by the loader (:mod:`nbx.data.yaml_io`). :func:`load_params` checks everything but the
learner blocks, the discretizer options and the options of the synthetic checks: the params stage checks those
with the classes and modules that read them, which a train stage must not import. Data-set names are checked
against the catalogue by the prepare stage (:mod:`nbx.data.catalogue`), so this module does not import it
(train stages depend on this file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from nbx.core import names
from nbx.core.errors import NbxError, did_you_mean
from nbx.core.names import is_name
from nbx.data.local import LOCAL_DIR, in_local_dir
from nbx.data.yaml_io import key_lines, load_yaml, located, read_yaml_text, unknown_key, yaml_error_at
from nbx.protocol.spec import IMPUTE, BlockError
from nbx.protocol.spec import check_protocol as check_protocol_block

PARAMS_FILE = Path("params.yaml")
TOP_KEYS = ("seed", "data", "experiments", "learners", "analyses")
DATA_KEYS = ("catalogues",)


class ConfigError(NbxError, ValueError):
    """params.yaml names something that does not exist or is malformed."""


class Params(dict):
    """The parsed params file, which also knows the line of every key (for error messages)."""

    def __init__(self, data: dict, path: Path, lines: dict[tuple, int]):
        super().__init__(data)
        self.path = Path(path)
        self._lines = lines

    def at(self, *keys) -> str:
        """``params.yaml:LINE`` of a key path (the line of the deepest key that exists; no line when none does)."""
        return located(self.path, self._lines, keys)

    def where(self, *keys) -> str:
        """``params.yaml:LINE: a.b.c`` for a key path."""
        return f"{self.at(*keys)}: {'.'.join(map(str, keys))}"

    def error(self, keys: tuple, message: str) -> ConfigError:
        return ConfigError(f"{self.where(*keys)}: {message}")

    def unknown_key(self, keys: tuple, known, of: str = "") -> ConfigError:
        """``params.yaml:LINE: key 'k' is not a known key of a.b; did you mean ...?`` for the key path a.b.k."""
        return ConfigError(
            f"{self.at(*keys)}: {unknown_key(keys[-1], known, of or '.'.join(map(str, keys[:-1])) or 'the top level')}"
        )

    def closed(self, keys: tuple, block: dict, known) -> None:
        """The first key of ``block`` (at ``keys``) that is not in ``known`` is an error."""
        for key in block:
            if key not in known:
                raise self.unknown_key(keys + (key,), known)


def load_params(path: Path | str = PARAMS_FILE) -> Params:
    """params.yaml, checked (see the module docstring): every stage and the ``nbx`` command read it here, so a
    mistake stops any of them with the same line."""
    path = Path(path)
    try:
        data, node = load_yaml(read_yaml_text(path))
        lines = key_lines(node)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}; run from the repository root") from None
    except yaml.YAMLError as exc:
        raise ConfigError(yaml_error_at(path, exc)) from None
    params = Params(data if isinstance(data, dict) else {}, path, lines)
    params.closed((), params, TOP_KEYS)
    for key in ("seed", "experiments", "learners"):
        if key not in params:
            raise ConfigError(f"{path}: missing top-level key {key!r}")
    seed = params["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise params.error(("seed",), f"{seed!r} must be a non-negative integer")
    for key in ("experiments", "learners"):
        if not isinstance(params[key], dict) or not params[key]:
            raise params.error((key,), "must be a non-empty mapping")
        for name in params[key]:
            check_name(params, (key, name), name, key[:-1])
    check_data(params)
    for name in params["experiments"]:
        experiment(params, name)
    check_analyses(params)
    return params


def check_data(params: Params) -> None:
    """The ``data`` block: ``catalogues``, a list of catalogue files (read by the prepare stage)."""
    block = params.get("data")
    if block is None:
        return
    if not isinstance(block, dict):
        raise params.error(("data",), f"{block!r} must be a mapping with the key catalogues")
    params.closed(("data",), block, DATA_KEYS)
    files = block.get("catalogues")
    if files is not None and (not isinstance(files, list) or not all(isinstance(f, str) for f in files)):
        raise params.error(("data", "catalogues"), f"{files!r} must be a list of catalogue files")
    for i, path in enumerate(files or []):
        if not in_local_dir(path):  # a dependency of prepare by content (nbx.data.local)
            raise params.error(("data", "catalogues", i), f"{path!r} must be a file under {LOCAL_DIR}/")


def check_name(params: Params, keys: tuple, name, what: str) -> str:
    """``name`` if it is a valid name (:data:`nbx.core.names.NAME`), else a ConfigError at ``keys``."""
    if not is_name(name):  # names become paths and DVC keys (nbx.core.names)
        raise params.error(keys, f"{name!r} is not a valid {what} name: {names.RULE}")
    return name


def check_analyses(params: Params) -> None:
    """The ``analyses`` block: experiment name -> the options of its synthetic checks (a mapping, read by
    ``nbx.papers.<experiment>.checks``)."""
    block = params.get("analyses")
    if block is None:
        return
    if not isinstance(block, dict):
        raise params.error(("analyses",), f"{block!r} must be a mapping experiment -> options")
    params.closed(("analyses",), block, params["experiments"])
    for name, options in block.items():
        if not isinstance(options, dict):
            raise params.error(("analyses", name), f"{options!r} must be a mapping ({{}} for none)")


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
    full: bool = False  # protocol.full: the full protocol in effect (protocol with full_protocol's keys, no limits)
    full_protocol: dict = field(default_factory=dict)  # protocol.full_protocol: the keys full: true overrides

    def runs_on(self, learner: str, rows: int, attributes: int, classes: int) -> bool:
        """Whether ``learner`` runs on a data set of this size: always, unless the experiment's ``limited`` block
        names it (and ``protocol.full`` does not lift it); then only within that block's ``max_rows``,
        ``max_attributes`` and ``max_classes``."""
        limit = self.limited.get(learner)
        return limit is None or (
            rows <= limit["rows"] and attributes <= limit["attributes"] and classes <= limit["classes"]
        )


def _int(params: Params, keys: tuple, value, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise params.error(keys, f"{value!r} must be an integer >= {low}")
    return value


def block_error(params: Params, holder: tuple, exc: BlockError) -> ConfigError:
    """``exc`` at the line and key of params.yaml it is about; its ``keys`` start below ``holder``
    (``experiments.<name>`` for a protocol, whose keys start with ``protocol``; ``learners.<name>`` for a learner
    block; ``experiments.<name>.discretizer`` for a discretizer's options)."""
    keys = holder + exc.keys
    if exc.known is not None:
        return params.unknown_key(keys, exc.known, ".".join(map(str, keys[:-1])) + exc.of)
    return params.error(keys, exc.message)


FULL_KEYS = ("full", "full_protocol")  # a protocol block's own keys beyond nbx.protocol.spec's


def check_protocol(params: Params, name: str, protocol) -> tuple[dict, bool, dict]:
    """The resampling protocol block as (the protocol in effect, ``full``, ``full_protocol``), each protocol checked
    by :func:`nbx.protocol.spec.check_protocol`. Besides the protocol's keys the block may hold ``full`` (true or
    false, default false) and ``full_protocol`` (protocol keys that override the block's own when ``full`` is true,
    e.g. ``{repeats: 3}``): an experiment's full protocol is one switch away (``dvc exp run -S
    experiments.NAME.protocol.full=true``), its values stand in params.yaml beside the switch, and both are inside
    ``protocol``, the one key of the experiment the split stage declares (dvc.yaml). ``full: true`` also lifts the
    experiment's ``limited`` block (:func:`experiment`). ``full_protocol`` is checked whatever ``full`` says, so a
    mistake in it stops the pipeline before anyone flips the switch."""
    holder = ("experiments", name)
    base = {k: v for k, v in protocol.items() if k not in FULL_KEYS} if isinstance(protocol, dict) else protocol
    try:
        check_protocol_block(base)
    except BlockError as exc:
        if exc.known is not None and len(exc.keys) == 2:  # an unknown key of the block: FULL_KEYS are known too
            exc = BlockError(exc.keys, exc.message, exc.known + FULL_KEYS, exc.of)
        raise block_error(params, holder, exc) from None
    full = protocol.get("full", False)
    if not isinstance(full, bool):
        raise params.error(holder + ("protocol", "full"), f"{full!r} must be true or false")
    overrides = protocol.get("full_protocol")
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, dict):
        raise params.error(
            holder + ("protocol", "full_protocol"), f"{overrides!r} must be a mapping of protocol keys ({{}} for none)"
        )
    merged = {**base, **overrides}
    try:
        check_protocol_block(merged)
    except BlockError as exc:
        raise block_error(params, holder, full_protocol_error(exc, overrides)) from None
    return (merged if full else base), full, dict(overrides)


def full_protocol_error(exc: BlockError, overrides: dict) -> BlockError:
    """``exc``, raised on a protocol with ``overrides`` (a ``full_protocol``) applied, at the key of
    ``full_protocol`` its value came from when it came from there."""
    if len(exc.keys) < 2 or exc.keys[0] != "protocol" or exc.keys[1] not in overrides:
        return exc
    return BlockError(("protocol", "full_protocol", *exc.keys[1:]), exc.message, exc.known, exc.of)


def protocol_error(params: Params, exp: Experiment, exc: BlockError) -> ConfigError:
    """A :class:`BlockError` about ``exp``'s protocol in effect (e.g. more folds than a data set has rows, found by
    :func:`nbx.protocol.splits.make_plan`) at the params.yaml key its value came from."""
    return block_error(
        params, ("experiments", exp.name), full_protocol_error(exc, exp.full_protocol if exp.full else {})
    )


def experiment(params: Params, name: str) -> Experiment:
    params = as_params(params)
    blocks = params["experiments"]
    if name not in blocks:
        raise params.error(("experiments",), f"unknown experiment {name!r}{did_you_mean(name, blocks)}")
    block = blocks[name]
    keys = ("experiments", name)
    if not isinstance(block, dict):
        raise params.error(keys, "must be a mapping")
    params.closed(keys, block, EXPERIMENT_KEYS)
    for key in ("datasets", "protocol", "discretizer", "learners"):
        if key not in block:
            raise params.error(keys, f"missing key {key!r}")
    title = block.get("title", name)
    if not isinstance(title, str):
        raise params.error(keys + ("title",), f"{title!r} must be a string")
    datasets = block["datasets"]
    if isinstance(datasets, list):
        _names(params, keys + ("datasets",), datasets, "data set")
        for i, ds in enumerate(datasets):  # at the item's line (its name is no key of the file)
            check_name(params, keys + ("datasets", i), ds, "data set")
        datasets = {d: d for d in datasets}
    if not isinstance(datasets, dict) or not datasets:
        raise params.error(keys + ("datasets",), "must be a non-empty list or mapping")
    for paper_name, ds in datasets.items():
        if not isinstance(ds, str):
            raise params.error(keys + ("datasets", paper_name), f"{ds!r} must be a data set name of the catalogue")
        check_name(params, keys + ("datasets", paper_name), ds, "data set")
    learners = block["learners"]
    if not isinstance(learners, list) or not learners:
        raise params.error(keys + ("learners",), "must be a non-empty list of learner names")
    _names(params, keys + ("learners",), learners, "learner")
    for i, learner in enumerate(learners):
        if learner not in params["learners"]:
            raise params.error(
                keys + ("learners", i), f"unknown learner {learner!r}{did_you_mean(learner, params['learners'])}"
            )
    impute = block.get("impute")
    if impute not in IMPUTE:
        raise params.error(keys + ("impute",), f"{impute!r} must be one of {IMPUTE} (null = none)")
    discretizer = block["discretizer"]
    if isinstance(discretizer, str):
        discretizer = {"kind": discretizer}
    if not isinstance(discretizer, dict) or "kind" not in discretizer:
        raise params.error(keys + ("discretizer",), f"{discretizer!r} must be a mapping with a 'kind'")
    reference = block.get("reference", learners[0])
    if reference not in learners:
        raise params.error(
            keys + ("reference",),
            f"{reference!r} is not one of the experiment's learners{did_you_mean(reference, learners)}",
        )
    protocol, full, full_protocol = check_protocol(params, name, block["protocol"])
    limited = check_limited(params, name, learners, reference)  # checked also when full: true lifts it
    return Experiment(
        name,
        title,
        {str(k): str(v) for k, v in datasets.items()},
        protocol,
        discretizer,
        impute,
        list(learners),
        check_published(params, name),
        reference,
        {} if full else limited,
        full,
        full_protocol,
    )


def _names(params: Params, keys: tuple, names: list, what: str) -> None:
    """A list of names (strings), each once."""
    first: dict = {}
    for i, item in enumerate(names):
        if not isinstance(item, str):
            raise params.error(keys + (i,), f"{item!r} must be a {what} name")
        if item in first:
            raise params.error(keys + (i,), f"{what} {item!r} is listed twice (also item {first[item]})")
        first[item] = i


def check_published(params: Params, name: str) -> list[dict]:
    """The experiment's ``published`` list: ``{table: FILE.csv, metric: NAME, columns: {learner: column}}`` per
    table of the paper (:func:`nbx.report.published.published_accuracy` reads them and checks ``metric``)."""
    specs = params["experiments"][name].get("published") or []
    keys = ("experiments", name, "published")
    if not isinstance(specs, list):
        raise params.error(keys, f"{specs!r} must be a list of {{table, metric, columns}} mappings")
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict):
            raise params.error(keys + (i,), f"{spec!r} must be a mapping with the keys {', '.join(PUBLISHED_KEYS)}")
        params.closed(keys + (i,), spec, PUBLISHED_KEYS)
        for key in ("table", "metric"):
            if not isinstance(spec.get(key), str):
                raise params.error(keys + (i, key), f"{spec.get(key)!r} must be a string")
        columns = spec.get("columns") or {}
        if not isinstance(columns, dict):
            raise params.error(keys + (i, "columns"), f"{columns!r} must be a mapping learner -> column")
        # the learners are not checked: a trimmed experiment (or params file) keeps its paper's columns, and a
        # learner it does not run has no numbers beside them
        for learner, column in columns.items():
            if not isinstance(column, str):
                raise params.error(keys + (i, "columns", learner), f"{column!r} must be a column name")
    return list(specs)


EXPERIMENT_KEYS = (
    "title",
    "datasets",
    "protocol",
    "discretizer",
    "impute",
    "learners",
    "reference",
    "limited",
    "published",
)
PUBLISHED_KEYS = ("table", "metric", "columns")
LIMITS = ("max_rows", "max_attributes", "max_classes")


def check_limited(params: Params, name: str, learners: list[str], reference: str) -> dict:
    """The experiment's ``limited`` block, {learners: [...], and any of max_rows, max_attributes, max_classes}:
    learners that run only on the data sets within those sizes (a time budget), as learner -> {rows,
    attributes, classes} (a missing limit is no limit)."""
    block = params["experiments"][name].get("limited")
    keys = ("experiments", name, "limited")
    if block is None:
        return {}
    if isinstance(block, dict):
        params.closed(keys, block, ("learners", *LIMITS))
    if not isinstance(block, dict) or "learners" not in block or not set(block) & set(LIMITS):
        raise params.error(keys, f"must be a mapping with the key learners and one or more of {', '.join(LIMITS)}")
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
