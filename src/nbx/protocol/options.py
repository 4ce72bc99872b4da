"""Typed options of a params block whose keys a module declares itself: an experiment's ``analyses`` block, read
by the paper's checks module (``nbx.papers.<experiment>.checks.OPTIONS``).

Each option has its default and its kind (a single value given for a list of values reads as a list of one).
:func:`resolve` checks a block against them and returns every option, the defaults filled in, so the module reads
``block["n_rows"]`` and states each default once. A wrong value raises a :class:`~nbx.protocol.spec.BlockError`
naming its key (the caller says which line of params.yaml). No numpy here: params.yaml checks import this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

from nbx.protocol.spec import BlockError

KINDS = ("int", "float", "str", "ints", "int lists", "strs")  # a value; a list of values; a list of lists of ints


@dataclass(frozen=True)
class Option:
    """One key of a block: its ``default``, its ``kind`` (one of :data:`KINDS`), the least value of each number
    (``low``; exclusive when ``above``) and, for strings, the values allowed (``choices``)."""

    default: object
    kind: str
    low: float | None = None
    choices: tuple[str, ...] = ()
    above: bool = False

    def check(self, keys: tuple, value, item: bool = False):
        """``value`` as this option reads it (an int given for a float becomes a float), or a BlockError; ``item``:
        ``value`` is an item of a list (a list of lists takes no single value for a list)."""
        if self.kind in ("ints", "strs", "int lists"):
            kind = {"ints": "int", "strs": "str", "int lists": "ints"}[self.kind]
            each = Option(None, kind, self.low, self.choices, self.above)
            if not item and self.kind != "int lists" and not isinstance(value, list):
                value = [value]  # one value where a list is expected: a list of one (`-S key=5` writes that)
            if not isinstance(value, list) or not value:
                raise BlockError(keys, f"{value!r} must be a non-empty list{_of(each)}")
            return [each.check(keys + (i,), v, item=True) for i, v in enumerate(value)]
        if self.kind == "str":
            if not isinstance(value, str) or (self.choices and value not in self.choices):
                raise BlockError(keys, f"{value!r} must be {_one_of(self.choices) if self.choices else 'a string'}")
            return value
        wanted = int if self.kind == "int" else Real
        if isinstance(value, bool) or not isinstance(value, wanted) or not math.isfinite(value) or self._below(value):
            raise BlockError(
                keys, f"{value!r} must be {'an integer' if self.kind == 'int' else 'a number'}{self.bound}"
            )
        return value if self.kind == "int" else float(value)

    def _below(self, value) -> bool:
        return self.low is not None and (value <= self.low if self.above else value < self.low)

    @property
    def bound(self) -> str:
        return "" if self.low is None else f" {'>' if self.above else '>='} {self.low:g}"


def _of(item: Option) -> str:
    if item.kind == "ints":
        return " of non-empty lists of integers" + item.bound
    if item.kind == "str":
        return f" of {_one_of(item.choices)}" if item.choices else " of strings"
    return f" of {'integers' if item.kind == 'int' else 'numbers'}{item.bound}"


def _one_of(choices: tuple[str, ...]) -> str:
    return "one of " + ", ".join(repr(c) for c in choices)


def resolve(options: dict[str, Option], block: dict | None) -> dict:
    """Every option of ``options``: its value in ``block`` (checked) or its default. A key ``options`` does not
    declare is an error naming the keys it does."""
    block = block or {}
    for key in block:
        if key not in options:
            raise BlockError((key,), "not a known key", known=tuple(options))
    return {
        key: option.check((key,), block[key]) if key in block else option.default for key, option in options.items()
    }
