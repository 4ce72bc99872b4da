"""Wiering (2003) §3.2 sanity experiments (claim W1): can a model *load* (fit perfectly) XOR and 4-bit parity?

- XOR (2-bit parity): one-layer HMs (``xor_layers``, default 1-2 and 1-4 HM) with the paper's 5 EM passes,
  over ``xor_seeds`` seeds; naive Bayes cannot represent XOR (its training accuracy is at most 3/4).
- 4-bit parity: binary HMs with ``parity_layers`` layers (default 6 and 7, the paper's), as a curve over
  the number of online EM passes ``parity_passes`` (default 100, 300, 1000, 3000): the paper does not say
  how long it trained for this test, and with its 5 passes over 16 patterns no seed loads parity. One
  ``warm_start`` run per seed gives every point of the curve (each point equals a run of that many passes).
- Both for each P(f | C) reading in ``denominators`` (default the paper's ``class`` and our ``attribute``,
  see :mod:`nbx.models.hierarchical_mixture`).

Beside these synthetic checks, :func:`refits` fits the NBC variants the report compares with Table 2 on the
experiment's own data and splits (learners.nb_wiering under each of ``denominators``, Table 1's class counts and
``nbc_rounding``; :mod:`nbx.papers.wiering2003.refits`), so that the report stage fits no model.

"Loads" = training accuracy 1.0 on all 2^bits patterns. Everything else is the HM default (gamma 0.1,
jitter 0.01, sigma 0.1). Cost: about 45 µs of CPU per EM step for the 6- and 7-layer HMs, i.e. ~2 s per seed,
depth and reading for 3000 passes over 16 patterns; the runs are spread over the cores.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from nbx.data.synthetic import parity
from nbx.discretize.stddev import ROUNDINGS
from nbx.models.hierarchical_mixture import HierarchicalMixtureNB
from nbx.models.naive_bayes import DENOMINATORS, NaiveBayes
from nbx.papers.wiering2003.refits import nbc_refits
from nbx.pipeline.learners import PIPELINE_KEYS
from nbx.protocol.options import Option, resolve
from nbx.protocol.spec import BlockError


def _summary(scores: np.ndarray) -> dict:
    return {"loaded": int(np.sum(scores == 1.0)), "mean_train_accuracy": round(float(scores.mean()), 4)}


def _loading(X, y, layers, n_iter: int, seeds: range, denominator: str) -> dict:
    scores = np.array(
        [
            HierarchicalMixtureNB(layers=list(layers), n_iter=n_iter, denominator=denominator, random_state=s)
            .fit(X, y)
            .score(X, y)
            for s in seeds
        ]
    )
    return {
        "layers": list(layers),
        "denominator": denominator,
        "passes": n_iter,
        "seeds": len(scores),
        **_summary(scores),
    }


def _seed_curve(X, y, layers, passes: list[int], seed: int, denominator: str) -> list[float]:
    """Training accuracy after each number of passes in ``passes`` (increasing), one continued run."""
    model = HierarchicalMixtureNB(layers=list(layers), denominator=denominator, warm_start=True, random_state=seed)
    scores, done = [], 0
    for total in passes:
        model.set_params(n_iter=total - done).fit(X, y)
        done = total
        scores.append(model.score(X, y))
    return scores


def _loading_curves(X, y, settings: list[tuple], passes: list[int], seeds: range) -> list[dict]:
    """One loading curve per (layers, denominator) in ``settings``; the runs (one per setting and seed, each
    a few seconds of sequential online EM) are spread over the cores (:func:`nbx.protocol.runner.parallel_map`)."""
    from nbx.protocol.runner import parallel_map

    runs = [(layers, seed, den) for layers, den in settings for seed in seeds]
    curves = parallel_map(_seed_curve, [(X, y, layers, passes, seed, den) for layers, seed, den in runs])
    out = []
    for k, (layers, den) in enumerate(settings):
        scores = np.array(curves[k * len(seeds) : (k + 1) * len(seeds)])
        out.append(
            {
                "layers": list(layers),
                "denominator": den,
                "seeds": len(seeds),
                "curve": [{"passes": p, **_summary(scores[:, j])} for j, p in enumerate(passes)],
            }
        )
    return out


OPTIONS = {  # params.yaml's analyses.wiering2003 block (nbx.protocol.options): the networks, passes and seeds
    "xor_layers": Option([[2], [4]], "int lists", low=1),
    "xor_passes": Option(5, "int", low=1),
    "xor_seeds": Option(20, "int", low=1),
    "parity_layers": Option([6, 7], "ints", low=1),
    "parity_passes": Option([100, 300, 1000, 3000], "ints", low=1),
    "parity_seeds": Option(10, "int", low=1),
    "denominators": Option(["class", "attribute"], "strs", choices=DENOMINATORS),
    "nbc_rounding": Option("trunc", "str", choices=ROUNDINGS),
}
NBC = "nb_wiering"  # the learner block of Table 2's NBC, refitted by refits (the code stage's digest holds it)
LEARNERS = (NBC,)  # the learner blocks this module reads (nbx.pipeline.code puts them in analyse@'s digest)
TABLE1 = Path(__file__).parent / "published" / "wiering2003_table1.csv"  # the class counts Table 1 states


def run(block: dict, seed: int) -> dict:
    """The synthetic checks with the options of ``block`` (:data:`OPTIONS`, defaults for the keys it leaves out)."""
    block = resolve(OPTIONS, block)
    xor_seeds = range(seed, seed + block["xor_seeds"])
    parity_seeds = range(seed, seed + block["parity_seeds"])
    passes, denominators = sorted(block["parity_passes"]), block["denominators"]
    X2, y2, _, _ = parity(bits=2)
    X4, y4, _, _ = parity(bits=4)
    return {
        "xor": [
            _loading(X2, y2, layers, block["xor_passes"], xor_seeds, den)
            for den in denominators
            for layers in block["xor_layers"]
        ],
        "parity": _loading_curves(
            X4,
            y4,
            [([2] * depth, den) for den in denominators for depth in block["parity_layers"]],
            passes,
            parity_seeds,
        ),
        "naive_bayes_train_accuracy": {
            den: {
                "xor": float(NaiveBayes(alpha=0.1, denominator=den).fit(X2, y2).score(X2, y2)),
                "parity": float(NaiveBayes(alpha=0.1, denominator=den).fit(X4, y4).score(X4, y4)),
            }
            for den in denominators
        },
    }


def refits(block: dict, params, name: str) -> dict:
    """The NBC variants on the experiment's data (analyse@wiering2003 merges them into its output as ``nbc``):
    learners.nb_wiering's block under each of ``denominators`` with Table 1's class counts where they exceed the
    file's, and with the standard-deviation discretizer's ``nbc_rounding``."""
    block = resolve(OPTIONS, block)
    spec = {k: v for k, v in params["learners"][NBC].items() if k not in PIPELINE_KEYS}
    table1 = pd.read_csv(TABLE1).set_index("dataset")["classes"].astype(int).to_dict()
    return {"nbc": nbc_refits(params, name, spec, block["denominators"], table1, block["nbc_rounding"])}


def check(block: dict, params) -> None:
    """learners.nb_wiering, which :func:`refits` refits under other denominators and class counts, is a NaiveBayes
    block (a BlockError at the analyses block otherwise)."""
    spec = params["learners"].get(NBC)
    if not isinstance(spec, dict) or spec.get("class") != "NaiveBayes":
        raise BlockError((), f"the NBC refits need learners.{NBC}, a NaiveBayes block")
