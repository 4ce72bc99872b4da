"""Stage train: one learner of params.yaml on every split of one experiment's data sets (for a learner of the
experiment's ``limited`` block, of those within its size limits).

Writes ``data/predictions/<exp>/<learner>/<dataset>.npz`` (test-set class probabilities, deterministic),
``fit_info.json`` when the learner reports what its fit did (deterministic), and this machine's wall-clock
times to ``data/timings/<exp>/<learner>.json`` (not versioned: they differ on every run).
"""

from __future__ import annotations

from nbx.core.io import write_json, write_npz
from nbx.pipeline import config, layout, learners
from nbx.pipeline.inputs import available, load_folds, load_plan, load_table
from nbx.protocol.progress import Progress
from nbx.protocol.runner import SplitData, discrete_input, mixed_input, run_datasets


def split_data(experiment: config.Experiment, dataset: str, kind: str, numeric: bool = False) -> SplitData:
    """A data set's per-split inputs (as :func:`nbx.protocol.crossval.cross_validate` makes them in memory): the
    discretize stage's codes ('discrete') or the table and plan ('mixed'); with ``numeric`` the discrete input also
    says which columns were numeric (read from the prepared table, which a discrete cell otherwise does not need)."""
    if kind == "discrete":
        kinds = load_table(experiment.name, dataset).n_values == 0 if numeric else None
        return discrete_input(load_folds(experiment.name, dataset), kinds)
    test, _ = load_plan(experiment.name, dataset)
    return mixed_input(load_table(experiment.name, dataset), test, experiment.impute)


def train(params: config.Params, name: str, learner: str) -> None:
    exp = config.experiment(params, name)
    if learner not in exp.learners:
        hint = config.did_you_mean(learner, exp.learners)
        raise params.error(
            ("experiments", name, "learners"), f"{learner!r} is not one of this experiment's learners{hint}"
        )
    setup = learners.build_learner(params, learner)
    data = {ds: split_data(exp, ds, setup.input, setup.numeric_ordinal) for ds in available(name)}
    data = {ds: d for ds, d in data.items() if exp.runs_on(learner, *d.size)}  # experiments.<exp>.limited
    timings, fit_info = {}, {}
    with Progress(f"{name}/{learner}", sum(len(d.test) for d in data.values())) as progress:
        for ds, out in run_datasets(
            setup.estimator,
            data,
            params["seed"],
            name,
            setup.seed_name,
            on_split=progress.advance,
            all_classes=setup.all_classes,
            numeric_ordinal=setup.numeric_ordinal,
        ):
            write_npz(layout.predictions(name, learner, ds), **out.arrays())
            if any(info is not None for info in out.fit_info):
                fit_info[ds] = out.fit_info
            timings[ds] = {
                "fit_seconds": round(float(out.fit_seconds.sum()), 4),
                "predict_seconds": round(float(out.predict_seconds.sum()), 4),
                "wall_seconds": round(progress.finish(ds, len(data[ds].test)), 4),
            }
    if fit_info:
        write_json(layout.fit_info(name, learner), fit_info)
    write_json(layout.timings(name, learner), timings)
