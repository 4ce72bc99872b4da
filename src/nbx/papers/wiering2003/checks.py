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
experiment's own data and splits (``nbc*`` keys, :mod:`nbx.papers.wiering2003.refits`), so that the report stage
fits no model; :func:`check` checks those keys when params.yaml is checked.

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
from nbx.pipeline.learners import PIPELINE_KEYS, make_learner
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


OPTIONS = (
    "xor_layers",
    "xor_passes",
    "xor_seeds",
    "parity_layers",
    "parity_passes",
    "parity_seeds",
    "denominators",
    "nbc",
    "nbc_denominators",
    "nbc_classes",
    "nbc_rounding",
)  # the keys of params.yaml's analyses.wiering2003 block (read by run, and by refits: nbc*)
NBC = {"class": "NaiveBayes", "prior": "laplace", "alpha": 0.1, "denominator": "class"}  # the nbc* keys' defaults
TABLE2_NBC = "nb_wiering"  # the learner block `nbc` equals (without its pipeline keys): its cells are the refits'
NBC_DENOMINATORS = ["class", "attribute"]
NBC_CLASSES = {"Glass": 8, "Soybeans": 20}
NBC_ROUNDING = "trunc"
TABLE1 = Path(__file__).parent / "published" / "wiering2003_table1.csv"  # its class counts bound nbc_classes


def run(block: dict, seed: int) -> dict:
    xor_seeds = range(seed, seed + int(block.get("xor_seeds", 20)))
    parity_seeds = range(seed, seed + int(block.get("parity_seeds", 10)))
    passes = sorted(int(p) for p in np.atleast_1d(block.get("parity_passes", [100, 300, 1000, 3000])))
    denominators = list(block.get("denominators", ["class", "attribute"]))
    X2, y2, _, _ = parity(bits=2)
    X4, y4, _, _ = parity(bits=4)
    return {
        "xor": [
            _loading(X2, y2, layers, int(block.get("xor_passes", 5)), xor_seeds, den)
            for den in denominators
            for layers in block.get("xor_layers", [[2], [4]])
        ],
        "parity": _loading_curves(
            X4,
            y4,
            [([2] * depth, den) for den in denominators for depth in block.get("parity_layers", [6, 7])],
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
    """The NBC variants on the experiment's data (analyse@wiering2003 merges them into its output as ``nbc``)."""
    return {
        "nbc": nbc_refits(
            params,
            name,
            block.get("nbc", NBC),
            list(block.get("nbc_denominators", NBC_DENOMINATORS)),
            dict(block.get("nbc_classes", NBC_CLASSES)),
            block.get("nbc_rounding", NBC_ROUNDING),
        )
    }


def check(block: dict, params) -> None:
    """The refits' keys, as :func:`refits` reads them: ``nbc`` is a NaiveBayes block, equal to
    ``learners.nb_wiering``'s without its pipeline keys where params.yaml has that block (its cells are the
    refits' with the file's classes); ``nbc_denominators`` a non-empty list of its denominators; ``nbc_classes``
    maps data sets of Table 1 to Table 1's class count (published/wiering2003_table1.csv, so that an edit of
    either shows); ``nbc_rounding`` is a rounding of the standard-deviation discretizer. A mistake is a
    BlockError at the key (inside the block)."""
    spec = block.get("nbc", NBC)
    if not isinstance(spec, dict) or spec.get("class") != "NaiveBayes":
        raise BlockError(("nbc",), f"{spec!r} must be a NaiveBayes block (the refits set its denominator and classes)")
    make_learner(spec, ("nbc",))  # its parameters, checked
    table2 = params["learners"].get(TABLE2_NBC)
    if isinstance(table2, dict) and spec != {k: v for k, v in table2.items() if k not in PIPELINE_KEYS}:
        raise BlockError(
            ("nbc",), f"must be learners.{TABLE2_NBC}'s block without its pipeline keys (its cells are the refits')"
        )
    denominators = block.get("nbc_denominators", NBC_DENOMINATORS)
    if not isinstance(denominators, list) or not denominators:
        raise BlockError(("nbc_denominators",), f"{denominators!r} must be a non-empty list")
    for i, den in enumerate(denominators):
        if den not in DENOMINATORS:
            raise BlockError(("nbc_denominators", i), f"{den!r} must be one of {', '.join(DENOMINATORS)}")
    classes = block.get("nbc_classes", NBC_CLASSES)
    if not isinstance(classes, dict):
        raise BlockError(("nbc_classes",), f"{classes!r} must be a mapping data set -> Table 1's class count")
    table1 = pd.read_csv(TABLE1).set_index("dataset")["classes"]
    for dataset, count in classes.items():
        if dataset not in table1.index:
            raise BlockError(("nbc_classes", dataset), f"{dataset!r} is not a data set of Table 1 ({TABLE1.name})")
        if isinstance(count, bool) or count != int(table1[dataset]):
            raise BlockError(("nbc_classes", dataset), f"{count!r} must be Table 1's class count, {table1[dataset]}")
    rounding = block.get("nbc_rounding", NBC_ROUNDING)
    if rounding not in ROUNDINGS:
        raise BlockError(("nbc_rounding",), f"{rounding!r} must be one of {', '.join(ROUNDINGS)}")
