"""benchmarks/ctrl_c.py's sorting of what an interrupted run left on stderr, and its data. Nothing here times or
interrupts anything."""

from __future__ import annotations

import pytest
from benchmark_scripts import load

LEAK = (
    "nbx: interrupted\n/usr/lib/python3/joblib/externals/loky/backend/resource_tracker.py:310: UserWarning: "
    "resource_tracker: There appear to be 1 leaked folder objects to clean up at shutdown\n"
)
KEY_ERROR = (
    "Exception in thread ExecutorManagerThread:\nTraceback (most recent call last):\n"
    '  File "process_executor.py", line 659, in add_call_item_to_queue\nKeyError: 7\nnbx: interrupted\n'
)
WORKER = (
    'Traceback (most recent call last):\n  File "process_executor.py", line 110\nKeyboardInterrupt\nnbx: interrupted\n'
)
SEMLOCK = "nbx: interrupted\nUserWarning: resource_tracker: /loky-1-x: FileNotFoundError(2, 'No such file')\n"


@pytest.fixture(scope="module")
def ctrl_c():
    return load("ctrl_c")


@pytest.mark.parametrize(
    ("code", "stderr", "expected"),
    [
        (130, "nbx: interrupted\n", "one line"),
        (1, "nbx: interrupted\n", "other (exit 1)"),  # the line, but not the exit code of a Ctrl-C
        (130, "nbx: interrupted\nnbx: interrupted\n", "other (exit 130)"),
        (130, LEAK, "leaked-folder warning"),
        (130, KEY_ERROR, "loky manager thread's KeyError"),
        (130, WORKER, "a traceback"),
        (130, SEMLOCK, "another resource-tracker warning"),
    ],
)
def test_each_kind_of_stderr_is_counted_as_itself(ctrl_c, code, stderr, expected):
    assert ctrl_c.kind(code, stderr) == expected


def test_the_data_is_seeded_and_has_its_header(ctrl_c, tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    ctrl_c.write_data(a)
    ctrl_c.write_data(b)
    lines = a.read_text().splitlines()
    assert a.read_bytes() == b.read_bytes()
    assert lines[0] == "x0,x1,x2,x3,x4,x5,x6,x7,label" and len(lines) == 3001
    assert {line.rsplit(",", 1)[1] for line in lines[1:]} == {"c0", "c1", "c2"}
