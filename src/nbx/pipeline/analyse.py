"""Stage analyse@<experiment>: the synthetic checks some claims need (params.yaml ``analyses.<experiment>``,
see :mod:`nbx.analysis.paper_checks`), written to ``data/analysis/<experiment>.json`` ({} when the
experiment has none, so every report stage has the same inputs)."""
from __future__ import annotations

from .. import config, layout
from ..io import write_json


def analyse(params: config.Params, name: str) -> None:
    from ..analysis.paper_checks import CHECKS, run_check
    config.experiment(params, name)  # an unknown experiment is an error
    block = (params.get("analyses") or {}).get(name) or {}
    write_json(layout.analysis(name), run_check(name, block, params["seed"]) if name in CHECKS else {})
