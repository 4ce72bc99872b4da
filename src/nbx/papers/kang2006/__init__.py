"""Kang & Tian (2006), a hybrid generative/discriminative Bayesian classifier (HBayes): Table 1 and claims K1-K3."""
