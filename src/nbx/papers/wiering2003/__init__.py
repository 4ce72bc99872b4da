"""Wiering (2003), hierarchical mixtures of naive Bayesian classifiers: Table 2 and claims W1-W6."""
