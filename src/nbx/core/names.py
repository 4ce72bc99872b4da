"""Names that become paths: experiments, learners and data sets name folders and files (data/predictions/<exp>/
<learner>/<data set>.npz) and DVC keys and stages (experiments.<exp>, prepare@<exp>). A name is letters, digits,
``_`` and ``-``, starting with a letter or digit: no path separator, no ``..``, no leading ``-`` (an option), no
``.`` (a dotted DVC key). Checked where a name is read, with one line naming its key, and again wherever a path is
made from one."""

from __future__ import annotations

import re

from nbx.core.errors import NbxError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
RULE = "letters, digits, '_' and '-', starting with a letter or digit (at most 64)"


class InvalidName(NbxError, ValueError):
    """A name that could leave its folder."""


def is_name(name) -> bool:
    return isinstance(name, str) and NAME.fullmatch(name) is not None


def path_part(name, what: str = "name") -> str:
    """``name`` when it is a valid name, to be joined to a path; else an error (no path is ever made from it)."""
    if not is_name(name):
        raise InvalidName(f"{name!r} is not a valid {what}: {RULE}")
    return name
