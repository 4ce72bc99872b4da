"""Wiering (2003): the NBC refits the report's readings and gap checks compare with Table 2 (run by
analyse@wiering2003 through :func:`nbx.papers.wiering2003.checks.refits`, read by the report from
``data/analysis/wiering2003.json``'s ``nbc``).

The NBC is params.yaml's ``learners.nb_wiering`` (without its pipeline keys), fitted on every split of
the experiment's prepared data sets with the codes the discretize stage computes
(:func:`nbx.protocol.folds.fold_codes` of the experiment's discretizer and imputation), varied in one way per run:

- Table 1's class counts (published/wiering2003_table1.csv, on the data sets where they exceed the file's): counters
  for classes that never occur (indices beyond the file's), under each P(f | C) denominator of ``denominators``,
  beside the same denominator with the file's classes;
- the standard-deviation discretizer's other rounding (``nbc_rounding``, on every data set): the block's own
  denominator, the file's classes.

Each run records its data set (the paper's name), ``denominator``, ``classes``, ``rounding`` (null: the
experiment's discretizer as params.yaml has it), the test accuracy per split (fraction, split order) and
``phantom``, the share (%) of test rows predicted as a class that never occurs (mean over splits).
"""

from __future__ import annotations

import numpy as np

from nbx.pipeline import config
from nbx.pipeline.inputs import available, load_plan, load_table
from nbx.pipeline.learners import make_learner
from nbx.protocol.folds import fold_codes
from nbx.protocol.runner import discrete_input, fit_predict


def split_codes(exp: config.Experiment, dataset: str, rounding: str | None):
    """A data set's per-split codes (what discretize@<experiment> writes), with the standard-deviation
    discretizer's ``rounding`` (None: the experiment's discretizer unchanged)."""
    table = load_table(exp.name, dataset)
    test, _ = load_plan(exp.name, dataset)
    discretizer = exp.discretizer if rounding is None else {**exp.discretizer, "rounding": rounding}
    return discrete_input(fold_codes(table, test, discretizer, exp.impute))


def nbc_run(spec: dict, data, denominator: str, n_classes: int) -> dict:
    """The NBC of block ``spec`` with P(f|C) over ``denominator`` and counters for ``n_classes`` classes on every
    split of ``data``: test accuracy per split and the share (%) of test rows predicted as a class that never
    occurs."""
    model = make_learner(spec).set_params(denominator=denominator, classes=list(range(n_classes)))
    acc, phantom = [], []
    for s in range(len(data.test)):
        X_train, y_train, n_values, X_test = data.task(s)
        proba, classes, *_ = fit_predict(model, X_train, y_train, n_values, X_test)
        predicted = classes[np.argmax(proba, axis=1)]
        acc.append(float(np.mean(predicted == data.y[data.test[s]])))
        phantom.append(np.mean(predicted >= data.n_classes))
    return {"accuracy": acc, "phantom": 100 * float(np.mean(phantom))}


def nbc_refits(params, name: str, spec: dict, denominators: list[str], classes: dict[str, int], rounding: str) -> dict:
    """Every run of the module docstring on the experiment's available data sets (params order)."""
    exp = config.experiment(params, name)
    ready = set(available(name))
    own = make_learner(spec).get_params()["denominator"]
    runs = []
    for paper_name, dataset in exp.datasets.items():
        if dataset not in ready:
            continue
        base = split_codes(exp, dataset, None)
        k = base.n_classes
        if classes.get(paper_name, 0) > k:  # Table 1 states more classes than the file has
            for den in denominators:
                for n in (k, classes[paper_name]):
                    runs.append({"dataset": paper_name, "denominator": den, "classes": n, "rounding": None})
                    runs[-1].update(nbc_run(spec, base, den, n))
        other = split_codes(exp, dataset, rounding)
        runs.append({"dataset": paper_name, "denominator": own, "classes": k, "rounding": rounding})
        runs[-1].update(nbc_run(spec, other, own, k))
    return {"learner": spec, "runs": runs}
