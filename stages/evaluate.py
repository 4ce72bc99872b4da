"""Accuracy per split, per data set and a summary per learner (metrics/<experiment>/) from the predictions."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.evaluate import evaluate
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(evaluate, __doc__)
