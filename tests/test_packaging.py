"""What `pip install nbx` brings: pyproject.toml's base dependencies are exactly the third-party packages src/nbx
imports, and the packages of the extras (`nbx[pipeline]`, `[sklearn]`, `[dask]`, and Ray, which no extra
installs) are imported when a module loads only by the report figures, which the pipeline alone runs. Read
from the source with `ast`, then checked by importing the library with those packages blocked."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())

# distribution name -> the top-level package it is imported as, where the two differ
IMPORT_NAME = {"pyyaml": "yaml", "scikit-learn": "sklearn", "ruamel.yaml.clib": "ruamel"}
# Ray: NBX_BACKEND=ray (protocol/runner.py imports it inside a function); no extra installs it (README.md)
NO_EXTRA = {"ray"}
# The only modules that may import an extra's package when they load: the figures of the reports, which only
# the pipeline's report stages run (every other plotting path imports this module inside a function).
ALLOWED_AT_IMPORT = {"nbx.report.figures": {"matplotlib"}}
# ...and so the only packages whose modules may reach one through their own imports: reports and paper modules
PIPELINE_ONLY = ("nbx.report.", "nbx.papers.")


def import_name(requirement: str) -> str:
    name = Requirement(requirement).name.lower()
    return IMPORT_NAME.get(name, name.replace("-", "_"))


def extra_packages(*extras: str) -> set[str]:
    table = PYPROJECT["project"]["optional-dependencies"]
    return {import_name(r) for x in extras for r in table[x] if Requirement(r).name != "nbx"}


OPTIONAL = extra_packages("pipeline", "sklearn", "dask") | NO_EXTRA


# -------------------------------------------------------------------------------------------- the imports
def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text(), str(p)) for p in sorted((SRC / "nbx").rglob("*.py"))}


def imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Absolute dotted names an import statement loads (relative imports resolved against ``module``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if not node.level:
            return [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        parts = module.split(".")
        base = parts[: len(parts) - node.level + is_package]
        target = ".".join(base + ([node.module] if node.module else []))
        return [target] + [f"{target}.{a.name}" for a in node.names]
    return []


def at_import_time(tree: ast.Module):
    """The import statements a module runs when it loads: everywhere except function bodies and
    ``if TYPE_CHECKING:`` blocks."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def third_party(names) -> set[str]:
    tops = {n.split(".")[0] for n in names}
    return {t for t in tops if t not in sys.stdlib_module_names and t not in ("nbx", "__future__")}


@pytest.fixture(scope="module")
def source():
    """{module: (every import anywhere, imports run at load time)} of every module of src/nbx."""
    out = {}
    for name, tree in modules().items():
        is_package = (SRC / Path(*name.split("."), "__init__.py")).exists()
        every = [n for node in ast.walk(tree) for n in imported(node, name, is_package)]
        loading = [n for node in at_import_time(tree) for n in imported(node, name, is_package)]
        out[name] = (every, loading)
    return out


def test_the_import_reader_tells_load_time_from_function_imports():
    tree = ast.parse(
        "import numpy\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pandas\n"
        "try:\n    import yaml\nexcept ImportError:\n    pass\nclass A:\n    import tqdm\n"
        "def f():\n    import sklearn\n"
    )
    loading = third_party(n for node in at_import_time(tree) for n in imported(node, "nbx.a.b", False))
    every = third_party(n for node in ast.walk(tree) for n in imported(node, "nbx.a.b", False))
    assert loading == {"numpy", "yaml", "tqdm"}
    assert every == {"numpy", "pandas", "yaml", "tqdm", "sklearn"}
    relative = ast.parse("from . import x\nfrom ..core import y").body
    assert imported(relative[0], "nbx.a.b", False) == ["nbx.a", "nbx.a.x"]
    assert imported(relative[1], "nbx.a", True) == ["nbx.core", "nbx.core.y"]


def test_base_dependencies_are_the_packages_the_library_imports(source):
    """One source of truth: a package src/nbx imports is a base dependency unless an extra (or, for Ray, the
    README) provides it, and every base dependency is imported somewhere."""
    base = {import_name(r) for r in PYPROJECT["project"]["dependencies"]}
    used = third_party(n for every, _ in source.values() for n in every)
    assert used - OPTIONAL == base, "pyproject.toml [project] dependencies differ from src/nbx's imports"
    assert not base & OPTIONAL


def test_extras_are_imported_at_load_time_only_by_the_report_figures(source):
    found = {m: third_party(loading) & OPTIONAL for m, (_, loading) in source.items()}
    found = {m: pkgs for m, pkgs in found.items() if pkgs}
    assert all(pkgs <= ALLOWED_AT_IMPORT.get(m, set()) for m, pkgs in found.items()), found
    assert set(ALLOWED_AT_IMPORT) <= set(source)  # the list names modules that exist


def test_only_report_and_paper_modules_load_an_extra_through_nbx_imports(source):
    """Following nbx's own load-time imports (with the packages Python runs on the way): importing the models,
    the command line, the protocol or the pipeline's modules never loads matplotlib, DVC, scikit-learn, Dask
    or Ray."""

    def nbx_modules(names):
        out = set()
        for n in names:
            parts = n.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in source)
        return out

    edges = {m: nbx_modules(loading) | (nbx_modules([m]) - {m}) for m, (_, loading) in source.items()}
    direct = {m for m, (_, loading) in source.items() if third_party(loading) & OPTIONAL}
    reaching, grew = set(direct), True
    while grew:
        new = {m for m, targets in edges.items() if targets & reaching} - reaching
        reaching |= new
        grew = bool(new)
    assert direct and all(m.startswith(PIPELINE_ONLY) for m in reaching), sorted(reaching)
    assert "nbx.report.experiment_report" in reaching  # the walk does follow nbx's imports


BLOCKED_RUN = """
import importlib, importlib.abc, pkgutil, sys
blocked = set(sys.argv[1].split(","))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)

sys.meta_path.insert(0, Block())
import nbx
skipped = []
for info in pkgutil.walk_packages(nbx.__path__, "nbx."):
    if info.name.startswith(("nbx.report", "nbx.papers")) or info.name.endswith("__main__"):
        skipped.append(info.name)
        continue
    importlib.import_module(info.name)
from nbx.pipeline import learners
for spec in learners.CLASSES.values():  # the learner registry imports its classes by name
    getattr(importlib.import_module(spec.partition(":")[0]), spec.partition(":")[2])
from nbx.cli import build_parser
build_parser()
print(len(sys.modules), sorted({m.split(".")[0] for m in sys.modules} & blocked))
"""


def test_the_library_and_the_command_line_load_with_every_extra_missing():
    """The ast reading above, checked by importing: with the extras' packages made unimportable, every module
    outside reports and papers, every registered learner class and every command's parser load."""
    blocked = sorted(OPTIONAL | {"distributed"})
    out = subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN, ",".join(blocked)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        cwd=REPO,
    )
    assert out.returncode == 0, out.stderr
    loaded, leaked = out.stdout.split(" ", 1)
    assert int(loaded) > 100 and leaked.strip() == "[]"


def test_pyproject_ships_the_package_data_and_one_version_source():
    project = PYPROJECT["project"]
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert setuptools["dynamic"]["version"] == {"attr": "nbx._version.__version__"}
    assert "py.typed" in setuptools["package-data"]["nbx"] and (SRC / "nbx" / "py.typed").exists()
    assert set(project["optional-dependencies"]) == {"pipeline", "test", "sklearn", "dask", "docs"}
    assert "nbx[pipeline]" in project["optional-dependencies"]["test"]  # CI runs the pipeline's tests
    assert {"dvc", "matplotlib"} <= extra_packages("pipeline")
    # ruff judges the code for the oldest Python the package admits
    assert project["requires-python"] == ">=3.11" and PYPROJECT["tool"]["ruff"]["target-version"] == "py311"


def test_a_plot_without_matplotlib_names_the_extra(monkeypatch, tmp_path, capsys):
    """The command line's one plotting path, `nbx timings --pareto`, stops in one line naming the extra, before
    it reads or writes anything."""
    from nbx.cli import main

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what an install without the pipeline extra has
    monkeypatch.chdir(tmp_path)
    assert main(["timings", "benchmark", "--pareto"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nbx: error: ") and "pip install 'nbx[pipeline]'" in err
    assert list(tmp_path.iterdir()) == []
