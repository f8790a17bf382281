"""Shared test options: `--bless` regenerates the corpus's expected `.fixed` and `.stderr` files."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--bless", action="store_true", help="rewrite expected .fixed and .stderr files"
    )
