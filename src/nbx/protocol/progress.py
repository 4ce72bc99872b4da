"""Progress of a long stage on stderr: a tqdm bar (current data set, split k/n, elapsed, ETA) on a terminal;
otherwise (logs, CI) one line per data set. Never written to a tracked output."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, label: str, total: int):
        from tqdm import tqdm

        self.label = label
        self.tty = sys.stderr.isatty()
        self.bar = tqdm(
            total=total,
            desc=label,
            unit="split",
            file=sys.stderr,
            disable=not self.tty,
            dynamic_ncols=True,
            leave=False,
        )
        self.last = time.perf_counter()

    def advance(self, item: str) -> None:
        """One split of ``item`` (a data set, a learner) finished."""
        self.bar.set_postfix_str(item, refresh=False)
        self.bar.update(1)

    def finish(self, item: str, n_splits: int) -> float:
        """``item``'s last split is back: one log line off a terminal. Returns the wall-clock seconds since the
        previous item finished (items overlap when their splits share a pool, so these sum to the total)."""
        now = time.perf_counter()
        seconds, self.last = now - self.last, now
        if not self.tty:
            print(f"{self.label}: {item}: {n_splits} splits, {seconds:.1f} s", file=sys.stderr, flush=True)
        return seconds

    def close(self) -> None:
        self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
