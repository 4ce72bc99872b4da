"""The estimator protocol every learner and discretizer stands on: the base class, parameter and input
validation, counting maths and entropy criteria, errors and atomic file output (numpy and scipy only)."""
