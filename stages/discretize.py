"""DVC stage: discretize one experiment (see nbx.pipeline.discretize). Usage: python stages/discretize.py EXPERIMENT"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.discretize, 1)
