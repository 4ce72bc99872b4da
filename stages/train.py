"""DVC stage: train one learner on every split of one experiment's data sets (see nbx.pipeline.train).
Usage: python stages/train.py EXPERIMENT LEARNER"""
import os

# The splits run in parallel processes (nbx.runner); one BLAS thread each avoids oversubscription
# (ridge logistic regression is ~4x faster so on two cores). Must be set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from nbx import pipeline  # noqa: E402
from nbx.cli import run_stage  # noqa: E402

if __name__ == "__main__":
    run_stage(pipeline.train, 2)
