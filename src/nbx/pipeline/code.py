"""The code each stage runs, as digests: the code stage (``stages/code_digest.py``) writes ``data/code/<name>.txt``,
the sha256 of every source file a kind of stage runs, and each stage of dvc.yaml depends on its digest.

Why digests: a stage that listed every module it imports (about 20 files each) made dvc.lock thousands of lines,
which DVC reads and writes again after every stage. The code stage depends on ``src/nbx`` and the stage scripts as
a whole; it reruns after any source edit, in about a second, and rewrites only the digests whose files changed, so
only the stages that run those files run again.

Digests (:func:`digests`): ``prepare``, ``split``, ``discretize``, ``evaluate``; per experiment ``analyse-<exp>``
(with its ``nbx.papers.<exp>.checks``, its ``published/`` tables and the learner blocks the checks refit, which
dvc.yaml cannot declare per experiment), ``report-<exp>`` (with its paper module and its ``published/`` tables) and
``train-<exp>`` (the train stage and every module its learners build). Inside the train stage, each learner's
own files (:func:`learner_files`) decide which of its results are reused (:mod:`nbx.pipeline.train`).

A module's dependencies are found from its imports (``ast``), including imports inside functions and the
package ``__init__`` files Python runs on the way; learner classes come from the registry, whose imports are
by name.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import json
from pathlib import Path

from nbx.core.io import sha256_file, write_text
from nbx.pipeline import analyse, config, layout, learners

ROOT = Path(__file__).resolve().parents[3]  # the repository: src/nbx/pipeline/code.py
SRC = ROOT / "src"
STAGES = ROOT / "stages"
PAPERS = SRC / "nbx" / "papers"


# ------------------------------------------------------------------------------------------ import closure
def module_file(dotted: str) -> Path | None:
    base = SRC.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _module_name(path: Path) -> str:
    parts = list(path.with_suffix("").relative_to(SRC).parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _with_packages(dotted: str) -> list[str]:
    """A module and the packages Python imports before it: nbx.models.tan -> nbx, nbx.models, nbx.models.tan."""
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def imported_modules(path: Path) -> frozenset[str]:
    """nbx modules a file imports (anywhere in it), with their parent packages."""
    stat = path.stat()  # the key tells an edited file apart
    return _imported_modules(path, stat.st_mtime_ns, stat.st_size)


@functools.cache  # the closures of ~150 learners and ~20 stages visit the same ~100 files over 2,000 times
def _imported_modules(path: Path, mtime_ns: int, size: int) -> frozenset[str]:
    package = _module_name(path) if path.is_relative_to(SRC) else ""
    if path.name != "__init__.py" and package:
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "nbx")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").split(".")[0] == "nbx":
                target = node.module
            else:
                continue
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names if module_file(f"{target}.{a.name}"))
    return frozenset(m for name in found for m in _with_packages(name) if module_file(m))


def closure(files) -> list[str]:
    """Every file the given files import, transitively, including themselves; sorted posix paths relative to the
    repository (files given relative to it or absolute)."""
    todo, seen = [ROOT / f for f in files], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(module_file(m) for m in imported_modules(f))
        if f.is_relative_to(SRC):  # Python runs a module's package __init__ files before it
            todo.extend(module_file(m) for m in _with_packages(_module_name(f)))
    return sorted(p.relative_to(ROOT).as_posix() for p in seen)


# ------------------------------------------------------------------------------------------ the digests
def learner_classes(spec) -> set[str]:
    """Classes a params block builds, nested blocks included."""
    out = set()
    if isinstance(spec, dict):
        if "class" in spec:
            out.add(spec["class"])
        for value in spec.values():
            out |= learner_classes(value)
    elif isinstance(spec, list):
        for value in spec:
            out |= learner_classes(value)
    return out


def _stage_closure(script: str, extra=()) -> list[str]:
    return closure([STAGES / f"{script}.py", *extra])


def learner_files(params: config.Params, learner: str) -> list[str]:
    """The source files a learner's training runs: the train stage's and its classes' modules (by name)."""
    modules = [
        module_file(learners.CLASSES[c].partition(":")[0])
        for c in learner_classes(params["learners"][learner])
        if c in learners.CLASSES
    ]
    return sorted(set(_stage_closure("train")) | set(closure(modules)))


def _published(experiment: str) -> list[str]:
    folder = PAPERS / experiment / "published"
    return sorted(p.relative_to(ROOT).as_posix() for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []


def digests(params: config.Params) -> dict[str, list[str]]:
    """Digest name -> the files it covers (see the module docstring)."""
    out = {name: _stage_closure(name) for name in ("prepare", "split", "discretize", "evaluate")}
    for exp in params["experiments"]:
        check = [f for f in [module_file(f"nbx.papers.{exp}.checks")] if f]
        paper = [f for f in [module_file(f"nbx.papers.{exp}.report")] if f]
        refitted = {f for name in analysed_learners(exp) for f in learner_files(params, name)}
        out[f"analyse-{exp}"] = sorted(set(_stage_closure("analyse", check)) | refitted | set(_published(exp)))
        out[f"report-{exp}"] = sorted(set(_stage_closure("report", paper)) | set(_published(exp)))
        learners_of = config.experiment(params, exp).learners
        out[f"train-{exp}"] = sorted({f for name in learners_of for f in learner_files(params, name)})
    return out


def analysed_learners(experiment: str) -> tuple[str, ...]:
    """The learner blocks of params.yaml an experiment's checks module refits (its ``LEARNERS``; none without)."""
    module = analyse.checks_module(experiment)
    return tuple(getattr(importlib.import_module(module), "LEARNERS", ())) if module else ()


def digest_text(files: list[str], blocks: dict[str, dict] | None = None) -> str:
    """``sha256  path`` per file (relative to the repository), sorted, then ``sha256  params.yaml:learners.<name>``
    per learner block a stage reads without declaring it as a DVC param (its canonical JSON): the same files and
    blocks give the same bytes."""
    lines = [f"{file_sha256(ROOT / f)}  {f}\n" for f in sorted(files)]
    for name, block in sorted((blocks or {}).items()):
        canonical = json.dumps(block, sort_keys=True, separators=(",", ":")).encode()
        lines.append(f"{hashlib.sha256(canonical).hexdigest()}  params.yaml:learners.{name}\n")
    return "".join(lines)


def file_sha256(path: Path) -> str:
    """The sha256 of a file, computed once per process while its size and modification time stay the same."""
    stat = Path(path).stat()
    return _sha256_at(Path(path).resolve(), stat.st_mtime_ns, stat.st_size)


@functools.cache  # the files many learners share (modules, a data set's codes) are hashed once
def _sha256_at(path: Path, mtime_ns: int, size: int) -> str:
    return sha256_file(path)


def write_digests(params: config.Params) -> None:
    """Write data/code/<name>.txt for every digest, and remove the digests of experiments no longer there."""
    blocks = {f"analyse-{e}": {n: params["learners"][n] for n in analysed_learners(e)} for e in params["experiments"]}
    wanted = {layout.code_digest(name): digest_text(files, blocks.get(name)) for name, files in digests(params).items()}
    for path, text in wanted.items():
        if not path.exists() or path.read_text() != text:
            write_text(path, text)
    for path in layout.CODE.glob("*.txt"):
        if path not in wanted:
            path.unlink()


def stage_names(params: config.Params) -> list[str]:
    """The stages of dvc.yaml as DVC names them (``code``, then ``<stage>@<experiment>``), in pipeline order."""
    return ["code"] + [f"{stage}@{exp}" for stage in PER_EXPERIMENT for exp in params["experiments"]]


PER_EXPERIMENT = ("prepare", "split", "discretize", "train", "evaluate", "analyse", "report")
