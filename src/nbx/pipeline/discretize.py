"""Stage discretize@<experiment>: per split, imputation and discretization fitted on the training part only
(see :mod:`nbx.protocol.folds`). Each data set's file holds everything a discrete learner's train cell needs: the
codes and cardinalities per split, the labels and the split plan (:func:`nbx.protocol.folds.fold_codes`)."""

from __future__ import annotations

from nbx.core.io import write_npz
from nbx.discretize import make_discretizer
from nbx.pipeline import config, layout
from nbx.pipeline.inputs import available, load_plan, load_table
from nbx.protocol.folds import fold_codes


def discretize(params: config.Params, name: str) -> None:
    exp = config.experiment(params, name)
    try:
        make_discretizer(exp.discretizer)
    except (TypeError, ValueError) as exc:
        raise params.error(("experiments", name, "discretizer"), str(exc)) from None
    for ds in available(name):
        table = load_table(name, ds)
        test, _ = load_plan(name, ds)
        try:
            codes = fold_codes(table, test, exp.discretizer, exp.impute)
        except ValueError as exc:  # the discretizer cannot take this data set (kind none on numeric columns)
            raise params.error(("experiments", name, "discretizer"), f"data set {ds}: {exc}") from exc
        write_npz(layout.fold_codes(name, ds), **codes)
