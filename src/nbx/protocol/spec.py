"""What a resampling protocol may say, checked in one place for params.yaml and for ``nbx evaluate``'s options.

A protocol is a mapping (see :mod:`nbx.protocol.splits` for what each key does): ``kind`` (one of :data:`KINDS`),
``repeats`` (>= 1), ``stratified`` (true/false), for ``cv`` also ``folds`` (>= 2) and ``folds_by_dataset`` (data
set -> folds), for ``holdout`` also ``test_fraction`` (in (0, 1)). :func:`check_protocol` raises a
:class:`ProtocolError` that names the offending key; the caller says where that key came from (params.yaml's
file, line and key path, or the command-line option). No numpy here: params.yaml checks import this module.
"""

from __future__ import annotations

from nbx.core.errors import NbxError, did_you_mean

KEYS = {  # the keys a protocol of each kind may have
    "cv": ("kind", "repeats", "stratified", "folds", "folds_by_dataset"),
    "holdout": ("kind", "repeats", "stratified", "test_fraction"),
}
KINDS = tuple(KEYS)
IMPUTE = (None, "mode", "mode_after_discretize")  # an experiment's ``impute`` key, see nbx.protocol.folds


class ProtocolError(NbxError, ValueError):
    """A protocol value that cannot work; ``keys`` is the key path inside the protocol, ``message`` says why.
    For an unknown key, ``known`` are the keys allowed there and ``of`` says for what (e.g. `` (kind 'cv')``)."""

    def __init__(self, keys: tuple, message: str, known: tuple | None = None, of: str = ""):
        super().__init__(f"protocol.{'.'.join(map(str, keys))}: {message}" if keys else f"protocol: {message}")
        self.keys, self.message, self.known, self.of = tuple(keys), message, known, of


def _int(keys: tuple, value, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ProtocolError(keys, f"{value!r} must be an integer >= {low}")
    return value


def check_protocol(protocol) -> dict:
    """``protocol`` itself when every key is known for its kind (:data:`KEYS`) and every value has the right type
    and range (the data sets ``folds_by_dataset`` names are checked against the catalogue by the prepare stage)."""
    if not isinstance(protocol, dict):
        raise ProtocolError((), f"{protocol!r} must be a mapping with a 'kind'")
    kind = protocol.get("kind")
    if kind not in KINDS:
        raise ProtocolError(("kind",), f"{kind!r} must be one of {KINDS}")
    known = KEYS[kind]
    for key in protocol:
        if key not in known:
            message = f"unknown key for kind {kind!r}{did_you_mean(key, known)}"
            raise ProtocolError((key,), message, known, f" (kind {kind!r})")
    _int(("repeats",), protocol.get("repeats", 1), 1)
    if not isinstance(protocol.get("stratified", True), bool):
        raise ProtocolError(("stratified",), f"{protocol['stratified']!r} must be true or false")
    if kind == "cv":
        _int(("folds",), protocol.get("folds", 10), 2)
        by_ds = protocol.get("folds_by_dataset") or {}
        if not isinstance(by_ds, dict):
            raise ProtocolError(("folds_by_dataset",), "must be a mapping data set -> folds")
        for ds, k in by_ds.items():
            _int(("folds_by_dataset", ds), k, 2)
    else:
        fraction = protocol.get("test_fraction", 0.5)
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction < 1:
            raise ProtocolError(("test_fraction",), f"{fraction!r} must be a number in (0, 1)")
    return protocol
