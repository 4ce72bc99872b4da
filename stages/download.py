"""DVC stage: download (see nbx.pipeline.download)."""
from nbx import pipeline
from nbx.cli import run_stage

if __name__ == "__main__":
    run_stage(pipeline.download)
