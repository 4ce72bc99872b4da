"""nbx estimators inside scikit-learn: a discretize-then-learn pipeline, cross-validated and grid-searched.
Needs scikit-learn (``pip install -e '.[sklearn]'``)."""

from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline

from nbx.discretize import MDLDiscretizer
from nbx.models.naive_bayes import NaiveBayes
from nbx.models.tan import TAN

X, y = load_iris(return_X_y=True)
for model in (NaiveBayes(), TAN()):
    scores = cross_val_score(make_pipeline(MDLDiscretizer(), model), X, y, cv=5)
    print(f"{type(model).__name__:>10}: {scores.mean():.3f} ± {scores.std():.3f}")

grid = GridSearchCV(make_pipeline(MDLDiscretizer(), TAN()), {"tan__alpha": [0.5, 1.0, 2.0]}, cv=5).fit(X, y)
print("best:", grid.best_params_, round(grid.best_score_, 3))
assert grid.best_score_ > 0.85
