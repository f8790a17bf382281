"""The `lsp` fixture: a fresh `burnlint server` subprocess per test, shut down cleanly after."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_lsp
from harness import SERVER, Client


@pytest_lsp.fixture(config=SERVER)
async def lsp(lsp_client: Client) -> AsyncIterator[None]:
    yield
    # `shutdown_session` does nothing for a session the test never initialized.
    await lsp_client.shutdown_session()
