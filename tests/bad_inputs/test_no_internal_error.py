"""What a user can cause never ends in ``internal error``: a broken timings JSON or results CSV, a params.yaml or
catalogue in another encoding, a YAML alias bomb or recursive alias, an environment variable or option out of
range, a learner option given twice each end in one line naming the file and line, key, option or variable
(exit code 1, files untouched); ``timings --pareto`` names the learners it leaves out."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from cli_run import error, nbx

from nbx.data.catalogue import load_catalogue
from nbx.data.yaml_io import ALIAS_NODES
from nbx.pipeline.config import ConfigError

REPO = Path(__file__).resolve().parents[2]
PARAMS = (REPO / "params.yaml").read_text()
LEARNERS = ["nb_kang", "tan", "c45_kang"]


@pytest.fixture(autouse=True)
def no_traceback(monkeypatch):
    monkeypatch.delenv("NBX_DEBUG", raising=False)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A params.yaml whose kang2006 runs LEARNERS on iris and wine, their results, and timings of all but c45_kang."""
    monkeypatch.chdir(tmp_path)
    params = yaml.safe_load(PARAMS)
    block = params["experiments"]["kang2006"]
    block.update(learners=LEARNERS, reference=LEARNERS[0], datasets={"Iris": "iris", "Wine": "wine"})
    block["protocol"] = {"kind": "cv", "folds": 10, "repeats": 1, "stratified": True}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    lines = ["dataset,learner,split,repeat,test_rows,accuracy"]
    for ds in ("iris", "wine"):
        for x, d in zip(LEARNERS, (0, 0.05, -0.05)):
            lines += [f"{ds},{x},{s},0,10,{a + d:.6f}" for s, a in enumerate(np.linspace(0.7, 0.9, 10))]
    (tmp_path / "data" / "results").mkdir(parents=True)
    (tmp_path / "data" / "results" / "kang2006.csv").write_text("\n".join(lines) + "\n")
    folder = tmp_path / "data" / "timings" / "kang2006"
    folder.mkdir(parents=True)
    for x, secs in (("nb_kang", 0.5), ("tan", 2.0)):
        seconds = {"fit_seconds": secs, "predict_seconds": 0.0, "wall_seconds": secs}
        (folder / f"{x}.json").write_text(json.dumps(dict.fromkeys(("iris", "wine"), seconds)))
    return tmp_path


# ------------------------------------------------------------------------------------------ timings, results
@pytest.mark.parametrize(
    "text, message",
    [
        ('{"iris": {"fit', "1:11: not valid JSON (Unterminated string starting at)"),
        ('{"iris": {"fit_seconds": 1.0}', "1:30: not valid JSON (Expecting ',' delimiter)"),
        ("", "1:1: not valid JSON (Expecting value)"),
        ("[1, 2]", ": not a timings file (a mapping data set -> seconds)"),
        ('{"iris": {"wall_seconds": "1.5"}}', ": iris.wall_seconds: '1.5' is not a number of seconds"),
    ],
)
@pytest.mark.parametrize("pareto", [False, True])
def test_a_broken_timings_file_is_one_line_at_its_place(capsys, repo, text, message, pareto):
    path = Path("data/timings/kang2006/tan.json")
    path.write_text(text)
    assert nbx(capsys, "timings", "kang2006", *(["--pareto"] if pareto else [])) == error(
        f"{path}{'' if message.startswith(':') else ':'}{message}; rerun the learner's train cells (`dvc repro`) "
        "to rewrite it"
    )
    assert path.read_text() == text


@pytest.mark.parametrize(
    "text, message",
    [
        (b'garbage\x00\xff\n"unterminated\n', ": not a results table ("),
        (b"a,b\n1,2\n", ":1: no column 'dataset', 'learner', 'split', 'accuracy' (a results table has "),
        (b"", ": not a results table (No columns to parse from file); "),
        (b"dataset,learner,split,accuracy\niris,nb_kang,0,0.5\niris,nb_kang,1,high\n", ":3: column 'accuracy': "),
    ],
)
def test_a_broken_results_file_is_one_line(capsys, repo, text, message):
    path = Path("data/results/kang2006.csv")
    path.write_bytes(text)
    code, out, err = nbx(capsys, "results", "kang2006")
    assert (code, out, err.count("\n")) == (1, "", 1) and err.startswith(f"nbx: error: {path}{message}"), err
    assert err.endswith("; rerun `dvc repro evaluate@kang2006` to rewrite it\n") and path.read_bytes() == text


def test_pareto_names_the_learner_without_timings_in_a_note(capsys, repo):
    code, out, err = nbx(capsys, "timings", "kang2006", "--pareto")
    assert code == 0
    assert err == (
        "nbx: note: --pareto: no timings of c45_kang in data/timings/kang2006/, left out of the ranks (run their "
        "train cells: `dvc repro report@kang2006`)\n"
    )
    assert re.search(r"^nb_kang\s+1\.0\s+2\.00\s+80\.00\s+\*$", out, re.M)  # ranked among the two with timings
    assert re.search(r"^tan\s+4\.0\s+1\.00\s+85\.00\s+\*$", out, re.M) and "c45_kang" not in out


def test_pareto_names_the_data_sets_it_leaves_out(capsys, repo):
    path = Path("data/timings/kang2006/tan.json")
    path.write_text(json.dumps({"iris": {"fit_seconds": 2.0, "wall_seconds": 2.0}}))
    code, _, err = nbx(capsys, "timings", "kang2006", "--pareto")
    assert code == 0 and err.splitlines()[1] == (
        "nbx: note: --pareto: data sets wine left out: not every learner kept has results and timings there"
    )


@pytest.mark.parametrize("command", ["results", "timings"])
@pytest.mark.parametrize("width", ["0", "-5", "wide"])
def test_a_width_below_1_is_one_line(capsys, repo, command, width):
    assert nbx(capsys, command, "kang2006", "--width", width) == error(
        f"{command}: --width: '{width}' is not an integer >= 1 (see `nbx {command} --help`)"
    )


# ------------------------------------------------------------------------------------------- command line
@pytest.fixture
def data_csv(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "d.csv"
    path.write_text("w,label\n" + "".join(f"{i / 3:.2f},{'ab'[i % 2]}\n" for i in range(20)))
    return path


@pytest.mark.parametrize("command", ["evaluate", "fit"])
def test_a_negative_seed_is_one_line_naming_the_option(capsys, data_csv, command):
    rest = ["--learners", "NaiveBayes"] if command == "evaluate" else ["--learner", "NaiveBayes", "--save", "m.pkl"]
    assert nbx(capsys, command, data_csv, *rest, "--seed", "-1") == error(
        f"{command}: --seed: '-1' is not an integer >= 0 (see `nbx {command} --help`)"
    )
    assert not Path("m.pkl").exists()


@pytest.mark.parametrize("value", ["abc", "-2", "2.5", "+2", "2_0"])
def test_nbx_jobs_that_is_not_a_count_is_one_line(capsys, data_csv, monkeypatch, value):
    monkeypatch.setenv("NBX_JOBS", value)
    assert nbx(capsys, "evaluate", data_csv, "--learners", "NaiveBayes", "--cv", "2") == error(
        f"NBX_JOBS={value!r} is not a number of worker processes (a positive integer, 0: one per core)"
    )


@pytest.mark.parametrize(
    "option, spec, message",
    [
        ("--learners", "NaiveBayes(alpha=1, alpha=2)", "'alpha' is given twice; give it once"),
        ("--learners", "AdaBoostM1(base=NaiveBayes(alpha=1,alpha=2))", "'alpha' is given twice; give it once"),
        ("--learners", "NaiveBayes(class=TAN)", "'class' is not an option: the class is the name before the '('"),
        ("--discretizer", "equal_width(bins=2, bins=3)", "'bins' is given twice; give it once"),
    ],
)
def test_an_option_given_twice_in_a_spec_is_one_line(capsys, data_csv, option, spec, message):
    """The last value was taken silently; params.yaml refuses a repeated key."""
    args = {"--learners": spec} if option == "--learners" else {"--learners": "NaiveBayes", option: spec}
    quoted = "NaiveBayes(alpha=1,alpha=2)" if spec.startswith("AdaBoost") else spec
    assert nbx(capsys, "evaluate", data_csv, *[x for kv in args.items() for x in kv]) == error(
        f"{option}: {quoted!r}: {message}"
    )


# --------------------------------------------------------------------------------------------------- YAML
def bomb(levels: int = 9) -> str:
    """Nested aliases: 9 lines that expand to 9**9 (387 million) strings."""
    lines = ['lol_a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefghi", "bcdefghij"[:levels]):
        lines.append(f"lol_{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _line(text: str, part: str) -> int:
    return text[: text.index(part)].count("\n") + 1


@pytest.mark.parametrize(
    "extra, at, message",
    [
        (bomb(), "lol_e:", f"aliases expand to more than {ALIAS_NODES:,} nodes (an alias bomb?); write the values out"),
        ("self: &s\n  again: *s\n", "  again", "an alias refers to a collection that contains it (a recursive alias)"),
        ("deep: " + "[" * 150 + "]" * 150 + "\n", "deep:", "collections nested deeper than 100 levels"),
    ],
    ids=["alias bomb", "recursive alias", "deep nesting"],
)
def test_yaml_alias_bombs_and_recursion_fail_fast_at_their_line(tmp_path, monkeypatch, capsys, extra, at, message):
    """The bomb ran 45-150 s into a MemoryError, the recursive alias into "maximum recursion depth"."""
    monkeypatch.chdir(tmp_path)
    text = PARAMS + extra
    (tmp_path / "params.yaml").write_text(text)
    start = time.perf_counter()
    assert nbx(capsys, "learners") == error(f"params.yaml:{_line(text, at)}: {message}")
    catalogue = tmp_path / "cat.yaml"
    catalogue.write_text("datasets: {}\n" + extra)
    with pytest.raises(Exception, match=re.escape(f"{catalogue}:{_line(extra, at) + 1}: {message}")):
        load_catalogue([catalogue])
    assert time.perf_counter() - start < 5


def test_aliases_within_the_budget_still_load(tmp_path):
    catalogue = tmp_path / "cat.yaml"
    catalogue.write_text(
        "common: &c {source: local, format: csv, files: [{path: data/local/a.csv}], rows: 3, attributes: 1, "
        "classes: 2, columns: ny}\ndatasets:\n  a: *c\n  b:\n    <<: *c\n    title: B\n"
    )
    with pytest.raises(Exception, match="common"):  # the catalogue's closed schema, not the alias check
        load_catalogue([catalogue])


def test_a_latin1_params_yaml_is_one_line_at_its_byte(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    data = PARAMS.encode().replace(b"title: Lee, Greiner", b"title: L\xe9e, Greiner", 1)
    (tmp_path / "params.yaml").write_bytes(data)
    at = data.index(b"\xe9")
    line, column = data[:at].count(b"\n") + 1, at - data.rfind(b"\n", 0, at)
    assert nbx(capsys, "learners") == error(
        f"params.yaml:{line}:{column}: not UTF-8 text (byte 0xe9; it looks like Latin-1/cp1252): convert it, e.g. "
        "`iconv -f cp1252 -t utf-8 params.yaml > params.utf8.yaml`"
    )


def test_a_latin1_or_utf16_catalogue_is_one_line(tmp_path):
    catalogue = tmp_path / "cat.yaml"
    catalogue.write_bytes("datasets:\n  mine:\n    title: caf\xe9\n".encode("latin-1"))
    with pytest.raises(Exception, match=re.escape(f"{catalogue}:3:15: not UTF-8 text (byte 0xe9; it looks like")):
        load_catalogue([catalogue])
    catalogue.write_bytes("datasets: {}\n".encode("utf-16"))
    with pytest.raises(Exception, match=re.escape(f"{catalogue}:1:1: UTF-16 text (its byte-order mark says so)")):
        load_catalogue([catalogue])


def test_add_data_names_a_latin1_catalogue(tmp_path, monkeypatch, capsys, data_csv):
    local = tmp_path / "data" / "local"  # add-data's files and catalogues live there
    local.mkdir(parents=True, exist_ok=True)
    if (tmp_path / "d.csv").exists():
        (local / "d.csv").write_bytes((tmp_path / "d.csv").read_bytes())
    (local / "cat.yaml").write_bytes(b"datasets:\n  x: {title: caf\xe9}\n")
    code, out, err = nbx(capsys, "add-data", "data/local/d.csv", "--name", "d", "--catalogue", "data/local/cat.yaml")
    assert (code, out) == (1, "") and err.startswith("nbx: error: data/local/cat.yaml:2:17: not UTF-8 text (byte 0xe9")
    assert (local / "cat.yaml").read_bytes() == b"datasets:\n  x: {title: caf\xe9}\n"


def test_config_error_is_the_class_of_the_params_encoding_error(tmp_path, monkeypatch):
    from nbx.cli.common import load_params

    monkeypatch.chdir(tmp_path)
    (tmp_path / "params.yaml").write_bytes(b"seed: 1\n# caf\xe9\n")
    with pytest.raises(ConfigError, match=r"^params\.yaml:2:6: not UTF-8 text"):
        load_params()


def test_a_results_file_with_a_byte_order_mark_reads(capsys, repo):
    path = Path("data/results/kang2006.csv")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, out, _ = nbx(capsys, "results", "kang2006")
    assert code == 0 and re.search(r"^iris \(10\)\s+80\.00", out, re.M)
