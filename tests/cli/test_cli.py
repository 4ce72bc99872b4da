"""The ``nbx`` command (README.md, "The `nbx` command"), run in-process through ``nbx.cli.main``: its numbers
equal the library run by hand on a file read independently (pandas), and every user error is one line with exit
code 1."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from cli_run import nbx

from nbx.cli import main
from nbx.discretize import make_discretizer
from nbx.models.c45 import C45Tree
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN
from nbx.protocol.splits import dataset_seed, make_plan
from nbx.stats import significance as stats

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


@pytest.fixture(scope="module")
def data_csv(tmp_path_factory) -> Path:
    """120 rows: a numeric attribute that predicts the class, a nominal one that mostly does, numeric noise;
    empty cells and NA here and there; a header line of names."""
    rng = np.random.default_rng(0)
    n = 120
    y = rng.integers(0, 2, n)
    size = np.round(rng.normal(2.0 * y, 1.0), 3).astype(str)
    colour = np.where(rng.random(n) < 0.8, np.where(y == 1, "red", "blue"), rng.choice(["red", "blue", "green"], n))
    noise = np.round(rng.normal(0, 1, n), 3).astype(str)
    size[::11], colour[3::13], noise[5::17] = "", "NA", "NA"
    lines = ["size,colour,noise,label"] + [",".join(r) for r in zip(size, colour, noise, np.where(y, "yes", "no"))]
    path = tmp_path_factory.mktemp("data") / "toy.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def by_hand(path: Path):
    """X (nominal as codes in sorted order), n_values, y, read by pandas (empty cells and NA are NaN)."""
    frame = pd.read_csv(path)
    colour = sorted(frame["colour"].dropna().unique())
    X = np.column_stack([frame["size"], frame["colour"].map({c: k for k, c in enumerate(colour)}), frame["noise"]])
    classes = sorted(frame["label"].unique())
    return X.astype(float), np.array([0, len(colour), 0]), frame["label"].map(classes.index).to_numpy(), colour


def accuracy(out: str, learner: str) -> tuple[float, float, str]:
    m = re.search(rf"^{re.escape(learner)}\s+\w+\s+([\d.]+) ±\s+([\d.]+) ([v*]?)", out, re.M)
    assert m, out
    return float(m[1]), float(m[2]), m[3]


# ------------------------------------------------------------------------------------------------ evaluate
def test_evaluate_equals_the_library_by_hand(capsys, in_repo, data_csv):
    code, out, err = nbx(capsys, "evaluate", data_csv, "--learners", "nb_laplace,c45,TAN(alpha=0.5)", "--cv", 5)
    assert code == 0, err
    X, nv, y, _ = by_hand(data_csv)
    test, _ = make_plan(y, {"kind": "cv", "folds": 5, "stratified": True}, dataset_seed(1, "evaluate"))
    acc = {"nb_laplace": [], "c45": [], "TAN(alpha=0.5)": []}
    for mask in test:
        train = ~mask
        disc = make_discretizer({"kind": "mdl", "n_values": nv}).fit(X[train], y[train])
        codes, cards = disc.transform(X), disc.n_values_
        for name, model, inputs, values in [
            ("nb_laplace", NaiveBayes(prior="laplace", alpha=1.0), codes, cards),
            ("c45", C45Tree(), X, nv),
            ("TAN(alpha=0.5)", TAN(alpha=0.5), codes, cards),
        ]:
            model.fit(inputs[train], y[train], n_values=values)
            acc[name].append(np.mean(model.predict(inputs[mask]) == y[mask]) * 100)
    for name, values in acc.items():
        mean, std, mark = accuracy(out, name)
        assert mean == pytest.approx(np.mean(values), abs=0.005) and std == pytest.approx(
            np.std(values, ddof=1), abs=0.005
        )
        if name != "nb_laplace":
            p = stats.corrected_t(np.array(values), np.array(acc["nb_laplace"]), test.sum(1).mean() / len(y))
            assert (mark != "") == (p < 0.05 and np.mean(values) != np.mean(acc["nb_laplace"]))
    assert "120 rows, 3 attributes (2 numeric, 1 nominal), 2 classes" in out


def test_evaluate_is_repeatable_and_takes_an_arff(capsys, in_repo, data_csv, tmp_path):
    first = nbx(capsys, "evaluate", data_csv, "--learners", "nb_kang", "--cv", 3, "--seed", 7)[1]
    second = nbx(capsys, "evaluate", data_csv, "--learners", "nb_kang", "--cv", 3, "--seed", 7)[1]
    assert accuracy(second, "nb_kang") == accuracy(first, "nb_kang")
    X, _, y, colour = by_hand(data_csv)
    arff = [
        "@relation toy",
        "@attribute size numeric",
        f"@attribute colour {{{','.join(colour)}}}",
        "@attribute noise numeric",
        "@attribute label {no,yes}",
        "@data",
    ]
    for row, label in zip(X, y):
        cells = ["?" if np.isnan(v) else (colour[int(v)] if j == 1 else repr(float(v))) for j, v in enumerate(row)]
        arff.append(",".join(cells + [["no", "yes"][label]]))
    (tmp_path / "toy.arff").write_text("\n".join(arff) + "\n")
    code, again, err = nbx(capsys, "evaluate", tmp_path / "toy.arff", "--learners", "nb_kang", "--cv", 3, "--seed", 7)
    assert code == 0, err
    assert accuracy(again, "nb_kang") == accuracy(first, "nb_kang")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["evaluate", "{data}", "--learners", "nb_lapalce"], r"unknown learner 'nb_lapalce'; did you mean nb_laplace"),
        (["evaluate", "{data}", "--learners", "nb_laplace", "--cv", "ten"], r"--cv: invalid int value: 'ten'"),
        (
            ["evaluate", "{data}", "--learners", "nb_laplace", "--cv", "500"],
            r"--cv: 500 must be at most the 120 rows of "
            r"data set 'toy'$",
        ),
        (["evaluate", "{data}", "--learners", "nb_laplace", "--cv", "1"], r"--cv: 1 must be an integer >= 2$"),
        (
            ["evaluate", "{data}", "--learners", "nb_laplace", "--repeats", "0"],
            r"--repeats: 0 must be an integer >= 1$",
        ),
        (["evaluate", "{data}", "--learners", "nb_laplace", "--discretizer", "mdll"], r"--discretizer: .*'mdll'"),
        (
            ["evaluate", "{data}", "--learners", "nb_laplace", "--class", "lable"],
            r"no column 'lable'.*did you mean label",
        ),
        (["evaluate", "nothere.csv", "--learners", "nb_laplace"], r"nothere\.csv: no such file"),
        (["evalute", "{data}"], r"unknown command 'evalute'; did you mean evaluate"),
        (["results", "kang"], r"params\.yaml:\d+: experiments: unknown experiment 'kang'; did you mean kang2006"),
        (["learners", "hbayes"], r"unknown learner 'hbayes'; did you mean hbayes_nb, hbayes_tan"),
        (["show", "{data}"], r"not a model written by `nbx fit`"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_1(capsys, in_repo, data_csv, argv, message):
    code, _out, err = nbx(capsys, *[a.format(data=data_csv) for a in argv])
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith("nbx: note: "))
    assert code == 1 and err.count("\n") == 1 and err.startswith("nbx: error: "), err
    assert re.search(message, err), err


# A learner spec is built and checked (nested blocks too) before the data file is read: none exists here.
@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["evaluate", "nothere.csv", "--learners", "nb_laplace,NaiveBayes(prior=laplace, alpah=2)"],
            "--learners: NaiveBayes(prior=laplace, alpah=2): alpah: NaiveBayes has no parameter 'alpah'; did you mean alpha?",
        ),
        (
            ["evaluate", "nothere.csv", "--learners", "TAN(criterion=bayse)"],
            "--learners: TAN(criterion=bayse): criterion: The 'criterion' parameter of TAN must be a str among "
            "{'cmi', 'bayes'}. Got 'bayse' instead.",
        ),
        (
            ["evaluate", "nothere.csv", "--learners", "AdaBoostM1(base=NaiveBayes(alpha=-1), n_estimators=10)"],
            "--learners: AdaBoostM1(base=NaiveBayes(alpha=-1), n_estimators=10): base.alpha: The 'alpha' parameter of "
            "NaiveBayes must be a float in the range [0.0, inf). Got -1 instead.",
        ),
        (
            ["evaluate", "nothere.csv", "--learners", "MUVofMUV(members=[MUV(), MUV(n_estimators=0)])"],
            "--learners: MUVofMUV(members=[MUV(), MUV(n_estimators=0)]): members.1.n_estimators: The 'n_estimators' "
            "parameter of MUV must be an int in the range [1, inf). Got 0 instead.",
        ),
        (
            ["evaluate", "nothere.csv", "--learners", "NaiveBayes(numeric_ordinal=true)"],
            "--learners: NaiveBayes(numeric_ordinal=true): numeric_ordinal: NaiveBayes has no 'ordinal' parameter to set",
        ),
        (
            ["fit", "nothere.csv", "--learner", "SelfAdaptiveNBTree(leaf=GeneralNB(density=kde))", "--save", "m.nbx"],
            "--learner: SelfAdaptiveNBTree(leaf=GeneralNB(density=kde)): leaf.density: The 'density' parameter of "
            "GeneralNB must be a str among {'kernel', 'gaussian'}. Got 'kde' instead.",
        ),
    ],
)
def test_bad_learner_specs_stop_before_the_data_is_read(capsys, in_repo, argv, message):
    assert nbx(capsys, *argv) == (1, "", f"nbx: error: {message}\n")


def test_a_bad_params_yaml_learner_named_on_the_command_line_names_its_line(capsys, tmp_path, monkeypatch):
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["learners"]["boosting_nb"]["base"]["alpha"] = -1
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    line = next(
        i
        for i, text in enumerate((tmp_path / "params.yaml").read_text().splitlines(), 1)
        if text.strip() == "alpha: -1"
    )
    monkeypatch.chdir(tmp_path)
    assert nbx(capsys, "evaluate", "nothere.csv", "--learners", "boosting_nb") == (
        1,
        "",
        f"nbx: error: params.yaml:{line}: learners.boosting_nb.base.alpha: The 'alpha' parameter of NaiveBayes "
        "must be a float in the range [0.0, inf). Got -1 instead.\n",
    )


def test_a_spec_is_the_params_block_it_reads_as():
    """The command line's text and params.yaml's block go through one builder: the same estimator."""
    from nbx.cli.common import resolve_learner
    from nbx.models.ensembles import AdaBoostM1
    from nbx.models.muv import MUV, MUVofMUV
    from nbx.pipeline.learners import build

    text = "AdaBoostM1(base=NaiveBayes(prior=m_estimate, m=2), n_estimators=10)"
    block = {"class": "AdaBoostM1", "base": {"class": "NaiveBayes", "prior": "m_estimate", "m": 2}, "n_estimators": 10}
    learner = resolve_learner(text, None)
    assert learner.spec == block
    assert (
        repr(learner.setup.estimator)
        == repr(build(block, "x").estimator)
        == repr(AdaBoostM1(base=NaiveBayes(prior="m_estimate", m=2), n_estimators=10))
    )
    members = resolve_learner("MUVofMUV(members=[MUV(n_estimators=2), MUV()])", None).setup.estimator
    assert repr(members) == repr(MUVofMUV(members=[MUV(n_estimators=2), MUV()]))
    c45 = resolve_learner("C45Tree(confidence=0.1, input=discrete)", None)
    assert (repr(c45.setup.estimator), c45.setup.input) == (repr(C45Tree(confidence=0.1)), "discrete")


def test_entry_point_runs_as_a_program(data_csv):
    assert 'nbx = "nbx.cli:main"' in (REPO / "pyproject.toml").read_text().split("[project.scripts]")[1]
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-m", "nbx.cli", "evaluate", str(data_csv), "--learners", "nb_lapalce"],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "did you mean nb_laplace" in out.stderr


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    for command in ("evaluate", "fit", "predict", "show", "datasets", "learners", "add-data", "results", "timings"):
        assert re.search(rf"^    {command}\s+\S", out, re.M), command


def test_the_commands_load_scipy_stats_only_where_they_test(data_csv):
    """scipy.stats takes about 0.8 s to import: building the parser (every command) and a one-learner evaluate
    must not pay it; evaluating two learners (a t-test) does."""
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}
    code = (
        "import sys; from nbx.cli import build_parser, main; build_parser(); print('scipy.stats' in sys.modules); "
        f"main(['evaluate', {str(data_csv)!r}, '--cv', '2', '--learners', sys.argv[1]]); "
        "print('scipy.stats' in sys.modules)"
    )
    for learners, after in (("nb_laplace", "False"), ("nb_laplace,c45", "True")):
        out = subprocess.run([sys.executable, "-c", code, learners], cwd=REPO, capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.strip().splitlines()
        assert (lines[0], lines[-1]) == ("False", after)


# -------------------------------------------------------------------------------------- fit, predict, show
def test_fit_then_predict_reproduces_predict_proba(capsys, in_repo, data_csv, tmp_path):
    code, out, err = nbx(capsys, "fit", data_csv, "--learner", "tan", "--save", tmp_path / "m.nbx")
    assert code == 0, err
    code, _out, err = nbx(capsys, "predict", tmp_path / "m.nbx", data_csv, "--output", tmp_path / "p.csv")
    assert code == 0 and "accuracy on the 120 rows with a class" in err
    X, nv, y, _ = by_hand(data_csv)
    disc = make_discretizer({"kind": "mdl", "n_values": nv}).fit(X, y)
    proba = TAN(alpha=1.0).fit(disc.transform(X), y, n_values=disc.n_values_).predict_proba(disc.transform(X))
    got = pd.read_csv(tmp_path / "p.csv")
    np.testing.assert_array_equal(got[["P(no)", "P(yes)"]].to_numpy(), proba)
    assert got["line"].tolist() == list(range(2, 122))
    assert (got["predicted"] == np.array(["no", "yes"])[proba.argmax(1)]).all()


def test_predict_matches_columns_by_name_and_reads_unseen_values_as_missing(capsys, in_repo, data_csv, tmp_path):
    nbx(capsys, "fit", data_csv, "--learner", "nb_laplace", "--save", tmp_path / "m.nbx")
    (tmp_path / "new.csv").write_text("noise,extra,colour,size\n0.1,x,purple,2.5\n0.1,x,,2.5\n")
    code, out, err = nbx(capsys, "predict", tmp_path / "m.nbx", tmp_path / "new.csv")
    assert code == 0 and "'colour': 1 value(s) not seen in training read as missing (first: 'purple', line 2)" in err
    rows = list(pd.read_csv(pd.io.common.StringIO(out)).itertuples(index=False))
    assert rows[0][1:] == rows[1][1:] and "actual" not in out.splitlines()[0]
    code, out, err = nbx(capsys, "predict", tmp_path / "m.nbx", data_csv.with_name("nothere.csv"))
    assert code == 1
    (tmp_path / "bad.csv").write_text("noise,colr,size\n0.1,red,2.5\n")
    code, out, err = nbx(capsys, "predict", tmp_path / "m.nbx", tmp_path / "bad.csv")
    assert code == 1 and "no column 'colour'" in err and "did you mean colr" in err


def test_show_prints_tables_with_header_names(capsys, in_repo, data_csv, tmp_path):
    X, nv, y, colour = by_hand(data_csv)
    shown = {}
    for learner in ("nb_laplace", "tan", "hbayes_nb", "boosting_nb"):
        assert nbx(capsys, "fit", data_csv, "--learner", learner, "--save", tmp_path / "m.nbx")[0] == 0
        shown[learner] = nbx(capsys, "show", tmp_path / "m.nbx")[1]
    disc = make_discretizer({"kind": "mdl", "n_values": nv}).fit(X, y)
    codes, cards = disc.transform(X), disc.n_values_
    nb = NaiveBayes(prior="laplace", alpha=1.0).fit(codes, y, n_values=cards)
    red = np.exp(nb.log_table_[cards[0] + colour.index("red")])
    assert "P(colour | class)" in shown["nb_laplace"]
    assert re.search(rf"^red\s+{red[0]:.3f}\s+{red[1]:.3f}$", shown["nb_laplace"], re.M)
    cut = disc.cut_points_[0][0]
    assert re.search(rf"^P\(size \| class\)\s+no\s+yes\n-+.*\n<= {cut:.6g}\s", shown["nb_laplace"], re.M)
    parents = TAN(alpha=1.0).fit(codes, y, n_values=cards).parents_
    names = ["size", "colour", "noise"]
    for j, p in enumerate(parents):
        assert re.search(rf"^{names[j]}\s+{names[p] if p >= 0 else '-'}$", shown["tan"], re.M)
    assert "S1 (P(C | S1) by logistic regression)" in shown["hbayes_nb"]
    assert "10 members" in shown["boosting_nb"] and "first member:" in shown["boosting_nb"]


@pytest.fixture(scope="module")
def tree_csvs(tmp_path_factory) -> tuple[Path, Path]:
    """Data every tree learner splits: numeric a, b with an interaction (the class follows a, on a side that
    depends on b); nominal colour xor shape with 10% noise (naive Bayes alone is at chance, so NBTree splits)."""
    rng = np.random.default_rng(5)
    a, b, c = rng.uniform(-1, 1, (3, 300))
    label = np.where(np.where(b > 0, a > 0.3, a < -0.3), "odd", "even")
    folder = tmp_path_factory.mktemp("trees")
    (folder / "num.csv").write_text(
        "a,b,c,parity\n" + "".join(f"{x:.4f},{y:.4f},{z:.4f},{k}\n" for x, y, z, k in zip(a, b, c, label))
    )
    colour, shape = rng.choice(["red", "blue"], 300), rng.choice(["round", "square"], 300)
    odd = (colour == "red") ^ (shape == "round") ^ (rng.random(300) < 0.1)
    (folder / "nom.csv").write_text(
        "colour,shape,parity\n"
        + "".join(f"{x},{y},{k}\n" for x, y, k in zip(colour, shape, np.where(odd, "odd", "even")))
    )
    return folder / "num.csv", folder / "nom.csv"


def test_show_prints_tree_splits_by_header_name(capsys, in_repo, tree_csvs, tmp_path):
    from nbx.models.kernel_nb import GeneralNB
    from nbx.models.leveled_tree import LeveledNBTree
    from nbx.models.nbtree import NBTree
    from nbx.models.snbtree import SelfAdaptiveNBTree

    shown = {}
    for learner, path in (("c45", 0), ("snbtree", 0), ("lnbt3_threshold", 0), ("lnbt3_rawcut", 0), ("nbtree", 1)):
        assert nbx(capsys, "fit", tree_csvs[path], "--learner", learner, "--save", tmp_path / "m.nbx")[0] == 0
        shown[learner] = nbx(capsys, "show", tmp_path / "m.nbx")[1]
    frame = pd.read_csv(tree_csvs[0])
    X, y = frame[["a", "b", "c"]].to_numpy(), (frame["parity"] == "odd").to_numpy().astype(int)
    root = C45Tree().fit(X, y).tree_
    name, child = "abc"[root.attr], root.children[0]
    assert re.search(rf"^{name} <= {root.threshold:.6g}\n(\|   .*\n)+{name} > {root.threshold:.6g}", shown["c45"], re.M)
    assert re.search(rf"^\|   {'abc'[child.attr]} <= {child.threshold:.6g}$", shown["c45"], re.M)
    assert re.search(r"^\|   \|   .*: (odd|even) \(\d+\.\d(/\d+\.\d)?\)$", shown["c45"], re.M)
    snb = SelfAdaptiveNBTree(leaf=GeneralNB(density="kernel")).fit(X, y).tree_
    first = snb.children[min(snb.children)]
    if first.children:  # an internal node: its own tests follow, indented
        nested = rf"\n\|   {'abc'[first.attr]} < {first.cuts[0]:.6g}: "
        assert re.search(rf"^{'abc'[snb.attr]} < {snb.cuts[0]:.6g}{nested}", shown["snbtree"], re.M)
    else:
        leaf = "(pure)" if first.model is None else f"kernel NB on {first.model.class_count_.sum():g} "
        assert re.search(rf"^{'abc'[snb.attr]} < {snb.cuts[0]:.6g}: .*{re.escape(leaf)}", shown["snbtree"], re.M)
    disc = make_discretizer({"kind": "mdl"}).fit(X, y)
    # lnbt3_threshold cuts the numeric columns (numeric_ordinal): 'a <= cut' / 'a > cut' at the MDL cut of its code t
    lnbt = LeveledNBTree(max_depth=3, min_split=30, m=2.0, ordinal=[0, 1, 2]).fit(
        disc.transform(X), y, n_values=disc.n_values_
    )
    j, t = lnbt.node_attribute_[0], lnbt.node_threshold_[0]
    cut = f"{disc.cut_points_[j][t]:.6g}"
    assert re.search(rf"^{'abc'[j]} <= {cut}(: naive Bayes \(n = \d+\))?$", shown["lnbt3_threshold"], re.M)
    assert re.search(rf"^{'abc'[j]} > {cut}(: naive Bayes \(n = \d+\))?$", shown["lnbt3_threshold"], re.M)
    # lnbt3_rawcut cuts the raw values: 'a <= v' at a training value, C4.5's threshold
    raw = LeveledNBTree(max_depth=3, min_split=30, m=2.0, ordinal=[0, 1, 2], cuts="values").fit(X, y)
    j, cut = raw.node_attribute_[0], f"{raw.node_cut_[0]:.6g}"
    assert np.isin(raw.node_cut_[0], X[:, j])
    assert re.search(rf"^{'abc'[j]} <= {cut}(: naive Bayes \(n = \d+\))?$", shown["lnbt3_rawcut"], re.M)
    nom = pd.read_csv(tree_csvs[1])
    codes = np.column_stack([nom["colour"].map({"blue": 0, "red": 1}), nom["shape"].map({"round": 0, "square": 1})])
    tree = NBTree(random_state=1).fit(codes, nom["parity"].to_numpy()).tree_
    assert tree.children and re.search(
        rf"^{['colour', 'shape'][tree.attr]} = \w+: naive Bayes on \d+ ", shown["nbtree"], re.M
    )


# ------------------------------------------------------------------------------------------------ add-data
def test_add_data_then_prepare_builds_the_table_with_header_names(capsys, tmp_path, data_csv, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "local").mkdir(parents=True)
    (tmp_path / "data" / "local" / "toy.csv").write_bytes(data_csv.read_bytes())
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    code, out, err = nbx(capsys, "add-data", "data/local/toy.csv", "--name", "toy")
    assert code == 0, err
    assert "120 rows, 3 attributes (2 numeric, 1 nominal), 2 classes (class column 'label'); columns ncny" in out
    assert "    - data/local/catalogue.yaml" in out and "toy: toy" in out
    entry = yaml.safe_load((tmp_path / "data" / "local" / "catalogue.yaml").read_text())["datasets"]["toy"]
    assert entry["files"] == [{"path": "data/local/toy.csv"}]  # under data/local: no sha256
    params["data"]["catalogues"] = ["data/local/catalogue.yaml"]
    params["experiments"]["kang2006"]["datasets"] = {"Toy": "toy"}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    from nbx.pipeline import config
    from nbx.pipeline.inputs import load_table
    from nbx.pipeline.prepare import prepare

    assert prepare(config.load_params(), "kang2006")["toy"]["available"]
    table = load_table("kang2006", "toy")
    assert [a["name"] for a in table.attributes] == ["size", "colour", "noise"] and table.classes == ["no", "yes"]
    X, _, y, _ = by_hand(data_csv)
    np.testing.assert_array_equal(table.X, X)
    np.testing.assert_array_equal(table.y, y)
    assert (
        "then `dvc repro`" in nbx(capsys, "add-data", "data/local/toy.csv", "--name", "toy", "--replace")[1]
    )  # listed now


@pytest.mark.parametrize(
    "file, catalogue, message",
    [
        ("toy.csv", "data/local/mine.yaml", "toy.csv: not under data/local/; copy it there first"),
        (
            "data/local/../../toy.csv",
            "data/local/mine.yaml",
            "data/local/../../toy.csv: not under data/local/; copy it there first",
        ),
        ("data/local/toy.csv", "mine.yaml", "--catalogue: mine.yaml must be a file under data/local/"),
    ],
)
def test_add_data_keeps_files_and_catalogues_under_data_local(
    capsys, tmp_path, data_csv, monkeypatch, file, catalogue, message
):
    """The prepare stages depend on data/local/ by content: a file elsewhere would be read without DVC seeing it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "local").mkdir(parents=True)
    for path in ("toy.csv", "data/local/toy.csv"):
        (tmp_path / path).write_bytes(data_csv.read_bytes())
    code, out, err = nbx(capsys, "add-data", file, "--name", "toy", "--catalogue", catalogue)
    assert code == 1 and err.startswith(f"nbx: error: {message}")
    assert not list(tmp_path.rglob("*.yaml"))


# ------------------------------------------------------------------------------------- results and timings
def results_repo(tmp_path: Path, learners: list[str], datasets: dict, acc) -> None:
    """A params.yaml whose kang2006 block has these learners and data sets, and a hand-made results CSV."""
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    block = params["experiments"]["kang2006"]
    block.update(learners=learners, reference=learners[0], datasets=datasets)
    block["protocol"] = {"kind": "cv", "folds": 10, "repeats": 1, "stratified": True}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    lines = ["dataset,learner,split,repeat,test_rows,accuracy"]
    for (ds, learner), values in acc.items():
        lines += [f"{ds},{learner},{s},0,10,{a:.6f}" for s, a in enumerate(values)]
    (tmp_path / "data" / "results").mkdir(parents=True)
    (tmp_path / "data" / "results" / "kang2006.csv").write_text("\n".join(lines) + "\n")


def test_results_marks_by_the_corrected_resampled_t_test(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = np.array([0.80, 0.82, 0.78, 0.81, 0.79, 0.80, 0.83, 0.77, 0.80, 0.80])
    acc = {
        ("iris", "nb_kang"): base,
        ("iris", "tan"): base + [0.1, 0.12, 0.08, 0.1, 0.1, 0.11, 0.09, 0.1, 0.1, 0.1],
        ("iris", "c45_kang"): base[::-1],
        ("wine", "nb_kang"): base,
        ("wine", "tan"): base - np.linspace(0.05, 0.15, 10),
        ("wine", "c45_kang"): base + [0, 0.02] * 5,
    }
    results_repo(tmp_path, ["nb_kang", "tan", "c45_kang"], {"Iris": "iris", "Wine": "wine"}, acc)
    code, out, err = nbx(capsys, "results", "kang2006")
    assert code == 0, err
    counts = {"tan": [0, 0, 0], "c45_kang": [0, 0, 0]}
    for ds in ("iris", "wine"):
        expected = []
        for x in ("nb_kang", "tan", "c45_kang"):
            a, b = acc[(ds, x)] * 100, base * 100
            p = stats.corrected_t(a, b, 0.1) if x != "nb_kang" else 1.0  # 10-fold CV: tests on 1/10
            mark = ("v" if a.mean() > b.mean() else "*") if p < 0.05 else ""
            if x != "nb_kang":
                counts[x]["v *".index(mark or " ")] += 1
            expected.append(rf"{a.mean():.2f} ±\s+{a.std(ddof=1):.2f}\s*{re.escape(mark)}")
        line = next(line for line in out.splitlines() if line.startswith(f"{ds} (10)"))
        assert re.fullmatch(rf"{ds} \(10\)\s+" + r"\s+".join(expected), line.rstrip()), line
    assert counts == {"tan": [1, 0, 1], "c45_kang": [0, 2, 0]}  # both directions and a tie are exercised
    assert re.search(r"^\(v/ /\*\)\s+\(1/0/1\)\s+\(0/2/0\)$", out, re.M)
    assert re.search(
        rf"^mean\s+80\.00\s+{np.mean([acc[(d, 'tan')].mean() * 100 for d in ('iris', 'wine')]):.2f}", out, re.M
    )
    code, out, err = nbx(capsys, "results", "kang2006", "--dataset", "wine", "--learner", "c45_kang")
    assert "iris" not in out and "tan" not in out.replace("than", "") and "nb_kang" in out


def test_results_leave_out_a_learner_missing_from_some_data_sets_and_say_so(capsys, tmp_path, monkeypatch):
    """A size-limited learner (``limited``) has no results on some data sets: left out of the full table with a
    note, shown with --dataset on the sets it ran on, and asking for it alone names --dataset."""
    monkeypatch.chdir(tmp_path)
    base = np.linspace(0.7, 0.9, 10)
    acc = {("iris", "nb_kang"): base, ("wine", "nb_kang"): base, ("iris", "lr_kang"): base + 0.05}
    results_repo(tmp_path, ["nb_kang", "lr_kang"], {"Iris": "iris", "Wine": "wine"}, acc)
    code, out, _ = nbx(capsys, "results", "kang2006")
    assert code == 0 and "lr_kang" not in column_names(out) and "left out: lr_kang" in out
    code, out, _ = nbx(capsys, "results", "kang2006", "--dataset", "iris")
    assert code == 0 and "lr_kang" in column_names(out) and "wine" not in out
    code, _, err = nbx(capsys, "results", "kang2006", "--learner", "lr_kang")
    assert code == 1 and "did not run on every data set shown" in err and "--dataset" in err


def column_names(text: str) -> list[str]:
    """Column names of every table block: the header line(s) above the dashes, joined per column span."""
    names = []
    for block in text.split("\n\n"):
        lines = block.splitlines()
        rule = next((i for i, line in enumerate(lines) if set(line) <= {"-", " "} and "-" in line), None)
        if rule is None:
            continue
        for m in re.finditer(r"-+", lines[rule]):
            names.append("".join(line[m.start() : m.end()].strip() for line in lines[:rule]))
    return names


def test_results_of_many_learners_fit_160_columns(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    learners = params["experiments"]["lee2006"]["learners"]
    rng = np.random.default_rng(1)
    acc = {(ds, x): rng.uniform(0.5, 1, 5) for ds in ("australian", "breast-cancer") for x in learners}
    results_repo(tmp_path, learners, {"A": "australian", "B": "breast-cancer"}, acc)
    out = nbx(capsys, "results", "kang2006")[1]
    assert max(len(line) for line in out.splitlines()) <= 160
    names = column_names(out)
    assert set(names) == set(learners) | {"data set (splits)"}  # each name whole, over at most two lines
    assert names.count(learners[0]) == names.count("data set (splits)") > 1  # the reference in every table


def test_timings_reads_this_machines_last_run(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "params.yaml").write_text((REPO / "params.yaml").read_text())
    assert "no timings yet" in nbx(capsys, "timings")[1]
    assert nbx(capsys, "timings", "kang2006")[0] == 1
    (tmp_path / "data" / "timings" / "kang2006").mkdir(parents=True)
    for learner, secs in (("nb_kang", [0.25, 1.0]), ("tan", [2.0, 4.5])):
        (tmp_path / "data" / "timings" / "kang2006" / f"{learner}.json").write_text(
            json.dumps(
                {
                    ds: {"fit_seconds": s / 2, "predict_seconds": 0.0, "wall_seconds": s}
                    for ds, s in zip(("iris", "zoo"), secs)
                }
            )
        )
    out = nbx(capsys, "timings", "kang2006")[1]
    assert re.search(r"iris\s+0\.2\s+2\.0", out) and re.search(r"total\s+1\.2\s+6\.5", out)


# ---------------------------------------------------------------------------------------- listings
def test_datasets_and_learners_list_what_experiments_use(capsys, in_repo):
    out = nbx(capsys, "datasets", "--experiment", "kang2006")[1]
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    for ds in params["experiments"]["kang2006"]["datasets"].values():
        assert re.search(rf"^{re.escape(ds)}\s", out, re.M), ds

    def users(name, kind="datasets"):
        return ", ".join(
            e
            for e, b in params["experiments"].items()
            if name in (b[kind].values() if isinstance(b[kind], dict) else b[kind])
        )

    assert re.search(rf"^iris\s+uci\s+\S+\s+150\s+4\s+3\s+{users('iris')}$", out, re.M)
    assert re.search(r"^coding\s+unavailable\s+unavailable\s", nbx(capsys, "datasets")[1], re.M)
    out = nbx(capsys, "learners")[1]
    assert re.search(rf"^tan\s+TAN\s+discrete\s+{users('tan', 'learners')}$", out, re.M)
    assert re.search(rf"^c45_kang\s+C45Tree\s+discrete\s+{users('c45_kang', 'learners')}$", out, re.M)
    assert re.search(rf"^c45\s+C45Tree\s+mixed\s+{users('c45', 'learners')}$", out, re.M)
    assert "input: discrete" in nbx(capsys, "learners", "hbayes_tan")[1]


def test_pareto_marks_learners_no_other_beats_on_time_and_rank(capsys, tmp_path, monkeypatch):
    from nbx.cli.results import pareto_front

    #                         cheap+bad  dear+best  dominated  tie with the first on both
    assert pareto_front([1, 10, 5, 1], [3, 1, 3, 3]).tolist() == [True, True, False, True]
    monkeypatch.chdir(tmp_path)
    base = np.linspace(0.7, 0.9, 10)
    acc = {
        (ds, x): base + d for ds in ("iris", "wine") for x, d in (("nb_kang", 0), ("tan", 0.05), ("c45_kang", -0.05))
    }
    results_repo(tmp_path, ["nb_kang", "tan", "c45_kang"], {"Iris": "iris", "Wine": "wine"}, acc)
    folder = tmp_path / "data" / "timings" / "kang2006"
    folder.mkdir(parents=True)
    for learner, secs in (("nb_kang", 0.5), ("tan", 2.0), ("c45_kang", 1.0)):
        (folder / f"{learner}.json").write_text(
            json.dumps(
                {ds: {"fit_seconds": secs, "predict_seconds": 0.0, "wall_seconds": secs} for ds in ("iris", "wine")}
            )
        )
    code, out, err = nbx(capsys, "timings", "kang2006", "--pareto")
    assert code == 0, err
    assert re.search(r"^nb_kang\s+1\.0\s+2\.00\s+80\.00\s+\*$", out, re.M)
    assert re.search(r"^c45_kang\s+2\.0\s+3\.00\s+75\.00$", out, re.M)  # slower and worse than nb_kang
    assert re.search(r"^tan\s+4\.0\s+1\.00\s+85\.00\s+\*$", out, re.M)
    assert (folder / "pareto.png").stat().st_size > 0 and "front" in (folder / "pareto.csv").read_text()
