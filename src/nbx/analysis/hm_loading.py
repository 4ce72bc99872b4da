"""Wiering (2003) §3.2 sanity experiments (claim W1): can a model *load* (fit perfectly) XOR and 4-bit parity?

- XOR (2-bit parity): one-layer HMs (``xor_layers``, default 1-2 and 1-4 HM) with the paper's 5 EM passes,
  over ``xor_seeds`` seeds; naive Bayes cannot represent XOR (its training accuracy is at most 3/4).
- 4-bit parity: binary HMs with ``parity_layers`` layers (default 6 and 7, the paper's), ``parity_passes``
  online EM passes (default 300: with the paper's 5 passes over 16 patterns no seed loads parity; the paper
  does not give its number of passes for this test), over ``parity_seeds`` seeds.

"Loads" = training accuracy 1.0 on all 2^bits patterns. Everything else is the HM default (gamma 0.1,
jitter 0.01, sigma 0.1).
"""
from __future__ import annotations

import numpy as np

from ..data.synthetic import parity
from ..models.hierarchical_mixture import HierarchicalMixtureNB
from ..models.naive_bayes import NaiveBayes


def _loading(X, y, layers, n_iter: int, seeds: range) -> dict:
    scores = np.array([HierarchicalMixtureNB(layers=list(layers), n_iter=n_iter, random_state=s).fit(X, y).score(X, y)
                       for s in seeds])
    return {"layers": list(layers), "passes": n_iter, "seeds": len(scores),
            "loaded": int(np.sum(scores == 1.0)), "mean_train_accuracy": round(float(scores.mean()), 4)}


def run(block: dict, seed: int) -> dict:
    xor_seeds = range(seed, seed + int(block.get("xor_seeds", 20)))
    parity_seeds = range(seed, seed + int(block.get("parity_seeds", 20)))
    X2, y2, _, _ = parity(bits=2)
    X4, y4, _, _ = parity(bits=4)
    return {
        "xor": [_loading(X2, y2, layers, int(block.get("xor_passes", 5)), xor_seeds)
                for layers in block.get("xor_layers", [[2], [4]])],
        "xor_naive_bayes_train_accuracy": float(NaiveBayes(alpha=0.1).fit(X2, y2).score(X2, y2)),
        "parity": [_loading(X4, y4, [2] * depth, int(block.get("parity_passes", 300)), parity_seeds)
                   for depth in block.get("parity_layers", [6, 7])],
        "parity_naive_bayes_train_accuracy": float(NaiveBayes(alpha=0.1).fit(X4, y4).score(X4, y4)),
    }
