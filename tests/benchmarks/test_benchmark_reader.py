"""benchmarks/reader.py's files: what the reader and pandas are timed on is the table its docstring describes, and
both read it alike (the same numbers, the same markers counted). Nothing here times anything."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from benchmark_scripts import in_folder

import nbx.data.userfile as userfile
from nbx.data.userfile import read_user_file


@pytest.fixture
def reader(monkeypatch):
    yield from in_folder(monkeypatch, "reader")


@pytest.mark.parametrize("kind", ["plain", "marked"])
def test_the_benchmark_file_is_read_by_both_readers_alike(reader, tmp_path, monkeypatch, kind):
    path = tmp_path / f"{kind}.csv"
    reader.write_file(path, 3000, kind, chunk=1000)
    monkeypatch.setattr(userfile, "PANDAS_BYTES", 0)  # a small file: through pandas as the big ones go
    ours = read_user_file(path)
    frame = pd.read_csv(path, na_values=["?"] if kind == "marked" else None)
    assert [a["name"] for a in ours.table.attributes] == list(frame.columns[:-1])
    assert [a["kind"] for a in ours.table.attributes] == ["numeric"] * 9 + ["nominal"] * 2
    np.testing.assert_array_equal(ours.table.X[:, :9], frame.iloc[:, :9].to_numpy())
    colours = [c for c in reader.COLOURS if kind == "marked" or "," not in c]
    assert ours.table.attributes[9]["values"] == sorted(colours)  # the quoted 'dark, red' in marked only
    assert ours.table.classes == ["c0", "c1", "c2"]
    marked = int(frame.iloc[:, :-1].isna().sum().sum())
    assert (marked > 0.005 * 3000 * 11) == (kind == "marked")
    assert ours.assumptions == ([f"missing values: '?' ({marked} cells) (--missing to change)"] if marked else [])
