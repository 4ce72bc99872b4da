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


# Estimators for which fitting with integer weights w is, by construction, not fitting on the rows repeated w
# times (a row of weight 0 is an absent row for them too: tests/bad_inputs/test_weights.py). The reason is the
# property; scikit-learn's check_sample_weight_equivalence_on_dense_data is expected to fail for it.
WEIGHTS_ARE_NOT_COPIES = {
    "Bagging": "its bootstrap draws round(max_samples * n_rows) rows: the number of draws and the random stream "
    "depend on the number of rows, so a weight of k matches k copies only in distribution",
    "AdaBoostM1": "its restarts draw per row (N bootstrap draws or one U(0.9, 1.1) factor per row) and its 1e-8 "
    "weight floor applies per row, so a weight of k and k copies part after the first restart",
    "MUV": "its samples are drawn per row (bootstrap multiplicities, disjoint parts dealt row by row), so they "
    "depend on the number of rows",
    "MUVofMUV": "its MUV members draw their samples per row (see MUV)",
    "NBTree": "its 5-fold cross-validation assigns folds per row (Kohavi 1996), so k copies of a row can fall "
    "into different folds where a row of weight k is in one",
    "HierarchicalMixtureNB": "its EM is online (Wiering 2003 §3), one update per row in a random order, so k "
    "copies are k updates where a row of weight k is one update of k times the size",
}
