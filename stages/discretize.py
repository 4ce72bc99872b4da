"""DVC stage: discretize one experiment (see nbx.pipeline.discretize). Usage: python stages/discretize.py EXPERIMENT"""
import sys

from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.discretize(config.load_params(), sys.argv[1])
