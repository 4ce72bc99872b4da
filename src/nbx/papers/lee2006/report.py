"""Lee, Greiner & Wang (2006) §4: figures 2(a)-(d) and 3(a)-(b) as per-data-set tables, scatter plots (PNG,
plus one CSV ``dataset,x,y`` per panel for DVC plots) and pooled one-sided paired t-tests; claims L1-L7.

Pooling. A "situation" is one data set x one base-model setting ξ x one CV fold; both learners of a pair run
on the same folds, so their fold accuracies are paired.

- Fig. 2(a), §4.1 (L1): MUV(ξ, boot,bal, js) vs MUV(ξ, boot,bal, mle), ξ ∈ {2,3,4} x {NB, TAN}: 12 data sets
  x 6 ξ x 5 folds = 360 situations, as the paper; the disj,bal case the same way, reported separately; both
  also over the non-binary data sets alone (IRIS, WAVEFORM: 60), the only ones where eq. 4 can change a
  prediction (see JS_BINARY_NOTE); shown, not counted in the verdict (a subset of the same rows).
- Fig. 2(b), §4.2 (L2): MUV(ξ, boot,bal, js) vs MUV(ξ, disj,bal, js), same ξ: 360.
- Fig. 2(c), §4.3 (L3): MUV(ξ, boot,bal, js) vs the skewed MUV: 360. Default reading (``MUV(skew=
  "per_class")``): one member per class, trained on that class's rows only, because three sentences of §4.3
  describe the method so ("one NB based on the positive instances, and another only on the negatives",
  "splits the data based on the class", "the k here corresponds to the number of classes"), and an explicit
  sentence about the method outranks a caption or a p-value. It has no k, so each of its fold results is
  paired with k = 2, 3 and 4 (it enters three times). Alternative (``skew="sorted"``): k = 2, 3, 4
  class-sorted contiguous parts with the same ξ, which the figure's caption suggests (it averages (c) "over
  all ξ ∈ {2,3,4} x {NB,TAN}" as (a) and (b)); L3 gets a verdict under each reading.
- Fig. 2(d), §4.4 (L4): MUV(kNB, Ada, js) vs AdaBoost(NB) with T = k rounds, k = 2, 3, 4: 180. The paper does
  not give T; §4.6 opens with "the previous sections investigated MUVs built from between 1 and 4 base
  classifiers" and the name MUV(kNB, Ada, js) uses the k of the other MUVs, so T = k is the default; T = 10
  and T = 25 (60 each); L4 gets a verdict under each.
- Fig. 3(a), §4.5 (L5): SumP/V (= ``js``, footnote 6) vs 1NB over the NB-based ξ (k = 2,3,4: 180), vs 1TAN
  over the TAN-based ξ (180), and vs SumVote / MaxProb / SumProb / MinVar over all six ξ with the same
  boot,bal sampling (360 each). The paper does not say how it pooled these; this is our choice.
- Fig. 3(b), §4.6 (L6): MUV[MUV] with js vs each other rule over data sets x folds: 60.

Scatter points: one per data set, each side averaged over its ξ and folds (fig. 2 caption); x is the side the
paper says is worse, y the side it says is better, so points above the diagonal agree with the paper.

Test: one-sided paired t-test (scipy ``ttest_rel``, alternative "greater") of better - worse over the pooled
situations, as the paper did. Pooled folds are not independent (folds of one data set share training rows;
2(c) reuses each skew result three times), so this p is optimistic; beside it we show the same one-sided test
over per-data-set means (n = data sets) and the data sets won:lost, to judge by, not for the verdicts.
MUVs that differ only in their combination rule share their seeds (``seed_as`` in params.yaml), so every
rule combines the same members, as in the paper; MUV(kNB, Ada, js) shares AdaBoost(NB)'s seed and so its
base models.

Verdict rules: the rubric of :mod:`nbx.report.claims` (README, "Reading the results") over each claim's stated
parts. A test part *holds* when our mean difference has the paper's sign and the one-sided p < 0.05; it is
*direction only* when the sign agrees but p >= 0.05 (which alone does not make a claim partly reproduced); it
*fails* when the difference is zero or of the other sign. Whether our p also meets the paper's bound (e.g.
p < 2.3e-5) is shown, not required: a pooled p depends on fold noise and the number of situations as much as
on the effect. Other parts:

- L1 "MUV(3NB,boot,bal,js) better than mle on 5 of 12 sets, never worse": a record (better on, worse on) over
  the data sets' mean fold accuracies, one part, holding when it is the paper's (5, 0) exactly.
- L4 "degrades less on non-binary data (waveform)", no test in the paper: the drop of each learner below 1NB
  (its base model), mean over k (T = k). Holds on its direction over the sentence's scope, MUV(kNB,Ada,js)'s
  drop smaller than AdaBoost(NB)'s on every available data set with more than two classes; else fails.
- L6 "MUV[MUV] is the best, beats the second best MinVar[MUV]": the js-vs-min_var test, plus js having the
  highest average accuracy of the five rules (no test: its direction, holds, else fails).
- L7 (:mod:`nbx.papers.lee2006.checks`, ``data/analysis/lee2006.json``): per structure (NB, TAN), the paper
  states the agreement "asymptotically" with no number or test, so it holds on its direction: the median
  relative error |var_MC - eq. 8| / var_MC is smaller at the largest training size than at the smallest.

Readings (L3: skewed samples by one member per class or class-sorted parts; L4: T = k, 10 or 25 rounds) give
each part a status per reading and the claim a verdict per reading; the default reading's is the headline.

The paper's p bounds, its 5-of-12 count (L1) and the names of its classifiers and rules are data, in
``published/paper.yaml``. The agreement section counts each of those numbers against ours, per place the paper
states it, with the rule the claims apply to it (``PUBLISHED_NUMBERS``): a p bound is within when our pooled
test of the default reading holds (the paper's sign, p < 0.05), the record when it is the paper's exactly.

The report is laid out by job, each module importing only those above it in this list:
:mod:`~nbx.papers.lee2006.evidence` (the comparisons, the pooled tests and what the stored predictions measure),
:mod:`~nbx.papers.lee2006.figures` (the sections on figures 2 and 3) and :mod:`~nbx.papers.lee2006.readings` (the
readings the paper leaves open), :mod:`~nbx.papers.lee2006.claims` (L1-L7); this module only wires them into the
contract of :mod:`nbx.report.paper`. Nothing here fits a model: the L7 check runs in the analyse stage.
"""

from __future__ import annotations

from nbx.papers.lee2006 import claims, figures, readings
from nbx.report.paper import CLAIMS_SECTION

SECTIONS = [
    figures.pooled_tests,
    readings.readings_section,
    figures.figure2,
    figures.figure3a,
    figures.figure3b,
    figures.published_cells,
    CLAIMS_SECTION,
]
CLAIMS = {
    "L1": claims.l1,
    "L2": claims.l2,
    "L3": claims.l3,
    "L4": claims.l4,
    "L5": claims.l5,
    "L6": claims.l6,
    "L7": claims.l7,
}
# Every number the paper states (its p bounds and §4.1's record) against ours, with each one's tolerance; the
# agreement section (figures.published_cells) prints it, as the other reports' agreement sections do.
PUBLISHED_NUMBERS = figures.published_numbers
