"""Ting & Zheng (2003), AdaBoost with naive Bayesian classifiers (leveled NB trees): Tables 2-4 and claims T1-T5."""
