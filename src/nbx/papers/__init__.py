"""One folder per experiment, found by name (``nbx.papers.<experiment>``):

- ``report.py``: ``sections(ctx) -> markdown lines`` of the paper's tables and claims (optionally ``plots``);
- ``checks.py``: ``run(block, seed) -> dict``, the synthetic checks its claims need (stage ``analyse``);
- ``published/``: the paper's tables as CSV and ``claims.md``, the claims its report must judge.

An experiment without a folder gets the generic report (:mod:`nbx.report.experiment_report`).
"""
