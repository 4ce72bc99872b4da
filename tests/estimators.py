"""Every nbx estimator class of a package, found by importing all its modules: what scikit-learn's common checks
run on (tests/models/test_sklearn_checks.py) and what the learner registry must list (tests/pipeline).

An estimator class here is public, defined in the package, derives from nbx's BaseEstimator and declares its
hyperparameters (``_parameter_constraints``, see nbx.core.base); a base class that declares none, such as
nbx.discretize.base.Discretizer, is not one."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from nbx.core.base import BaseEstimator


def estimator_classes(package: str) -> list[type]:
    root = importlib.import_module(package)
    modules = [root] + [importlib.import_module(f"{package}.{m.name}") for m in pkgutil.iter_modules(root.__path__)]
    return [
        cls
        for module in modules
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__
        and not name.startswith("_")
        and issubclass(cls, BaseEstimator)
        and cls._parameter_constraints
    ]
