"""DVC stage: prepare (see nbx.pipeline.prepare)."""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.prepare)
