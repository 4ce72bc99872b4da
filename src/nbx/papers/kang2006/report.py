"""Kang & Tian (2006): the report's wiring (:mod:`nbx.report.paper`): its sections in order, its claims and its gap
diagnoses; what the paper did and the readings are in the package docstring."""

from nbx.papers.kang2006.claims import judge_k1, judge_k2, judge_k3
from nbx.papers.kang2006.gaps import GAPS, published_numbers
from nbx.papers.kang2006.sections import notes_section, table1_section, wilcoxon_section, work_section

SECTIONS = [table1_section, wilcoxon_section, work_section, notes_section, "claims"]
PUBLISHED_NUMBERS = published_numbers
CLAIMS = {"K1": judge_k1, "K2": judge_k2, "K3": judge_k3}

__all__ = ["CLAIMS", "GAPS", "PUBLISHED_NUMBERS", "SECTIONS"]
