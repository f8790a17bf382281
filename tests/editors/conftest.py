"""Editor tests: declare pytest-timeout's marker so it is known even without the plugin."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "timeout(seconds): fail the test after this many seconds")
