import numpy as np
import pytest

from nbx.protocol.spec import BlockError, check_protocol
from nbx.protocol.splits import dataset_seed, make_plan


def test_repeated_stratified_cv_partitions_every_repeat():
    y = np.repeat([0, 1, 2], [17, 9, 5])
    test, repeat = make_plan(y, {"kind": "cv", "folds": 3, "repeats": 10}, dataset_seed(1, "d"), "d")
    assert test.shape == (30, len(y)) and repeat.tolist() == list(np.repeat(np.arange(10), 3))
    for r in range(10):
        block = test[repeat == r]
        assert np.all(block.sum(axis=0) == 1)  # each row tested once per repeat
        counts = np.stack([np.bincount(y[m], minlength=3) for m in block])
        assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)  # stratified


def test_holdout_half_half():
    y = np.arange(101) % 4
    test, _repeat = make_plan(y, {"kind": "holdout", "repeats": 50, "test_fraction": 0.5}, dataset_seed(1, "d"), "d")
    assert test.shape == (50, 101) and np.all(test.sum(axis=1) == 50)
    assert len({t.tobytes() for t in test}) == 50  # different random splits


def test_folds_by_dataset_and_determinism():
    y = np.arange(40) % 2
    proto = {"kind": "cv", "folds": 10, "folds_by_dataset": {"chess": 3}}
    a, _ = make_plan(y, proto, dataset_seed(7, "kang", "chess"), "chess")
    b, _ = make_plan(y, proto, dataset_seed(7, "kang", "chess"), "chess")
    c, _ = make_plan(y, proto, dataset_seed(8, "kang", "chess"), "chess")
    assert a.shape[0] == 3 and a.tobytes() == b.tobytes() and a.tobytes() != c.tobytes()
    assert make_plan(y, proto, dataset_seed(7, "kang", "iris"), "iris")[0].shape[0] == 10


def test_bad_protocol_is_named():
    with pytest.raises(BlockError, match=r"^protocol\.kind: 'loo' must be one of \('cv', 'holdout'\)$"):
        make_plan(np.zeros(5, int), {"kind": "loo"}, dataset_seed(0))
    with pytest.raises(BlockError, match=r"^protocol\.folds: 10 must be at most the 5 rows of data set 'd'$"):
        make_plan(np.zeros(5, int), {"kind": "cv", "folds": 10}, dataset_seed(0), "d")
    with pytest.raises(BlockError) as err:
        make_plan(np.zeros(5, int), {"kind": "cv", "folds_by_dataset": {"d": 6}}, dataset_seed(0), "d")
    assert (
        err.value.keys == ("protocol", "folds_by_dataset", "d")
        and err.value.message == "6 must be at most the 5 rows of data set 'd'"
    )


@pytest.mark.parametrize(
    "protocol, keys, message",
    [
        ([10], ("protocol",), "[10] must be a mapping with a 'kind'"),
        ({"kind": "cv", "folds": 1}, ("protocol", "folds"), "1 must be an integer >= 2"),
        ({"kind": "cv", "folds": True}, ("protocol", "folds"), "True must be an integer >= 2"),
        ({"kind": "cv", "repeats": 0}, ("protocol", "repeats"), "0 must be an integer >= 1"),
        ({"kind": "cv", "stratified": "yes"}, ("protocol", "stratified"), "'yes' must be true or false"),
        ({"kind": "cv", "fold": 5}, ("protocol", "fold"), "unknown key for kind 'cv'; did you mean folds?"),
        (
            {"kind": "cv", "folds_by_dataset": [3]},
            ("protocol", "folds_by_dataset"),
            "must be a mapping data set -> folds",
        ),
        (
            {"kind": "cv", "folds_by_dataset": {"chess": 1}},
            ("protocol", "folds_by_dataset", "chess"),
            "1 must be an integer >= 2",
        ),
        ({"kind": "holdout", "test_fraction": 1}, ("protocol", "test_fraction"), "1 must be a number in (0, 1)"),
        (
            {"kind": "holdout", "folds": 3},
            ("protocol", "folds"),
            "unknown key for kind 'holdout'; known: kind, repeats, stratified, test_fraction",
        ),
    ],
)
def test_check_protocol_names_the_key_and_says_why(protocol, keys, message):
    with pytest.raises(BlockError) as err:
        check_protocol(protocol)
    assert err.value.keys == keys and err.value.message == message
    assert str(err.value) == f"{'.'.join(map(str, keys))}: {message}"  # e.g. "protocol.folds: 1 must be ..."


def test_a_valid_protocol_is_returned_as_it_is():
    for protocol in (
        {"kind": "cv", "folds": 3, "repeats": 2, "stratified": False, "folds_by_dataset": {"chess": 2}},
        {"kind": "holdout", "repeats": 50, "test_fraction": 0.5},
    ):
        assert check_protocol(protocol) is protocol
