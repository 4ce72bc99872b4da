"""Synthetic discrete data shared by the TAN, variance and MUV tests."""

import numpy as np


def chain_data(n, rng, k=2, d=5, v=3, missing=0.0):
    """Attribute chain X0 -> X1 -> ... whose links depend on the class: the structure TAN should find."""
    y = rng.integers(0, k, n)
    X = np.zeros((n, d), dtype=np.int64)
    X[:, 0] = (y + rng.integers(0, 2, n)) % v
    for j in range(1, d):
        copy = rng.random(n) < 0.6
        X[:, j] = np.where(copy, (X[:, j - 1] + y) % v, rng.integers(0, v, n))
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X, y
