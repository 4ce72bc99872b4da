"""nbx.core.persist and nbx.core.container: what goes in comes out the same (types, bits, key types, shared and
cyclic objects), and a file that names anything outside the registry, holds an object array or a pickle, is
damaged, or is not a regular file is refused as one PersistError naming the file, with nothing from it run."""

from __future__ import annotations

import io
import json
import os
import pickle
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest
from equal_state import same

from nbx.core import container, persist
from nbx.core.counting import ValueIndex
from nbx.core.persist import PersistError, Registry
from nbx.models.c45 import _Node
from nbx.models.naive_bayes import NaiveBayes

REGISTRY = Registry({"NaiveBayes": "nbx.models.naive_bayes:NaiveBayes"}, ("nbx.core", "nbx.models"))


def round_trip(obj, registry=REGISTRY):
    return persist.loads(persist.dumps(obj, registry), registry, "m.nbx")


def test_values_come_back_with_their_types_and_bits():
    value = {
        "floats": [0.1, -0.0, float("nan"), float("inf"), -float("inf"), 1e308, 5e-324, 1.0],
        "ints": [0, -1, 2**70, True, False, None],
        1: "int key",
        (2, "a"): "tuple key",
        2.5: "float key",
        None: "none key",
        "tuple": (1, (2.0, "x"), []),
        "scalars": [np.float64(0.1), np.int64(-3), np.bool_(True), np.float32(np.nan), np.str_("ab")],
        "arrays": [
            np.arange(6.0).reshape(2, 3),
            np.asfortranarray(np.arange(6).reshape(2, 3)),
            np.array([], dtype=np.uint8),
            np.array(3.5),
            np.array(["a", "bcd"]),
            np.array([np.nan, -0.0], dtype=">f8"),
            np.arange(10)[::3],
        ],
    }
    got = round_trip(value)
    same(value, got)
    assert list(got) == list(value)


def test_shared_objects_stay_shared_and_cycles_close():
    index = ValueIndex([2, 3])
    index.me = index  # a cycle through a helper object
    array = np.arange(3.0)
    gen = np.random.default_rng(7)
    gen.random(5)
    got = round_trip({"a": index, "b": index, "x": array, "y": array, "g": [gen, gen]})
    assert got["a"] is got["b"] is got["a"].me and got["x"] is got["y"] and got["g"][0] is got["g"][1]
    same(gen.bit_generator.state, got["g"][0].bit_generator.state)
    np.testing.assert_array_equal(gen.random(4), got["g"][0].random(4))  # the stream continues where it was


def test_slots_objects_and_estimators_are_rebuilt_without_init():
    node = _Node.__new__(_Node)
    node.attr, node.children, node.dist = 1, [], np.ones(2)  # other slots unset, as a tree leaves some
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], float)
    nb = NaiveBayes(alpha=0.5).fit(X, [0, 1, 1, 0])
    got_node, got_nb = round_trip([node, nb])
    same(node, got_node)
    assert not hasattr(got_node, "threshold")
    same(nb, got_nb)
    assert got_nb.predict_proba(X).tobytes() == nb.predict_proba(X).tobytes()


def test_the_same_object_gives_the_same_bytes():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], float)
    nb = NaiveBayes().fit(X, [0, 1, 1, 0])
    assert persist.dumps(nb, REGISTRY) == persist.dumps(nb, REGISTRY)


@pytest.mark.parametrize(
    "value, message",
    [
        (print, "cannot save a builtins.builtin_function_or_method"),
        ({1, 2}, "cannot save a builtins.set"),
        (np.array([object()]), "cannot save dtype '|O'"),
        (Path("x"), "cannot save a pathlib"),
        ({frozenset(): 1}, "cannot save a dict key of type frozenset"),
    ],
)
def test_what_cannot_be_written_is_refused_when_saving(value, message):
    with pytest.raises(PersistError, match=message):
        persist.dumps({"v": [value]}, REGISTRY)


def test_a_chain_too_deep_to_save_is_one_error():
    root = node = ValueIndex([2])
    for _ in range(5000):
        node.child = ValueIndex([2])
        node = node.child
    with pytest.raises(PersistError, match="nested too deeply to save"):
        persist.dumps(root, REGISTRY)


# ------------------------------------------------------------------------------------------- crafted files
def crafted(root, arrays: dict | None = None, document=None) -> bytes:
    """A zip as persist writes it, with any JSON root and members."""
    text = json.dumps(document or {"format": persist.FORMAT, "version": persist.VERSION, "root": root})
    return container.pack(persist.DOCUMENT, text.encode(), arrays or {})


class Touch:
    """Unpickling this creates the file ``path``: what a malicious model would do."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.fixture
def spies(monkeypatch):
    """Records any call of os.system and subprocess.Popen instead of running it."""
    import subprocess

    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(("system", a)))
    monkeypatch.setattr(subprocess.Popen, "__init__", lambda *a, **k: calls.append(("Popen", a)))
    return calls


@pytest.mark.parametrize(
    "root, refused",
    [
        ({"object": "os:system", "id": 0, "state": {}}, "'os:system' is not nbx's"),
        ({"object": "posix:system", "id": 0, "state": {}}, "'posix:system' is not nbx's"),
        ({"object": "builtins:eval", "id": 0, "state": {}}, "'builtins:eval' is not nbx's"),
        ({"object": "subprocess:Popen", "id": 0, "state": {"args": ["touch", "x"]}}, "'subprocess:Popen' is not nbx's"),
        ({"object": "nbx.core.io:Path", "id": 0, "state": {}}, "'nbx.core.io:Path' is not a class nbx can load"),
        ({"object": "nbx.core.io:os.system", "id": 0, "state": {}}, "is not a class nbx can load"),
        ({"object": "nbx.core.validation:InvalidParameterError", "id": 0, "state": {}}, "not a class nbx can load"),
        ({"object": "nbx.core.counting:ValueIndex.__init__.__globals__", "id": 0}, "is not a module:Name"),
        (
            {"object": "nbx.pipeline.train:Resume", "id": 0, "state": {}},
            "is not nbx's (only classes of nbx.core, nbx.models load)",
        ),
        ({"estimator": "Popen", "id": 0, "params": {}, "state": {}}, "estimator 'Popen': not one of nbx's"),
        ({"estimator": "NaiveBayes", "id": 0, "params": {"cmd": 1}, "state": {}}, "NaiveBayes has no parameter 'cmd'"),
        ({"generator": "RandomState", "id": 0, "state": None}, "a random generator 'RandomState'"),
        ({"array": "../../etc/passwd"}, "array member '../../etc/passwd' is not in the file"),
        ({"numpy": "|O", "hex": "00" * 8}, "Python objects"),
        ({"float": "1e999"}, "float '1e999'"),
        ({"ref": 3}, "reference 3 to no earlier object"),
        ({"__reduce__": ["os.system", "touch x"]}, "an entry with keys"),
        ([{"object": "nbx.core.counting:ValueIndex", "id": 0, "state": {"__class__": 1}}], "not a mapping of names"),
    ],
)
def test_a_file_naming_anything_else_is_refused_and_nothing_runs(root, refused, spies):
    with pytest.raises(PersistError) as info:
        persist.loads(crafted(root), REGISTRY, "evil.nbx")
    message = str(info.value)
    assert message.startswith("evil.nbx: ") and refused in message and "\n" not in message, message
    assert spies == []


def test_an_object_array_member_is_refused_unread(tmp_path):
    target = tmp_path / "pwned"
    npy = io.BytesIO()
    np.save(npy, np.array([Touch(target)], dtype=object), allow_pickle=True)
    data = crafted({"array": "arrays/0.npy"})
    evil = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(evil, "w") as dst:
        dst.writestr(persist.DOCUMENT, src.read(persist.DOCUMENT))
        dst.writestr("arrays/0.npy", npy.getvalue())
    with pytest.raises(PersistError, match=r"^evil.nbx: arrays/0.npy: refused dtype '\|O': Python objects"):
        persist.loads(evil.getvalue(), REGISTRY, "evil.nbx")
    assert not target.exists()


def test_a_pickle_is_not_a_container():
    data = pickle.dumps({"a": 1}, protocol=pickle.HIGHEST_PROTOCOL)
    assert container.is_pickle(data) and not container.is_zip(data)
    with pytest.raises(PersistError, match="does not start as a zip"):
        persist.loads(data, REGISTRY, "old.pkl")


def test_damaged_files_are_one_line_each():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], float)
    good = persist.dumps(NaiveBayes().fit(X, [0, 1, 1, 0]), REGISTRY)
    rng = np.random.default_rng(0)
    damaged = [good[:n] for n in (4, 30, len(good) // 2, len(good) - 1)]
    for at in rng.integers(0, len(good), 40):
        flipped = bytearray(good)
        flipped[at] ^= 0xFF
        damaged.append(bytes(flipped))
    refused = 0
    for data in damaged:
        try:
            persist.loads(data, REGISTRY, "m.nbx")
        except PersistError as exc:
            assert str(exc).startswith("m.nbx: ") and "\n" not in str(exc)
            refused += 1
    assert refused >= 4 + 30  # a flip in a zip's unused header field may pass: the CRCs guard the members


def test_npy_data_must_be_as_long_as_its_header_says():
    npy = io.BytesIO()
    np.save(npy, np.arange(4.0))
    with pytest.raises(PersistError, match="24 bytes of data where shape"):
        container.read_npy(npy.getvalue()[:-8], "m.nbx: arrays/0.npy")
    terabyte = io.BytesIO()  # a header that claims 2**40 floats, then 8 bytes: refused, nothing allocated
    np.lib.format.write_array_header_1_0(terabyte, {"descr": "<f8", "fortran_order": False, "shape": (2**40,)})
    with pytest.raises(PersistError, match=r"8 bytes of data where shape \(1099511627776,\) of <f8 needs 8796"):
        container.read_npy(terabyte.getvalue() + bytes(8), "m.nbx: arrays/0.npy")


def test_duplicate_members_and_oversized_contents_are_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf, pytest.warns(UserWarning, match="Duplicate name"):
        zf.writestr(persist.DOCUMENT, "{}")
        zf.writestr(persist.DOCUMENT, "{}")
    with pytest.raises(PersistError, match="a member name appears twice"):
        container.unpack(buf.getvalue(), "m.nbx")
    with pytest.raises(PersistError, match="members unpack to"):
        container.unpack(crafted([0] * 1000), "m.nbx", limit=1000)


# ------------------------------------------------------------------------------------------ file checks
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "model.nbx"
    os.mkfifo(fifo)
    errors = []
    reader = threading.Thread(target=lambda: errors.append(_refusal(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert errors == [f"{fifo}: a FIFO, not a model file; give the file `nbx fit --save` wrote"]


@pytest.mark.parametrize("path, kind", [("/dev/zero", "a character device"), ("{tmp}", "a directory")])
def test_devices_and_folders_are_refused(tmp_path, path, kind):
    path = path.format(tmp=tmp_path)
    assert _refusal(path) == f"{path}: {kind}, not a model file; give the file `nbx fit --save` wrote"


def test_a_file_beyond_the_memory_bound_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.nbx"
    path.write_bytes(b"PK\x03\x04" + bytes(5000))
    monkeypatch.setattr(container, "size_limit", lambda: 4096)
    assert _refusal(path).startswith(f"{path}: 0.0 MiB, more than a model file may have here (0.0 MiB, a quarter")
    assert container.size_limit() == 4096 and container.memory_bytes() > 4096


def _refusal(path) -> str:
    with pytest.raises(PersistError) as info:
        container.read_regular_file(path)
    return str(info.value)


def test_dump_and_load_go_through_a_file(tmp_path):
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], float)
    nb = NaiveBayes().fit(X, [0, 1, 1, 0])
    persist.dump(tmp_path / "nb.nbx", nb, REGISTRY)
    same(nb, persist.load(tmp_path / "nb.nbx", REGISTRY))
    with pytest.raises(PersistError, match=r"cannot save a builtins\.set"):
        persist.dump(tmp_path / "nb.nbx", {1}, REGISTRY)
    same(nb, persist.load(tmp_path / "nb.nbx", REGISTRY))  # a failed save leaves the file as it was
