"""Run the synthetic checks an experiment's claims need (params.yaml: analyses.<experiment>)."""

from nbx.pipeline.analyse import analyse
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(analyse, __doc__)
