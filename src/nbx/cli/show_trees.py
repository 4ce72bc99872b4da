"""Tree structure for ``nbx show``, in Weka's indented style: one line per branch test (attribute name and
threshold or value), ``|`` per level, and what each leaf holds: C4.5 ``class (cases/errors)``, NBTree and
S-NBTree ``naive Bayes on N (class counts)``, leveled NB trees the training rows classified at each node.
"""

from __future__ import annotations

import numpy as np

from nbx.cli.view import View, _num, plural
from nbx.models.c45 import c45_lines, indented_lines


def _counts(classes: list[str], counts) -> str:
    return ", ".join(f"{c} {n:g}" for c, n in zip(classes, counts) if n > 0)


_indented = indented_lines  # the model layer's (export_text prints C4.5 trees the same way)


def _header(model, kind: str) -> list[str]:
    leaves = model.n_leaves_ if hasattr(model, "n_leaves_") else model.n_leaves()
    depth = model.depth_ if hasattr(model, "depth_") else model.depth()
    return [f"{kind}: {plural(leaves, 'leaf', 'leaves')}, depth {depth}", ""]


def c45(model, view: View) -> list[str]:
    classes = view.class_labels(model)
    return _header(model, "C4.5 tree") + c45_lines(model, view.names, view.value, classes)


def nbtree(model, view: View) -> list[str]:
    classes = view.class_labels(model)
    out = _header(model, "NBTree") + (
        ["(a missing split value follows the branch of the node's most frequent value)"] if model.tree_.children else []
    )

    def leaf(node) -> str:
        counts = node.model.class_count_
        return f"naive Bayes on {counts.sum():g} ({_counts(classes, counts)})"

    def branches(node):
        if node.children is None:
            return None
        return [
            (f"{view.names[node.attr]} = {view.value(node.attr, v)}", child)
            for v, child in sorted(node.children.items())
        ]

    return out + _indented(model.tree_, branches, leaf)


def snbtree(model, view: View) -> list[str]:
    classes = view.class_labels(model)
    out = _header(model, "S-NBTree")

    def tests(node) -> dict[int, str]:
        name = view.names[node.attr]
        if node.cuts is None:
            return {b: f"{name} = {view.value(node.attr, b)}" for b in node.children}
        c = [_num(x) for x in node.cuts]
        labels = [f"{name} < {c[0]}"] + [f"{a} <= {name} < {b}" for a, b in zip(c, c[1:])] + [f"{name} >= {c[-1]}"]
        return {b: labels[b] for b in node.children}

    def leaf(node) -> str:
        if node.model is None:
            return f"{classes[node.label]} (pure)"
        counts = node.model.class_count_
        return f"{node.model.density} NB on {counts.sum():g} ({_counts(classes, counts)})"

    def branches(node):
        return None if node.children is None else [(tests(node)[b], c) for b, c in sorted(node.children.items())]

    return out + _indented(model.tree_, branches, leaf)


def _upper_end(label: str) -> str:
    """The upper end of an interval label of :func:`nbx.cli.show.bin_labels` ('<= c', '(a, b]'); a bare
    code (no labels) is returned as 'code N'."""
    if label.startswith("<= "):
        return label[3:]
    if label.startswith("(") and label.endswith("]"):
        return label[:-1].rpartition(", ")[2]
    return f"code {label}"


def leveled(model, view: View) -> list[str]:
    out = _header(model, f"leveled NB tree (depth limit {model.max_depth})")
    sizes = getattr(model, "node_weight_", None)
    if sizes is None:
        sizes = view.extra.get("node_rows", np.full(len(model.node_attribute_), np.nan))
        out.insert(
            1,
            "(n = training rows that reach the leaf when classified; a row whose split value is missing "
            "is classified by the internal node instead)",
        )

    def leaf(node: int) -> str:
        return f"naive Bayes (n = {_num(sizes[node])})"

    def branches(node: int):
        j, t = model.node_attribute_[node], model.node_threshold_[node]
        if j < 0:
            return None
        if t >= 0 and getattr(model, "cuts", "codes") == "values":  # x <= a raw training value (C4.5's threshold)
            cut = f"{model.node_cut_[node]:.6g}"
            tests = {0: f"{view.names[j]} <= {cut}", 1: f"{view.names[j]} > {cut}"}
        elif t >= 0:  # code <= t: the value is at most the upper end of interval t
            cut = _upper_end(view.value(j, t))
            tests = {0: f"{view.names[j]} <= {cut}", 1: f"{view.names[j]} > {cut}"}
        else:
            tests = {v: f"{view.names[j]} = {view.value(j, v)}" for v in range(model.n_values_[j])}
        return [(tests[b], child) for b, child in model.node_children(node).items()]

    return out + _indented(0, branches, leaf)


RENDERERS = {"C45Tree": c45, "NBTree": nbtree, "SelfAdaptiveNBTree": snbtree, "LeveledNBTree": leveled}
