"""The contract of a paper's report, ``nbx.papers.<experiment>.report`` (found by name):

- ``SECTIONS``: the report's sections in order, each a function ``ctx -> list of markdown lines``; the
  string ``"claims"`` stands where the claims table goes.
- ``CLAIMS``: claim id -> a function ``ctx -> Verdict`` (:class:`nbx.report.claims.Verdict`), in the order of
  the paper's ``published/claims.md``; each lists the claim's stated parts with their status from the evidence
  and returns :func:`nbx.report.claims.judge`'s verdict (the one rubric), with the evidence it rests on.
- optionally ``SHOWS_EVERY_LEARNER = True`` when the sections show every learner of the experiment; otherwise
  the report adds a table of the learners whose accuracies no section read (``ReportContext.shown``): one a
  researcher added to the experiment in params.yaml;
- optionally ``NOT_COMPARABLE``: the paper's data set name -> why our setup does not match the paper's (left out
  of the agreement means, :func:`nbx.report.experiment_report.agreement_section`), and ``GAPS``: the paper's data set
  name -> a function ``ctx -> list of markdown lines`` giving the measured cause of that data set's gap from the
  published numbers, computed from the evidence in ``ctx`` (the agreement section prints it under each of the
  three largest gaps, :func:`nbx.report.experiment_report.gaps_section`).
- optionally ``PUBLISHED_COUNT``: a function ``ctx -> list of markdown lines`` that counts every number the
  paper's tables print (per-domain cells, ratio columns, summary rows) against ours, each with its tolerance; it
  replaces the agreement section's count of the default learners' per-domain cells.

What is data rather than code lives in ``published/`` beside the module (the report stage depends on that
folder): the paper's tables (CSV), its claims (``claims.md``) and ``paper.yaml``, the display names, learner
lists and numbers the paper states in its text, read with :func:`paper_data`. Work that several sections and
claims share is computed once per report with :meth:`nbx.report.context.ReportContext.memo`.
"""

from __future__ import annotations

import functools

import yaml

from nbx.report import claims
from nbx.report.context import ReportContext
from nbx.report.published import PAPERS

CLAIMS_SECTION = "claims"


@functools.cache
def paper_data(experiment: str) -> dict:
    """``nbx/papers/<experiment>/published/paper.yaml`` ({} when the paper has none)."""
    path = PAPERS / experiment / "published" / "paper.yaml"
    return yaml.safe_load(path.read_text()) if path.exists() else {}


def render(module, ctx: ReportContext) -> list[str]:
    """A paper's sections in order, the claims table where ``SECTIONS`` says ``"claims"``."""
    out: list[str] = []
    for section in module.SECTIONS:
        if section == CLAIMS_SECTION:
            out += claims.render([judge(ctx) for judge in module.CLAIMS.values()])
        else:
            out += section(ctx)
    return out
