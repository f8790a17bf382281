"""The clock that analysis budgets are measured on: CPU seconds this process has used.

A wall clock would stop an analysis early whenever the machine is busy with something else (a
CI runner, a build beside the editor), so the same crate would be complete on one run and cut
short on the next. CPU time advances only while the analysis (or, in the language server, its
event loop) runs. It imports nothing of burnlint, so every stage may use it."""

from __future__ import annotations

import time


def now() -> float:
    """CPU seconds (user and system, all threads) this process has used so far."""
    return time.process_time()
