"""What several commands share: params.yaml (the shipped copy outside the repository), learner and discretizer specs
from the command line, the user's data file, and plain terminal tables.

Learner syntax (``--learners``, ``--learner``): a learner name of params.yaml (``nb_laplace``), or a class of
:data:`nbx.pipeline.learners.CLASSES` with keyword options in parentheses, written like the estimator's repr:
``NaiveBayes(prior=m_estimate, m=2)``, ``AdaBoostM1(base=NaiveBayes(alpha=0.1), n_estimators=10)``. Values
are YAML (``0.5``, ``true``, ``[2, 2]``, ``laplace``); a value that is a class name (with or without
options), also inside a list (``MUVofMUV(members=[MUV(n_estimators=2), MUV()])``), is a nested learner;
``input=discrete`` feeds a mixed-input learner the discretized codes as params.yaml's ``input`` key does.
The text becomes a params block and is built by :func:`nbx.pipeline.learners.build`, as params.yaml's
blocks are. Quote the whole argument in a shell: ``--learners 'nb_laplace,TAN(alpha=0.5)'``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from nbx.core.errors import NbxError
from nbx.pipeline import config, learners
from nbx.pipeline.learners import CLASSES
from nbx.protocol.spec import BlockError


class SpecError(NbxError, ValueError):
    """A learner or discretizer given on the command line cannot be built."""


class MissingExtraError(NbxError, ImportError):
    """A command needs a package of an optional extra (``pip install 'nbx[EXTRA]'``) that is not installed."""


def require_extra(module: str, extra: str, what: str) -> None:
    """Fail in one line naming the extra to install when ``module`` cannot be imported; else import nothing."""
    from importlib.util import find_spec

    if find_spec(module) is None:
        raise MissingExtraError(f"{what} needs {module}, which is not installed: pip install 'nbx[{extra}]'")


SHIPPED_PARAMS = Path(__file__).resolve().parents[1] / "_shipped" / "params.yaml"
"""The repository's params.yaml as the package ships it (a link to it, whose content the wheel carries as package
data): the learner blocks and experiments ``nbx`` knows outside a clone of the repository."""


def params_file() -> Path:
    """params.yaml of the current folder (the root of a clone), else the copy shipped with the package."""
    return config.PARAMS_FILE if config.PARAMS_FILE.exists() or not SHIPPED_PARAMS.exists() else SHIPPED_PARAMS


def in_clone() -> bool:
    """Whether ``nbx`` runs at the root of a clone of the repository (a params.yaml in the current folder)."""
    return config.PARAMS_FILE.exists()


def load_params() -> config.Params:
    """params.yaml of the current folder, else the shipped copy (:func:`params_file`), checked as every stage
    checks it."""
    path = params_file()
    from nbx.data.yaml_io import read_yaml_text, yaml_error_at

    try:  # a file in another encoding, named at its first bad byte (config reads it with the locale's codec)
        read_yaml_text(path)
    except OSError:
        pass  # config's own message
    except yaml.YAMLError as exc:
        raise config.ConfigError(yaml_error_at(path, exc)) from None
    return config.load_params(path)


# ------------------------------------------------------------------------------------------------ specs
def split_top(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets: 'a,B(x=1,y=[1,2]),c' -> ['a', 'B(x=1,y=[1,2])', 'c']."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


_CALL = re.compile(r"([A-Za-z_]\w*)\s*(?:\((.*)\))?", re.S)


def parse_spec(text: str, option: str) -> dict:
    """``Name(key=value, ...)`` -> {"class": Name, key: value, ...} (see the module docstring)."""
    m = _CALL.fullmatch(text.strip())
    if not m:
        raise SpecError(f"{option}: cannot read {text!r}; write NAME or Class(option=value, ...)")
    spec = {"class": m[1]}
    for arg in split_top(m[2] or ""):
        key, eq, value = (s.strip() for s in arg.partition("="))
        if not eq or not key.isidentifier():
            raise SpecError(f"{option}: {text!r}: {arg!r} is not key=value")
        if key == "class":
            raise SpecError(f"{option}: {text!r}: 'class' is not an option: the class is the name before the '('")
        if key in spec:  # as params.yaml refuses a repeated key, not the last value silently
            raise SpecError(f"{option}: {text!r}: {key!r} is given twice; give it once")
        spec[key] = _value(value, option, f"{text!r}: cannot read the value of {key!r}")
    return spec


def _value(text: str, option: str, what: str):
    """An option's value: a nested learner (a class name, with or without options), a list, or YAML."""
    if _is_learner(text):
        return parse_spec(text, option)
    items = split_top(text[1:-1]) if text.startswith("[") and text.endswith("]") else []
    if any(map(_is_learner, items)):
        return [_value(item, option, what) for item in items]
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        raise SpecError(f"{option}: {what}: {text!r}") from None


def _is_learner(text: str) -> bool:
    call = _CALL.fullmatch(text)
    return bool(call) and call[1] in CLASSES


@dataclass
class Learner:
    name: str  # as given (a params.yaml name or the spec text)
    spec: dict  # the params block / parsed spec (saved with a fitted model)
    setup: learners.LearnerSetup  # the estimator and how to run it, as the pipeline's train stage has it


def resolve_learner(text: str, params: config.Params | None, option: str = "--learners") -> Learner:
    """A params.yaml learner by name, or a class with options (see the module docstring), built and checked
    by the builder params.yaml's blocks use, before any data is read."""
    text = text.strip()
    if params is not None and text in params["learners"]:
        setup = learners.build_learner(params, text)
        spec = dict(params["learners"][text])
    else:
        spec = parse_spec(text, option)
        if spec["class"] not in CLASSES:
            known = list(params["learners"] if params is not None else []) + list(CLASSES)
            raise SpecError(f"{option}: unknown learner {spec['class']!r}{config.did_you_mean(spec['class'], known)}")
        try:
            setup = learners.build(spec, text)
        except BlockError as exc:
            raise SpecError(f"{option}: {text}: {exc}") from None
    return Learner(text, spec, setup)


def discretizer_spec(text: str) -> dict:
    """``mdl`` or ``equal_width(bins=5)`` -> {"kind": ..., options}, checked by building it and checking its
    options against the class's constraints, as a learner's are."""
    from nbx.core.base import validate_params
    from nbx.discretize import KINDS, make_discretizer

    spec = parse_spec(text, "--discretizer")
    spec = {"kind": spec.pop("class"), **spec}
    if spec["kind"] not in KINDS:
        raise SpecError(
            f"--discretizer: unknown discretizer {spec['kind']!r}{config.did_you_mean(spec['kind'], KINDS)}"
        )
    try:
        validate_params(make_discretizer(spec))
    except (TypeError, ValueError) as exc:
        reason = re.sub(
            r"^The '(\w+)' parameter of \w+ must be (.*)\. Got (.*) instead\.$", r"\1 must be \2, got \3", str(exc)
        ).removeprefix("discretizer.")
        raise SpecError(f"--discretizer: {text.strip()}: {reason}") from None
    return spec


def check_discretizer(spec: dict, table, learners: list[Learner]) -> None:
    """``--discretizer none`` keeps codes as they are: a discrete learner then needs every column nominal."""
    numeric = [a["name"] for a in table.attributes if a["kind"] != "nominal"]
    discrete = [x.name for x in learners if x.setup.input == "discrete"]
    if spec["kind"] == "none" and numeric and discrete:
        columns = f"column {numeric[0]} is" if len(numeric) == 1 else f"columns {', '.join(numeric)} are"
        raise SpecError(
            f"--discretizer none: the learner {discrete[0]} needs nominal inputs, but {columns} numeric; "
            "choose mdl, equal_width(bins=N) or stddev"
        )


# ------------------------------------------------------------------------------------------- arguments
def count(minimum: int):
    """An argparse type: an integer >= ``minimum`` (a seed >= 0, a width >= 1), refused with the option's name."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= {minimum}")
        return value

    return parse


def check_output(output: str, option: str, inputs: dict[str, str]) -> None:
    """Refuse, before anything is read, an output that cannot be written as a regular file
    (:func:`nbx.core.io.output_target`) or that is one of the command's own inputs (``{"data file": path}``): the
    same file by ``os.path.samefile``, so also through a link or another spelling of the path."""
    from nbx.core.io import output_target

    output_target(output)
    for what, path in inputs.items():
        try:
            same = os.path.samefile(output, path)
        except (OSError, ValueError):  # one of them does not exist (yet), or is not a path
            continue
        if same:
            also = "" if str(output) == str(path) else f" ({path})"
            raise SpecError(f"{option} {output}: is the {what} this command reads{also}; write the output elsewhere")


# ------------------------------------------------------------------------------------------------- data
def add_file_options(p, class_column: bool = True) -> None:
    """The options that say how to read the user's file (:mod:`nbx.data.userfile` guesses what is not given)."""
    if class_column:
        p.add_argument("--class", dest="class_column", metavar="NAME", help="class column name (default: the last)")
    p.add_argument(
        "--delimiter", metavar="D", help="column separator, e.g. ';' or tab (default: sniffed: , ; tab or |)"
    )
    p.add_argument(
        "--header",
        choices=("yes", "no"),
        help="whether the first line names the columns (default: sniffed; without one: a1, a2, ...)",
    )
    if class_column:
        p.add_argument(
            "--missing",
            metavar="M1,M2",
            help="comma-separated missing-value markers (default: '?', the empty cell and 'NA'); '' for none",
        )


def file_options(args):
    """:class:`nbx.data.userfile.Options` from the options :func:`add_file_options` added."""
    from nbx.data.userfile import Options

    delimiter = getattr(args, "delimiter", None)
    if delimiter is not None:
        delimiter = {"tab": "\t", "\\t": "\t"}.get(delimiter, delimiter)
        if len(delimiter) != 1:
            raise SpecError(f"--delimiter: {delimiter!r} is not one character (write tab for a tab)")
    missing = getattr(args, "missing", None)
    return Options(
        class_column=getattr(args, "class_column", None),
        delimiter=delimiter,
        header=None if getattr(args, "header", None) is None else args.header == "yes",
        missing=None if missing is None else [m.strip() for m in missing.split(",")] if missing else [],
    )


@dataclass
class UserData:
    table: object  # nbx.protocol.table.Table
    class_column: str  # the class column's name in the file
    missing: list[str]  # the missing-value markers used
    names: list[str]  # every column of the file


def note(message: str | None) -> None:
    """A guess the user may want to correct, as one line on stderr."""
    if message:
        print(f"nbx: note: {message}", file=sys.stderr)


def read_table(path: str, options=None) -> UserData:
    """The user's CSV or ARFF file as a typed table (:func:`nbx.data.userfile.read_user_file`); what it
    guessed is printed as one ``nbx: note:`` line."""
    from nbx.data.userfile import read_user_file

    with memory_guard(path):
        read = read_user_file(path, options)
    note(read.note(path))
    return UserData(read.table, read.class_column, read.missing, read.names)


@contextmanager
def memory_guard(path: str):
    """numpy's MemoryError while working on ``path`` as one line naming the file and its size."""
    try:
        yield
    except MemoryError:
        from nbx.data.userfile import MemoryFileError

        raise MemoryFileError(path, path) from None


def describe(table) -> str:
    numeric = int((~table.nominal).sum())
    return (
        f"{len(table.y)} rows, {table.X.shape[1]} attributes ({numeric} numeric, "
        f"{table.X.shape[1] - numeric} nominal), {len(table.classes)} classes"
    )


# ----------------------------------------------------------------------------------------------- tables
def render(header, rows: list[list[str]], right: set[int] = frozenset(), sep: str = "  ") -> str:
    """A plain text table: columns padded to their widest cell, ``right`` ones right-aligned. ``header`` is one
    row of names or a list of rows (a header over several lines)."""
    head = header if header and isinstance(header[0], list) else [header]
    cells = head + rows
    widths = [max(len(r[j]) for r in cells) for j in range(len(head[0]))]
    fmt = [(str.rjust if j in right else str.ljust) for j in range(len(widths))]
    lines = [sep.join(f(c, w) for f, c, w in zip(fmt, r, widths)).rstrip() for r in cells]
    return "\n".join(lines[: len(head)] + [sep.join("-" * w for w in widths)] + lines[len(head) :])


# ---------------------------------------------------------------------------------------------- formats
FORMATS = ("table", "json", "csv")


def add_format_option(p, records: str) -> None:
    """``--format table|json|csv``; ``records`` says what one record of json and csv holds."""
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help=f"table (default, for reading), json (a list of records) or csv (a header line, then one row per "
        f"record) with the table's numbers, as rounded there: {records}",
    )


def print_records(records: list[dict], fmt: str) -> None:
    """Records (dicts with the same keys) as a JSON list or as CSV with a header line, on stdout."""
    if fmt == "json":
        import json

        print(json.dumps(records, indent=1, ensure_ascii=False))
        return
    import csv

    writer = csv.DictWriter(sys.stdout, fieldnames=list(records[0]) if records else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
