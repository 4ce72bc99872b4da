"""Wang et al. (2006), combining decision tree and naive Bayes (self-adaptive NBTree): Table 1 and claims S1-S3."""
