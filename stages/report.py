"""Write reports/<experiment>.md: the paper's tables beside ours, significance, claims, figures."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.stage import run_stage
from nbx.report.experiment_report import write

if __name__ == "__main__":
    run_stage(write, __doc__)
