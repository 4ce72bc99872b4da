"""YAML files (params.yaml, catalogues) parsed once, with the line of every key for error messages."""


def yaml_error_at(path, exc) -> str:
    """``file:line: not valid YAML (problem)`` for a YAML parse error."""
    mark = getattr(exc, "problem_mark", None)
    at = f"{path}:{mark.line + 1}" if mark else str(path)
    return f"{at}: not valid YAML ({getattr(exc, 'problem', exc)})"


def load_yaml(text: str) -> tuple[object, object]:
    """(document, node tree) of a YAML text, parsed once; the nodes carry each key's line for error messages.
    libyaml's loader when installed: every stage reads params.yaml, and the pure-Python one takes ~0.1 s."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        return (None if node is None else loader.construct_document(node)), node
    finally:
        loader.dispose()
