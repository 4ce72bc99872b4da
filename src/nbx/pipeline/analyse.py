"""Stage analyse@<experiment>: the synthetic checks some claims need beyond the data-set tables, written to
``data/analysis/<experiment>.json`` ({} when the experiment has none, so every report stage has the same inputs).

An experiment's checks are found by name: ``nbx.papers.<experiment>.checks.run(block, seed) -> dict``, given the
experiment's ``analyses.<experiment>`` params block; the report of that experiment reads the result.
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


def analyse(params: config.Params, name: str) -> None:
    config.experiment(params, name)  # an unknown experiment is an error
    block = (params.get("analyses") or {}).get(name) or {}
    module = checks_module(name)
    write_json(layout.analysis(name), importlib.import_module(module).run(block, params["seed"]) if module else {})
