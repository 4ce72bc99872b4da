"""Where a command writes: only a regular file or a new path (a device, FIFO, directory or empty path refused with
one line, nothing replaced), a symbolic link written through (its target replaced, the link kept), and never one
of the command's own inputs (``nbx predict -o``, ``fit --save``, ``add-data --catalogue``). The check is in the
atomic writers of :mod:`nbx.core.io`, so every writer of the pipeline has it too."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from cli_run import error, nbx

from nbx.core.io import atomic_path, write_bytes, write_json, write_npz, write_text


@pytest.fixture(autouse=True)
def outside_the_repository(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NBX_DEBUG", raising=False)


@pytest.fixture
def fitted(tmp_path, capsys) -> tuple[Path, Path]:
    """(data.csv, m.pkl): a small numeric file and a model fitted on it."""
    rows = [f"{i / 7:.3f},{(i * 3) % 5},{'yes' if i % 3 else 'no'}" for i in range(30)]
    data = tmp_path / "data.csv"
    data.write_text("w,v,label\n" + "\n".join(rows) + "\n")
    assert nbx(capsys, "fit", data, "--learner", "NaiveBayes", "--save", "m.pkl")[0] == 0
    return data, tmp_path / "m.pkl"


def snapshot(*paths: Path) -> dict:
    """Each path's kind, bytes and inode: a refused command leaves all three as they were."""
    out = {}
    for p in paths:
        st = os.lstat(p)
        out[p] = (stat.S_IFMT(st.st_mode), st.st_ino, p.read_bytes() if stat.S_ISREG(st.st_mode) else None)
    return out


# ----------------------------------------------------------------------------------------- not a regular file
def test_an_empty_output_path_is_one_line(capsys, fitted):
    data, model = fitted
    assert nbx(capsys, "predict", model, data, "-o", "") == error("'': an empty output path; give a file name")


def test_a_fifo_as_output_is_refused_and_left_a_fifo(capsys, fitted, tmp_path):
    data, model = fitted
    os.mkfifo(tmp_path / "pipe")
    assert nbx(capsys, "predict", model, data, "-o", "pipe") == error(
        "pipe: is a FIFO, not a regular file; write to a file"
    )
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_as_output_stays_a_device(capsys, fitted, tmp_path):
    """As root a rename replaced a copy of /dev/null's node with a regular file."""
    data, model = fitted
    os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    before = snapshot(tmp_path / "null")
    assert nbx(capsys, "predict", model, data, "-o", "null") == error(
        "null: is a character device, not a regular file; write to a file"
    )
    assert snapshot(tmp_path / "null") == before


def test_dev_null_as_output_is_refused(capsys, fitted):
    data, model = fitted
    assert nbx(capsys, "predict", model, data, "-o", "/dev/null") == error(
        "/dev/null: is a character device, not a regular file; write to a file"
    )


def test_a_directory_as_output_is_refused_before_predicting(capsys, fitted, tmp_path):
    data, model = fitted
    (tmp_path / "out").mkdir()
    assert nbx(capsys, "predict", model, data, "-o", "out") == error("out: Is a directory")
    assert list((tmp_path / "out").iterdir()) == []


# ------------------------------------------------------------------------------------------------- links
def test_a_link_is_written_through_and_kept(capsys, fitted, tmp_path):
    data, model = fitted
    (tmp_path / "real.csv").write_text("old\n")
    (tmp_path / "link.csv").symlink_to("real.csv")
    code, _, err = nbx(capsys, "predict", model, data, "-o", "link.csv")
    assert code == 0 and "error" not in err
    assert (tmp_path / "link.csv").is_symlink() and os.readlink(tmp_path / "link.csv") == "real.csv"
    text = (tmp_path / "real.csv").read_text()
    assert text.startswith("line,actual,predicted,P(no),P(yes)\n") and len(text.splitlines()) == 31


def test_a_dangling_link_creates_its_target(tmp_path):
    (tmp_path / "link.json").symlink_to(tmp_path / "sub" / "new.json")
    write_json(tmp_path / "link.json", {"a": 1})
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "sub" / "new.json").read_text() == '{\n  "a": 1\n}\n'


def test_a_link_loop_is_one_line(capsys, fitted, tmp_path):
    data, model = fitted
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    assert nbx(capsys, "predict", model, data, "-o", "a") == error("a: Too many levels of symbolic links")
    assert os.readlink(tmp_path / "a") == "b" and os.readlink(tmp_path / "b") == "a"


def test_a_link_to_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "link").symlink_to("pipe")
    with pytest.raises(OSError, match="is a FIFO") as err:
        write_text(tmp_path / "link", "x")
    assert err.value.filename == str(tmp_path / "link")


# ----------------------------------------------------------------------------- every atomic writer checks
@pytest.mark.parametrize(
    "write",
    [
        lambda p: write_bytes(p, b"x"),
        lambda p: write_text(p, "x"),
        lambda p: write_json(p, {}),
        lambda p: write_npz(p, a=[1]),
        lambda p: atomic_path(p).__enter__(),
    ],
    ids=["write_bytes", "write_text", "write_json", "write_npz", "atomic_path"],
)
def test_every_atomic_writer_refuses_a_fifo_and_writes_through_a_link(tmp_path, write):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OSError, match=r"is a FIFO, not a regular file"):
        write(tmp_path / "pipe")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)
    with pytest.raises(IsADirectoryError):
        write(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary file left


def test_writing_through_a_link_keeps_the_link(tmp_path):
    (tmp_path / "target.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("target.txt")
    write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "target.txt").read_text() == "new"


# ------------------------------------------------------------------------------------ the command's inputs
def test_predict_output_onto_its_data_or_model_is_refused(capsys, fitted, tmp_path):
    data, model = fitted
    (tmp_path / "alias.csv").symlink_to("data.csv")
    before = snapshot(data, model)
    assert nbx(capsys, "predict", model, data, "-o", data) == error(
        f"--output {data}: is the data file this command reads; write the output elsewhere"
    )
    assert nbx(capsys, "predict", model, data, "-o", "./m.pkl") == error(
        f"--output ./m.pkl: is the model file this command reads ({model}); write the output elsewhere"
    )
    assert nbx(capsys, "predict", model, data, "-o", "alias.csv") == error(
        f"--output alias.csv: is the data file this command reads ({data}); write the output elsewhere"
    )
    assert snapshot(data, model) == before


def test_fit_save_onto_its_data_is_refused(capsys, fitted):
    data, _ = fitted
    before = snapshot(data)
    assert nbx(capsys, "fit", "data.csv", "--learner", "NaiveBayes", "--save", "data.csv") == error(
        "--save data.csv: is the data file this command reads; write the output elsewhere"
    )
    assert snapshot(data) == before


def test_add_data_catalogue_onto_its_data_is_refused(capsys, fitted, tmp_path):
    data = tmp_path / "data" / "local" / "data.csv"  # add-data reads files under data/local/ only
    data.parent.mkdir(parents=True)
    data.write_bytes(fitted[0].read_bytes())
    before = snapshot(data)
    assert nbx(
        capsys, "add-data", "data/local/data.csv", "--name", "mine", "--catalogue", "data/local/data.csv"
    ) == error("--catalogue data/local/data.csv: is the data file this command reads; write the output elsewhere")
    assert snapshot(data) == before
