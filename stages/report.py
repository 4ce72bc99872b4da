"""DVC stage: report one experiment (see nbx.pipeline.report). Usage: python stages/report.py EXPERIMENT"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.report, 1)
