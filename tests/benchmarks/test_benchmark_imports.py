"""Every name the benchmark scripts import from nbx exists where they import it from.

The scripts import much of nbx inside the functions of their child processes (a part's fresh interpreter), where
no other test reaches: a name moved to another module would break that part only when someone runs it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util

import pytest
from benchmark_scripts import BENCHMARKS


def _nbx_imports() -> list[tuple[str, int, str, str]]:
    """(script, line, module, name) of every ``from nbx... import name`` in benchmarks/*.py, anywhere in it."""
    found = []
    for path in sorted(BENCHMARKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "nbx":
                found += [(path.name, node.lineno, node.module, alias.name) for alias in node.names]
    return found


IMPORTS = _nbx_imports()


def test_the_scripts_import_from_nbx():
    assert {script for script, *_ in IMPORTS} >= {"scaling.py", "run_cell.py", "limit.py"}


@pytest.mark.parametrize(
    ("script", "line", "module", "name"), IMPORTS, ids=[f"{s}:{n}:{name}" for s, n, _, name in IMPORTS]
)
def test_an_imported_name_exists(script, line, module, name):
    imported = importlib.import_module(module)
    submodule = hasattr(imported, "__path__") and importlib.util.find_spec(f"{module}.{name}") is not None
    assert hasattr(imported, name) or submodule, f"benchmarks/{script}:{line}: {module} has no {name}"
