"""Fetch an experiment's data files (UCI archive, or NBX_UCI_MIRROR) and build its typed tables."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.prepare import prepare
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(prepare, __doc__)
