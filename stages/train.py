"""Train the learners of one experiment on every split of its data sets and store their test-set probabilities;
only the learners and data sets whose code, params or inputs changed are fitted again (nbx.pipeline.train).
Usage: python stages/train.py EXPERIMENT [LEARNER ...] (no learner: all of the experiment's)."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.stage import run_stage
from nbx.pipeline.train import train

if __name__ == "__main__":
    run_stage(train, __doc__, ("experiment", "learners*"))
