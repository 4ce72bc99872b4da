"""One experiment in memory: resampling plans, fold-local discretization and imputation, running learners over
splits (in parallel), progress, and the metrics of stored predictions."""
