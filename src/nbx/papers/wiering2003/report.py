"""Wiering (2003): the report's wiring (:mod:`nbx.report.paper`): its sections in order, its claims and its gap
diagnoses; the protocol and the claims' stated parts are in the package docstring."""

from nbx.papers.wiering2003.claims import w1, w2, w3, w4, w5, w6
from nbx.papers.wiering2003.evidence import NOT_COMPARABLE
from nbx.papers.wiering2003.gaps import GAPS, published_numbers
from nbx.papers.wiering2003.sections import (
    classes_section,
    denominator_section,
    parity_section,
    phantom_section,
    summary_section,
    table2_section,
)
from nbx.report.paper import CLAIMS_SECTION

SECTIONS = [
    table2_section,
    summary_section,
    denominator_section,
    phantom_section,
    classes_section,
    parity_section,
    CLAIMS_SECTION,
]
PUBLISHED_NUMBERS = published_numbers
CLAIMS = {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": w6}

__all__ = ["CLAIMS", "GAPS", "NOT_COMPARABLE", "PUBLISHED_NUMBERS", "SECTIONS"]
