"""A one-line progress report on stderr for long scans, drawn only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

DELAY_SECONDS = 0.5
"""Scans that finish sooner never draw anything."""


class Progress:
    """Call with (done, total) as batches finish; `close` erases the line."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or time.monotonic() - self.started < DELAY_SECONDS:
            return
        width = 24
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\rburnlint: [{bar}] {done}/{total} crates")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Erase the progress line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.drawn = False
