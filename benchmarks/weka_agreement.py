"""Our emulation of Weka 3.6 against Weka 3.6's own output: Logistic, BayesNet TAN and NaiveBayes, per data set.

    python benchmarks/weka_agreement.py [--datasets iris,labor,vote] [--folds 1] [--jar /usr/share/java/weka.jar]
        [--no-cli] [--results FILE.json]

Kang & Tian (2006) ran their baselines "implemented in Weka"; params.yaml's kang2006 experiment rebuilds them:
``lr_kang_weka`` (LogisticRegression stopped where Weka's quasi-Newton optimizer stops,
src/nbx/models/weka_optimization.py), ``lr_kang`` (the same objective at its optimum), ``tan_weka`` (TAN(tree="weka"):
Weka's own tree rule, src/nbx/models/tan.py's weka_tan_tree, and α = 0.5 tables), ``tan_bayes`` (TAN with Weka's
BayesNet TAN structure score, our tree rule), ``tan`` (Friedman et al.'s CMI tree), ``nb_laplace`` (the NB column)
and ``nb_kang`` (Kang & Tian's eq. 4). This script fits them and Weka's learners on the same training rows and
compares the class distributions they give the same test rows. It times nothing.

Per data set (Weka's names, our catalogue ids read from the UCI mirror, ``NBX_UCI_MIRROR``, as weka_compare.py)
and fold (the first ``--folds`` of a stratified plan of kang2006's protocol): the kang2006 preprocessing, ten
equal-width bins fitted on the training rows and then each missing code replaced by the training mode
(nbx.protocol.folds.discretize_splits), written as nominal ARFF (values in code order, the class last, its values
in our class order, so Weka's reference class is ours); for Logistic also the undiscretized table (missing values
filled by ModeImputer, as Weka's ReplaceMissingValues) with numeric attributes as numeric, on the sets that have
some. Both sides see the same bytes; neither has a missing value left to handle its own way.

Weka runs through benchmarks/WekaProbe.java (``java -cp weka.jar WekaProbe.java``, Java 11+'s source launcher, so a
JDK): it builds each classifier with Weka's own code and prints the test rows' distributionForInstance at full
precision, BayesNet's parent sets, Logistic's coefficients (m_Par) and the options Weka reports after building.
The specs are Weka 3.6's defaults as Weka prints them (``--defaults``): ``Logistic -R 1.0E-8 -M -1``, ``BayesNet -Q
...search.local.TAN -- -S BAYES -E ...estimate.SimpleEstimator -- -A 0.5``, ``NaiveBayes``. Unless ``--no-cli``,
Weka's command line (``-t TRAIN -T TEST -p 0 -distribution``, three decimals) is run too on the first fold of each
set, and its distributions are checked against the probe's (within 5e-4).

Printed per data set (and in the JSON, per fold): max |Δp| over the test rows and classes, and the share of test
rows given the same class (argmax) -- Logistic under the emulation and at the optimum against Weka, the largest
relative difference of the coefficients (|Δ| / max(1, |Weka's|)), our iterations; TAN: whether our BAYES-score tree
has Weka's parents (directed, and as undirected edges), whether the CMI tree has Weka's edges, max |Δp| of our TAN
with Weka's score at α = 0.5 (Weka's SimpleEstimator -A 0.5) and at the block's α; NaiveBayes against nb_laplace
and nb_kang. Every number goes to ``--results`` (default benchmarks/results/weka_agreement.json, untracked).
tests/benchmarks/test_weka_agreement.py runs two small sets and asserts the tolerances (skipped without java, a
JDK or weka.jar). About two minutes for the default ten sets, one fold (two to four JVM starts per set).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from plots import Results
from weka_compare import DATASETS as WEKA_NAMES  # importing it sets the mirror and this checkout's nbx
from weka_compare import REPO, load_table

JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
PROBE = Path(__file__).resolve().with_name("WekaProbe.java")

from nbx.models.tan import weka_tan_tree  # noqa: E402  Weka 3.6's TAN search, TAN(tree="weka") (one source)

# Weka's data set names -> our catalogue ids (weka_compare.py's map): small and medium, nominal and numeric, two
# classes and more
DATASETS = {
    name: WEKA_NAMES.get(name, name)
    for name in (
        "iris",
        "labor",
        "vote",
        "breast-cancer",
        "credit-a",
        "glass",
        "zoo",
        "lymph",
        "ionosphere",
        "balance-scale",
    )
}
LOGISTIC = "weka.classifiers.functions.Logistic -R 1.0E-8 -M -1"
TAN = (
    "weka.classifiers.bayes.BayesNet -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES "
    "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5"
)
NAIVE_BAYES = "weka.classifiers.bayes.NaiveBayes"
WEKA_ALPHA = 0.5  # SimpleEstimator's -A in TAN above (Weka 3.6's default, as --defaults prints)
CLI_TOLERANCE = 5e-4  # the command line prints three decimals


# ---------------------------------------------------------------------------------------------- Weka
def unavailable(jar: Path = JAR) -> str | None:
    """Why Weka cannot run here (no java, no weka.jar, no JDK for the probe), or None."""
    java = shutil.which("java")
    if java is None:
        return "no java on PATH"
    if not Path(jar).exists():
        return f"no {jar} (apt-get install weka, or WEKA_JAR)"
    modules = subprocess.run([java, "--list-modules"], capture_output=True, text=True, check=False).stdout
    if "jdk.compiler" not in modules:
        return "java has no jdk.compiler module: WekaProbe.java needs a JDK's source launcher"
    return None


def probe(jar: Path, train: Path, test: Path, specs: list[str]) -> list[dict]:
    """Per spec what WekaProbe.java prints: options, distributions (test rows, K), parents, Logistic's m_Par."""
    out = subprocess.run(
        ["java", "-cp", str(jar), str(PROBE), str(train), str(test), *specs],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise RuntimeError(f"WekaProbe failed: {out.stderr.strip()[-2000:]}")
    runs, run = [], None
    for line in out.stdout.splitlines():
        key, _, rest = line.partition(" ")
        if key == "SPEC":
            run = {"spec": rest, "dist": [], "parents": {}, "par": {}}
        elif key == "OPTIONS":
            run["options"] = rest.strip()
        elif key == "DIST":
            run["dist"].append([float(v) for v in rest.split()[1:]])
        elif key == "PARENTS":
            node, *parents = (int(v) for v in rest.split())
            run["parents"][node] = parents
        elif key == "PAR":
            j, k, value = rest.split()
            run["par"][int(j), int(k)] = float(value)
        elif key == "END":
            run["dist"] = np.array(run["dist"])
            runs.append(run)
    return runs


def weka_defaults(jar: Path, classes: list[str]) -> dict[str, str]:
    """The options Weka reports for a classifier made by its constructor alone (Weka 3.6's defaults), and under
    ``VERSION`` weka.core.Version.VERSION."""
    out = subprocess.run(
        ["java", "-cp", str(jar), str(PROBE), "--defaults", *classes], capture_output=True, text=True, check=True
    )
    version, *lines = out.stdout.splitlines()
    return {"VERSION": version[8:], **{s[5:]: o[8:].strip() for s, o in zip(lines[0::3], lines[1::3])}}


def cli_distributions(jar: Path, spec: str, train: Path, test: Path) -> np.ndarray:
    """Weka's command line, ``-p 0 -distribution``: the test rows' distributions as printed (three decimals)."""
    name, *options = spec.split()
    out = subprocess.run(
        ["java", "-cp", str(jar), name, "-t", str(train), "-T", str(test), "-p", "0", "-distribution", *options],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0].isdigit():
            rows.append([float(v.lstrip("*")) for v in fields[-1].split(",")])
    return np.array(rows)


# ---------------------------------------------------------------------------------------------- data
def write_arff(path: Path, X: np.ndarray, y: np.ndarray, n_values: np.ndarray, n_classes: int) -> None:
    """X (codes of nominal columns, floats of numeric ones; NaN or a negative code = ?) and y as ARFF: attribute j
    ``a{j}``, nominal values ``v0 .. v{V-1}`` in code order, the class last with values ``c0 .. c{K-1}``."""
    lines = ["@relation nbx"]
    for j, v in enumerate(n_values):
        kind = "{" + ",".join(f"v{i}" for i in range(v)) + "}" if v > 0 else "numeric"
        lines.append(f"@attribute a{j} {kind}")
    lines += ["@attribute class {" + ",".join(f"c{k}" for k in range(n_classes)) + "}", "@data"]
    for row, label in zip(X, y):
        cells = [
            "?" if not np.isfinite(x) or (v > 0 and x < 0) else (f"v{int(x)}" if v > 0 else repr(float(x)))
            for x, v in zip(row, n_values)
        ]
        lines.append(",".join(cells + [f"c{int(label)}"]))
    path.write_text("\n".join(lines) + "\n")


def kang2006():
    """(params, the kang2006 experiment, its protocol as in effect) from params.yaml."""
    from nbx.pipeline.config import experiment, load_params

    params = load_params(REPO / "params.yaml")
    return params, experiment(params, "kang2006")


def learner(params, name: str, **override):
    """A params.yaml learner block built as the pipeline builds it (its pipeline keys, e.g. ``input``, left out)."""
    from nbx.pipeline.learners import PIPELINE_KEYS, make_learner

    block = {k: v for k, v in params["learners"][name].items() if k not in PIPELINE_KEYS}
    return make_learner({**block, **override})


# ---------------------------------------------------------------------------------------------- comparing
def agreement(ours: np.ndarray, weka: np.ndarray) -> dict:
    """Max |Δp| over rows and classes, and the share of rows given the same class (first maximum)."""
    return {
        "max_abs_dp": float(np.max(np.abs(ours - weka))),
        "same_class": float(np.mean(ours.argmax(axis=1) == weka.argmax(axis=1))),
    }


def edges(parents) -> set:
    """A tree's undirected edges from its attribute parents (-1 = none)."""
    return {frozenset((int(j), int(p))) for j, p in enumerate(parents) if p >= 0}


def tan_with_parents(params, parents: np.ndarray, Xtr, ytr, n_values, alpha: float):
    """tan_bayes's TAN with its CP tables refitted at ``alpha`` on the tree ``parents`` (Weka's): the tables under
    a given structure, apart from how the structure was found (TAN's own ``_fit_tables``, its fit's last step)."""
    model = learner(params, "tan_bayes", alpha=alpha).fit(Xtr, ytr, n_values=n_values)
    model.parents_ = np.asarray(parents, np.int64)
    y_idx = np.searchsorted(model.classes_, ytr)
    model._fit_tables(np.asarray(Xtr, np.int64), y_idx, np.ones(len(ytr)), len(model.classes_))
    return model


def weka_attribute_parents(run: dict, d: int) -> np.ndarray:
    """Weka's attribute parent of each attribute (node d is the class), -1 for the class alone."""
    parents = np.full(d, -1)
    for node in range(d):
        others = [p for p in run["parents"][node] if p != d]
        if d not in run["parents"][node] or len(others) > 1:
            raise AssertionError(f"Weka's TAN node {node} has parents {run['parents'][node]}: not a TAN")
        parents[node] = others[0] if others else -1
    return parents


def logistic_case(params, jar, folder, tag, Xtr, ytr, Xte, yte, n_values, n_classes, cli) -> dict:
    """Weka's Logistic against lr_kang_weka and lr_kang on one training/test pair (codes or mixed columns)."""
    from nbx.models.logistic_design import design_matrix
    from nbx.models.weka_optimization import weka_columns

    train, test = folder / f"{tag}_train.arff", folder / f"{tag}_test.arff"
    write_arff(train, Xtr, ytr, n_values, n_classes)
    write_arff(test, Xte, yte, n_values, n_classes)
    (weka,) = probe(jar, train, test, [LOGISTIC])
    out = {"weka_options": weka["options"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a fit stopped by its cap is reported in the numbers
        emulated = learner(params, "lr_kang_weka").fit(Xtr, ytr, n_values=n_values)
        exact = learner(params, "lr_kang").fit(Xtr, ytr, n_values=n_values)
    for key, model in (("emulation", emulated), ("optimum", exact)):
        out[key] = agreement(model.predict_proba(Xte), weka["dist"])
        out[key].update(n_iter=int(model.n_iter_), converged=bool(model.converged_), objective=model.objective_)
    Z, owner = design_matrix(Xtr, n_values)
    keep = weka_columns(Z, owner, np.asarray(n_values))
    par = np.zeros((1 + max(j for j, _ in weka["par"]), n_classes - 1))
    for (j, k), value in weka["par"].items():
        par[j, k] = value
    out["weka_columns"] = int(par.shape[0] - 1)
    out["our_columns"] = int(keep.sum())
    if par.shape[0] - 1 == keep.sum():
        for key, model in (("emulation", emulated), ("optimum", exact)):
            ours = np.vstack([model.intercept_weka_, model.coef_weka_[keep]])
            out[key]["coef_rel_diff"] = float(np.max(np.abs(ours - par) / np.maximum(1.0, np.abs(par))))
            out[key]["max_abs_coef"] = float(np.max(np.abs(ours)))
        out["weka_max_abs_coef"] = float(np.max(np.abs(par)))
    if cli:
        out["cli_vs_probe"] = float(np.max(np.abs(cli_distributions(jar, LOGISTIC, train, test) - weka["dist"])))
    return out


def discrete_case(params, jar, folder, codes, n_values, y, train, n_classes, cli) -> dict:
    """Weka's BayesNet TAN and NaiveBayes against our TAN and naive Bayes blocks on one fold's codes."""
    tr, te = folder / "codes_train.arff", folder / "codes_test.arff"
    write_arff(tr, codes[train], y[train], n_values, n_classes)
    write_arff(te, codes[~train], y[~train], n_values, n_classes)
    tan, nb = probe(jar, tr, te, [TAN, NAIVE_BAYES])
    d = codes.shape[1]
    Xtr, ytr, Xte = codes[train], y[train], codes[~train]
    weka_parents = weka_attribute_parents(tan, d)
    bayes = learner(params, "tan_bayes").fit(Xtr, ytr, n_values=n_values)
    matched = learner(params, "tan_bayes", alpha=WEKA_ALPHA).fit(Xtr, ytr, n_values=n_values)
    cmi = learner(params, "tan").fit(Xtr, ytr, n_values=n_values)
    weka_rule = weka_tan_tree(bayes.edge_weights_)  # Weka's search on our BAYES gains
    forced = (params, weka_parents, Xtr, ytr, n_values)
    out = {
        "tan": {
            "weka_options": tan["options"],
            "weka_parents": weka_parents.tolist(),
            "our_parents": bayes.parents_.tolist(),
            "cmi_parents": cmi.parents_.tolist(),
            "weka_rule_parents": weka_rule.tolist(),
            "weka_rule_same": bool(np.array_equal(weka_rule, weka_parents)),
            "same_parents": bool(np.array_equal(bayes.parents_, weka_parents)),
            "same_edges": edges(bayes.parents_) == edges(weka_parents),
            "cmi_same_edges": edges(cmi.parents_) == edges(weka_parents),
            "cmi_edges_differing": len(edges(cmi.parents_) ^ edges(weka_parents)) // 2,
            "alpha_weka": agreement(matched.predict_proba(Xte), tan["dist"]),
            "weka_tree_alpha_weka": agreement(tan_with_parents(*forced, WEKA_ALPHA).predict_proba(Xte), tan["dist"]),
            "weka_tree_alpha_ours": agreement(
                tan_with_parents(*forced, float(bayes.alpha)).predict_proba(Xte), tan["dist"]
            ),
            "alpha_ours": {"alpha": float(bayes.alpha), **agreement(bayes.predict_proba(Xte), tan["dist"])},
            "cmi_alpha_ours": agreement(cmi.predict_proba(Xte), tan["dist"]),
            "tan_weka_block": agreement(
                learner(params, "tan_weka").fit(Xtr, ytr, n_values=n_values).predict_proba(Xte), tan["dist"]
            ),
        },
        "nb": {
            "weka_options": nb["options"],
            **{
                key: agreement(learner(params, key).fit(Xtr, ytr, n_values=n_values).predict_proba(Xte), nb["dist"])
                for key in ("nb_laplace", "nb_kang")
            },
        },
    }
    if cli:
        out["tan"]["cli_vs_probe"] = float(np.max(np.abs(cli_distributions(jar, TAN, tr, te) - tan["dist"])))
    return out


def run_dataset(params, exp, jar: Path, name: str, folds: int, cli: bool, folder: Path) -> dict | None:
    """Every comparison on the first ``folds`` folds of one data set (None if it does not load)."""
    from nbx.protocol.folds import discretize_splits, impute
    from nbx.protocol.splits import dataset_seed, make_plan

    dataset = DATASETS.get(name, name)
    table = load_table(dataset)
    if table is None:
        return None
    protocol = {k: v for k, v in exp.protocol.items() if k != "folds_by_dataset"}
    test, _ = make_plan(table.y, protocol, dataset_seed(params["seed"], "kang2006", dataset), dataset)
    test = test[:folds]
    codes, n_values = discretize_splits(table, test, exp.discretizer, exp.impute)
    n_classes, numeric = len(table.classes), bool(np.any(table.n_values == 0))
    result = {"dataset": dataset, "rows": int(len(table.y)), "attributes": int(table.X.shape[1])}
    result.update(classes=n_classes, numeric=numeric, folds=[])
    for s in range(len(test)):
        train, first = ~test[s], cli and s == 0
        X, nv, y = codes[s].astype(float), n_values[s], table.y
        fold = {"test_rows": int(test[s].sum()), "still_missing": int(np.sum(codes[s] < 0))}
        fold["logistic_codes"] = logistic_case(
            params, jar, folder, "codes", X[train], y[train], X[~train], y[~train], nv, n_classes, first
        )
        if numeric:
            Xm = impute(table, train, "mode")
            fold["logistic_numeric"] = logistic_case(
                params,
                jar,
                folder,
                "mixed",
                Xm[train],
                y[train],
                Xm[~train],
                y[~train],
                table.n_values,
                n_classes,
                first,
            )
        fold.update(discrete_case(params, jar, folder, codes[s], nv, y, train, n_classes, first))
        result["folds"].append(fold)
    return result


def worst(result: dict, *path: str) -> float:
    """The largest value at ``path`` over a data set's folds (nan where absent)."""
    values = []
    for fold in result["folds"]:
        node = fold
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            values.append(float(node))
    return max(values) if values else float("nan")


def every(result: dict, *path: str) -> bool:
    """Whether the flag at ``path`` holds on every fold."""
    return all(fold[path[0]][path[1]] for fold in result["folds"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated Weka names or catalogue ids")
    ap.add_argument("--folds", type=int, default=1, help="the first N folds of each set's stratified 10-fold plan")
    ap.add_argument("--jar", type=Path, default=JAR, help="weka.jar (default WEKA_JAR or Debian's path)")
    ap.add_argument("--no-cli", action="store_true", help="skip the check of Weka's command line against the probe")
    ap.add_argument("--results", type=Path, default=REPO / "benchmarks" / "results" / "weka_agreement.json")
    a = ap.parse_args()
    reason = unavailable(a.jar)
    if reason:
        sys.exit(f"cannot run Weka: {reason}")
    params, exp = kang2006()
    results = Results(a.results, "weka_agreement.py", sys.argv[1:])
    defaults = weka_defaults(a.jar, [LOGISTIC.split()[0], TAN.split()[0], NAIVE_BAYES])
    version = defaults.pop("VERSION")
    part = {
        "title": "nbx's emulation of Weka against Weka's own output (test-row class distributions)",
        "settings": {"jar": str(a.jar), "weka_version": version, "weka_defaults": defaults, "folds": a.folds},
        "settings_specs": {"logistic": LOGISTIC, "tan": TAN, "naive_bayes": NAIVE_BAYES},
        "datasets": {},
        "skipped": [],
    }
    print(f"Weka {version} ({a.jar}); its defaults as it prints them:")
    for cls, options in defaults.items():
        print(f"  {cls.rsplit('.', 1)[-1]}: {options or '(none)'}")
    print(
        f"\n{'':14s} {'Logistic, max |Δp|':^35s} {'TAN tree = Weka':^21s} {'TAN, max |Δp|':^35s} {'NB, max |Δp|':^17s}"
        f"\n{'data set':14s} {'codes:emul':>10s} {'optimum':>8s} {'num:emul':>8s} {'optimum':>8s} {'ours':>5s} "
        f"{'rule':>5s} {'CMI':>5s} {'A=0.5':>8s} {'A=ours':>8s} {'W:A=0.5':>8s} {'W:A=ours':>8s} {'laplace':>8s} "
        f"{'kang':>8s}"
    )
    with tempfile.TemporaryDirectory(prefix="nbx_weka_agreement_") as tmp:
        for name in a.datasets.split(","):
            folder = Path(tmp) / name
            folder.mkdir()
            result = run_dataset(params, exp, a.jar, name, a.folds, not a.no_cli, folder)
            if result is None:
                part["skipped"].append(name)
                print(f"{name:14s} skipped (not in the catalogue or the mirror)")
                continue
            part["datasets"][name] = result
            results.add("agreement", part)
            tree = "same" if every(result, "tan", "same_parents") else "DIFF"
            tree = "edges" if tree == "DIFF" and every(result, "tan", "same_edges") else tree
            rule = "same" if every(result, "tan", "weka_rule_same") else "DIFF"
            cmi = "same" if every(result, "tan", "cmi_same_edges") else "DIFF"
            lr = [
                worst(result, f"logistic_{kind}", fit, "max_abs_dp")
                for kind in ("codes", "numeric")
                for fit in ("emulation", "optimum")
            ]
            tan = [worst(result, "tan", key, "max_abs_dp") for key in ("alpha_weka", "alpha_ours")]
            tan += [worst(result, "tan", key, "max_abs_dp") for key in ("weka_tree_alpha_weka", "weka_tree_alpha_ours")]
            nb = [worst(result, "nb", key, "max_abs_dp") for key in ("nb_laplace", "nb_kang")]
            print(
                f"{name:14s} {lr[0]:10.1e} {lr[1]:8.1e} {lr[2]:8.1e} {lr[3]:8.1e} {tree:>5s} {rule:>5s} {cmi:>5s} "
                + " ".join(f"{v:8.1e}" for v in tan + nb),
                flush=True,
            )
    print(
        "\nLogistic: codes = kang2006's ten equal-width bins, num = numeric attributes kept; emul = lr_kang_weka, "
        "optimum = lr_kang. TAN tree: ours = tan_bayes's parents equal Weka's (edges: the same undirected tree), "
        "rule = weka_tan_tree on our gains gives Weka's parents, CMI = the tan block's edges; A=0.5 / A=ours: "
        "tan_bayes's tree with α = 0.5 / its own α, W: Weka's tree with α = 0.5 / our α. NB: nb_laplace, nb_kang "
        "against Weka's NaiveBayes."
    )
    cli = [
        v
        for r in part["datasets"].values()
        for f in r["folds"]
        for v in (f["logistic_codes"].get("cli_vs_probe"), f["tan"].get("cli_vs_probe"))
        if v is not None
    ]
    if cli:
        verdict = "ok" if max(cli) <= CLI_TOLERANCE else "DIFFERENT"
        print(
            f"\nWeka's command line (-p 0 -distribution, 3 decimals) against the probe: max |Δp| {max(cli):.1e}",
            verdict,
        )
        part["settings"]["cli_vs_probe"] = max(cli)
    results.add("agreement", part)
    print(f"results: {results.path}")


if __name__ == "__main__":
    main()
