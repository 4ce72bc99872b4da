"""What DVC's reading of params.yaml costs a no-op `dvc repro` (target 2 of benchmarks/README.md): the command as
it is, beside the same command with DVC's YAML parse memoized for the command's lifetime, which is what reading a
params file once per command (rather than once per stage that declares params) would give. The memo lives only in
this script's child processes: the project itself runs DVC unchanged.

    python benchmarks/dvc_params.py [--repeats 3] [--busy]

Run it on an up-to-date pipeline (after `dvc repro`). The two ways alternate; each prints its wall and CPU
seconds. ``--busy`` runs them beside two processes that spin (the target's "beside other work"). Nothing is
written.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

# DVC parses a YAML file's text afresh on every read (dvc.utils.serialize._yaml.parse_yaml, one ruamel.yaml load);
# this memo returns a deep copy of the first parse of the same text instead
MEMO = """
import copy, sys
import dvc.utils.serialize._yaml as _yaml
_parse, _seen = _yaml.parse_yaml, {}
def parse_yaml(text, path, typ="safe"):
    if (text, typ) not in _seen:
        _seen[text, typ] = _parse(text, path, typ)
    return copy.deepcopy(_seen[text, typ])
_yaml.parse_yaml = parse_yaml
from dvc.cli import main
sys.exit(main(["repro"]))
"""
WAYS = {"as is": ["dvc", "repro"], "params parsed once": [sys.executable, "-c", MEMO]}


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--busy", action="store_true", help="beside two spinning processes")
    a = ap.parse_args()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * a.busy)]
    try:
        for _ in range(a.repeats):
            for name, cmd in WAYS.items():
                wall, cpu = timed(cmd)
                print(f"no-op dvc repro, {name:18s} {wall:5.2f} s wall {cpu:5.2f} s CPU{'  (busy)' * a.busy}")
    finally:
        for p in spinners:
            p.kill()


if __name__ == "__main__":
    main()
