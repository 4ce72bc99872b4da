"""Synthetic checks some claims need beyond the data-set tables (DVC stage ``analyse@<experiment>``).

Each check is a function ``run(block: dict, seed: int) -> dict`` taking the experiment's ``analyses.<name>``
params block; its JSON-able result is written to ``data/analysis/<experiment>.json`` and read by that
experiment's report.
"""
from __future__ import annotations

import importlib

CHECKS = {  # experiment -> module:function
    "wiering2003": "nbx.analysis.hm_loading:run",        # W1: XOR and 4-bit parity loading
    "lee2006": "nbx.analysis.variance_check:run",        # L7: analytic vs Monte Carlo response variance
    "ting2003": "nbx.analysis.linear_form_check:run",    # T5: boosted NB is linear in log-odds terms
}


def run_check(name: str, block: dict, seed: int) -> dict:
    module, _, fn = CHECKS[name].partition(":")
    return getattr(importlib.import_module(module), fn)(block, seed)
