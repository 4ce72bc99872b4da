"""Model files (nbx.cli.modelfile): every learner, discretizer and imputer comes back from its file with the same
fitted state and the same predictions to the bit; ``nbx fit --save`` / ``predict`` / ``show`` give what the
pickles of earlier versions gave; and a malicious model (a pickle whose loading writes a file, a zip naming
os.system, an object array, a damaged zip, a FIFO) is refused as one line naming the file, with nothing run."""

from __future__ import annotations

import io
import os
import pickle
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest
from cli_run import nbx
from equal_state import same
from estimators import estimator_classes

from nbx.cli import main
from nbx.cli.model import Bundle, fit_bundle, load_bundle
from nbx.cli.modelfile import ModelFileError, read_model, write_model
from nbx.core.base import input_kind
from nbx.models.c45 import C45Tree
from nbx.models.ensembles import AdaBoostM1, Bagging
from nbx.models.kernel_nb import GeneralNB
from nbx.models.nbtree import NBTree
from nbx.models.snbtree import SelfAdaptiveNBTree


def codes(n=300, seed=0):
    """Four nominal attributes; the class is an interaction of two (trees split, NBTree keeps its splits)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 4)).astype(float)
    y = ((X[:, 0] == X[:, 1]) ^ (rng.random(n) < 0.1)).astype(int) + (X[:, 2] == 2)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def mixed(n=300, seed=1):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n), rng.normal(size=n)])
    y = (X[:, 0] + X[:, 1] + rng.normal(size=n) > 1).astype(int)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def seeded(cls, **params):
    return cls(**params, **({"random_state": 0} if "random_state" in cls._param_names() else {}))


def reloaded(obj, tmp_path: Path):
    write_model(tmp_path / "m.nbx", obj)
    return read_model(tmp_path / "m.nbx")


LEARNERS = estimator_classes("nbx.models")
CONFIGS = {  # beyond the defaults: members with their own helper objects, restarts that keep a Generator
    "AdaBoostM1(base=C45Tree)": lambda: AdaBoostM1(base=C45Tree(), n_estimators=8, random_state=0),
    "Bagging(base=NBTree)": lambda: Bagging(base=NBTree(), n_estimators=3, random_state=0),
    "SelfAdaptiveNBTree(gaussian)": lambda: SelfAdaptiveNBTree(leaf=GeneralNB(density="gaussian")),
}


@pytest.mark.parametrize("make", [*LEARNERS, *CONFIGS.values()], ids=[c.__name__ for c in LEARNERS] + list(CONFIGS))
def test_every_learner_comes_back_with_the_same_state_and_predictions(make, tmp_path):
    model = seeded(make) if isinstance(make, type) else make()
    X, y = mixed() if input_kind(model) == "mixed" else codes()
    model.fit(X, y)
    again = reloaded(model, tmp_path)
    assert type(again) is type(model) and again is not model
    same(model, again)
    assert again.predict_proba(X).tobytes() == model.predict_proba(X).tobytes()
    assert again.get_params(deep=True).keys() == model.get_params(deep=True).keys()
    assert repr(again) == repr(model)


def test_adaboost_restarts_keep_their_generators(tmp_path):
    """A restart's generator is part of the weight history; the reloaded history rebuilds the same weights."""
    X, y = mixed()
    model = AdaBoostM1(base=C45Tree(), n_estimators=8, random_state=0).fit(X, y)
    assert sum(model.n_restarts_.values()) > 0
    again = reloaded(model, tmp_path)
    for w, v in zip(model.training_weights_, again.training_weights_):
        assert w.tobytes() == v.tobytes()


@pytest.mark.parametrize("cls", estimator_classes("nbx.discretize"), ids=lambda c: c.__name__)
def test_every_discretizer_and_the_imputer_transform_the_same(cls, tmp_path):
    X, y = mixed()
    n_values = [0, 3, 0]
    if cls.__name__ == "NoDiscretizer":
        X, y = codes()
        n_values = [3, 3, 3, 3]
    model = cls(n_values=n_values).fit(X, y)
    again = reloaded(model, tmp_path)
    same(model, again)
    assert again.transform(X).tobytes() == model.transform(X).tobytes()


# ----------------------------------------------------------------------------------------- the commands
@pytest.fixture(scope="module")
def data_csv(tmp_path_factory) -> Path:
    rng = np.random.default_rng(0)
    n = 150
    y = rng.integers(0, 2, n)
    size = np.round(rng.normal(2.0 * y, 1.0), 3).astype(str)
    colour = np.where(rng.random(n) < 0.8, np.where(y == 1, "red", "blue"), rng.choice(["red", "blue", "green"], n))
    size[::11], colour[3::13] = "", "NA"
    lines = ["size,colour,label"] + [",".join(r) for r in zip(size, colour, np.where(y, "yes", "no"))]
    path = tmp_path_factory.mktemp("data") / "toy.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def pickled_as_before(data_csv: Path, learner: str, path: Path, impute: bool) -> None:
    """The model file earlier versions of `nbx fit` wrote: the same Bundle, pickled."""
    from nbx.cli.common import discretizer_spec, read_table, resolve_learner

    chosen = resolve_learner(learner, None, "--learner")
    bundle = fit_bundle(
        read_table(str(data_csv)), chosen, discretizer_spec("mdl"), "mode" if impute else None, 1, data_csv
    )
    path.write_bytes(pickle.dumps(bundle, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize(
    "learner, impute",
    [("TAN(alpha=0.5)", False), ("C45Tree()", True), ("AdaBoostM1(base=NaiveBayes(), n_estimators=5)", False)],
)
def test_fit_predict_and_show_give_what_the_pickle_gave(capsys, tmp_path, data_csv, learner, impute):
    impute_args = ["--impute", "mode"] if impute else []
    code, _, err = nbx(capsys, "fit", data_csv, "--learner", learner, "--save", tmp_path / "m.nbx", *impute_args)
    assert code == 0, err
    assert (tmp_path / "m.nbx").read_bytes()[:4] == b"PK\x03\x04"
    pickled_as_before(data_csv, learner, tmp_path / "m.pkl", impute)
    capsys.readouterr()  # its note on how the file was read
    new, old = (
        nbx(capsys, "predict", tmp_path / "m.nbx", data_csv),
        nbx(capsys, "predict", "--allow-pickle", tmp_path / "m.pkl", data_csv),
    )
    assert new == old and new[0] == 0 and new[1].count("\n") == 151
    shown_new = nbx(capsys, "show", tmp_path / "m.nbx")
    shown_old = nbx(capsys, "show", "--allow-pickle", tmp_path / "m.pkl")
    assert shown_new[0] == shown_old[0] == 0
    assert shown_new[1].replace("m.nbx", "M") == shown_old[1].replace("m.pkl", "M")
    same(load_bundle(str(tmp_path / "m.nbx")), load_bundle(str(tmp_path / "m.pkl"), allow_pickle=True))


def test_save_accepts_any_name_and_overwrites_a_pickle(capsys, tmp_path, data_csv):
    pickled_as_before(data_csv, "NaiveBayes()", tmp_path / "m.pkl", False)
    capsys.readouterr()
    assert nbx(capsys, "fit", data_csv, "--learner", "NaiveBayes()", "--save", tmp_path / "m.pkl")[0] == 0
    assert isinstance(load_bundle(str(tmp_path / "m.pkl")), Bundle)  # no --allow-pickle: it is nbx's format now


# ------------------------------------------------------------------------------------------ refusals
class Touch:
    """Unpickling this creates the file ``path``: what a malicious model would do."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def one_error(capsys, *argv) -> str:
    code, out, err = nbx(capsys, *argv)
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("nbx: error: "), (code, err)
    assert "internal error" not in err and "Traceback" not in err
    return err.removeprefix("nbx: error: ").rstrip("\n")


@pytest.mark.parametrize("command", ["predict", "show"])
def test_a_malicious_pickle_is_refused_unread(capsys, tmp_path, data_csv, command):
    model, target = tmp_path / "m.pkl", tmp_path / "pwned"
    model.write_bytes(pickle.dumps(Touch(target), protocol=pickle.HIGHEST_PROTOCOL))
    argv = [command, model] + ([data_csv] if command == "predict" else [])
    assert one_error(capsys, *argv) == (
        f"{model}: a pickle (the model format of earlier nbx versions), refused: reading one runs code from the "
        "file; give --allow-pickle if you trust it, or fit the model again"
    )
    assert not target.exists()
    model.write_bytes(b"cos\nsystem\n(S'touch " + str(target).encode() + b"'\ntR.")  # protocol 0: no PROTO bytes
    assert one_error(capsys, *argv).endswith(
        "not a model written by `nbx fit` (neither nbx's model format nor a pickle)"
    )
    assert not target.exists()


@pytest.fixture
def saved(capsys, tmp_path, data_csv) -> Path:
    assert nbx(capsys, "fit", data_csv, "--learner", "C45Tree()", "--save", tmp_path / "m.nbx")[0] == 0
    return tmp_path / "m.nbx"


def rewritten(path: Path, replace: dict[str, bytes | None]) -> Path:
    """A copy of the model file with members replaced (None: dropped); the other members as they were."""
    out = path.with_name("evil.nbx")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            data = replace.get(name, src.read(name))
            if data is not None:
                dst.writestr(name, data)
    return out


def json_of(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        return zf.read("object.json").decode()


@pytest.mark.parametrize(
    "old, new, refused",
    [
        ('"nbx.models.c45:_Node"', '"os:system"', "refused root.model.tree_: class 'os:system' is not nbx's"),
        ('"nbx.models.c45:_Node"', '"builtins:eval"', "class 'builtins:eval' is not nbx's"),
        ('"nbx.models.c45:_Node"', '"subprocess:Popen"', "class 'subprocess:Popen' is not nbx's"),
        ('"nbx.models.c45:_Node"', '"nbx.cli.modelfile:pickle"', "class 'nbx.cli.modelfile:pickle' is not nbx's"),
        ('"estimator": "C45Tree"', '"estimator": "system"', "refused root.model: estimator 'system': not one of"),
        ('"nbx.cli.model:Bundle"', '"nbx.cli.common:Learner"', "refused root: class 'nbx.cli.common:Learner' is"),
    ],
)
def test_a_model_naming_code_outside_nbx_is_refused(capsys, saved, data_csv, monkeypatch, old, new, refused):
    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    text = json_of(saved)
    assert old in text
    evil = rewritten(saved, {"object.json": text.replace(old, new, 1).encode()})
    for argv in (["predict", evil, data_csv], ["show", evil], ["show", "--allow-pickle", evil]):
        message = one_error(capsys, *argv)
        assert message.startswith(f"{evil}: ") and refused in message, message
    assert calls == []


def test_an_object_array_in_a_model_is_refused_unread(capsys, tmp_path, saved, data_csv):
    target = tmp_path / "pwned"
    npy = io.BytesIO()
    np.save(npy, np.array([Touch(target)], dtype=object), allow_pickle=True)
    evil = rewritten(saved, {"arrays/0.npy": npy.getvalue()})
    assert one_error(capsys, "predict", evil, data_csv) == (
        f"{evil}: arrays/0.npy: refused dtype '|O': Python objects (loading them would unpickle)"
    )
    assert not target.exists()


def test_a_damaged_model_is_one_line_naming_it(capsys, saved, data_csv):
    data = saved.read_bytes()
    cut = saved.with_name("cut.nbx")
    for size in (0, 3, 100, len(data) // 2, len(data) - 10):
        cut.write_bytes(data[:size])
        assert one_error(capsys, "predict", cut, data_csv).startswith(f"{cut}: ")
    assert one_error(capsys, "show", rewritten(saved, {"object.json": None})).endswith("no object.json in the file")
    assert one_error(capsys, "show", rewritten(saved, {"object.json": b'{"format": '})).endswith(
        "object.json is not valid JSON (Expecting value: line 1 column 12 (char 11))"
    )


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_model_that_is_not_a_regular_file_is_refused_at_once(capsys, tmp_path, data_csv, kind):
    path = {"fifo": tmp_path / "m.nbx", "folder": tmp_path, "device": Path("/dev/zero")}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    result = []
    reader = threading.Thread(target=lambda: result.append(one_error(capsys, "predict", path, data_csv)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "reading the model blocked"
    what = {"fifo": "a FIFO", "folder": "a directory", "device": "a character device"}[kind]
    assert result == [f"{path}: {what}, not a model file; give the file `nbx fit --save` wrote"]


@pytest.mark.parametrize("command", ["predict", "show"])
def test_help_says_allow_pickle_runs_code(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--allow-pickle" in text and "RUNS CODE FROM THE FILE" in text


def test_what_is_not_a_bundle_is_not_a_model(tmp_path):
    write_model(tmp_path / "nb.nbx", seeded(NBTree).fit(*codes()))
    with pytest.raises(ModelFileError, match="nb.nbx: not a model written by this version of `nbx fit`"):
        load_bundle(str(tmp_path / "nb.nbx"))
