"""Stage split@<experiment>: the resampling plan of every data set (see :mod:`nbx.protocol.splits`), stored once so
every learner sees identical folds."""

from __future__ import annotations

from nbx.core.io import write_npz
from nbx.pipeline import config, layout
from nbx.pipeline.inputs import available, load_table
from nbx.protocol.spec import BlockError
from nbx.protocol.splits import make_plan, seeds


def split(params: config.Params, name: str) -> None:
    exp = config.experiment(params, name)
    for ds in available(name):
        y = load_table(name, ds).y
        try:
            test, repeat = make_plan(y, exp.protocol, seeds(params["seed"], name, ds).plan(), ds)
        except BlockError as exc:
            raise config.protocol_error(params, exp, exc) from None
        write_npz(layout.split_plan(name, ds), test=test, repeat=repeat)
