"""The scripts of benchmarks/ as modules, for the tests here (one loader for all of them)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str):
    """benchmarks/NAME.py as a module (for a script that imports nothing from its folder: plots.py, all.py)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_folder(monkeypatch, name: str):
    """A fixture's body: benchmarks/NAME.py as a module, with benchmarks/ on sys.path for its ``import plots``
    until the test ends; that plots module is forgotten then."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    yield load(name)
    sys.modules.pop("plots", None)
