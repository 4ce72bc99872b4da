"""Check every learner block of params.yaml, then write the slices of params.yaml each stage depends on
(data/params/; see nbx.pipeline.params_digest)."""

from nbx.pipeline.kernels import pin

pin()  # one BLAS thread and one set of numeric kernels, before numpy loads

from nbx.pipeline.params_digest import params_digest
from nbx.pipeline.stage import run_stage

if __name__ == "__main__":
    run_stage(params_digest, __doc__, ())
