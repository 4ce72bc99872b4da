"""Discretizers (fit on a fold's training part, apply to its test part) and the mode imputer.

``make_discretizer({"kind": ...})`` builds one from a params.yaml block:

* ``mdl``          Fayyad & Irani 1993 entropy/MDL cuts, identical to Weka's supervised Discretize
                   (seed 001 §2.2, seed 004 §2);
* ``stddev``       one-standard-deviation significance classes (seed 000 §4), option ``width`` (1.0);
* ``equal_width``  Weka's unsupervised equal-width bins (seed 003), option ``bins`` (10);
* ``none``         all columns must already be nominal; codes pass through.

All share :class:`~nbx.discretize.base.Discretizer`: ``fit(X, n_values, y, sample_weight)``,
``transform(X)`` -> int64 codes (missing -> -1), ``n_values_``, ``cut_points_``.
"""
from __future__ import annotations

import numpy as np

from .base import Discretizer
from .equal_width import EqualWidthDiscretizer
from .impute import ModeImputer
from .mdl import MDLDiscretizer
from .stddev import StdDevDiscretizer


class NoDiscretizer(Discretizer):
    """Pass-through for data whose columns are all nominal; numeric columns are an error."""

    def __init__(self):
        pass

    def _check_columns(self, nv: np.ndarray) -> None:
        numeric = np.flatnonzero(nv == 0).tolist()
        if numeric:
            raise ValueError(f"discretizer.kind 'none' needs all columns nominal; numeric columns: {numeric}")


KINDS = {"mdl": MDLDiscretizer, "stddev": StdDevDiscretizer, "equal_width": EqualWidthDiscretizer,
         "none": NoDiscretizer}


def make_discretizer(config) -> Discretizer:
    """A discretizer from ``{"kind": ..., **options}`` (a params.yaml ``discretizer`` block)."""
    if isinstance(config, str):
        config = {"kind": config}
    if not isinstance(config, dict) or "kind" not in config:
        raise ValueError(f"discretizer must be a mapping with a 'kind' key (one of {sorted(KINDS)}), "
                         f"got {config!r}")
    options = dict(config)
    kind = options.pop("kind")
    if kind not in KINDS:
        raise ValueError(f"discretizer.kind {kind!r} is not one of {sorted(KINDS)}")
    cls = KINDS[kind]
    valid = cls._param_names()
    unknown = sorted(set(options) - set(valid))
    if unknown:
        raise ValueError(f"discretizer.{unknown[0]}: unknown option for kind {kind!r}; valid: {valid}")
    return cls(**options)


__all__ = ["Discretizer", "EqualWidthDiscretizer", "KINDS", "MDLDiscretizer", "ModeImputer", "NoDiscretizer",
           "StdDevDiscretizer", "make_discretizer"]
