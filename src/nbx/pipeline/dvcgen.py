"""Generate the DVC pipeline from params.yaml: ``python -m nbx.pipeline.dvcgen`` (``--check``: fail if stale).

params.yaml is the one source of truth; this writes

* ``dvc.yaml``: per experiment (``foreach``) prepare, split, discretize, evaluate, analyse and report; the
  ``params`` stage, which splits params.yaml into the slices stages read (``data/params/``, see
  :mod:`nbx.pipeline.params_digest`); and the ``code`` stage, which digests the source files each kind of stage
  runs into ``data/code/<name>.txt`` (the sha256 of every file its script imports, :func:`code_files`);
* ``stages/train/<experiment>/dvc.yaml``: one train cell per learner of the experiment.

Every stage depends on the digest of exactly the code it runs, the slice of params it reads, and its inputs
(only the params stage parses params.yaml, which DVC otherwise re-parses for every stage): editing one model's
module re-runs only the train cells that import it, editing a report section only that experiment's report,
adding a data set to one experiment only that experiment's stages.

Why digests, one code stage and one train file per experiment: after every stage DVC rewrites that stage's whole
dvc.lock with a pure-Python YAML round trip (about 0.14 ms of CPU per line). One lock listing ~20 source files for
each of ~150 cells cost seconds per cell; locks whose stages list two or three paths keep it to a fraction of one.
The code stage depends on ``src/nbx`` and the stage scripts as a whole (a few lock lines, where one stage per digest
listed every file it covers: 4,400 of dvc.lock's 7,200 lines, read and written again after every top-level stage);
it reruns after any source edit, in about a second, and rewrites only the digests whose files changed, so only the
stages that run those files run again.

A module's dependencies are found from its imports (``ast``), including imports inside functions and the
package ``__init__`` files Python runs on the way; learner classes come from the registry, whose imports are
by name.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import sys
from pathlib import Path

import yaml

from nbx.pipeline import config, layout, learners

SRC = Path("src")
STAGES = Path("stages")
HEADER = (
    "# GENERATED from params.yaml by `python -m nbx.pipeline.dvcgen`: do not edit by hand. After changing the\n"
    "# experiments or learners in params.yaml, run it again (tests/pipeline/test_dvcgen.py fails while it is stale).\n"
)


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
    stat = path.stat()  # the key tells an edited file and another checkout apart
    return _imported_modules(Path.cwd(), path, stat.st_mtime_ns, stat.st_size)


@functools.cache  # the closures of ~150 learners and ~20 stages visit the same ~100 files over 2,000 times
def _imported_modules(cwd: Path, path: Path, mtime_ns: int, size: int) -> frozenset[str]:
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
    """Every file the given files import, transitively, including themselves; sorted posix paths."""
    todo, seen = [Path(f) for f in files], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(module_file(m) for m in imported_modules(f))
        if f.is_relative_to(SRC):  # Python runs a module's package __init__ files before it
            todo.extend(module_file(m) for m in _with_packages(_module_name(f)))
    return sorted(p.as_posix() for p in seen)


# ------------------------------------------------------------------------------------------ learner families
def learner_classes(spec) -> set[str]:
    """Classes a params block builds, nested blocks included."""
    out = set()
    if isinstance(spec, dict):
        if "class" in spec:
            out.add(spec["class"])
        for value in spec.values():
            out |= learner_classes(value)
    return out


def family(spec: dict) -> tuple[str, list[Path]]:
    """(name, module files) of a learner block: its classes' modules, named after them."""
    modules = sorted(
        {module_file(learners.CLASSES[c].partition(":")[0]) for c in learner_classes(spec) if c in learners.CLASSES}
    )
    return "-".join(m.stem for m in modules), modules


# --------------------------------------------------------------------------------------------- the files
def _stage_closure(script: str, extra=()) -> list[str]:
    return closure([STAGES / f"{script}.py", *extra])


def stage_code(params: config.Params) -> dict[str, list[str]]:
    """Digest name -> source files, for the per-experiment stages. An experiment's own modules, found by name
    (``nbx.papers.<experiment>.checks`` and ``.report``), count only for that experiment."""
    code = {name: _stage_closure(name) for name in ("prepare", "split", "discretize", "evaluate")}
    code["params"] = _stage_closure("params_digest")
    for exp in params["experiments"]:
        check = [f for f in [module_file(f"nbx.papers.{exp}.checks")] if f]
        paper = [f for f in [module_file(f"nbx.papers.{exp}.report")] if f]
        code[f"analyse-{exp}"] = _stage_closure("analyse", check)
        code[f"report-{exp}"] = _stage_closure("report", paper)
    return code


def code_files(params: config.Params, families: dict | None = None) -> dict[str, list[str]]:
    """Digest name -> source files: the per-experiment stages' and each learner family's."""
    return stage_code(params) | dict((families or learner_families(params)).values())


def digest(name: str) -> str:
    return layout.code_digest(name).as_posix()


def top_level(params: config.Params, families: dict) -> dict:
    experiments = list(params["experiments"])
    catalogues = [str(c) for c in (params.get("data") or {}).get("catalogues") or []]
    x = "${item}"

    def sliced(stage: str) -> str:  # the slice of params.yaml a per-experiment stage reads
        return layout.experiment_params(x, stage).as_posix()

    stages: dict = {
        "prepare": {
            "cmd": f"python stages/prepare.py {x}",
            "deps": [digest("prepare"), sliced("prepare"), "src/nbx/data/catalogue.yaml", layout.LOCAL.as_posix()]
            + catalogues,
            "outs": [f"data/prepared/{x}"],
        },
        "split": {
            "cmd": f"python stages/split.py {x}",
            "deps": [digest("split"), sliced("split"), f"data/prepared/{x}"],
            "outs": [f"data/splits/{x}"],
        },
        "discretize": {
            "cmd": f"python stages/discretize.py {x}",
            "deps": [digest("discretize"), sliced("discretize"), f"data/prepared/{x}", f"data/splits/{x}"],
            "outs": [f"data/folds/{x}"],
        },
        "evaluate": {
            "cmd": f"python stages/evaluate.py {x}",
            "deps": [
                digest("evaluate"),
                sliced("evaluate"),
                f"data/prepared/{x}",
                f"data/splits/{x}",
                f"data/predictions/{x}",
            ],
            "outs": [f"data/results/{x}.csv", f"data/results/{x}.json"],
            "metrics": [{f"metrics/{x}": {"cache": False}}],
        },
        "analyse": {
            "cmd": f"python stages/analyse.py {x}",
            "deps": [digest(f"analyse-{x}"), sliced("analyse")],
            "outs": [f"data/analysis/{x}.json"],
        },
        "report": {
            "cmd": f"python stages/report.py {x}",
            "deps": [
                digest(f"report-{x}"),
                sliced("report"),
                f"src/nbx/papers/{x}/published",
                f"data/prepared/{x}",
                f"data/splits/{x}",
                f"data/folds/{x}",  # the codes the learners saw (e.g. how many MDL intervals, for GAPS)
                f"data/predictions/{x}",
                f"data/results/{x}.csv",
                f"data/results/{x}.json",
                f"data/analysis/{x}.json",
            ],
            "outs": [{f"reports/{x}.md": {"cache": False}}, {f"reports/figures/{x}": {"cache": False}}],
        },
    }
    out = {
        "vars": [{"experiment_ids": experiments}],
        "stages": {
            "params": {
                "cmd": "python stages/params_digest.py",
                # params.yaml as a file: declared as params, its 1,700 lines of values would sit in dvc.lock, read
                # and written again after every top-level stage (`dvc params diff` reads params.yaml either way)
                "deps": [digest("params"), config.PARAMS_FILE.as_posix()],
                "outs": [layout.PARAMS.as_posix()],
            }
        },
    }
    out["stages"] |= {name: {"foreach": "${experiment_ids}", "do": stage} for name, stage in stages.items()}
    out["stages"]["code"] = {
        "cmd": "python stages/code_digest.py",
        "deps": [SRC.joinpath("nbx").as_posix()] + sorted(p.as_posix() for p in STAGES.glob("*.py")),
        "outs": [digest(name) for name in sorted(code_files(params, families))],
    }
    out["plots"] = plots(params)
    return out


def expand(dvc_yaml: dict) -> dict[str, dict]:
    """The stages of a parsed ``dvc.yaml`` as DVC names them: a ``foreach`` stage once per experiment,
    ``name@experiment``, with ``${item}`` replaced in its definition."""
    ids = dvc_yaml["vars"][0]["experiment_ids"]
    out = {}
    for name, stage in dvc_yaml["stages"].items():
        if "foreach" not in stage:
            out[name] = stage
            continue
        text = json.dumps(stage["do"])
        out |= {f"{name}@{item}": json.loads(text.replace("${item}", item)) for item in ids}
    return out


def learner_families(params: config.Params) -> dict[str, tuple[str, list[str]]]:
    """learner -> (family name, source files its train cells run). Learners whose cells run the same files
    share one family, named after the shortest name among them (e.g. every MUV is family ``muv``)."""
    train_path = _stage_closure("train")
    files = {}
    for name in params["experiments"]:
        for learner in config.experiment(params, name).learners:
            fam, modules = family(params["learners"][learner])
            files[learner] = (fam, sorted(set(train_path) | set(closure(modules))))
    shortest: dict[tuple, str] = {}
    for fam, deps in files.values():
        key = tuple(deps)
        shortest[key] = min(shortest.get(key, fam), fam, key=lambda n: (len(n), n))
    return {learner: (shortest[tuple(deps)], deps) for learner, (_, deps) in files.items()}


def train_cells(params: config.Params, name: str, families: dict) -> dict:
    """stages/train/<name>/dvc.yaml: one stage per learner of the experiment."""
    exp = config.experiment(params, name)
    stages = {}
    for learner in exp.learners:
        setup = learners.build_learner(params, learner)
        mixed = setup.input == "mixed"
        # mixed input is the table, imputed per split at train time; discrete input is the discretized codes
        # (and the table, for which columns were numeric, when the learner asks for it)
        inputs = (
            [f"data/prepared/{name}", f"data/splits/{name}", layout.experiment_params(name, "impute").as_posix()]
            if mixed
            else [f"data/folds/{name}"] + [f"data/prepared/{name}"] * setup.numeric_ordinal
        )
        stages[learner] = {
            "wdir": "../../..",
            "cmd": f"python stages/train.py {name} {learner}",
            "deps": [digest(families[learner][0]), layout.learner_params(learner).as_posix()] + inputs,
            "outs": [f"data/predictions/{name}/{learner}"],
        }
    return {"stages": stages}


ACCURACY_PLOT_LEARNERS = 10  # grouped bars stay readable up to about this many learners


def plots(params: config.Params) -> list[dict]:
    """``dvc plots`` of every experiment: accuracy per data set (its first learners, grouped bars), ours vs
    published (tooltip: data set and learner), and the figures its report module declares (a ``file`` in
    reports/figures/<experiment>/, or any ``path``)."""
    import importlib

    out = []
    for name in params["experiments"]:
        exp = config.experiment(params, name)
        fig = f"reports/figures/{name}"
        shown = exp.learners[:ACCURACY_PLOT_LEARNERS]
        more = f", first {len(shown)} of {len(exp.learners)} learners" if len(shown) < len(exp.learners) else ""
        out.append(
            {
                f"{name}: accuracy per data set": {
                    "template": "grouped_bars",
                    "x": "dataset",
                    "y": {f"{fig}/accuracy.csv": shown},
                    "title": f"{exp.title} — accuracy per data set{more}",
                    "x_label": "data set",
                    "y_label": "accuracy (%)",
                }
            }
        )
        if exp.published:
            out.append(
                {
                    f"{name}: ours vs published": {
                        "template": "scatter",
                        "x": "published",
                        "y": {f"{fig}/vs_published.csv": "nbx"},
                        "title": f"{exp.title} — nbx vs published accuracy (%), one point per data set and learner",
                        "x_label": "published accuracy (%)",
                        "y_label": "nbx accuracy (%)",
                    }
                }
            )
        if module_file(f"nbx.papers.{name}.report"):
            module = importlib.import_module(f"nbx.papers.{name}.report")
            runs = set(exp.learners)
            for p in getattr(module, "plots", lambda has: [])(lambda *xs, runs=runs: runs.issuperset(xs)):
                out.append(
                    {
                        f"{name}: {p['title']}": {
                            "template": "scatter",
                            "x": p["x"],
                            "y": {p.get("path") or f"{fig}/{p['file']}": p["y"]},
                            "title": p["title"],
                            "x_label": p["x_label"],
                            "y_label": p["y_label"],
                        }
                    }
                )
    return out


def check_params(params: config.Params) -> None:
    """Keys the generated stages read must exist (DVC fails on a missing params key)."""
    for name in params["experiments"]:
        config.experiment(params, name)
        if "impute" not in params["experiments"][name]:
            raise params.error(("experiments", name), "missing key 'impute' (write `impute: null` for none)")
        if name not in (params.get("analyses") or {}):
            raise params.error(("analyses",), f"missing key {name!r} (write `{name}: {{}}` for no checks)")
    if "catalogues" not in (params.get("data") or {}):
        raise params.error(("data",), "missing key 'catalogues' (write `data: {catalogues: []}`)")


def _yaml(doc: dict) -> str:
    return HEADER + yaml.safe_dump(doc, sort_keys=False, width=120, allow_unicode=True)


def render() -> dict[Path, str]:
    """Path -> text of every generated file."""
    params = config.load_params()
    check_params(params)
    families = learner_families(params)
    files = {layout.train_pipeline(name): _yaml(train_cells(params, name, families)) for name in params["experiments"]}
    files[Path("dvc.yaml")] = _yaml(top_level(params, families))
    return files


def stale(files: dict[Path, str]) -> list[Path]:
    """Generated files that differ from what is on disk, and train pipelines of removed experiments."""
    out = [p for p, text in files.items() if not p.exists() or p.read_text() != text]
    return out + [p for p in sorted(layout.TRAIN_PIPELINES.glob("*/dvc.yaml")) if p not in files]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m nbx.pipeline.dvcgen", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only report stale files (exit 1 if any)")
    args = ap.parse_args(argv)
    try:
        files = render()
    except config.ConfigError as exc:
        sys.exit(f"error: {exc}")
    outdated = stale(files)
    if args.check:
        if outdated:
            sys.exit("stale (run `python -m nbx.pipeline.dvcgen`): " + ", ".join(map(str, outdated)))
        return
    from nbx.core.io import write_text

    for path in outdated:
        if path in files:
            write_text(path, files[path])
        else:  # an experiment removed from params.yaml
            path.unlink()
        print(f"wrote {path}" if path in files else f"removed {path}")


if __name__ == "__main__":
    main()
