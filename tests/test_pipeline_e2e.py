"""A small end-to-end `dvc repro` of the real dvc.yaml on a reduced params file, in a temporary copy."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SMALL = {"wiering2003": {"Iris": "iris", "Vote": "vote"},
         "wang2006": {"Australian": "australian", "Vehicle": "vehicle"},
         "lee2006": {"GLASS2": "glass2", "WAVEFORM": "waveform300"},
         "kang2006": {"Iris": "iris", "Labor": "labor"},
         "ting2003": {"LED24": "led24", "Coding": "coding"}}
LEARNERS = {"wiering2003": ["nb_wiering", "boosting_nb"], "wang2006": ["c45", "nb_laplace"],
            "lee2006": ["nb_laplace", "muv_nb2_boot_bal_js"], "kang2006": ["nb_kang", "hbayes_nb"],
            "ting2003": ["nb_ting", "blnbt1"]}


def run(cmd, cwd):
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, "DVC_NO_ANALYTICS": "1"})
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory, mirror):
    root = tmp_path_factory.mktemp("nbx")
    for item in ("dvc.yaml", "stages", "src"):
        src = REPO / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / item)
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    for name, block in params["experiments"].items():
        block["datasets"] = SMALL[name]
        block["learners"] = LEARNERS[name]
        block["protocol"]["repeats"] = min(block["protocol"].get("repeats", 1), 2)
        block["protocol"]["folds_by_dataset"] = {}
        if block["protocol"]["kind"] == "cv":
            block["protocol"]["folds"] = 3
    params["analyses"].update(  # the synthetic checks, small
        wiering2003={"xor_seeds": 2, "parity_seeds": 1, "parity_layers": [6], "parity_passes": 5},
        lee2006={"sizes": [300], "draws": 200, "queries": 5},
        ting2003={"n_rows": 100, "n_estimators": 5})
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    dvc = yaml.safe_load((root / "dvc.yaml").read_text())  # only the train cells of the kept learners
    cells = next(v for v in dvc["vars"] if "train_cells" in v)["train_cells"]
    for name in [n for n, c in cells.items() if c["learner"] not in LEARNERS[c["experiment"]]]:
        del cells[name]
    (root / "dvc.yaml").write_text(yaml.safe_dump(dvc, sort_keys=False))
    run(["git", "init", "-q"], root)
    run(["dvc", "init", "-q"], root)
    run(["dvc", "repro"], root)
    return root, params


def test_repro_builds_metrics_and_reports(project):
    root, params = project
    for name in params["experiments"]:
        metrics = json.loads((root / "metrics" / f"{name}.json").read_text())
        available = [ds for ds in SMALL[name].values() if ds != "coding"]
        assert sorted(metrics) == sorted(available)
        for ds in available:
            for learner in params["experiments"][name]["learners"]:
                assert 0 <= metrics[ds][learner]["acc"] <= 100
        report = (root / "reports" / f"{name}.md").read_text()
        assert "Unavailable data sets" in report
        assert (root / "reports" / "figures" / name / "accuracy.png").stat().st_size > 1000
    assert "vehicle" in json.loads((root / "metrics" / "wang2006.json").read_text())  # mirror-only entry builds
    shown = run(["dvc", "metrics", "show", "--json"], root)
    assert "iris" in shown


def test_second_repro_is_a_no_op_and_outputs_are_deterministic(project):
    root, _ = project
    before = (root / "data/predictions/kang2006/nb_kang/iris.npz").read_bytes()
    out = run(["dvc", "repro"], root)
    assert "Running stage" not in out
    run(["dvc", "repro", "--force", "train@kang2006-nb_kang"], root)
    assert (root / "data/predictions/kang2006/nb_kang/iris.npz").read_bytes() == before


def test_editing_one_learner_reruns_only_its_cells(project):
    root, params = project
    params["learners"]["nb_kang"]["prior"] = "laplace"
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    status = json.loads(run(["dvc", "status", "--json"], root))
    assert {s for s in status if s.startswith("train@")} == {"train@kang2006-nb_kang"}
