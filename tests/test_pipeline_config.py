"""dvc.yaml and params.yaml agree, and every name in params.yaml resolves."""
import ast
from pathlib import Path

import pytest
import yaml

from nbx import config
from nbx.models.registry import CLASSES, UnknownLearnerError, make_learner

REPO = Path(__file__).resolve().parents[1]
PARAMS = config.load_params(REPO / "params.yaml")
DVC = yaml.safe_load((REPO / "dvc.yaml").read_text())


def _vars(key):
    return next(v[key] for v in DVC["vars"] if key in v)


def _train_deps(cell):
    stage = DVC["stages"]["train"]["do"]["deps"]
    """The cell's code deps (data deps are outputs of earlier stages, absent on a fresh clone)."""
    return {d.replace("${item.uses[%d]}" % i, f"{cell['uses'][i]}") for d in stage for i in range(4)
            if d.startswith(("src/", "stages/")) and ("${item.uses" not in d or "[%d]" % i in d)}


def _imports(path: Path) -> set[Path]:
    """nbx modules a module imports (top-level or inside functions), as files."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*(node.module or "").split("."))
            for candidate in (target.with_suffix(".py"), target / "__init__.py"):
                if candidate.exists():
                    out.add(candidate)
    return out


def _learner_files(spec) -> set[Path]:
    """Files of every class a params block builds (nested blocks too) and everything they import."""
    todo = []
    def visit(block):
        if isinstance(block, dict):
            if "class" in block:
                todo.append(REPO / "src" / (CLASSES[block["class"]].split(":")[0].replace(".", "/") + ".py"))
            for value in block.values():
                visit(value)
    visit(spec)
    if spec.get("class") == "MUVofMUV":  # its default members are MUVs of NB, TAN and AdaBoost
        todo.append(REPO / "src/nbx/models/muv.py")
    seen = set()
    while todo:
        f = todo.pop()
        if f not in seen and f.name != "__init__.py":
            seen.add(f)
            todo.extend(_imports(f))
    return seen


def test_train_cells_match_experiment_learners():
    cells = {(c["experiment"], c["learner"]) for c in _vars("train_cells").values()}
    wanted = {(e, l) for e in PARAMS["experiments"] for l in PARAMS["experiments"][e]["learners"]}
    assert cells == wanted
    assert set(_vars("experiment_ids")) == set(PARAMS["experiments"])


@pytest.mark.parametrize("name", sorted(_vars("train_cells")))
def test_train_cell_depends_on_every_module_its_learner_uses(name):
    cell = _vars("train_cells")[name]
    assert name == f"{cell['experiment']}-{cell['learner']}"
    assert len(cell["uses"]) == 4
    deps = {(REPO / d).resolve() for d in _train_deps(cell)} | \
           {(REPO / "src/nbx" / u).resolve() for u in cell["uses"]}
    assert all(d.exists() for d in deps), sorted(d for d in deps if not d.exists())
    needed = {f.resolve() for f in _learner_files(PARAMS["learners"][cell["learner"]])}
    assert needed <= deps, f"{name}: add {sorted(str(f.relative_to(REPO)) for f in needed - deps)} to uses"


def test_every_dataset_and_learner_resolves():
    for name in PARAMS["experiments"]:
        exp = config.experiment(PARAMS, name)
        config.experiment_entries(PARAMS, exp)          # raises on an unknown data set id
        for learner in exp.learners:
            config.build_learner(PARAMS, learner)


def test_unknown_names_get_clear_errors():
    block = dict(next(iter(PARAMS["experiments"].values())), learners=["nope"])
    params = {**PARAMS, "experiments": {"x": block}}
    with pytest.raises(config.ConfigError, match="experiments.x.learners: unknown learner 'nope'"):
        config.experiment(params, "x")
    with pytest.raises(config.ConfigError, match="unknown experiment 'y'"):
        config.experiment(params, "y")
    bad_input = {**PARAMS, "learners": {"x": {"class": "C45Tree", "input": "codes"}}}
    with pytest.raises(config.ConfigError, match=r"learners.x.input: 'codes' must be one of"):
        config.build_learner(bad_input, "x")
    with pytest.raises(UnknownLearnerError, match="unknown learner class 'Bayes'"):
        make_learner({"class": "Bayes"})
    with pytest.raises(UnknownLearnerError, match=r"NaiveBayes has no parameter\(s\) \['alpah'\]"):
        make_learner({"class": "NaiveBayes", "alpah": 1})
