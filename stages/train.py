"""Train one learner on every split of an experiment's data sets and store its test-set probabilities."""

import os

# One BLAS thread: the splits run in parallel processes, and the same threading everywhere keeps results
# byte-identical for any number of workers. Must be set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from nbx.pipeline.stage import run_stage
from nbx.pipeline.train import train

if __name__ == "__main__":
    run_stage(train, __doc__, ("experiment", "learner"))
