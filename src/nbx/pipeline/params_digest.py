"""Stage params: split params.yaml into one small JSON file per thing a stage depends on, under data/params/.

DVC re-reads and re-parses the whole params file for every stage that declares params, which made a no-op
``dvc status`` of ~200 stages cost seconds. Instead this one stage declares the params, and every other stage
depends on exactly the slice it reads (a file DVC checks by its hash): editing one learner's block changes
one file, so only that learner's cells run again, and ``dvc params diff`` still shows every change.

The params stage runs before every other stage, so it first builds every learner block
(:func:`~nbx.pipeline.learners.check_learners`), every experiment's discretizer (:func:`check_discretizer`) and
the keys of every ``analyses`` block (:func:`nbx.pipeline.analyse.options`); the rest of params.yaml is checked
when it is loaded (:func:`nbx.pipeline.config.load_params`): a bad hyperparameter stops ``dvc repro`` with its
line of params.yaml before any data is read. Learner and checks modules are imported by name, so this stage's
code digest does not list them (a train cell's and an analyse stage's digests do, and they check their own
block again).

The slices are fingerprints for DVC: stages still read params.yaml itself, which the params stage has just
sliced in the same ``dvc repro``. Files: ``learners/<name>.json`` (the block and the seed), and per
experiment ``experiments/<exp>/``
``prepare.json`` (datasets, catalogues), ``split.json`` (seed, protocol), ``discretize.json`` (discretizer,
impute), ``impute.json``, ``analyse.json`` (seed, analyses block), ``evaluate.json`` (the experiment block) and
``report.json`` (seed, the experiment block).
"""

from __future__ import annotations

from nbx.core.errors import did_you_mean
from nbx.core.io import write_json
from nbx.discretize import KINDS, make_discretizer
from nbx.pipeline import analyse, config, layout, learners
from nbx.protocol.spec import BlockError


def check_discretizer(params: config.Params, name: str) -> None:
    """The experiment's ``discretizer`` block: a ``kind`` of :data:`nbx.discretize.KINDS` and that class's
    parameters, checked by the class's ``_parameter_constraints``. Not ``n_values``: the discretize stage sets
    it from the data (:func:`nbx.protocol.folds.discretize_splits`)."""
    block = config.experiment(params, name).discretizer
    keys = ("experiments", name, "discretizer")
    kind = block["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise params.error(keys + ("kind",), f"{kind!r} must be one of {', '.join(KINDS)}{did_you_mean(kind, KINDS)}")
    params.closed(keys, block, ["kind", *(p for p in KINDS[kind]._param_names() if p != "n_values")])
    try:
        learners.checked(make_discretizer(block))
    except BlockError as exc:
        raise config.block_error(params, keys, exc) from None


def slices(params: config.Params) -> dict[str, object]:
    """Relative path under data/params/ -> JSON-able content."""
    seed = params["seed"]
    out: dict[str, object] = {
        f"learners/{name}.json": {"seed": seed, "block": block} for name, block in params["learners"].items()
    }
    catalogues = (params.get("data") or {}).get("catalogues") or []
    for name, block in params["experiments"].items():
        base = f"experiments/{name}"
        out[f"{base}/prepare.json"] = {"datasets": block.get("datasets"), "catalogues": catalogues}
        out[f"{base}/split.json"] = {"seed": seed, "protocol": block.get("protocol")}
        out[f"{base}/discretize.json"] = {"discretizer": block.get("discretizer"), "impute": block.get("impute")}
        out[f"{base}/impute.json"] = {"impute": block.get("impute")}
        out[f"{base}/analyse.json"] = {"seed": seed, "analyses": (params.get("analyses") or {}).get(name)}
        out[f"{base}/evaluate.json"] = {"experiment": block}
        out[f"{base}/report.json"] = {"seed": seed, "experiment": block}
    return out


def params_digest(params: config.Params) -> None:
    learners.check_learners(params)
    for name in params["experiments"]:
        check_discretizer(params, name)
        analyse.options(params, name)
    for path, content in slices(params).items():
        write_json(layout.PARAMS / path, content)
