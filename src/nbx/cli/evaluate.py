"""``nbx evaluate DATA --learners a,b,c``: one-shot stratified cross-validation on your own file, no catalogue
entry needed (as ``java weka.classifiers... -t data.arff``).

The pipeline's own pieces do the work: the plan of :func:`nbx.protocol.splits.make_plan`, fold-local imputation and
discretization of :func:`nbx.protocol.folds.discretize_splits` for discrete learners (mixed-input learners such as C4.5
get the numeric columns, imputed per fold when ``--impute mode``), :func:`nbx.protocol.runner.run_splits` and
:func:`nbx.protocol.accuracy.split_accuracy`. Folds are seeded by ``--seed`` only (not by the file's name), each
learner's randomness by the seed and the learner's name, so a rerun prints the same accuracies.
"""
from __future__ import annotations

import numpy as np

from nbx.stats import significance as stats
from nbx.protocol.accuracy import split_accuracy
from nbx.protocol.folds import discretize_splits, impute
from nbx.protocol.progress import Progress
from nbx.protocol.runner import SplitData, TrainError, run_splits
from nbx.protocol.splits import dataset_seed, make_plan
from nbx.cli.common import (
    SpecError,
    describe,
    discretizer_spec,
    load_params,
    read_table,
    render,
    resolve_learner,
    split_top,
)

SIGNIFICANCE = 0.05


def register(sub) -> None:
    p = sub.add_parser("evaluate", help="cross-validate learners on your CSV or ARFF file",
                       description=__doc__.split("\n\n")[0].replace("``", ""))
    p.add_argument("data", help="a CSV file whose first line names the columns, or an ARFF file")
    p.add_argument("--learners", required=True,
                   help="comma-separated params.yaml learner names or Class(option=value, ...), e.g. "
                        "'nb_laplace,tan,c45,NaiveBayes(prior=m_estimate)'")
    p.add_argument("--cv", type=int, default=10, metavar="K", help="number of folds (default 10)")
    p.add_argument("--repeats", type=int, default=1, help="repetitions of the K-fold CV (default 1)")
    p.add_argument("--discretizer", default="mdl",
                   help="for discrete learners, fitted on each training fold: mdl (default), equal_width(bins=10), "
                        "stddev, none")
    p.add_argument("--impute", choices=("none", "mode"), default="none",
                   help="fill missing values from each training fold (mode; mean for numeric) before learning")
    p.add_argument("--seed", type=int, default=1, help="seed of the folds and the learners (default 1)")
    p.add_argument("--class", dest="class_column", metavar="COL", help="class column name (default: the last)")
    p.set_defaults(func=run)


def cross_validate(table, learners, folds: int, repeats: int, discretizer: dict, how_impute: str | None,
                   seed: int, label: str = "evaluate") -> tuple[np.ndarray, dict]:
    """(test mask, {learner name: (per-split accuracy, fit seconds)}) of a stratified K-fold CV."""
    protocol = {"kind": "cv", "folds": folds, "repeats": repeats, "stratified": True}
    try:
        test, _ = make_plan(table.y, protocol, dataset_seed(seed, "evaluate"), table.name)
    except ValueError as exc:
        raise SpecError(f"--cv: {exc}") from None
    n_classes = len(table.classes)
    data = {}
    if any(x.input == "discrete" for x in learners):
        codes, n_values = discretize_splits(table, test, discretizer, how_impute)
        data["discrete"] = SplitData(table.y, test, n_classes, codes=codes, n_values=n_values,
                                     numeric=table.n_values == 0)
    if any(x.input == "mixed" for x in learners):
        data["mixed"] = SplitData(table.y, test, n_classes, X=table.X, n_values=table.n_values,
                                  impute=lambda X, train: impute(table, train, how_impute))
    out = {}
    with Progress(label, len(test) * len(learners)) as progress:
        for learner in learners:
            try:
                run = run_splits(learner.estimator, data[learner.input], seed, ("evaluate", "data", learner.name),
                                 on_split=lambda _: progress.advance(learner.name),
                                 numeric_ordinal=learner.numeric_ordinal)
            except TrainError as exc:
                raise TrainError(f"{learner.name}: {str(exc).removeprefix('evaluate/data ')}") from None
            acc = split_accuracy(run.proba, run.split, run.row, table.y, len(test))
            out[learner.name] = (acc, float(run.fit_seconds.sum()))
            progress.finish(learner.name, len(test))
    return test, out


def run(args) -> None:
    if args.repeats < 1:
        raise SpecError(f"--repeats: {args.repeats} must be >= 1")
    params = load_params()
    learners = [resolve_learner(text, params) for text in split_top(args.learners)]
    if not learners:
        raise SpecError("--learners: give at least one learner")
    if len({x.name for x in learners}) < len(learners):
        raise SpecError("--learners: a learner is listed twice")
    discretizer = discretizer_spec(args.discretizer)
    table = read_table(args.data, args.class_column).table
    how = None if args.impute == "none" else "mode"
    test, results = cross_validate(table, learners, args.cv, args.repeats, discretizer, how, args.seed,
                                   f"evaluate {args.data}")
    print(f"{args.data}: {describe(table)}")
    reps = f"{args.repeats} x " if args.repeats > 1 else ""
    print(f"stratified {reps}{args.cv}-fold cross-validation, seed {args.seed}; discrete learners get "
          f"{discretizer['kind']} discretization fitted on each training fold"
          + ("; missing values imputed per fold" if how else "") + "\n")
    print(accuracy_table(learners, results, float(test.sum(axis=1).mean() / test.shape[1])))


def accuracy_table(learners, results: dict, test_fraction: float) -> str:
    """learner | input | accuracy mean ± std and mark vs the first learner | total fit seconds."""
    ref = results[learners[0].name][0]
    rows = []
    for x in learners:
        acc, fit = results[x.name]
        mark = " "
        if x is not learners[0] and stats.corrected_t(acc, ref, test_fraction) < SIGNIFICANCE \
                and acc.mean() != ref.mean():
            mark = "v" if acc.mean() > ref.mean() else "*"
        std = acc.std(ddof=1) * 100 if len(acc) > 1 else 0.0
        rows.append([x.name, x.input, f"{acc.mean() * 100:6.2f} ± {std:5.2f} {mark}", f"{fit:.2f}"])
    table = render(["learner", "input", "accuracy %", "fit s"], rows, right={3})
    return (table + f"\n\nv / *: significantly better / worse than {learners[0].name} (corrected resampled t-test, "
            f"p < {SIGNIFICANCE}); fit s: seconds over all folds on this machine")
