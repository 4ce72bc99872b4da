"""DVC stage: train one learner on every split of one experiment's data sets (see nbx.pipeline.train).
Usage: python stages/train.py EXPERIMENT LEARNER"""
import sys

from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.train(config.load_params(), sys.argv[1], sys.argv[2])
