"""The sniffer and the parts of :mod:`nbx.data.userfile` below the commands: delimiter and header detection with
and without confidence, the checksum grouping of nominal cells against np.unique, the memory estimate's units."""

from __future__ import annotations

import pytest

from nbx.data.dialect import Dialect, sniff

MISSING = {"?", "", "NA"}


@pytest.mark.parametrize("d", [",", ";", "\t", "|"])
def test_each_delimiter_is_detected_with_confidence(d):
    lines = [d.join(r) for r in [("a", "b", "class"), ("1.5", "x", "p"), ("2", "y", "q")]]
    assert sniff(lines, MISSING) == Dialect(d, True, True, True)


def test_decimal_commas_in_a_semicolon_file_leave_the_delimiter_in_doubt():
    """Both ';' and ',' split every line into the same number of fields: the guess is not sure (a note); a header
    line without commas settles it."""
    assert not sniff(["1,5;2,5", "3,5;4,5"], MISSING).delimiter_sure
    assert sniff(["a;b", "1,5;2,5", "3,5;4,5"], MISSING).delimiter == ";"
    assert sniff(["a;b", "1,5;2,5", "3,5;4,5"], MISSING).delimiter_sure


def test_the_most_consistent_delimiter_wins_and_a_ragged_line_costs_confidence():
    lines = ["a,b,c", "1,2,x", "3,4,y", "5,6"]
    dialect = sniff(lines, MISSING)
    assert dialect.delimiter == "," and not dialect.delimiter_sure


def test_quoted_delimiters_do_not_count():
    lines = ["a,b,c", '1,"x, y",p', '2,"z, w",q']
    assert sniff(lines, MISSING).delimiter == ","


def test_header_from_numeric_columns_is_sure_either_way():
    assert sniff(["w,c,y", "1,x,p", "2,?,q"], MISSING) == Dialect(",", True, True, True)
    assert sniff(["0.5,x,p", "1,x,p", "2,,q"], MISSING) == Dialect(",", False, True, True)


def test_header_of_nominal_columns_is_a_guess():
    assert sniff(["colour,class", "red,p", "blue,q"], MISSING) == Dialect(",", True, True, False)
    assert sniff(["red,p", "blue,q", "red,q"], MISSING) == Dialect(",", False, True, False)


def test_given_delimiter_and_header_are_taken_as_they_are():
    assert sniff(["a;b,c", "1;2,3"], MISSING, delimiter=",", header=False) == Dialect(",", False, True, True)


def test_no_delimiter_fits():
    with pytest.raises(ValueError, match="no comma, semicolon, tab or pipe"):
        sniff(["abc", "def"], MISSING)
