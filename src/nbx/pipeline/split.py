"""Stage split@<experiment>: the resampling plan of every data set (see :mod:`nbx.protocol.splits`), stored once so
every learner sees identical folds."""
from __future__ import annotations

from nbx.pipeline import config, layout
from nbx.core.io import write_npz
from nbx.protocol.splits import dataset_seed, make_plan
from nbx.pipeline.inputs import available, load_table


def split(params: config.Params, name: str) -> None:
    exp = config.experiment(params, name)
    for ds in available(name):
        y = load_table(name, ds).y
        try:
            test, repeat = make_plan(y, exp.protocol, dataset_seed(params["seed"], name, ds), ds)
        except ValueError as exc:
            raise params.error(("experiments", name, "protocol"), str(exc)) from None
        write_npz(layout.split_plan(name, ds), test=test, repeat=repeat)
