"""DVC stage: train one learner on every split of one experiment's data sets (see nbx.pipeline.train).
Usage: python stages/train.py EXPERIMENT LEARNER"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.train, 2)
