"""One experiment in memory: the protocol's checks, resampling plans, fold-local discretization and imputation,
running learners over splits (in parallel), progress, the metrics of stored predictions, and
:func:`nbx.protocol.crossval.cross_validate`, which composes them as the pipeline's stages do."""
