"""``nbx show model.nbx``: a fitted model in readable form, with the training file's attribute names and
values: class-conditional tables for naive Bayes and TAN (with each attribute's TAN parent), the chosen S1 of
HBayes, coefficients of logistic regression, members of ensembles (summarised), and the tree structure of
C4.5, NBTree, S-NBTree and leveled NB trees (:mod:`.show_trees`). Discretized attributes are shown by their
bins, e.g. ``(2.45, 4.75]``, from the cut points fitted on the training file.
"""

from __future__ import annotations

import numpy as np

from nbx.cli import show_trees
from nbx.cli.common import render
from nbx.cli.model import add_allow_pickle, load_bundle
from nbx.cli.view import View, _num, plural
from nbx.core.counting import ValueIndex


def register(sub) -> None:
    p = sub.add_parser(
        "show",
        help="print a model saved by `nbx fit` in readable form",
        description=__doc__.split("\n\n")[0].replace("``", ""),
    )
    p.add_argument("model", help="a file written by `nbx fit`")
    add_allow_pickle(p)
    p.set_defaults(func=run)


def bin_labels(cuts) -> list[str]:
    """Weka's intervals (-inf, c1], (c1, c2], ..., (cm, inf) as readable labels."""
    cuts = [_num(c) for c in cuts]
    if not cuts:
        return ["(all)"]
    return [f"<= {cuts[0]}"] + [f"({a}, {b}]" for a, b in zip(cuts, cuts[1:])] + [f"> {cuts[-1]}"]


def make_view(bundle) -> View:
    values = []
    for j, attr in enumerate(bundle.attributes):
        if attr["kind"] == "nominal":
            values.append([str(v) for v in attr["values"]])
        elif bundle.discretizer is not None:
            values.append(bin_labels(bundle.discretizer.cut_points_[j]))
        else:
            values.append([])
    return View([a["name"] for a in bundle.attributes], values, list(bundle.classes), bundle.extra)


def run(args) -> None:
    bundle = load_bundle(args.model, args.allow_pickle)
    src = bundle.source
    print(f"{args.model}: {bundle.learner} = {bundle.model!r}")
    how = f"{bundle.discretizer_spec['kind']} discretization" if bundle.discretizer is not None else "numeric kept"
    print(
        f"fitted on {src['path']} ({src['rows']} rows, sha256 {src['sha256'][:12]}...); class column "
        f"{bundle.class_column!r}; {bundle.input} input ({how}"
        + (", missing values imputed" if bundle.imputer is not None else "")
        + ")\n"
    )
    print("\n".join(describe_model(bundle.model, make_view(bundle))))


def describe_model(model, view: View) -> list[str]:
    name = type(model).__name__
    for table in (RENDERERS, show_trees.RENDERERS):
        if name in table:
            return table[name](model, view)
    lines = [repr(model)]
    if hasattr(model, "fit_info"):
        lines.append(f"fit info: {model.fit_info()}")
    return lines


def summary(model) -> str:
    """One line about a fitted model, for ensemble members."""
    name = type(model).__name__
    if hasattr(model, "n_leaves_") or hasattr(model, "n_leaves"):
        leaves = model.n_leaves_ if hasattr(model, "n_leaves_") else model.n_leaves()
        depth = model.depth_ if hasattr(model, "depth_") else model.depth()
        return f"{name}: {plural(leaves, 'leaf', 'leaves')}, depth {depth}"
    if hasattr(model, "s1_"):
        return f"{name}: |S1| = {len(model.s1_)}"
    if hasattr(model, "estimators_"):
        return f"{name}: {plural(len(model.estimators_), 'member', 'members')}"
    if hasattr(model, "class_count_"):
        return f"{name}: trained on weight {float(np.sum(model.class_count_)):.1f}"
    return name


# ---------------------------------------------------------------------------------------- Bayes models
def _prob_table(title: str, row_labels: list[str], log_p: np.ndarray, classes: list[str]) -> str:
    rows = [[label] + [f"{p:.3f}" for p in np.exp(row)] for label, row in zip(row_labels, log_p)]
    return render([title] + classes, rows, right=set(range(1, len(classes) + 1)))


def naive_bayes(model, view: View) -> list[str]:
    """P(class) and, per attribute, P(value | class) (the columns of each block sum to 1)."""
    classes = view.class_labels(model)
    counts = ", ".join(f"{c} {n:g}" for c, n in zip(classes, model.class_count_))
    out = [
        f"training weight per class: {counts}",
        "",
        _prob_table("P(class)", [""], model.class_log_prior_[None], classes),
    ]
    start = ValueIndex(model.n_values_).offsets  # each attribute's first row of log_table_
    for j, nv in enumerate(model.n_values_):
        labels = [view.value(j, v) for v in range(nv)]
        out += [
            "",
            _prob_table(f"P({view.names[j]} | class)", labels, model.log_table_[start[j] : start[j] + nv], classes),
        ]
    return out


def tan(model, view: View) -> list[str]:
    """The tree of attribute parents, then P(value | class, parent value) per attribute."""
    classes = view.class_labels(model)
    parents = [view.names[p] if p >= 0 else "-" for p in model.parents_]
    out = [
        "attribute parents (besides the class; '-' = the class only, root "
        f"{view.names[model.root_] if model.root_ >= 0 else '-'}):",
        render(["attribute", "parent"], [[n, p] for n, p in zip(view.names, parents)]),
        "",
        _prob_table("P(class)", [""], model.class_log_prior_[None], classes),
    ]
    index = model.cond_index_
    for j, nv in enumerate(model.n_values_):
        p = model.parents_[j]
        n_parent = model.n_values_[p] if p >= 0 else 1
        labels = [
            (f"{view.value(p, u)}: " if p >= 0 else "") + view.value(j, v) for u in range(n_parent) for v in range(nv)
        ]
        rows = model.cond_log_table_[index.offsets[j] : index.offsets[j] + n_parent * nv]
        given = f"class, {view.names[p]}" if p >= 0 else "class"
        out += ["", _prob_table(f"P({view.names[j]} | {given})", labels, rows, classes)]
    return out


def general_nb(model, view: View) -> list[str]:
    """GNB: class weights, the bandwidth (kernel h or Gaussian sigma) per numeric attribute and class."""
    classes = view.class_labels(model)
    rows = [
        [view.names[j]] + [_num(h) for h in model.bandwidth_[j]]
        for j in range(len(model.n_values_))
        if model.n_values_[j] == 0
    ]
    counts = ", ".join(f"{c} {n:g}" for c, n in zip(classes, model.class_count_))
    kind = "kernel bandwidth h" if model.density == "kernel" else "Gaussian sigma"
    return [
        f"training weight per class: {counts}",
        f"{kind} per numeric attribute and class:",
        render(["attribute"] + classes, rows, right=set(range(1, len(classes) + 1))),
    ]


def logistic(model, view: View) -> list[str]:
    """Coefficients on the original scale (indicator per nominal value), one column per non-reference class."""
    classes = view.class_labels(model)
    names = []
    for j in range(len(model.n_values_)):
        nv = model.n_values_[j]
        names += [f"{view.names[j]} = {view.value(j, v)}" for v in range(nv)] if nv else [view.names[j]]
    rows = [["(intercept)"] + [_num(c) for c in model.intercept_weka_]]
    rows += [[n] + [_num(c) for c in coef] for n, coef in zip(names, model.coef_weka_)]
    return [
        f"log-odds against the reference class {classes[-1]!r}:",
        render(["term"] + classes[:-1], rows, right=set(range(1, len(classes)))),
    ]


def hbayes(model, view: View) -> list[str]:
    """The chosen S1 (logistic part), S2 (generative part) and the greedy search path."""
    s1 = ", ".join(view.names[j] for j in model.s1_) or "(empty: the model is the generative part alone)"
    out = [
        f"S1 (P(C | S1) by logistic regression): {s1}",
        f"S2 ({'TAN' if hasattr(model, 'tan_') else 'naive Bayes'}): {len(model.s2_)} attributes",
        f"training accuracy: {100 * model.train_accuracy_:.2f}%",
        "search path (S1, training accuracy):",
    ]
    out += [f"  {{{', '.join(view.names[j] for j in s)}}}  {100 * acc:.2f}%" for s, acc in model.search_path_]
    if getattr(model, "tan_", None) is not None:
        sub = view.subset(model.s2_)
        parents = [sub.names[p] if p >= 0 else "-" for p in model.tan_.parents_]
        out += ["TAN parents over S2:", render(["attribute", "parent"], [[n, p] for n, p in zip(sub.names, parents)])]
    return out


def hierarchical_mixture(model, view: View) -> list[str]:
    """Wiering's hierarchy: per level (root gating layer first, experts last) its models and their counters."""
    rows = []
    for i, level in enumerate(model.levels_):
        counts = np.asarray(level["classes"])
        kind = "experts (naive Bayes over the classes)" if i == len(model.levels_) - 1 else "gating"
        rows.append([str(i), kind, str(counts.shape[0]), str(counts.shape[1]), f"{counts.sum():.1f}"])
    return [
        f"layers {list(model.layers)}:",
        render(["level", "kind", "models", "outputs", "counter total"], rows, right={2, 3, 4}),
    ]


# ------------------------------------------------------------------------------------------- ensembles
def _members(model, view: View, weights=None, errors=None, shown: int = 10) -> list[str]:
    rows = []
    for t, member in enumerate(model.estimators_[:shown]):
        row = [str(t + 1), summary(member)]
        row += [_num(weights[t])] if weights is not None else []
        row += [_num(errors[t])] if errors is not None else []
        rows.append(row)
    header = ["#", "member"] + (["vote"] if weights is not None else []) + (["error"] if errors is not None else [])
    out = [render(header, rows)]
    if len(model.estimators_) > shown:
        out.append(f"... {len(model.estimators_) - shown} more members")
    member = "\n".join(describe_model(model.estimators_[0], view.member(model)))
    return out + ["", "first member:"] + [("  " + line).rstrip() for line in member.split("\n")]


def adaboost(model, view: View) -> list[str]:
    w = np.asarray(model.estimator_weights_)
    return [
        f"{len(model.estimators_)} members, vote weights {_num(w.min())} .. {_num(w.max())}, restarts "
        f"{model.n_restarts_}, training accuracy {100 * model.train_accuracy_:.2f}%"
    ] + _members(model, view, w, model.estimator_errors_)


def bagging(model, view: View) -> list[str]:
    return [f"{len(model.estimators_)} members, {model.voting} voting"] + _members(model, view)


def muv(model, view: View) -> list[str]:
    sizes = np.asarray(model.sample_weights_).sum(axis=1)
    return [
        f"{len(model.estimators_)} members ({model.sampling} samples, combiner {model.combiner}); training "
        f"weight per member: {', '.join(_num(s) for s in sizes)}"
    ] + _members(model, view)


def muv_of_muv(model, view: View) -> list[str]:
    return [f"{len(model.estimators_)} MUVs, combiner {model.combiner}"] + _members(model, view)


RENDERERS = {
    "NaiveBayes": naive_bayes,
    "TAN": tan,
    "HierarchicalMixtureNB": hierarchical_mixture,
    "GeneralNB": general_nb,
    "LogisticRegression": logistic,
    "HBayesNB": hbayes,
    "HBayesTAN": hbayes,
    "AdaBoostM1": adaboost,
    "Bagging": bagging,
    "MUV": muv,
    "MUVofMUV": muv_of_muv,
}
