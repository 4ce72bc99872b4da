"""The floor plan: no import cycle between modules or packages (the layer order itself is import-linter's
contract in pyproject.toml, run by `lint-imports`)."""

import pytest

grimp = pytest.importorskip("grimp")  # installed with import-linter (the test extra)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan), each sorted."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_cycles_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("nbx")


def test_no_module_imports_itself_back(graph):
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    assert _cycles(edges) == []


def test_no_package_imports_itself_back(graph):
    """nbx.models -> nbx.discretize and back would be a cycle here even without one between modules."""

    def package(m):
        return ".".join(m.split(".")[:2])

    edges: dict[str, set[str]] = {}
    for m in graph.modules:
        for n in graph.find_modules_directly_imported_by(m):
            if package(m) != package(n):
                edges.setdefault(package(m), set()).add(package(n))
    assert _cycles(edges) == []
