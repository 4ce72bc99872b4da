"""``nbx evaluate DATA --learners a,b,c``: one-shot stratified cross-validation on your own file, no catalogue
entry needed (as ``java weka.classifiers... -t data.arff``).

:func:`nbx.protocol.crossval.cross_validate` does the work, the pipeline's split, discretize, train and evaluate
steps in memory: discrete learners get imputation (``--impute mode``) and discretization fitted on each training
fold, mixed-input learners such as C4.5 the numeric columns, imputed per fold. Folds are seeded by ``--seed`` only
(not by the file's name), each learner's randomness by the seed and the learner's name, so a rerun prints the same
accuracies. ``--cv`` and ``--repeats`` are checked as params.yaml's protocol block is
(:func:`nbx.protocol.spec.check_protocol`).
"""

from __future__ import annotations

from nbx.cli.common import (
    SpecError,
    add_file_options,
    add_format_option,
    check_discretizer,
    count,
    describe,
    discretizer_spec,
    file_options,
    load_params,
    memory_guard,
    print_records,
    read_table,
    render,
    resolve_learner,
    split_top,
)
from nbx.protocol.crossval import cross_validate
from nbx.protocol.spec import BlockError, check_protocol
from nbx.protocol.splits import fraction_tested

SIGNIFICANCE = 0.05


def register(sub) -> None:
    p = sub.add_parser(
        "evaluate",
        help="cross-validate learners on your CSV or ARFF file",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument("data", help="a CSV file (delimiter and header line sniffed) or an ARFF file")
    p.add_argument(
        "--learners",
        required=True,
        help="comma-separated params.yaml learner names or Class(option=value, ...), e.g. "
        "'nb_laplace,tan,c45,NaiveBayes(prior=m_estimate)'",
    )
    p.add_argument("--cv", type=int, default=10, metavar="K", help="number of folds (default 10)")
    p.add_argument("--repeats", type=int, default=1, help="repetitions of the K-fold CV (default 1)")
    p.add_argument(
        "--discretizer",
        default="mdl",
        help="for discrete learners, fitted on each training fold: mdl (default), equal_width(bins=10), stddev, none",
    )
    p.add_argument(
        "--impute",
        choices=("none", "mode"),
        default="none",
        help="fill missing values from each training fold (mode; mean for numeric) before learning",
    )
    p.add_argument("--seed", type=count(0), default=1, help="seed of the folds and the learners (default 1)")
    add_format_option(
        p,
        "learner, input (discrete or mixed), accuracy and accuracy_std (%% over the folds), mark (v / * when "
        "significantly better / worse than the first learner, else empty) and fit_seconds",
    )
    add_file_options(p)
    p.set_defaults(func=run)


OPTIONS = {("protocol", "folds"): "--cv", ("protocol", "repeats"): "--repeats"}  # the option setting each key


def option_error(exc: BlockError) -> SpecError:
    return SpecError(f"{OPTIONS[exc.keys]}: {exc.message}")


def run(args) -> None:
    try:
        protocol = check_protocol({"kind": "cv", "folds": args.cv, "repeats": args.repeats, "stratified": True})
    except BlockError as exc:
        raise option_error(exc) from None
    params = load_params()
    learners = [resolve_learner(text, params) for text in split_top(args.learners)]
    if not learners:
        raise SpecError("--learners: give at least one learner")
    if len({x.name for x in learners}) < len(learners):
        raise SpecError("--learners: a learner is listed twice")
    discretizer = discretizer_spec(args.discretizer)
    table = read_table(args.data, file_options(args)).table
    check_discretizer(discretizer, table, learners)
    how = None if args.impute == "none" else "mode"
    try:
        with memory_guard(args.data):
            cv = cross_validate(
                table,
                {x.name: x.setup for x in learners},
                protocol,
                discretizer,
                how,
                args.seed,
                label=f"evaluate {args.data}",
            )
    except BlockError as exc:  # more folds than rows
        raise option_error(exc) from None
    results = {
        x.name: (cv.scores[x.name]["accuracy"], float(cv.predictions[x.name].fit_seconds.sum())) for x in learners
    }
    records = accuracy_records(learners, results, fraction_tested(cv.test))
    if args.format != "table":
        print_records(records, args.format)
        return
    print(f"{args.data}: {describe(table)}")
    reps = f"{args.repeats} x " if args.repeats > 1 else ""
    print(
        f"stratified {reps}{args.cv}-fold cross-validation, seed {args.seed}; discrete learners get "
        f"{discretizer['kind']} discretization fitted on each training fold"
        + ("; missing values imputed per fold" if how else "")
        + "\n"
    )
    print(accuracy_table(records))


def accuracy_records(learners, results: dict, test_fraction: float) -> list[dict]:
    """Per learner: input kind, accuracy mean and std (%, rounded as printed), the mark vs the first learner
    (corrected resampled t-test) and total fit seconds."""
    ref = results[learners[0].name][0]
    records = []
    for x in learners:
        acc, fit = results[x.name]
        mark = ""
        if x is not learners[0] and acc.mean() != ref.mean():
            from nbx.stats.significance import corrected_t  # scipy.stats, about 0.8 s: only where a test is made

            if corrected_t(acc, ref, test_fraction) < SIGNIFICANCE:
                mark = "v" if acc.mean() > ref.mean() else "*"
        std = acc.std(ddof=1) * 100 if len(acc) > 1 else 0.0
        records.append(
            {
                "learner": x.name,
                "input": x.setup.input,
                "accuracy": round(float(acc.mean() * 100), 2),
                "accuracy_std": round(float(std), 2),
                "mark": mark,
                "fit_seconds": round(fit, 2),
            }
        )
    return records


def accuracy_table(records: list[dict]) -> str:
    """learner | input | accuracy mean ± std and mark vs the first learner | total fit seconds."""
    rows = [
        [
            r["learner"],
            r["input"],
            f"{r['accuracy']:6.2f} ± {r['accuracy_std']:5.2f} {r['mark'] or ' '}",
            f"{r['fit_seconds']:.2f}",
        ]
        for r in records
    ]
    table = render(["learner", "input", "accuracy %", "fit s"], rows, right={3})
    return (
        table + f"\n\nv / *: significantly better / worse than {records[0]['learner']} (corrected resampled t-test, "
        f"p < {SIGNIFICANCE}); fit s: seconds over all folds on this machine"
    )
