"""The progress line: drawn only when enabled and the scan is slow, erased at the end."""

from __future__ import annotations

import io

from burnlint import progress
from burnlint.progress import Progress


def test_progress_draws_after_the_delay_and_erases_itself() -> None:
    stream = io.StringIO()
    bar = Progress(stream, enabled=True)
    bar(1, 4)
    assert stream.getvalue() == ""  # a fast scan draws nothing
    bar.started -= progress.DELAY_SECONDS
    bar(2, 4)
    assert stream.getvalue().endswith("2/4 crates")
    assert "#" * 12 + "-" * 12 in stream.getvalue()
    bar.close()
    assert stream.getvalue().endswith("\r\x1b[2K")


def test_progress_is_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()
    bar = Progress(stream)
    bar.started -= 10
    bar(3, 4)
    bar.close()
    assert stream.getvalue() == ""
