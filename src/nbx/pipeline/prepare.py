"""Stage prepare@<experiment>: fetch the experiment's data files (into the download cache data/raw/, verified
by sha256) and build one typed table per data set, checked against the catalogue.

Each experiment gets its own folder, so adding a data set to one experiment leaves the others' tables, and
therefore all their later stages, untouched. A data set that cannot be had (unavailable in the catalogue, or a
mirror-only stand-in without a mirror) is listed in availability.json with the reason, for the report.
"""

from __future__ import annotations

from nbx.core.io import write_json
from nbx.data.catalogue import get_entry, load_catalogue
from nbx.data.fetch import FetchError, fetch_entry
from nbx.data.prepare import build_table
from nbx.pipeline import config, layout


def catalogue(params: config.Params) -> dict:
    files = (params.get("data") or {}).get("catalogues") or []
    if not isinstance(files, list):
        raise params.error(("data", "catalogues"), f"{files!r} must be a list of catalogue files")
    return load_catalogue(files)


def prepare(params: config.Params, name: str) -> dict:
    exp = config.experiment(params, name)
    cat = catalogue(params)
    protocol = ("experiments", name, "protocol")  # an unknown name would leave its data set's folds as is
    for keys, block in ((protocol + ("full_protocol",), exp.full_protocol), (protocol, exp.protocol)):
        for ds in block.get("folds_by_dataset") or {}:  # full_protocol's first: it may be the one in effect
            get_entry(cat, ds, params.where(*keys, "folds_by_dataset", ds))
    availability = {}
    for paper_name, ds in exp.datasets.items():
        entry = get_entry(cat, ds, params.where("experiments", name, "datasets", paper_name))
        reason = entry.reason if not entry.available else ""
        paths = []
        if not reason and entry.source != "generator":
            try:
                paths = fetch_entry(entry, layout.RAW)
            except FetchError as exc:
                if entry.source != "mirror-only":
                    raise
                reason = str(exc)
        if not reason:
            build_table(entry, paths).save(layout.prepared(name, ds))
        availability[ds] = {"available": not reason, "reason": reason, "source": entry.source, "title": entry.title}
    write_json(layout.availability(name), availability)
    return availability
