"""Stage analyse@<experiment>: the synthetic checks some claims need beyond the data-set tables, and the model fits
a report needs beyond the train stage's, written to ``data/analysis/<experiment>.json`` ({} when the experiment has
none, so every report stage has the same inputs): the report stage fits no model.

An experiment's checks are found by name: ``nbx.papers.<experiment>.checks.run(block, seed) -> dict``, given the
experiment's ``analyses.<experiment>`` params block, whose keys are the module's ``OPTIONS`` (none without a
module); the report of that experiment reads the result. Optionally the module also has
``refits(block, params, experiment) -> dict``, fits on the experiment's prepared data and splits merged into the
result (dvc.yaml gives the stage those and the experiment's datasets, discretizer and impute; a refit's learner
block is written in the analyses block, so that the lock holds no learner block), and ``check(block, params)``,
which checks the block's values (a :class:`~nbx.protocol.spec.BlockError` at a key inside the block) wherever
params.yaml is checked.
"""

from __future__ import annotations

import importlib
import importlib.util

from nbx.core.io import write_json
from nbx.pipeline import config, layout
from nbx.protocol.spec import BlockError


def checks_module(name: str) -> str | None:
    """The dotted name of an experiment's checks module, None when it has none."""
    module = f"nbx.papers.{name}.checks"
    try:
        return module if importlib.util.find_spec(module) is not None else None
    except ModuleNotFoundError:  # no nbx.papers.<name> package at all
        return None


def options(params: config.Params, name: str) -> tuple[dict, object]:
    """(the experiment's ``analyses`` block, its checks module or None); a key the module does not read is an
    error at its line of params.yaml (the params stage checks every experiment's block this way)."""
    config.experiment(params, name)  # an unknown experiment is an error
    block = (params.get("analyses") or {}).get(name) or {}
    module = checks_module(name)
    checks = importlib.import_module(module) if module else None
    params.closed(("analyses", name), block, checks.OPTIONS if checks else ())
    if hasattr(checks, "check"):
        try:
            checks.check(block, params)
        except BlockError as exc:
            raise config.block_error(params, ("analyses", name), exc) from None
    return block, checks


def analyse(params: config.Params, name: str) -> None:
    block, checks = options(params, name)
    out = checks.run(block, params["seed"]) if checks else {}
    if hasattr(checks, "refits"):
        out = {**out, **checks.refits(block, params, name)}
    write_json(layout.analysis(name), out)
