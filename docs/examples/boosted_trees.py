"""Ting & Zheng's boosted leveled naive Bayes trees beside plain naive Bayes, on data naive Bayes cannot fit
(the class is the XOR of two attributes)."""

import numpy as np

from nbx.models.ensembles import AdaBoostM1
from nbx.models.leveled_tree import LeveledNBTree
from nbx.models.naive_bayes import NaiveBayes

rng = np.random.default_rng(1)
X = rng.integers(0, 2, size=(400, 4))
y = X[:, 0] ^ X[:, 1]
X_train, X_test, y_train, y_test = X[:300], X[300:], y[:300], y[300:]

nb = NaiveBayes().fit(X_train, y_train)
boost = AdaBoostM1(LeveledNBTree(max_depth=1, min_split=2), n_estimators=10, random_state=0).fit(X_train, y_train)
print(f"naive Bayes:          {nb.score(X_test, y_test):.3f}")
print(f"AdaBoost of LNBT(1):  {boost.score(X_test, y_test):.3f} ({len(boost.estimators_)} models)")
assert boost.score(X_test, y_test) > nb.score(X_test, y_test)
