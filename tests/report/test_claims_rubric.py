"""The one verdict rubric (nbx.report.claims.rubric / judge): every branch on hand-made parts, per-reading
verdicts, and the number / significance / std helpers the papers feed it with."""

from __future__ import annotations

import numpy as np
import pytest

from nbx.report import claims
from nbx.report.claims import (
    DIRECTION,
    FAILS,
    HOLDS,
    NOT_REPRODUCED,
    NOT_TESTABLE,
    PARTLY,
    REPRODUCED,
    UNTESTABLE,
    Part,
    judge,
    rubric,
)


def test_every_part_holds_is_reproduced():
    word, why = rubric([Part("a", HOLDS), Part("b", HOLDS)])
    assert word == REPRODUCED and why == "every stated part holds"
    assert rubric([Part("a", HOLDS)]) == (REPRODUCED, "its one stated part holds")


def test_one_of_two_is_partly_and_names_the_other():
    word, why = rubric([Part("6-layer", FAILS), Part("7-layer", HOLDS)])
    assert word == PARTLY
    assert why == "holds: 7-layer; does not hold: 6-layer (fails)"


def test_none_holds_is_not_reproduced():
    word, why = rubric([Part("a", FAILS), Part("b", FAILS)])
    assert word == NOT_REPRODUCED and why == "no stated part holds: a (fails); b (fails)"


def test_direction_only_alone_is_not_partly():
    assert rubric([Part("a", DIRECTION)])[0] == NOT_REPRODUCED
    assert rubric([Part("a", DIRECTION), Part("b", DIRECTION), Part("c", FAILS)])[0] == NOT_REPRODUCED
    # ... but beside a part that holds it is partly, and named
    word, why = rubric([Part("a", HOLDS), Part("b", DIRECTION)])
    assert word == PARTLY and "b (direction only)" in why


def test_not_testable_with_reason():
    word, why = rubric([Part("Spam", UNTESTABLE, "not run")])
    assert word == NOT_TESTABLE and why == "no part is testable: Spam (not testable: not run)"
    assert rubric([])[0] == NOT_TESTABLE
    # a part that cannot be tested keeps the claim from being reproduced, with its reason named
    word, why = rubric([Part("a", HOLDS), Part("b", UNTESTABLE, "data set not available")])
    assert word == PARTLY and "b (not testable: data set not available)" in why
    assert rubric([Part("a", FAILS), Part("b", UNTESTABLE, "x")])[0] == NOT_REPRODUCED


def test_bad_status_is_refused_with_the_part_named():
    with pytest.raises(ValueError, match="part 'a': status 'maybe'"):
        Part("a", "maybe")
    with pytest.raises(ValueError, match="part 'b'"):
        Part("b", {"default": HOLDS, "other": "sort of"})


def test_per_reading_verdicts():
    parts = [
        Part("balanced beats skewed", {"sorted (default)": HOLDS, "per class": FAILS}),
        Part("a part without readings", HOLDS),
    ]
    assert claims.readings_of(parts) == ["sorted (default)", "per class"]
    assert rubric(parts) == rubric(parts, "sorted (default)") == (REPRODUCED, "every stated part holds")
    assert rubric(parts, "per class")[0] == PARTLY
    v = judge("L3", parts, "evidence")
    assert v.verdict == REPRODUCED  # the default reading's
    assert v.readings == {"sorted (default)": REPRODUCED, "per class": PARTLY}
    assert "- reading *per class*: **partly reproduced** — holds: a part without readings" in v.evidence
    assert claims.cell(v) == "**reproduced** (sorted (default)); **partly reproduced** (per class)"


def test_readings_of_two_points_fall_back_to_each_parts_default():
    # NB's alternative does not change the TAN part and the other way round
    parts = [
        Part("vs NB", {"default": HOLDS, "NB (+1)": FAILS}),
        Part("vs TAN", {"default": HOLDS, "TAN (CMI)": DIRECTION}),
    ]
    v = judge("K1", parts, "ev")
    assert v.readings == {"default": REPRODUCED, "NB (+1)": PARTLY, "TAN (CMI)": PARTLY}


def test_same_verdict_under_every_reading_shows_one_word():
    v = judge("S1", [Part("10 of 12", {"default": FAILS, "root tested": FAILS})], "ev")
    assert claims.cell(v) == "**not reproduced**" and v.readings == {
        "default": NOT_REPRODUCED,
        "root tested": NOT_REPRODUCED,
    }


def test_judge_appends_the_rationale_and_the_because():
    v = judge("L1", [Part("js beats mle", DIRECTION)], "our numbers.", "Why: identical on two classes.")
    assert v.verdict == NOT_REPRODUCED
    assert v.evidence == (
        "our numbers.\n\nRubric: no stated part holds: js beats mle (direction only). Why: identical on two classes."
    )


def test_paper_test_status_significant_and_not_significant_statements():
    # the paper states a significant difference: p < alpha in its direction holds, the direction alone is partial
    assert claims.paper_test_status(0.5, 0.01) == HOLDS
    assert claims.paper_test_status(0.5, 0.2) == DIRECTION
    assert claims.paper_test_status(0.5, 0.05) == DIRECTION  # p < alpha, strictly
    assert claims.paper_test_status(0.0, 0.001) == FAILS  # no difference: not the paper's direction
    assert claims.paper_test_status(-1.0, 0.001) == FAILS
    assert claims.paper_test_status(float("nan"), 0.01) == FAILS
    # the paper states a gain that is not significant (Kang & Tian's TAN, C4.5)
    assert claims.paper_test_status(0.5, 0.3, significant=False) == HOLDS
    assert claims.paper_test_status(0.5, 0.01, significant=False) == DIRECTION
    assert claims.paper_test_status(-0.5, 0.3, significant=False) == FAILS


def test_count_status_compares_a_record_exactly_as_one_part():
    assert claims.count_status((8, 2), (8, 2)) == HOLDS
    assert claims.count_status((8, 1), (8, 2)) == FAILS  # one loss fewer: the record is not the paper's
    assert claims.count_status((13, 2), (7, 2)) == FAILS
    assert claims.count_status(10, 10) == HOLDS and claims.count_status(4, 10) == FAILS  # "10 of 12": the 10
    assert claims.count_status([20, 20], [20, 20]) == HOLDS  # loaded in 20 of 20 seeds, each model
    assert claims.count_status(None, (5, 0)) == UNTESTABLE
    # one part: a record that misses the wins and the losses is one failure, not two
    word, why = rubric([Part("1-4 HM 7:2", claims.count_status((13, 0), (7, 2)))])
    assert word == NOT_REPRODUCED and why == "no stated part holds: 1-4 HM 7:2 (fails)"


def test_direction_status_of_an_untested_statement_over_its_scope():
    assert claims.direction_status(0.2) == HOLDS  # any size, no test
    assert claims.direction_status(0.0) == FAILS and claims.direction_status(-0.1) == FAILS
    assert claims.direction_status(0.0, ties_hold=True) == HOLDS  # a stated bound, "at least"
    # every data set of the sentence's scope must agree: IRIS +1.3 and WAVEFORM -1.0 is not the direction
    assert claims.direction_status([1.3, 1.1]) == HOLDS
    assert claims.direction_status([1.3, -1.0]) == FAILS
    assert claims.direction_status(float("nan")) == UNTESTABLE and claims.direction_status([]) == UNTESTABLE


def test_judge_with_a_scope_per_reading():
    # the reading changes which data sets the sentence covers (Wiering's W5): parts per reading
    parts = {
        "two-sample (default)": [Part("Car", HOLDS), Part("Soybeans", FAILS)],
        "paired": [Part("Car", HOLDS), Part("Iris", HOLDS), Part("Soybeans", FAILS)],
    }
    v = judge("W5", parts, "ev")
    assert v.verdict == PARTLY and v.readings == {"two-sample (default)": PARTLY, "paired": PARTLY}
    assert (
        "- reading *paired*: **partly reproduced** — holds: Car; Iris; does not hold: Soybeans (fails)." in v.evidence
    )
    assert judge("W5", {"only": [Part("Car", HOLDS)]}, "ev").verdict == REPRODUCED


def test_number_status_precision_or_two_std():
    assert claims.number_status(6.74, 6.7, 0.1) == HOLDS  # within half a unit of the printed digit
    assert claims.number_status(6.76, 6.7, 0.1) == FAILS
    assert claims.number_status(9.7, 6.5, 0.1, std=1.6) == HOLDS  # 3.2 <= 2 x 1.6
    assert claims.number_status(9.7, 6.5, 0.1, std=1.5) == FAILS
    assert claims.number_status(float("nan"), 6.5, 0.1) == UNTESTABLE


def test_std_of_mean_and_of_an_average():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert claims.std_of_mean(x) == pytest.approx(np.std(x, ddof=1) / 2)
    assert claims.std_of_mean(np.array([1.0, np.nan, 3.0])) == pytest.approx(np.std([1.0, 3.0], ddof=1) / np.sqrt(2))
    assert np.isnan(claims.std_of_mean(np.array([1.0])))
    y = np.array([0.0, 2.0, 4.0, 6.0])
    expected = np.sqrt(claims.std_of_mean(x) ** 2 + claims.std_of_mean(y) ** 2) / 2
    assert claims.std_of_average([x, y]) == pytest.approx(expected)


def test_only_the_default_reading_run_is_judged_without_readings():
    v = judge("T3", [Part("16% over NB", {"default": FAILS}), Part("w/l", HOLDS)], "ev")
    assert v.readings == {} and v.verdict == PARTLY and "Rubric: holds: w/l; does not hold: 16% over NB" in v.evidence
