"""One cross-validation of several learners on one table, in memory: the pipeline's split -> discretize -> train ->
evaluate stages without the files between them, and what ``nbx evaluate`` runs.

The steps, each one function that the pipeline's stage of the same name calls too:

1. plan: :func:`nbx.protocol.splits.make_plan`, seeded by :func:`nbx.protocol.splits.seeds` (the pipeline's from
   params.yaml's seed and the experiment and data set names; ``nbx evaluate``'s from ``--seed`` alone);
2. discretize: imputation and discretization fitted on each split's training part,
   :func:`nbx.protocol.folds.fold_codes`; a learner's per-split input is
   :func:`nbx.protocol.runner.discrete_input` of those codes, or :func:`nbx.protocol.runner.mixed_input` (the
   table's values, imputed per split at training time);
3. train: :func:`nbx.protocol.runner.run_datasets` (one fresh, seeded clone of the learner per split);
4. evaluate: accuracy and probability scores per split, :func:`nbx.protocol.scoring.split_scores`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nbx.protocol.folds import fold_codes
from nbx.protocol.progress import Progress
from nbx.protocol.runner import SplitPredictions, TrainError, discrete_input, mixed_input, run_splits
from nbx.protocol.scoring import split_scores
from nbx.protocol.splits import make_plan, seeds
from nbx.protocol.table import Table


@dataclass
class CrossValidation:
    test: np.ndarray  # (n_splits, n) the plan's test masks
    repeat: np.ndarray  # (n_splits,) repetition of each split
    predictions: dict[str, SplitPredictions]  # learner -> its test-set probabilities of every split
    scores: dict[str, dict[str, np.ndarray]]  # learner -> metric of nbx.protocol.scoring.METRICS -> per split


def cross_validate(
    table: Table,
    learners: dict,
    protocol: dict,
    discretizer: dict,
    how_impute: str | None,
    seed: int,
    experiment: str | None = None,
    n_jobs: int | None = None,
    label: str = "cross-validate",
) -> CrossValidation:
    """Run every learner over the splits of ``protocol`` on ``table`` (see the module docstring).

    ``learners``: name -> an object with ``estimator``, ``input`` ('discrete' or 'mixed') and ``numeric_ordinal``,
    optionally ``seed_name`` (default: the name) and ``all_classes`` (default false), as
    :class:`nbx.pipeline.learners.LearnerSetup` has. ``discretizer`` and ``how_impute``: an experiment's
    ``discretizer`` block and ``impute`` value (:mod:`nbx.protocol.folds`). ``experiment``: seed as the pipeline's cell
    (``experiment``, ``table.name``) does; None: as ``nbx evaluate`` does (``seed`` alone). ``protocol``'s
    ``folds_by_dataset`` is looked up by ``table.name``. Progress goes to stderr under ``label``."""
    cell = seeds(seed, experiment, table.name)
    test, repeat = make_plan(table.y, protocol, cell.plan(), table.name)
    kinds = {x.input for x in learners.values()}
    data = {}
    if "discrete" in kinds:
        data["discrete"] = discrete_input(fold_codes(table, test, discretizer, how_impute), table.n_values == 0)
    if "mixed" in kinds:
        data["mixed"] = mixed_input(table, test, how_impute)
    predictions, scores = {}, {}
    with Progress(label, len(test) * len(learners)) as progress:
        for name, x in learners.items():
            try:
                out = run_splits(
                    x.estimator,
                    data[x.input],
                    cell.seed,
                    (cell.experiment, cell.dataset, getattr(x, "seed_name", name)),
                    n_jobs,
                    on_split=lambda _, name=name: progress.advance(name),
                    all_classes=getattr(x, "all_classes", False),
                    numeric_ordinal=x.numeric_ordinal,
                )
            except TrainError as exc:  # name the learner; the split is in the message already
                raise TrainError(f"{name}: {str(exc).removeprefix(f'{cell.experiment}/{cell.dataset} ')}") from None
            predictions[name] = out
            scores[name] = split_scores(out.proba, out.split, out.row, table.y, len(test))
            progress.finish(name, len(test))
    return CrossValidation(test, repeat, predictions, scores)
