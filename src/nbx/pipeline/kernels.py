"""One set of numeric kernels for every stage, so that x86-64 machines with and without AVX-512 write the same bytes.

numpy picks its exp, log and reduction loops by CPU (AVX-512 code where the CPU has it), and OpenBLAS picks its
kernels by CPU too. Their last bits differ, and where a fit makes a discrete choice between nearly tied numbers
(an online EM step, a greedy search on training accuracy) a last bit can flip the choice. A stage therefore calls
:func:`pin` before anything imports numpy: on an x86-64 machine with AVX2 and FMA (x86-64-v3: Intel Haswell, AMD
Zen and every later one) numpy dispatches at that level, OpenBLAS uses its Haswell kernels and numba tunes for
Haswell, whatever more the CPU offers. numba still takes the CPU's own instruction set (8 doubles a vector on an
AVX-512 CPU, 4 on an AVX2 one): its loops add in the order they are written (no fastmath), so the width changes no
result, which ``benchmarks/machine_kinds.py`` checks by compiling them without AVX-512. Elsewhere nothing is pinned,
and the results are those of the machine's own kind.

The same thread counts belong here: one BLAS thread per process, so the number of workers cannot change a sum.
``NBX_NATIVE_KERNELS=1`` turns the pinning off (the machine's fastest kernels, its own last bits).

This module imports nothing that imports numpy.
"""

from __future__ import annotations

import os
import platform

# numpy's dispatch targets above x86-64-v3, and OpenBLAS's core type of that level
NUMPY_ABOVE_V3 = "X86_V4 AVX512_ICL AVX512_SPR"
OPENBLAS_V3 = "Haswell"
NUMBA_V3 = "haswell"  # LLVM's name of that level: numba tunes the package's loops for it (the host's instructions)
# the variables that change the bits of a result on one machine: what pin() sets, and numpy's other switch
BIT_VARIABLES = ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES", "OPENBLAS_CORETYPE", "NUMBA_CPU_NAME")


def has_x86_64_v3(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Whether this is an x86-64 CPU with AVX2 and FMA (read from Linux's cpuinfo; False where it cannot tell)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return {"avx2", "fma"} <= flags
    except OSError:
        pass
    return False


def pinned_environment(environ=os.environ, v3: bool | None = None) -> dict[str, str]:
    """The variables :func:`pin` sets: one thread always, the x86-64-v3 kernels where the CPU has them."""
    env = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    if environ.get("NBX_NATIVE_KERNELS", "") not in ("", "0"):
        return env
    if has_x86_64_v3() if v3 is None else v3:
        env |= {
            "NPY_DISABLE_CPU_FEATURES": NUMPY_ABOVE_V3,
            "OPENBLAS_CORETYPE": OPENBLAS_V3,
            "NUMBA_CPU_NAME": NUMBA_V3,
        }
    return env


def pin() -> None:
    """Set the kernels of this process and its workers; call it before numpy is imported (it acts when numpy and
    OpenBLAS load)."""
    os.environ.update(pinned_environment())


if __name__ == "__main__":  # `eval $(python -m nbx.pipeline.kernels)`: pin a shell, e.g. before starting Dask workers
    print(" ".join(f"export {k}='{v}';" for k, v in pinned_environment().items()))
