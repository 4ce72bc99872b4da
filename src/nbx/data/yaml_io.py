"""YAML files (params.yaml, catalogues) parsed once, with the line of every key for error messages.

Both files have closed schemas: a key that appears twice in one mapping is refused while loading (YAML 1.2
§3.2.1.1 requires unique keys; PyYAML would keep the last one silently), and a key that the reading code does
not know is an error of the form :func:`unknown_key` writes, at the key's line (:func:`key_lines`)."""

import yaml

from nbx.core.errors import did_you_mean

_MERGE = "tag:yaml.org,2002:merge"


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping names the same key twice; ``problem_mark`` is the second occurrence."""


class UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The safe loader (libyaml's when installed: every stage reads params.yaml, and the pure-Python parser
    takes ~0.1 s), refusing a mapping that repeats a key."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE:  # `<<: *anchor` merges; keys written beside it override on purpose
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    seen = key in first
                except TypeError:  # an unhashable key: the base class says so
                    continue
                if seen:
                    raise DuplicateKeyError(
                        None, None, f"duplicate key {key!r} (first at line {first[key]})", key_node.start_mark
                    )
                first[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def yaml_error_at(path, exc) -> str:
    """``file:line: not valid YAML (problem)`` for a YAML parse error; ``file:line: duplicate key 'k' (first at
    line n)`` for a repeated key."""
    mark = getattr(exc, "problem_mark", None)
    at = f"{path}:{mark.line + 1}" if mark else str(path)
    if isinstance(exc, DuplicateKeyError):
        return f"{at}: {exc.problem}"
    return f"{at}: not valid YAML ({getattr(exc, 'problem', exc)})"


def load_yaml(text: str) -> tuple[object, object]:
    """(document, node tree) of a YAML text, parsed once; the nodes carry each key's line for error messages.
    Raises a ``yaml.YAMLError`` (:class:`DuplicateKeyError` for a repeated key) that :func:`yaml_error_at`
    turns into one line."""
    loader = UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        return (None if node is None else loader.construct_document(node)), node
    finally:
        loader.dispose()


def key_lines(node, prefix: tuple = ()) -> dict[tuple, int]:
    """Line (1-based) of every mapping key and sequence item below a composed YAML node, by key path."""
    out: dict[tuple, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = prefix + (key.value,)
            out[path] = key.start_mark.line + 1
            out.update(key_lines(value, path))
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            out[prefix + (i,)] = value.start_mark.line + 1
            out.update(key_lines(value, prefix + (i,)))
    return out


def located(path, lines: dict[tuple, int], keys: tuple) -> str:
    """``file:LINE`` of a key path: the line of the deepest key of it that exists (``file`` when none does)."""
    for n in range(len(keys), 0, -1):
        if keys[:n] in lines:
            return f"{path}:{lines[keys[:n]]}"
    return str(path)


def unknown_key(key, known, of: str) -> str:
    """``key 'refrence' is not a known key of experiments.kang2006; did you mean reference?``: the message of
    every closed mapping, params.yaml's and the catalogues'."""
    return f"key {key!r} is not a known key of {of}{did_you_mean(key, known) if known else '; it takes no keys'}"
