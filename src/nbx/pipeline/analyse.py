"""Stage analyse@<experiment>: the synthetic checks some claims need beyond the data-set tables, and the model fits
a report needs beyond the train stage's, written to ``data/analysis/<experiment>.json`` ({} when the experiment has
none, so every report stage has the same inputs): the report stage fits no model.

An experiment's checks are found by name: ``nbx.papers.<experiment>.checks.run(block, seed) -> dict``, given the
experiment's ``analyses.<experiment>`` params block resolved against the module's ``OPTIONS``
(:mod:`nbx.protocol.options`; none without a module); the report of that experiment reads the result. Optionally the
module also has ``refits(block, params, experiment) -> dict``, fits on the experiment's prepared data and splits
merged into the result (dvc.yaml gives the stage those and the experiment's datasets, discretizer and impute; the
learner blocks it reads, its ``LEARNERS``, are in the stage's code digest), and ``check(block, params)``, which
checks what the options cannot say alone (a :class:`~nbx.protocol.spec.BlockError` inside the block) wherever
params.yaml is checked.
"""

from __future__ import annotations

import importlib
import importlib.util

from nbx.core.io import write_json
from nbx.pipeline import config, layout
from nbx.protocol.options import resolve
from nbx.protocol.spec import BlockError


def checks_module(name: str) -> str | None:
    """The dotted name of an experiment's checks module, None when it has none."""
    module = f"nbx.papers.{name}.checks"
    try:
        return module if importlib.util.find_spec(module) is not None else None
    except ModuleNotFoundError:  # no nbx.papers.<name> package at all
        return None


def options(params: config.Params, name: str) -> tuple[dict, object]:
    """(the experiment's ``analyses`` block with every option of its checks module, defaults filled in; the module
    or None). A key the module does not declare or a value of the wrong kind is an error at its line of
    params.yaml (the code stage checks every experiment's block this way)."""
    config.experiment(params, name)  # an unknown experiment is an error
    block = (params.get("analyses") or {}).get(name) or {}
    module = checks_module(name)
    checks = importlib.import_module(module) if module else None
    try:
        block = resolve(checks.OPTIONS if checks else {}, block)
        if hasattr(checks, "check"):
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
