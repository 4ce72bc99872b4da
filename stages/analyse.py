"""DVC stage: the synthetic checks of one experiment's claims (see nbx.analysis.paper_checks).
Usage: python stages/analyse.py EXPERIMENT"""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.analyse, 1)
