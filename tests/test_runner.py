"""The split runner: results do not depend on the number of worker processes; seeds follow seed names."""
import numpy as np

from nbx import config
from nbx.data.prepare import Table
from nbx.models.muv import MUV
from nbx.models.naive_bayes import NaiveBayes
from nbx.runner import run_splits

PARAMS = config.load_params()


def _table_and_plan(seed=0, n=120, d=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, d)).astype(float)
    y = (X[:, 0] + rng.integers(0, 2, n)) % 3
    attrs = [{"name": f"a{i}", "kind": "nominal", "values": ["0", "1", "2"]} for i in range(d)]
    table = Table("toy", X, y.astype(np.int64), attrs, ["c0", "c1", "c2"])
    test = np.zeros((3, n), bool)
    for s in range(3):
        test[s, s::3] = True
    codes = np.stack([X.astype(np.int64)] * 3)
    return table, test, codes, np.full((3, d), 3)


def test_results_do_not_depend_on_worker_count():
    table, test, codes, nv = _table_and_plan()
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    one = run_splits(learner, table, test, 7, ("e", "d", "l"), codes, nv, n_jobs=1)
    two = run_splits(learner, table, test, 7, ("e", "d", "l"), codes, nv, n_jobs=2)
    for key, value in one.arrays().items():
        assert value.tobytes() == two.arrays()[key].tobytes()
    assert one.proba.shape == (120, 3) and np.allclose(one.proba.sum(axis=1), 1, atol=1e-6)


def test_seed_name_decides_the_random_members():
    table, test, codes, nv = _table_and_plan()
    learner = MUV(base=NaiveBayes(), n_estimators=3, combiner="sum_prob")
    a = run_splits(learner, table, test, 7, ("e", "d", "x"), codes, nv, n_jobs=1).proba
    b = run_splits(learner, table, test, 7, ("e", "d", "x"), codes, nv, n_jobs=1).proba
    c = run_splits(learner, table, test, 7, ("e", "d", "y"), codes, nv, n_jobs=1).proba
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_combiner_siblings_share_seed_names():
    for k in (2, 3, 4):
        for structure in ("nb", "tan"):
            names = {config.build_learner(PARAMS, f"muv_{structure}{k}_boot_bal_{c}").seed_name
                     for c in ("js", "mle", "sum_vote", "max_prob", "sum_prob", "min_var")}
            assert names == {f"muv_{structure}{k}_boot_bal"}
        assert config.build_learner(PARAMS, f"muv_nb{k}_ada_js").seed_name == f"adaboost_nb{k}"
        assert config.build_learner(PARAMS, f"adaboost_nb{k}").seed_name == f"adaboost_nb{k}"
    assert config.build_learner(PARAMS, "c45_kang").input == "discrete"
    assert config.build_learner(PARAMS, "c45").input == "mixed"
