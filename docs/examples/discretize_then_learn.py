"""Weka's protocol by hand: MDL cut points fitted on the training part, naive Bayes on the codes."""

import numpy as np

from nbx.discretize import MDLDiscretizer
from nbx.models.naive_bayes import NaiveBayes

rng = np.random.default_rng(0)
X = np.vstack([rng.normal(0.0, 1.0, (100, 2)), rng.normal(2.0, 1.0, (100, 2))])
y = np.repeat(["a", "b"], 100)
train = rng.permutation(200)[:140]
test = np.setdiff1d(np.arange(200), train)

disc = MDLDiscretizer().fit(X[train], y[train])
model = NaiveBayes(prior="m_estimate", m=2).fit(disc.transform(X[train]), y[train], n_values=disc.n_values_)
accuracy = model.score(disc.transform(X[test]), y[test])
print("cut points:", [np.round(c, 2).tolist() for c in disc.cut_points_])
print(f"test accuracy: {accuracy:.3f}")
assert accuracy > 0.75
