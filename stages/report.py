"""DVC stage: report one experiment (see nbx.pipeline.report). Usage: python stages/report.py EXPERIMENT"""
import sys

from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.report(config.load_params(), sys.argv[1])
