"""The YAML loader of params.yaml and the catalogues (nbx.data.yaml_io): it refuses a key written twice in one
mapping, naming both lines, reads every valid file exactly as PyYAML's safe loader does, and knows each key's
line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nbx.data.catalogue import BUILTIN
from nbx.data.yaml_io import DuplicateKeyError, key_lines, load_yaml, located, unknown_key, yaml_error_at

REPO = Path(__file__).resolve().parents[2]


def _duplicate(text: str) -> str:
    with pytest.raises(DuplicateKeyError) as err:
        load_yaml(text)
    return yaml_error_at("f.yaml", err.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: 1\nb: 2\na: 3\n", "f.yaml:3: duplicate key 'a' (first at line 1)"),
        ("a:\n  b:\n    c: 1\n    d: 2\n    c: 3\n", "f.yaml:5: duplicate key 'c' (first at line 3)"),
        ("a: {x: 1, y: 2, x: 3}\n", "f.yaml:1: duplicate key 'x' (first at line 1)"),
        ("- {a: 1}\n- a: 1\n  b: 2\n  a: 2\n", "f.yaml:4: duplicate key 'a' (first at line 2)"),
        ("1: one\n1.0: one again\n", "f.yaml:2: duplicate key 1.0 (first at line 1)"),  # equal keys, as dict sees them
        ("'a': 1\na: 2\n", "f.yaml:2: duplicate key 'a' (first at line 1)"),  # quoting does not make another key
    ],
)
def test_a_key_written_twice_names_its_second_line_and_the_first(text, message):
    assert _duplicate(text) == message


def test_keys_beside_a_merge_may_override_it():
    """``<<: *anchor`` copies a mapping's keys; a key written beside it overrides the copy on purpose (YAML's
    merge key type), which is not a duplicate."""
    doc, _ = load_yaml("base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  x: 3\n")
    assert doc == {"base": {"x": 1, "y": 2}, "derived": {"x": 3, "y": 2}}


@pytest.mark.parametrize("path", [REPO / "params.yaml", BUILTIN], ids=["params.yaml", "catalogue.yaml"])
def test_valid_files_read_as_pyyaml_reads_them(path):
    text = path.read_text()
    assert load_yaml(text)[0] == yaml.safe_load(text)


def test_key_lines_by_key_path_and_the_deepest_known_line():
    _, node = load_yaml("a: 1\nb:\n  c: [x,\n      y]\n  d:\n    - {e: 1}\n")
    lines = key_lines(node)
    assert lines == {
        ("a",): 1,
        ("b",): 2,
        ("b", "c"): 3,
        ("b", "c", 0): 3,
        ("b", "c", 1): 4,
        ("b", "d"): 5,
        ("b", "d", 0): 6,
        ("b", "d", 0, "e"): 6,
    }
    assert located("f.yaml", lines, ("b", "d", 0, "e")) == "f.yaml:6"
    assert located("f.yaml", lines, ("b", "c", "missing", "deeper")) == "f.yaml:3"
    assert located("f.yaml", lines, ("nothing",)) == "f.yaml"


def test_unknown_key_message_offers_the_closest_known_keys():
    assert unknown_key("refrence", ["title", "reference", "learners"], "experiments.kang2006") == (
        "key 'refrence' is not a known key of experiments.kang2006; did you mean reference?"
    )
    assert unknown_key("zzz", ["b", "a"], "x") == "key 'zzz' is not a known key of x; known: a, b"


def test_a_syntax_error_names_the_line_it_was_found_on():
    with pytest.raises(yaml.YAMLError) as err:
        load_yaml("a: 1\nb: [1, 2\nc: 3\n")
    assert yaml_error_at("f.yaml", err.value).startswith("f.yaml:3: not valid YAML (")


def test_an_empty_document_is_none():
    assert load_yaml("# nothing\n") == (None, None)
