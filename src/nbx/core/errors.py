"""The base of every error a user can cause (params, catalogue, data files, stage order, command line), and how
the ``nbx`` command and the stage scripts report any error: one line, exit code 1; Ctrl-C one line, exit 130;
the traceback only under ``NBX_DEBUG=1``."""

from __future__ import annotations

import os
import re
import sys
import traceback

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C
DEBUG_ENV = "NBX_DEBUG"


class NbxError(Exception):
    """An error whose message tells the user what to fix (file, line, key)."""


def did_you_mean(name, known) -> str:
    """``; did you mean a, b?`` for the known names closest to ``name`` (else the list of known names)."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=3)
    return f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(sorted(map(str, known)))}"


def _expected(exc: BaseException) -> bool:
    """An error of the user's making: ours, a file that cannot be read or written, a hyperparameter out of range
    (scikit-learn's convention, :class:`nbx.core.validation.InvalidParameterError`)."""
    # looked up, not imported: no such error exists before the module is loaded, and an import here would add
    # core/validation.py to the code digest of every stage (nbx.pipeline.code follows imports in functions too)
    validation = sys.modules.get("nbx.core.validation")
    return isinstance(exc, NbxError | OSError) or (
        validation is not None and isinstance(exc, validation.InvalidParameterError)
    )


def message(exc: BaseException) -> str:
    """One line for ``exc``: its message when the user can fix it (an OSError as ``FILE: reason``), otherwise
    ``internal error: Type: message (NBX_DEBUG=1 shows the traceback)``."""
    if isinstance(exc, OSError) and exc.filename is not None:
        text = f"{exc.filename}: {exc.strerror or exc}"
    else:
        text = str(exc)
    if not _expected(exc):
        text = f"internal error: {type(exc).__name__}{': ' + text if text else ''} ({DEBUG_ENV}=1 shows the traceback)"
    return re.sub(r"\s*\n\s*", " ", text.strip())


def debug() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def run_reported(fn, error: str, interrupted: str) -> int:
    """Call ``fn()`` and return the exit code: 0; 1 after printing ``ERROR: message`` (:func:`message`) on
    stderr; 130 after printing ``INTERRUPTED`` for Ctrl-C. ``NBX_DEBUG=1`` prints the traceback before the line."""
    try:
        fn()
    except KeyboardInterrupt:
        return _report(interrupted, EXIT_INTERRUPTED)
    except Exception as exc:  # an error may name its own place (``label``), e.g. the learner of a train stage
        return _report(f"{getattr(exc, 'label', None) or error}: {message(exc)}", EXIT_ERROR)
    return 0


def _report(line: str, code: int) -> int:
    if debug():
        traceback.print_exc()
    print(line, file=sys.stderr, flush=True)
    return code
