"""Check all of params.yaml before any data is read: the first thing ``dvc repro`` runs (the code stage,
``stages/code_digest.py``), so a mistake stops the pipeline with one line naming its key and line.

:func:`nbx.pipeline.config.load_params` checks the structure, the names and the experiments; this adds what
needs the classes and modules that read a block: every learner block is built
(:func:`~nbx.pipeline.learners.check_learners`), every experiment's discretizer (:func:`check_discretizer`) and
the options of every ``analyses`` block (:func:`nbx.pipeline.analyse.options`). Learner and checks modules are
imported by name, so the code stage's digest does not list them (a train stage's and an analyse stage's digests
do, and they check their own blocks again).
"""

from __future__ import annotations

from nbx.core.errors import did_you_mean
from nbx.discretize import KINDS, make_discretizer
from nbx.pipeline import analyse, config, learners
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


def check_params(params: config.Params) -> None:
    """Everything the stages will read, and the keys dvc.yaml declares as params (DVC stops a stage whose
    declared key is missing with its own error; this says which line to add)."""
    learners.check_learners(params)
    for name in params["experiments"]:
        if "impute" not in params["experiments"][name]:
            raise params.error(("experiments", name), "missing key 'impute' (write `impute:` for none)")
        if name not in (params.get("analyses") or {}):
            raise params.error(("analyses",), f"missing key {name!r} (write `{name}: {{}}` for no checks)")
        check_discretizer(params, name)
        analyse.options(params, name)
    if "catalogues" not in (params.get("data") or {}):
        raise params.error(("data",), "missing key 'catalogues' (write `data: {catalogues: []}`)")
