"""DVC stage: split one experiment (see nbx.pipeline.split). Usage: python stages/split.py EXPERIMENT"""
import sys

from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.split(config.load_params(), sys.argv[1])
