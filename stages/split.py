"""DVC stage: split one experiment (see nbx.pipeline.split). Usage: python stages/split.py EXPERIMENT"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.split, 1)
