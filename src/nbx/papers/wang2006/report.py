"""Wang et al. (2006): the report's wiring (:mod:`nbx.report.paper`): its sections in order, its claims and its gap
diagnoses; what the paper did and the readings are in the package docstring."""

from nbx.papers.wang2006.claims import s1, s2, s3
from nbx.papers.wang2006.gaps import GAPS, published_numbers
from nbx.papers.wang2006.sections import readings_section, reference_section, s1_section, s3_section, table1_section
from nbx.report.paper import CLAIMS_SECTION

SECTIONS = [table1_section, reference_section, readings_section, s1_section, s3_section, CLAIMS_SECTION]
PUBLISHED_NUMBERS = published_numbers
CLAIMS = {"S1": s1, "S2": s2, "S3": s3}

__all__ = ["CLAIMS", "GAPS", "PUBLISHED_NUMBERS", "SECTIONS"]
