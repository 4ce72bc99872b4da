"""Whether two objects hold the same state, recursively and exactly: what a model file must give back
(tests/core/test_persist.py, tests/cli/test_modelfile.py)."""

from __future__ import annotations

import struct

import numpy as np


def same(a, b, where="root", seen=None) -> None:
    """a and b equal as values, recursively: same types, arrays by dtype, shape, order and bytes, floats by
    their bits, dicts with the same keys (and key types) in the same order, objects by their attributes (in any order)."""
    seen = set() if seen is None else seen
    assert type(a) is type(b), f"{where}: {type(a)} != {type(b)}"
    if isinstance(a, np.ndarray):
        assert (a.dtype, a.shape, fortran(a)) == (b.dtype, b.shape, fortran(b)), where
        assert a.tobytes(order="A") == b.tobytes(order="A"), where
    elif isinstance(a, np.generic):
        assert (a.dtype, a.tobytes()) == (b.dtype, b.tobytes()), where
    elif isinstance(a, float):
        assert struct.pack("<d", a) == struct.pack("<d", b) or (a != a and b != b), where
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]", seen)
    elif isinstance(a, dict):
        assert [(type(k), k) for k in a] == [(type(k), k) for k in b], where
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]", seen)
    elif isinstance(a, np.random.Generator):
        same(a.bit_generator.state, b.bit_generator.state, f"{where}.state", seen)
    elif hasattr(a, "__dict__") or hasattr(type(a), "__slots__"):
        if (id(a), id(b)) in seen:
            return
        seen.add((id(a), id(b)))
        mine, theirs = attributes(a), attributes(b)  # in any order: an attribute's place in __dict__ means nothing
        assert sorted(mine) == sorted(theirs), f"{where}: attributes {sorted(mine)} != {sorted(theirs)}"
        for name in mine:
            same(mine[name], theirs[name], f"{where}.{name}", seen)
    else:
        assert a == b, where


def fortran(a: np.ndarray) -> bool:
    """Stored in Fortran order (as npy and pickle keep it; a strided view comes back contiguous from either)."""
    return a.flags.f_contiguous and not a.flags.c_contiguous


def attributes(obj) -> dict:
    out = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for klass in type(obj).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if hasattr(obj, name) and name not in ("__dict__", "__weakref__"):
                out[name] = getattr(obj, name)
    return out
