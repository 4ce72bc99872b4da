"""pandas in: category, object, string and bool columns of a DataFrame are nominal columns (nbx.core.validation's
check_array codes them, nbx.core.base.frame_n_values infers their n_values), for every learner class in nbx.models
and every discretizer. The same data given as a DataFrame and as its integer codes (NaN = missing, n_values given)
give byte-identical predictions; unseen categories count as missing; errors name the column."""

from __future__ import annotations

import numpy as np
import pytest
from estimators import estimator_classes

from nbx.discretize import EqualWidthDiscretizer, MDLDiscretizer, ModeImputer, NoDiscretizer, StdDevDiscretizer
from nbx.models.c45 import C45Tree
from nbx.models.naive_bayes import NaiveBayes

pd = pytest.importorskip("pandas")

LEARNERS = estimator_classes("nbx.models")
TRANSFORMERS = [MDLDiscretizer, StdDevDiscretizer, EqualWidthDiscretizer, ModeImputer]
COLOURS = ["r", "g", "b", "unused"]  # a declared category no row holds: it still counts in n_values


def _frame(n=80, seed=0, last="x"):
    """A frame with a category, an object (strings and None), a bool and a numeric (float ``x`` or integer
    ``count``) column, and the same data as float codes with NaN for missing."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(COLOURS[:3], n).astype(object)
    colour[rng.random(n) < 0.1] = None
    shape = rng.choice(["square", "circle"], n).astype(object)
    shape[rng.random(n) < 0.1] = None
    flag = rng.random(n) < 0.4
    x = rng.normal(size=n) if last == "x" else rng.integers(0, 3, n)
    df = pd.DataFrame(
        {
            "colour": pd.Categorical(colour, categories=COLOURS),
            "shape": pd.Series(shape, dtype=object),
            "flag": flag,
            last: x,
        }
    )
    codes = np.column_stack(
        [
            [np.nan if c is None else COLOURS.index(c) for c in colour],
            [np.nan if s is None else ["circle", "square"].index(s) for s in shape],  # sorted unique values
            flag.astype(float),
            x.astype(float),
        ]
    )
    y = ((codes[:, 0] == 1) + (codes[:, 2] == 1) + rng.integers(0, 2, n)) % 3
    return df, codes, y


def _make(cls):
    est = cls()
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    return est


def _pair(cls):
    """(fitted on the frame, fitted on the codes, frame, codes) for the learner's input kind."""
    discrete = getattr(cls(), "input_kind", "mixed") == "discrete"
    df, codes, y = _frame(last="count" if discrete else "x")
    n_values = [4, 2, 2, 3] if discrete else [4, 2, 2, 0]
    on_frame = _make(cls).fit(df, y)
    on_codes = _make(cls).set_params(n_values=n_values).fit(codes, y)
    return on_frame, on_codes, df, codes


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_frame_and_codes_give_the_same_bytes(cls):
    on_frame, on_codes, df, codes = _pair(cls)
    assert on_frame.predict_proba(df).tobytes() == on_codes.predict_proba(codes).tobytes()
    assert [None if c is None else list(c) for c in on_frame.categories_] == [
        COLOURS,
        ["circle", "square"],
        [False, True],
        None,
    ]
    if hasattr(on_codes, "n_values_"):
        np.testing.assert_array_equal(on_frame.n_values_, on_codes.n_values_)
    # unseen categories (a colour and a shape never seen at fit) count as missing, as unseen codes do
    unseen = df.copy()
    unseen["colour"] = pd.Categorical(["purple"] * len(df))
    unseen["shape"] = pd.Series(["triangle"] * len(df), dtype=object)
    missing = codes.copy()
    missing[:, :2] = np.nan
    assert on_frame.predict_proba(unseen).tobytes() == on_codes.predict_proba(missing).tobytes()


@pytest.mark.parametrize("cls", [*TRANSFORMERS, NoDiscretizer], ids=lambda c: c.__name__)
def test_discretizers_code_frames_as_their_codes(cls):
    discrete = cls is NoDiscretizer
    df, codes, y = _frame(last="count" if discrete else "x")
    on_frame = cls().fit(df, y)
    on_codes = cls(n_values=[4, 2, 2, 3] if discrete else [4, 2, 2, 0]).fit(codes, y)
    assert on_frame.transform(df).tobytes() == on_codes.transform(codes).tobytes()
    np.testing.assert_array_equal(
        on_frame.n_values_ if discrete else on_frame.input_n_values_,
        on_codes.n_values_ if discrete else on_codes.input_n_values_,
    )


def test_string_and_nullable_dtypes():
    """pandas' string dtype (pd.NA missing) and nullable boolean read like object and bool columns."""
    df, codes, y = _frame(last="count")
    typed = df.astype({"shape": "string", "flag": "boolean"})
    typed.loc[0, "flag"] = pd.NA
    codes = codes.copy()
    codes[0, 2] = np.nan
    a = NaiveBayes().fit(typed, y)
    b = NaiveBayes(n_values=[4, 2, 2, 3]).fit(codes, y)
    assert a.predict_proba(typed).tobytes() == b.predict_proba(codes).tobytes()


def test_unorderable_object_column_is_named():
    X = pd.DataFrame({"colour": pd.Series(["red", 1, "blue", None], dtype=object), "x": [0, 1, 0, 1]})
    with pytest.raises(ValueError, match=r"^X column 'colour': values of types \['int', 'str'\] cannot be sorted"):
        NaiveBayes().fit(X, [0, 1, 0, 1])


def test_nominal_column_for_an_array_fit_is_named():
    df, codes, y = _frame(last="count")
    est = NaiveBayes().fit(codes, y)
    with pytest.raises(ValueError, match=r"^X column 'colour': category values, but NaiveBayes was fitted without"):
        est.predict_proba(df)


def test_arrays_are_not_coded():
    """An ndarray of strings is refused as before (nothing is coded outside DataFrames); an array fit leaves no
    categories_, and refitting on an array removes those of a frame fit."""
    with pytest.raises(ValueError, match="dtype='numeric' is not compatible"):
        NaiveBayes().fit(np.array([["a"], ["b"]]), [0, 1])
    df, codes, y = _frame(last="count")
    est = NaiveBayes().fit(df, y)
    assert hasattr(est, "categories_")
    assert not hasattr(est.fit(codes, y), "categories_")


# --------------------------------------------------------------------------- after a ColumnTransformer
def test_column_transformer_category_passthrough_infers_n_values():
    """set_output(transform="pandas") keeps a passed-through column's category dtype: n_values is inferred."""
    pytest.importorskip("sklearn")
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline

    df, codes, y = _frame()
    ct = make_column_transformer(("passthrough", ["colour", "shape", "flag"]), remainder="passthrough")
    pipe = make_pipeline(ct.set_output(transform="pandas"), C45Tree()).fit(df, y)
    np.testing.assert_array_equal(pipe[-1].n_values_, [4, 2, 2, 0])
    direct = C45Tree(n_values=[4, 2, 2, 0]).fit(codes, y)
    assert pipe.predict_proba(df).tobytes() == direct.predict_proba(codes).tobytes()


def test_column_transformer_ordinal_encoder_needs_n_values():
    """OrdinalEncoder's output is float codes, which cannot be told from numbers: a mixed learner refuses to
    guess (one line naming the columns) and works once n_values is given."""
    pytest.importorskip("sklearn")
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OrdinalEncoder

    df, codes, y = _frame()
    df = df.astype({"colour": object})
    ct = make_column_transformer((OrdinalEncoder(), ["colour", "shape"]), remainder="passthrough").set_output(
        transform="pandas"
    )
    with pytest.raises(
        ValueError,
        match=r"^X columns \['ordinalencoder__colour', 'ordinalencoder__shape'\] look "
        r"like OrdinalEncoder codes .*: pass n_values",
    ) as err:
        make_pipeline(ct, C45Tree()).fit(df, y)
    assert "\n" not in str(err.value)
    # the encoder's counts (None is one of its categories), the bool column still nominal
    pipe = make_pipeline(ct, C45Tree(n_values=[3, 3, 2, 0])).fit(df, y)
    assert pipe.predict_proba(df).shape == (len(df), 3)
