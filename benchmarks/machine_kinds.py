"""Whether the results depend on the kind of machine: rerun train cells with an AVX2 machine's own kernels and
with this machine's own kernels, and compare both with this workspace's predictions.

    python benchmarks/machine_kinds.py [EXPERIMENT/LEARNER[:DATA,SETS] ...]   # default: the README's table

Every stage pins its numeric kernels (nbx.pipeline.kernels): on x86-64 with AVX2 and FMA, numpy dispatches at
that level and OpenBLAS uses its Haswell kernels. Two reruns of each cell, each in a fresh process with the pin
turned off (NBX_NATIVE_KERNELS=1):
- "AVX2 machine": numpy's AVX-512 code and OpenBLAS's AVX-512 kernels turned off, as on a CPU without them, and
  numba's loops compiled without AVX-512 instructions (the pin names Haswell to numba, but numba takes the CPU's
  own instruction set: its vector loops are 8 doubles wide on an AVX-512 CPU, 4 on an AVX2 one). With the pin
  this must equal the workspace's predictions byte for byte: that is what makes the two kinds agree.
- "native": this machine's own kernels, i.e. what the pin takes away (on an AVX-512 machine, its last bits).
Per data set that differs: the share of test rows whose predicted class stays the same and the accuracy (mean
over splits, as in data/results/), as benchmarks/envelope.py prints them. Run it
from the workspace's root after a `dvc repro` (like run_cell.py, it reads params.yaml and data/ there). Writes
nothing tracked.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CELLS = ["wiering2003/nb_wiering", "wiering2003/hm22", "kang2006/hbayes_nb"]
sys.path.insert(0, str(REPO / "src"))
from envelope import compare_cell  # noqa: E402 (benchmarks/ is the script's folder on sys.path)

from nbx.pipeline import config  # noqa: E402
from nbx.pipeline.kernels import pinned_environment  # noqa: E402


def without_avx512() -> str:
    """This CPU's features as LLVM names them, every AVX-512 extension (and what needs it) turned off: numba's
    NUMBA_CPU_FEATURES for code an AVX2 CPU could run."""
    from llvmlite import binding

    off = ("avx512", "avx10", "evex512", "amx")
    features = binding.get_host_cpu_features()
    return ",".join(("+" if on and not name.startswith(off) else "-") + name for name, on in features.items())


# the pin, i.e. what a CPU without AVX-512 runs anyway, and numba's code for such a CPU
AVX2 = pinned_environment({}, v3=True) | {"NUMBA_CPU_FEATURES": without_avx512()}


KINDS = {"AVX2 machine": AVX2, "native": {}}


def rerun(experiment: str, learner: str, datasets: str | None, kind: dict, out: Path) -> None:
    """The cell's predictions with the pin off and ``kind``'s switches on, written to ``out`` by run_cell.py in a
    fresh process (the switches act when numpy and OpenBLAS load)."""
    env = dict(
        os.environ,
        **kind,
        NBX_NATIVE_KERNELS="1",
        PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    )
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "run_cell.py"),
        experiment,
        learner,
        "--jobs",
        "2",
        "--save",
        str(out),
    ] + (["--datasets", datasets] if datasets else [])
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def compare(params, experiment: str, learner: str, out: Path) -> None:
    """Every data set of the rerun in ``out`` whose predictions differ from this workspace's (envelope.py's
    comparison), and how many differ."""
    moved = compare_cell(params, experiment, learner, Path("data/predictions"), out)
    for ds, same, before, after in moved:
        print(f"  {ds:20s} {100 * same:7.3f}% same predictions, accuracy {before:.3f} -> {after:.3f}")
    n_sets = len(list((out / experiment / learner).glob("*.npz")))
    print(f"{experiment}/{learner}: {len(moved)} of {n_sets} data sets differ\n", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cells", nargs="*", default=CELLS, help="EXPERIMENT/LEARNER[:DATA,SETS]")
    params = config.load_params()
    for cell in ap.parse_args().cells:
        name, _, datasets = cell.partition(":")
        experiment, learner = name.split("/")
        for kind, switches in KINDS.items():
            with tempfile.TemporaryDirectory() as tmp:
                print(f"{kind}:")
                rerun(experiment, learner, datasets or None, switches, Path(tmp))
                compare(params, experiment, learner, Path(tmp))


if __name__ == "__main__":
    main()
