"""Stage split@<experiment>: the resampling plan of every data set (see :mod:`nbx.splits`), stored once so
every learner sees identical folds."""
from __future__ import annotations

from .. import config, layout
from ..io import write_npz
from ..splits import dataset_seed, make_plan
from .inputs import available, load_table


def split(params: config.Params, name: str) -> None:
    exp = config.experiment(params, name)
    for ds in available(name):
        y = load_table(name, ds).y
        try:
            test, repeat = make_plan(y, exp.protocol, dataset_seed(params["seed"], name, ds), ds)
        except ValueError as exc:
            raise params.error(("experiments", name, "protocol"), str(exc)) from None
        write_npz(layout.split_plan(name, ds), test=test, repeat=repeat)
