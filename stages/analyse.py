"""Run the synthetic checks an experiment's claims need (params.yaml: analyses.<experiment>)."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.analyse import analyse
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(analyse, __doc__)
