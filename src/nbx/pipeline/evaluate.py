"""Stage evaluate@<experiment>: accuracy per split and per data set from the stored predictions, and one small
summary per learner for ``dvc metrics show``.

Outputs: ``data/results/<exp>.csv`` (one row per data set, learner and split: accuracy and the probability
scores of :mod:`nbx.protocol.scoring`: log loss, Brier score, expected calibration error, macro AUC),
``data/results/<exp>.json`` (accuracy mean and std per data set and learner, what the reports read) and
``metrics/<exp>/<learner>.json``:

``acc``     mean accuracy (%) over the experiment's available data sets;
``rank``    mean accuracy rank among the experiment's learners (1 = best on a data set, ties share their mean);
            a learner of the experiment's ``limited`` block runs only on the data sets within its size limits:
            its acc, wins, ties, losses and sets cover those, and its rank is among all learners over the data
            sets every learner ran on (the other learners' metrics leave the limited ones out);
``wins`` / ``ties`` / ``losses``  data sets where the learner is significantly better / not / worse than the
            experiment's reference learner (``experiments.<exp>.reference``, default its first learner), by the
            corrected resampled t-test at p < 0.05 (Nadeau & Bengio 2003, the default of Weka's Experimenter);
``sets``    number of data sets;
``log_loss``, ``brier``, ``ece``, ``auc``  the probability scores, averaged over splits, then data sets.
"""

from __future__ import annotations

import numpy as np

from nbx.core.io import write_json, write_text
from nbx.pipeline import config, layout
from nbx.pipeline.inputs import available, load_plan, load_table
from nbx.protocol.scoring import split_scores, summarize
from nbx.protocol.splits import fraction_tested
from nbx.stats import significance as stats

SIGNIFICANCE = 0.05


PROBABILITY_SCORES = ("log_loss", "brier", "ece", "auc")


def _mean(values) -> float | None:
    values = np.asarray(values, float)
    return round(float(np.nanmean(values)), 4) if np.isfinite(values).any() else None


def learner_summaries(learners: list[str], reference: str, split_acc: dict, test_fraction: dict, scores: dict) -> dict:
    """Per learner: acc, rank, wins/ties/losses vs ``reference``, sets and mean probability scores.
    ``split_acc[ds][learner]`` holds the per-split accuracies (fractions) of the learners that ran on ``ds``,
    ``test_fraction[ds]`` the share of rows its splits test on, ``scores[ds][learner][name]`` the per-split
    probability scores. Ranks: the learners that ran everywhere among themselves over every data set; the
    others among all learners over the data sets where all of them ran."""
    datasets = list(split_acc)
    everywhere = [x for x in learners if all(x in split_acc[ds] for ds in datasets)]
    common = [ds for ds in datasets if all(x in split_acc[ds] for x in learners)]
    rank = dict(zip(everywhere, _mean_ranks(everywhere, datasets, split_acc)))
    if len(everywhere) < len(learners):  # limited learners: ranked among all over the common data sets
        rank |= {x: r for x, r in zip(learners, _mean_ranks(learners, common, split_acc)) if x not in rank}
    out = {}
    for x in learners:
        own = [ds for ds in datasets if x in split_acc[ds]]
        win = tie = loss = 0
        for ds in own:
            a, b = split_acc[ds][x], split_acc[ds][reference]
            p = stats.corrected_t(a, b, test_fraction[ds]) if len(a) > 1 else 1.0
            if p < SIGNIFICANCE and a.mean() != b.mean():
                win, loss = win + int(a.mean() > b.mean()), loss + int(a.mean() < b.mean())
            else:
                tie += 1
        acc = np.array([100 * split_acc[ds][x].mean() for ds in own])
        out[x] = {
            "acc": round(float(acc.mean()), 3) if own else None,
            "rank": round(float(rank[x]), 3) if np.isfinite(rank[x]) else None,
            "wins": win,
            "ties": tie,
            "losses": loss,
            "sets": len(own),
        }
        out[x] |= {
            name: _mean(
                [np.nanmean(scores[ds][x][name]) if np.isfinite(scores[ds][x][name]).any() else np.nan for ds in own]
            )
            for name in PROBABILITY_SCORES
        }
    return out


def _mean_ranks(learners: list[str], datasets: list[str], split_acc: dict) -> np.ndarray:
    """Mean accuracy rank of each learner over the data sets (NaN without data sets)."""
    if not datasets:
        return np.full(len(learners), np.nan)
    means = np.array([[100 * split_acc[ds][x].mean() for x in learners] for ds in datasets]).reshape(-1, len(learners))
    return stats.rank_rows(means).mean(axis=0)


def evaluate(params: config.Params, name: str) -> None:
    exp = config.experiment(params, name)
    per_dataset: dict = {}
    split_acc: dict = {}
    scores: dict = {}
    test_fraction: dict = {}
    lines = [",".join(["dataset", "learner", "split", "repeat", "test_rows", "accuracy", *PROBABILITY_SCORES])]
    for ds in available(name):
        table = load_table(name, ds)
        y, n_classes = table.y, len(table.classes)
        test, repeat = load_plan(name, ds)
        n_test = test.sum(axis=1)
        test_fraction[ds] = fraction_tested(test)
        split_acc[ds], scores[ds] = {}, {}
        size = len(y), table.X.shape[1], n_classes
        for learner in (x for x in exp.learners if exp.runs_on(x, *size)):
            path = layout.predictions(name, learner, ds)
            if not path.exists():
                raise FileNotFoundError(f"{path} is missing: run `dvc repro train@{name}` first (or `dvc repro`)")
            with np.load(path) as z:
                score = split_scores(z["proba"], z["split"], z["row"], y, len(test))
            acc = score["accuracy"]
            split_acc[ds][learner], scores[ds][learner] = acc, score
            per_dataset.setdefault(ds, {})[learner] = summarize(acc)
            lines += [
                ",".join(
                    [ds, learner, str(s), str(repeat[s]), str(int(n_test[s])), f"{a:.6f}"]
                    + [f"{score[name][s]:.6f}" for name in PROBABILITY_SCORES]
                )
                for s, a in enumerate(acc)
            ]
    write_json(layout.results(name, "json"), per_dataset)
    write_text(layout.results(name), "\n".join(lines) + "\n")
    for learner, summary in learner_summaries(exp.learners, exp.reference, split_acc, test_fraction, scores).items():
        write_json(layout.learner_metrics(name, learner), summary)
