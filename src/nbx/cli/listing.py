"""``nbx datasets`` and ``nbx learners``: what the catalogue and params.yaml define, and where it is used.

Outside a clone of the repository (no params.yaml in the current folder) they list the catalogue and
params.yaml shipped with nbx.

Availability of a data set (no file is downloaded or hashed here): ``cached`` (in data/raw/ already),
``mirror`` (found in ``NBX_UCI_MIRROR``), ``download`` (fetched from the UCI archive on first use),
``needs mirror`` (a stand-in that exists only in the offline mirror), ``local`` / ``local: missing``,
``generated`` or ``unavailable`` (with the catalogue's reason).
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from nbx.cli.common import in_clone, load_params, render
from nbx.data.fetch import MIRROR_ENV, mirror
from nbx.pipeline import config, layout, learners


def register(sub) -> None:
    p = sub.add_parser(
        "datasets",
        help="list catalogued data sets: availability, size, experiments using them",
        description="\n\n".join(__doc__.split("\n\n")[:3]),
    )
    p.add_argument("--experiment", help="only the data sets of this experiment")
    p.set_defaults(func=run_datasets)
    p = sub.add_parser("learners", help="list params.yaml learners: class, input kind, experiments using them")
    p.add_argument("name", nargs="?", help="print this learner's params.yaml block")
    p.add_argument("--experiment", help="only the learners of this experiment")
    p.set_defaults(func=run_learners)


def _users(params, key: str) -> dict[str, list[str]]:
    """Catalogue id (key='datasets') or learner (key='learners') -> experiments that use it."""
    out: dict[str, list[str]] = {}
    for name in params["experiments"]:
        exp = config.experiment(params, name)
        for item in exp.datasets.values() if key == "datasets" else exp.learners:
            out.setdefault(item, []).append(name)
    return out


def availability(entry) -> str:
    if not entry.available:
        return "unavailable"
    if entry.source == "generator":
        return "generated"
    files = entry.files
    if entry.source == "local" or any(f.local for f in files):
        return "local" if all(Path(f.path).is_file() for f in files) else "local: missing"
    if all((layout.RAW / f.path).is_file() for f in files):
        return "cached"
    m = mirror()
    if m and (("://" in m) or all((Path(m) / f.path).is_file() for f in files)):
        return "mirror"
    return "needs mirror" if entry.source == "mirror-only" else "download"


def _only(params, experiment: str | None, key: str):
    if experiment is None:
        return None
    exp = config.experiment(params, experiment)
    return set(exp.datasets.values()) if key == "datasets" else list(exp.learners)


def run_datasets(args) -> None:
    from nbx.pipeline.prepare import catalogue

    params = load_params()
    cat = catalogue(params)
    users = _users(params, "datasets")
    only = _only(params, args.experiment, "datasets")
    rows = []
    for name, entry in sorted(cat.items()):
        if only is not None and name not in only:
            continue
        count = lambda v: "" if v is None else str(v)  # noqa: E731
        rows.append(
            [
                name,
                entry.source,
                availability(entry),
                count(entry.rows),
                count(entry.attributes),
                count(entry.classes),
                ", ".join(users.get(name, [])),
            ]
        )
    print(
        render(["data set", "source", "availability", "rows", "attrs", "classes", "experiments"], rows, right={3, 4, 5})
    )
    source = os.environ.get(MIRROR_ENV) or "(unset: files come from the UCI archive)"
    print(f"\n{len(rows)} data sets; {MIRROR_ENV}={source}")
    if not layout.DATA.is_dir():
        print(f"No {layout.DATA}/ folder here: nothing is cached; the files are fetched (sha256-checked) on first use.")
    if not in_clone():
        print(f"Experiments: {params.path} (the copy shipped with nbx; run in a clone's root to use its own).")


def run_learners(args) -> None:
    params = load_params()
    shipped = "" if in_clone() else f" ({params.path}: the copy shipped with nbx)"
    if args.name:
        spec = learners.learner_spec(params, args.name)
        print(f"{params.where('learners', args.name)}:")
        print(yaml.safe_dump({args.name: spec}, default_flow_style=None, sort_keys=False, width=120).rstrip())
        setup = learners.build_learner(params, args.name)
        print(f"{setup.estimator!r}\ninput: {setup.input}")
        return
    users = _users(params, "learners")
    names = _only(params, args.experiment, "learners") or list(params["learners"])
    rows = []
    for name in names:
        setup = learners.build_learner(params, name)
        spec = params["learners"][name]
        nested = [value["class"] for value in spec.values() if isinstance(value, dict) and "class" in value]
        cls = spec["class"] + (f"({', '.join(nested)})" if nested else "")
        rows.append([name, cls, setup.input, ", ".join(users.get(name, []))])
    print(render(["learner", "class", "input", "experiments"], rows))
    print(f"\n{len(rows)} learners{shipped}; `nbx learners NAME` prints one block")
