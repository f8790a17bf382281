"""The burnlint language server: its state, settings life cycle, and how it starts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO, cast

from lsprotocol import types
from pygls.exceptions import FeatureNotificationError
from pygls.lsp.server import LanguageServer

from burnlint import __version__
from burnlint.analyzing import LazyAnalyzer
from burnlint.kb.model import Entry
from burnlint.lsp.client import ClientSupport
from burnlint.lsp.crates import crate_key
from burnlint.lsp.diagnostics import Pipeline, log_failure
from burnlint.lsp.documents import Documents, OpenDocument, path_of, uri_of
from burnlint.lsp.indexing import index_workspace
from burnlint.lsp.positions import Encoding
from burnlint.lsp.protocol import BurnlintProtocol, GuardedWriter, ThreadedReader, read_messages
from burnlint.lsp.settings import SECTION, Settings, parse_settings
from burnlint.lsp.states import States
from burnlint.lsp.wire import converter, publication

logger = logging.getLogger(__name__)
WATCHED = ("**/*.rs", "**/Cargo.toml", "**/Cargo.lock", "**/burnlint.toml")
MANIFESTS = frozenset({"Cargo.toml", "Cargo.lock", "burnlint.toml"})
CONFIGURATION_TIMEOUT = 5.0
"""Seconds to wait for the client's `workspace/configuration` answer before using defaults."""
_ENCODINGS: dict[str, Encoding] = {"utf-8": "utf-8", "utf-16": "utf-16", "utf-32": "utf-32"}


class BurnlintServer(LanguageServer):
    """The language server with burnlint's state: settings, open documents, the pipeline."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        # pygls leaves its extra constructor arguments untyped.
        super().__init__(  # pyright: ignore[reportUnknownMemberType]
            "burnlint", __version__, protocol_cls=BurnlintProtocol, converter_factory=converter
        )
        self.entries = entries
        self.analyzer = LazyAnalyzer(entries)
        """Built on the analysis thread from when `initialize` is answered (`Pipeline.warm_up`)."""
        self.codes = frozenset(entry.id for entry in entries if entry.is_static)
        self.support = ClientSupport()
        self.settings = Settings()
        self.generation = 0
        """Bumped on every settings change; results of older generations are dropped."""
        self.settings_ready = asyncio.Event()
        """Set while the settings are loaded and current; cleared during a reload, so requests
        that arrive after a configuration change wait for the new settings."""
        self.documents = Documents()
        self.pipeline = Pipeline(self)
        self.states = States(self)
        """The analyzer's states of names, for inlay hints and hovers."""
        self.pipeline.on_delivered.append(self.states.delivered)
        self.init_options: object = None
        self.shutdown_requested = False
        self.exit_code = 1
        self._shown_problems: tuple[str, ...] = ()
        self._index_task: asyncio.Task[None] | None = None
        self.cancelled_progress: set[str] = set()
        """Work done progress tokens the user cancelled."""
        self.watching = False
        """Whether the client watches files for the server (else a save re-reads the crate)."""

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio as pygls does, with the reader that survives broken messages and
        stops when the client is gone."""
        self._stop_event = stop = threading.Event()
        reader = ThreadedReader(stdin or sys.stdin.buffer)
        # A client that no longer reads is gone: end the input, and with it the server.
        self.protocol.set_writer(GuardedWriter(stdout or sys.stdout.buffer, reader.close))
        protocol = cast(BurnlintProtocol, self.protocol)
        try:
            asyncio.run(read_messages(stop, reader, protocol))
        except BrokenPipeError:
            logger.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    @property
    def encoding(self) -> Encoding:
        """The negotiated position encoding."""
        chosen = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        # pygls keeps the client's spelling: an enum member or a plain string.
        name = chosen.value if isinstance(chosen, types.PositionEncodingKind) else str(chosen)
        return _ENCODINGS.get(name, "utf-16")

    # Life cycle ---------------------------------------------------------------------------

    def publish_diagnostics_json(
        self, uri: str, version: int | None, diagnostics: list[str]
    ) -> None:
        """Push diagnostics given as their JSON text (see `lsp.wire`)."""
        params = publication(uri, version, diagnostics)
        protocol = cast(BurnlintProtocol, self.protocol)
        protocol.notify_json(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def on_initialize(self, params: types.InitializeParams) -> None:
        """Remember what the client supports and its initialization options; build the
        analyzer once the answer is sent."""
        self.support = ClientSupport.of(params.capabilities)
        self.init_options = params.initialization_options
        # Queued behind the answer (pygls writes it when this handler returns): the build then
        # runs while the client reads it and sends `initialized` and the first `didOpen`,
        # not after them (a few tens of milliseconds of the first diagnostics).
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(self.pipeline.warm_up)

    async def on_initialized(self) -> None:
        """Read the settings, then register file watchers (the scan starts with the settings)."""
        await self.reload_settings(None)
        await self._register()

    def on_shutdown(self) -> None:
        """Stop analyzing; the process exits on `exit`."""
        self.shutdown_requested = True
        if self._index_task is not None:
            self._index_task.cancel()
        self.pipeline.close()

    def on_exit(self) -> None:
        """Exit code 0 after `shutdown`, 1 otherwise (as the protocol asks)."""
        self.exit_code = 0 if self.shutdown_requested else 1
        self.pipeline.close()

    async def _register(self) -> None:
        """Ask the client to watch files and to notify configuration changes, where it can."""
        registrations: list[types.Registration] = []
        if self.support.watch_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
            registrations.append(
                types.Registration(
                    id="burnlint/watched-files",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers),
                )
            )
        if self.support.configuration_registration:
            registrations.append(
                types.Registration(
                    id="burnlint/configuration",
                    method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                    register_options=types.DidChangeConfigurationRegistrationOptions(
                        section=SECTION
                    ),
                )
            )
        if not registrations:
            return
        try:
            await self.client_register_capability_async(types.RegistrationParams(registrations))
        except Exception as error:
            # Without watchers the server re-reads a crate when one of its files is saved.
            logger.info("client refused registrations: %s", error)
            return
        self.watching = self.support.watch_registration

    # Settings -----------------------------------------------------------------------------

    async def reload_settings(self, pushed: object) -> None:
        """Read the settings (pulled from the client, else `pushed` with a
        `didChangeConfiguration`, else the initialization options) and apply them."""
        self.settings_ready.clear()
        try:
            raw = await self._fetch_settings()
            if raw is None and _has_section(pushed):
                # A pushed payload names every tool's settings; only ours count.
                raw = pushed
            if raw is None:
                raw = self.init_options
            settings, problems = parse_settings(raw, self.codes)
            self.apply_settings(settings, problems)
        finally:
            self.settings_ready.set()
        if self.settings.enable:
            self.pipeline.schedule_all()

    async def _fetch_settings(self) -> object:
        """The `burnlint` section from the client (None if it has none or cannot say)."""
        if not self.support.configuration:
            return None
        items = [types.ConfigurationItem(section=SECTION)]
        try:
            request = self.workspace_configuration_async(types.ConfigurationParams(items))
            values = await asyncio.wait_for(request, CONFIGURATION_TIMEOUT)
        except Exception as error:
            logger.warning("workspace/configuration failed: %s", error)
            return None
        return values[0] if values else None

    def apply_settings(self, settings: Settings, problems: list[str]) -> None:
        """Switch to new settings: drop what they invalidate and re-publish."""
        old, self.settings = self.settings, settings
        self.generation += 1
        logging.getLogger("burnlint").setLevel(settings.log_level.upper())
        if problems and tuple(problems) != self._shown_problems:
            message = "burnlint: invalid settings (defaults used): " + "; ".join(problems)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )
        self._shown_problems = tuple(problems)
        pipeline = self.pipeline
        hints_changed = (old.inlay_hints, old.enable) != (settings.inlay_hints, settings.enable)
        if hints_changed and self.support.inlay_refresh:
            self.workspace_inlay_hint_refresh(None)
        if self.support.pull and self.support.refresh:
            # Pulled diagnostics are re-requested once the new settings are in place.
            self.workspace_diagnostic_refresh(None)
        if not settings.enable:
            pipeline.clear_all()
            return
        if settings.era != old.era:
            pipeline.forget_crates()
        if settings.scope != "workspace":
            pipeline.clear_all(keep_open=True)
        if settings.scope == "workspace":
            self.start_index(progress=old.scope != "workspace" or not old.enable)

    def start_index(self, progress: bool) -> None:
        """(Re)start the workspace scan in the background."""
        if self._index_task is not None and not self._index_task.done():
            self._index_task.cancel()
        self._index_task = asyncio.get_running_loop().create_task(index_workspace(self, progress))
        self._index_task.add_done_callback(log_failure)

    # Files on disk ------------------------------------------------------------------------

    def on_watched_files(self, changes: list[types.FileEvent]) -> None:
        """Files changed on disk: drop the crates they affect and re-publish."""
        pipeline = self.pipeline
        paths = [(change, path_of(change.uri)) for change in changes]
        for change, path in paths:
            if change.type == types.FileChangeType.Deleted:
                pipeline.clear(change.uri)
                if path is not None:
                    pipeline.clear(uri_of(path))
        if any(path is not None and path.name in MANIFESTS for _, path in paths):
            pipeline.forget_crates(manifests=True)
        else:
            # Saving an open file changes nothing: its buffer is what gets analyzed anyway.
            changed = {p for _, p in paths if p is not None and not self.documents.is_open(p)}
            if not changed:
                return
            for path in changed:
                pipeline.forget_crates(path)
        pipeline.schedule_all()
        if self.settings.scope == "workspace" and self.settings.enable:
            self.start_index(progress=False)

    def on_saved(self, path: Path | None) -> bool:
        """Without file watchers, a save is the moment to re-read the crate from disk;
        returns whether the crate was dropped (and needs a new run)."""
        if self.watching or path is None:
            return False
        self.pipeline.forget_crates(path, manifests=True)
        return True

    # Open documents -----------------------------------------------------------------------

    def on_opened(self, doc: OpenDocument) -> None:
        """Analyze a newly opened document right away."""
        if doc.path is not None and (self.support.pull or uri_of(doc.path) != doc.uri):
            # The workspace scan may have pushed diagnostics for the file while it was closed;
            # those of the open document (pulled, or pushed under the client's URI) take over.
            self.pipeline.clear(uri_of(doc.path))
        self.pipeline.schedule(doc.uri, 0)

    def on_closed(self, doc: OpenDocument) -> None:
        """A document was closed: its diagnostics go (or, in workspace scope, come from the
        file on disk now), and the other open files of its crate are analyzed again."""
        pipeline = self.pipeline
        pipeline.forget_document(doc.uri)
        if self.settings.scope == "workspace" and doc.path is not None:
            pipeline.clear(doc.uri)
            pipeline.schedule(uri_of(doc.path), 0)
        elif not self.support.pull:
            pipeline.clear(doc.uri)
        if doc.path is None:
            return
        key = crate_key(doc.path)
        others = [d for d in self.documents.all() if d.path and crate_key(d.path) == key]
        for other in others:
            pipeline.schedule(other.uri, 0)
        if not others and self.settings.scope != "workspace":
            # Nothing of the crate is open any more: free its analysis.
            pipeline.drop_crate(key)

    # Errors -------------------------------------------------------------------------------

    def report_server_error(self, error: Exception, source: object) -> None:
        """Log an unexpected error; a failed notification handler is also logged to the
        client's output (a failed request already answers with the error)."""
        logger.error("%s", error)
        if source is FeatureNotificationError:
            self.window_log_message(
                types.LogMessageParams(type=types.MessageType.Error, message=f"burnlint: {error}")
            )


def _has_section(payload: object) -> bool:
    """Whether a `didChangeConfiguration` payload carries a `burnlint` section."""
    return isinstance(payload, Mapping) and SECTION in cast(Mapping[str, object], payload)
