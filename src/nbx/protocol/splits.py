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
sizes differ by at most one per class.
"""
from __future__ import annotations

import zlib

import numpy as np

KINDS = ("cv", "holdout")


def dataset_seed(seed: int, *names: str) -> np.random.SeedSequence:
    """A seed sequence for one (seed, data set, ...) cell, stable across runs and machines."""
    return np.random.SeedSequence([int(seed)] + [zlib.crc32(n.encode()) for n in names])


def _fold_ids(y: np.ndarray, folds: int, stratified: bool, rng: np.random.Generator) -> np.ndarray:
    order = rng.permutation(len(y))
    if stratified:
        order = order[np.argsort(y[order], kind="stable")]
    fold = np.empty(len(y), dtype=np.int64)
    fold[order] = np.arange(len(y)) % folds
    return fold


def make_plan(y: np.ndarray, protocol: dict, seed: np.random.SeedSequence,
              dataset: str = "?") -> tuple[np.ndarray, np.ndarray]:
    """(test mask (n_splits, n), repeat id (n_splits,)) for one data set."""
    kind = protocol.get("kind")
    if kind not in KINDS:
        raise ValueError(f"protocol.kind {kind!r} is not one of {KINDS}")
    rng = np.random.default_rng(seed)
    n = len(y)
    repeats = int(protocol.get("repeats", 1))
    stratified = bool(protocol.get("stratified", kind == "cv"))
    if kind == "cv":
        folds = int(protocol.get("folds_by_dataset", {}).get(dataset, protocol.get("folds", 10)))
        if not 2 <= folds <= n:
            raise ValueError(f"protocol.folds = {folds} is impossible for data set {dataset!r} with {n} rows")
        ids = np.stack([_fold_ids(y, folds, stratified, rng) for _ in range(repeats)])
        test = (ids[:, None, :] == np.arange(folds)[None, :, None]).reshape(repeats * folds, n)
        return test, np.repeat(np.arange(repeats), folds)
    fraction = float(protocol.get("test_fraction", 0.5))
    if not 0 < fraction < 1:
        raise ValueError(f"protocol.test_fraction = {fraction} must be in (0, 1)")
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
