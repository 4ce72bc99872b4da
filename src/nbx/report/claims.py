"""Published claims (``nbx/papers/<experiment>/published/claims.md``) and our verdict on each, with the evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nbx.report.published import PAPERS

REPRODUCED, NOT_REPRODUCED, PARTLY, NOT_TESTABLE = "reproduced", "not reproduced", "partly reproduced", "not testable"


def claim_texts() -> dict[str, str]:
    """Claim id (W1, S2, ...) -> the claim as its paper's claims.md words it (ids are unique across papers)."""
    texts = {}
    lines = [line for path in sorted(PAPERS.glob("*/published/claims.md")) for line in path.read_text().splitlines()]
    for line in lines:
        m = re.match(r"- ([A-Z]\d+) (.*)", line)
        if m:
            texts[m.group(1)] = m.group(2)
    return texts


@dataclass
class Verdict:
    claim: str  # id, e.g. "W2"
    verdict: str  # one of the four constants above
    evidence: str  # markdown: our numbers and the reason for the verdict


def missing(claim: str, *learners: str) -> Verdict:
    """The verdict when the learners a claim needs were not run (e.g. a reduced params file)."""
    return Verdict(claim, NOT_TESTABLE, f"learner(s) {', '.join(f'`{x}`' for x in learners)} not in this run.")


def render(verdicts: list[Verdict]) -> list[str]:
    texts = claim_texts()
    out = ["## Published claims", "", "| claim | verdict |", "|---|---|"]
    out += [f"| {v.claim} | **{v.verdict}** |" for v in verdicts]
    out.append("")
    for v in verdicts:
        out += [f"**{v.claim}** — *{texts.get(v.claim, '')}*", "", f"→ **{v.verdict}.** {v.evidence}", ""]
    return out
