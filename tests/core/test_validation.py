"""The shared checker (nbx.core.validation): every bad input (parameters, labels, shapes, types, infinite values,
weights, codes beyond n_values, use before fit) gets a clear error or a documented, tested handling, with
scikit-learn's wording where scikit-learn has one. Runs without scikit-learn."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from estimators import estimator_classes

from nbx.core.base import check_mixed_fit
from nbx.core.validation import InvalidParameterError, NotFittedError, scans_skipped, tracked_fit
from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, NoDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1
from nbx.models.hbayes import HBayesNB
from nbx.models.hierarchical_mixture import HierarchicalMixtureNB
from nbx.models.kernel_nb import GeneralNB
from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.logistic import LogisticRegression
from nbx.models.muv import MUV
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.snbtree import SelfAdaptiveNBTree
from nbx.models.tan import TAN

REPO = Path(__file__).resolve().parents[2]
RNG = np.random.default_rng(0)
CODES = RNG.integers(0, 3, size=(40, 3))  # discrete input: codes 0..2
Y = (CODES[:, 0] + RNG.integers(0, 2, 40)) % 2
NUM = RNG.normal(size=(40, 3))  # mixed input: numeric columns
INF = CODES.astype(float)
INF[3, 1] = np.inf
NUM_INF = NUM.copy()
NUM_INF[5, 2] = np.inf

LEARNERS = estimator_classes("nbx.models")
# by the input a learner takes on its own (an ensemble's depends on its base: NaiveBayes, so discrete codes)
DISCRETE = [cls for cls in LEARNERS if cls().input_kind == "discrete"]
MIXED = [cls for cls in LEARNERS if cls().input_kind == "mixed"]
TRANSFORMERS = [cls for cls in estimator_classes("nbx.discretize") if cls is not NoDiscretizer]  # numeric input


def fitted(cls, X=CODES, y=Y, **params):
    return cls(**params).fit(X, y)


def sparse(X):
    from scipy import sparse as sp

    return sp.csr_matrix(X)


# (id, action, error type, phrase of the message)
CASES = [
    # hyperparameters: declarative constraints, scikit-learn's wording, checked at fit
    (
        "nb alpha < 0",
        lambda: fitted(NaiveBayes, alpha=-1),
        InvalidParameterError,
        "The 'alpha' parameter of NaiveBayes must be a float in the range [0.0, inf). Got -1 instead.",
    ),
    (
        "nb m < 0",
        lambda: fitted(NaiveBayes, prior="m_estimate", m=-2),
        ValueError,
        "The 'm' parameter of NaiveBayes must be a float in the range [0.0, inf). Got -2 instead.",
    ),
    ("nb alpha quoted", lambda: fitted(NaiveBayes, alpha="1"), TypeError, "Got '1' instead"),
    (
        "nb unknown prior",
        lambda: fitted(NaiveBayes, prior="dirichlet"),
        ValueError,
        "The 'prior' parameter of NaiveBayes must be a str among {'laplace', 'm_estimate', 'kang'}",
    ),
    ("nb alpha nan", lambda: fitted(NaiveBayes, alpha=float("nan")), ValueError, "'alpha' parameter"),
    (
        "lnbt depth float",
        lambda: fitted(LeveledNBTree, max_depth=1.5),
        TypeError,
        "The 'max_depth' parameter of LeveledNBTree must be an int in the range [0, inf)",
    ),
    (
        "adaboost 0 rounds",
        lambda: fitted(AdaBoostM1, n_estimators=0),
        ValueError,
        "The 'n_estimators' parameter of AdaBoostM1 must be an int in the range [1, inf)",
    ),
    ("adaboost bad base", lambda: fitted(AdaBoostM1, base="NaiveBayes"), ValueError, "'base' parameter"),
    (
        "c45 confidence",
        lambda: fitted(C45Tree, X=NUM, confidence=1.5),
        ValueError,
        "The 'confidence' parameter of C45Tree must be a float in the range (0.0, 1.0)",
    ),
    ("tan alpha 0", lambda: fitted(TAN, alpha=0), ValueError, "The 'alpha' parameter of TAN"),
    ("gnb density", lambda: fitted(GeneralNB, X=NUM, density="kde"), ValueError, "'density' parameter of GeneralNB"),
    ("hm gamma", lambda: fitted(HierarchicalMixtureNB, gamma=0), ValueError, "'gamma' parameter"),
    ("muv sampling", lambda: fitted(MUV, sampling="jackknife"), ValueError, "'sampling' parameter of MUV"),
    ("lr ridge", lambda: fitted(LogisticRegression, X=NUM, ridge=-1.0), ValueError, "'ridge' parameter"),
    (
        "bins 0",
        lambda: EqualWidthDiscretizer(bins=0).fit(NUM),
        ValueError,
        "The 'bins' parameter of EqualWidthDiscretizer must be an int in the range [1, inf). Got 0 instead.",
    ),
    # +inf in X, at fit and at predict, everywhere (never read as a missing value)
    *[
        (
            f"inf fit {cls.__name__}",
            lambda cls=cls: fitted(cls, X=INF),
            ValueError,
            "Input X contains infinity or a value too large for dtype('float64').",
        )
        for cls in DISCRETE
    ],
    *[
        (f"inf fit {cls.__name__}", lambda cls=cls: fitted(cls, X=NUM_INF), ValueError, "Input X contains infinity")
        for cls in MIXED + TRANSFORMERS
    ],
    ("inf predict nb", lambda: fitted(NaiveBayes).predict(INF), ValueError, "Input X contains infinity"),
    (
        "inf transform mdl",
        lambda: MDLDiscretizer().fit(NUM, Y).transform(NUM_INF),
        ValueError,
        "Input X contains infinity",
    ),
    # the target
    (
        "y nan",
        lambda: fitted(NaiveBayes, y=np.where(np.arange(40) == 3, np.nan, Y)),
        ValueError,
        "Input y contains NaN.",
    ),
    (
        "y mixed types",
        lambda: fitted(NaiveBayes, y=np.array(["a", 1] * 20, dtype=object)),
        ValueError,
        "Mix of label input types (string and number)",
    ),
    (
        "y continuous",
        lambda: fitted(LogisticRegression, X=NUM, y=NUM[:, 0]),
        ValueError,
        "Unknown label type: continuous",
    ),
    (
        "y 2-D",
        lambda: fitted(TAN, y=np.column_stack([Y, Y])),
        ValueError,
        "y should be a 1d array, got an array of shape (40, 2) instead.",
    ),
    ("y None", lambda: fitted(NaiveBayes, y=None), ValueError, "NaiveBayes requires y to be passed"),
    (
        "y too short",
        lambda: fitted(NaiveBayes, y=Y[:-1]),
        ValueError,
        "Found input variables with inconsistent numbers of samples: [40, 39]",
    ),
    # shapes and types of X
    *[
        (
            f"0 rows {cls.__name__}",
            lambda cls=cls: fitted(cls, X=np.empty((0, 3)), y=[]),
            ValueError,
            f"Found array with 0 sample(s) (shape=(0, 3)) while a minimum of 1 is required by {cls.__name__}.",
        )
        for cls in [NaiveBayes, TAN, LeveledNBTree, MUV, HBayesNB, LogisticRegression]
    ],
    ("0 columns", lambda: fitted(NaiveBayes, X=np.empty((40, 0))), ValueError, "Found array with 0 feature(s)"),
    (
        "sparse X",
        lambda: fitted(NaiveBayes, X=sparse(CODES)),
        TypeError,
        "Sparse data was passed for X, but dense data is required.",
    ),
    ("complex X", lambda: fitted(GeneralNB, X=NUM + 1j), ValueError, "Complex data not supported"),
    (
        "string X",
        lambda: fitted(NaiveBayes, X=CODES.astype(str)),
        ValueError,
        "dtype='numeric' is not compatible with arrays of bytes/strings",
    ),
    ("1-D X fit", lambda: fitted(NaiveBayes, X=CODES[:, 0]), ValueError, "Expected 2D array, got 1D array instead"),
    ("1-D X predict", lambda: fitted(C45Tree, X=NUM).predict(NUM[0]), ValueError, "Reshape your data"),
    (
        "feature count",
        lambda: fitted(NaiveBayes).predict(CODES[:, :2]),
        ValueError,
        "X has 2 features, but NaiveBayes is expecting 3 features as input.",
    ),
    ("non-integer codes", lambda: fitted(TAN, X=NUM), ValueError, "TAN needs integer codes"),
    (
        "predict before fit",
        lambda: NaiveBayes().predict(CODES),
        NotFittedError,
        "This NaiveBayes instance is not fitted yet. Call 'fit' with appropriate arguments",
    ),
    ("transform before fit", lambda: MDLDiscretizer().transform(NUM), NotFittedError, "not fitted yet"),
    # sample weights
    *[
        (
            f"zero weights {cls.__name__}",
            lambda cls=cls: cls().fit(NUM, Y, sample_weight=np.zeros(40)),
            ValueError,
            "Sample weights must contain at least one non-zero number.",
        )
        for cls in [GeneralNB, SelfAdaptiveNBTree, C45Tree]
    ],
    (
        "negative weight",
        lambda: NaiveBayes().fit(CODES, Y, sample_weight=-np.ones(40)),
        ValueError,
        "Negative values in data passed to `sample_weight`.",
    ),
    (
        "nan weight",
        lambda: NaiveBayes().fit(CODES, Y, sample_weight=np.full(40, np.nan)),
        ValueError,
        "Input sample_weight contains NaN.",
    ),
    (
        "weight length",
        lambda: NaiveBayes().fit(CODES, Y, sample_weight=np.ones(4)),
        ValueError,
        "sample_weight.shape == (4,), expected (40,)!",
    ),
    # n_values: a code >= n_values is an error at fit, for learners and discretizers alike
    (
        "code >= n_values nb",
        lambda: NaiveBayes().fit(CODES, Y, n_values=[2, 3, 3]),
        ValueError,
        "X holds codes >= n_values in columns [0]",
    ),
    (
        "code >= n_values ctor",
        lambda: NaiveBayes(n_values=[3, 3, 2]).fit(CODES, Y),
        ValueError,
        "X holds codes >= n_values in columns [2]",
    ),
    (
        "code >= n_values c45",
        lambda: C45Tree().fit(CODES, Y, n_values=[2, 0, 0]),
        ValueError,
        "X holds codes >= n_values in nominal columns [0]",
    ),
    (
        "code >= n_values mdl",
        lambda: MDLDiscretizer(n_values=[2, 0, 0]).fit(CODES, Y),
        ValueError,
        "X holds codes >= n_values in nominal columns [0]",
    ),
    (
        "code >= n_values none",
        lambda: NoDiscretizer(n_values=[3, 3, 2]).fit(CODES),
        ValueError,
        "X holds codes >= n_values in nominal columns [2]",
    ),
    ("n_values length", lambda: NaiveBayes().fit(CODES, Y, n_values=[3, 3]), ValueError, "n_values must be 3"),
]


@pytest.mark.parametrize("action, error, phrase", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_gets_a_clear_error(action, error, phrase):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error) as info:
            action()
    assert phrase in str(info.value)


def test_there_are_at_least_thirty_cases():
    assert len(CASES) >= 30


def test_error_classes_are_what_scikit_learn_catches():
    assert issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)
    assert issubclass(InvalidParameterError, ValueError) and issubclass(InvalidParameterError, TypeError)
    assert not hasattr(NaiveBayes(), "n_features_in_")  # hasattr(predict-only attribute) is False, no crash


# ----------------------------------------------------------------------------------- documented handling
def test_tiny_pseudo_count_is_clipped_with_a_warning():
    """alpha = 0 would give log 0 for a value unseen in a class; like scikit-learn we use 1e-10 and warn."""
    X = np.array([[0], [1], [0], [1]])
    y = np.array([0, 0, 1, 1])
    X_train, y_train = X[:3], y[:3]  # class 1 never shows value 1
    with pytest.warns(UserWarning, match="alpha too small will result in numeric errors, setting alpha = 1.0e-10"):
        model = NaiveBayes(alpha=0).fit(X_train, y_train)
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(proba, NaiveBayes(alpha=1e-10).fit(X_train, y_train).predict_proba(X))


@pytest.mark.parametrize(
    "params, ignored",
    [
        ({"prior": "kang", "alpha": 0.5}, "alpha"),
        ({"prior": "laplace", "m": 3.0}, "m"),
        ({"prior": "m_estimate", "alpha_jitter": 0.01}, "alpha_jitter"),
    ],
)
def test_parameter_the_prior_ignores_warns(params, ignored):
    with pytest.warns(UserWarning, match=f"{ignored}=.* is ignored by prior='{params['prior']}'"):
        NaiveBayes(**params).fit(CODES, Y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NaiveBayes(prior=params["prior"]).fit(CODES, Y)  # defaults: no warning


def test_column_vector_y_is_raveled_with_a_warning():
    with pytest.warns(UserWarning, match="A column-vector y was passed when a 1d array was expected"):
        model = NaiveBayes().fit(CODES, Y[:, None])
    np.testing.assert_array_equal(model.predict_proba(CODES), NaiveBayes().fit(CODES, Y).predict_proba(CODES))


@pytest.mark.parametrize("cls", DISCRETE)
def test_unseen_code_at_predict_counts_as_missing(cls):
    """Documented in every discrete learner: a code >= n_values_ (never seen in training) = missing."""
    model = cls().set_params(**({"random_state": 0} if "random_state" in cls().get_params() else {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(CODES, Y)
    unseen, missing, nan = CODES[:8].copy(), CODES[:8].copy(), CODES[:8].astype(float)
    unseen[:, 1], missing[:, 1], nan[:, 1] = 7, -1, np.nan
    given = [a.copy() for a in (unseen, missing, nan)]
    np.testing.assert_array_equal(model.predict_proba(unseen), model.predict_proba(missing))
    np.testing.assert_array_equal(model.predict_proba(unseen), model.predict_proba(nan))
    for before, after in zip(given, (unseen, missing, nan)):  # the caller's arrays are read, never written
        np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("cls", MIXED)
def test_unseen_nominal_code_at_predict_counts_as_missing_in_mixed_learners(cls):
    X = np.column_stack([CODES[:, 0], NUM[:, 1:]])
    model = cls().fit(X, Y, n_values=[3, 0, 0])
    unseen, nan = X[:8].copy(), X[:8].copy()
    unseen[:, 0], nan[:, 0] = 5, np.nan
    np.testing.assert_allclose(model.predict_proba(unseen), model.predict_proba(nan), rtol=1e-12)


def test_discretizers_map_unseen_nominal_codes_to_missing():
    disc = MDLDiscretizer(n_values=[3, 0, 0]).fit(np.column_stack([CODES[:, 0], NUM[:, 1:]]), Y)
    out = disc.transform(np.array([[5.0, 0.0, 0.0], [2.0, 0.0, 0.0], [np.nan, 0.0, 0.0]]))
    np.testing.assert_array_equal(out[:, 0], [-1, 2, -1])


def test_constructor_n_values_and_fit_keyword_wins():
    a = NaiveBayes(n_values=[5, 5, 5]).fit(CODES, Y)
    assert list(a.n_values_) == [5, 5, 5]
    b = NaiveBayes(n_values=[5, 5, 5]).fit(CODES, Y, n_values=[4, 4, 4])
    assert list(b.n_values_) == [4, 4, 4]
    assert list(NaiveBayes().fit(CODES, Y).n_values_) == [3, 3, 3]


def test_predict_on_zero_rows_gives_an_empty_answer():
    assert fitted(NaiveBayes).predict_proba(np.empty((0, 3))).shape == (0, 2)


def test_feature_names_from_a_dataframe():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(CODES, columns=["a", "b", "c"])
    model = NaiveBayes().fit(frame, Y)
    assert list(model.feature_names_in_) == ["a", "b", "c"] and model.n_features_in_ == 3
    with pytest.warns(UserWarning, match="X does not have valid feature names, but NaiveBayes was fitted with"):
        np.testing.assert_array_equal(model.predict_proba(frame), model.predict_proba(CODES))
    with pytest.raises(ValueError, match="The feature names should match those that were passed during fit"):
        model.predict(frame[["b", "a", "c"]])
    assert not hasattr(NaiveBayes().fit(frame, Y).fit(CODES, Y), "feature_names_in_")


def test_nullable_pandas_columns_read_pd_na_as_missing():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(CODES, columns=["a", "b", "c"]).astype("Int64")
    frame.iloc[0, 1] = pd.NA
    with_na = CODES.astype(float)
    with_na[0, 1] = np.nan
    np.testing.assert_array_equal(
        NaiveBayes().fit(frame, Y).predict_proba(frame), NaiveBayes().fit(with_na, Y).predict_proba(with_na)
    )


def test_binary_decision_function_is_the_log_odds():
    model = fitted(NaiveBayes)
    d = model.decision_function(CODES)
    assert d.shape == (40,)
    lp = model.predict_log_proba(CODES)
    np.testing.assert_allclose(d, lp[:, 1] - lp[:, 0], atol=1e-12)
    np.testing.assert_array_equal(model.classes_[(d > 0).astype(int)], model.predict(CODES))
    three = NaiveBayes().fit(CODES, CODES[:, 2])
    assert three.decision_function(CODES).shape == (40, 3)


def test_ensembles_accept_scikit_learn_names_for_base():
    boost = AdaBoostM1(LeveledNBTree())
    boost.set_params(base_estimator__max_depth=1, estimator__m=3.0)
    assert boost.base.max_depth == 1 and boost.base.m == 3.0 and "base_estimator" not in boost.get_params()
    with pytest.raises(ValueError, match="Invalid parameter 'basis'"):
        boost.set_params(basis=None)


class _Probe(TAN):
    """Records, at each fit, whether the checks skip their scans there (a TAN: AdaBoost has no fast path
    for it, so it calls fit)."""

    seen: list = []

    def fit(self, X, y, sample_weight=None, n_values=None):
        _Probe.seen.append(scans_skipped(fit=True))
        return super().fit(X, y, sample_weight=sample_weight, n_values=n_values)


def test_nested_fits_skip_the_scans_top_level_fits_do_not():
    """AdaBoost validates its input once; its 100 base fits (inside its fit) skip the O(n) scans."""
    _Probe.seen = []
    _Probe().fit(CODES, Y)
    assert _Probe.seen == [False]  # a top-level fit checks everything (super().fit is the same fit)
    _Probe.seen = []
    AdaBoostM1(_Probe(), n_estimators=3, random_state=0).fit(CODES, Y)
    assert _Probe.seen and all(_Probe.seen)
    with pytest.raises(ValueError, match="infinity"):
        AdaBoostM1(_Probe(), n_estimators=3).fit(INF, Y)  # but the ensemble checked the input


def test_a_mixed_fit_gets_only_rows_of_positive_weight_also_when_nested():
    """C45Tree and SelfAdaptiveNBTree fit the rows check_mixed_fit returns without a filter of their own: those are
    the rows of positive weight (weight 0 = absent row), also in a nested fit, which skips the weight-sign scan."""
    weights = np.where(np.arange(40) % 3 == 0, 0.0, 1.0 + np.arange(40) % 2)
    keep = weights > 0
    X, _, classes, y, w = check_mixed_fit(C45Tree(), NUM, Y, weights, None)
    np.testing.assert_array_equal(X, NUM[keep])
    np.testing.assert_array_equal(classes[y], Y[keep])
    np.testing.assert_array_equal(w, weights[keep])
    inside = tracked_fit(lambda owner, call: call())  # a fit running ``call``: two of them nest it in another fit
    weights[1] = -1.0  # a sign only the top-level scan rejects
    X, _, classes, y, w = inside(
        object(), lambda: inside(object(), lambda: check_mixed_fit(C45Tree(), NUM, Y, weights, None))
    )
    assert w.size == np.count_nonzero(weights > 0) and np.all(w > 0)
    np.testing.assert_array_equal(X, NUM[weights > 0])


def test_import_nbx_does_not_import_sklearn():
    modules = [
        "nbx",
        "nbx.core.validation",
        "nbx.discretize",
        "nbx.protocol.folds",
        "nbx.protocol.runner",
        "nbx.pipeline",
    ] + [f"nbx.models.{p.stem}" for p in sorted((REPO / "src/nbx/models").glob("*.py")) if p.stem != "__init__"]
    code = (
        f"import sys\nfor m in {modules!r}:\n    __import__(m)\n"
        "bad = sorted(m for m in sys.modules if m == 'sklearn' or m.startswith('sklearn.'))\n"
        "assert not bad, bad\nprint('ok', len(sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stderr


@pytest.mark.parametrize("row", [0, 3275, 3276, 9999])
def test_nominal_checks_cover_every_row_block(row):
    """The nominal-code checks run over blocks of rows (``row_blocks``: 3,276 rows of 20 columns here); a bad code in
    any block, at either edge of one, names its column, as one pass over the whole array would."""
    from nbx.core.base import mixed_n_values, row_blocks
    from nbx.models.logistic_design import nominal_codes

    X = np.tile(np.arange(20.0) % 4, (10_000, 1))
    nv = np.full(20, 4)
    assert [(b.start, b.stop) for b in row_blocks(10_000, 20)][:2] == [(0, 3276), (3276, 6552)]
    codes = nominal_codes(X, nv)
    assert codes.dtype == np.int64 and np.array_equal(codes, X)
    fraction, too_big = X.copy(), X.copy()
    fraction[row, 7], too_big[row, 13] = 1.5, 4.0
    with pytest.raises(ValueError, match=r"integer codes; columns \[7\] do not"):
        mixed_n_values(fraction, nv)
    with pytest.raises(ValueError, match="must hold integer codes"):
        nominal_codes(fraction, nv)
    with pytest.raises(ValueError, match=r"codes >= n_values in nominal columns \[13\]"):
        mixed_n_values(too_big, nv)
    assert nominal_codes(too_big, nv)[row, 13] == -1  # at predict: a value never seen, i.e. missing
