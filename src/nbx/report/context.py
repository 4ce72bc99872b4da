"""Everything a report reads about one experiment, loaded once: accuracies per data set and per split, published
numbers, availability, synthetic checks and fit_info of every learner (never timings: a report must be the same
on every rerun on machines of one kind, README "Same bytes on which machines")."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import pandas as pd

from nbx.pipeline import config, layout
from nbx.pipeline.inputs import availability, load_plan, load_table
from nbx.protocol.splits import fraction_tested
from nbx.report.published import name_key, published_accuracy

_NO_SPLITS = np.empty(0)  # a learner that did not run on a data set (an experiment's ``limited``)
_NO_SPLITS.setflags(write=False)


@dataclass
class ReportContext:
    params: dict
    exp: config.Experiment
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    # learners whose accuracies were read (shared with views): what a paper's sections show, so the report can add
    # the learners they leave out (one a researcher added to the experiment)
    shown: set = field(default_factory=set, init=False, repr=False, compare=False)

    @classmethod
    def load(cls, params: dict, name: str) -> ReportContext:
        return cls(params, config.experiment(params, name))

    # ------------------------------------------------------------------ inputs
    @cached_property
    def metrics(self) -> dict:
        """Per data set and learner: acc, acc_std, err (%), splits (from evaluate@<experiment>)."""
        return json.loads(layout.results(self.exp.name, "json").read_text())

    @cached_property
    def splits(self) -> pd.DataFrame:
        """One row per (dataset, learner, split): repeat, test_rows, accuracy (fraction)."""
        return pd.read_csv(layout.results(self.exp.name))

    @cached_property
    def availability(self) -> dict:
        return availability(self.exp.name)

    @cached_property
    def analysis(self) -> dict:
        """The experiment's synthetic checks (analyse@<experiment>), {} when it has none."""
        path = layout.analysis(self.exp.name)
        return json.loads(path.read_text()) if path.exists() else {}

    @cached_property
    def published(self) -> pd.DataFrame:
        """Published accuracy (%) by name_key(paper's data set name) x learner."""
        return published_accuracy(self.exp.published, self.exp.name)

    def learner_file(self, learner: str, file: str) -> dict:
        path = layout.predictions(self.exp.name, learner) / file
        return json.loads(path.read_text()) if path.exists() else {}

    # ------------------------------------------------------------------ views
    def view(self, learners: list[str] | None = None, datasets: dict[str, str] | None = None) -> ReportContext:
        """This context with only some of its learners and/or data sets (the inputs loaded so far are shared)."""
        exp = replace(
            self.exp,
            learners=self.exp.learners if learners is None else learners,
            datasets=self.exp.datasets if datasets is None else datasets,
        )
        view = ReportContext(self.params, exp)
        view.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("params", "exp", "_memo")})
        return view

    def memo(self, fn, *args):
        """``fn(self, *args)``, computed once per context (work that several sections and claims share)."""
        key = (fn, *args)
        if key not in self._memo:
            self._memo[key] = fn(self, *args)
        return self._memo[key]

    @property
    def learners(self) -> list[str]:
        return self.exp.learners

    def has(self, *learners: str) -> bool:
        """Whether every learner was run in this experiment (a reduced params file may leave some out)."""
        return all(learner in self.exp.learners for learner in learners)

    @property
    def datasets(self) -> dict[str, str]:
        """The paper's name -> catalogue id, available data sets only (paper order)."""
        return {p: ds for p, ds in self.exp.datasets.items() if self.availability.get(ds, {}).get("available")}

    @property
    def unavailable(self) -> dict[str, str]:
        """The paper's name -> reason, for the data sets we could not run."""
        return {
            p: self.availability.get(ds, {}).get("reason", "not downloaded") or "not downloaded"
            for p, ds in self.exp.datasets.items()
            if p not in self.datasets
        }

    def acc(self, paper_name: str, learner: str) -> float:
        """Our mean accuracy (%) over splits; NaN where the learner did not run (an experiment's ``limited``)."""
        self.shown.add(learner)
        entry = self.metrics[self.exp.datasets[paper_name]].get(learner)
        return float(entry["acc"]) if entry else float("nan")

    def acc_std(self, paper_name: str, learner: str) -> float:
        self.shown.add(learner)
        return float(self.metrics[self.exp.datasets[paper_name]][learner]["acc_std"])

    def split_acc(self, paper_name: str, learner: str) -> np.ndarray:
        """Per-split accuracy (fraction), in split order."""
        self.shown.add(learner)
        return self._split_accuracies.get((self.exp.datasets[paper_name], learner), _NO_SPLITS)

    def split_rows(self, paper_name: str, learner: str) -> pd.DataFrame:
        """The rows of the splits table of ``learner`` on data set ``paper_name``, in the table's order (none where
        it did not run). Unlike the accuracies, reading them does not count the learner as shown."""
        return self._split_groups.get((self.exp.datasets[paper_name], learner), self.splits.iloc[:0])

    @cached_property
    def _split_groups(self) -> dict:
        """(data set, learner) -> its rows of the splits table, from one pass over it (a report asks for thousands:
        filtering the whole table each time took half of some reports' time)."""
        return dict(iter(self.splits.groupby(["dataset", "learner"], sort=False)))

    @cached_property
    def _split_accuracies(self) -> dict:
        """(data set, learner) -> per-split accuracies in split order, read-only: every call shares them."""
        out = {key: rows.sort_values("split")["accuracy"].to_numpy() for key, rows in self._split_groups.items()}
        for accuracies in out.values():
            accuracies.setflags(write=False)
        return out

    def published_acc(self, paper_name: str, learner: str) -> float:
        """The paper's accuracy (%) for our learner, NaN when the paper has none."""
        key = name_key(paper_name)
        pub = self.published
        if learner in pub.columns and key in pub.index:
            return float(pub.loc[key, learner])
        return float("nan")

    def test_fraction(self, p: str) -> float:
        """The share of data set ``p``'s rows its splits test on, as evaluate@<experiment> gives it to the corrected
        resampled t-test (:func:`nbx.protocol.splits.fraction_tested` of the split plan: the folds the data set
        has, ``folds_by_dataset`` included, and a holdout's rows as rounded)."""
        return self.memo(_fraction_tested, self.datasets[p])

    def fit_info(self, learner: str) -> dict:
        return self.learner_file(learner, "fit_info.json")

    def labels(self, paper_name: str) -> np.ndarray:
        return load_table(self.exp.name, self.exp.datasets[paper_name]).y


def _fraction_tested(ctx: ReportContext, dataset: str) -> float:
    return fraction_tested(load_plan(ctx.exp.name, dataset)[0])
