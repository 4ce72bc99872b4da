"""Statistics over results: significance tests, multiple comparisons over data sets, the Bayesian signed-rank
test and the bias/variance decomposition."""
