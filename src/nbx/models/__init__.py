"""The learners, one module per family, each a scikit-learn estimator citing the paper section it implements:
``naive_bayes`` (NaiveBayes), ``kernel_nb`` (GeneralNB), ``hierarchical_mixture`` (HierarchicalMixtureNB),
``ensembles`` (Bagging, AdaBoostM1), ``c45`` (C45Tree), ``nbtree`` (NBTree), ``snbtree`` (SelfAdaptiveNBTree),
``leveled_tree`` (LeveledNBTree), ``tan`` (TAN), ``muv`` (MUV, MUVofMUV), ``logistic`` (LogisticRegression) and
``hbayes`` (HBayesNB, HBayesTAN).

The other modules are helpers only these import: ``variance`` (Lee et al.'s response variance, for ``muv``),
``weka_optimization`` (Weka's quasi-Newton optimizer), ``binned_kde`` and the compiled ``*_loops`` modules (in
modules of their own so that a process that never needs them does not load numba). The map with the papers:
``src/nbx/models/README.md``. Nothing is imported here, so importing one learner loads only its own modules.
"""
