"""A file format for fitted objects that loads without running code from the file: one zip holding a JSON
document (``object.json``, the object tree) and the numpy arrays as ``.npy`` members (:mod:`.container`).

The tree is plain JSON where it can be (None, bool, int, str, finite float, list) and a one-purpose JSON object
where it cannot::

    {"float": "nan" | "inf" | "-inf"}
    {"tuple": [...]}                    {"dict": [[key, value], ...]}   (any key order and key type kept)
    {"array": "arrays/3.npy"}           {"numpy": "<f8", "hex": "..."}  (a numpy scalar, its bytes)
    {"generator": "PCG64", "id": 7, "state": ...}                          (numpy's Generator, by its state)
    {"estimator": "NaiveBayes", "id": 1, "params": {...}, "state": {...}}  (by its name in the registry)
    {"object": "nbx.models.c45:_Node", "id": 2, "state": {...}}           (a helper class, by module and name)
    {"ref": 2}                          (the object with that id again: shared objects and cycles stay so)

Loading never unpickles and never calls anything the file names: a class is looked up in the
:class:`Registry` the caller gives (estimators by name; helper classes only when defined in one of its
packages, found by module and qualified name), created with ``cls.__new__(cls)`` and given its attributes
directly (``__dict__`` and ``__slots__``), so neither ``__init__`` nor ``__reduce__``/``__setstate__`` runs.
Anything else (another class, an object array, a malformed entry) is refused as a :class:`PersistError`
naming the file and where in the tree the entry is.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from nbx.core import container
from nbx.core.container import PersistError
from nbx.core.io import write_bytes

DOCUMENT = "object.json"
FORMAT = "nbx-object-tree"
VERSION = 1
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")  # numpy's, rebuilt from their state
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TAGS = ("float", "tuple", "dict", "array", "numpy", "generator", "estimator", "object", "ref")

__all__ = ["PersistError", "Registry", "dump", "dumps", "load", "loads"]


@dataclass(frozen=True)
class Registry:
    """The classes a file may name.

    Parameters
    ----------
    estimators : mapping of str to str
        Estimator name -> ``"module:Name"`` (nbx's registry of learners, discretizers, imputers); an estimator
        is written and read by its name.
    packages : tuple of str
        Packages (``"nbx.models"``) whose modules' own classes a file may name by ``module:qualname``: the
        helpers estimators keep (tree nodes, index tables). Exceptions are not among them.
    classes : tuple of type
        Further classes a file may name (e.g. the command line's model bundle, a dataclass).
    """

    estimators: Mapping[str, str]
    packages: tuple[str, ...] = ()
    classes: tuple[type, ...] = ()

    def estimator_name(self, cls: type) -> str | None:
        """The registry name of exactly this class, else None."""
        name = cls.__name__
        return name if self.estimators.get(name) == f"{cls.__module__}:{cls.__qualname__}" else None

    def estimator_class(self, name: str) -> type:
        module, _, qualname = self.estimators[name].partition(":")
        return _lookup(module, qualname)

    def allows(self, cls: type) -> bool:
        """Whether a file may name ``cls`` as a helper object."""
        if cls in self.classes:
            return True
        module = cls.__module__
        return self._in_packages(module) and not issubclass(cls, BaseException)

    def _in_packages(self, module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in self.packages)

    def helper_class(self, spec: str) -> type:
        """The class ``module:qualname`` names, if allowed; else a ValueError saying why."""
        module, sep, qualname = spec.partition(":")
        for cls in self.classes:
            if (cls.__module__, cls.__qualname__) == (module, qualname):
                return cls
        parts = module.split(".") + qualname.split(".")
        if not sep or not all(_NAME.match(p) and not p.startswith("__") for p in parts):
            raise ValueError(f"class {spec!r} is not a module:Name")
        if not self._in_packages(module):
            raise ValueError(f"class {spec!r} is not nbx's (only classes of {', '.join(self.packages)} load)")
        cls = _lookup(module, qualname)
        if cls is None or not self.allows(cls):
            raise ValueError(f"{spec!r} is not a class nbx can load")
        return cls


def _lookup(module: str, qualname: str) -> type | None:
    """The class defined as ``module.qualname`` (its own module and name, not one imported there), else None."""
    try:
        obj = importlib.import_module(module)
    except ImportError:
        return None
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    if isinstance(obj, type) and (obj.__module__, obj.__qualname__) == (module, qualname):
        return obj
    return None


# --------------------------------------------------------------------------------------------------- save
def dumps(obj, registry: Registry) -> bytes:
    """The file's bytes for ``obj`` (see the module docstring); a PersistError names what cannot be written."""
    encoder = _Encoder(registry)
    try:
        tree = encoder.value(obj, "root")
        document = json.dumps({"format": FORMAT, "version": VERSION, "root": tree}, allow_nan=False)
    except RecursionError:  # about as deep as pickle could go (a chain of some 200 objects)
        raise PersistError("the object is nested too deeply to save") from None
    return container.pack(DOCUMENT, document.encode("utf-8"), encoder.arrays)


def dump(path, obj, registry: Registry) -> None:
    """Write ``obj`` to ``path`` atomically (see :func:`dumps`)."""
    data = dumps(obj, registry)  # before the file is touched: a failure leaves it as it was
    write_bytes(path, data)


class _Encoder:
    def __init__(self, registry: Registry):
        self.registry = registry
        self.arrays: dict[str, np.ndarray] = {}
        self.ids: dict[int, int] = {}  # id(obj) -> its number in the file
        self.keep: list = []  # the objects numbered, alive while ids hold their id()
        self.array_names: dict[int, str] = {}

    def value(self, obj, where: str):
        kind = type(obj)
        if obj is None or kind in (bool, int, str):
            return obj
        if kind is float:
            return obj if math.isfinite(obj) else {"float": repr(obj)}
        if kind is list:
            return [self.value(v, f"{where}[{i}]") for i, v in enumerate(obj)]
        if kind is tuple:
            return {"tuple": [self.value(v, f"{where}[{i}]") for i, v in enumerate(obj)]}
        if kind is dict:
            return {"dict": [[self.key(k, where), self.value(v, f"{where}[{k!r}]")] for k, v in obj.items()]}
        if kind is np.ndarray:
            return {"array": self.array(obj, where)}
        if isinstance(obj, np.generic):
            _check_dtype(obj.dtype, where)
            return {"numpy": obj.dtype.str, "hex": obj.tobytes().hex()}
        if id(obj) in self.ids:
            return {"ref": self.ids[id(obj)]}
        if kind is np.random.Generator:
            return self.generator(obj, where)
        name = self.registry.estimator_name(kind)
        if name is not None:
            return self.estimator(obj, name, where)
        if not self.registry.allows(kind):  # functions and classes too: their type is builtins'
            raise PersistError(f"{where}: cannot save a {kind.__module__}.{kind.__qualname__}")
        number = self.number(obj)
        return {"object": f"{kind.__module__}:{kind.__qualname__}", "id": number, "state": self.state(obj, where)}

    def key(self, key, where: str):
        if key is None or type(key) in (bool, int, str, float) or type(key) is tuple:
            return self.value(key, f"{where} key")
        raise PersistError(f"{where}: cannot save a dict key of type {type(key).__name__}")

    def number(self, obj) -> int:
        self.ids[id(obj)] = len(self.ids)
        self.keep.append(obj)
        return self.ids[id(obj)]

    def array(self, a: np.ndarray, where: str) -> str:
        _check_dtype(a.dtype, where)
        name = self.array_names.get(id(a))
        if name is None:
            name = self.array_names[id(a)] = f"arrays/{len(self.arrays)}.npy"
            self.arrays[name] = a
            self.keep.append(a)
        return name

    def generator(self, g: np.random.Generator, where: str) -> dict:
        kind = type(g.bit_generator).__name__
        if kind not in BIT_GENERATORS or getattr(np.random, kind) is not type(g.bit_generator):
            raise PersistError(f"{where}: cannot save a Generator over {kind}")
        number = self.number(g)
        return {"generator": kind, "id": number, "state": self.value(g.bit_generator.state, f"{where}.state")}

    def estimator(self, est, name: str, where: str) -> dict:
        number = self.number(est)
        params = est.get_params(deep=False)
        own = vars(est)
        state = {k: v for k, v in own.items() if not (k in params and params[k] is v)}
        return {
            "estimator": name,
            "id": number,
            "params": {k: self.value(v, f"{where}.{k}") for k, v in params.items()},
            "state": {k: self.value(v, f"{where}.{k}") for k, v in state.items()},
        }

    def state(self, obj, where: str) -> dict:
        attributes = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
        for name in _slots(type(obj)):
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                attributes[name] = getattr(obj, name)
        return {k: self.value(v, f"{where}.{k}") for k, v in attributes.items()}


def _slots(cls: type) -> list[str]:
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return names


def _check_dtype(dtype: np.dtype, where: str) -> None:
    reason = container.dtype_refusal(dtype)
    if reason:
        raise PersistError(f"{where}: cannot save {reason}")


# --------------------------------------------------------------------------------------------------- load
def loads(data: bytes, registry: Registry, label: str):
    """The object ``data`` (a file's bytes, ``label`` its name in messages) holds; refuses, as one
    :class:`PersistError` naming ``label``, anything outside the format or the registry."""
    members = container.unpack(data, label)
    if DOCUMENT not in members:
        raise PersistError(f"{label}: no {DOCUMENT} in the file")
    try:
        document = json.loads(members[DOCUMENT].decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise PersistError(f"{label}: {DOCUMENT} is not valid JSON ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or "root" not in document:
        raise PersistError(f"{label}: {DOCUMENT} is not an nbx object tree")
    if document.get("version") != VERSION:
        raise PersistError(f"{label}: object tree version {document.get('version')!r}; this nbx reads {VERSION}")
    decoder = _Decoder(registry, members, label)
    try:
        return decoder.value(document["root"], "root")
    except PersistError:
        raise
    except RecursionError:
        raise PersistError(f"{label}: {DOCUMENT} is nested too deeply") from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as exc:
        # an entry of the right tag but the wrong shape (a number where a name belongs, ...): the file's doing
        raise PersistError(f"{label}: a malformed entry in {DOCUMENT} ({type(exc).__name__}: {exc})") from None


def load(path, registry: Registry):
    """The object in the file ``path`` (:func:`loads`), read by :func:`nbx.core.container.read_regular_file`."""
    return loads(container.read_regular_file(path), registry, str(path))


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class _Decoder:
    def __init__(self, registry: Registry, members: dict[str, bytes], label: str):
        self.registry = registry
        self.members = members
        self.label = label
        self.objects: dict[int, object] = {}
        self.arrays: dict[str, np.ndarray] = {}

    def refuse(self, where: str, what: str) -> PersistError:
        return PersistError(f"{self.label}: refused {where}: {what}")

    def value(self, node, where: str):
        if node is None or type(node) in (bool, int, str):
            return node
        if type(node) is float:
            return node
        if type(node) is list:
            return [self.value(v, f"{where}[{i}]") for i, v in enumerate(node)]
        if type(node) is not dict:
            raise self.refuse(where, f"a JSON {type(node).__name__}")
        tag = next((t for t in _TAGS if t in node), None)
        if tag is None:
            raise self.refuse(where, f"an entry with keys {sorted(node)[:5]}")
        return getattr(self, f"_{tag}")(node, where)

    def _float(self, node, where):
        text = node["float"]
        if text not in ("nan", "inf", "-inf"):
            raise self.refuse(where, f"float {text!r}")
        return float(text)

    def _tuple(self, node, where):
        return tuple(self._list(node["tuple"], where))

    def _list(self, items, where) -> list:
        if type(items) is not list:
            raise self.refuse(where, "a sequence that is not a JSON list")
        return [self.value(v, f"{where}[{i}]") for i, v in enumerate(items)]

    def _dict(self, node, where):
        out = {}
        for pair in self._list_of_pairs(node["dict"], where):
            key = self.value(pair[0], f"{where} key")
            if not _hashable_key(key):
                raise self.refuse(where, f"a dict key of type {type(key).__name__}")
            out[key] = self.value(pair[1], f"{where}[{key!r}]")
        return out

    def _list_of_pairs(self, items, where) -> list:
        if type(items) is not list or not all(type(p) is list and len(p) == 2 for p in items):
            raise self.refuse(where, "a dict that is not a list of [key, value] pairs")
        return items

    def _array(self, node, where):
        name = node["array"]
        if type(name) is not str or name not in self.members or not name.startswith("arrays/"):
            raise self.refuse(where, f"array member {name!r} is not in the file")
        if name not in self.arrays:
            self.arrays[name] = container.read_npy(self.members[name], f"{self.label}: {name}")
        return self.arrays[name]

    def _numpy(self, node, where):
        text, hexed = node["numpy"], node.get("hex")
        try:
            dtype = np.dtype(text) if type(text) is str else None
            raw = bytes.fromhex(hexed) if type(hexed) is str else None
        except (TypeError, ValueError):
            dtype = raw = None
        reason = "a dtype or bytes that cannot be read" if dtype is None or raw is None else None
        reason = reason or container.dtype_refusal(dtype)
        if reason or len(raw) != dtype.itemsize:
            raise self.refuse(where, f"numpy scalar {text!r}: {reason or 'wrong number of bytes'}")
        return np.frombuffer(raw, dtype)[0] if dtype.itemsize else np.zeros((), dtype)[()]

    def _ref(self, node, where):
        number = node["ref"]
        if type(number) is not int or number not in self.objects:
            raise self.refuse(where, f"reference {number!r} to no earlier object")
        return self.objects[number]

    def _new(self, cls: type, node, where):
        number = node.get("id")
        if type(number) is not int or number in self.objects:
            raise self.refuse(where, f"object id {number!r} missing or used twice")
        obj = cls.__new__(cls)  # object.__new__: no __init__, nothing the file names runs
        self.objects[number] = obj
        return obj

    def _attributes(self, mapping, where) -> dict:
        if type(mapping) is not dict or not all(_attribute_name(k) for k in mapping):
            raise self.refuse(where, "attributes that are not a mapping of names")
        return {k: self.value(v, f"{where}.{k}") for k, v in mapping.items()}

    def _generator(self, node, where):
        kind = node["generator"]
        if kind not in BIT_GENERATORS:
            raise self.refuse(where, f"a random generator {kind!r} (known: {', '.join(BIT_GENERATORS)})")
        number = node.get("id")
        if type(number) is not int or number in self.objects:
            raise self.refuse(where, f"object id {number!r} missing or used twice")
        state = self.value(node.get("state"), f"{where}.state")
        bits = getattr(np.random, kind)()
        try:
            bits.state = state
        except (TypeError, ValueError, KeyError, OverflowError) as exc:
            raise self.refuse(where, f"a {kind} state numpy does not accept ({exc})") from None
        self.objects[number] = generator = np.random.Generator(bits)
        return generator

    def _estimator(self, node, where):
        name = node["estimator"]
        if type(name) is not str or name not in self.registry.estimators:
            raise self.refuse(where, f"estimator {name!r}: not one of nbx's learners, discretizers or imputers")
        cls = self.registry.estimator_class(name)
        if cls is None:
            raise self.refuse(where, f"estimator {name!r}: its class cannot be found")
        obj = self._new(cls, node, where)
        params = self._attributes(node.get("params"), where)
        unknown = set(params) - set(cls._param_names())
        if unknown:
            raise self.refuse(where, f"{name} has no parameter {sorted(unknown)[0]!r}")
        vars(obj).update(params)
        vars(obj).update(self._attributes(node.get("state"), where))
        return obj

    def _object(self, node, where):
        spec = node["object"]
        try:
            cls = self.registry.helper_class(spec) if type(spec) is str else None
        except ValueError as exc:
            raise self.refuse(where, str(exc)) from None
        if cls is None:
            raise self.refuse(where, f"class {spec!r}")
        obj = self._new(cls, node, where)
        slots = set(_slots(cls))
        for name, value in self._attributes(node.get("state"), where).items():
            if name in slots:
                object.__setattr__(obj, name, value)  # the slot's own descriptor, not a __setattr__ of the class
            elif hasattr(obj, "__dict__"):
                vars(obj)[name] = value
            else:
                raise self.refuse(where, f"{spec} has no attribute {name!r}")
        return obj


def _attribute_name(name) -> bool:
    """An identifier, not a dunder (``__class__``, ``__dict__``: Python's own, never fitted state)."""
    return type(name) is str and _NAME.match(name) is not None and not (name.startswith("__") and name.endswith("__"))


def _hashable_key(key) -> bool:
    if type(key) is tuple:
        return all(map(_hashable_key, key))
    return key is None or type(key) in (bool, int, float, str)
