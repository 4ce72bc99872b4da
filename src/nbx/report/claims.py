"""Published claims (``nbx/papers/<experiment>/published/claims.md``) and our verdict on each, with the evidence.

Every claim is judged by one rubric (README, "Reading the results"), applied by :func:`rubric`: a claim is a list
of its stated :class:`Part` s, each *holds*, *direction only*, *fails* or *not testable* (with the reason), per
reading of the paper where readings matter. A part is one of four kinds, each with its one status function:

- the paper's own test (:func:`paper_test_status`): run as the paper ran it (its test, its sidedness, its data),
  it holds when it agrees with the paper's statement (same direction and the stated significance); the same
  direction with the other significance is *direction only*;
- a count or a win:loss record, "k out of n" (:func:`count_status`): ONE part, holding when it equals the
  paper's exactly (whole numbers have no precision to be within);
- a statement the paper supports with no test (:func:`direction_status`): holds on its direction, over the
  sentence's full scope (every data set it covers, named or not);
- a number the paper states (:func:`number_status`): within its printed precision or 2 std of our estimate.

Every part holds -> reproduced; at least one holds -> partly reproduced (the rationale names the others); none
holds -> not reproduced ("direction only" alone is not partly); no part testable -> not testable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from nbx.report.published import PAPERS

REPRODUCED, NOT_REPRODUCED, PARTLY, NOT_TESTABLE = "reproduced", "not reproduced", "partly reproduced", "not testable"
HOLDS, DIRECTION, FAILS, UNTESTABLE = "holds", "direction only", "fails", "not testable"
STATUSES = (HOLDS, DIRECTION, FAILS, UNTESTABLE)


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
    verdict: str  # one of the four constants above (under the default reading where there are several)
    evidence: str  # markdown: our numbers and the reason for the verdict
    readings: dict[str, str] = field(default_factory=dict)  # reading -> verdict, when the verdict depends on one


@dataclass(frozen=True)
class Part:
    """One stated part of a claim: its name, its status (one of :data:`STATUSES`, or reading -> status where the
    paper's text allows several readings) and, for a part that is not testable, the reason."""

    name: str
    status: str | dict[str, str]
    reason: str = ""

    def __post_init__(self):
        statuses = self.status.values() if isinstance(self.status, dict) else [self.status]
        bad = [s for s in statuses if s not in STATUSES]
        if bad:
            raise ValueError(f"part {self.name!r}: status {bad[0]!r} is not one of {', '.join(STATUSES)}")

    def under(self, reading: str | None) -> str:
        """The status under ``reading``: a part without readings, or without this one (a reading of another point
        of the paper), has its default status (the first) under it."""
        if not isinstance(self.status, dict):
            return self.status
        return self.status.get(reading, next(iter(self.status.values())))


def readings_of(parts: list[Part]) -> list[str]:
    """The readings the parts distinguish, in the order first met (the first is the default); [] when none."""
    return list(dict.fromkeys(r for p in parts if isinstance(p.status, dict) for r in p.status))


def rubric(parts: list[Part], reading: str | None = None) -> tuple[str, str]:
    """The verdict word and a one-line rationale naming the parts that do not hold, under ``reading`` (None: the
    default, the first reading a part names)."""
    statuses = [(p, p.under(reading)) for p in parts]
    testable = [(p, s) for p, s in statuses if s != UNTESTABLE]
    held = [p.name for p, s in testable if s == HOLDS]
    others = "; ".join(
        f"{p.name} ({s}{': ' + p.reason if s == UNTESTABLE and p.reason else ''})" for p, s in statuses if s != HOLDS
    )
    if not testable:
        return NOT_TESTABLE, f"no part is testable: {others}" if parts else "the claim has no testable part"
    if len(held) == len(parts):
        return REPRODUCED, "every stated part holds" if len(parts) > 1 else "its one stated part holds"
    if held:
        return PARTLY, f"holds: {'; '.join(held)}; does not hold: {others}"
    return NOT_REPRODUCED, f"no stated part holds: {others}"


def judge(claim: str, parts: list[Part] | dict[str, list[Part]], evidence: str, because: str = "") -> Verdict:
    """The claim's :class:`Verdict` by :func:`rubric`, under each reading when a part depends on one; the
    rationale (with ``because``, what the evidence says about why, when given) is appended to ``evidence``.
    ``parts`` may also be reading -> that reading's parts (the first the default), where the reading changes the
    sentence's scope and so which parts there are (Wiering's W5: the data sets where boosting beats NBC)."""
    if isinstance(parts, dict):
        per_reading = parts
        readings = list(per_reading)
    else:
        readings = readings_of(parts)
        per_reading = dict.fromkeys(readings, parts)
    tail = f" {because}" if because else ""
    if len(readings) < 2:  # no reading, or only the default ran
        word, why = rubric(per_reading[readings[0]] if isinstance(parts, dict) and readings else parts)
        return Verdict(claim, word, f"{evidence}\n\nRubric: {why}.{tail}")
    judged = {r: rubric(per_reading[r], r) for r in readings}
    lines = "\n".join(f"- reading *{r}*: **{w}** — {why}." for r, (w, why) in judged.items())
    lines += f"\n\n{because}" if because else ""
    return Verdict(
        claim,
        judged[readings[0]][0],
        f"{evidence}\n\nRubric, per reading:\n{lines}",
        {r: w for r, (w, _) in judged.items()},
    )


def missing(claim: str, *learners: str) -> Verdict:
    """The verdict when the learners a claim needs were not run (e.g. a reduced params file)."""
    return Verdict(claim, NOT_TESTABLE, f"learner(s) {', '.join(f'`{x}`' for x in learners)} not in this run.")


def paper_test_status(diff: float, p: float, alpha: float = 0.05, significant: bool = True) -> str:
    """A part with the paper's own test, run as the paper ran it (the caller computes ``p`` by the paper's test,
    with its sidedness): ``diff`` > 0 is the paper's direction. Where the paper states a significant difference
    (``significant``), holds when p < ``alpha``, *direction only* when not; where it states a difference that is
    not significant, holds when p >= ``alpha``, *direction only* when significant. The other direction (or no
    difference) fails."""
    if not np.isfinite(diff) or diff <= 0:
        return FAILS
    is_significant = bool(np.isfinite(p) and p < alpha)
    return HOLDS if is_significant == significant else DIRECTION


def count_status(ours, paper) -> str:
    """A count the paper states, or a record (wins:losses, "k out of n" as (k, n)): ONE part, holding when ours
    equals the paper's exactly; not testable when ours is None."""
    if ours is None:
        return UNTESTABLE
    return HOLDS if _record(ours) == _record(paper) else FAILS


def _record(x) -> tuple[int, ...]:
    return tuple(int(v) for v in x) if isinstance(x, (tuple, list)) else (int(x),)


def direction_status(diff, ties_hold: bool = False) -> str:
    """A statement the paper supports with no test: holds on its direction. ``diff`` is ours in the stated
    direction (> 0 agrees), a number or one per unit of the sentence's scope (every data set it covers), all of
    which must agree; with ``ties_hold`` a difference of 0 agrees too (a stated bound, "at least"). Not testable
    without a finite value."""
    d = np.atleast_1d(np.asarray(diff, float))
    if d.size == 0 or not np.isfinite(d).all():
        return UNTESTABLE
    return HOLDS if bool(np.all(d >= 0 if ties_hold else d > 0)) else FAILS


PRINTED_SLACK = 1e-9  # a gap equal to its tolerance in decimals, off by the doubles' rounding, is within


def number_tolerance(precision: float, std: float = float("nan")) -> float:
    """How far ours may lie from a number the paper states: half a unit of its last printed digit
    (``precision`` is that unit) or 2 std of our estimate, whichever is larger."""
    return max(precision / 2, 2.0 * std) if np.isfinite(std) else precision / 2


def within(ours: float, paper: float, tolerance: float) -> bool | None:
    """|ours - paper| <= tolerance (with :data:`PRINTED_SLACK`); None when either number is missing."""
    if not (np.isfinite(ours) and np.isfinite(paper)):
        return None
    return bool(abs(ours - paper) <= tolerance + PRINTED_SLACK)


def number_status(ours: float, paper: float, precision: float, std: float = float("nan")) -> str:
    """A number the paper states: holds within :func:`number_tolerance` of it; fails otherwise."""
    agrees = within(ours, paper, number_tolerance(precision, std))
    return UNTESTABLE if agrees is None else HOLDS if agrees else FAILS


def std_of_mean(per_split: np.ndarray) -> float:
    """The standard deviation of our estimate of a mean over splits, s/√n (NaN splits ignored). The paper ran on
    the same data sets, so what a rerun changes is only which splits are drawn, independently of each other."""
    x = np.asarray(per_split, float)
    x = x[np.isfinite(x)]
    return float(np.std(x, ddof=1) / np.sqrt(x.size)) if x.size >= 2 else float("nan")


def std_of_average(per_split: list[np.ndarray]) -> float:
    """The standard deviation of an average over data sets of per-data-set means over splits (the data sets'
    splits are drawn independently): √(Σ std_of_mean²) / N."""
    var = [std_of_mean(x) ** 2 for x in per_split]
    return float(np.sqrt(np.sum(var)) / len(var)) if var else float("nan")


def render(verdicts: list[Verdict]) -> list[str]:
    texts = claim_texts()
    out = ["## Published claims", "", "| claim | verdict |", "|---|---|"]
    out += [f"| {v.claim} | {cell(v)} |" for v in verdicts]
    out.append("")
    for v in verdicts:
        out += [f"**{v.claim}** — *{texts.get(v.claim, '')}*", "", f"→ **{v.verdict}.** {v.evidence}", ""]
    return out


def cell(v: Verdict) -> str:
    """The claims table's verdict: one word, or the verdict under each reading when they differ."""
    if len(set(v.readings.values())) > 1:
        return "; ".join(f"**{w}** ({r})" for r, w in v.readings.items())
    return f"**{v.verdict}**"
