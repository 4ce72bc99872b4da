"""The base of every error a user can cause (params, catalogue, data files, stage order, command line).

Stage scripts and the ``nbx`` command print such an error as one line and exit 1; anything else is a bug
and keeps its traceback."""


class NbxError(Exception):
    """An error whose message tells the user what to fix (file, line, key)."""


def yaml_error_at(path, exc) -> str:
    """``file:line: not valid YAML (problem)`` for a YAML parse error."""
    mark = getattr(exc, "problem_mark", None)
    at = f"{path}:{mark.line + 1}" if mark else str(path)
    return f"{at}: not valid YAML ({getattr(exc, 'problem', exc)})"
