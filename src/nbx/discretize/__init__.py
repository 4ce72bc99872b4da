"""Discretizers (fit on a fold's training part, apply to its test part) and the mode imputer.

``make_discretizer({"kind": ...})`` builds one from a params.yaml block:

* ``mdl``          Fayyad & Irani 1993 entropy/MDL cuts, identical to Weka's supervised Discretize
                   (Wang et al. 2006 §2.2, Ting & Zheng 2003 §3);
* ``stddev``       one-standard-deviation significance classes (Wiering 2003 §4), option ``width`` (1.0);
* ``equal_width``  Weka's unsupervised equal-width bins (Kang & Tian 2006), option ``bins`` (10);
* ``none``         all columns must already be nominal; codes pass through.

All share :class:`~nbx.discretize.base.Discretizer`, a scikit-learn transformer: the constructor parameter
``n_values`` says which columns are nominal, ``fit(X, y=None, sample_weight=None)`` (``y`` required by
``mdl``), ``transform(X)`` -> int64 codes (missing -> -1), ``fit_transform``, ``get_feature_names_out``,
``set_output(transform="pandas")`` (DataFrames out), fitted ``n_values_`` (output cardinalities, for the
learners) and ``cut_points_``. So
``make_pipeline(MDLDiscretizer(), NaiveBayes())`` is Weka's discretize-then-learn protocol.
"""

from __future__ import annotations

import numpy as np

from nbx.core.base import N_VALUES, as_codes, frame_n_values, mixed_n_values, resolve_n_values
from nbx.discretize.base import Discretizer
from nbx.discretize.equal_width import EqualFrequencyDiscretizer, EqualWidthDiscretizer
from nbx.discretize.impute import ModeImputer
from nbx.discretize.mdl import MDLDiscretizer
from nbx.discretize.stddev import StdDevDiscretizer


class NoDiscretizer(Discretizer):
    """Pass-through for data whose columns are all nominal; numeric columns are an error.

    The ``discretizer.kind: none`` of params.yaml.

    Parameters
    ----------
    n_values : array-like of int, default=None
        Per column the number of values; None infers every column's cardinality from the training codes
        (max + 1, as the discrete learners do).

    Attributes
    ----------
    cut_points_ : list of ndarray or None
        Per column the sorted cut points, None for a nominal column.
    n_values_ : ndarray of int
        Output cardinality per column, to pass on to a learner.
    input_n_values_ : ndarray of int
        The input columns' ``n_values`` (0 = numeric).
    n_features_in_ : int
        Number of columns seen at fit.
    categories_ : list of (ndarray or None)
        When fitted on a DataFrame with category, object, string or bool columns: per column its categories in
        code order (None for the other columns), which code predict's frame (an unseen value is missing).

    Examples
    --------
    >>> from nbx.discretize import NoDiscretizer
    >>> disc = NoDiscretizer().fit([[0, 2], [1, 0], [1, 1]])
    >>> print(disc.n_values_)
    [2 3]
    >>> print(disc.transform([[1, 2], [0, 0]]))
    [[1 2]
     [0 0]]
    """

    input_kind = "discrete"  # takes integer codes (scikit-learn's categorical input tag)
    _parameter_constraints = {"n_values": N_VALUES}

    def __init__(self, n_values=None):
        self.n_values = n_values

    def _input_n_values(self, X: np.ndarray) -> np.ndarray:
        if self.n_values is None:
            codes = as_codes(X, self)
            return resolve_n_values(codes, frame_n_values(self, codes))
        nv = mixed_n_values(X, self.n_values)
        numeric = np.flatnonzero(nv == 0).tolist()
        if numeric:
            raise ValueError(f"discretizer.kind 'none' needs all columns nominal; numeric columns: {numeric}")
        return nv


KINDS = {
    "mdl": MDLDiscretizer,
    "stddev": StdDevDiscretizer,
    "equal_width": EqualWidthDiscretizer,
    "none": NoDiscretizer,
}


def make_discretizer(config) -> Discretizer:
    """A discretizer from ``{"kind": ..., **options}`` (a params.yaml ``discretizer`` block)."""
    if isinstance(config, str):
        config = {"kind": config}
    if not isinstance(config, dict) or "kind" not in config:
        raise ValueError(f"discretizer must be a mapping with a 'kind' key (one of {sorted(KINDS)}), got {config!r}")
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


__all__ = [
    "KINDS",
    "Discretizer",
    "EqualFrequencyDiscretizer",
    "EqualWidthDiscretizer",
    "MDLDiscretizer",
    "ModeImputer",
    "NoDiscretizer",
    "StdDevDiscretizer",
    "make_discretizer",
]
