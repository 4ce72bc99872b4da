"""A small end-to-end `dvc repro` of the real pipeline on a reduced params file, in a temporary git repository:
outputs, determinism, a clean `git status` after a rerun, and which stages an edit re-runs. Slow (about 5 minutes
on one core, most of it the first `dvc repro`): `pytest -m slow`, which CI runs on every change."""

import contextlib
import json
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from dvc_project import TRAIN, fitted, new_project, ran, run

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SMALL = {
    "wiering2003": {"Iris": "iris", "Vote": "vote"},
    "wang2006": {"Australian": "australian", "Coding": "coding"},
    "lee2006": {"GLASS2": "glass2", "WAVEFORM": "waveform300"},
    "kang2006": {"Iris": "iris", "Labor": "labor"},
    "ting2003": {"LED24": "led24", "Coding": "coding"},
    "benchmark": {"iris": "iris", "vote": "vote", "labor": "labor"},
}
LEARNERS = {
    "wiering2003": ["nb_wiering", "boosting_nb"],
    "wang2006": ["c45", "nb_laplace"],
    "lee2006": ["nb_laplace", "muv_nb2_boot_bal_js"],
    "kang2006": ["nb_kang", "hbayes_nb"],
    "ting2003": ["nb_ting", "blnbt1"],
    "benchmark": ["nb_laplace", "c45", "tan", "lr_kang"],
}
LIMITED = {"learners": ["lr_kang"], "max_rows": 200}  # benchmark: lr_kang on iris (150 rows) and labor (57) only


def stages_using(root: Path, source: str) -> set[str]:
    """The code stage, and the stages that depend on a code digest (``data/code/<name>.txt``) covering ``source``:
    ``<kind>.txt`` is every ``<kind>@<experiment>``, ``<kind>-<experiment>.txt`` that experiment's stage."""
    names = {"code"}
    for path in (root / "data/code").glob("*.txt"):
        if f"  {source}\n" in path.read_text():
            kind, _, exp = path.stem.partition("-")
            for name in [exp] if exp else SMALL:
                names.add(f"{TRAIN}{name}" if kind == "train" else f"{kind}@{name}")
    return names


@contextlib.contextmanager
def edited(path: Path, text: str, root: Path | None = None):
    """``path`` holds ``text`` inside the block; afterwards the original again (and, given the project
    ``root``, the committed first run checked out again, as a user returns to it: ``git checkout`` for the
    locks, ``dvc checkout`` for the outputs, and nothing left to run)."""
    original = path.read_text()
    path.write_text(text)
    try:
        yield
    finally:
        path.write_text(original)
        if root is not None:
            run(["git", "checkout", "-q", "--", "."], root)
            run(["dvc", "checkout", "-q"], root)
            assert json.loads(run(["dvc", "status", "--json"], root).stdout) == {}


def small_params() -> dict:
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    for name, block in params["experiments"].items():
        block["datasets"] = SMALL[name]
        block["learners"] = LEARNERS[name]
        block["reference"] = LEARNERS[name][0]
        block.pop("limited", None)
        block["protocol"]["repeats"] = min(block["protocol"].get("repeats", 1), 2)
        if block["protocol"]["kind"] == "cv":
            block["protocol"].update(folds=3, folds_by_dataset={})
    params["experiments"]["benchmark"]["limited"] = LIMITED
    params["analyses"].update(  # the synthetic checks, small
        wiering2003={"xor_seeds": 2, "parity_seeds": 1, "parity_layers": [6], "parity_passes": 5},
        lee2006={"sizes": [300], "draws": 200, "queries": 5},
        ting2003={"n_rows": 100, "n_estimators": 5},
    )
    return params


@pytest.fixture(scope="module")
def project(tmp_path_factory, mirror):
    root = tmp_path_factory.mktemp("nbx")
    params = small_params()
    first = new_project(root, yaml.safe_dump(params, sort_keys=False))
    return root, params, first


def test_repro_builds_metrics_results_and_reports(project):
    from nbx.data.catalogue import load_catalogue
    from nbx.data.fetch import mirror

    root, params, _ = project
    mirror_only = {n for n, e in load_catalogue().items() if e.source == "mirror-only"} if not mirror() else set()
    for name in params["experiments"]:
        available = [ds for ds in SMALL[name].values() if ds != "coding" and ds not in mirror_only]
        results = json.loads((root / "data" / "results" / f"{name}.json").read_text())
        assert sorted(results) == sorted(available)
        for learner in params["experiments"][name]["learners"]:
            summary = json.loads((root / "metrics" / name / f"{learner}.json").read_text())
            assert set(summary) == {"acc", "rank", "wins", "ties", "losses", "sets", "log_loss", "brier", "ece", "auc"}
            own = ["iris", "labor"] if learner in LIMITED["learners"] and name == "benchmark" else available
            assert sorted(ds for ds in results if learner in results[ds]) == sorted(own)
            assert summary["sets"] == len(own) == summary["wins"] + summary["ties"] + summary["losses"]
            assert summary["acc"] == pytest.approx(sum(results[ds][learner]["acc"] for ds in own) / len(own), abs=1e-3)
        report = (root / "reports" / f"{name}.md").read_text()
        assert "Unavailable data sets" in report and "seconds" not in report
        assert (root / "reports" / "figures" / name / "accuracy.png").exists()
        assert (root / "data" / "plots" / name / "accuracy.csv").exists()
    assert "Coding (`coding`)" in (root / "reports" / "wang2006.md").read_text()
    assert (
        "## All 4 learners on the 2 data sets within the size limits" in (root / "reports" / "benchmark.md").read_text()
    )
    shown = run(["dvc", "metrics", "show"], root).stdout
    assert max(len(line) for line in shown.splitlines()) <= 160
    assert "metrics/kang2006/hbayes_nb.json" in shown
    timings = json.loads((root / "data" / "timings" / "kang2006" / "nb_kang.json").read_text())  # not versioned
    for ds, entry in timings.items():  # one task's seconds per split: what full_protocol.py --estimate schedules
        n_splits = len(np.load(root / "data" / "splits" / "kang2006" / f"{ds}.npz")["test"])
        total = entry["fit_seconds"] + entry["predict_seconds"]
        assert len(entry["seconds_per_split"]) == n_splits
        assert sum(entry["seconds_per_split"]) == pytest.approx(total, abs=1e-4 * (n_splits + 2))
    plots = json.loads(run(["dvc", "plots", "show", "--json"], root).stdout)
    assert "errors" not in plots  # every declared plot renders, for experiments and learners dvc.yaml never names
    for name in params["experiments"]:
        assert plots["data"][f"data/plots/{name}/accuracy.csv"][0]["type"] == "vega"
        assert f"data/plots/{name}/vs_published.csv" in plots["data"]
        assert plots["data"][f"reports/figures/{name}/accuracy.png"][0]["type"] == "image"
    assert "data/plots/lee2006/figures/fig3a_1nb.csv" in plots["data"]  # a paper figure whose learners ran
    run(["dvc", "plots", "show", "-o", str(root.parent / "plots_html")], root)
    html = (root.parent / "plots_html" / "index.html").read_text()
    for key in plots["data"]:  # each plot has its element in the page (ids as DVC writes them)
        assert re.search(rf'id ?= ?"{re.sub(r"[^A-Za-z0-9]", "_", key)}"', html), key
    run([sys.executable, "-m", "nbx.cli", "timings", "benchmark", "--pareto"], root)
    assert run(["git", "status", "--porcelain"], root).stdout == ""  # the front is not versioned


def test_second_repro_is_a_no_op_and_leaves_git_clean(project):
    root, _, _ = project
    out = run(["dvc", "repro"], root).stdout
    assert not ran(out)
    assert run(["git", "status", "--porcelain"], root).stdout == ""
    before = (root / "data/predictions/kang2006/nb_kang/iris.npz").read_bytes()
    shutil.rmtree(root / "data/predictions/kang2006")  # fitted again from scratch: the same bytes
    run(["dvc", "repro", "--force", "--single-item", f"{TRAIN}kang2006"], root)
    assert (root / "data/predictions/kang2006/nb_kang/iris.npz").read_bytes() == before
    assert run(["git", "status", "--porcelain"], root).stdout == ""


def test_editing_one_learner_fits_only_that_learner(project):
    """`dvc status` names the stages that read the edited key (the code stage reads all of params.yaml), and
    `dvc repro` reruns those: the train stages of the other experiments fit nothing, and only the experiment
    whose results changed is evaluated and reported again."""
    root, params, _ = project
    changed = dict(params, learners=dict(params["learners"], nb_kang={"class": "NaiveBayes", "prior": "laplace"}))
    with edited(root / "params.yaml", yaml.safe_dump(changed, sort_keys=False), root):
        status = json.loads(run(["dvc", "status", "--json"], root).stdout)
        assert set(status) == {"code"} | {f"{TRAIN}{name}" for name in SMALL}
        dry = run(["dvc", "repro", "--dry"], root).stdout
        assert ran(dry) == set(status)
        diff = json.loads(run(["dvc", "params", "diff", "--json"], root).stdout)["params.yaml"]
        assert diff["learners.nb_kang.prior"] == {"old": "kang", "new": "laplace"}
        out = run(["dvc", "repro"], root)
        assert ran(out.stdout) == set(status) | {"evaluate@kang2006", "report@kang2006"}
        assert fitted(out.stderr) == {"kang2006/nb_kang"}


def test_editing_a_model_reruns_only_the_train_stages_that_import_it(project):
    root, _, _ = project
    # C4.5: a model without compiled loops, so the cells it reruns cost no compilation
    module = root / "src/nbx/models/c45.py"
    with edited(module, module.read_text() + "\n# touched by a test\n", root):
        out = run(["dvc", "repro"], root).stdout
        expected = stages_using(root, "src/nbx/models/c45.py")
        assert expected == {"code", f"{TRAIN}wang2006", f"{TRAIN}benchmark"}
        assert ran(out) == expected  # the predictions are unchanged, so nothing after them runs


def test_editing_report_code_reruns_only_reports(project):
    root, _, _ = project
    module = root / "src/nbx/report/tables.py"
    with edited(module, module.read_text() + "\n# touched by a test\n", root):
        assert set(json.loads(run(["dvc", "status", "--json"], root).stdout)) == {"code"}
        run(["dvc", "repro", "code"], root)  # the digests: only the reports' change
        assert set(json.loads(run(["dvc", "status", "--json"], root).stdout)) == {f"report@{name}" for name in SMALL}


def test_adding_a_data_set_to_one_experiment_touches_only_that_experiment(project):
    root, params, _ = project
    changed = json.loads(json.dumps(params))
    changed["experiments"]["lee2006"]["datasets"]["IRIS"] = "iris"
    with edited(root / "params.yaml", yaml.safe_dump(changed, sort_keys=False), root):
        out = run(["dvc", "repro"], root).stdout
        assert "prepare@lee2006" in ran(out)
        assert all(name == "code" or "lee2006" in name for name in ran(out)), sorted(ran(out))


def test_stage_scripts_explain_themselves(project):
    root, _, _ = project
    for script in ("prepare", "split", "discretize", "train", "evaluate", "analyse", "report"):
        out = run(["python", f"stages/{script}.py", "--help"], root).stdout
        assert "wiering2003" in out and "usage:" in out
    out = run(["python", "stages/train.py", "kang2006", "nope"], root, check=False)  # one learner of it
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert "params.yaml:" in out.stderr and "'nope' is not one of this experiment's learners" in out.stderr
