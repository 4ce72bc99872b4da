"""scikit-learn's ``class_weight`` parameter as multipliers of the sample weights (``compute_class_weight``).

``class_weight=None`` leaves a learner's weights untouched (the same array: the fit is bit for bit the one
without the parameter); ``"balanced"`` gives class c the multiplier W / (K · W_c), W the total weight and W_c
class c's (scikit-learn weighs the counts by ``sample_weight`` too); a dict maps class labels to multipliers,
classes it does not name keep 1.
"""

from __future__ import annotations

import numpy as np

from nbx.core.validation import NONE, Constraint

# the constraint of a ``class_weight`` parameter
CLASS_WEIGHT = [
    Constraint('"balanced"', lambda v: isinstance(v, str) and v == "balanced"),
    Constraint("a dict", lambda v: isinstance(v, dict)),
    NONE,
]


def class_weights(class_weight, classes: np.ndarray, y_idx: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Per class the multiplier of the sample weights, as ``sklearn.utils.class_weight.compute_class_weight``.

    Parameters
    ----------
    class_weight : "balanced" or dict
        ``"balanced"``: W / (K · W_c) from the weighted class totals (a class without weight gets 1); a dict:
        ``{label: multiplier}``, every key a label of ``classes``.
    classes : ndarray of shape (n_classes,)
        The class labels, ``classes_``.
    y_idx : ndarray of shape (n_samples,)
        Class indices of the rows.
    w : ndarray of shape (n_samples,)
        The rows' sample weights.

    Returns
    -------
    multipliers : ndarray of shape (n_classes,)
        The factor of each class's rows.
    """
    k = len(classes)
    if isinstance(class_weight, str):
        totals = np.bincount(y_idx, weights=w, minlength=k)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = totals.sum() / (k * totals)
        return np.where(totals > 0, out, 1.0)
    labels = {str(c): i for i, c in enumerate(classes.tolist())}
    out = np.ones(k)
    for key, value in class_weight.items():
        if str(key) not in labels:
            raise ValueError(f"class_weight names the class {key!r}, which is not among the classes {list(classes)}")
        if not (np.isfinite(value) and value >= 0):
            raise ValueError(f"class_weight of class {key!r} must be a finite non-negative number, got {value!r}")
        out[labels[str(key)]] = float(value)
    return out


def apply_class_weight(class_weight, classes: np.ndarray, y_idx: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The sample weights times their class's multiplier (:func:`class_weights`); ``w`` itself when None.

    Parameters
    ----------
    class_weight : "balanced", dict or None
        The learner's ``class_weight``.
    classes, y_idx, w : ndarray
        As in :func:`class_weights`.

    Returns
    -------
    weights : ndarray of shape (n_samples,)
        The weights to fit with; rows whose class has the multiplier 0 get weight 0.
    """
    if class_weight is None:
        return w
    return w * class_weights(class_weight, classes, y_idx, w)[y_idx]
