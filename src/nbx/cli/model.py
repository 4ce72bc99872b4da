"""``nbx fit DATA --learner X --save model.nbx`` and ``nbx predict model.nbx DATA``.

A saved model is a :class:`Bundle`: the fitted learner plus everything needed to read new data the way the
training file was read: the attributes (names, kinds, nominal values in code order), the class labels and
column name, the missing-value markers, and the imputer and discretizer fitted on all training rows. It is
written in nbx's model format (:mod:`.modelfile`, :mod:`nbx.core.persist`): a zip of one JSON document, the
object tree with every estimator by its registry name, and the numpy arrays as ``.npy`` members. Loading it
runs nothing from the file: only nbx's own classes are rebuilt, anything else is refused. Models that earlier
versions saved as pickles are read only with ``--allow-pickle``, since unpickling runs code from the file.
``predict`` matches columns by name (their order may differ, extra columns are ignored, the class column may be
absent), reads a nominal value never seen in training as missing (and says so), and writes one CSV line per
row: its line in the file, the predicted class and one probability per class.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from nbx.cli.common import (
    SpecError,
    add_file_options,
    check_discretizer,
    check_output,
    count,
    describe,
    discretizer_spec,
    file_options,
    load_params,
    memory_guard,
    note,
    read_table,
    resolve_learner,
)
from nbx.cli.modelfile import SUFFIX, ModelFileError, read_model, write_model
from nbx.core.io import atomic_path, sha256_file
from nbx.data.userfile import Options, read_user_file
from nbx.discretize import ModeImputer, make_discretizer
from nbx.protocol.runner import with_ordinal

FORMAT = 1  # of the Bundle's fields; the file format has its own version (nbx.core.persist.VERSION)


@dataclass
class Bundle:
    learner: str  # the name or spec given to `nbx fit`
    spec: dict
    input: str  # "discrete" (codes from the discretizer) or "mixed"
    model: object
    attributes: list[dict]  # {"name", "kind", "values"} as in a prepared table
    classes: list[str]
    class_column: str
    missing: list[str]
    imputer: object | None
    discretizer: object | None
    discretizer_spec: dict | None
    source: dict  # {"path", "sha256", "rows"} of the training file
    extra: dict = field(default_factory=dict)  # e.g. LeveledNBTree's training rows per node, for `nbx show`
    format: int = FORMAT

    @property
    def n_values(self) -> np.ndarray:
        return np.array([len(a["values"]) if a["kind"] == "nominal" else 0 for a in self.attributes], int)

    def features(self, X: np.ndarray) -> np.ndarray:
        """What the model takes: X imputed and, for a discrete learner, discretized (fitted on training)."""
        if self.imputer is not None:
            X = self.imputer.transform(X)
        return self.discretizer.transform(X) if self.discretizer is not None else X


def register(sub) -> None:
    p = sub.add_parser(
        "fit",
        help="fit one learner on all rows of a file and save it",
        description="Fit one learner on every row of a CSV/ARFF file and save it with what is needed "
        "to read new data the same way (see `nbx predict`, `nbx show`).",
    )
    p.add_argument("data", help="a CSV file (delimiter and header line sniffed) or an ARFF file")
    p.add_argument("--learner", required=True, help="a params.yaml learner name or Class(option=value, ...)")
    p.add_argument(
        "--save",
        required=True,
        metavar=f"MODEL{SUFFIX}",
        help=f"where to write the model, in nbx's model format (any name; {SUFFIX} by convention)",
    )
    p.add_argument(
        "--discretizer", default="mdl", help="for a discrete learner: mdl (default), equal_width(bins=10), stddev"
    )
    p.add_argument("--impute", choices=("none", "mode"), default="none", help="fill missing values before learning")
    p.add_argument("--seed", type=count(0), default=1, help="random_state of a randomized learner (default 1)")
    add_file_options(p)
    p.set_defaults(func=run_fit)

    p = sub.add_parser(
        "predict",
        help="predict the rows of a file with a saved model",
        description="Predict every row of a CSV/ARFF file with a model saved by `nbx fit`: columns "
        "are matched by name, a nominal value never seen in training is read as missing; "
        "one CSV line per row: its line in the file, the predicted class and one "
        "probability per class.",
    )
    p.add_argument("model", help="a file written by `nbx fit`")
    p.add_argument("data", help="CSV (with a header line) or ARFF with the training file's attribute columns")
    p.add_argument("--output", "-o", metavar="OUT.csv", help="write the CSV here instead of to standard output")
    add_allow_pickle(p)
    add_file_options(p, class_column=False)
    p.set_defaults(func=run_predict)


def add_allow_pickle(p) -> None:
    p.add_argument(
        "--allow-pickle",
        action="store_true",
        help="also read a model pickled by an earlier nbx version: this RUNS CODE FROM THE FILE, so give it only "
        "for a file you trust (without it a pickle is refused, unread)",
    )


# ------------------------------------------------------------------------------------------------------ fit
def fit_bundle(data, learner, discretizer: dict | None, how_impute: str | None, seed: int, path: str) -> Bundle:
    """Fit imputer, discretizer (discrete learners) and learner on every row of ``data`` (a UserData), as
    :mod:`nbx.protocol.folds` does for a split whose training part is every row."""
    table = data.table
    X, nv = table.X, table.n_values
    imputer = ModeImputer(n_values=nv).fit(X) if how_impute else None
    if imputer is not None:
        X = imputer.transform(X)
    disc = None
    setup = learner.setup
    if setup.input == "discrete":
        disc = make_discretizer(discretizer).set_params(n_values=nv).fit(X, table.y)
        X, nv = disc.transform(X), disc.n_values_
    model = with_ordinal(setup.estimator, table.n_values == 0) if setup.numeric_ordinal else setup.estimator
    if "random_state" in model.get_params(deep=False):
        model.set_params(random_state=seed)
    try:
        model.fit(X, table.y, n_values=nv)
    except (ValueError, TypeError) as exc:
        raise SpecError(f"{learner.name}: {type(exc).__name__}: {exc}") from None
    extra = (
        {"node_rows": np.bincount(model.apply(X), minlength=len(model.node_attribute_))}
        if hasattr(model, "apply") and hasattr(model, "node_attribute_")
        else {}
    )
    return Bundle(
        learner.name,
        learner.spec,
        setup.input,
        model,
        table.attributes,
        table.classes,
        data.class_column,
        data.missing,
        imputer,
        disc,
        discretizer if disc is not None else None,
        {"path": str(path), "sha256": sha256_file(path), "rows": len(table.y)},
        extra,
    )


def run_fit(args) -> None:
    check_output(args.save, "--save", {"data file": args.data})
    learner = resolve_learner(args.learner, load_params(), "--learner")
    disc = discretizer_spec(args.discretizer)
    data = read_table(args.data, file_options(args))
    check_discretizer(disc, data.table, [learner])
    with memory_guard(args.data):
        bundle = fit_bundle(data, learner, disc, None if args.impute == "none" else "mode", args.seed, args.data)
    write_model(args.save, bundle, (Bundle,))
    print(f"wrote {args.save}: {learner.name} fitted on {args.data} ({describe(data.table)})")
    print(f"`nbx show {args.save}` prints it; `nbx predict {args.save} DATA.csv` applies it")


def load_bundle(path: str, allow_pickle: bool = False) -> Bundle:
    """The Bundle in the model file ``path`` (:func:`.modelfile.read_model`; a pickle only with ``allow_pickle``)."""
    bundle = read_model(path, (Bundle,), allow_pickle=allow_pickle)
    if not isinstance(bundle, Bundle) or bundle.format != FORMAT:
        raise ModelFileError(f"{path}: not a model written by this version of `nbx fit`")
    return bundle


# -------------------------------------------------------------------------------------------------- predict
def read_rows(bundle: Bundle, path: str, options: Options) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, list]:
    """(X coded as in training, class labels or None, file lines, notes) of a new file. Columns are matched by
    name (any order; other columns ignored; the class column optional); a name the model needs that the file
    lacks, or has twice, is an error."""
    kinds = {a["name"]: "n" if a["kind"] == "numeric" else "c" for a in bundle.attributes}
    kinds[bundle.class_column] = "y"
    options = Options(None, options.delimiter, options.header, bundle.missing)
    read = read_user_file(path, options, kinds=kinds, keep_unlabelled=True)
    table = read.table
    column = {a["name"]: k for k, a in enumerate(table.attributes)}
    X = np.empty((len(table.X), len(bundle.attributes)))
    notes = []
    for j, attr in enumerate(bundle.attributes):
        k = column[attr["name"]]
        if attr["kind"] == "numeric":
            X[:, j] = table.X[:, k]
            continue
        seen = {v: code for code, v in enumerate(attr["values"])}
        remap = np.array([seen.get(v, -1) for v in table.attributes[k]["values"]] + [np.nan], float)
        codes = table.X[:, k]
        X[:, j] = remap[np.where(np.isnan(codes), len(remap) - 1, codes).astype(np.int64)]
        unseen = X[:, j] < 0
        if unseen.any():
            first = int(np.flatnonzero(unseen)[0])
            value = table.attributes[k]["values"][int(codes[first])]
            notes.append(
                f"{path}: column {attr['name']!r}: {int(unseen.sum())} value(s) not seen in training "
                f"read as missing (first: {value!r}, line {read.lines[first]})"
            )
            X[unseen, j] = np.nan
    labels = read.labels if bundle.class_column in read.names else None
    return X, labels, read.lines, notes


PREDICT_ROWS = 1 << 16  # rows predicted and written at a time: the features and the text stay small


def run_predict(args) -> None:
    if args.output is not None:
        check_output(args.output, "--output", {"model file": args.model, "data file": args.data})
    bundle = load_bundle(args.model, args.allow_pickle)
    classes = np.asarray(bundle.classes)
    with memory_guard(args.data):
        X, labels, lines, notes = read_rows(bundle, args.data, file_options(args))
        header = ["line"] + (["actual"] if labels is not None else []) + ["predicted"]
        header += [f"P({c})" for c in bundle.classes]
        correct = 0
        with _output(args.output) as out:
            out.write(",".join(_csv(h) for h in header) + "\n")
            for start in range(0, len(X), PREDICT_ROWS):
                rows = slice(start, start + PREDICT_ROWS)
                proba = bundle.model.predict_proba(bundle.features(X[rows]))
                predicted = classes[bundle.model.classes_[np.argmax(proba, axis=1)]]
                full = np.zeros((len(proba), len(classes)))
                full[:, bundle.model.classes_] = proba
                cells = [lines[rows].tolist()]
                if labels is not None:
                    cells.append([_csv(v) for v in labels[rows].tolist()])
                    correct += int(np.sum(predicted == labels[rows]))
                cells.append([_csv(v) for v in predicted.tolist()])
                out.write(
                    "".join(",".join([*map(str, c), *map(repr, p)]) + "\n" for *c, p in zip(*cells, full.tolist()))
                )
    for line in notes:
        note(line)
    if labels is not None:
        known = int(np.sum(labels != ""))  # "": a missing class cell
        if known:
            print(f"accuracy on the {known} rows with a class: {100 * correct / known:.2f}%", file=sys.stderr)


@contextmanager
def _output(path: str | None):
    """The file ``path`` (written whole or not at all), else standard output."""
    if path is None:
        yield sys.stdout
        return
    with atomic_path(path) as tmp, open(tmp, "w") as out:
        yield out


def _csv(text) -> str:
    text = str(text)
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text
