"""One folder per experiment, found by name (``nbx.papers.<experiment>``):

- ``report.py``: the paper's sections and claims under the contract of :mod:`nbx.report.paper`;
- ``checks.py``: ``run(block, seed) -> dict``, the synthetic checks its claims need (stage ``analyse``);
- ``published/``: the paper's tables as CSV, ``claims.md`` (the claims its report must judge) and
  ``paper.yaml`` (display names, learner lists and the numbers its text states).

An experiment without a folder gets the generic report (:mod:`nbx.report.experiment_report`).
"""
