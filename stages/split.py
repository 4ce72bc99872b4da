"""Store an experiment's resampling plan (folds or holdout splits) for every data set, seeded from params.yaml."""

from nbx.pipeline.split import split
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(split, __doc__)
