"""What a resampling protocol may say, checked in one place for params.yaml and for ``nbx evaluate``'s options.

A protocol is a mapping (see :mod:`nbx.protocol.splits` for what each key does): ``kind`` (one of :data:`KINDS`),
``repeats`` (>= 1), ``stratified`` (true/false), for ``cv`` also ``folds`` (>= 2) and ``folds_by_dataset`` (data
set -> folds), for ``holdout`` also ``test_fraction`` (in (0, 1)). :func:`check_protocol` raises a
:class:`BlockError` that names the offending key; the caller says where that key came from (params.yaml's
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


class BlockError(NbxError, ValueError):
    """A value in a params block that cannot work: a resampling protocol's (here) or a learner block's
    (:mod:`nbx.pipeline.learners`), from params.yaml or the command line alike. ``keys`` is the value's key path (a
    protocol's starts with ``protocol``, a learner block's starts inside the block), ``message`` says why; the
    caller says where the block came from (params.yaml's file, line and key path, or a command-line option). For
    an unknown key, ``known`` are the keys allowed there and ``of`` follows the block's path in the message (e.g.
    `` (kind 'cv')``, `` (NaiveBayes)``)."""

    def __init__(self, keys: tuple, message: str, known: tuple | None = None, of: str = ""):
        super().__init__(f"{'.'.join(map(str, keys))}: {message}" if keys else message)
        self.keys, self.message, self.known, self.of = tuple(keys), message, known, of


def _int(keys: tuple, value, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BlockError(keys, f"{value!r} must be an integer >= {low}")
    return value


def check_protocol(protocol) -> dict:
    """``protocol`` itself when every key is known for its kind (:data:`KEYS`) and every value has the right type
    and range (the data sets ``folds_by_dataset`` names are checked against the catalogue by the prepare stage)."""
    if not isinstance(protocol, dict):
        raise BlockError(("protocol",), f"{protocol!r} must be a mapping with a 'kind'")
    kind = protocol.get("kind")
    if kind not in KINDS:
        raise BlockError(("protocol", "kind"), f"{kind!r} must be one of {KINDS}")
    known = KEYS[kind]
    for key in protocol:
        if key not in known:
            message = f"unknown key for kind {kind!r}{did_you_mean(key, known)}"
            raise BlockError(("protocol", key), message, known, f" (kind {kind!r})")
    _int(("protocol", "repeats"), protocol.get("repeats", 1), 1)
    if not isinstance(protocol.get("stratified", True), bool):
        raise BlockError(("protocol", "stratified"), f"{protocol['stratified']!r} must be true or false")
    if kind == "cv":
        _int(("protocol", "folds"), protocol.get("folds", 10), 2)
        by_ds = protocol.get("folds_by_dataset") or {}
        if not isinstance(by_ds, dict):
            raise BlockError(("protocol", "folds_by_dataset"), "must be a mapping data set -> folds")
        for ds, k in by_ds.items():
            _int(("protocol", "folds_by_dataset", ds), k, 2)
    else:
        fraction = protocol.get("test_fraction", 0.5)
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction < 1:
            raise BlockError(("protocol", "test_fraction"), f"{fraction!r} must be a number in (0, 1)")
    return protocol
