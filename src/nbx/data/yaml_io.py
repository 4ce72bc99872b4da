"""YAML files (params.yaml, catalogues) parsed once, with the line of every key for error messages.

Both files have closed schemas: a key that appears twice in one mapping is refused while loading (YAML 1.2
§3.2.1.1 requires unique keys; PyYAML would keep the last one silently), and a key that the reading code does
not know is an error of the form :func:`unknown_key` writes, at the key's line (:func:`key_lines`).

Aliases (``*name``) are bounded before anything is built: an alias that refers to a node containing it is
refused, and so are aliases that would expand the document by more than :data:`ALIAS_NODES` nodes (a "billion
laughs" of nested aliases is a few lines that expand to billions of nodes, which everything walking the document
would expand), and collections nested deeper than :data:`MAX_DEPTH` (the readers walk them recursively). A file
that is not UTF-8 text is refused at its first bad byte (:func:`read_yaml_text`)."""

import yaml

from nbx.core.errors import did_you_mean
from nbx.data.encoding import NotTextError, read_text

_MERGE = "tag:yaml.org,2002:merge"
ALIAS_NODES = 10_000  # nodes aliases may add to a document (params.yaml has none; a hand-made anchor adds tens)
MAX_DEPTH = 100  # collections in collections (params.yaml: 6 at most); far below Python's recursion limit


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping names the same key twice; ``problem_mark`` is the second occurrence."""


class AliasError(yaml.constructor.ConstructorError):
    """An alias refers to a node containing it, aliases expand beyond :data:`ALIAS_NODES`, or collections nest
    deeper than :data:`MAX_DEPTH`."""


class EncodingError(yaml.YAMLError):
    """The file is not UTF-8 text; ``problem_mark`` is where its first bad byte is."""

    def __init__(self, exc: NotTextError):
        super().__init__(exc.reason)
        self.problem = exc.reason
        self.problem_mark = yaml.Mark("", 0, exc.line - 1, exc.column - 1, None, None)


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
    line n)`` for a repeated key, ``file:line: ...`` for a refused alias, ``file:line:column: not UTF-8 text ...``
    for a file in another encoding."""
    mark = getattr(exc, "problem_mark", None)
    at = f"{path}:{mark.line + 1}" if mark else str(path)
    if isinstance(exc, EncodingError):
        return f"{at}:{mark.column + 1}: {exc.problem}"
    if isinstance(exc, DuplicateKeyError | AliasError):
        return f"{at}: {exc.problem}"
    return f"{at}: not valid YAML ({getattr(exc, 'problem', exc)})"


def read_yaml_text(path) -> str:
    """A YAML file's text; a file that is not UTF-8 raises :class:`EncodingError` (a ``yaml.YAMLError``, so the
    callers' handler of parse errors reports it, at its line and column)."""
    try:
        return read_text(path, utf8_only=True)  # what config.py's Path.read_text reads
    except NotTextError as exc:
        raise EncodingError(exc) from None


def load_yaml(text: str) -> tuple[object, object]:
    """(document, node tree) of a YAML text, parsed once; the nodes carry each key's line for error messages.
    Raises a ``yaml.YAMLError`` (:class:`DuplicateKeyError` for a repeated key, :class:`AliasError` for an alias
    refused) that :func:`yaml_error_at` turns into one line."""
    loader = UniqueKeyLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            check_aliases(node)
        return (None if node is None else loader.construct_document(node)), node
    finally:
        loader.dispose()


def check_aliases(root) -> None:
    """Refuse a node graph (aliases make it one: an alias is the anchored node met again) that has a cycle,
    collections deeper than :data:`MAX_DEPTH`, or whose tree, aliases expanded, has more than :data:`ALIAS_NODES`
    nodes beyond the ones written. Iterative, each collection visited once: linear in the text whatever the
    aliases expand to. Scalars are leaves of one node: aliases of them grow only as the text does."""
    if not isinstance(root, yaml.CollectionNode):
        return
    size: dict[int, int] = {}  # id(collection) -> nodes of its expanded tree, once its children are done
    on_path: set[int] = set()
    written = 0  # collections visited and scalars met
    stack = [(root, root.start_mark, 0)]  # (collection, where to report it, depth; -1: its children are done)
    while stack:
        node, at, depth = stack.pop()
        key = id(node)
        if depth < 0:
            on_path.discard(key)
            size[key] = total = 1 + sum(size.get(id(child), 1) for child in _children(node))
            if total - written > ALIAS_NODES:
                raise AliasError(
                    None,
                    None,
                    f"aliases expand to more than {ALIAS_NODES:,} nodes (an alias bomb?); write the values out",
                    at,
                )
            continue
        if key in size:
            continue  # an alias of a finished collection: its size is known
        if key in on_path:
            raise AliasError(None, None, "an alias refers to a collection that contains it (a recursive alias)", at)
        if depth > MAX_DEPTH:
            raise AliasError(None, None, f"collections nested deeper than {MAX_DEPTH} levels", node.start_mark)
        on_path.add(key)
        written += 1
        stack.append((node, at, -1))
        mapping = isinstance(node, yaml.MappingNode)
        for pair in node.value:
            for child in pair if mapping else (pair,):
                if isinstance(child, yaml.CollectionNode):
                    # a mapping value is reported at its key's line: an alias node carries its anchor's mark
                    stack.append((child, pair[0].start_mark if mapping else child.start_mark, depth + 1))
                else:
                    written += 1


def _children(node) -> list:
    return [child for pair in node.value for child in pair] if isinstance(node, yaml.MappingNode) else node.value


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
