"""Estimator conventions shared by every learner: scikit-learn's protocol, without scikit-learn.

A learner's constructor only stores its keyword arguments; ``get_params``/``set_params`` read them back
from the constructor signature, so ``clone`` and parameter grids work as in scikit-learn. Every estimator
answers scikit-learn's tag protocol (``__sklearn_tags__``, which imports scikit-learn only when
scikit-learn calls it), declares its hyperparameters in ``_parameter_constraints`` (checked at fit by
:func:`validate_params`), sets ``n_features_in_`` (and ``feature_names_in_`` when fitted on
a DataFrame with string column names) and raises :class:`nbx.core.validation.NotFittedError` from
predict/transform before fit. Inputs are checked by :mod:`nbx.core.validation` (one shared checker).

A classifier implements one prediction hook, ``_class_scores`` (log scale, :class:`LogScoreMixin`) or
``predict_proba`` (:class:`ClassifierMixin`); the mixins derive the other methods. The rest of scikit-learn's
protocol, scikit-learn imported only inside the methods that need it: a ``repr`` of the changed parameters
and an HTML repr for notebooks; metadata routing (``set_fit_request``, ``set_score_request``,
``get_metadata_routing``) for ``sklearn.set_config(enable_metadata_routing=True)``; ``clone`` keeps the
routing requests and a transformer's ``set_output`` choice (:mod:`nbx.discretize.base`).

Input convention: ``X`` is a 2-D numeric array. Missing values are NaN (float input) or negative codes
(integer input); infinity is an error. ``n_values`` (a constructor parameter of every learner, and a
``fit`` keyword that wins over it) gives per column the number of nominal values (codes ``0 .. n-1``), or
0 for a numeric column. Discrete learners (``input_kind = "discrete"``) need integer codes and infer
``max + 1`` per column when ``n_values`` is None; at fit a code >= n_values is an error, at predict it is
an unseen value and counts as missing (:func:`check_discrete_X`). A DataFrame's category, object, string and
bool columns are nominal (coded by :func:`nbx.core.validation.check_array`, their categories kept in
``categories_``); without ``n_values`` their number of categories is inferred (:func:`frame_n_values`).
"""

from __future__ import annotations

import copy
import functools
import html
import inspect
import re
import sys

import numpy as np

from nbx.core.counting import log_normalize, log_softmax, row_blocks
from nbx.core.validation import (
    ARRAY_LIKE,
    NONE,
    InvalidParameterError,
    _sklearn_compatible,
    check_array,
    check_consistent_length,
    check_labels,
    check_sample_weight,
    drop_absent_rows,
    scans_skipped,
    set_input_features,
    tracked_fit,
)

encode_labels = check_labels  # (classes_, y as class indices); older name
check_weights = check_sample_weight  # older name

N_VALUES = [ARRAY_LIKE, NONE]  # the constraint of every ``n_values`` parameter
MAX_CODE = 2**31 - 1  # the largest float code as_codes accepts (its n_values would not fit in memory anyway)
# The constraint of a ``classes`` parameter: the class labels to keep counters for, also those absent from
# the training data (None = the labels in y, which must be among them); scikit-learn's partial_fit takes
# them as a keyword, a constructor parameter also survives clone and pipelines.
CLASS_LABELS = [ARRAY_LIKE, NONE]


class BaseEstimator:
    """get_params / set_params from the constructor signature, a readable repr, scikit-learn's tags.

    ``_param_aliases`` maps other names accepted by ``set_params`` to a parameter (the ensembles accept
    scikit-learn's ``estimator`` and ``base_estimator`` for ``base``, so ``base_estimator__max_depth``
    grids work); ``get_params`` reports only the real name.
    """

    _parameter_constraints: dict = {}
    _param_aliases: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "fit" in cls.__dict__:  # lets the checks see nested fits (nbx.core.validation.tracked_fit)
            cls.fit = tracked_fit(cls.__dict__["fit"])

    @classmethod
    def _param_names(cls) -> list[str]:
        return list(_init_params(cls))

    def get_params(self, deep: bool = True) -> dict:
        """Get the estimator's parameters (scikit-learn's protocol).

        Parameters
        ----------
        deep : bool, default=True
            Also return the parameters of nested estimators (e.g. an ensemble's ``base``) as ``name__param``.

        Returns
        -------
        params : dict
            Parameter name -> value, read from the constructor signature.
        """
        out = {}
        for name in self._param_names():
            value = getattr(self, name)
            out[name] = value
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update({f"{name}__{k}": v for k, v in value.get_params().items()})
        return out

    def set_params(self, **params):
        """Set the estimator's parameters (scikit-learn's protocol).

        Nested estimators' parameters are set as ``name__param``; the names in ``_param_aliases`` are accepted too
        (the ensembles take scikit-learn's ``estimator`` and ``base_estimator`` for ``base``).

        Parameters
        ----------
        **params : dict
            Parameter name -> new value.

        Returns
        -------
        self : estimator
            The estimator, changed in place.
        """
        valid = set(self._param_names())
        nested: dict[str, dict] = {}
        for key, value in params.items():
            name, _, sub = key.partition("__")
            name = self._param_aliases.get(name, name)
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {type(self).__name__}. "
                    f"Valid parameters are: {sorted(valid)}."
                )
            if sub:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            getattr(self, name).set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        """The class and the parameters that differ from the constructor's defaults, as scikit-learn's
        ``print_changed_only`` (nested estimators show theirs the same way)."""
        defaults = _init_params(type(self))
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items() if _changed(v, defaults[k]))
        return f"{type(self).__name__}({args})"

    def _repr_html_(self) -> str:
        """The notebook display: scikit-learn's estimator diagram when scikit-learn is installed, else the
        text repr, escaped."""
        try:
            from sklearn.utils import estimator_html_repr
        except ImportError:
            return f"<pre>{html.escape(repr(self))}</pre>"
        return estimator_html_repr(self)

    def _repr_mimebundle_(self, **kwargs) -> dict:
        """Text and HTML for Jupyter; text only when scikit-learn's ``display`` option is ``"text"``."""
        out = {"text/plain": repr(self)}
        sklearn = sys.modules.get("sklearn")  # its options matter only once it is imported
        if sklearn is None or sklearn.get_config()["display"] != "text":
            out["text/html"] = self._repr_html_()
        return out

    def __sklearn_tags__(self):
        """scikit-learn's tags. Every nbx estimator reads NaN as missing; discrete learners take
        categorical integer codes (negative = missing, so negative input is allowed)."""
        from sklearn.utils import InputTags, Tags, TargetTags  # only scikit-learn calls this method

        discrete = getattr(self, "input_kind", "mixed") == "discrete"
        return Tags(
            estimator_type=None,
            target_tags=TargetTags(required=False),
            input_tags=InputTags(allow_nan=True, categorical=discrete),
        )

    # scikit-learn's metadata routing (``sklearn.set_config(enable_metadata_routing=True)``): which keywords of
    # fit, partial_fit and score (sample_weight, n_values, classes) a router such as cross_validate or Pipeline
    # passes on. The requests live in ``_metadata_request``, scikit-learn's attribute, which its clone copies.
    def get_metadata_routing(self):
        """This estimator's request, a scikit-learn ``MetadataRequest``: every keyword of fit, partial_fit and
        score unrequested (None) until ``set_fit_request`` and its siblings say otherwise."""
        from sklearn.utils.metadata_routing import MetadataRequest, get_routing_for_object

        if hasattr(self, "_metadata_request"):
            return get_routing_for_object(self._metadata_request)  # a copy
        request = MetadataRequest(owner=type(self).__name__)
        for method, params in _routed_params(type(self)).items():
            for param in params:
                getattr(request, method).add_request(param=param, alias=None)
        return request

    def set_fit_request(self, **requests):
        """Whether a scikit-learn router passes fit's keywords on: ``set_fit_request(sample_weight=True)``
        (True, False, None or an alias name per keyword; needs ``enable_metadata_routing=True``)."""
        return self._set_request("fit", requests)

    def _set_request(self, method: str, requests: dict):
        import sklearn
        from sklearn.utils.metadata_routing import UNCHANGED

        if not sklearn.get_config()["enable_metadata_routing"]:
            raise RuntimeError(
                "This method is only available when metadata routing is enabled. You can enable it "
                "using sklearn.set_config(enable_metadata_routing=True)."
            )
        accepted = _routed_params(type(self)).get(method, ())
        if set(requests) - set(accepted):
            raise TypeError(
                f"Unexpected args: {set(requests) - set(accepted)} in {method}. Accepted arguments are: {set(accepted)}"
            )
        request = self.get_metadata_routing()
        for param, alias in requests.items():
            if alias is not UNCHANGED:
                getattr(request, method).add_request(param=param, alias=alias)
        self._metadata_request = request
        return self


_ROUTED_METHODS = ("fit", "partial_fit", "score")
_NOT_METADATA = frozenset({"self", "X", "y"})


@functools.cache
def _routed_params(cls) -> dict:
    """Per method of _ROUTED_METHODS that ``cls`` has, its keywords beyond X and y (scikit-learn's reading)."""
    out = {}
    for method in _ROUTED_METHODS:
        if callable(getattr(cls, method, None)):
            params = inspect.signature(getattr(cls, method)).parameters.values()
            out[method] = tuple(
                p.name
                for p in params
                if p.name not in _NOT_METADATA and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            )
    return out


# set by scikit-learn's protocol (set_output, set_fit_request); kept by clone, as scikit-learn's clone keeps them
_CONFIG_ATTRIBUTES = ("_metadata_request", "_sklearn_output_config")


def clone(estimator):
    """A new unfitted estimator with the same parameters (nested estimators cloned too) and the same output
    and metadata-routing configuration."""
    params = {
        k: clone(v) if _is_estimator(v) else copy.deepcopy(v) for k, v in estimator.get_params(deep=False).items()
    }
    new = type(estimator)(**params)
    for name in _CONFIG_ATTRIBUTES:
        if hasattr(estimator, name):
            setattr(new, name, copy.deepcopy(getattr(estimator, name)))
    return new


def ordinal_params(estimator) -> list[str]:
    """The estimator's parameters named ``ordinal``, nested ones included (``base__ordinal``)."""
    return [k for k in estimator.get_params(deep=True) if k == "ordinal" or k.endswith("__ordinal")]


def _is_estimator(value) -> bool:
    return hasattr(value, "get_params") and not isinstance(value, type)


def fit_accepts(estimator, name: str) -> bool:
    """Whether ``estimator.fit`` takes the keyword ``name`` (e.g. ``n_values``, ``sample_weight``)."""
    return name in _fit_params(type(estimator))


@functools.cache
def _init_params(cls) -> dict:
    """The constructor's parameter names and defaults (signatures are slow to compute; ensembles clone often).
    Cached: callers must not change the dict."""
    sig = inspect.signature(cls.__init__)
    return {
        p.name: p.default
        for p in sig.parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }


def _changed(value, default) -> bool:
    """Whether a parameter differs from its default (compared by repr, as arrays and lists have no plain ==)."""
    return default is inspect.Parameter.empty or (value is not default and repr(value) != repr(default))


@functools.cache
def _fit_params(cls) -> frozenset:
    return frozenset(inspect.signature(cls.fit).parameters)


class ClassifierMixin:
    """A classifier's predictions from one hook, ``predict_proba(X)`` (n, K), for learners whose natural
    output is probabilities (trees, ensembles): ``predict`` is its argmax (ties to the first class),
    ``predict_log_proba`` its log (-inf for probability 0); ``score`` is the accuracy. Learners that score
    classes on the log scale implement ``_class_scores`` instead (:class:`LogScoreMixin`)."""

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags

    def predict(self, X):
        """Predict the class of each row: the argmax of ``predict_proba`` (ties to the first class).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted labels, taken from ``classes_``.
        """
        proba = self.predict_proba(X)  # first: raises NotFittedError before fit
        return self.classes_[np.argmax(proba, axis=1)]

    def predict_log_proba(self, X) -> np.ndarray:
        """Log of the class probabilities, ``log(predict_proba(X))`` (-inf for a probability of 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            log P(c | x), columns in the order of ``classes_``.
        """
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(proba)

    def score(self, X, y, sample_weight=None) -> float:
        """Accuracy of ``predict(X)`` against ``y``, weighted by ``sample_weight``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.
        y : array-like of shape (n_samples,)
            True labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights; None = all 1.

        Returns
        -------
        score : float
            The (weighted) fraction of rows predicted correctly.
        """
        return float(np.average(self.predict(X) == np.asarray(y), weights=sample_weight))

    def set_score_request(self, **requests):
        """Whether a scikit-learn router passes score's ``sample_weight`` on (see ``set_fit_request``)."""
        return self._set_request("score", requests)


class DecisionMixin:
    """``decision_function`` from the learner's class scores ``_class_scores(X)`` (n, K), in scikit-learn's
    shape: for two classes the score of ``classes_[1]`` minus that of ``classes_[0]``, shape (n,)
    (positive where ``classes_[1]`` wins); (n, K) otherwise."""

    def decision_function(self, X) -> np.ndarray:
        """The learner's class scores in scikit-learn's shape.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
            For two classes the score of ``classes_[1]`` minus that of ``classes_[0]`` (positive where
            ``classes_[1]`` wins); otherwise one column per class of ``classes_``.
        """
        scores = self._class_scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores


class LogScoreMixin(DecisionMixin, ClassifierMixin):
    """Every prediction from one hook, ``_class_scores(X)``: unnormalized log-scale class scores (n, K),
    log P(c | x) up to a constant per row (a naive Bayes' joint log likelihood log P(c) + log P(x | c),
    scikit-learn's ``_joint_log_likelihood``; a logistic regression's linear scores). ``predict_proba`` is
    their softmax (shifted by the row maximum), ``predict_log_proba`` their log-softmax, ``predict`` the
    argmax of ``predict_proba`` and ``decision_function`` the scores (:class:`DecisionMixin`)."""

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities: the softmax of the learner's log-scale class scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            P(c | x) per row, columns in the order of ``classes_``; rows sum to 1.
        """
        return log_normalize(self._class_scores(X))

    def predict_log_proba(self, X) -> np.ndarray:
        """Log class probabilities: the log-softmax of the learner's class scores (exact also where
        ``predict_proba`` underflows to 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input in the form ``fit`` took.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            log P(c | x), columns in the order of ``classes_``.
        """
        return log_softmax(self._class_scores(X))


def check_rng(random_state) -> np.random.Generator:
    """A numpy Generator from None, an int seed or a Generator."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


# ------------------------------------------------------------------------------------ discrete input
def as_codes(X, estimator=None, fit: bool = False) -> np.ndarray:
    """Discrete input as an int64 array with -1 for missing (NaN or any negative value).

    Non-integer values are an error (discrete learners need codes; discretize numeric columns first), and
    so are infinity and float codes above :data:`MAX_CODE` (e.g. 1e306, which the cast would silently turn
    into a missing value) and, at fit, integer codes above it (a uint64 of 2**64-1 cast to -1, a missing value;
    an int64 of 10**12 an inferred n_values of terabytes), named by column. ``estimator`` names the learner in
    the message; ``fit`` tells whether this is a fit (see :func:`nbx.core.validation.scans_skipped`). An int64
    input without negative codes is returned as it is (no copy: callers must not write into the result).
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}")
    if X.dtype.kind == "b":
        X = X.astype(np.int64)
    elif X.dtype.kind not in "iu":
        X = X.astype(np.float64, copy=False)
    if X.dtype.kind in "iu":
        if fit and X.size and not scans_skipped(fit):
            _check_code_range(X, estimator)
        if X.size and X.min() < 0:
            return np.where(X < 0, -1, X).astype(np.int64, copy=False)
        return X.astype(np.int64, copy=False)
    missing = np.isnan(X)
    if not scans_skipped(fit):
        known = X[~missing]
        if np.isinf(known).any():
            raise ValueError(f"Input X contains infinity or a value too large for {X.dtype!r}.")
        if np.any(known != np.round(known)):
            who = type(estimator).__name__ if estimator is not None else "A discrete learner"
            cols = np.flatnonzero(np.any((np.round(X) != X) & ~missing, axis=0)).tolist()
            raise ValueError(
                f"{who} needs integer codes (0..n-1, NaN or negative = missing), got non-integer "
                f"values in columns {cols}; discretize numeric columns first, e.g. "
                f"make_pipeline(MDLDiscretizer(), {who}())"
            )
        if known.size and known.max() > MAX_CODE:  # the int64 cast would turn it into garbage (often -1: missing)
            who = type(estimator).__name__ if estimator is not None else "A discrete learner"
            cols = np.flatnonzero(np.any(~missing & (X > MAX_CODE), axis=0)).tolist()
            raise ValueError(
                f"{who} got codes above {MAX_CODE} in columns {cols}: not nominal codes; discretize those columns"
            )
    return np.where(missing | (X < 0), -1, np.nan_to_num(X)).astype(np.int64)


def _check_code_range(X: np.ndarray, estimator) -> None:
    """Integer codes at fit: one above :data:`MAX_CODE` is refused naming its column, where the cast to int64 made
    a uint64 of 2**64-1 a missing value and an inferred n_values of 10**12 + 1 asked for terabytes of counters."""
    top = X.max(axis=0)
    if top.max() <= MAX_CODE:
        return
    col = int(np.argmax(top > MAX_CODE))
    who = type(estimator).__name__ if estimator is not None else "a discrete learner"
    raise ValueError(
        f"X column {col}: code {int(top[col])} exceeds {MAX_CODE}, the largest code {who} takes (n_values = "
        "largest code + 1 counters per class); recode the column as 0..n-1 or discretize it"
    )


def _check_n_values_range(nv: np.ndarray) -> None:
    """A given n_values above :data:`MAX_CODE` + 1 is refused naming its column (its counters would not fit)."""
    if nv.size and nv.max() > MAX_CODE + 1:
        col = int(np.argmax(nv > MAX_CODE + 1))
        raise ValueError(
            f"n_values[{col}] = {int(nv[col])} exceeds {MAX_CODE + 1}, the most values a nominal column may have"
        )


def resolve_n_values(codes: np.ndarray, n_values) -> np.ndarray:
    """Per-column cardinality: given, or max code + 1 (at least 1). Training codes must lie below it."""
    inferred = np.maximum(codes.max(axis=0, initial=-1) + 1, 1) if codes.size else np.ones(codes.shape[1], int)
    if n_values is None:
        return inferred.astype(np.int64)
    nv = np.asarray(n_values)
    if nv.shape != (codes.shape[1],) or nv.dtype.kind not in "iuf" or np.any(nv != np.round(nv)):
        raise ValueError(f"n_values must be {codes.shape[1]} integers (one per column), got {n_values!r}")
    _check_n_values_range(nv)
    nv = nv.astype(np.int64)
    if np.any(nv <= 0):
        bad = np.flatnonzero(nv <= 0).tolist()
        raise ValueError(f"discrete learner got numeric columns {bad} (n_values 0); discretize them first")
    if np.any(inferred > nv):
        bad = np.flatnonzero(inferred > nv).tolist()
        raise ValueError(f"X holds codes >= n_values in columns {bad} (codes must be 0..n_values-1)")
    return nv


def frame_n_values(estimator, codes: np.ndarray | None = None) -> np.ndarray | None:
    """The ``n_values`` a fit infers when none is given, from the DataFrame it was just given (see
    :func:`nbx.core.validation.check_array`): per nominal column (category, object, string or bool dtype) the
    number of its categories (at least 1), per other column 0 (numeric) for mixed input, or for discrete input
    (``codes`` given) the largest code + 1. None when the fit's X had no nominal columns (the array paths).

    For mixed input, columns a ColumnTransformer named ``ordinalencoder__...`` (scikit-learn's
    ``OrdinalEncoder`` output, float codes) are refused with a one-line error: their codes cannot be told
    from numbers, so their ``n_values`` is not inferred; pass ``n_values``, or keep the columns' category dtype.
    """
    categories = getattr(estimator, "categories_", None)
    if codes is None:
        names = getattr(estimator, "feature_names_in_", None)
        encoded = [] if names is None else [n for n in names if _ORDINAL_ENCODED.match(n)]
        if categories is not None:
            encoded = [n for n, c in zip(names, categories) if c is None and n in encoded]
        if encoded:
            raise ValueError(
                f"X columns {encoded} look like OrdinalEncoder codes (floats), which {type(estimator).__name__} "
                "cannot tell from numeric values: pass n_values (their counts, 0 for numeric columns), or pass "
                "the columns through with a category dtype"
            )
    if categories is None:
        return None
    sizes = np.array([0 if c is None else max(len(c), 1) for c in categories], dtype=np.int64)
    if codes is None:
        return sizes
    return np.where(sizes > 0, np.maximum(sizes, resolve_n_values(codes, None)), resolve_n_values(codes, None))


_ORDINAL_ENCODED = re.compile(r"^ordinalencoder(-\d+)?__")


def check_discrete_fit(
    estimator, X, y, sample_weight, n_values, classes=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fit preamble of a discrete learner: checks the parameters and the input, sets ``classes_``
    (``classes`` if given, which y's labels must be among, else those in y; see :data:`CLASS_LABELS`),
    ``n_values_`` (the ``n_values`` keyword, else the constructor's, else inferred), ``n_features_in_``.
    Rows of weight 0 are dropped after the input checks (:func:`nbx.core.validation.drop_absent_rows`): they
    add no class and no value to an inferred ``n_values_``, and the learner never sees them.

    Returns (codes with -1 for missing, class indices, sample weights) of the rows of positive weight.
    """
    validate_params(estimator)
    arr = check_array(estimator, X, fit=True)
    given = classes is not None
    classes, y_idx = check_labels(y, estimator, classes)
    check_consistent_length(arr, y_idx)
    w = check_sample_weight(sample_weight, arr.shape[0])
    kept, y_idx, w, classes = drop_absent_rows(arr, y_idx, w, classes, keep_classes=given)
    codes = as_codes(kept, estimator, fit=True)
    given = n_values if n_values is not None else getattr(estimator, "n_values", None)
    estimator.n_values_ = resolve_n_values(codes, given if given is not None else frame_n_values(estimator, codes))
    estimator.classes_ = classes
    set_input_features(estimator, X, arr)
    return codes, y_idx, w


def check_discrete_X(estimator, X) -> np.ndarray:
    """The predict preamble of a discrete learner: codes with -1 for missing and for unseen values
    (a code >= the fitted ``n_values_`` is a value never seen in training and counts as missing)."""
    codes = as_codes(check_array(estimator, X, fit=False), estimator)
    unseen = codes >= estimator.n_values_
    return np.where(unseen, -1, codes) if unseen.any() else codes  # (codes may be the caller's array)


# --------------------------------------------------------------------------------------- mixed input
def mixed_n_values(X: np.ndarray, n_values, fit: bool = True) -> np.ndarray:
    """``n_values`` of mixed input as an int array (None = all numeric). At fit the nominal columns must hold
    integer codes below it (NaN or a negative code = missing)."""
    if n_values is None:
        return np.zeros(X.shape[1], dtype=np.int64)
    nv = np.asarray(n_values)
    if nv.shape != (X.shape[1],) or nv.dtype.kind not in "iuf" or np.any(nv != np.round(nv)) or np.any(nv < 0):
        raise ValueError(
            f"n_values must be {X.shape[1]} integers >= 0 (one per column, 0 marks a numeric column), got {n_values!r}"
        )
    _check_n_values_range(nv)
    nv = nv.astype(np.int64)
    nominal = nv > 0
    if fit and nominal.any() and not scans_skipped(fit=True):
        fraction, too_big = np.zeros(nominal.sum(), bool), np.zeros(nominal.sum(), bool)
        for rows in row_blocks(X.shape[0], int(nominal.sum())):  # small temporaries: no pass over a copy of X
            sub = X[rows, nominal]
            known = sub >= 0  # False for NaN
            fraction |= np.any(known & (sub != np.round(sub)), axis=0)
            too_big |= np.any(known & (sub >= nv[nominal]), axis=0)
        if np.any(fraction):
            cols = np.flatnonzero(nominal)[fraction].tolist()
            raise ValueError(f"nominal columns (n_values > 0) must hold integer codes; columns {cols} do not")
        if np.any(too_big):
            cols = np.flatnonzero(nominal)[too_big].tolist()
            raise ValueError(f"X holds codes >= n_values in nominal columns {cols} (codes must be 0..n_values-1)")
    return nv


def compiled_pays(cells: int, threshold: int) -> bool:
    """Whether a compiled loop over ``cells`` cells pays for loading numba (about 0.45 s a process): from
    ``threshold`` cells, or always in a process that has loaded numba already. A learner's compiled and array
    routes give the same numbers, so the choice changes only the time."""
    return cells >= threshold or "numba" in sys.modules


def check_mixed_fit(estimator, X, y, sample_weight, n_values):
    """The fit preamble of a mixed-input learner: checks the parameters and the input, sets
    ``n_features_in_``; returns (X as float, n_values (the keyword, else the constructor's; None = all
    numeric), classes_, y as class indices, sample weights) of the rows of positive weight (rows of weight 0
    are dropped after the input checks, :func:`nbx.core.validation.drop_absent_rows`)."""
    validate_params(estimator)
    arr = check_array(estimator, X, fit=True).astype(np.float64, copy=False)
    classes, y_idx = check_labels(y, estimator)
    check_consistent_length(arr, y_idx)
    w = check_sample_weight(sample_weight, arr.shape[0])
    set_input_features(estimator, X, arr)
    arr, y_idx, w, classes = drop_absent_rows(arr, y_idx, w, classes)
    given = n_values if n_values is not None else getattr(estimator, "n_values", None)
    nv = mixed_n_values(arr, given if given is not None else frame_n_values(estimator))
    return arr, nv, classes, y_idx, w


def check_mixed_X(estimator, X) -> np.ndarray:
    """The predict/transform preamble of mixed input: X as a checked float array (NotFittedError before fit)."""
    return check_array(estimator, X, fit=False).astype(np.float64, copy=False)


def validate_params(estimator) -> None:
    """Check every parameter listed in the class's ``_parameter_constraints`` (a list of constraints each,
    any of which may hold); raise :class:`InvalidParameterError` naming the first that fails.

    Nested nbx estimators (a meta-learner's ``base``, a tree's ``leaf``, a list of ``members``) are checked
    with their owner, so a fit nested in another nbx fit skips this (see :func:`scans_skipped`).
    """
    if scans_skipped(fit=True):
        return
    for name, options in getattr(type(estimator), "_parameter_constraints", {}).items():
        value = getattr(estimator, name)
        if not any(check(value) for check in options):
            texts = [str(c) for c in options]
            allowed = texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} or {texts[-1]}"
            raise _sklearn_compatible(InvalidParameterError)(
                f"The {name!r} parameter of {type(estimator).__name__} must be {allowed}. Got {value!r} instead."
            )
        for inner in _nbx_estimators(value):
            validate_params(inner)


def _nbx_estimators(value):
    """nbx estimators in a parameter value: the value itself, list items, and the parameters of a foreign
    (e.g. scikit-learn) meta-estimator, whose own constraints are its business."""
    for item in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(item, BaseEstimator):
            yield item
        elif hasattr(item, "get_params") and not isinstance(item, type):
            for inner in item.get_params(deep=False).values():
                yield from _nbx_estimators(inner)


def input_kind(estimator) -> str:
    """'discrete' (integer codes, all attributes discretized) or 'mixed' (numeric columns kept). Every nbx
    learner declares it; an estimator from elsewhere (e.g. scikit-learn's) gets the numeric values."""
    return getattr(estimator, "input_kind", "mixed")
