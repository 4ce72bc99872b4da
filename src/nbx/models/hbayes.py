"""HBayes: hybrid generative/discriminative Bayesian classifiers, Kang & Tian (2006).

The attributes are split into S1 (parents of the class) and S2 (children of the class). Eq. 2:

    P(C | A_1..A_n) = α · P(C | S1) · Π_{A_i ∈ S2} P(A_i | C),    α = 1 / P(S2 | S1).

α does not depend on the class, so we compute the right-hand side up to α in log space and normalize over
the classes (the paper's "α is a normalization constant" of eq. 1, made explicit the same way). With S1
empty, P(C | S1) is the class prior P(C) and eq. 2 is naive Bayes (eq. 1).

* P(C | S1): ridge logistic regression as Weka's Logistic (le Cessie & van Houwelingen 1992; see
  :mod:`nbx.models.logistic`), on indicator-coded S1 attributes, default ``ridge = 1e-8`` (Weka's default).
* HBayes-NB (:class:`HBayesNB`): P(A_i | C) by eq. 4, (n_ca + 1/N) / (n_c + n_i/N) — ``NaiveBayes``
  prior ``"kang"`` (:func:`nbx.models.naive_bayes.nb_log_tables`); the class prior of the S1 = ∅ model
  uses the same form (the paper gives none).
* HBayes-TAN (:class:`HBayesTAN`): P(S2 | C) by TAN over S2 (eq. 3), refitted for every candidate S2.

S1 search on training-set accuracy (section "Our Algorithm", Fig. 2):

* HBayes-NB: the best pair first (every pair is scored; a single attribute in S1 gives back naive Bayes);
  S1 stays empty unless the best pair's accuracy is strictly greater than naive Bayes's. The text says
  "we stop and output S1 as empty if none of the pair improves the accuracy"; Fig. 2 literally keeps the
  pair on a tie (``if maxAccuracy < Accuracy(D, ∅)``). We follow the text: with a tie S1 = ∅, i.e. the
  model is naive Bayes. Then single attributes are added while the accuracy strictly increases (Fig. 2).
* HBayes-TAN: greedy from single attributes, starting from S1 = ∅ (plain TAN); the attribute that gives
  the highest accuracy is added while that accuracy is strictly greater than the current one.
* Ties between candidates go to the first in order (pairs (i, j) lexicographic, attributes by index).
  Accuracy is weighted by ``sample_weight`` (a weight of k counts as k rows).

P(C | S1) is fitted by :func:`nbx.models.logistic.fit_ridge_logistic` (Newton's method with line search)
to max |∇f| / W <= ``tol = 1e-8`` (W the total weight), so every candidate is scored with (nearly) the ridge
optimum ("the parameters P(C|S1) are set to maximum conditional likelihood by Logistic Regression").
LogisticRegression uses 1e-10; on kang2006 1e-8 chose the same S1 as 1e-10 in 160 of 162 folds (two
ionosphere folds differ) with 22 % fewer Newton iterations (the extra ones push separable coefficients
further out). Before, L-BFGS-B stopped at 1e-4, far from the optimum on the separable subsets that ridge
1e-8 produces, and which S1 won depended on where the optimizer stopped: merely regrouping the sums
changed S1 in 6 of 162 folds, and the converged search differs from it in 24. A fit that stops on
``max_iter`` first is counted in ``n_not_converged_`` and the fit warns once. Cost: Newton's Hessian grows
with the square of S1's indicator columns times the classes, so late greedy steps on many-valued,
many-class data (vehicle, segment, waveform) dominate the time; those fits assemble it from each pattern's
active indicator columns (:meth:`nbx.models.logistic_design.IndicatorDesign.hessian`, numba). The Hessian's
summation order moves the converged coefficients within the tolerance, which can change S1 where the best
candidates' training accuracies tie that closely (as the tolerance itself can, above): the scores and
gradients therefore stay the dense design's products (on ionosphere the indicator design's products, equal to
rounding, moved 1.1 % of the test predictions through such ties), and the indicator Hessian sums the same
terms in the same order as before.

Speed: the indicator design of all attributes is standardized once (standardization is per column, so a
column subset gives the same design as encoding the subset alone). A logistic fit on S1 only sees the training
rows through their S1 code patterns, so it runs on one row per distinct pattern with the pattern's class
weights (sufficient statistics: the same objective, at most Π (V_i + 1) rows instead of n; a pair of 10-bin
attributes has <= 121); the patterns' design rows are copied from one standardized row per code value
(:func:`_pattern_design`, the same numbers as standardizing the patterns' rows), and the patterns are numbered
by a count over the keys instead of a sort (:meth:`_HBayesBase._refine`). Each fit is warm-started (a candidate
S1 ∪ {A_k} starts from the fitted S1 coefficients with zeros for A_k; a pair (i, j) starts from the fit of
{i}), and scores the training rows with the log-probabilities of Newton's last objective evaluation. Attributes
with equal code columns (constant ones, copies) make equal logistic subproblems: one is fitted, the others
take its result (:meth:`_HBayesBase._fit_lr`). For HBayes-NB Π_{S2} is the total over all attributes minus
the S1 attributes' log P(A_i = x_i | C) terms, looked up from the table as needed (:class:`S2LogSum`, which
reuses the sum over S1 between the candidates S1 ∪ {A_k}). For HBayes-TAN, TAN's pair counts and Bayesian-score cells of
every candidate S2 are cut from those of all attributes, computed once per fit
(:class:`nbx.models.tan.PairCounts`). None of these moves a bit: the search, its fits and fit_info are the
same.

Weka's optimizer (``optimizer="weka_bfgs"``): Kang & Tian fit P(C | S1) with "Logistic Regression with a ridge
estimator ... which is implemented in Weka", and of all their learners "All of them are implemented in Weka"
(section "Experimental Results"); Weka's Logistic stops where its quasi-Newton optimizer's tests stop it, on the
separable subsets of ridge 1e-8 far from the optimum that ``"exact"`` reaches. The LR column's
``LogisticRegression(optimizer="weka_bfgs")`` follows that optimizer; with ``optimizer="weka_bfgs"`` HBayes' own
P(C | S1) does too, so neither side of the comparison gets the optimum alone: every candidate S1 is fitted as Weka's
Logistic (ridge = ``ridge``, ``-M -1``) trained on the S1 attributes alone would be — Weka's columns (RemoveUseless
drops an attribute constant on the training rows, NominalToBinary gives a two-valued one a single indicator;
:func:`nbx.models.weka_optimization.weka_columns`), Weka's start from the class counts for every candidate (no warm
start, no fit of single attributes before the pairs, no intercept-only fit before HBayes-TAN's search), Weka's
stopping (:func:`nbx.models.weka_optimization.fit_weka_logistic`, ``max_iter`` rounds of 200 iterations), on the
training rows themselves rather than one row per pattern (:meth:`_HBayesBase._weka` says why). The scoring of the
candidates (training accuracy from log P(C | S1) and the S2 terms) and the search are the same; the equal-subproblem
shortcut holds as well. The default ``"exact"`` is the search described above, unchanged. Cost, HBayes-NB on the
first fold of each kang2006 data set: 4-52x the CPU time of ``"exact"`` (Weka's optimizer takes 2-13x Newton's
iterations, each on the rows; waveform 127 s against 2.5 s), about 25 CPU minutes for the whole kang2006 cell
against about 2; the same S1 on 18 of the 20 folds (ionosphere and vehicle differ), no fit out of rounds.

Work done (deterministic, for comparing HBayes-NB with HBayes-TAN without clocks): ``n_lr_fits_`` (logistic
fits, one per candidate S1, and with ``"exact"`` the warm starts' fits) and ``n_newton_iterations_`` (with
``"weka_bfgs"`` the quasi-Newton iterations); :meth:`fit_info` returns them with S1 and the
search path. ``n_iter_`` (scikit-learn's name) is ``n_newton_iterations_``, the Newton iterations of all
logistic fits together (``max_iter`` bounds each fit; one can take 0, e.g. the intercept-only fit on balanced
classes starts at its optimum).

Fitted attributes: ``classes_``, ``n_values_``, ``s1_`` (attributes in S1, in the order they were added),
``s2_``, ``theta_`` (logistic coefficients on S1's standardized indicator design, see
:mod:`nbx.models.logistic`), ``train_accuracy_``, ``search_path_`` (list of (S1, accuracy) accepted),
``n_lr_fits_``, ``n_newton_iterations_``, ``n_not_converged_``, ``n_iter_``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit

from nbx.core.base import (
    N_VALUES,
    BaseEstimator,
    LogScoreMixin,
    check_discrete_fit,
    check_discrete_X,
    clone,
)
from nbx.core.counting import ValueIndex, row_blocks
from nbx.core.validation import ESTIMATOR, NONE, ConvergenceWarning, Options, warn
from nbx.models.logistic import OPTIMIZERS, SOLVER_CONSTRAINTS, default_start, log_proba, one_hot, ridge_logistic_newton
from nbx.models.logistic_design import IndicatorDesign, active_columns, codes_standardizer, design_matrix, standardize
from nbx.models.naive_bayes import nb_log_tables


class S2LogSum:
    """``s2(S1)`` = Σ_{j ∉ S1} log P(x_j | C), shape (n, K): the total over all attributes minus S1's terms,
    ``total - terms[:, S1].sum(axis=1)`` with ``terms[i, j] = log_table[row of x_ij]`` (a missing value's row
    holds zeros).

    The (n, d, K) terms are never stored: each sum gathers its attributes' terms a block of rows at a time and
    sums them as numpy sums ``terms[:, S1]`` (in S1's order, one attribute after the other; a row's sum does not
    depend on its block), and a single attribute's terms are one (n, K) gather. So the sum over S1 + [k] is the
    sum over S1 plus the terms of k, to the bit: the sum over a candidate list's prefix (all but its last
    attribute) is kept, and the candidates of one search step, which share it, cost one gather and one addition
    each instead of |S1|.
    """

    def __init__(self, log_table: np.ndarray, index: ValueIndex, codes: np.ndarray):
        self.log_table, self.index, self.codes = log_table, index, codes
        self.total = self._sum(slice(None))
        self._prefix, self._prefix_sum = None, None

    def _sum(self, attributes) -> np.ndarray:
        """``terms[:, attributes].sum(axis=1)``, a block of rows at a time."""
        out = np.empty((self.codes.shape[0], self.log_table.shape[1]))
        width = self.codes.shape[1] * self.log_table.shape[1]
        for rows, table_rows in self.index.block_rows(self.codes, width):
            out[rows] = self.log_table[table_rows[:, attributes]].sum(axis=1)
        return out

    def _terms(self, attribute: int) -> np.ndarray:
        """``terms[:, attribute]``, shape (n, K)."""
        return self.log_table[self.index.column_rows(self.codes[:, attribute], attribute)]

    def __call__(self, s1) -> np.ndarray:
        s1 = list(s1)
        if not s1:
            return self.total
        if s1[:-1] != self._prefix:
            self._prefix = s1[:-1]
            self._prefix_sum = self._sum(self._prefix) if self._prefix else None
        last = self._terms(s1[-1])
        return self.total - (last if self._prefix_sum is None else self._prefix_sum + last)


def _first_equal_columns(codes: np.ndarray, n_values: np.ndarray) -> list[int]:
    """Per attribute the first attribute with the same value count and an equal code column (itself if none).
    Columns are grouped by a hash of their bytes and compared only within a group, so no copy of every column is
    kept (a dict keyed by the columns' bytes would hold as much as the codes)."""
    groups, first = {}, []
    for a, v in enumerate(n_values.tolist()):
        column = codes[:, a]
        same = groups.setdefault((v, hash(column.tobytes())), [])
        first.append(next((b for b in same if np.array_equal(codes[:, b], column)), a))
        if first[-1] == a:
            same.append(a)
    return first


@njit(cache=True)
def _first_rows(groups, n_groups):
    """Per group 0..n_groups-1 its first row (np.minimum.at of the row numbers)."""
    first = np.full(n_groups, -1, np.int64)
    for i in range(groups.size):
        if first[groups[i]] < 0:
            first[groups[i]] = i
    return first


@njit(cache=True)
def _pattern_design(patterns, values, cols, position):
    """The standardized design (G, len(cols)) of code patterns (G, |S1|): entry (g, j) is ``values[code + 1,
    cols[j]]`` for the code of pattern g at S1 position ``position[j]`` (-1: the intercept column, 1), i.e. the
    design row of the pattern's first training row, copied from the per-code rows instead of n rows."""
    out = np.empty((patterns.shape[0], cols.size))
    for g in range(patterns.shape[0]):
        for j in range(cols.size):
            t = position[j]
            out[g, j] = values[patterns[g, t] + 1, cols[j]] if t >= 0 else values[0, 0]
    return out


def _weighted_accuracy(scores: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    hit = np.argmax(scores, axis=1) == y
    total = w.sum()
    return float(np.dot(w, hit) / total) if total > 0 else 0.0


class _HBayesBase(LogScoreMixin, BaseEstimator):
    """Shared parts: input checks, the indicator design, logistic fits on attribute subsets, prediction.

    Input: integer codes, NaN or negative = missing; ``n_values`` (constructor or ``fit`` keyword, the
    keyword wins; None = max code + 1). At predict a code >= ``n_values_`` (never seen in training) counts
    as missing.
    """

    input_kind = "discrete"
    _parameter_constraints = {**SOLVER_CONSTRAINTS, "n_values": N_VALUES, "optimizer": [Options(*OPTIMIZERS)]}

    def _prepare(self, X, y, sample_weight, n_values):
        codes, y_idx, w = check_discrete_fit(self, X, y, sample_weight, n_values)
        self._index = ValueIndex(self.n_values_)
        # the indicator design's standardization from each row's active columns, a block of rows at a time, without
        # the dense (n, Σ V) design: the same numbers to the bit; a missing code is the all-zero block
        self.mean_, self.scale_ = codes_standardizer(codes, self.n_values_, w)
        # the standardized design row of every code (row c + 1 for code c, row 0 for missing), per attribute block:
        # the same elementwise (z - mean) / scale as the design of the rows (:meth:`_pattern_design`)
        table = np.repeat(np.arange(-1, int(self.n_values_.max(initial=0)))[:, None], codes.shape[1], axis=1)
        self._values = standardize(design_matrix(table.astype(float), self.n_values_)[0], self.mean_, self.scale_)
        self._train = (np.ascontiguousarray(codes, np.int64), y_idx, w)
        # attributes with equal code columns (and value counts) get the same id: :meth:`_fit_lr`'s shortcut
        self._twin = _first_equal_columns(codes, self.n_values_)
        self._has_twin = np.bincount(self._twin, minlength=len(self._twin))[self._twin] > 1
        self._known = {}
        self.n_lr_fits_ = self.n_newton_iterations_ = self.n_not_converged_ = 0
        self._weka_keep = self._weka_design_columns(codes) if self.optimizer == "weka_bfgs" else None
        return codes, y_idx, w

    def _weka_design_columns(self, codes) -> np.ndarray:
        """Which design columns (intercept first) Weka's Logistic keeps of an S1 attribute (RemoveUseless,
        NominalToBinary): :func:`nbx.models.weka_optimization.weka_columns`, which reads an attribute's indicator
        block only through which of its columns are nonzero on some training row, i.e. which of its values occur;
        the one row of the values that occur stands for the training rows' design. Per attribute, so an S1's
        columns are the union of its attributes' (as Weka's filters, which act attribute by attribute)."""
        from nbx.models.weka_optimization import weka_columns

        present = self._index.counts(codes, np.zeros(len(codes), np.int64), np.ones(len(codes)), 1)[:-1, 0] > 0
        keep = weka_columns(present[None, :].astype(float), self._index.attribute_of_row, self.n_values_)
        return np.concatenate([[True], keep])

    def _columns(self, s1) -> np.ndarray:
        """Design columns (intercept first) of the attributes in S1, in S1's order."""
        first = 1 + self._index.offsets  # each attribute's first design column
        cols = [first[a] + np.arange(self.n_values_[a]) for a in s1]
        return np.concatenate([[0]] + cols).astype(np.intp)

    def _refine(self, groups: np.ndarray, attribute: int) -> np.ndarray:
        """Group ids of the training rows by (their group, their code of ``attribute``), numbered 0..G-1.

        Starting from one group (S1 = ∅) and refining by each S1 attribute gives the distinct S1 code
        patterns (a missing code is a pattern value of its own: the all-zero indicator block).
        """
        codes = self._train[0]
        width = int(self.n_values_[attribute]) + 1
        key = groups * width + (codes[:, attribute] + 1)
        # np.unique(key, return_inverse=True)[1] without sorting: the keys are below (max group + 1) · width
        present = np.zeros((int(groups.max()) + 1) * width, bool)
        present[key] = True
        return (np.cumsum(present) - 1)[key]

    def _fit_lr(self, s1, groups, theta0):
        """(theta, log P(C | S1) on the training rows) for the attribute list S1 whose distinct patterns are
        ``groups`` (:meth:`_refine`): with ``optimizer="exact"`` the fit runs on one row per pattern with the
        pattern's class weights (:func:`ridge_logistic_newton`), which is the same objective as over all rows;
        with ``"weka_bfgs"`` it is Weka's Logistic on the S1 attributes (:meth:`_weka`; ``theta0`` is None: Weka
        starts every fit from its own start).

        The fit is a function of S1's code columns (their patterns, design columns and class weights) and of
        ``theta0``: attributes whose code columns are equal (e.g. constant ones) make equal subproblems, and a
        candidate equal to one already fitted takes that fit's result (and counts its fit and iterations, so
        fit_info does not depend on the shortcut)."""
        key = (tuple(self._twin[a] for a in s1), b"" if theta0 is None else theta0.tobytes())
        known = self._known.get(key)
        if known is None:
            known = self._weka(s1, groups) if self.optimizer == "weka_bfgs" else self._newton(s1, groups, theta0)
            if any(self._has_twin[a] for a in s1):  # only such a list can meet its subproblem again
                self._known[key] = known
        theta, lp, n_iter, converged = known
        self.n_lr_fits_ += 1
        self.n_newton_iterations_ += n_iter
        self.n_not_converged_ += not converged
        return theta, lp[groups]

    def _newton(self, s1, groups, theta0):
        """Newton's fit of :meth:`_fit_lr`: (theta, log P(C | S1) per pattern, iterations, converged)."""
        codes, y, w = self._train
        n_groups, k = int(groups.max()) + 1, len(self.classes_)
        first = _first_rows(groups, n_groups)
        counts = np.bincount(groups * k + y, weights=w, minlength=n_groups * k).reshape(n_groups, k)
        weight = counts.sum(axis=1)
        fractions = np.divide(counts, weight[:, None], out=np.zeros_like(counts), where=weight[:, None] > 0)
        cols = self._columns(s1)
        patterns = codes[np.ix_(first, list(s1))]
        position = np.repeat(np.arange(-1, len(s1)), [1] + [int(self.n_values_[a]) for a in s1])
        Z1 = _pattern_design(patterns, self._values, cols, position)
        hess = None  # the dense Hessian, unless it would cost more than about a millisecond
        if len(first) * (len(cols) * (k - 1)) ** 2 > 1e6:
            active = active_columns(patterns, self.n_values_[list(s1)])
            hess = IndicatorDesign(active, self.mean_[cols[1:] - 1], self.scale_[cols[1:] - 1]).hessian
        theta, n_iter, converged, lp = ridge_logistic_newton(
            Z1, fractions, weight, self.ridge, theta0, self.tol, int(self.max_iter), hess
        )
        return theta, lp, n_iter, converged

    def _weka(self, s1, groups):
        """Weka's fit of :meth:`_fit_lr`: what Weka's Logistic (ridge, ``-M -1``) returns when trained on the S1
        attributes alone, as :class:`~nbx.models.logistic.LogisticRegression` with ``optimizer="weka_bfgs"``
        computes it — Weka's columns (:meth:`_weka_design_columns`), Weka's start from the class counts
        (:func:`~nbx.models.logistic.default_start`, no warm start: Weka fits each model afresh) and Weka's
        stopping (:func:`~nbx.models.weka_optimization.fit_weka_logistic`, ``max_iter`` rounds of 200 iterations).
        Returns (theta with zeros for the dropped columns, log P(C | S1) per pattern, iterations, finished).

        On the training rows, not one row per pattern: the grouped objective is the same sum regrouped, but its
        floating-point values (and its gradient's) differ in the last bits, and Weka's optimizer follows those
        values (Armijo and curvature tests, the stopping tests at √ε, the BFGS updates), so the grouped fit is not
        the same computation. Measured on the first fold of 16 kang2006 data sets (every candidate of the
        search fitted both ways): the same S1 on all 16, but the fitted P(C | S1) moved by up to 1.1e-4 (vehicle;
        up to 7e-6 on crx, where one candidate's training prediction changed class), and 7 fits (6 on vehicle, 1 on
        waveform) took a different number of iterations, while grouping saved only 1.2-2x of the time (waveform
        1.24x: the optimizer's own steps, not the rows, dominate). So the fit sums over the training rows, in
        their order; only each pattern's design row, scores, exponentials and logs are made once
        (``rows=groups``: :func:`nbx.models.weka_objective.problem`), which leaves every sum's terms as they were. The
        design rows are the ones standardizing gives (:func:`_pattern_design` copies them from the per-code rows)
        and the sums are those of LogisticRegression(optimizer="weka_bfgs") fitted on the S1 columns, so the
        coefficients are that learner's to the bit, and HBayes' P(C | S1) and the LR column follow Weka's
        optimizer on equal terms."""
        from nbx.models.weka_optimization import fit_weka_logistic  # numba loaded only here

        codes, y, w = self._train
        k = len(self.classes_)
        cols = self._columns(s1)
        position = np.repeat(np.arange(-1, len(s1)), [1] + [int(self.n_values_[a]) for a in s1])
        first = _first_rows(groups, int(groups.max()) + 1)
        Z1 = _pattern_design(codes[np.ix_(first, list(s1))], self._values, cols, position)  # each pattern's design
        keep = self._weka_keep[cols]
        start = default_start(np.bincount(y, weights=w, minlength=k), len(cols) - 1)
        fitted, n_iter, finished = fit_weka_logistic(
            Z1[:, keep], one_hot(y, k), w, self.ridge, start[keep], int(self.max_iter), rows=groups
        )
        theta = np.zeros_like(start)
        theta[keep] = fitted
        return theta, log_proba(Z1, theta), n_iter, finished

    def _extend(self, theta: np.ndarray, attribute: int) -> np.ndarray:
        """Warm start for S1 ∪ {attribute}: the S1 coefficients, zeros for the new indicator columns."""
        width = int(self.n_values_[attribute])
        return np.vstack([theta, np.zeros((width, theta.shape[1]))])

    def _start(self, theta, attribute: int):
        """``theta0`` of :meth:`_fit_lr` for S1 ∪ {attribute}: :meth:`_extend` (Newton's warm start), or None with
        ``optimizer="weka_bfgs"`` (Weka's own start)."""
        return None if self.optimizer == "weka_bfgs" else self._extend(theta, attribute)

    def _greedy_add(self, s1, theta, accuracy, score_of):
        """Add single attributes while the best one strictly increases the accuracy (Fig. 2's loop)."""
        _, y, w = self._train
        d = len(self.n_values_)
        groups = np.zeros(len(y), np.int64)
        for a in s1:
            groups = self._refine(groups, a)
        while len(s1) < d:
            best = None
            for k in (a for a in range(d) if a not in s1):
                cand, cand_groups = s1 + [k], self._refine(groups, k)
                th, lp = self._fit_lr(cand, cand_groups, self._start(theta, k))
                acc = _weighted_accuracy(score_of(cand, lp), y, w)
                if best is None or acc > best[0]:
                    best = (acc, cand, th, cand_groups)
            if best[0] <= accuracy:
                break
            accuracy, s1, theta, groups = best
            self.search_path_.append((list(s1), accuracy))
        return s1, theta, accuracy

    def _finish(self, s1, theta, accuracy):
        self.s1_ = [int(a) for a in s1]
        self.s2_ = [a for a in range(len(self.n_values_)) if a not in self.s1_]
        self.theta_ = theta
        self.train_accuracy_ = accuracy
        self.n_iter_ = self.n_newton_iterations_
        del self._values, self._train, self._twin, self._has_twin, self._known, self._weka_keep
        if self.n_not_converged_ and self.optimizer == "weka_bfgs":
            warn(
                f"{type(self).__name__}: {self.n_not_converged_} of {self.n_lr_fits_} logistic fits ran out of "
                f"max_iter={self.max_iter} rounds of {OPTIMIZERS[self.optimizer]} before it finished",
                ConvergenceWarning,
            )
        elif self.n_not_converged_:
            warn(
                f"{type(self).__name__}: {self.n_not_converged_} of {self.n_lr_fits_} logistic fits stopped above "
                f"the gradient tolerance tol={self.tol:g} (max_iter={self.max_iter})",
                ConvergenceWarning,
            )

    def fit_info(self) -> dict:
        """S1, the search path and the work done (logistic fits, Newton iterations; with ``optimizer="weka_bfgs"``
        Weka's quasi-Newton iterations under the same key), for fit_info.json."""
        return {
            "s1": self.s1_,
            "train_accuracy": self.train_accuracy_,
            "search_path": [[list(map(int, s1)), acc] for s1, acc in self.search_path_],
            "n_lr_fits": self.n_lr_fits_,
            "n_newton_iterations": self.n_newton_iterations_,
            "n_not_converged": self.n_not_converged_,
        }

    def _codes(self, X) -> np.ndarray:
        return check_discrete_X(self, X)  # unseen codes count as missing

    def _discriminative(self, codes) -> np.ndarray:
        """log P(C | S1) for new rows (the caller handles S1 = ∅)."""
        Z1 = standardize(design_matrix(codes.astype(float), self.n_values_)[0], self.mean_, self.scale_)
        return log_proba(Z1[:, self._columns(self.s1_)], self.theta_)


class HBayesNB(_HBayesBase):
    """HBayes-NB: ridge logistic regression for P(C | S1) times naive Bayes over S2.

    Kang & Tian (2006) eq. 2 and eq. 4: the attributes are split into S1 (parents of the class, modelled by
    ridge logistic regression as Weka's Logistic) and S2 (children of the class, naive Bayes with eq. 4's Laplace
    variant); S1 is chosen greedily on training accuracy (Fig. 2). Input: integer codes, NaN or negative =
    missing. See the module docstring for the search.

    Parameters
    ----------
    ridge : float, default=1e-8
        Ridge penalty of the logistic regression (:class:`~nbx.models.logistic.LogisticRegression`).
    max_iter : int, default=100
        Newton iterations of each logistic fit; with ``optimizer="weka_bfgs"`` rounds of 200 iterations of Weka's
        optimizer.
    tol : float, default=1e-8
        Convergence tolerance of the logistic regression (not used by ``"weka_bfgs"``).
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.
    optimizer : {"exact", "weka_bfgs"}, default="exact"
        How each candidate's P(C | S1) is fitted. ``"exact"``: the ridge optimum by Newton's method, warm-started
        from the previous candidate, on one row per S1 code pattern. ``"weka_bfgs"``: what Weka's Logistic
        returns when trained on the S1 attributes alone — its columns (constant attributes dropped, one
        indicator for a two-valued one), its start and its quasi-Newton optimizer's stopping point
        (:mod:`nbx.models.weka_optimization`), as ``LogisticRegression(optimizer="weka_bfgs")``; Kang & Tian
        (2006): "All of them are implemented in Weka". See the module docstring.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    s1_, s2_ : list of int
        The attributes of S1 and S2.
    search_path_ : list
        The greedy search's steps.
    train_accuracy_ : float
        Training accuracy of the chosen S1.
    theta_, scale_ : ndarray
        The logistic regression's coefficients and standardization.
    log_table_ : ndarray
        log P(v | c) of the S2 attributes.
    n_lr_fits_, n_newton_iterations_, n_not_converged_ : int
        Work done by the search (with ``optimizer="weka_bfgs"``, ``n_newton_iterations_`` counts Weka's
        quasi-Newton iterations and ``n_not_converged_`` the fits that ran out of ``max_iter`` rounds).
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006, eq. 1-2,
    eq. 4, Fig. 2.

    le Cessie, S. & van Houwelingen, J. C. (1992). *Ridge estimators in logistic regression*. Applied Statistics
    41.

    Examples
    --------
    >>> from nbx.models.hbayes import HBayesNB
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = HBayesNB().fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    def __init__(
        self, ridge: float = 1e-8, max_iter: int = 100, tol: float = 1e-8, n_values=None, optimizer: str = "exact"
    ):
        self.ridge = ridge
        self.max_iter = max_iter
        self.tol = tol
        self.n_values = n_values
        self.optimizer = optimizer

    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes ``0 .. n_values[j]-1``; NaN or a negative code is a missing value.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values; wins over the constructor's ``n_values``.

        Returns
        -------
        self : HBayesNB
            The fitted estimator.
        """
        codes, y_idx, w = self._prepare(X, y, sample_weight, n_values)
        k = len(self.classes_)
        counts = self._index.counts(codes, y_idx, w, k)[:-1]
        class_counts = np.bincount(y_idx, weights=w, minlength=k)
        self.class_log_prior_, self.log_table_ = nb_log_tables(counts, class_counts, self._index, "kang")
        s2_log_sum = S2LogSum(self.log_table_, self._index, codes)
        total = s2_log_sum.total

        def score_of(s1, lp):
            return lp + s2_log_sum(s1)

        nb_accuracy = _weighted_accuracy(self.class_log_prior_ + total, y_idx, w)
        self.search_path_ = [([], nb_accuracy)]
        s1, theta, accuracy = self._best_pair(score_of)
        if s1 and accuracy > nb_accuracy:
            self.search_path_.append((list(s1), accuracy))
            s1, theta, accuracy = self._greedy_add(s1, theta, accuracy, score_of)
        else:
            s1, theta, accuracy = [], None, nb_accuracy
        self._finish(s1, theta, accuracy)
        return self

    def _best_pair(self, score_of):
        """Fig. 2's first step: the pair {A_i, A_j} with the highest training accuracy (first on ties)."""
        _, y, w = self._train
        d = len(self.n_values_)
        if d < 2:
            return [], None, -np.inf
        start = default_start(np.bincount(y, weights=w, minlength=len(self.classes_)), 0)
        best = ([], None, -np.inf)
        weka = self.optimizer == "weka_bfgs"  # no warm start: no fit of {i} (not a candidate) either
        for i in range(d - 1):
            single = self._refine(np.zeros(len(y), np.int64), i)
            theta_i = None if weka else self._fit_lr([i], single, self._extend(start, i))[0]  # warm start for (i, j)
            for j in range(i + 1, d):
                th, lp = self._fit_lr([i, j], self._refine(single, j), self._start(theta_i, j))
                acc = _weighted_accuracy(score_of([i, j], lp), y, w)
                if acc > best[2]:
                    best = ([i, j], th, acc)
        return best

    def _class_scores(self, X) -> np.ndarray:
        """log P(C | S1) + Σ_{S2} log P(x_i | C) (eq. 2 without α), shape (n, K); naive Bayes if S1 = ∅."""
        codes = self._codes(X)
        table = self.log_table_.copy()
        table[:-1][np.isin(self._index.attribute_of_row, self.s1_)] = 0.0  # S1 attributes: no NB factor
        s2_part = self._index.lookup_sum(table, codes)
        if not self.s1_:
            return self.class_log_prior_ + s2_part
        return self._discriminative(codes) + s2_part


class HBayesTAN(_HBayesBase):
    """HBayes-TAN: ridge logistic regression for P(C | S1) times a TAN over S2.

    Kang & Tian (2006) eq. 3: S1 is grown greedily from single attributes on training accuracy (see the module
    docstring). Input: integer codes, NaN or negative = missing.

    Parameters
    ----------
    tan : TAN, default=None
        The TAN estimator for P(S2 | C), cloned for every candidate; None = ``TAN()``. The paper uses Weka's TAN
        without giving its settings; :class:`~nbx.models.tan.TAN` documents its own estimates.
    ridge : float, default=1e-8
        Ridge penalty of the logistic regression.
    max_iter : int, default=100
        Newton iterations of each logistic fit; with ``optimizer="weka_bfgs"`` rounds of 200 iterations of Weka's
        optimizer.
    tol : float, default=1e-8
        Convergence tolerance of the logistic regression (not used by ``"weka_bfgs"``).
    n_values : array-like of int, default=None
        Per column the number of values (codes ``0 .. n-1``); the ``fit`` keyword wins; None = max code + 1.
    optimizer : {"exact", "weka_bfgs"}, default="exact"
        How each candidate's P(C | S1) is fitted. ``"exact"``: the ridge optimum by Newton's method, warm-started
        from the previous candidate, on one row per S1 code pattern. ``"weka_bfgs"``: what Weka's Logistic
        returns when trained on the S1 attributes alone — its columns (constant attributes dropped, one
        indicator for a two-valued one), its start and its quasi-Newton optimizer's stopping point
        (:mod:`nbx.models.weka_optimization`), as ``LogisticRegression(optimizer="weka_bfgs")``; Kang & Tian
        (2006): "All of them are implemented in Weka". See the module docstring.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    s1_, s2_ : list of int
        The attributes of S1 and S2.
    search_path_ : list
        The greedy search's steps.
    train_accuracy_ : float
        Training accuracy of the chosen S1.
    tan_ : TAN
        The fitted TAN over S2.
    theta_, scale_ : ndarray
        The logistic regression's coefficients and standardization.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006, eq. 3.

    Friedman, N., Geiger, D. & Goldszmidt, M. (1997). *Bayesian Network Classifiers*. Machine Learning 29.

    le Cessie, S. & van Houwelingen, J. C. (1992). *Ridge estimators in logistic regression*. Applied Statistics
    41.

    Examples
    --------
    >>> from nbx.models.hbayes import HBayesTAN
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["no", "no", "yes", "yes", "no", "yes", "yes", "no"]
    >>> model = HBayesTAN().fit(X, y)
    >>> print(model.predict([[0, 0], [1, 1]]))
    ['no' 'yes']
    """

    _parameter_constraints = {**_HBayesBase._parameter_constraints, "tan": [ESTIMATOR, NONE]}

    def __init__(
        self,
        tan=None,
        ridge: float = 1e-8,
        max_iter: int = 100,
        tol: float = 1e-8,
        n_values=None,
        optimizer: str = "exact",
    ):
        self.tan = tan
        self.ridge = ridge
        self.max_iter = max_iter
        self.tol = tol
        self.n_values = n_values
        self.optimizer = optimizer

    def _tan_template(self):
        if self.tan is None:
            from nbx.models.tan import TAN

            return TAN()
        return self.tan

    def _fit_tan(self, codes, y, w, s2):
        """TAN fitted on the S2 columns, or None when S2 is empty (then log P(S2 | C) = 0). Every S2 is a subset
        of one training set's attributes: a TAN tree's pair counts are cut from those of all the attributes,
        counted once (:class:`nbx.models.tan.PairCounts`, the same numbers to the bit)."""
        from nbx.models.tan import TAN, PairCounts, exact_subsets, pair_class_counts

        if not s2:
            return None
        tan = clone(self._tan_template())
        fit = partial(tan.fit, y=self.classes_[y], sample_weight=w, n_values=self.n_values_[s2])
        if type(tan) is not TAN or tan.structure != "tree" or not exact_subsets(w, codes.shape[1]):
            return fit(codes[:, s2])
        if self._pair_counts is None:
            self._pair_counts = PairCounts(pair_class_counts(codes, y, w, self._index, len(self.classes_)))
        return fit(codes[:, s2], pair_counts=self._pair_counts.subset(self._index, s2))  # the copy after the counts

    @staticmethod
    def _tan_log_likelihood(tan, codes, s2) -> np.ndarray:
        """log P(S2 | C) = TAN's log joint minus its log class prior, shape (n, K); a block of rows at a time, so
        no (n, |S2|) copy of the S2 columns is made (a row's scores do not depend on its block)."""
        out = np.empty((len(codes), len(tan.classes_)))
        for rows in row_blocks(len(codes), len(s2)):
            out[rows] = tan._class_scores(codes[rows][:, s2]) - tan.class_log_prior_
        return out

    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer codes ``0 .. n_values[j]-1``; NaN or a negative code is a missing value.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values; wins over the constructor's ``n_values``.

        Returns
        -------
        self : HBayesTAN
            The fitted estimator.
        """
        codes, y_idx, w = self._prepare(X, y, sample_weight, n_values)
        d = codes.shape[1]
        self._pair_counts = None  # pair_class_counts of all attributes, for :meth:`_fit_tan`

        def score_of(s1, lp):
            s2 = [a for a in range(d) if a not in s1]
            tan = self._fit_tan(codes, y_idx, w, s2)
            return lp if tan is None else lp + self._tan_log_likelihood(tan, codes, s2)

        full = self._fit_tan(codes, y_idx, w, list(range(d)))
        accuracy = _weighted_accuracy(full._class_scores(codes), y_idx, w) if full is not None else -np.inf
        self.search_path_ = [([], accuracy)]
        start = None  # Weka's optimizer starts each candidate afresh: no intercept-only fit to start from
        if self.optimizer == "exact":
            start = self._fit_lr(
                [],
                np.zeros(len(y_idx), np.int64),
                default_start(np.bincount(y_idx, weights=w, minlength=len(self.classes_)), 0),
            )[0]
        s1, theta, accuracy = self._greedy_add([], start, accuracy, score_of)  # from the intercept-only fit
        if not s1:
            theta = None
        self._finish(s1, theta, accuracy)
        self.tan_ = self._fit_tan(codes, y_idx, w, self.s2_)
        del self._pair_counts
        return self

    def _class_scores(self, X) -> np.ndarray:
        """log P(C | S1) + log P(S2 | C) by TAN (eq. 3 without α), shape (n, K); plain TAN if S1 = ∅."""
        codes = self._codes(X)
        if not self.s1_:
            return self.tan_._class_scores(codes)
        part = self._discriminative(codes)
        return part if self.tan_ is None else part + self._tan_log_likelihood(self.tan_, codes, self.s2_)
