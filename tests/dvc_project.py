"""A fresh copy of the repository's pipeline in a temporary git + DVC repository, and the commands the end-to-end
tests run in it (tests/pipeline/test_pipeline_e2e.py, test_recipes.py)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "DVC_NO_ANALYTICS": "1", "NBX_JOBS": "1"}
TRAIN = "stages/train/dvc.yaml:train@"  # how DVC names the train stages (a dvc.yaml of their own)


def project_env(root: Path) -> dict:
    """The environment a command runs in inside the project: its own copy of nbx."""
    return {**ENV, "PYTHONPATH": str(root / "src")}


def run(cmd, cwd: Path, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
    """``cmd`` in the project, with its own copy of nbx; a failure shows both outputs. A command still running after
    ``timeout`` seconds fails the test instead of hanging the run."""
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=project_env(cwd), timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(
            f"{' '.join(cmd)} still running after {timeout:.0f} s:\n{exc.stdout}\n{exc.stderr}"
        ) from None
    if check:
        assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out


def ran(output: str) -> set[str]:
    """The stages a ``dvc repro`` (or ``--dry``) ran."""
    return set(re.findall(r"Running stage '([^']+)'", output))


def fitted(stderr: str) -> set[str]:
    """The (experiment/learner) pairs a train stage fitted: its progress lines, one per data set."""
    return set(re.findall(r"^(\w+/\w+): \S+: \d+ splits", stderr, re.MULTILINE))


def commit(root: Path, message: str) -> None:
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], root)


def new_project(root: Path, params_text: str) -> str:
    """The pipeline (code, stages, dvc.yaml, templates, data/local) with this params.yaml, run once and committed;
    returns the first ``dvc repro``'s output."""
    # with __pycache__: numba's compiled loops, valid while a source keeps its mtime and size (copytree keeps both),
    # so the project's stages load what the tests before compiled instead of compiling it again (about 25 s)
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    shutil.copytree(REPO / "stages", root / "stages", ignore=shutil.ignore_patterns("dvc.lock", "__pycache__"))
    shutil.copytree(REPO / "data" / "local", root / "data" / "local")
    # .gitignore: dvc_plots/, which `dvc plots show` writes; .dvcignore: the code stage's src/nbx without __pycache__
    for name in ("dvc.yaml", ".dvcignore", ".gitignore", "data/.gitignore"):
        shutil.copy(REPO / name, root / name)
    (root / "params.yaml").write_text(params_text)
    run(["git", "init", "-q"], root)
    run(["dvc", "init", "-q"], root)
    shutil.copytree(REPO / ".dvc" / "plots", root / ".dvc" / "plots")
    first = run(["dvc", "repro"], root).stdout
    commit(root, "first run")
    return first
