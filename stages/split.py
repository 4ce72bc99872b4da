"""Store an experiment's resampling plan (folds or holdout splits) for every data set, seeded from params.yaml."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.split import split
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(split, __doc__)
