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
        self.bar = tqdm(total=total, desc=label, unit="split", file=sys.stderr, disable=not self.tty,
                        dynamic_ncols=True, leave=False)
        self.current, self.started, self.done = "", time.perf_counter(), 0

    def start(self, dataset: str) -> None:
        self.current, self.started, self.done = dataset, time.perf_counter(), 0
        self.bar.set_postfix_str(dataset, refresh=False)

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.bar.update(n)

    def finish(self) -> None:
        if not self.tty:
            print(f"{self.label}: {self.current}: {self.done} splits, {time.perf_counter() - self.started:.1f} s",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
