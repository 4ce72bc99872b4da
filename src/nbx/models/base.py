"""Estimator conventions shared by every learner (scikit-learn style, without scikit-learn).

A learner's constructor only stores its keyword arguments; ``get_params``/``set_params`` read them back
from the constructor signature, so ``clone`` and parameter grids work as in scikit-learn.

Input convention: ``X`` is a 2-D numeric array. Missing values are NaN (float input) or negative codes
(integer input). ``fit`` takes an optional ``n_values`` keyword: per column the number of nominal values
(codes ``0 .. n-1``), or 0 for a numeric column. Learners that need discrete input infer ``max + 1`` per
column when it is not given.
"""
from __future__ import annotations

import copy
import inspect

import numpy as np


class BaseEstimator:
    """get_params / set_params from the constructor signature, and a readable repr."""

    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values()
                if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    def get_params(self, deep: bool = True) -> dict:
        out = {}
        for name in self._param_names():
            value = getattr(self, name)
            out[name] = value
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update({f"{name}__{k}": v for k, v in value.get_params().items()})
        return out

    def set_params(self, **params):
        valid = set(self._param_names())
        nested: dict[str, dict] = {}
        for key, value in params.items():
            name, _, sub = key.partition("__")
            if name not in valid:
                raise ValueError(f"{type(self).__name__}: unknown parameter {name!r}; valid: {sorted(valid)}")
            if sub:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            getattr(self, name).set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items())
        return f"{type(self).__name__}({args})"


def clone(estimator):
    """A new unfitted estimator with the same parameters (nested estimators cloned too)."""
    params = {k: clone(v) if isinstance(v, BaseEstimator) else copy.deepcopy(v)
              for k, v in estimator.get_params(deep=False).items()}
    return type(estimator)(**params)


class ClassifierMixin:
    """predict = argmax of predict_proba; score = accuracy."""

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def score(self, X, y, sample_weight=None) -> float:
        return float(np.average(self.predict(X) == np.asarray(y), weights=sample_weight))


def check_rng(random_state) -> np.random.Generator:
    """A numpy Generator from None, an int seed or a Generator."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


def encode_labels(y) -> tuple[np.ndarray, np.ndarray]:
    """(classes_, y as indices 0..K-1)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}")
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.intp)


def check_weights(sample_weight, n: int) -> np.ndarray:
    """Sample weights as float array of length n (ones when None); rejects negative or non-finite."""
    if sample_weight is None:
        return np.ones(n)
    w = np.asarray(sample_weight, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"sample_weight has shape {w.shape}, expected ({n},)")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must be finite and non-negative")
    return w


def as_codes(X) -> np.ndarray:
    """Discrete input as an int array with -1 for missing (NaN or any negative value)."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    if np.issubdtype(X.dtype, np.integer):
        return np.where(X < 0, -1, X).astype(np.int64, copy=False)
    Xf = X.astype(float)
    missing = np.isnan(Xf)
    if np.any(Xf[~missing] != np.round(Xf[~missing])):
        raise ValueError("discrete learners need integer codes; discretize numeric columns first")
    return np.where(missing | (Xf < 0), -1, np.nan_to_num(Xf)).astype(np.int64)


def resolve_n_values(codes: np.ndarray, n_values) -> np.ndarray:
    """Per-column cardinality: given, or max code + 1 (at least 1)."""
    inferred = np.maximum(codes.max(axis=0, initial=-1) + 1, 1) if codes.size else np.ones(codes.shape[1], int)
    if n_values is None:
        return inferred.astype(np.int64)
    nv = np.asarray(n_values, dtype=np.int64)
    if nv.shape != (codes.shape[1],):
        raise ValueError(f"n_values has shape {nv.shape}, expected ({codes.shape[1]},)")
    if np.any(nv <= 0):
        bad = np.flatnonzero(nv <= 0).tolist()
        raise ValueError(f"discrete learner got numeric columns {bad}; discretize them first")
    if np.any(inferred > nv):
        bad = np.flatnonzero(inferred > nv).tolist()
        raise ValueError(f"codes exceed n_values in columns {bad}")
    return nv


def check_discrete_fit(estimator, X, y, sample_weight, n_values) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a discrete learner's fit input; sets ``classes_`` and ``n_values_`` on the estimator.

    Returns (codes with -1 for missing, class indices, sample weights).
    """
    codes = as_codes(X)
    estimator.classes_, y_idx = encode_labels(y)
    if codes.shape[0] != y_idx.shape[0]:
        raise ValueError(f"X has {codes.shape[0]} rows but y has {y_idx.shape[0]}")
    w = check_weights(sample_weight, codes.shape[0])
    estimator.n_values_ = resolve_n_values(codes, n_values)
    return codes, y_idx, w
