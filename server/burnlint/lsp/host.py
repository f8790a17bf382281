"""What the diagnostics pipeline needs of the language server it serves: the open documents,
the analyzer, the current settings and client features, and three ways to talk to the client.
The pipeline depends on this, not on the server (which depends on the pipeline)."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import TYPE_CHECKING, Protocol

from lsprotocol import types

if TYPE_CHECKING:
    from burnlint.analyzing import LazyAnalyzer
    from burnlint.lsp.client import ClientSupport
    from burnlint.lsp.documents import Documents
    from burnlint.lsp.positions import Encoding
    from burnlint.lsp.settings import Settings


class Host(Protocol):
    """The server as the pipeline sees it (read-only properties: the server may replace the
    settings and client features, the pipeline reads the current ones)."""

    @property
    def analyzer(self) -> LazyAnalyzer: ...

    @property
    def documents(self) -> Documents: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def settings_ready(self) -> asyncio.Event:
        """Set while the settings are current (see `BurnlintServer.settings_ready`)."""
        ...

    @property
    def generation(self) -> int:
        """The settings generation; results of older ones are dropped."""
        ...

    @property
    def support(self) -> ClientSupport: ...

    @property
    def encoding(self) -> Encoding: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        """Push diagnostics to the client."""
        ...

    def publish_diagnostics_json(
        self, uri: str, version: int | None, diagnostics: list[str]
    ) -> None:
        """Push diagnostics given as their JSON text (see `lsp.wire`)."""
        ...

    def window_show_message(self, params: types.ShowMessageParams) -> None:
        """Show the user a message."""
        ...

    def workspace_diagnostic_refresh(self, params: None) -> Future[None]:
        """Ask a pulling client to pull diagnostics again."""
        ...
