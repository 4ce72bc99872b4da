"""Time the pipeline itself (issue 11, targets 1-2): DVC's no-op cost and the per-cell overhead, or a full run.

    python benchmarks/pipeline.py overhead      # on an up-to-date pipeline: dvc status, no-op dvc repro,
                                                # and a forced small train cell minus its own fit time
    python benchmarks/pipeline.py fresh-clone   # clone this repository to a temporary folder, install it in a
                                                # new virtual environment and time a full `dvc repro` there

Prints seconds; writes nothing tracked (the forced cell rewrites its outputs byte for byte).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SMALL_CELL = ("lee2006", "nb_laplace")  # fits in well under a second: what is left is overhead


def timed(cmd: list[str], cwd: Path | None = None, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def overhead() -> None:
    print(f"dvc status (no-op):          {timed(['dvc', 'status']):6.2f} s   (target <= 3 s)")
    print(f"dvc repro (no-op):           {timed(['dvc', 'repro']):6.2f} s   (target <= 3 s)")
    exp, learner = SMALL_CELL
    stage = f"stages/train/{exp}/dvc.yaml:{learner}"
    wall = timed(["dvc", "repro", "--force", "--single-item", stage])
    work = json.loads(Path(f"data/timings/{exp}/{learner}.json").read_text())
    fits = sum(t["fit_seconds"] + t["predict_seconds"] for t in work.values())
    print(f"forced cell {stage}: {wall:6.2f} s, of which fit+predict {fits:.2f} s -> "
          f"overhead {wall - fits:.2f} s   (target <= 1 s)")


def fresh_clone() -> None:
    repo = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        clone, venv = Path(tmp) / "nbx", Path(tmp) / "venv"
        subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        py = venv / "bin" / "python"
        subprocess.run([str(py), "-m", "pip", "install", "-q", "-e", str(clone)], check=True)
        install = time.perf_counter() - t0
        env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
        repro = timed(["dvc", "repro"], cwd=clone, env=env)
        print(f"install {install:.0f} s, full dvc repro {repro:.0f} s ({repro / 60:.1f} min; target <= 15 min)")
        clean = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True).stdout
        print("git status after the run:", "clean" if not clean else "\n" + clean)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["overhead", "fresh-clone"])
    {"overhead": overhead, "fresh-clone": fresh_clone}[ap.parse_args().what]()


if __name__ == "__main__":
    main()
