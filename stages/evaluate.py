"""DVC stage: evaluate one experiment (see nbx.pipeline.evaluate). Usage: python stages/evaluate.py EXPERIMENT"""
import sys

from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.evaluate(config.load_params(), sys.argv[1])
