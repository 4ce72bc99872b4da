"""Model files of ``nbx fit --save``, ``nbx predict`` and ``nbx show``: nbx's own format (:mod:`nbx.core.persist`)
with the classes a model may name, and the pickles of earlier versions only when asked for.

A model file names its learners, discretizers and imputer by their names in nbx's registries
(:data:`nbx.pipeline.learners.CLASSES`, :data:`nbx.discretize.KINDS`, ``ModeImputer``) and their helper objects
(tree nodes, index tables) by classes of nbx.models, nbx.discretize and nbx.core; nothing else loads. A pickle
is recognised by its first bytes and refused unless the caller allows it (``--allow-pickle``): unpickling runs
whatever code the file names.
"""

from __future__ import annotations

from nbx.core import container, persist
from nbx.core.errors import NbxError

HELPER_PACKAGES = ("nbx.core", "nbx.discretize", "nbx.models")  # the layers estimators and their helpers live in
SUFFIX = ".nbx"


class ModelFileError(NbxError, ValueError):
    """A model file cannot be read, or new data do not match it."""


def registry(classes: tuple[type, ...] = ()) -> persist.Registry:
    """What a model file may name: every learner, discretizer and imputer by its registry name, helper classes
    of :data:`HELPER_PACKAGES`, and ``classes`` (the command's own, such as its bundle)."""
    from nbx.discretize import KINDS, ModeImputer
    from nbx.pipeline.learners import CLASSES

    estimators = dict(CLASSES)
    for cls in [*KINDS.values(), ModeImputer]:
        estimators[cls.__name__] = f"{cls.__module__}:{cls.__qualname__}"
    return persist.Registry(estimators, HELPER_PACKAGES, tuple(classes))


def write_model(path, obj, classes: tuple[type, ...] = ()) -> None:
    """Write ``obj`` to ``path`` in nbx's model format (atomically)."""
    try:
        persist.dump(path, obj, registry(classes))
    except persist.PersistError as exc:
        raise ModelFileError(f"{path}: cannot save the model: {exc}") from None


def read_model(path, classes: tuple[type, ...] = (), allow_pickle: bool = False):
    """The object in the model file ``path``. A pickle is read only with ``allow_pickle`` (it runs code from the
    file); without, it is refused from its first bytes, before anything is unpickled."""
    try:
        data = container.read_regular_file(path)
        if container.is_zip(data):
            return persist.loads(data, registry(classes), str(path))
    except persist.PersistError as exc:
        raise ModelFileError(str(exc)) from None
    if allow_pickle:
        return _unpickle(path, data)
    if container.is_pickle(data):
        raise ModelFileError(
            f"{path}: a pickle (the model format of earlier nbx versions), refused: reading one runs code from the "
            "file; give --allow-pickle if you trust it, or fit the model again"
        )
    raise ModelFileError(f"{path}: not a model written by `nbx fit` (neither nbx's model format nor a pickle)")


def _unpickle(path, data: bytes):
    import pickle

    try:
        return pickle.loads(data)
    except Exception as exc:  # not a pickle, or one of classes that no longer exist
        raise ModelFileError(f"{path}: not a model written by `nbx fit` ({type(exc).__name__}: {exc})") from None
