"""The base of every error a user can cause (params, catalogue, data files, stage order, command line).

Stage scripts and the ``nbx`` command print such an error as one line and exit 1; anything else is a bug
and keeps its traceback."""


class NbxError(Exception):
    """An error whose message tells the user what to fix (file, line, key)."""


def did_you_mean(name, known) -> str:
    """``; did you mean a, b?`` for the known names closest to ``name`` (else the list of known names)."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=3)
    return f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(sorted(map(str, known)))}"
