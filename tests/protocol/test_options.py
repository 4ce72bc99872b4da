"""nbx.protocol.options: an analyses block resolved against a checks module's typed options."""

import pytest

from nbx.protocol.options import Option, resolve
from nbx.protocol.spec import BlockError

SPEC = {
    "n_rows": Option(600, "int", low=2),
    "noise": Option(0.15, "float", low=0),
    "concentration": Option(2.0, "float", low=0, above=True),
    "layers": Option([[2], [4]], "int lists", low=1),
    "denominators": Option(["class"], "strs", choices=("class", "attribute")),
}


def test_defaults_fill_the_keys_left_out_and_an_int_reads_as_a_float():
    assert resolve(SPEC, {"n_rows": 30, "noise": 1}) == {
        "n_rows": 30,
        "noise": 1.0,
        "concentration": 2.0,
        "layers": [[2], [4]],
        "denominators": ["class"],
    }
    assert resolve(SPEC, None) == {key: option.default for key, option in SPEC.items()}
    assert isinstance(resolve(SPEC, {"noise": 1})["noise"], float)
    assert resolve(SPEC, {"denominators": "attribute"})["denominators"] == ["attribute"]  # one value: a list of one


@pytest.mark.parametrize(
    "block, keys, message",
    [
        ({"n_rows": "lots"}, ("n_rows",), "'lots' must be an integer >= 2"),
        ({"n_rows": True}, ("n_rows",), "True must be an integer >= 2"),
        ({"n_rows": 2.0}, ("n_rows",), "2.0 must be an integer >= 2"),
        ({"noise": float("nan")}, ("noise",), "nan must be a number >= 0"),
        ({"noise": float("inf")}, ("noise",), "inf must be a number >= 0"),
        ({"concentration": 0}, ("concentration",), "0 must be a number > 0"),
        ({"layers": [[2], []]}, ("layers", 1), "[] must be a non-empty list of integers >= 1"),
        ({"layers": [2]}, ("layers", 0), "2 must be a non-empty list of integers >= 1"),
        ({"layers": [[2, 0]]}, ("layers", 0, 1), "0 must be an integer >= 1"),
        ({"denominators": []}, ("denominators",), "[] must be a non-empty list of one of 'class', 'attribute'"),
        ({"denominators": "row"}, ("denominators", 0), "'row' must be one of 'class', 'attribute'"),
        ({"denominators": ["row"]}, ("denominators", 0), "'row' must be one of 'class', 'attribute'"),
    ],
)
def test_a_wrong_value_names_its_key_path(block, keys, message):
    with pytest.raises(BlockError) as err:
        resolve(SPEC, block)
    assert (err.value.keys, err.value.message) == (keys, message)


def test_an_unknown_key_lists_the_known_ones():
    with pytest.raises(BlockError) as err:
        resolve(SPEC, {"n_row": 3})
    assert err.value.keys == ("n_row",) and err.value.known == tuple(SPEC)
