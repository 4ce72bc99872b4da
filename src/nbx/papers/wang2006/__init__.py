"""Wang et al. (2006), self-adaptive NBTree: Table 1 (§6) beside ours, S-NBTree vs NBTree, claims S1-S3.

§6 of the paper: 12 UCI data sets, 10-fold CV, missing values replaced by the most frequent value; C4.5
Release 8, NBTree (Kohavi 1996) and S-NBTree (Fig. 2: post-discretization by the Bayes measure, GNB leaves
with kernel densities, §4 eq. 14-15). Table 1 marks S-NBTree "better" or "worse" than NBTree per data set;
the text claims 10 wins of 12 (S1), the largest advantage where attributes are continuous (S2) and credits
the kernel estimator for non-normal attributes (S3, Fig. 3 HUE-MEAN of Image segmentation).

Beyond the paper, ``nb_laplace`` (discretized NB), ``gnb`` (kernel GNB), ``gnb_gaussian`` and ``snbtree_gaussian``
(Gaussian leaves) isolate the effect of the kernel densities for S3. Two points of the paper admit more than one
reading; the defaults follow the paper's text and the alternatives run as extra cells, reported side by side: the
kernel width's unit (range, default; ``*_stdunit``: within-class standard deviations; ``*_rawunit``: h = c_X/√m in
the attribute's own units, the formula read literally) and the stopping rule at the root (default:
tested like any node, as §5 says the method "is exactly the same as Kohavi's NBTree" but for discretization and
leaves; ``*_rootsplit``: Fig. 2 step 4's pseudo-code, which tests descendant nodes only and so always splits it).

:data:`GAPS` gives, per data set, what we measured about its gap between our and the published accuracy
(the report's agreement section prints it under the largest gaps).

The paper's learners, the reference learners and the readings' learners, their display names and the numbers
the paper states in its text are data, in published/paper.yaml.

The package: :mod:`.report` wires the report (:mod:`nbx.report.paper`) from :mod:`.sections`, :mod:`.claims` and
:mod:`.gaps`, which read :mod:`.evidence` (the paper's data, the statistics and what they are computed on).
"""
