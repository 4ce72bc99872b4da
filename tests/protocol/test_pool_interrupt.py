"""A Ctrl-C around the pool prints one line: held while the pool starts (nbx.protocol.runner._ctrl_c_held), an
aborted pool's teardown kept off stderr (nbx.protocol.runner._aborted_pool_quiet), and the workers leave the
Ctrl-C to the main process."""

import os
import signal
import threading
from types import SimpleNamespace

import pytest

from nbx.protocol import runner


@pytest.fixture(autouse=True)
def python_handles_ctrl_c():
    """Python's own SIGINT handler, as in a process started from a terminal (one started in the background by a
    shell without job control, such as a CI script's, begins with SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_in_the_block_is_raised_at_its_end():
    reached = []
    with pytest.raises(KeyboardInterrupt), runner._ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")  # the block runs on to its end
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_held_ctrl_c_replaces_what_the_block_raised():
    with pytest.raises(KeyboardInterrupt) as caught, runner._ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        raise RuntimeError("the pool's workers are gone")
    assert isinstance(caught.value.__context__, RuntimeError)


def test_without_a_ctrl_c_the_block_is_untouched():
    with runner._ctrl_c_held():
        value = 1
    assert value == 1 and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(ValueError, match="own"), runner._ctrl_c_held():
        raise ValueError("its own error")


def test_outside_the_main_thread_or_under_another_handler_nothing_is_held():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(_enter_and_report()))
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]  # a thread cannot set a handler: left as it was

    def callers(*_):
        pass

    previous = signal.signal(signal.SIGINT, callers)
    try:
        assert _enter_and_report() is callers  # the caller's handler stays in place
    finally:
        signal.signal(signal.SIGINT, previous)


def _enter_and_report():
    with runner._ctrl_c_held():
        return signal.getsignal(signal.SIGINT)


def _die_in_thread(flags=None):
    thread = threading.Thread(target=lambda: 1 / 0)
    if flags is not None:
        thread.executor_flags = flags  # what loky's manager thread carries
    thread.start()
    thread.join()


def test_only_a_killed_pools_thread_is_silenced_and_only_while_the_pool_runs():
    printed = []
    previous = threading.excepthook
    threading.excepthook = lambda args: printed.append(args.exc_type)
    try:
        killed = SimpleNamespace(shutdown=True, kill_workers=True)
        with runner._aborted_pool_quiet():
            _die_in_thread(killed)
            assert printed == []
            _die_in_thread(SimpleNamespace(shutdown=True, kill_workers=False))  # a plain shutdown: a real fault
            _die_in_thread()
            assert printed == [ZeroDivisionError, ZeroDivisionError]
        _die_in_thread(killed)
        assert printed == [ZeroDivisionError] * 3
    finally:
        threading.excepthook = previous


def test_the_pools_workers_ignore_ctrl_c():
    joblib = pytest.importorskip("joblib")
    with runner._parallel_backend("loky"):
        seen = joblib.Parallel(n_jobs=2)(joblib.delayed(signal.getsignal)(signal.SIGINT) for _ in range(4))
    assert seen == [signal.SIG_IGN] * 4
