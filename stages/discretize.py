"""Discretize (and impute) an experiment's data per split, fitted on each split's training part only."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.discretize import discretize
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(discretize, __doc__)
