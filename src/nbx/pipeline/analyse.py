"""Stage analyse@<experiment>: the synthetic checks some claims need beyond the data-set tables, written to
``data/analysis/<experiment>.json`` ({} when the experiment has none, so every report stage has the same inputs).

An experiment's checks are found by name: ``nbx.papers.<experiment>.checks.run(block, seed) -> dict``, given the
experiment's ``analyses.<experiment>`` params block resolved against the module's ``OPTIONS``
(:mod:`nbx.protocol.options`; none without a module); the report of that experiment reads the result.
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
        return resolve(checks.OPTIONS if checks else {}, block), checks
    except BlockError as exc:
        raise config.block_error(params, ("analyses", name), exc) from None


def analyse(params: config.Params, name: str) -> None:
    block, checks = options(params, name)
    write_json(layout.analysis(name), checks.run(block, params["seed"]) if checks else {})
