"""Synthetic domains from their published generators, seeded (no download needed).

Each generator returns ``(X, y, attributes, classes)`` in the prepared-table convention of
:mod:`nbx.data.prepare`: nominal attributes as float codes, numeric as floats.
"""

from __future__ import annotations

import numpy as np

# Segments (a..g) lit for digits 0-9 on a seven-segment display (Breiman et al. 1984, CART §2.6.1).
_LED_SEGMENTS = np.array(
    [
        [1, 1, 1, 0, 1, 1, 1],
        [0, 0, 1, 0, 0, 1, 0],
        [1, 0, 1, 1, 1, 0, 1],
        [1, 0, 1, 1, 0, 1, 1],
        [0, 1, 1, 1, 0, 1, 0],
        [1, 1, 0, 1, 0, 1, 1],
        [1, 1, 0, 1, 1, 1, 1],
        [1, 0, 1, 0, 0, 1, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 0, 1, 1],
    ]
)


def _binary_attributes(n: int, prefix: str) -> list[dict]:
    return [{"name": f"{prefix}{i + 1}", "kind": "nominal", "values": ["0", "1"]} for i in range(n)]


def led(rows: int, noise: float = 0.1, irrelevant: int = 17, seed: int = 0):
    """LED display domain (Breiman et al. 1984): 7 segments of a uniformly drawn digit, each inverted with
    probability ``noise``, plus ``irrelevant`` uniform random bits (LED-24: 17, noise 10%)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, rows)
    segments = _LED_SEGMENTS[y] ^ (rng.random((rows, 7)) < noise)
    X = np.hstack([segments, rng.integers(0, 2, (rows, irrelevant))]).astype(float)
    return X, y, _binary_attributes(7, "seg") + _binary_attributes(irrelevant, "noise"), [str(d) for d in range(10)]


def waveform(rows: int, seed: int = 0):
    """Waveform-21 (Breiman et al. 1984; UCI waveform.c): each class is a random convex combination of
    two of three triangular waves h1, h2, h3 (peaks at 7, 15, 11 over positions 1..21) plus N(0, 1) noise;
    class 0 mixes (h1, h2), class 1 (h1, h3), class 2 (h2, h3)."""
    rng = np.random.default_rng(seed)
    pos = np.arange(1, 22)
    h = np.maximum(6 - np.abs(pos[None, :] - np.array([7, 15, 11])[:, None]), 0)
    pairs = np.array([[0, 1], [0, 2], [1, 2]])
    y = rng.integers(0, 3, rows)
    u = rng.random((rows, 1))
    X = u * h[pairs[y, 0]] + (1 - u) * h[pairs[y, 1]] + rng.standard_normal((rows, 21))
    attributes = [{"name": f"x{i}", "kind": "numeric", "values": []} for i in pos]
    return X, y, attributes, ["0", "1", "2"]


def parity(bits: int, repeats: int = 1, seed: int = 0):
    """All 2^bits binary patterns, class = parity (XOR is bits = 2). ``seed`` is unused (deterministic)."""
    patterns = (np.arange(2**bits)[:, None] >> np.arange(bits)[::-1]) & 1
    X = np.tile(patterns, (repeats, 1)).astype(float)
    y = X.sum(axis=1).astype(int) % 2
    return X, y, _binary_attributes(bits, "b"), ["0", "1"]


GENERATORS = {"led": led, "waveform": waveform, "parity": parity}


def generate(spec: dict, name: str = "?"):
    """Run the generator named in a catalogue ``generator`` block."""
    params = dict(spec)
    gen = params.pop("name")
    if gen not in GENERATORS:
        raise ValueError(f"data set {name!r}: unknown generator {gen!r}; known: {sorted(GENERATORS)}")
    return GENERATORS[gen](**params)
