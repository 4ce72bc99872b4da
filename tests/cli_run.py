"""Running the ``nbx`` command in-process from a test, what a failed command gives, and a script run as a user runs
it (a fresh interpreter with only PATH and the repository's src)."""

import os
import subprocess
import sys
from pathlib import Path

from nbx.cli import main

REPO = Path(__file__).resolve().parents[1]


def nbx(capsys, *argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one in-process run of ``nbx ARGV``."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error(message: str) -> tuple[int, str, str]:
    """What a failed command gives: exit code 1, nothing on stdout, one line on stderr."""
    return 1, "", f"nbx: error: {message}\n"


def python(cwd: Path, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``python ARGS`` in ``cwd``, with no environment but PATH and PYTHONPATH=src."""
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    out = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return out.returncode, out.stdout, out.stderr
