"""General Naive Bayes, GNB (Wang, Li, Cao & Yuan 2006, "Combining decision tree and Naive Bayes for
classification", §3-4): naive Bayes over mixed attributes, eq. (10)-(11)

    c* = argmax_c  P(c) · Π_{numeric i} p(x_i | c) · Π_{nominal j} P(x_j | c),

with p(x_i | c) a Gaussian-kernel density, eq. (13): p̂(x | c) = 1/(m h) Σ_k K((x - x_k)/h),
K(t) = (2π)^{-1/2} exp(-t²/2), m the number of class-c training cases, h = c_X / √m, and c_X chosen
per attribute and class by an exhaustive grid search (step 0.01 over [0.2, 0.8]) minimizing the
leave-one-out cross-entropy (§4, after Smyth, Gray & Fayyad 1995)

    CV_CE = -1/m Σ_k log( 1/((m-1) h) Σ_{j≠k} K((x_j - x_k)/h) ).

Choices where the paper is silent (see also the report):

* Scale of h (``scale``). The paper writes h = c_X/√m with a dimensionless c_X ∈ [0.2, 0.8] and says
  nothing about standardizing attributes. A raw h would make the estimator depend on the unit of each
  attribute (an attribute measured in mm would get a 1000x narrower kernel than in m), so by default
  (``scale="std"``) h = c_X · s / √m with s the weighted standard deviation of the attribute in the
  class (the class-free standard deviation at fit time when the class has a single distinct value).
  ``scale="none"`` is the literal reading h = c_X/√m on raw values; ``scale="range"`` uses the class's
  range (as Weka's KernelEstimator does, h = range/√m).
* Nominal attributes and the class prior use Laplace's rule with ``alpha`` (the paper's eq. 12 is the
  maximum-likelihood estimate; Laplace avoids zero probabilities, as the NB leaves of NBTree use).
* Missing values (NaN) are skipped: they neither enter the densities/counts nor contribute a factor at
  prediction; m is the (weighted) number of class-c cases whose value is observed.
* A class with no training weight gets probability 0 (its density is undefined). An attribute that is
  constant over the training data is ignored. If a class has training cases but none with the attribute
  observed, the attribute contributes no factor for that class.
* Weights: a weight of k equals k copies. m is the weighted class count; the leave-one-out sum removes
  one copy of the left-out case (min(w, 1) of its weight, so fractional weights below 1 remove the
  whole case).
* ``density="gaussian"`` replaces the kernel density by one Gaussian per attribute and class (weighted
  mean and standard deviation), for comparison (Wang §6, Fig. 3 discussion).

Speed: the densities of a class are sums over its *distinct* values (weights summed), so integer-valued
attributes (letter, optdigits) cost (#distinct)² per class instead of m². Pairwise kernel blocks are
batched over (attribute, class) segments and bounded to ``BLOCK`` elements; all sums are log-sum-exp.
Cost grows with (#distinct values per class)² · 61 grid values: truly continuous attributes with thousands
of distinct values per class are slow (seconds per fit); evaluation costs rows × all centers.
"""
from __future__ import annotations

from numbers import Real

import numpy as np

from ..discretize.base import nominal_codes
from ..validation import Interval, Options
from .base import N_VALUES, BaseEstimator, ClassifierMixin, DecisionMixin, check_mixed_fit, check_mixed_X
from .counting import ValueIndex, log_normalize, log_softmax
from .naive_bayes import nb_log_tables

BLOCK = 1 << 22  # max elements of one temporary (pairwise, grid) block
HALF_LOG_2PI = 0.5 * np.log(2.0 * np.pi)
DENSITIES = ("kernel", "gaussian")
SCALES = ("std", "range", "none")


def _grouped_logsumexp(T: np.ndarray, starts: np.ndarray, group_of_col: np.ndarray) -> np.ndarray:
    """log Σ exp over contiguous column groups of T (rows, cols) -> (rows, n_groups); groups non-empty."""
    M = np.maximum.reduceat(T, starts, axis=1)
    M = np.where(np.isfinite(M), M, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.add.reduceat(np.exp(T - M[:, group_of_col]), starts, axis=1)) + M


def _weighted_std(values, weights, seg, n_seg) -> np.ndarray:
    """Weighted (population) standard deviation of values per segment (0 for empty segments).

    A segment whose values are all equal gets exactly 0: the rounding error of its computed mean would
    otherwise leave a std of ~1e-15 |mean|, a near-zero bandwidth and an astronomically peaked density
    (seen on sick-euthyroid, where an attribute missing in a whole class is imputed to one value)."""
    W = np.bincount(seg, weights, minlength=n_seg)
    safe = np.where(W > 0, W, 1.0)
    mean = np.bincount(seg, weights * values, minlength=n_seg) / safe
    var = np.bincount(seg, weights * (values - mean[seg]) ** 2, minlength=n_seg) / safe
    lo = np.full(n_seg, np.inf)
    hi = np.full(n_seg, -np.inf)
    np.minimum.at(lo, seg, values)
    np.maximum.at(hi, seg, values)
    return np.where(hi > lo, np.sqrt(np.maximum(var, 0.0)), 0.0), mean, W


def loo_cross_entropy(centers, center_logw, center_seg, obs_center, obs_w, obs_r, seg_m, seg_base,
                      grid) -> np.ndarray:
    """Leave-one-out cross-entropy (Wang §4) per segment and grid value, shape (n_seg, len(grid)).

    A segment is one (attribute, class) sample, stored as sorted distinct values ``centers`` with summed
    weights ``exp(center_logw)``; ``center_seg`` gives each center's segment (contiguous). Observations
    (``obs_center``, weight ``obs_w``, removed weight ``obs_r``) are the cases whose LOO density is scored.
    h = grid · seg_base. LOO numerator: Σ_{u'≠u} W_u' K + (W_u - r) K(0), kept in log space (no
    cancellation for isolated points).
    """
    n_seg, G = len(seg_m), len(grid)
    sizes = np.bincount(center_seg, minlength=n_seg)
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    L = np.full((len(centers), G), -np.inf)  # log Σ_{u'≠u} W_u' exp(-(u-u')²/(2h²)) per center and grid
    order = np.argsort(sizes, kind="stable")
    order = order[sizes[order] > 0]
    pos = 0
    while pos < len(order):
        U = int(sizes[order[pos]])
        # Largest batch of (ascending-size) segments whose padded pairwise block fits.
        end = pos + 1
        while end < len(order) and (end - pos + 1) * int(sizes[order[end]]) ** 2 <= BLOCK:
            end += 1
        batch = order[pos:end]
        U = int(sizes[batch[-1]])
        S = len(batch)
        col = np.arange(U)
        valid = col[None, :] < sizes[batch][:, None]
        idx = np.where(valid, first[batch][:, None] + col[None, :], 0)
        vals = np.where(valid, centers[idx], 0.0)
        logw = np.where(valid, center_logw[idx], -np.inf)
        a = 1.0 / (2.0 * (grid[None, :] * seg_base[batch][:, None]) ** 2)  # (S, G)
        gc = int(min(G, max(1, BLOCK // (S * U * U))))
        R = int(min(U, max(1, BLOCK // (S * gc * U))))
        for r0 in range(0, U, R):
            r1 = min(U, r0 + R)
            D = (vals[:, r0:r1, None] - vals[:, None, :]) ** 2  # (S, R, U)
            lw = np.broadcast_to(logw[:, None, :], D.shape).copy()
            rr = np.arange(r0, r1)
            lw[:, rr - r0, rr] = -np.inf  # leave the own value out (added back with weight W_u - r)
            for g0 in range(0, G, gc):
                g1 = min(G, g0 + gc)
                T = lw[:, None] - a[:, g0:g1, None, None] * D[:, None]  # (S, g, R, U)
                M = T.max(axis=-1)
                Mf = np.where(np.isfinite(M), M, 0.0)
                with np.errstate(divide="ignore"):
                    lse = np.log(np.exp(T - Mf[..., None]).sum(axis=-1)) + Mf  # (S, g, R)
                ok = valid[:, r0:r1]
                tgt = idx[:, r0:r1][ok]
                L[tgt, g0:g1] = np.moveaxis(lse, 1, 2)[ok]
        pos = end
    seg = center_seg[obs_center]
    with np.errstate(divide="ignore", invalid="ignore"):
        own = np.log(np.maximum(np.exp(center_logw[obs_center]) - obs_r, 0.0))
        num = np.logaddexp(L[obs_center], own[:, None])
        rest = seg_m[seg] - obs_r
        log_h = np.log(grid[None, :] * seg_base[seg][:, None])
        term = np.where(rest[:, None] > 0, num - np.log(np.where(rest > 0, rest, 1.0))[:, None] - log_h
                        - HALF_LOG_2PI, -np.inf)
    contrib = -(obs_w[:, None] * term)  # (n_obs, G); +inf where the LOO density is empty
    flat = (seg[:, None] * G + np.arange(G)[None, :]).ravel()
    ce = np.bincount(flat, weights=contrib.ravel(), minlength=n_seg * G).reshape(n_seg, G)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ce / np.where(seg_m > 0, seg_m, 1.0)[:, None]


class GeneralNB(DecisionMixin, ClassifierMixin, BaseEstimator):
    """GNB of Wang et al. 2006 §3-4 (kernel densities for numeric attributes, counts for nominal ones).

    Parameters: ``density`` ("kernel" | "gaussian"), ``c_min``, ``c_max``, ``c_step`` (the grid of c_X,
    §4: 0.2, 0.8, 0.01), ``scale`` ("std" | "range" | "none", unit of h, see the module docstring),
    ``alpha`` (Laplace pseudo-count for nominal attributes and the class prior), ``n_values`` (per column
    the number of nominal values, 0 = numeric; the ``fit`` keyword wins; None = all numeric). A nominal
    code >= n_values is an error at fit and a missing value (no factor) at predict.

    Fitted attributes: ``classes_``, ``n_values_``, ``class_count_``, ``bandwidth_c_`` (d, K) chosen c_X
    (NaN for nominal/ignored or gaussian), ``bandwidth_`` (d, K) the h (kernel) or σ (gaussian) used.
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "density": [Options(*DENSITIES)],
        "c_min": [Interval(Real, 0, None, "neither")],
        "c_max": [Interval(Real, 0, None, "neither")],
        "c_step": [Interval(Real, 0, None, "neither")],
        "scale": [Options(*SCALES)],
        "alpha": [Interval(Real, 0, None, "left")],
        "n_values": N_VALUES,
    }

    def __init__(self, density: str = "kernel", c_min: float = 0.2, c_max: float = 0.8,
                 c_step: float = 0.01, scale: str = "std", alpha: float = 1.0, n_values=None):
        self.density = density
        self.c_min = c_min
        self.c_max = c_max
        self.c_step = c_step
        self.scale = scale
        self.alpha = alpha
        self.n_values = n_values

    # ------------------------------------------------------------------ fitting
    def _check_params(self):  # the other parameters: _parameter_constraints, checked by fit (or the owning tree)
        if self.c_min > self.c_max:
            raise ValueError(f"need c_min <= c_max, got c_min={self.c_min!r}, c_max={self.c_max!r}")

    def fit_info(self) -> dict:
        """Where the §4 bandwidth search ended (for the reports): the share of (numeric attribute, class)
        constants c_X at the grid's lower and upper bounds. Many at the lower bound mean the leave-one-out
        criterion wanted narrower kernels than the grid allows, typical of attributes with few distinct,
        repeated values (letter, optdigits): ties make a narrow kernel look good to leave-one-out."""
        c = self.bandwidth_c_[np.isfinite(self.bandwidth_c_)] if self.density == "kernel" else np.array([])
        at = lambda bound: round(float(np.mean(np.isclose(c, bound))), 4) if c.size else None  # noqa: E731
        return {"kernel_c_at_min": at(self.c_min), "kernel_c_at_max": at(self.grid_()[-1])}

    def grid_(self) -> np.ndarray:
        n = int(np.floor((self.c_max - self.c_min) / self.c_step + 1e-9)) + 1
        return np.round(self.c_min + self.c_step * np.arange(n), 10)

    def fit(self, X, y, sample_weight=None, n_values=None):
        X, nv, self.classes_, y_idx, w = check_mixed_fit(self, X, y, sample_weight, n_values)
        return self._fit_indexed(X, y_idx, w, nv, len(self.classes_))

    def _fit_indexed(self, X, y_idx, w, nv, n_classes):
        """Fit on class indices 0..n_classes-1 (some may be absent); used by the trees."""
        self._check_params()
        self.n_values_ = nv
        self.n_features_in_ = X.shape[1]
        self.n_classes_ = n_classes
        if not hasattr(self, "classes_") or len(self.classes_) != n_classes:
            self.classes_ = np.arange(n_classes)
        K = n_classes
        self.class_count_ = np.bincount(y_idx, weights=w, minlength=K)
        a = self.alpha
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(self.class_count_ + a) - np.log(self.class_count_.sum() + K * a)
        self._nominal = np.flatnonzero(nv > 0)
        self._numeric = np.flatnonzero(nv == 0)
        self._index = ValueIndex(nv[self._nominal])
        codes = nominal_codes(X[:, self._nominal], nv[self._nominal])
        self.feature_count_ = self._index.counts(codes, y_idx, w, K)[:-1]
        _, self.log_table_ = nb_log_tables(self.feature_count_, self.class_count_, self._index,
                                           "laplace", a)
        self._fit_numeric(X[:, self._numeric], y_idx, w)
        return self

    def _fit_numeric(self, Xn, y_idx, w):
        K, dn = self.n_classes_, Xn.shape[1]
        n_seg = dn * K
        obs_i, obs_j = np.nonzero(~np.isnan(Xn) & (w[:, None] > 0))
        vals = Xn[obs_i, obs_j]
        ow = w[obs_i]
        seg = obs_j * K + y_idx[obs_i]
        # Pooled spread per attribute: fallback scale, and zero marks a constant (ignored) attribute.
        pooled_std, _, _ = _weighted_std(vals, ow, obs_j, dn)
        seg_std, seg_mean, seg_m = _weighted_std(vals, ow, seg, n_seg)
        attr_of_seg = np.repeat(np.arange(dn), K)
        active = (seg_m > 0) & (pooled_std[attr_of_seg] > 0)
        seg_std = np.where(seg_std > 0, seg_std, pooled_std[attr_of_seg])
        self._seg_m = seg_m
        self._seg_active = active
        self._n_seg_K = K
        self.bandwidth_c_ = np.full((len(self.n_values_), K), np.nan)
        self.bandwidth_ = np.full((len(self.n_values_), K), np.nan)
        if self.density == "gaussian":
            h = np.where(active, seg_std, 1.0)
            self._set_centers(seg_mean[active], np.log(seg_m[active]), np.flatnonzero(active), h)
            self.bandwidth_[self._numeric] = np.where(active, h, np.nan).reshape(dn, K)
            return
        # Distinct (segment, value) pairs are the kernel centers, with summed weights.
        keep = active[seg]
        seg, vals, ow = seg[keep], vals[keep], ow[keep]
        order = np.lexsort((vals, seg))
        seg, vals, ow = seg[order], vals[order], ow[order]
        new = np.ones(len(vals), bool)
        new[1:] = (seg[1:] != seg[:-1]) | (vals[1:] != vals[:-1])
        center_of_obs = np.cumsum(new) - 1
        centers, center_seg = vals[new], seg[new]
        center_w = np.bincount(center_of_obs, ow)
        spread = self._scale(vals, ow, seg, n_seg, seg_std, pooled_std[attr_of_seg])
        base = np.where(active, spread / np.sqrt(np.where(seg_m > 0, seg_m, 1.0)), 1.0)
        # Observations scored by the LOO criterion: (center, removed weight) pairs with summed weight.
        r = np.minimum(ow, 1.0)
        pair, pair_of_obs = np.unique(np.stack([center_of_obs, r]), axis=1, return_inverse=True)
        pair_of_obs = np.ravel(pair_of_obs)
        grid = self.grid_()
        ce = loo_cross_entropy(centers, np.log(center_w), center_seg, pair[0].astype(np.int64),
                               np.bincount(pair_of_obs, ow), pair[1], seg_m, base, grid)
        finite = np.isfinite(ce)
        best = np.where(finite.any(axis=1), np.argmin(np.where(finite, ce, np.inf), axis=1), len(grid) - 1)
        c = grid[best]
        h = c * base
        self.loo_ce_ = ce
        self._set_centers(centers, np.log(center_w), center_seg, h)
        self.bandwidth_c_[self._numeric] = np.where(active, c, np.nan).reshape(dn, K)
        self.bandwidth_[self._numeric] = np.where(active, h, np.nan).reshape(dn, K)

    def _scale(self, vals, ow, seg, n_seg, seg_std, pooled):
        if self.scale == "std":
            return seg_std
        if self.scale == "none":
            return np.ones(n_seg)
        lo = np.full(n_seg, np.inf)
        hi = np.full(n_seg, -np.inf)
        np.minimum.at(lo, seg, vals)
        np.maximum.at(hi, seg, vals)
        rng = np.where(np.isfinite(hi - lo), hi - lo, 0.0)
        return np.where(rng > 0, rng, pooled)

    def _set_centers(self, centers, logw, center_seg, h_seg):
        self._centers = centers
        self._center_logw = logw
        self._center_seg = center_seg
        self._seg_logh = np.log(h_seg)
        self._seg_h = h_seg
        self._segments, self._starts = np.unique(center_seg, return_index=True)
        self._group_of_center = np.searchsorted(self._segments, center_seg)
        # (segment, value rank) keys, increasing because centers are sorted by segment then value.
        self._all_values = np.unique(centers)
        self._center_key = center_seg * len(self._all_values) + np.searchsorted(self._all_values, centers)

    # ------------------------------------------------------------------ evaluation
    def numeric_log_density(self, X, loo_y=None, loo_r=None) -> np.ndarray:
        """log p̂(x_i | c) per numeric attribute, shape (n, n_numeric, K); 0 = no factor (missing/ignored).

        With ``loo_y``/``loo_r`` (training rows only, kernel density): the density of the row's own class
        leaves one copy (weight ``loo_r``) of the row out, as in the LOO criterion of §4.
        """
        X = np.asarray(X, dtype=float)
        Xn = X[:, self._numeric]
        n, dn, K = Xn.shape[0], Xn.shape[1], self._n_seg_K
        out = np.zeros((n, dn * K))
        C = len(self._centers)
        if C == 0 or n == 0:
            return out.reshape(n, dn, K)
        attr_of_center = self._center_seg // K
        h_c = self._seg_h[self._center_seg]
        base = self._center_logw - self._seg_logh[self._center_seg] - HALF_LOG_2PI
        loo = loo_y is not None and self.density == "kernel"
        step = max(1, BLOCK // C)
        for s in range(0, n, step):
            xb = Xn[s:s + step]
            T = base - 0.5 * ((xb[:, attr_of_center] - self._centers) / h_c) ** 2
            if loo:
                T, norm = self._leave_own_out(T, xb, loo_y[s:s + step], loo_r[s:s + step])
            dens = _grouped_logsumexp(np.where(np.isnan(T), -np.inf, T), self._starts, self._group_of_center)
            blk = np.zeros((xb.shape[0], dn * K))
            blk[:, self._segments] = dens - np.log(self._seg_m[self._segments])
            if loo:
                blk += norm
            blk = blk.reshape(-1, dn, K)
            blk[np.isnan(xb)] = 0.0
            out[s:s + step] = blk.reshape(-1, dn * K)
        return out.reshape(n, dn, K)

    def _leave_own_out(self, T, xb, yb, rb):
        """Replace the own center's weight W_u by W_u - r in the own class; return normalizer shifts."""
        K = self._n_seg_K
        rows, attrs = np.nonzero(~np.isnan(xb))
        seg = attrs * K + yb[rows]
        cand, found = self._find_centers(seg, xb[rows, attrs])
        cand, rows_f = cand[found], rows[found]
        w_own = np.exp(self._center_logw[cand])
        with np.errstate(divide="ignore"):
            T[rows_f, cand] = (np.log(np.maximum(w_own - rb[rows_f], 0.0))
                               - self._seg_logh[self._center_seg[cand]] - HALF_LOG_2PI)
        norm = np.zeros((xb.shape[0], xb.shape[1] * K))
        m = self._seg_m[seg]
        with np.errstate(divide="ignore"):
            rest = m - rb[rows]  # a class emptied by the removal is masked out later (log_joint)
            norm[rows, seg] = np.where(rest > 0, np.log(np.where(m > 0, m, 1.0)) - np.log(np.where(rest > 0, rest, 1.0)), 0.0)
        return T, norm

    def _find_centers(self, seg, vals):
        """Index of the center (segment, value) for each query and whether it exists."""
        nv = len(self._all_values)
        rank = np.minimum(np.searchsorted(self._all_values, vals), max(nv - 1, 0))
        key = seg * nv + rank
        pos = np.minimum(np.searchsorted(self._center_key, key), max(len(self._center_key) - 1, 0))
        found = (self._all_values[rank] == vals) & (self._center_key[pos] == key)
        return pos, found

    def log_joint(self, X, loo_y=None, loo_r=None) -> np.ndarray:
        """log P(c) + Σ log p(x_i|c) + Σ log P(x_j|c), shape (n, K); absent classes -inf.

        With ``loo_y``/``loo_r`` each training row's own class is scored without one copy of the row
        (counts, prior and kernel densities): the leave-one-out estimate used by the S-NBTree.
        """
        X = check_mixed_X(self, X)
        codes = nominal_codes(X[:, self._nominal], self.n_values_[self._nominal])
        K = self.n_classes_
        rows = self._index.rows(codes)
        out = self.class_log_prior_ + self._index.lookup_sum(self.log_table_, codes)
        if loo_y is not None:
            out = out + self._nominal_loo_shift(rows, loo_y, loo_r)
        out = out + self.numeric_log_density(X, loo_y, loo_r).sum(axis=1)
        counts = self.class_count_[None, :] - (np.eye(K)[loo_y] * loo_r[:, None] if loo_y is not None else 0)
        out = np.where(counts > 1e-12, out, -np.inf)
        dead = ~np.isfinite(out).any(axis=1)
        if np.any(dead):  # no class left with a finite score: fall back to the prior
            out[dead] = np.where(self.class_count_ > 0, self.class_log_prior_, -np.inf)
        return out

    def _nominal_loo_shift(self, rows, y, r):
        """Change of the own-class log prior and nominal log terms when one copy (r) of the row is removed."""
        a, K = self.alpha, self.n_classes_
        n = len(y)
        shift = np.zeros((n, K))
        nc = self.class_count_[y]
        with np.errstate(divide="ignore", invalid="ignore"):
            # The prior's denominator N + Kα loses r for every class; its numerator only for the own class.
            N = self.class_count_.sum()
            shift += (np.log(N + K * a) - np.log(N - r + K * a))[:, None]
            total = np.log(nc - r + a) - np.log(nc + a)
            if rows.shape[1]:
                observed = rows < self._index.n_rows
                safe = np.where(observed, rows, 0)
                ncv = self.feature_count_[safe, y[:, None]]
                attr = self._index.attribute_of_row[safe]
                ncj = self._index.per_attribute_totals(self.feature_count_)[attr, y[:, None]]
                V = self._index.n_values[attr]
                d = (np.log(ncv - r[:, None] + a) - np.log(ncv + a)
                     - np.log(ncj - r[:, None] + V * a) + np.log(ncj + V * a))
                total = total + np.where(observed, d, 0.0).sum(axis=1)
        shift[np.arange(n), y] += np.where(np.isfinite(total), total, -np.inf)
        return shift

    def loo_correct(self, X, y_idx, w) -> float:
        """Weighted number of training rows the leave-one-out GNB classifies correctly."""
        r = np.minimum(w, 1.0)
        joint = self.log_joint(X, y_idx, r)
        return float(np.sum(w * (np.argmax(joint, axis=1) == y_idx)))

    def _class_scores(self, X) -> np.ndarray:
        return self.log_joint(X)

    def predict_log_proba(self, X) -> np.ndarray:
        joint = self.log_joint(X)
        return log_softmax(joint)

    def predict_proba(self, X) -> np.ndarray:
        return log_normalize(self.log_joint(X))
