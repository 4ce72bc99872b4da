"""Wang et al. (2006) report: the paper-report contract (nbx.report.paper), paper.yaml against the published
Table 1, and the readings section on a hand-made context (the other sections are tested in test_wang_kang.py)."""

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from nbx.papers.wang2006 import evidence as E
from nbx.papers.wang2006 import report as S
from nbx.papers.wang2006 import sections
from nbx.pipeline import config
from nbx.report import paper
from nbx.report.published import folder

REPO = Path(__file__).resolve().parents[2]


def test_module_follows_the_paper_report_contract():
    claims_md = (folder("wang2006") / "claims.md").read_text()
    assert list(S.CLAIMS) == re.findall(r"^- ([A-Z]\d+) ", claims_md, re.MULTILINE) == ["S1", "S2", "S3"]
    assert S.SECTIONS.count(paper.CLAIMS_SECTION) == 1
    assert all(callable(s) for s in S.SECTIONS if s != paper.CLAIMS_SECTION)
    data = paper.paper_data("wang2006")
    readings = [x for pairs in data["readings"].values() for pair in pairs.items() for x in pair]
    named = set(data["learners"] + data["reference"] + readings) | set(data["names"]) | set(E.KERNEL_LEARNERS)
    learners = config.load_params(REPO / "params.yaml")["experiments"]["wang2006"]["learners"]
    assert named <= set(learners)
    assert set(data["names"]) == set(learners)  # every learner of the experiment has a display name


def test_s1_count_matches_the_published_marks():
    """§6's "10 of 12 data sets" is Table 1's count of ✓ marks."""
    table = pd.read_csv(folder("wang2006") / "wang2006_table1.csv")
    marks = table[E.DATA["mark_column"]]
    assert (int((marks == "better").sum()), len(table)) == (E.DATA["s1"]["wins"], E.DATA["s1"]["data_sets"])


class FakeContext:
    """Accuracies (%) per learner and data set given by hand."""

    def __init__(self, accs: dict, info: dict | None = None):
        self.accs, self.info = accs, info or {}
        self.datasets = {p: p.lower() for p in next(iter(accs.values()))}
        self.exp = SimpleNamespace(protocol={"kind": "cv", "folds": 10})

    def has(self, *learners):
        return all(x in self.accs for x in learners)

    def acc(self, p, x):
        return self.accs[x][p]

    def fit_info(self, x):
        return self.info.get(x, {})


def test_readings_section_pairs_each_default_with_its_alternative():
    accs = {
        "snbtree": {"A": 80.0, "B": 70.0},
        "snbtree_stdunit": {"A": 79.0, "B": 72.5},
        "gnb": {"A": 75.0, "B": 60.0},
        "gnb_stdunit": {"A": 75.5, "B": 60.0},
    }
    lines = sections.readings_section(FakeContext(accs))
    assert lines[2].endswith(
        "Accuracy (%), mean over the 10 folds; claims S1-S3 are judged under each reading (the default's verdict first)."
    )
    assert (
        "| data set | S-NBTree | S-NBTree (h in std) | GNB (kernel) | GNB (h in std) "
        "| S-NBTree − S-NBTree (h in std) | GNB (kernel) − GNB (h in std) |"
    ) in lines
    assert "| A | 80.00 | 79.00 | 75.00 | 75.50 | +1.00 | -0.50 |" in lines
    assert "| **mean** |  |  |  |  | **-0.75** | **-0.25** |" in lines  # (1 - 2.5) / 2 and (-0.5 + 0) / 2
    assert not any("Stopping rule" in line for line in lines)  # snbtree_rootsplit did not run
    # a point is shown only when its first pair (S-NBTree's) ran
    without = {x: v for x, v in accs.items() if x != "snbtree_stdunit"}
    assert sections.readings_section(FakeContext(without)) == []
    rootsplit = {"snbtree": accs["snbtree"], "snbtree_rootsplit": {"A": 80.0, "B": 69.0}}
    lines = sections.readings_section(FakeContext(rootsplit))
    assert any(
        line.startswith("**Stopping rule at the root") and "exactly the same as Kohavi" in line for line in lines
    )
    assert "| B | 70.00 | 69.00 | +1.00 |" in lines


def test_root_note_counts_the_folds_whose_root_stayed_a_leaf():
    """Only folds whose default tree left the root unsplit can differ between the two root readings."""
    accs = {"snbtree": {"A": 80.0, "B": 70.0}, "snbtree_rootsplit": {"A": 80.0, "B": 69.0}}
    info = {"snbtree": {"a": [{"root_split": True}] * 3, "b": [{"root_split": False}, {"root_split": True}, None]}}
    ctx = FakeContext(accs, info)
    assert E.root_splits(ctx, "snbtree") == {"A": (3, 3), "B": (1, 2)}
    assert sections.root_note(ctx) == [
        "",
        "- S-NBTree: the root fails the stopping rule (a GNB leaf, the whole tree) in 1 of 5 folds (per data "
        "set: B 1); only those folds can differ between the two readings.",
        "",
    ]
