"""Check params.yaml and write the code digests: for each kind of stage (and each experiment's train, analyse and
report stages), the sha256 of every source file it runs, to data/code/<name>.txt, so a stage depends on one path
instead of every module it imports (nbx.pipeline.code). A digest whose files did not change comes out byte for byte
the same, so DVC reruns only the stages that run a changed file. Usage: python stages/code_digest.py"""

from nbx.pipeline.check import check_params
from nbx.pipeline.code import write_digests
from nbx.pipeline.stage import run_stage


def code(params) -> None:
    check_params(params)
    write_digests(params)


if __name__ == "__main__":
    run_stage(code, __doc__, ())
