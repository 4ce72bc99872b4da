"""Train one learner on every split of an experiment's data sets and store its test-set probabilities."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.stage import run_stage
from nbx.pipeline.train import train

if __name__ == "__main__":
    run_stage(train, __doc__, ("experiment", "learner"))
