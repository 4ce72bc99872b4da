"""Input and hyperparameter checks shared by every learner and discretizer.

One checker for the whole library, following scikit-learn's conventions and error wordings (so the
estimators pass its common checks) without importing scikit-learn:

* :func:`validate_params` checks a class's declarative ``_parameter_constraints`` at fit ("The 'alpha'
  parameter of NaiveBayes must be a float in the range [0.0, inf). Got -1 instead.");
* :func:`check_array` checks ``X`` (not sparse, numeric, not complex, 2-D, at least one row and column at fit,
  no infinity, the fitted number of features and column names at predict); :func:`set_input_features`
  then records ``n_features_in_`` and, for a DataFrame with string column names, ``feature_names_in_``.
  NaN is always allowed: every nbx estimator reads it as a missing value. A pandas DataFrame's nominal columns
  (:func:`nominal_dtype`: category, object, string, bool) are coded there, once for every estimator: at fit a
  category's codes are its categories in their order, an object or string column's its sorted unique
  non-missing values, a bool's False=0, True=1 (NaN, None, pd.NA missing), kept as ``categories_`` (one array
  per column, None for the others); at predict the same categories code the frame, a value outside them being
  missing (an unseen value). Errors name the column (``X column 'colour': ...``). Anything else (an ndarray, a
  frame without nominal columns) takes the array path it always took;
* :func:`check_labels` checks a classification target (1-D, no NaN, not continuous, not a mix of strings
  and numbers) and encodes it; :func:`check_sample_weight` checks weights (shape, finite, non-negative,
  not all zero) and makes weights whose largest value lies beyond [1e-100, 1e100] relative to it
  (:func:`relative_weights`: a uniform weight of 1e307 fits the model of unit weights, where its sums would
  overflow);
* :func:`drop_absent_rows` then removes the rows of weight 0: every fit preamble (``check_discrete_fit``,
  ``check_mixed_fit`` in :mod:`nbx.core.base`, the ensembles', the discretizers') calls it right after these
  checks, so a row of weight 0 is an absent row everywhere: it adds no class to ``classes_``, no value to an
  inferred ``n_values_``, no cut point, no split, no bootstrap draw. Fitting with integer weights w is then
  fitting on the rows repeated w times wherever the learner counts weights (scikit-learn's
  ``check_sample_weight_equivalence_on_dense_data``); the learners whose draws depend on the number of rows
  say so in their docstrings.

:class:`NotFittedError` (raised by every predict/transform before fit), :class:`InvalidParameterError`,
:class:`DataConversionWarning` and :class:`ConvergenceWarning` have scikit-learn's names and bases; when
scikit-learn is loaded they are raised as subclasses of scikit-learn's classes too, so
``except sklearn.exceptions.NotFittedError`` works and scikit-learn's filters catch the warnings.

Validation happens once per public call: fits and predictions made inside another nbx estimator's fit
(boosting rounds, leaf models, ensemble members) keep the conversions and shape checks but skip the scans
over data the outer fit already checked, and the parameter checks the outer fit already made
(:func:`scans_skipped`), so AdaBoost's 100 base fits cost no extra checks.
"""

from __future__ import annotations

import functools
import math
import sys
import warnings
from contextvars import ContextVar
from numbers import Integral, Real

import numpy as np


class NotFittedError(ValueError, AttributeError):
    """predict/transform called before fit (scikit-learn's ``NotFittedError`` has the same bases)."""

    def __reduce__(self):
        return NotFittedError, self.args


class InvalidParameterError(ValueError, TypeError):
    """A hyperparameter of the wrong type or out of range (a ValueError and a TypeError, as scikit-learn's)."""

    def __reduce__(self):
        return InvalidParameterError, self.args


class DataConversionWarning(UserWarning):
    """The input was converted to the expected form (for example a column-vector y was raveled)."""


class ConvergenceWarning(UserWarning):
    """An iterative fit stopped (``max_iter``, or no further progress) before reaching its tolerance."""


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` with :func:`_sklearn_compatible` ``category``, so scikit-learn's warning filters
    (``ignore_warnings(category=ConvergenceWarning)``) catch it too; it points at the line that calls this."""
    warnings.warn(message, _sklearn_compatible(category), stacklevel=2)


_COMBINED: dict = {}


def _sklearn_compatible(cls):
    """``cls``, or a subclass of it and scikit-learn's class of the same name when scikit-learn is loaded.

    Looks at ``sys.modules`` only: if scikit-learn was never imported nobody can catch its classes.
    """
    other = getattr(sys.modules.get("sklearn.exceptions"), cls.__name__, None)
    if other is None:
        return cls
    if other not in _COMBINED:
        _COMBINED[other] = type(cls.__name__, (cls, other), {"__module__": __name__})
    return _COMBINED[other]


def not_fitted_error(estimator) -> NotFittedError:
    return _sklearn_compatible(NotFittedError)(
        f"This {type(estimator).__name__} instance is not fitted yet. Call 'fit' with appropriate arguments "
        "before using this estimator."
    )


# ------------------------------------------------------------------------------------- nested calls
_ACTIVE_FITS: ContextVar[tuple] = ContextVar("nbx_active_fits", default=())


def tracked_fit(fit):
    """Wrap an estimator's ``fit`` (done for every nbx class by ``BaseEstimator.__init_subclass__``) so the
    checks know whether they run inside another nbx estimator's fit (see :func:`scans_skipped`)."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        active = _ACTIVE_FITS.get()
        if any(a is self for a in active):  # a fit calling super().fit: one fit
            return fit(self, *args, **kwargs)
        token = _ACTIVE_FITS.set(active + (self,))
        try:
            return fit(self, *args, **kwargs)
        finally:
            _ACTIVE_FITS.reset(token)

    return wrapper


def scans_skipped(fit: bool) -> bool:
    """True for a fit nested in another nbx fit (a boosting round's base model, a tree's leaf model, an
    ensemble member) and for a prediction made inside an nbx fit: their data come from an input the
    outer fit already checked, so the O(n) scans (finite values, integer codes, label types, weight
    signs) are skipped, and so are the parameter checks of a nested fit (its estimator was checked as a
    parameter of the outer one, see :func:`validate_params`). Shapes are always checked."""
    return len(_ACTIVE_FITS.get()) > (1 if fit else 0)


# ------------------------------------------------------------------------------------ hyperparameters
class Interval:
    """Finite numbers of one kind (``Integral`` or ``Real``; never bool) between ``left`` and ``right`` (None
    = unbounded); ``closed`` in {"left", "right", "both", "neither"}."""

    def __init__(self, kind, left, right, closed: str = "both"):
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def __call__(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind) or not math.isfinite(value):
            return False  # never bool, NaN or +-inf (the printed ranges are open at infinity)
        lo_ok = self.left is None or (value >= self.left if self.closed in ("left", "both") else value > self.left)
        hi_ok = self.right is None or (value <= self.right if self.closed in ("right", "both") else value < self.right)
        return bool(lo_ok and hi_ok)

    def __str__(self) -> str:
        real = self.kind is not Integral
        show = lambda b: float(b) if real else b  # noqa: E731
        left = "-inf" if self.left is None else show(self.left)
        right = "inf" if self.right is None else show(self.right)
        return (
            f"{'a float' if real else 'an int'} in the range "
            f"{'[' if self.closed in ('left', 'both') else '('}{left}, {right}"
            f"{']' if self.closed in ('right', 'both') else ')'}"
        )


class Options:
    """One of a fixed set of strings."""

    def __init__(self, *options: str):
        self.options = options

    def __call__(self, value) -> bool:
        return isinstance(value, str) and value in self.options

    def __str__(self) -> str:
        return "a str among {" + ", ".join(repr(o) for o in self.options) + "}"


class Constraint:
    """Any test, described by ``text`` in the error message."""

    def __init__(self, text: str, test):
        self.text, self.test = text, test

    def __call__(self, value) -> bool:
        return bool(self.test(value))

    def __str__(self) -> str:
        return self.text


def instance_of(*types) -> Constraint:
    names = " or ".join(repr(t.__name__) for t in types)
    return Constraint(f"an instance of {names}", lambda v: isinstance(v, types))


BOOLEAN = Constraint("a bool", lambda v: isinstance(v, (bool, np.bool_)))
NONE = Constraint("None", lambda v: v is None)
ESTIMATOR = Constraint(
    "an estimator (an object with fit and get_params)",
    lambda v: hasattr(v, "fit") and hasattr(v, "get_params") and not isinstance(v, type),
)
ARRAY_LIKE = Constraint("an array-like", lambda v: isinstance(v, (list, tuple, np.ndarray)))
RANDOM_STATE = [Interval(Integral, 0, None, "left"), instance_of(np.random.Generator), NONE]


# ------------------------------------------------------------------------------------------------ X
def _is_sparse(X) -> bool:
    sparse = sys.modules.get("scipy.sparse")  # a scipy sparse matrix implies scipy.sparse was imported
    return sparse is not None and sparse.issparse(X)


def _feature_names(X):
    """String column names of a DataFrame, else None (scikit-learn ignores non-string names)."""
    columns = getattr(X, "columns", None)
    if columns is None or not hasattr(X, "iloc"):
        return None
    names = np.asarray(columns, dtype=object)
    if len(names) and all(isinstance(n, str) for n in names):
        return names
    return None


def check_array(estimator, X, *, fit: bool) -> np.ndarray:
    """``X`` as a 2-D numeric ndarray (integer dtypes kept), with scikit-learn's errors.

    ``fit=True`` requires at least one row and one column (the fit preamble then calls
    :func:`set_input_features` once every input is checked). ``fit=False`` first raises
    :class:`NotFittedError` if the estimator was never fitted, then checks the number of features and the
    column names against the fitted ones; zero rows are allowed there (the result is empty).
    """
    name = type(estimator).__name__
    if not fit and not hasattr(estimator, "n_features_in_"):
        raise not_fitted_error(estimator)
    if _is_sparse(X):
        raise TypeError(
            "Sparse data was passed for X, but dense data is required. Use '.toarray()' to "
            "convert to a dense numpy array."
        )
    names = None if fit else _feature_names(X)
    arr = _nominal_frame(estimator, X, fit)
    if arr is None:
        arr = _as_array(X)
    kind = arr.dtype.kind
    if kind == "c":
        raise ValueError(f"Complex data not supported\n{arr}\n")
    if kind in "USV":
        raise ValueError(
            "dtype='numeric' is not compatible with arrays of bytes/strings. Convert your data to "
            "numeric values explicitly instead."
        )
    if kind == "O":
        arr = arr.astype(np.float64)  # TypeError "float() argument must be a string or a real number, ..."
    elif kind == "b":
        arr = arr.astype(np.int64)
    if arr.ndim < 2:
        raise ValueError(
            f"Expected 2D array, got {'scalar' if arr.ndim == 0 else '1D'} array instead:\narray={arr}."
            "\nReshape your data either using array.reshape(-1, 1) if your data has a single feature "
            "or array.reshape(1, -1) if it contains a single sample."
        )
    if arr.ndim > 2:
        raise ValueError(f"Found array with dim {arr.ndim}, while dim <= 2 is required by {name}.")
    n, d = arr.shape
    if fit:
        if n < 1:
            raise ValueError(
                f"Found array with 0 sample(s) (shape={arr.shape}) while a minimum of 1 is required by {name}."
            )
        if d < 1:
            raise ValueError(
                f"Found array with 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required by {name}."
            )
    if arr.dtype.kind == "f" and not scans_skipped(fit) and _has_inf(arr):
        columns = np.flatnonzero(np.isinf(arr).any(axis=0)).tolist()
        raise ValueError(f"Input X contains infinity or a value too large for {arr.dtype!r}. Columns: {columns}.")
    if fit:
        return arr
    _check_feature_names(estimator, names)
    if d != estimator.n_features_in_:
        raise ValueError(f"X has {d} features, but {name} is expecting {estimator.n_features_in_} features as input.")
    return arr


def _as_array(X) -> np.ndarray:
    """np.asarray, except that a pandas frame with nullable columns gives floats with NaN for pd.NA."""
    if (
        hasattr(X, "iloc")
        and hasattr(X, "to_numpy")
        and any(not isinstance(dt, np.dtype) for dt in getattr(X, "dtypes", [getattr(X, "dtype", None)]))
    ):
        try:
            return X.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):  # strings, categories: the checks below explain
            pass
    return np.asarray(X)


# ------------------------------------------------------------------------------------- nominal columns
def _pandas():
    """pandas if it is loaded (a DataFrame implies it was imported), else None."""
    return sys.modules.get("pandas")


def _is_frame(X) -> bool:
    return hasattr(X, "iloc") and hasattr(X, "dtypes") and hasattr(X, "columns") and _pandas() is not None


def nominal_dtype(dtype) -> str | None:
    """How a pandas column of ``dtype`` is nominal: "category", "bool", "object", "string"; None if it is not."""
    pd = _pandas()
    if isinstance(dtype, pd.CategoricalDtype):
        return "category"
    if isinstance(dtype, pd.BooleanDtype) or (isinstance(dtype, np.dtype) and dtype.kind == "b"):
        return "bool"
    if isinstance(dtype, pd.StringDtype):
        return "string"
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        return "object"
    return None


def _column_label(X, j: int) -> str:
    return repr(X.columns[j])


def _column_categories(X, j: int, kind: str) -> np.ndarray:
    """The categories of nominal column j at fit, in code order (see :func:`check_array`)."""
    column = X.iloc[:, j]
    if kind == "category":
        return np.asarray(column.cat.categories)
    if kind == "bool":
        return np.array([False, True])
    values = column[column.notna()].unique()
    try:
        return np.array(sorted(values), dtype=object)
    except TypeError:
        types = sorted({type(v).__name__ for v in values})
        raise ValueError(
            f"X column {_column_label(X, j)}: values of types {types} cannot be sorted into nominal codes. "
            "Convert the column to one type, or give it a category dtype whose categories fix the codes."
        ) from None


def _codes_of(X, j: int, categories: np.ndarray) -> np.ndarray:
    """Column j as float codes of ``categories`` (their positions); NaN for missing and unseen values."""
    column = X.iloc[:, j]
    try:  # the position of each value among the categories, -1 for missing and unseen values
        codes = _pandas().Index(categories).get_indexer(column.astype(object))
    except (TypeError, ValueError) as err:
        raise ValueError(f"X column {_column_label(X, j)}: cannot be coded as nominal values ({err})") from None
    out = codes.astype(np.float64)
    out[codes < 0] = np.nan
    return out


def _numeric_column(X, j: int, estimator) -> np.ndarray:
    try:
        return X.iloc[:, j].to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"X column {_column_label(X, j)}: {type(estimator).__name__} was fitted with numeric values in this "
            f"column ({err})"
        ) from None


def _nominal_frame(estimator, X, fit: bool):
    """A DataFrame with nominal columns as a float array of codes (NaN = missing), else None (the array
    paths, unchanged). At fit the columns' categories become ``estimator.categories_``; at predict the fitted
    categories code the columns again, a value outside them counting as missing (an unseen value)."""
    if not _is_frame(X) or X.ndim != 2:
        if fit and hasattr(estimator, "categories_"):
            del estimator.categories_
        return None
    kinds = [nominal_dtype(dt) for dt in X.dtypes]
    if fit:
        if not any(kinds):
            if hasattr(estimator, "categories_"):
                del estimator.categories_
            return None
        categories = [None if k is None else _column_categories(X, j, k) for j, k in enumerate(kinds)]
    else:
        categories = getattr(estimator, "categories_", None)
        if categories is None:
            kinds = [None if k == "bool" else k for k in kinds]  # bool read as 0/1, as before
            if not any(kinds):
                return None
            j = next(j for j, k in enumerate(kinds) if k)
            raise ValueError(
                f"X column {_column_label(X, j)}: {kinds[j]} values, but {type(estimator).__name__} was fitted "
                "without nominal columns; fit it on a DataFrame with this column's dtype, or pass its codes"
            )
        if X.shape[1] != len(categories):
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
                f"{estimator.n_features_in_} features as input."
            )
    arr = np.empty(X.shape, dtype=np.float64)
    for j, cats in enumerate(categories):
        arr[:, j] = _numeric_column(X, j, estimator) if cats is None else _codes_of(X, j, cats)
    if fit:
        estimator.categories_ = categories
    return arr


def set_input_features(estimator, X, arr: np.ndarray) -> None:
    """After a successful check at fit: ``n_features_in_`` and, for a DataFrame ``X`` with string column
    names, ``feature_names_in_`` (removed when refitted on data without names)."""
    estimator.n_features_in_ = arr.shape[1]
    names = _feature_names(X)
    if names is not None:
        estimator.feature_names_in_ = names
    elif hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_


def _has_inf(arr: np.ndarray) -> bool:
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(arr.sum()):  # one pass without a temporary in the common case
            return False
    return bool(np.isinf(arr).any())


def _check_feature_names(estimator, names) -> None:
    fitted = getattr(estimator, "feature_names_in_", None)
    if fitted is None or names is None:
        if fitted is None and names is not None:  # scikit-learn's _check_feature_names, the other way round
            warnings.warn(
                f"X has feature names, but {type(estimator).__name__} was fitted without feature names",
                UserWarning,
                stacklevel=4,
            )
        if fitted is not None:
            warnings.warn(
                f"X does not have valid feature names, but {type(estimator).__name__} was fitted with feature names",
                UserWarning,
                stacklevel=4,
            )
        return
    if len(names) != len(fitted) or np.any(names != fitted):
        raise ValueError(
            "The feature names should match those that were passed during fit.\n"
            f"Fitted with: {list(fitted)}\nGot: {list(names)}"
        )


# ------------------------------------------------------------------------------------------------ y
_CONTINUOUS = (
    "Unknown label type: continuous. Maybe you are trying to fit a classifier, which expects discrete "
    "classes on a regression target with continuous values."
)


def _check_numeric_labels(y: np.ndarray) -> None:
    if np.isnan(y).any():
        raise ValueError("Input y contains NaN.")
    if np.isinf(y).any():
        raise ValueError(f"Input y contains infinity or a value too large for {y.dtype!r}.")
    if np.any(y != np.floor(y)):
        raise ValueError(_CONTINUOUS)


def check_labels(y, estimator=None, classes=None) -> tuple[np.ndarray, np.ndarray]:
    """(classes_, y as class indices 0..K-1) of a classification target, with scikit-learn's errors.

    A column vector is raveled with a :class:`DataConversionWarning`. Floats must hold whole numbers (a
    continuous target is refused), object arrays either strings or numbers. ``classes`` (as the
    ``classes`` of scikit-learn's ``partial_fit``): the labels to encode against, sorted and deduplicated
    (None = those in y); every label in y must be one of them.
    """
    if y is None:
        who = type(estimator).__name__ if estimator is not None else "This estimator"
        raise ValueError(f"{who} requires y to be passed, but the target y is None.")
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the shape of y "
            "to (n_samples, ), for example using ravel().",
            _sklearn_compatible(DataConversionWarning),
            stacklevel=5,
        )
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")
    kind = y.dtype.kind
    if kind == "c":
        raise ValueError(f"Complex data not supported\n{y}\n")
    if not scans_skipped(fit=True):
        if kind == "f":
            _check_numeric_labels(y)
        elif kind == "O":
            y = _object_labels(y)
    present, codes = np.unique(y, return_inverse=True)
    codes = codes.reshape(-1).astype(np.intp)
    if classes is None:
        return present, codes
    classes = np.unique(np.asarray(classes))
    unknown = present[~np.isin(present, classes)]
    if unknown.size:
        raise ValueError(f"The target label(s) {unknown.tolist()} in y are not among classes={classes.tolist()}")
    return classes, np.searchsorted(classes, present)[codes]


def _object_labels(y: np.ndarray) -> np.ndarray:
    """Object labels: all strings (kept), or all numbers (checked as numbers)."""
    values = y.tolist()
    is_str = [isinstance(v, str) for v in values]
    if all(is_str):
        return y
    if any(is_str):
        raise ValueError("Mix of label input types (string and number)")
    if not all(isinstance(v, (Real, np.number)) or v is None for v in values):
        raise ValueError("Unknown label type: unknown")
    numbers = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    _check_numeric_labels(numbers)
    return numbers


def check_consistent_length(*arrays) -> None:
    lengths = [a.shape[0] for a in arrays]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")


# -------------------------------------------------------------------------------------- sample_weight
def check_sample_weight(sample_weight, n: int) -> np.ndarray:
    """Weights as a float array of length n (ones when None, a scalar broadcast), with scikit-learn's errors:
    1-D of the right length, finite, non-negative, not all zero."""
    if sample_weight is None:
        return np.ones(n)
    if isinstance(sample_weight, Real) and not isinstance(sample_weight, bool):
        w = np.full(n, float(sample_weight))
    else:
        w = np.asarray(sample_weight, dtype=np.float64)
        if w.ndim != 1:
            raise ValueError(
                f"Sample weights must be 1D array or scalar, got {w.ndim}D array. Expected either a "
                f"scalar value or a 1D array of length {n}."
            )
        if w.shape != (n,):
            raise ValueError(f"sample_weight.shape == {w.shape}, expected {(n,)}!")
    if scans_skipped(fit=True):
        return w
    if not np.isfinite(w).all():
        bad = "NaN" if np.isnan(w).any() else "infinity or a value too large for dtype('float64')"
        raise ValueError(f"Input sample_weight contains {bad}.")
    if np.any(w < 0):
        raise ValueError("Negative values in data passed to `sample_weight`.")
    if n and not np.any(w > 0):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return relative_weights(w)


ORDINARY_WEIGHT = 1e100  # largest weights in [1/ORDINARY_WEIGHT, ORDINARY_WEIGHT] are used as given


def relative_weights(w: np.ndarray) -> np.ndarray:
    """Weights are relative: when the largest weight lies beyond [1e-100, 1e100] they are divided by it (a
    uniform weight becomes 1, the model of unit weights), since sums of weights near 1e307 overflow to inf and
    give NaN probabilities, and weights near 1e-310 vanish beside any pseudo-count. Weights whose largest value
    is ordinary are returned as they are, so every computation with them stays as it was, bit for bit."""
    top = w.max(initial=0.0)
    if top > ORDINARY_WEIGHT or 0 < top < 1 / ORDINARY_WEIGHT:
        return w / top
    return w


def drop_absent_rows(arr: np.ndarray, y_idx, w: np.ndarray, classes=None, keep_classes: bool = False):
    """(arr, y_idx, w, classes) without the rows of weight 0, which are absent rows (see the module docstring).

    ``y_idx`` (class indices into ``classes``) may be None (an unsupervised fit). Unless ``keep_classes`` (the
    estimator was given its ``classes``), a class left without rows leaves ``classes`` and y is re-encoded,
    as if those rows had never been passed. Without rows of weight 0 the inputs are returned as they are (no
    copy). Every row of weight 0 is an error, as in :func:`check_sample_weight` (whose scans a nested fit skips).
    """
    keep = w > 0
    if keep.all():
        return arr, y_idx, w, classes
    if not keep.any():
        raise ValueError("Sample weights must contain at least one non-zero number.")
    arr, w = arr[keep], w[keep]
    if y_idx is not None:
        y_idx = y_idx[keep]
        if not keep_classes:
            used = np.flatnonzero(np.bincount(y_idx, minlength=len(classes)))
            if used.size < len(classes):
                classes, y_idx = classes[used], np.searchsorted(used, y_idx).astype(np.intp)
    return arr, y_idx, w, classes
