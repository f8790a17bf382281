"""The analyzer's states of names in an open document (for inlay hints and hovers), read from the
crate analysis the diagnostics of that version came from; and asking the client for hints
again when another file's run changed a document's states.

Everything that reads the analysis runs on the analysis thread, in order with the runs: a run
moves the spans it keeps when text before them changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar
from weakref import WeakKeyDictionary

from burnlint.lsp.diagnostics import Pipeline, log_failure
from burnlint.lsp.documents import OpenDocument, uri_of
from burnlint.lsp.jobs import JobResult

if TYPE_CHECKING:
    from concurrent.futures import Future

    from burnlint.analysis.engine import CrateSession
    from burnlint.analysis.interp.bindings import BindingLog
    from burnlint.analysis.interp.program import Program
    from burnlint.analysis.states import BindingState, NameState, StateCache
    from burnlint.analyzing import LazyAnalyzer
    from burnlint.lsp.client import ClientSupport
    from burnlint.lsp.documents import Documents
    from burnlint.lsp.settings import Settings

_T = TypeVar("_T")
HOVER_WAIT = 0.25
"""Seconds a hover waits for the analysis thread to read a name's state."""


class StatesHost(Protocol):
    """What reading states needs of the server (the server itself, seen narrowly)."""

    @property
    def analyzer(self) -> LazyAnalyzer: ...

    @property
    def pipeline(self) -> Pipeline: ...

    @property
    def documents(self) -> Documents: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def support(self) -> ClientSupport: ...

    def workspace_inlay_hint_refresh(self, params: None) -> Future[None]:
        """Ask the client for inlay hints again."""
        ...


@dataclass(slots=True)
class Read:
    """States read for a document, with the URIs of the files their origins are in."""

    states: list[BindingState]
    uris: dict[str, str]
    """Shown path (as origins name files) -> URI."""
    hovered: NameState | None = None
    """The name hovered (for `States.at`)."""
    version: int = -1
    """The document version they were read for."""
    whole: bool = False
    """All the document's states, kept by `States.whole` while the analysis stands."""


class States:
    """Reads states for the server's open documents; see the module docstring."""

    def __init__(self, host: StatesHost) -> None:
        self.host = host
        self._caches: WeakKeyDictionary[CrateSession, StateCache] = WeakKeyDictionary()
        self._shown: dict[str, tuple[BindingLog, ...]] = {}
        """URI -> the binding logs its last hints were read from (analysis thread only)."""
        self._whole: dict[str, tuple[Read, tuple[BindingLog, ...], bool]] = {}
        """URI -> all the states of a version, the binding logs they were read from, and
        whether they have their origins (analysis thread only)."""

    async def in_range(
        self, doc: OpenDocument, start: int, end: int, with_origins: bool = True
    ) -> Read | None:
        """The states of names starting in bytes `start`..`end` of the document's current
        version (waiting for its analysis), with their origins unless not `with_origins`;
        None when it has no kept analysis."""
        analyzer = self.host.analyzer

        def compute(program: Program, index: int, cache: StateCache, _: int) -> Read:
            # The interpreter's modules are loaded with the engine, after start-up.
            from burnlint.analysis.states import file_states

            self._shown[doc.uri] = tuple(program.binding_logs(index))
            api = analyzer.get().api
            states = file_states(program, index, api, start, end, cache, with_origins)
            return Read(states, {})

        return await self._read(doc, compute)

    async def whole(self, doc: OpenDocument, with_origins: bool = True) -> Read | None:
        """The states of all names of the document's current version, as `in_range` reads
        them; read once per version and kept (the same `Read`) until the analysis changes
        them (another file's run can, without a new version)."""
        analyzer = self.host.analyzer
        whole = self._whole
        open_uris = {d.uri for d in self.host.documents.all()}

        def compute(program: Program, index: int, cache: StateCache, version: int) -> Read:
            from burnlint.analysis.states import file_states

            logs = tuple(program.binding_logs(index))
            self._shown[doc.uri] = logs
            kept = whole.get(doc.uri)
            if (
                kept is not None
                and kept[0].version == version
                and (kept[2] or not with_origins)
                and len(kept[1]) == len(logs)
                and all(a is b for a, b in zip(kept[1], logs, strict=True))
            ):
                return kept[0]
            api = analyzer.get().api
            states = file_states(program, index, api, 0, None, cache, with_origins)
            read = Read(states, {}, whole=True)
            # `_read` stamps the version and fills in the URIs before the read is shown.
            for uri in [u for u in whole if u not in open_uris]:
                del whole[uri]
            whole[doc.uri] = (read, logs, with_origins)
            return read

        return await self._read(doc, compute)

    async def at(self, doc: OpenDocument, offset: int) -> Read | None:
        """The state of the name (binding or read) at byte `offset`, if it is known."""
        analyzer = self.host.analyzer

        def compute(program: Program, index: int, cache: StateCache, _: int) -> Read:
            from burnlint.analysis.states import state_at

            found = state_at(program, index, analyzer.get().api, offset)
            return Read([found.state], {}, found) if found else Read([], {})

        # A hover does not wait behind other files' analyses (a workspace scan): past
        # `HOVER_WAIT` it shows without the state.
        read = await self._read(doc, compute, HOVER_WAIT)
        return read if read is not None and read.states else None

    async def _read(
        self,
        doc: OpenDocument,
        compute: Callable[[Program, int, StateCache, int], Read],
        timeout: float | None = None,
    ) -> Read | None:
        pipeline = self.host.pipeline
        path = doc.path
        if path is None:
            return None
        result = await pipeline.current(doc.uri)
        if result is None or result.version != doc.version or pipeline.closed:
            return None
        text, uri, version = doc.text, doc.uri, doc.version

        def on_thread() -> Read | None:
            found = pipeline.cache.locate(path)
            if found is None:
                return None
            session, index, paths = found
            program = session.program
            # A newer run may have taken over the analysis: then it is not this version's.
            if program is None or session.files[index].source.text != text:
                return None
            cache = self._caches.get(session)
            if cache is None:
                from burnlint.analysis.states import StateCache

                cache = self._caches[session] = StateCache()
            read = compute(program, index, cache, version)
            read.version = version
            shown = {origin.range.path for state in read.states for origin in state.origins}
            for file, file_path in zip(session.files, paths, strict=True):
                if file.source.path in shown:
                    read.uris[file.source.path] = uri if file_path == path else uri_of(file_path)
            return read

        return await _on_analysis_thread(self.host.pipeline, on_thread, timeout)

    def delivered(self, result: JobResult, trigger: str) -> None:
        """A run's results were delivered: if it changed the states of other open documents
        whose hints the client has, ask it for hints again (where it can be asked)."""
        server = self.host
        if not server.support.inlay_refresh or server.settings.inlay_hints == "off":
            return
        others = [
            (file.uri, file.path)
            for file in result.files
            if file.version is not None and file.uri != trigger and file.path is not None
        ]
        if not others:
            return
        open_uris = {doc.uri for doc in server.documents.all()}
        task = asyncio.get_running_loop().create_task(self._refresh(others, open_uris))
        task.add_done_callback(log_failure)

    async def _refresh(self, others: list[tuple[str, Path]], open_uris: set[str]) -> None:
        def changed() -> bool:
            for uri in [u for u in self._shown if u not in open_uris]:
                del self._shown[uri]
            out = False
            for uri, path in others:
                old = self._shown.get(uri)
                found = self.host.pipeline.cache.locate(path)
                if old is None or found is None or found[0].program is None:
                    continue
                logs = tuple(found[0].program.binding_logs(found[1]))
                if len(logs) != len(old) or any(a is not b for a, b in zip(logs, old, strict=True)):
                    self._shown[uri] = logs
                    out = True
            return out

        if await _on_analysis_thread(self.host.pipeline, changed):
            self.host.workspace_inlay_hint_refresh(None)


async def _on_analysis_thread(
    pipeline: Pipeline, task: Callable[[], _T], timeout: float | None = None
) -> _T | None:
    """`task()` run on the analysis thread; None if it does not start and finish within
    `timeout` seconds (a task still queued is then dropped) or the server is stopping."""
    if pipeline.closed:
        return None
    try:
        future = asyncio.get_running_loop().run_in_executor(pipeline.executor, task)
        return await asyncio.wait_for(future, timeout)
    except asyncio.TimeoutError:
        return None
    except RuntimeError:
        # The executor was shut down meanwhile (the server is stopping).
        return None
