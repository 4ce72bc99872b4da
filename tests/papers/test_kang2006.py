"""Kang & Tian 2006's report follows the paper contract (nbx.report.paper): its claims are those of its
published/claims.md in order, its sections hold the claims table once, and published/paper.yaml names only
learners of the kang2006 experiment."""

import re

from nbx.papers.kang2006 import report as kang2006
from nbx.pipeline import config
from nbx.report.paper import CLAIMS_SECTION, paper_data
from nbx.report.published import folder


def test_claims_are_those_of_claims_md_in_order():
    ids = re.findall(r"^- ([A-Z]\d+) ", (folder("kang2006") / "claims.md").read_text(), re.MULTILINE)
    assert ids == ["K1", "K2", "K3"]
    assert list(kang2006.CLAIMS) == ids


def test_sections_hold_the_claims_table_once():
    assert kang2006.SECTIONS.count(CLAIMS_SECTION) == 1
    assert all(callable(s) for s in kang2006.SECTIONS if s != CLAIMS_SECTION)


def test_paper_yaml_names_learners_of_the_experiment():
    data = paper_data("kang2006")
    learners = config.experiment(config.load_params(), "kang2006").learners
    named = set(data["names"]).union(*(v for v in data.values() if isinstance(v, list)))
    assert named <= set(learners)
    assert set(data["table1"]) == set(learners)  # our Table 1 shows every learner the experiment runs
    assert set(data["k1_significant"] + data["k1_modest"] + data["k2"]) <= set(data["table1"])
