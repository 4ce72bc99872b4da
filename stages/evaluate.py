"""DVC stage: evaluate one experiment (see nbx.pipeline.evaluate). Usage: python stages/evaluate.py EXPERIMENT"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.evaluate, 1)
