"""The numeric kernels every stage pins before numpy loads (nbx.pipeline.kernels)."""

import ast
from pathlib import Path

from nbx.pipeline import kernels

STAGES = Path(__file__).resolve().parents[2] / "stages"


def test_x86_64_v3_pins_numpy_dispatch_openblas_core_and_numba_target():
    env = kernels.pinned_environment({}, v3=True)
    # in this order: `python -m nbx.pipeline.kernels` prints the exports as the dict holds them
    assert list(env.items()) == [
        ("OPENBLAS_NUM_THREADS", "1"),
        ("OMP_NUM_THREADS", "1"),
        ("NPY_DISABLE_CPU_FEATURES", "X86_V4 AVX512_ICL AVX512_SPR"),
        ("OPENBLAS_CORETYPE", "Haswell"),
        ("NUMBA_CPU_NAME", "haswell"),
    ]


def test_other_machines_and_the_opt_out_pin_only_the_threads():
    threads = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    assert kernels.pinned_environment({}, v3=False) == threads
    assert kernels.pinned_environment({"NBX_NATIVE_KERNELS": "1"}, v3=True) == threads
    assert kernels.pinned_environment({"NBX_NATIVE_KERNELS": "0"}, v3=True)["OPENBLAS_CORETYPE"] == "Haswell"


def test_cpu_flags_decide_x86_64_v3(tmp_path, monkeypatch):
    monkeypatch.setattr(kernels.platform, "machine", lambda: "x86_64")
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma bmi2\n")
    assert kernels.has_x86_64_v3(str(info))
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx\n")
    assert not kernels.has_x86_64_v3(str(info))
    assert not kernels.has_x86_64_v3(str(tmp_path / "missing"))
    monkeypatch.setattr(kernels.platform, "machine", lambda: "aarch64")
    info.write_text("flags\t\t: avx2 fma\n")
    assert not kernels.has_x86_64_v3(str(info))


def test_every_stage_that_computes_pins_before_any_other_nbx_import():
    for script in sorted(STAGES.glob("*.py")):
        body = ast.parse(script.read_text()).body
        imports = [node for node in body if isinstance(node, ast.ImportFrom) and node.module.startswith("nbx")]
        if script.name == "code_digest.py":  # hashes files; no arithmetic
            continue
        assert imports[0].module == "nbx.pipeline.kernels", script.name
        pin_call = next(i for i, node in enumerate(body) if isinstance(node, ast.Expr) and "pin" in ast.unparse(node))
        assert pin_call < body.index(imports[1]), script.name


def test_the_kernels_module_loads_no_numpy():
    tree = ast.parse(Path(kernels.__file__).read_text())
    imported = [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert imported == ["from __future__ import annotations", "import os", "import platform"]
