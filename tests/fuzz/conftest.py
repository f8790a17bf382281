"""Hypothesis profiles for the fuzz tests and a count of the generated cases.

`ci` (the default): a fixed number of derandomized examples per test, so CI runs are
reproducible and take well under a minute. `release`: many more random examples, for a long run
before a release::

    BURNLINT_FUZZ=release pytest tests/fuzz -q
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from invariants import CASES, EXERCISED

_SLOW = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.filter_too_much,
    HealthCheck.large_base_example,
]
settings.register_profile(
    "ci",
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW,
)
settings.register_profile(
    "release",
    max_examples=2000,
    deadline=None,
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW,
)
PROFILE = os.environ.get("BURNLINT_FUZZ", "ci")
settings.load_profile(PROFILE)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CASES:
        return
    terminalreporter.section("burnlint fuzz")
    for name, count in sorted(CASES.items()):
        terminalreporter.write_line(f"{count:6d}  {name}")
    exercised = ", ".join(f"{count} {what}" for what, count in sorted(EXERCISED.items()))
    terminalreporter.write_line(
        f"fuzz: {sum(CASES.values())} cases in {len(CASES)} properties "
        f"(hypothesis profile {PROFILE!r}; {exercised or 'nothing exercised'})"
    )
