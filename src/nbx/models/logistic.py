"""Multinomial logistic regression with a ridge penalty (le Cessie & van Houwelingen 1992), as in Weka.

Kang & Tian (2006) learn P(C | S1) with "Logistic Regression with a ridge estimator (le Cessie & van
Houwelingen 1992) which is implemented in Weka". We follow Weka's ``functions.Logistic``:

* K classes use K-1 coefficient vectors; the last class (``classes_[-1]``) is the reference with score 0,
  so P(c | x) = exp(x·β_c) / (1 + Σ_{k<K-1} exp(x·β_k)), x including a leading 1 for the intercept.
* Predictors are standardized with the weighted mean and the weighted standard deviation
  sqrt(|Σw x² − W·mean²| / (W − 1)) (W = total weight); a column with zero deviation is left as is.
* The objective, minimized over the standardized-scale coefficients θ, is

      f(θ) = − Σ_i w_i log P(y_i | x_i; θ)  +  ridge · Σ_{k<K-1} Σ_{j≥1} θ_kj²

  i.e. le Cessie & van Houwelingen's penalized log-likelihood with the penalty on every non-intercept
  coefficient and no factor 1/2 (Weka's ``objectiveFunction``). Default ``ridge = 1e-8`` (Weka's -R).
* Nominal attributes are coded as indicators. Choices that differ from Weka, written down here:
  every nominal attribute gets one indicator per value (Weka's NominalToBinary makes a single column for a
  two-valued attribute; with the intercept the spans are the same, so the fitted model is the same up to
  the tiny ridge); a missing nominal value is the all-zero indicator vector (Weka replaces it by the mode
  first); a missing numeric value is replaced by the training mean (as Weka's ReplaceMissingValues).
* Weka minimizes with its own quasi-Newton optimizer (BFGS), followed by ``optimizer="weka_bfgs"``
  (:mod:`nbx.models.weka_optimization`); by default (``"exact"``) we use Newton's method with a backtracking line
  search (:func:`fit_ridge_logistic`) and stop when max |∇f| / W <= ``tol`` (W = total weight, so the tolerance does
  not depend on the data size), default 1e-10. At ridge 1e-8 many small discretized data sets are separable: the
  optimum lies far out, and quasi-Newton methods stop on small relative progress far from it (Weka on labor:
  objective 10x above the optimum, coefficients about 4x larger; our former L-BFGS-B stopped 15x above). Newton
  reaches it in about 20 iterations. On nominal codes only, the standardized design is never formed:
  :class:`~nbx.models.logistic_design.IndicatorDesign` keeps each row's active indicator columns and computes the
  products Newton needs (scores, gradient, Hessian) from them with numba kernels (:mod:`nbx.models.logistic_loops`,
  loaded only then), so an iteration costs per row the attributes, not the columns (10^5 rows of 20 ten-valued
  attributes: 201 design columns, 21 active). These are the same iterates as on the dense design up to rounding. A
  fit that stops on ``max_iter`` (or on the floating-point floor) before the tolerance warns
  (:class:`ConvergenceWarning`) and sets ``converged_ = False``; if that model is moreover no better than the class
  prior on the training data (weighted log-likelihood), fit raises a ValueError instead: a failed optimization is
  never returned as a model behind a warning.
* Numeric range: standardization is exact under scaling a column by a power of two, so a column with values beyond
  2**±256 (near 1e306 its squares overflow, near 1e-300 they vanish) is standardized divided by its power of two
  (:func:`~nbx.models.logistic_design.standardizer`); the standardized design, hence the fit and the ridge penalty,
  is the one of the rescaled column, and columns within that range are computed exactly as before.

Fitted attributes: ``classes_``, ``theta_`` (shape (p+1, K-1), standardized scale, row 0 = intercepts),
``coef_weka_`` (p, K-1) and ``intercept_weka_`` (K-1,) on the original indicator/numeric scale in Weka's layout
(one column per non-reference class, as Weka reports them), ``coef_`` and ``intercept_`` the same model in
scikit-learn's layout (see :class:`LogisticRegression`), ``mean_``, ``scale_`` (standardization), ``n_iter_``
(Newton iterations), ``converged_``, ``objective_`` (f at ``theta_``).

Warm start: with ``warm_start=True`` a refit starts from the previous ``theta_`` when its shape matches (same design
columns and classes); otherwise the start is Weka's: intercepts log((n_k+1)/(n_{K-1}+1)), slopes 0 (Weka counts rows
there; we use weighted counts so that a weight of k equals k copies). Weka's RemoveUseless filter (dropping constant
attributes) is not applied: a constant column is left unscaled and only the ridge acts on it. Helpers
:func:`~nbx.models.logistic_design.design_matrix`, :func:`~nbx.models.logistic_design.standardizer` and
:func:`fit_ridge_logistic` (explicit start ``theta0``) are reused by HBayes (:mod:`nbx.models.hbayes`).
"""

from __future__ import annotations

from functools import partial
from numbers import Integral, Real

import numpy as np
from scipy.linalg.lapack import dpotrf, dpotrs

from nbx.core.base import N_VALUES, BaseEstimator, LogScoreMixin, check_mixed_fit, check_mixed_X
from nbx.core.class_weight import CLASS_WEIGHT, apply_class_weight
from nbx.core.counting import ValueIndex, log_softmax
from nbx.core.validation import BOOLEAN, ConvergenceWarning, Interval, Options, warn
from nbx.models.logistic_design import (
    IndicatorDesign,
    active_of,
    design_matrix,
    indicator_standardizer,
    standardize,
    standardizer,
)


def _scores(Z1: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Class scores (n, K): Z1 @ theta with the reference class's 0 appended."""
    scores = np.empty((Z1.shape[0], theta.shape[1] + 1))
    scores[:, :-1] = Z1 @ theta
    scores[:, -1] = 0.0
    return scores


SOLVER_CONSTRAINTS = {  # the ridge solver's parameters (shared with HBayes)
    "ridge": [Interval(Real, 0, None, "left")],
    "max_iter": [Interval(Integral, 1, None, "left")],
    "tol": [Interval(Real, 0, None, "neither")],
}


def log_proba(Z1: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """log P(c | x) for a standardized design with intercept column, shape (n, K)."""
    return log_softmax(_scores(Z1, theta))


def default_start(class_counts: np.ndarray, n_features: int) -> np.ndarray:
    """Weka's start: intercepts log((n_k + 1) / (n_{K-1} + 1)) from the weighted class counts, slopes zero."""
    theta = np.zeros((n_features + 1, len(class_counts) - 1))
    theta[0] = np.log(class_counts[:-1] + 1.0) - np.log(class_counts[-1] + 1.0)
    return theta


def one_hot(y: np.ndarray, n_classes: int) -> np.ndarray:
    """Class indices (n,) as targets (n, K) for :func:`fit_ridge_logistic`."""
    Y = np.zeros((len(y), n_classes))
    Y[np.arange(len(y)), y] = 1.0
    return Y


def objective(
    theta: np.ndarray, Z1: np.ndarray, Y: np.ndarray, w: np.ndarray, ridge: float
) -> tuple[float, np.ndarray, np.ndarray]:
    """Weka's penalized negative log-likelihood f(θ) (unscaled), its gradient (shaped like θ) and the
    probabilities P (n, K-1) of the non-reference classes (for :func:`hessian`). ``Y`` (n, K) holds the
    targets: one-hot rows, or the class fractions of grouped rows (see :func:`fit_ridge_logistic`)."""
    value, lp = _value(theta, Z1, Y, w, ridge)
    return (value, *_gradient(theta, Z1, Y, w, ridge, lp))


def _value(theta: np.ndarray, Z1: np.ndarray, Y: np.ndarray, w: np.ndarray, ridge: float) -> tuple[float, np.ndarray]:
    """f(θ) of :func:`objective` and the log-probabilities (n, K) it comes from."""
    lp = log_proba(Z1, theta)
    # (the methods: numpy's reductions without np.sum's wrapper, which HBayes' many small fits felt)
    return -(w * (Y * lp).sum(axis=1)).sum() + ridge * (theta[1:] ** 2).sum(), lp


def _gradient(theta, Z1, Y, w, ridge, lp) -> tuple[np.ndarray, np.ndarray]:
    """(∇f, P) of :func:`objective` from the log-probabilities ``lp`` at θ (:func:`_value`)."""
    P = np.exp(lp[:, :-1])
    grad = Z1.T @ (w[:, None] * (P - Y[:, :-1]))
    grad[1:] += 2.0 * ridge * theta[1:]
    return grad, P


def hessian(Z1: np.ndarray, w: np.ndarray, P: np.ndarray, ridge: float, chunk: int = 1 << 21) -> np.ndarray:
    """∇²f, shape (m, m) with m = (p+1)(K-1), laid out like ``θ.ravel()`` (design column major, class minor):

        H[(j,k), (l,c)] = Σ_i w_i (δ_kc P_ik − P_ik P_ic) z_ij z_il  +  2·ridge·δ (slopes only).

    The −Σ w P_k P_c z zᵀ part is BᵀB with B_i = √w_i · (z_i ⊗ P_i), accumulated over row chunks of about
    ``chunk`` entries of B so memory stays bounded.
    """
    n, p = Z1.shape
    m = P.shape[1]
    H = np.zeros((p * m, p * m))
    rows = max(1, chunk // (p * m))
    for start in range(0, n, rows):
        Zc, Pc, wc = Z1[start : start + rows], P[start : start + rows], w[start : start + rows]
        B = (Zc[:, :, None] * (np.sqrt(wc)[:, None] * Pc)[:, None, :]).reshape(len(Zc), p * m)
        H -= B.T @ B
        diagonal = (Zc.T[None] * (wc[:, None] * Pc).T[:, None, :]) @ Zc  # (m, p, p): Σ w P_k z zᵀ per class
        H.reshape(p, m, p, m)[:, np.arange(m), :, np.arange(m)] += diagonal
    slopes = np.arange(m, p * m)
    H[slopes, slopes] += 2.0 * ridge
    return H


def hessian_for(Z1):
    """The Hessian function ``(w, P, ridge) -> ∇²f`` of a design: :meth:`IndicatorDesign.hessian` for an indicator
    design, the dense :func:`hessian` for a matrix."""
    return Z1.hessian if isinstance(Z1, IndicatorDesign) else partial(hessian, Z1)


def _newton_step(H: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """−H⁻¹ grad by Cholesky; the least-squares step if H is singular (ridge 0 with a rank-deficient design, or
    ridge 1e-8 beside the indicator blocks' collinearity in floating point). LAPACK's potrf/potrs directly: what
    scipy's cho_factor/cho_solve run, without their per-call checks (~10 µs, a tenth of HBayes' small solves).
    potrf factors a copy, so the singular case solves with H itself instead of building it again."""
    factor, info = dpotrf(H, lower=0, clean=0, overwrite_a=0)
    if info == 0:
        step, info = dpotrs(factor, grad.ravel(), lower=0)
        if info == 0:
            return -step.reshape(grad.shape)
    return -np.linalg.lstsq(H, grad.ravel(), rcond=None)[0].reshape(grad.shape)


def fit_ridge_logistic(
    Z1: np.ndarray,
    Y: np.ndarray,
    w: np.ndarray,
    ridge: float,
    theta0: np.ndarray,
    tol: float = 1e-10,
    max_iter: int = 100,
    hessian_of=None,
) -> tuple[np.ndarray, int, bool]:
    """Minimize :func:`objective` from ``theta0`` by Newton's method; returns (theta (p+1, K-1), Newton
    iterations, converged).

    Each iteration solves H·s = −∇f (:func:`hessian`) and backtracks (halving) from the full step until
    Armijo's condition f(θ + t s) <= f(θ) + 1e-4·t·∇f·s holds (or takes the full step when the predicted
    decrease −∇f·s is below f's rounding, 1e-12·|f|). It stops when max |∇f| / W <= ``tol`` (W =
    total weight): converged; or after ``max_iter`` iterations, or when no step decreases f (the floating-
    point floor): converged is then the gradient test. f is strictly convex for ridge > 0, so Newton reaches
    the optimum even when the classes are separable and the optimum lies far out (ridge 1e-8: coefficients
    grow by about one logit unit per iteration until the ridge balances them); L-BFGS, like Weka's
    quasi-Newton optimizer, crawls there and stops on small relative progress well above the optimum.

    ``Z1`` is the standardized design with its intercept column, ``Y`` (n, K) the targets and ``w`` the row
    weights. A row may stand for a group of training rows with the same design row: ``w`` is then the
    group's total weight and ``Y`` its class fractions; Σ_c w Y_c log P(c) is the group's summed
    log-likelihood, so the objective equals the one over the ungrouped rows (HBayes fits the distinct S1
    patterns this way). ``Z1`` may be an :class:`IndicatorDesign` (nominal codes): the same iterates, computed
    per row from the active columns. ``hessian_of(w, P, ridge)`` computes ∇²f (default :func:`hessian_for`).
    """
    return ridge_logistic_newton(Z1, Y, w, ridge, theta0, tol, max_iter, hessian_of)[:3]


def ridge_logistic_newton(
    Z1: np.ndarray,
    Y: np.ndarray,
    w: np.ndarray,
    ridge: float,
    theta0: np.ndarray,
    tol: float = 1e-10,
    max_iter: int = 100,
    hessian_of=None,
) -> tuple[np.ndarray, int, bool, np.ndarray]:
    """:func:`fit_ridge_logistic`, returning also log P(c | x) (n, K) at the returned θ, which its last objective
    evaluation computed (HBayes scores every candidate with it). A line-search trial that Armijo's test rejects
    only needs f: the gradient and P are computed for accepted steps alone, from the same log-probabilities."""
    theta = np.array(theta0, dtype=float)
    if Y.shape[1] < 2:
        return theta, 0, True, log_proba(Z1, theta)
    hessian_of = hessian_of or hessian_for(Z1)
    total = w.sum()
    limit = tol * (total if total > 0 else 1.0)
    value, lp = _value(theta, Z1, Y, w, ridge)
    grad, P = _gradient(theta, Z1, Y, w, ridge, lp)
    for iteration in range(int(max_iter)):
        if np.abs(grad).max() <= limit:
            return theta, iteration, True, lp
        step = _newton_step(hessian_of(w, P, ridge), grad)
        slope, t = float((grad * step).sum()), 1.0
        while True:
            trial = theta + t * step
            new, trial_lp = _value(trial, Z1, Y, w, ridge)
            # Armijo; a predicted decrease below f's rounding cannot be checked: take the full step then
            if new <= value + 1e-4 * t * slope or -slope <= 1e-12 * abs(value):
                break
            t *= 0.5
            if t < 1e-10:  # no decrease within floating-point precision
                return theta, iteration + 1, bool(np.max(np.abs(grad)) <= limit), lp
        theta, value, lp = trial, new, trial_lp
        grad, P = _gradient(theta, Z1, Y, w, ridge, lp)
    return theta, int(max_iter), bool(np.max(np.abs(grad)) <= limit), lp


OPTIMIZERS = {  # optimizer option -> what stops the fit (in warnings and errors)
    "exact": "Newton's method",  # the optimum, :func:`fit_ridge_logistic`
    "weka_bfgs": "Weka's quasi-Newton optimizer",  # where Weka stops, :mod:`nbx.models.weka_optimization`
}


def sklearn_layout(coef_weka: np.ndarray, intercept_weka: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weka's coefficients (columns, K-1) and intercepts (K-1,) in scikit-learn's layout.

    Parameters
    ----------
    coef_weka : ndarray of shape (n_columns, n_classes - 1)
        Per design column the coefficient of each non-reference class against the last class.
    intercept_weka : ndarray of shape (n_classes - 1,)
        Their intercepts.

    Returns
    -------
    coef, intercept : ndarray of shape (1, n_columns) and (1,), or (n_classes, n_columns) and (n_classes,)
        Two classes: the log-odds of class 1 against class 0, minus Weka's (class 0 against the reference 1).
        More: one row per class, the reference's zeros last; the softmax of the scores is the same.
    """
    if coef_weka.shape[1] == 1:
        return -coef_weka.T.copy(), -intercept_weka.copy()
    coef = np.vstack([coef_weka.T, np.zeros((1, coef_weka.shape[0]))])
    return coef, np.append(intercept_weka, 0.0)


class LogisticRegression(LogScoreMixin, BaseEstimator):
    """Ridge multinomial logistic regression, as Weka's ``functions.Logistic``.

    K classes use K-1 coefficient vectors, the last class is the reference; predictors are standardized, nominal
    attributes indicator-coded; the penalized log likelihood is minimized by Newton's method (see the module
    docstring). A nominal code >= n_values is an error at fit and a missing value at predict.

    Parameters
    ----------
    ridge : float, default=1e-8
        The ridge penalty (Weka's -R).
    max_iter : int, default=100
        Newton iterations (Weka's default -1 means "until convergence"); with ``optimizer="weka_bfgs"`` Weka's
        rounds of 200 iterations.
    tol : float, default=1e-10
        The largest absolute gradient of the objective divided by the total weight (not used by ``"weka_bfgs"``).
    warm_start : bool, default=False
        Start a refit from the previous ``theta_`` if shapes match.
    n_values : array-like of int, default=None
        Per column the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None = all numeric. A
        nominal code >= n_values is an error at fit and a missing value at predict.
    optimizer : {"exact", "weka_bfgs"}, default="exact"
        ``"exact"`` minimizes the objective to ``tol`` by Newton's method; ``"weka_bfgs"`` follows Weka's own
        quasi-Newton optimizer with its stopping tests (:mod:`nbx.models.weka_optimization`), which on separable
        data stops short of the optimum as Weka does.
    class_weight : dict, "balanced" or None, default=None
        Multipliers of the sample weights per class, as scikit-learn's ``class_weight``
        (:mod:`nbx.core.class_weight`); None = none, the weights as given.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_values_ : ndarray of int
        Nominal values per column, 0 = numeric.
    theta_ : ndarray
        The fitted coefficients on the standardized design.
    coef_ : ndarray of shape (1, n_columns) or (n_classes, n_columns)
        scikit-learn's layout of the coefficients on the original scale: with two classes one row, the log-odds
        of ``classes_[1]`` against ``classes_[0]`` (the negated Weka column); with more, one row per class of
        ``classes_``, the last (Weka's reference class) all zeros. ``softmax(X @ coef_.T + intercept_)`` (the
        logistic of it with two classes) is ``predict_proba``. The columns are the design's: a numeric column
        each, one indicator per value of a nominal column (as behind scikit-learn's ``OneHotEncoder``); with
        numeric data only, ``n_columns = n_features_in_``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The intercepts in the same layout.
    coef_weka_ : ndarray of shape (n_columns, n_classes - 1)
        Weka's layout (and ``coef_`` before scikit-learn's): per design column the coefficient of each
        non-reference class against the reference ``classes_[-1]``.
    intercept_weka_ : ndarray of shape (n_classes - 1,)
        Weka's intercepts.
    scale_ : ndarray
        The standardization of the design's columns.
    converged_ : bool
        Whether the optimizer met its stopping test.
    objective_ : float
        The penalized negative log likelihood at the end.
    mean_ : ndarray
        The standardization's means.
    n_iter_ : int
        Iterations run.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    References
    ----------
    le Cessie, S. & van Houwelingen, J. C. (1992). *Ridge estimators in logistic regression*. Applied Statistics
    41.

    Kang, C. & Tian, J. (2006). *A Hybrid Generative/Discriminative Bayesian Classifier*. FLAIRS 2006 (P(C | S1)
    of HBayes).

    Examples
    --------
    >>> from nbx.models.logistic import LogisticRegression
    >>> X = [[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]
    >>> y = ["no", "no", "no", "yes", "no", "yes", "yes", "yes"]
    >>> model = LogisticRegression().fit(X, y)
    >>> print(model.predict([[2.5], [6.5]]))
    ['no' 'yes']
    >>> print(model.predict_proba([[2.5], [6.5]]).round(2))
    [[0.93 0.07]
     [0.07 0.93]]
    """

    input_kind = "mixed"
    _parameter_constraints = {
        **SOLVER_CONSTRAINTS,
        "warm_start": [BOOLEAN],
        "n_values": N_VALUES,
        "optimizer": [Options(*OPTIMIZERS)],
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(
        self,
        ridge: float = 1e-8,
        max_iter: int = 100,
        tol: float = 1e-10,
        warm_start: bool = False,
        n_values=None,
        optimizer: str = "exact",
        class_weight=None,
    ):
        self.ridge = ridge
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.n_values = n_values
        self.optimizer = optimizer
        self.class_weight = class_weight

    def fit(self, X, y, sample_weight=None, n_values=None):
        """Fit the model on training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric columns as floats, nominal columns as codes ``0 .. n_values[j]-1``; NaN (or a negative
            code in a nominal column) is a missing value.
        y : array-like of shape (n_samples,)
            Class labels (any labels; ``classes_`` holds them sorted).
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights, acting as counts (weight k = k copies of the row, 0 = the row is absent); None = all 1.
        n_values : array-like of int, default=None
            Per column the number of nominal values (0 = numeric); wins over the constructor's ``n_values``.

        Returns
        -------
        self : LogisticRegression
            The fitted estimator.
        """
        X, self.n_values_, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        w = apply_class_weight(self.class_weight, self.classes_, y_idx, w)
        # nominal codes only: the indicator design, never the dense one (Weka's optimizer works on the dense one)
        if np.all(self.n_values_ > 0) and self.optimizer == "exact":
            active = active_of(X, self.n_values_)
            X = None  # (the active columns are the design: the values are not read again)
            p = int(self.n_values_.sum())
            self.column_owner_ = ValueIndex(self.n_values_).attribute_of_row
            self.mean_, self.scale_ = indicator_standardizer(active, w, p)
            Z1 = IndicatorDesign(active, self.mean_, self.scale_)
        else:
            Z, self.column_owner_ = design_matrix(X, self.n_values_)
            self.mean_, self.scale_ = standardizer(Z, w)
            Z1 = standardize(Z, self.mean_, self.scale_)
        k = len(self.classes_)
        previous = getattr(self, "theta_", None)
        if self.warm_start and previous is not None and previous.shape == (Z1.shape[1], k - 1):
            theta0 = previous
        else:
            theta0 = default_start(np.bincount(y_idx, weights=w, minlength=k), Z1.shape[1] - 1)
        Y = one_hot(y_idx, k)
        if self.optimizer == "weka_bfgs":
            from nbx.models.weka_optimization import fit_weka_logistic, weka_columns  # numba loaded only here

            keep = np.concatenate([[True], weka_columns(Z, self.column_owner_, self.n_values_)])
            theta, self.n_iter_, self.converged_ = fit_weka_logistic(
                Z1[:, keep], Y, w, self.ridge, theta0[keep], int(self.max_iter)
            )
            self.theta_ = np.zeros_like(theta0)
            self.theta_[keep] = theta
        else:
            self.theta_, self.n_iter_, self.converged_ = fit_ridge_logistic(
                Z1, Y, w, self.ridge, theta0, self.tol, int(self.max_iter)
            )
        self.objective_ = float(objective(self.theta_, Z1, Y, w, self.ridge)[0])  # to compare the optimizers
        if not self.converged_:
            self._check_useful(Z1, Y, w)
            warn(
                f"LogisticRegression: {OPTIMIZERS[self.optimizer]} stopped after {self.n_iter_} iterations "
                f"before converging (tol={self.tol:g}, max_iter={self.max_iter})",
                ConvergenceWarning,
            )
        # original scale: θ_j / sd_j for slopes; the intercept absorbs −Σ θ_j mean_j / sd_j
        self.coef_weka_ = self.theta_[1:] / self.scale_[:, None]
        self.intercept_weka_ = self.theta_[0] - self.mean_ @ self.coef_weka_
        self.coef_, self.intercept_ = sklearn_layout(self.coef_weka_, self.intercept_weka_)
        return self

    def _check_useful(self, Z1: np.ndarray, Y: np.ndarray, w: np.ndarray) -> None:
        """After a fit that did not converge: raise if the model is no better than the class prior on its own
        training rows (weighted log-likelihood Σ w log P(y | x) <= Σ_c W_c log(W_c / W)), so a failed
        optimization never passes as a model behind a warning that filters may hide."""
        fitted = float(np.sum(w * np.sum(Y * log_proba(Z1, self.theta_), axis=1)))
        class_weight = Y.T @ w
        seen = class_weight > 0
        prior = float(np.sum(class_weight[seen] * np.log(class_weight[seen] / class_weight.sum())))
        if not fitted > prior:
            raise ValueError(
                f"LogisticRegression: {OPTIMIZERS[self.optimizer]} stopped after {self.n_iter_} iterations without "
                f"converging (tol={self.tol:g}, max_iter={self.max_iter}) at a model no better than the class prior "
                f"on the training data (log-likelihood {fitted:.6g} <= {prior:.6g}); not returning it"
            )

    def fit_info(self) -> dict:
        """Iterations and convergence of the fit, the objective reached and the largest standardized slope
        ``|θ_kj|`` (j >= 1), for fit_info.json."""
        return {
            "n_iter": int(self.n_iter_),
            "converged": bool(self.converged_),
            "objective": self.objective_,
            "max_abs_slope": float(np.max(np.abs(self.theta_[1:]), initial=0.0)),
        }

    def _design(self, X):
        X = check_mixed_X(self, X)
        if np.all(self.n_values_ > 0):
            return IndicatorDesign(active_of(X, self.n_values_), self.mean_, self.scale_)
        return standardize(design_matrix(X, self.n_values_)[0], self.mean_, self.scale_)

    def _class_scores(self, X) -> np.ndarray:
        """Class scores (n, K) on the log scale (reference class 0)."""
        return _scores(self._design(X), self.theta_)

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the rows of ``X``.

        The softmax of the linear scores, the reference class scoring 0.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        # exp of the log-softmax, as Newton's steps compute P (not LogScoreMixin's shifted softmax; the
        # committed predictions were made so)
        return np.exp(self.predict_log_proba(X))
