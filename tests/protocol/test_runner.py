"""The split runner: results depend neither on the number of workers nor on the backend; seeds follow seed
names; a failing split is reported as one line naming the data set and split."""

import contextlib
import os
import shlex
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from nbx.core.base import ordinal_params
from nbx.models.muv import MUV
from nbx.models.naive_bayes import NaiveBayes
from nbx.pipeline import config
from nbx.pipeline.learners import build_learner
from nbx.protocol import runner
from nbx.protocol.runner import SplitData, TrainError, run_datasets, run_splits

PARAMS = config.load_params()


def _data(seed=0, n=120, d=5) -> SplitData:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, d))
    y = ((X[:, 0] + rng.integers(0, 2, n)) % 3).astype(np.int64)
    test = np.zeros((3, n), bool)
    for s in range(3):
        test[s, s::3] = True
    return SplitData(y, test, 3, codes=np.stack([X] * 3), n_values=np.full((3, d), 3))


@pytest.fixture
def always_pool(monkeypatch):
    monkeypatch.setattr(runner, "POOL_MIN_SECONDS", -1.0)


def test_results_do_not_depend_on_worker_count(always_pool):
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    one = run_splits(learner, _data(), 7, ("e", "d", "l"), n_jobs=1)
    two = run_splits(learner, _data(), 7, ("e", "d", "l"), n_jobs=2)
    for key, value in one.arrays().items():
        assert value.tobytes() == two.arrays()[key].tobytes()
    assert one.proba.shape == (120, 3) and np.allclose(one.proba.sum(axis=1), 1, atol=1e-6)


def test_a_cell_pools_every_split_of_every_data_set_with_the_same_results(always_pool):
    """run_datasets spreads all (data set, split) tasks over one pool, yet each data set's outputs equal its own
    serial run_splits, data sets come back in order and every split is reported once."""
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    data = {"a": _data(0), "b": _data(1, n=90), "c": _data(2, d=4)}
    seen = []
    pooled = list(run_datasets(learner, data, 7, "e", "l", n_jobs=2, on_split=seen.append))
    assert sorted(ds for ds, _ in pooled) == ["a", "b", "c"]
    assert sorted(seen) == ["a"] * 3 + ["b"] * 3 + ["c"] * 3
    for ds, out in pooled:
        alone = run_splits(learner, data[ds], 7, ("e", ds, "l"), n_jobs=1)
        for key, value in alone.arrays().items():
            assert value.tobytes() == out.arrays()[key].tobytes()


def test_splits_done_earlier_are_not_fitted_again_and_give_the_same_bytes(always_pool):
    """Given the outputs of some splits (an interrupted cell's checkpoints), the pool fits only the others, reports
    each split it fits once through ``on_result``, and every data set's predictions equal a run of all its splits;
    a data set whose splits are all done comes back without a fit."""
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    data = {"a": _data(0), "b": _data(1, n=90), "c": _data(2, d=4)}
    first = {}
    full = dict(
        run_datasets(learner, data, 7, "e", "l", n_jobs=1, on_result=lambda ds, s, out: first.update({(ds, s): out}))
    )
    done = {"a": {0: first["a", 0], 2: first["a", 2]}, "c": {s: first["c", s] for s in range(3)}}
    fitted, seen = [], []
    again = dict(
        run_datasets(
            learner,
            data,
            7,
            "e",
            "l",
            n_jobs=2,
            on_split=seen.append,
            done=done,
            on_result=lambda ds, s, out: fitted.append((ds, s)),
        )
    )
    assert sorted(fitted) == [("a", 1), ("b", 0), ("b", 1), ("b", 2)]
    assert sorted(seen) == ["a", "b", "b", "b"]
    for ds in data:
        for key, value in full[ds].arrays().items():
            assert value.tobytes() == again[ds].arrays()[key].tobytes()


def test_results_on_a_dask_cluster_equal_the_local_run(always_pool, monkeypatch):
    pytest.importorskip("dask.distributed")
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    local = run_splits(learner, _data(), 7, ("e", "d", "l"), n_jobs=1)
    monkeypatch.setenv("NBX_BACKEND", "dask")
    monkeypatch.delenv("NBX_DASK_SCHEDULER", raising=False)  # a LocalCluster
    on_dask = run_splits(learner, _data(), 7, ("e", "d", "l"), n_jobs=2)
    for key, value in local.arrays().items():
        assert value.tobytes() == on_dask.arrays()[key].tobytes()


def test_a_process_starts_its_dask_cluster_once_and_matches_loky(always_pool, monkeypatch):
    """Every run_splits call of a process runs on the one LocalCluster it started first (the same worker
    processes, no second client), and a data set's predictions there equal joblib's local pool byte for byte."""
    pytest.importorskip("dask.distributed")
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    on_loky = run_splits(learner, _data(1, n=90), 7, ("e", "b", "l"), n_jobs=2)
    monkeypatch.setenv("NBX_BACKEND", "dask")
    monkeypatch.delenv("NBX_DASK_SCHEDULER", raising=False)
    run_splits(learner, _data(), 7, ("e", "a", "l"), n_jobs=2)
    workers = runner._start_pool("dask").result().run(os.getpid)  # the start may still be under way: waited for
    clients = dict(runner._dask_starts)
    on_dask = run_splits(learner, _data(1, n=90), 7, ("e", "b", "l"), n_jobs=2)
    assert runner._dask_starts == clients  # the same start, so the same client
    assert (
        runner._start_pool("dask").result().run(os.getpid) == workers
        and len(set(workers.values())) == runner.default_jobs()
    )
    assert os.getpid() not in workers.values()
    for key, value in on_loky.arrays().items():
        assert value.tobytes() == on_dask.arrays()[key].tobytes()


def test_dask_holds_every_shared_data_set_on_every_worker(monkeypatch):
    """The data sets a cell's tasks read reach every Dask worker before the first task (broadcast), so no worker
    waits for a split while the data set sits on another."""
    pytest.importorskip("dask.distributed")
    from joblib.parallel import get_active_backend

    monkeypatch.setenv("NBX_BACKEND", "dask")
    monkeypatch.delenv("NBX_DASK_SCHEDULER", raising=False)
    data = [_data(0), _data(1, n=90)]
    with runner._parallel_backend("dask", shared=data):
        backend = get_active_backend()[0]
        client = runner._start_pool("dask").result()
        workers = set(client.scheduler_info()["workers"])
        for d in data:
            future = backend.data_futures[id(d)]
            assert set(client.who_has([future])[future.key]) == workers


def test_the_local_dask_cluster_keeps_glibcs_allocator_and_quiet_event_loops():
    """Dask's nannies fix MALLOC_TRIM_THRESHOLD_ (2-3x slower splits) and every event loop wakes every 20 ms; the
    workers of the LocalCluster the runner starts (the process's one, as the other tests') have the variable unset
    and every setting of DASK_WORKER_CONFIG."""
    pytest.importorskip("dask.distributed")

    def settings():
        import dask

        return os.environ.get("MALLOC_TRIM_THRESHOLD_"), [dask.config.get(k) for k in runner.DASK_WORKER_CONFIG]

    workers = runner._start_pool("dask").result().run(settings)
    assert len(workers) == runner.default_jobs()
    assert all(v == (None, list(runner.DASK_WORKER_CONFIG.values())) for v in workers.values())


def test_readme_gives_the_dask_worker_settings_for_a_cluster_started_by_hand():
    """README's "Bigger runs" exports variables that Dask reads as every setting of the runner's LocalCluster."""
    dask_config = pytest.importorskip("dask.config")
    text = (Path(__file__).parents[2] / "README.md").read_text()
    export = text[text.index("export DASK_") :].split("\n   dask worker")[0].replace("\\\n", " ")
    environ = dict(word.split("=", 1) for word in shlex.split(export)[1:])
    read = dask_config.collect_env(environ)
    for key, value in runner.DASK_WORKER_CONFIG.items():
        assert dask_config.get(key, default="unset", config=read) == value, key


_pooled = []  # non-empty inside _fake_pool


def _in_this_process(monkeypatch) -> list:
    """The splits run_datasets runs in this process outside a pool (a real pool's workers run their own
    module's _run; _fake_pool's are marked)."""
    calls, run = [], runner._run

    def counted(*task):
        if not _pooled:
            calls.append(task[3:])  # (data set, split)
        return run(*task)

    monkeypatch.setattr(runner, "_run", counted)
    return calls


@contextlib.contextmanager
def _fake_pool(name, shared=None):
    """joblib's sequential backend in place of a pool (no workers needed), its splits marked as pooled."""
    import joblib

    _pooled.append(True)
    try:
        with joblib.parallel_config(backend="sequential"):
            yield
    finally:
        _pooled.clear()


def test_a_warm_pool_gets_a_cells_first_split(monkeypatch):
    """The first cell of a process runs a split itself to judge whether a pool pays; once the process has used
    its pool, a later cell sends it every split, with the same results."""
    monkeypatch.setenv("NBX_BACKEND", "loky")
    monkeypatch.setattr(runner, "_warm", set())
    learner = MUV(base=NaiveBayes(), n_estimators=3)
    data = {"a": _data(0), "b": _data(1, n=90)}
    monkeypatch.setattr(runner, "POOL_MIN_SECONDS", -1.0)
    calls = _in_this_process(monkeypatch)
    first = list(run_datasets(learner, data, 7, "e", "l", n_jobs=2))
    assert calls == [("b", 0)] and runner._warm == {"loky"}  # b, the smaller data set, judges the pool
    monkeypatch.setattr(runner, "POOL_MIN_SECONDS", 1e9)  # a cell that looks too small: still the warm pool's
    calls.clear()
    second = list(run_datasets(learner, data, 7, "e", "l", n_jobs=2))
    assert calls == []
    first, second = dict(first), dict(second)
    assert first.keys() == second.keys() == data.keys()
    for ds in data:
        assert first[ds].proba.tobytes() == second[ds].proba.tobytes()


def test_a_cell_runs_small_data_sets_here_and_sends_the_pool_the_largest_first(monkeypatch):
    """The split that judges whether a pool pays is the smallest data set's; the pool then gets the data sets
    largest first (rows x attributes x classes), so a cell does not end on one worker running a large data set's
    last splits. Each data set comes back once its last split is, with the results of a serial run."""
    monkeypatch.setenv("NBX_BACKEND", "loky")
    monkeypatch.setattr(runner, "_warm", set())
    monkeypatch.setattr(runner, "POOL_MIN_SECONDS", -1.0)
    monkeypatch.setattr(runner, "_parallel_backend", _fake_pool)
    order, run = [], runner._run
    monkeypatch.setattr(runner, "_run", lambda *task: order.append((bool(_pooled), *task[3:])) or run(*task))
    data = {"mid": _data(0, n=120), "small": _data(1, n=30), "big": _data(2, n=300)}
    out = list(run_datasets(NaiveBayes(), data, 7, "e", "l", n_jobs=2))
    assert order[0] == (False, "small", 0)
    assert [t[1:] for t in order[1:]] == [
        ("big", 2),
        ("big", 1),
        ("big", 0),
        ("mid", 2),
        ("mid", 1),
        ("mid", 0),
        ("small", 2),
        ("small", 1),
    ]
    assert all(pooled for pooled, *_ in order[1:]) and [ds for ds, _ in out] == ["big", "mid", "small"]
    for ds, got in out:
        alone = run_splits(NaiveBayes(), data[ds], 7, ("e", ds, "l"), n_jobs=1)
        assert got.proba.tobytes() == alone.proba.tobytes() and got.row.tobytes() == alone.row.tobytes()


def test_dask_starts_in_the_background_while_this_process_runs_splits(monkeypatch):
    """With Dask, the cluster starts in another thread while splits run here; the pool takes the rest once the
    cluster is up, and a second start is the first one's."""
    monkeypatch.setenv("NBX_BACKEND", "dask")
    monkeypatch.delenv("NBX_DASK_SCHEDULER", raising=False)
    monkeypatch.setattr(runner, "_warm", set())
    monkeypatch.setattr(runner, "_dask_starts", {})
    monkeypatch.setattr(runner, "POOL_MIN_SECONDS", -1.0)
    started, five_splits = [], threading.Event()
    monkeypatch.setattr(runner, "_dask_client", lambda address: started.append(address) or five_splits.wait(60))
    monkeypatch.setattr(runner, "_parallel_backend", _fake_pool)
    calls = _in_this_process(monkeypatch)
    run = runner._run

    def start_after_five(*task):  # the cluster comes up once this process has run five splits
        if len(calls) >= 5:
            five_splits.set()
        return run(*task)

    monkeypatch.setattr(runner, "_run", start_after_five)
    out = list(run_datasets(NaiveBayes(), {str(k): _data(k) for k in range(40)}, 7, "e", "l", n_jobs=2))
    assert started == [None] and runner._dask_starts[None] is runner._start_pool("dask")
    assert 5 <= len(calls) < 120 and len(out) == 40  # splits ran here during the start, the pool did the rest
    assert runner._start_pool("loky") is None


def test_a_failing_split_is_one_line_naming_data_set_and_split():
    data = _data()
    data.codes = data.codes.copy()
    data.codes[1, 0, 0] = 7  # exceeds n_values = 3 in split 1 only (row 0 trains there)
    with pytest.raises(TrainError, match=r"^e/d split 1: ValueError: .*") as err:
        run_splits(NaiveBayes(), data, 7, ("e", "d", "l"), n_jobs=1)
    assert "\n" not in str(err.value)


def test_seed_name_decides_the_random_members():
    learner = MUV(base=NaiveBayes(), n_estimators=3, combiner="sum_prob")
    a = run_splits(learner, _data(), 7, ("e", "d", "x"), n_jobs=1).proba
    b = run_splits(learner, _data(), 7, ("e", "d", "x"), n_jobs=1).proba
    c = run_splits(learner, _data(), 7, ("e", "d", "y"), n_jobs=1).proba
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_combiner_siblings_share_seed_names():
    for k in (2, 3, 4):
        for structure in ("nb", "tan"):
            names = {
                build_learner(PARAMS, f"muv_{structure}{k}_boot_bal_{c}").seed_name
                for c in ("js", "mle", "sum_vote", "max_prob", "sum_prob", "min_var")
            }
            assert names == {f"muv_{structure}{k}_boot_bal"}
        assert build_learner(PARAMS, f"muv_nb{k}_ada_js").seed_name == f"adaboost_nb{k}"
        assert build_learner(PARAMS, f"adaboost_nb{k}").seed_name == f"adaboost_nb{k}"
    assert build_learner(PARAMS, "c45_kang").input == "discrete"
    assert build_learner(PARAMS, "c45").input == "mixed"


def test_all_classes_gives_the_learner_every_class_of_the_data_set():
    """``all_classes`` sets ``classes`` to every class index, so a class missing from a split's training part
    gets the learner's probability (Wiering's counters at γ) instead of 0; only the learners asking for it
    change."""
    data = _data()
    data.y = data.y.copy()
    data.y[0] = 3  # a fourth class; row 0 is a test row of split 0, so split 0 trains without it
    data.n_classes = 4
    learner = NaiveBayes(alpha=0.1, denominator="class")
    seen = run_splits(learner, data, 7, ("e", "d", "l"), n_jobs=1)
    every = run_splits(learner, data, 7, ("e", "d", "l"), n_jobs=1, all_classes=True)
    split0 = seen.split == 0
    assert np.all(seen.proba[split0, 3] == 0) and np.all(every.proba[split0, 3] > 0)
    assert learner.classes is None  # the learner given is not changed
    assert build_learner(PARAMS, "nb_wiering").all_classes
    assert not build_learner(PARAMS, "nb_wiering_seenclasses").all_classes
    assert not build_learner(PARAMS, "nb_laplace").all_classes


def test_numeric_ordinal_gives_nested_trees_the_numeric_columns():
    """``numeric_ordinal`` sets every ``ordinal`` parameter, nested ones too, to the data set's numeric columns:
    the boosted trees then equal a run whose base was given that mask by hand."""
    from nbx.models.ensembles import AdaBoostM1
    from nbx.models.leveled_tree import LeveledNBTree

    rng = np.random.default_rng(3)
    n = 300
    X = np.column_stack([rng.integers(0, 6, n), rng.integers(0, 3, n), rng.integers(0, 5, n)])
    y = ((X[:, 0] >= 3) ^ (X[:, 2] >= 2)).astype(np.int64)
    test = np.zeros((2, n), bool)
    test[0, ::2], test[1, 1::2] = True, True
    data = SplitData(
        y, test, 2, codes=np.stack([X] * 2), n_values=np.tile([6, 3, 5], (2, 1)), numeric=np.array([True, False, True])
    )
    boost = AdaBoostM1(LeveledNBTree(max_depth=2, min_split=10), n_estimators=5)
    auto = run_splits(boost, data, 7, ("e", "d", "l"), n_jobs=1, numeric_ordinal=True)
    by_hand = run_splits(boost.set_params(base__ordinal=[True, False, True]), data, 7, ("e", "d", "l"), n_jobs=1)
    plain = run_splits(boost.set_params(base__ordinal=None), data, 7, ("e", "d", "l"), n_jobs=1)
    assert auto.proba.tobytes() == by_hand.proba.tobytes() != plain.proba.tobytes()
    assert ordinal_params(boost) == ["base__ordinal"]
    assert build_learner(PARAMS, "blnbt10_threshold").numeric_ordinal
    assert not build_learner(PARAMS, "blnbt10").numeric_ordinal


def test_a_split_runs_with_one_thread_per_library_and_the_controller_is_kept_until_an_import(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import scipy.linalg  # noqa: F401  (a second OpenBLAS, scipy's, beside numpy's)

    before = threadpoolctl.threadpool_info()
    with runner._single_threaded():
        inside = threadpoolctl.threadpool_info()
        kept = runner._controller[1]
    assert inside and all(lib["num_threads"] == 1 for lib in inside)
    with runner._single_threaded():
        assert runner._controller[1] is kept  # nothing imported since: the libraries are the same
    monkeypatch.setitem(sys.modules, "nbx_test_new_module", object())
    with runner._single_threaded():
        assert runner._controller[1] is not kept  # a module was imported: the libraries are looked up again
    assert threadpoolctl.threadpool_info() == before  # the limits are undone on exit
