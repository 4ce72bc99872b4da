"""Stage analyse@<experiment>: the synthetic checks some claims need beyond the data-set tables, written to
``data/analysis/<experiment>.json`` ({} when the experiment has none, so every report stage has the same inputs).

An experiment's checks are found by name: ``nbx.papers.<experiment>.checks.run(block, seed) -> dict``, given the
experiment's ``analyses.<experiment>`` params block, whose keys are the module's ``OPTIONS`` (none without a
module); the report of that experiment reads the result.
"""

from __future__ import annotations

import importlib
import importlib.util

from nbx.core.io import write_json
from nbx.pipeline import config, layout


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
    return block, checks


def analyse(params: config.Params, name: str) -> None:
    block, checks = options(params, name)
    write_json(layout.analysis(name), checks.run(block, params["seed"]) if checks else {})
