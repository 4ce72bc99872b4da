"""The work of each DVC stage, as functions of the parsed params (the scripts in stages/ only call these)."""
from __future__ import annotations

import json
import time

import numpy as np

from . import config, layout
from .data.fetch import FetchError, fetch_entry
from .data.prepare import Table, build_table
from .evaluation import split_accuracy, summarize
from .folds import discretize_splits
from .io import write_json, write_npz, write_text
from .runner import run_splits
from .splits import dataset_seed, make_plan


def all_datasets(params: dict) -> list[str]:
    """Catalogue ids used by any experiment, sorted."""
    return sorted({ds for name in params["experiments"]
                   for ds in config.experiment(params, name).datasets.values()})


def download(params: dict) -> dict:
    """Fetch the files of every data set; returns and writes availability (id -> {available, reason})."""
    cat = config.catalogue(params)
    availability = {}
    for ds in all_datasets(params):
        entry = config.get_entry(cat, ds, "params.yaml: experiments.*.datasets")
        reason = entry.reason if not entry.available else ""
        if entry.available and entry.source not in ("generator",):
            try:
                fetch_entry(entry, layout.RAW)
            except FetchError as exc:
                if entry.source != "mirror-only":
                    raise
                reason = str(exc)
        availability[ds] = {"available": not reason, "reason": reason, "source": entry.source,
                            "title": entry.title}
    write_json(layout.RAW / "availability.json", availability)
    return availability


def prepare(params: dict) -> None:
    """Typed table for every available data set (counts checked against the catalogue)."""
    cat = config.catalogue(params)
    availability = json.loads((layout.RAW / "availability.json").read_text())
    for ds, info in availability.items():
        if info["available"]:
            entry = cat[ds]
            build_table(entry, [layout.RAW / f.path for f in entry.files]).save(layout.prepared(ds))
    write_json(layout.AVAILABILITY, availability)


def available(exp: config.Experiment) -> list[str]:
    info = json.loads(layout.AVAILABILITY.read_text())
    return [ds for ds in exp.datasets.values() if info.get(ds, {}).get("available")]


def split(params: dict, name: str) -> None:
    exp = config.experiment(params, name)
    for ds in available(exp):
        table = Table.load(layout.prepared(ds))
        test, repeat = make_plan(table.y, exp.protocol, dataset_seed(params["seed"], name, ds), ds)
        write_npz(layout.split_plan(name, ds), test=test, repeat=repeat)


def load_plan(name: str, ds: str) -> tuple[np.ndarray, np.ndarray]:
    with np.load(layout.split_plan(name, ds)) as z:
        return z["test"], z["repeat"]


def discretize(params: dict, name: str) -> None:
    exp = config.experiment(params, name)
    for ds in available(exp):
        table = Table.load(layout.prepared(ds))
        test, _ = load_plan(name, ds)
        codes, n_values = discretize_splits(table, test, exp.discretizer, exp.impute)
        write_npz(layout.fold_codes(name, ds), codes=codes, n_values=n_values)


def train(params: dict, name: str, learner_name: str) -> None:
    exp = config.experiment(params, name)
    if learner_name not in exp.learners:
        raise config.ConfigError(f"params.yaml: learner {learner_name!r} is not in experiments.{name}.learners "
                                 f"{exp.learners}; update dvc.yaml's train cells or the experiment")
    setup = config.build_learner(params, learner_name)
    timings, fit_info = {}, {}
    for ds in available(exp):
        table = Table.load(layout.prepared(ds))
        test, _ = load_plan(name, ds)
        codes = n_values = None
        if setup.input == "discrete":
            with np.load(layout.fold_codes(name, ds)) as z:
                codes, n_values = z["codes"], z["n_values"]
        t0 = time.perf_counter()
        out = run_splits(setup.estimator, table, test, params["seed"], (name, ds, setup.seed_name), codes,
                         n_values, exp.impute, setup.input)
        write_npz(layout.predictions(name, learner_name, ds), **out.arrays())
        if any(info is not None for info in out.fit_info):
            fit_info[ds] = out.fit_info
        timings[ds] = {"fit_seconds": round(float(out.fit_seconds.sum()), 4),
                       "predict_seconds": round(float(out.predict_seconds.sum()), 4),
                       "wall_seconds": round(time.perf_counter() - t0, 4)}
    write_json(layout.predictions(name, learner_name) / "timings.json", timings)
    if fit_info:  # deterministic, unlike the timings
        write_json(layout.predictions(name, learner_name) / "fit_info.json", fit_info)


def evaluate(params: dict, name: str) -> None:
    """metrics/<experiment>.json (accuracy per data set and learner) and per-split accuracies as CSV."""
    exp = config.experiment(params, name)
    metrics: dict = {}
    lines = ["dataset,learner,split,repeat,test_rows,accuracy"]
    for ds in available(exp):
        y = Table.load(layout.prepared(ds)).y
        test, repeat = load_plan(name, ds)
        for learner in exp.learners:
            with np.load(layout.predictions(name, learner, ds)) as z:
                acc = split_accuracy(z["proba"], z["split"], z["row"], y, len(test))
            metrics.setdefault(ds, {})[learner] = summarize(acc)
            lines += [f"{ds},{learner},{s},{repeat[s]},{int(test[s].sum())},{a:.6f}" for s, a in enumerate(acc)]
    write_json(layout.METRICS / f"{name}.json", metrics)
    write_text(layout.RESULTS / f"{name}.csv", "\n".join(lines) + "\n")


def analyse(params: dict, name: str) -> None:
    """metrics/<experiment>_analysis.json from the experiment's synthetic checks (params: analyses.<name>);
    an experiment without checks gets {} (so every report stage has the same inputs)."""
    from .analysis.paper_checks import CHECKS, run_check
    config.experiment(params, name)  # an unknown experiment is an error
    block = (params.get("analyses") or {}).get(name) or {}
    result = run_check(name, block, params["seed"]) if name in CHECKS else {}  # {}: no synthetic checks
    write_json(layout.METRICS / f"{name}_analysis.json", result)


def report(params: dict, name: str) -> None:
    from .report.experiment_report import write  # matplotlib is only needed here
    write(params, name)
