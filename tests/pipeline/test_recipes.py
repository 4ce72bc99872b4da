"""CONTRIBUTING.md's recipes as a new user walks them, each with plain DVC commands on a fresh copy of the
repository (a tiny experiment on two small data sets): add a learner, add an experiment without a paper folder, add
a data set of one's own, set a value with ``dvc exp run -S``, and a two-point sweep with ``dvc exp run --queue``.
Each test checks the files the user edited by hand against what CONTRIBUTING.md says to edit, and what DVC ran.

Slow (a few minutes in all): ``python -m pytest -m slow tests/pipeline/test_recipes.py``; CI runs them."""

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from dvc_project import REPO, commit, fitted, new_project, project_env, ran, run

pytestmark = pytest.mark.slow
TINY = """\
  tiny:
    title: A tiny experiment
    datasets:
    - iris
    - labor
    protocol:
      kind: cv
      folds: 3
      repeats: 1
      stratified: true
    discretizer:
      kind: mdl
    impute:
    learners:
    - nb_laplace
    - c45
    reference: nb_laplace
"""


def edited_by_hand(root: Path) -> set[str]:
    """Files changed since the last commit that no stage writes (the outputs DVC and the stages write are left out)."""
    status = run(["git", "status", "--porcelain", "--untracked-files=all"], root).stdout.splitlines()
    written = re.compile(
        r"(dvc\.lock|stages/train/dvc\.lock|metrics/.*|reports/.*|data/plots/.*|data/.*\.gitignore|\.gitignore)$"
    )
    return {line[3:] for line in status if not written.fullmatch(line[3:])}


def tiny_params() -> str:
    """The committed params.yaml with its experiments replaced by the tiny one: the same block style and learner
    blocks, so DVC's writer keeps it as it is."""
    text = (REPO / "params.yaml").read_text()
    start, end = text.index("\nexperiments:\n") + len("\nexperiments:\n"), text.index("\nanalyses:")
    head, tail = text[:start], text[end:]
    start, end = tail.index("\nanalyses:") + len("\nanalyses:\n"), tail.index("\n# Learner blocks")
    return head + TINY + tail[:start] + "  tiny: {}\n" + tail[end:]


@pytest.fixture
def project(tmp_path_factory, mirror):
    """A fresh copy of the repository's pipeline with the tiny experiment, run once and committed."""
    root = tmp_path_factory.mktemp("nbx")
    new_project(root, tiny_params())
    return root


def contributing_says(section: str) -> str:
    text = (REPO / "CONTRIBUTING.md").read_text()
    start = text.index(f"## {section}")
    return text[start : text.index("\n## ", start + 1)]


def test_add_a_learner(project):
    root = project
    text = (root / "params.yaml").read_text()
    block = "  nb_jeff:\n    class: NaiveBayes   # Jeffreys' prior\n    prior: laplace\n    alpha: 0.5\n"
    text = text.replace("    - c45\n    reference: nb_laplace", "    - c45\n    - nb_jeff\n    reference: nb_laplace")
    (root / "params.yaml").write_text(text + block)
    status = json.loads(run(["dvc", "status", "--json"], root).stdout)
    assert set(status) == {"code", "stages/train/dvc.yaml:train@tiny", "evaluate@tiny", "report@tiny"}
    out = run(["dvc", "repro"], root)
    assert fitted(out.stderr) == {"tiny/nb_jeff"}  # the others' results are kept
    assert re.search(r"^\| iris \|.*\|.*\|.*\|$", (root / "reports/tiny.md").read_text(), re.MULTILINE)
    assert "nb_jeff" in (root / "reports/tiny.md").read_text()
    assert json.loads((root / "metrics/tiny/nb_jeff.json").read_text())["sets"] == 2
    assert edited_by_hand(root) == {"params.yaml"}
    assert "params.yaml" in contributing_says("Add a learner") and "dvc repro" in contributing_says("Add a learner")


def test_add_an_experiment_without_a_paper(project):
    root = project
    text = (root / "params.yaml").read_text()
    toy = TINY.replace("  tiny:", "  toy2:").replace("A tiny experiment", "A second one").replace("- labor", "- wine")
    text = text.replace("\nanalyses:\n", "\n" + toy + "\nanalyses:\n", 1).replace(
        "  tiny: {}\n", "  tiny: {}\n  toy2: {}\n"
    )
    (root / "params.yaml").write_text(text)
    out = run(["dvc", "repro"], root)
    assert {"prepare@toy2", "stages/train/dvc.yaml:train@toy2", "report@toy2"} <= ran(out.stdout)
    assert not {name for name in ran(out.stdout) if "tiny" in name}  # the other experiment is untouched
    report = (root / "reports/toy2.md").read_text()
    assert report.startswith("# A second one") and "| wine |" in report
    assert edited_by_hand(root) == {"params.yaml"}
    assert "analyses:" in contributing_says("Add an experiment") and "dvc repro" in contributing_says(
        "Add an experiment"
    )


def test_add_a_data_set_of_ones_own(project):
    root = project
    rows = ["size,colour,label"] + [
        f"{i % 7 + (i % 2) * 3},{'red' if i % 3 else 'blue'},{'yes' if i % 2 else 'no'}" for i in range(60)
    ]
    (root / "data/local/mine.csv").write_text("\n".join(rows) + "\n")
    out = run([sys.executable, "-m", "nbx.cli", "add-data", "data/local/mine.csv", "--name", "mine"], root)
    assert "data/local/catalogue.yaml" in out.stdout
    text = (root / "params.yaml").read_text()
    text = text.replace("  catalogues: []", "  catalogues:\n  - data/local/catalogue.yaml")
    text = text.replace("    - labor\n    protocol:", "    - labor\n    - mine\n    protocol:")
    (root / "params.yaml").write_text(text)
    out = run(["dvc", "repro"], root)
    assert fitted(out.stderr) == {"tiny/nb_laplace", "tiny/c45"}
    assert "| mine |" in (root / "reports/tiny.md").read_text()
    assert edited_by_hand(root) == {"params.yaml", "data/local/mine.csv", "data/local/catalogue.yaml"}
    says = contributing_says("Add a data set")
    assert "data/local/" in says and "nbx add-data" in says and "dvc repro" in says
    # the file is a dependency by content: an edit reruns what reads it
    commit(root, "mine")
    (root / "data/local/mine.csv").write_text("\n".join(rows[:-2]) + "\n")
    run([sys.executable, "-m", "nbx.cli", "add-data", "data/local/mine.csv", "--name", "mine", "--replace"], root)
    assert "prepare@tiny" in ran(run(["dvc", "repro"], root).stdout)


def test_set_one_value_with_dvc_exp_run(project):
    root = project
    before = (root / "params.yaml").read_text()
    out = run(["dvc", "exp", "run", "-S", "learners.nb_laplace.alpha=2"], root)
    assert fitted(out.stderr) == {"tiny/nb_laplace"}
    diff = run(["git", "diff", "-U0", "params.yaml"], root).stdout
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "-    alpha: 1.0",
        "+    alpha: 2",
    ]
    assert (root / "params.yaml").read_text().count("#") == before.count("#")  # every comment kept
    changed = json.loads(run(["dvc", "params", "diff", "--json"], root).stdout)["params.yaml"]
    assert list(changed) == ["learners.nb_laplace.alpha"]
    assert (changed["learners.nb_laplace.alpha"]["old"], changed["learners.nb_laplace.alpha"]["new"]) == (1.0, 2)


def start_queue(root: Path, jobs: int) -> None:
    """``dvc queue start`` with its output in a file, not a pipe: the workers it forks keep its output streams open
    until the queue is empty, so a caller reading a pipe would wait for the whole sweep, or for ever when a worker
    hangs."""
    with tempfile.TemporaryFile() as log:
        code = subprocess.run(
            ["dvc", "queue", "start", "-j", str(jobs)], cwd=root, stdout=log, stderr=log, env=project_env(root)
        ).returncode
        log.seek(0)
        assert code == 0, log.read().decode()


def wait_for_queue(root: Path, seconds: float) -> str:
    """The queue's status once no task is queued or running. DVC's workers can stop with tasks still queued: after
    30 s with tasks queued and no worker, one more is started."""
    deadline, stalled = time.time() + seconds, None
    while True:
        status = run(["dvc", "queue", "status"], root, timeout=120).stdout
        if "Running" not in status and "Queued" not in status:
            return status
        assert time.time() < deadline, f"the queue did not finish in {seconds:.0f} s:\n{status}"
        if "Queued" in status and "0 active, 0 idle" in status:
            stalled = stalled or time.time()
            if time.time() - stalled > 30:
                start_queue(root, 1)
                stalled = None
        else:
            stalled = None
        time.sleep(2)


def test_a_two_point_sweep(project):
    root = project
    for alpha in ("0.5", "2"):
        run(["dvc", "exp", "run", "--queue", "-S", f"learners.nb_laplace.alpha={alpha}"], root)
    try:
        start_queue(root, 2)
        status = wait_for_queue(root, 600)
    finally:
        run(["dvc", "queue", "stop", "--kill"], root, check=False, timeout=120)
    assert status.count("Success") == 2, status
    shown = json.loads(run(["dvc", "exp", "show", "--json"], root).stdout)
    experiments = [e for rev in shown for e in (rev.get("experiments") or [])]
    alphas = set()
    for exp in experiments:
        data = exp["revs"][0]["data"]
        alphas.add(data["params"]["params.yaml"]["data"]["learners"]["nb_laplace"]["alpha"])
        assert "metrics/tiny/nb_laplace.json" in data["metrics"]
    assert alphas == {0.5, 2}
    for name in re.findall(r"^\S+\s+(\S+)\s", run(["dvc", "queue", "status"], root).stdout, re.MULTILINE)[1:3]:
        log = run(["dvc", "queue", "logs", name], root).stdout
        assert fitted(log) == {"tiny/nb_laplace"}  # each point refits only the learner it changes
    table = run(["dvc", "exp", "show", "--only-changed", "--md"], root).stdout
    assert "learners.nb_laplace.alpha" in table
