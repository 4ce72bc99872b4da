"""Resampling plans of the papers, stored once so every learner sees identical folds (paired tests).

A plan is a boolean ``test`` matrix of shape (n_splits, n_rows): split s trains on ``~test[s]`` and tests on
``test[s]``; ``repeat[s]`` says which repetition split s belongs to (bias/variance needs it).

Protocols (``kind``):
``cv``        k-fold cross-validation, ``folds``, ``repeats`` (Ting & Zheng: ten 3-fold CVs), ``stratified``
              (Wang, Kang: stratified 10-fold; Lee: 5-fold). ``folds_by_dataset`` overrides k per data set
              (Kang: 3-fold for Chess, Hypothyroid, Segment, Wave).
``holdout``   ``repeats`` random splits with a ``test_fraction`` of the rows for testing (Wiering: 50
              half/half splits), optionally stratified.
Stratification deals a random permutation of each class round-robin over the folds (as Weka does), so fold
sizes differ by at most one per class. :func:`nbx.protocol.spec.check_protocol` checks a protocol's keys and values.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from nbx.protocol.spec import BlockError, check_protocol

EVALUATE_CELL = ("evaluate", "data")  # the (experiment, data set) names `nbx evaluate` seeds its learners with


def dataset_seed(seed: int, *names: str) -> np.random.SeedSequence:
    """A seed sequence for one (seed, data set, ...) cell, stable across runs and machines."""
    return np.random.SeedSequence([int(seed)] + [zlib.crc32(n.encode()) for n in names])


@dataclass(frozen=True)
class Seeds:
    """Where one data set's random numbers come from: its plan from ``dataset_seed(seed, *plan_names)``, split s of
    a learner from ``dataset_seed(seed, experiment, dataset, the learner's seed name, s)``
    (:func:`nbx.protocol.runner.run_datasets`)."""

    seed: int
    experiment: str
    dataset: str
    plan_names: tuple[str, ...]

    def plan(self) -> np.random.SeedSequence:
        return dataset_seed(self.seed, *self.plan_names)


def seeds(seed: int, experiment: str | None = None, dataset: str | None = None) -> Seeds:
    """The pipeline's seeds when an experiment and a data set are named: params.yaml's ``seed`` and both names, so
    every data set of every experiment gets its own folds. ``nbx evaluate``'s when not: ``--seed`` alone for the
    plan, so a file's folds do not depend on its name, and the learners seeded as the cell :data:`EVALUATE_CELL`."""
    if experiment is None:
        return Seeds(int(seed), *EVALUATE_CELL, plan_names=EVALUATE_CELL[:1])
    return Seeds(int(seed), experiment, dataset, plan_names=(experiment, dataset))


def fraction_tested(test: np.ndarray) -> float:
    """The share of a data set's rows its splits test on (mean over splits), for the corrected resampled t-test."""
    return float(np.mean(test.sum(axis=1)) / test.shape[1])


def _fold_ids(y: np.ndarray, folds: int, stratified: bool, rng: np.random.Generator) -> np.ndarray:
    order = rng.permutation(len(y))
    if stratified:
        order = order[np.argsort(y[order], kind="stable")]
    fold = np.empty(len(y), dtype=np.int64)
    fold[order] = np.arange(len(y)) % folds
    return fold


def make_plan(
    y: np.ndarray, protocol: dict, seed: np.random.SeedSequence, dataset: str = "?"
) -> tuple[np.ndarray, np.ndarray]:
    """(test mask (n_splits, n), repeat id (n_splits,)) for one data set; a :class:`~nbx.protocol.spec.BlockError`
    when the protocol is malformed or asks for more folds than ``dataset`` has rows."""
    kind = check_protocol(protocol)["kind"]
    rng = np.random.default_rng(seed)
    n = len(y)
    repeats = int(protocol.get("repeats", 1))
    stratified = bool(protocol.get("stratified", kind == "cv"))
    if kind == "cv":
        by_dataset = protocol.get("folds_by_dataset") or {}
        folds = int(by_dataset.get(dataset, protocol.get("folds", 10)))
        if folds > n:
            key = ("protocol", "folds_by_dataset", dataset) if dataset in by_dataset else ("protocol", "folds")
            raise BlockError(key, f"{folds} must be at most the {n} rows of data set {dataset!r}")
        ids = np.stack([_fold_ids(y, folds, stratified, rng) for _ in range(repeats)])
        test = (ids[:, None, :] == np.arange(folds)[None, :, None]).reshape(repeats * folds, n)
        return test, np.repeat(np.arange(repeats), folds)
    fraction = float(protocol.get("test_fraction", 0.5))
    n_test = int(round(fraction * n))
    test = np.zeros((repeats, n), dtype=bool)
    for r in range(repeats):
        order = rng.permutation(n)
        if stratified:
            order = order[np.argsort(y[order], kind="stable")]
            test[r, _stratified_take(y, order, n_test)] = True
        else:
            test[r, order[:n_test]] = True
    return test, np.arange(repeats)


def _stratified_take(y: np.ndarray, order: np.ndarray, n_test: int) -> np.ndarray:
    """Rows for the test part: ``order`` is grouped by class; take the rows with the lowest position
    quantile within their class, so every class gets its proportional share."""
    sorted_y = y[order]
    start = np.searchsorted(sorted_y, sorted_y, side="left")
    size = np.searchsorted(sorted_y, sorted_y, side="right") - start
    quantile = (np.arange(len(y)) - start + 0.5) / size
    return order[np.argsort(quantile, kind="stable")[:n_test]]
