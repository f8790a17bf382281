"""The diagnostics pipeline: debounce edits per document, run one analysis at a time off the
event loop, drop results made stale by a newer edit or settings change, then push them or keep
them for the client to pull."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from burnlint.analysis.findings import Finding
from burnlint.analysis.options import Options
from burnlint.config import ConfigError, is_excluded, settings_for
from burnlint.config import Settings as ProjectSettings
from burnlint.lsp.convert import BUDGET_STOP, SOURCE, ConvertOptions
from burnlint.lsp.crates import CrateCache, crate_key, dependents, forget_manifests
from burnlint.lsp.documents import OpenDocument, path_of
from burnlint.lsp.jobs import Buffer, Job, JobResult, digest, run_job
from burnlint.sources import describe_size

if TYPE_CHECKING:
    from burnlint.lsp.host import Host

logger = logging.getLogger(__name__)
IDLE_SECONDS = 2.0
"""How long the server must have had nothing to analyze before it collects garbage."""
DEBOUNCE_SECONDS = 0.15
"""The longest an edit in a burst waits for the next one."""
BURST_SECONDS = 0.05
"""Edits closer together than this are one burst; also the shortest wait for the next edit."""


@dataclass(frozen=True, slots=True)
class DocResult:
    """The diagnostics of one version of an open document under one settings generation."""

    version: int
    generation: int
    findings: list[Finding]
    diagnostics: list[types.Diagnostic]
    result_id: str
    used: dict[str, int]
    """URI -> version of every open buffer the analysis read (this one included)."""
    era: str = ""
    era_reason: str = ""
    """The burn era the document's crate was analyzed in, and why."""
    notes: tuple[str, ...] = ()
    """What the analyzer said about the document besides findings (a budget stop)."""


class Pipeline:
    """Schedules analyses and delivers their diagnostics."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.cache = CrateCache(host.analyzer)
        # One analysis thread: crate sessions are not thread-safe, and on a small machine a
        # second CPU-bound thread would only slow the event loop down.
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="burnlint-analysis")
        self.results: dict[str, DocResult] = {}
        self.on_delivered: list[Callable[[JobResult, str], None]] = []
        """Called after a run's results were delivered, with the document it was for."""
        self.closed = False
        self.disk_epoch = 0
        """Bumped when files change on disk; a run that started before is stale."""
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._sleeping: set[asyncio.Task[None]] = set()
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._published: dict[str, tuple[int | None, str]] = {}
        self._running: set[str] = set()
        self._last_edit: dict[str, float] = {}
        self._cost: dict[str, float] = {}
        """URI -> seconds its last analysis took (how long a burst is worth waiting for)."""
        self._followers: set[str] = set()
        """Documents analyzed because a crate they depend on changed (they do not cascade)."""
        self.config_problems: set[str] = set()
        """Configuration errors already shown to the user."""
        self._stops_shown: dict[str, int] = {}
        """URI -> the document version whose budget stop was last shown in a window message."""
        self._idle: asyncio.TimerHandle | None = None

    # Scheduling ---------------------------------------------------------------------------

    def schedule(self, uri: str, delay: float | None = None) -> None:
        """Analyze the crate of `uri` after `delay`; a pending, not yet started run for the
        same document is superseded. Without a delay, an edit to a document with no analysis
        running or waiting, and no other edit in the last `BURST_SECONDS`, runs at once (a
        keystroke gets its diagnostics as fast as analysis allows); other edits wait for the
        next one, so a burst costs one more analysis at its end, not one per edit: twice as
        long as the document's last analysis took, between `BURST_SECONDS` and
        `DEBOUNCE_SECONDS` (waiting longer than an analysis costs saves nothing)."""
        if self.closed:
            return
        if delay is None:
            now = time.monotonic()
            last = self._last_edit.get(uri, float("-inf"))
            self._last_edit[uri] = now
            busy = uri in self._running or uri in self._pending
            # Edits closer together than BURST_SECONDS are one burst (a paste, a macro, a
            # client replaying changes): wait for its end instead of analyzing its first edit.
            wait = min(DEBOUNCE_SECONDS, max(BURST_SECONDS, 2 * self._cost.get(uri, 1.0)))
            delay = wait if busy or now - last < BURST_SECONDS else 0
        old = self._pending.get(uri)
        if old is not None and old in self._sleeping:
            old.cancel()
        task = asyncio.get_running_loop().create_task(self._debounced(uri, delay))
        task.add_done_callback(log_failure)
        self._pending[uri] = task

    def schedule_all(self) -> None:
        """Re-analyze every open document now."""
        for doc in self.host.documents.all():
            self.schedule(doc.uri, 0)

    async def _debounced(self, uri: str, delay: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._sleeping.add(task)
        try:
            await asyncio.sleep(delay)
        finally:
            self._sleeping.discard(task)
        try:
            await self.run(uri)
        finally:
            if self._pending.get(uri) is task:
                del self._pending[uri]
            self._wake(uri)

    async def run(self, uri: str) -> None:
        """Analyze the crate of `uri` now and deliver what is still current."""
        await self.host.settings_ready.wait()
        if self._too_large(uri):
            return
        job = self.job_for(uri)
        if job is None or self.closed:
            return
        loop = asyncio.get_running_loop()
        epoch = self.disk_epoch
        self._running.add(uri)
        started = time.monotonic()
        try:
            result = await loop.run_in_executor(self.executor, run_job, self.cache, job)
            self._cost[uri] = time.monotonic() - started
        except Exception:
            logger.exception("analysis of %s failed", uri)
            self._store_failure(uri, job)
            return
        finally:
            self._running.discard(uri)
        # Files changed on disk while this run read them; the run scheduled since replaces it.
        follower = uri in self._followers
        self._followers.discard(uri)
        if epoch == self.disk_epoch:
            # A dependent's run was not asked for by its own document: a pulling client must
            # be told to pull again.
            self.deliver(result, "" if follower else uri)
            for hook in self.on_delivered:
                hook(result, "" if follower else uri)
        if job.anchor is not None and not follower:
            self._recheck_dependents(job.anchor)
        self.collect_when_idle()

    def collect_when_idle(self) -> None:
        """Run a full garbage collection once nothing has been analyzed for `IDLE_SECONDS`
        (see `main.serve`: the automatic ones are rare, and one during typing would stall a
        keystroke)."""
        if self._idle is not None:
            self._idle.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # Not serving (a test driving the pipeline directly).
        self._idle = loop.call_later(IDLE_SECONDS, self._collect)

    def _collect(self) -> None:
        self._idle = None
        if self.closed:
            return
        if self._running or self._pending:
            self.collect_when_idle()
            return
        gc.collect()

    def _recheck_dependents(self, anchor: Path) -> None:
        """Analyze again the open files of crates that depend on `anchor`'s crate (a workspace
        member's helper changed: its callers in other members may have changed too)."""
        by_crate: dict[Path, str] = {}
        for doc in self.host.documents.all():
            if doc.path is not None:
                by_crate.setdefault(crate_key(doc.path), doc.uri)
        own = crate_key(anchor)
        by_crate.pop(own, None)
        if not by_crate:
            return
        for key in dependents(anchor, set(by_crate)):
            follower = by_crate[key]
            # One run per dependent crate reports all its open files; it does not cascade.
            self._followers.add(follower)
            self.schedule(follower, 0)

    def job_for(self, uri: str) -> Job | None:
        """A snapshot of everything a run for `uri` needs; None when there is nothing to do."""
        host = self.host
        settings = host.settings
        if not settings.enable:
            return None
        doc = host.documents.get(uri)
        anchor = doc.path if doc is not None else path_of(uri)
        standalone = None
        if doc is not None and doc.path is None:
            standalone = Buffer(doc.uri, doc.version, doc.text)
        if anchor is None and standalone is None:
            return None
        buffers = {
            d.path: Buffer(d.uri, d.version, d.text)
            for d in host.documents.all()
            if d.path is not None
        }
        support = host.support
        project = self.project_settings(anchor)
        known = frozenset(host.analyzer.by_code)
        # The project's burnlint.toml applies in the editor too; the editor's own settings
        # (a user's choice for this machine) win where both say something.
        ignore = settings.ignore | {code for code in known if not project.enabled(code)}
        if anchor is not None and is_excluded(project, anchor):
            ignore = known
        convert = ConvertOptions(
            host.encoding,
            {**project.severity, **settings.severity},
            settings.docs_url or project.docs_url,
            support.related,
            support.code_description,
            support.action_edit_resolve,
        )
        return Job(
            anchor,
            buffers,
            standalone,
            Options(era=settings.era or project.era, budget_seconds=project.budget, states=True),
            settings.scope == "workspace",
            convert,
            ignore,
            host.generation,
        )

    def project_settings(self, anchor: Path | None) -> ProjectSettings:
        """The project configuration (burnlint.toml / Cargo metadata) around a file; a broken
        file is reported once and ignored until it changes."""
        if anchor is None:
            return ProjectSettings()
        try:
            return settings_for(anchor, frozenset(self.host.analyzer.by_code))
        except ConfigError as error:
            message = f"burnlint: configuration ignored: {error}"
            if message not in self.config_problems:
                self.config_problems.add(message)
                logger.warning("%s", message)
                self.host.window_show_message(
                    types.ShowMessageParams(types.MessageType.Warning, message)
                )
            return ProjectSettings()

    def _too_large(self, uri: str) -> bool:
        """Whether the open document is over `max-file-size`; then it gets one information
        diagnostic saying so instead of an analysis (never a silent skip)."""
        doc = self.host.documents.get(uri)
        if doc is None or not self.host.settings.enable:
            return False
        limit = self.project_settings(doc.path).max_file_size
        # Four bytes per character at most: only texts near the limit are encoded to count.
        if len(doc.text) * 4 <= limit:
            return False
        size = len(doc.text.encode("utf-8", "surrogatepass"))
        if size <= limit:
            return False
        message = (
            f"burnlint: not analyzed: this file is {describe_size(size)}, larger than "
            f"max-file-size ({describe_size(limit)}; burnlint.toml or the CLI's --max-file-size)"
        )
        notice = types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            message=message,
            severity=types.DiagnosticSeverity.Information,
            source=SOURCE,
        )
        generation = self.host.generation
        result_id = digest([notice])
        used = {uri: doc.version}
        self.results[uri] = DocResult(doc.version, generation, [], [notice], result_id, used)
        if not self.host.support.pull:
            self.push(uri, doc.version, [notice], result_id)
        self._wake(uri)
        return True

    # Delivery -----------------------------------------------------------------------------

    def deliver(self, result: JobResult, trigger: str) -> None:
        """Keep and send a run's diagnostics, unless a buffer it read has changed since (then a
        newer run is already scheduled) or the settings changed. `trigger` is the document the
        run was for; a pull client is asked to pull again only when others changed."""
        host = self.host
        if result.generation != host.generation or not host.settings.enable:
            return
        for uri, version in result.used.items():
            doc = host.documents.get(uri)
            if doc is None or doc.version != version:
                return
        others_changed = False
        for file in result.files:
            doc = host.documents.get(file.uri)
            if file.version is None:
                # A file read from disk (workspace scope); skip it if it was opened meanwhile.
                if doc is None:
                    self.push(file.uri, None, file.diagnostics, file.result_id, file.wire)
                continue
            if doc is None:
                continue
            previous = self.results.get(file.uri)
            self.results[file.uri] = DocResult(
                file.version,
                result.generation,
                file.findings,
                file.diagnostics,
                file.result_id,
                result.used,
                result.era,
                result.era_reason,
                tuple(file.notes),
            )
            self._show_stop(file.uri, file.version, file.notes)
            if host.support.pull:
                changed = previous is not None and previous.result_id != file.result_id
                others_changed |= changed and file.uri != trigger
            else:
                self.push(file.uri, file.version, file.diagnostics, file.result_id, file.wire)
            self._wake(file.uri)
        if others_changed and host.support.refresh:
            host.workspace_diagnostic_refresh(None)

    def _show_stop(self, uri: str, version: int, notes: list[str]) -> None:
        """Tell the user once per document version that its analysis stopped on the budget
        (the diagnostic says where; a message is hard to miss)."""
        stops = [note for note in notes if note.startswith(BUDGET_STOP)]
        if not stops or self._stops_shown.get(uri) == version:
            return
        self._stops_shown[uri] = version
        name = uri.rsplit("/", 1)[-1]
        message = f"burnlint: {name}: {stops[0]} (raise `budget` in burnlint.toml)"
        self.host.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))

    def push(
        self,
        uri: str,
        version: int | None,
        diagnostics: list[types.Diagnostic],
        result_id: str,
        wire: list[str] | None = None,
    ) -> None:
        """Publish diagnostics unless the client already has exactly these (sent as the JSON
        text `wire` holds for each, when given: see `lsp.wire`)."""
        if self._published.get(uri) == (version, result_id):
            return
        if version is None and not diagnostics and uri not in self._published:
            return
        self._published[uri] = (version, result_id)
        if wire is not None and len(wire) == len(diagnostics):
            self.host.publish_diagnostics_json(uri, version, wire)
            return
        self.host.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def clear(self, uri: str) -> None:
        """Remove the diagnostics the server pushed for `uri`."""
        if self._published.pop(uri, None) is not None:
            self.host.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def clear_all(self, keep_open: bool = False) -> None:
        """Remove pushed diagnostics (of closed files only, with `keep_open`)."""
        for uri in list(self._published):
            if not (keep_open and self.host.documents.get(uri) is not None):
                self.clear(uri)

    def forget_document(self, uri: str) -> None:
        """A document was closed: drop its results and wake whoever waits for them."""
        self.results.pop(uri, None)
        self._stops_shown.pop(uri, None)
        self._cost.pop(uri, None)
        self._last_edit.pop(uri, None)
        self._wake(uri)

    def _store_failure(self, uri: str, job: Job) -> None:
        """After a failed run, record "no diagnostics" for its document so nobody waits on a
        run that would only fail again."""
        doc = self.host.documents.get(uri)
        if doc is not None and job.generation == self.host.generation:
            read = next((b for b in job.buffers.values() if b.uri == uri), job.standalone)
            if read is not None and read.version == doc.version:
                used = {uri: doc.version}
                self.results[uri] = DocResult(doc.version, job.generation, [], [], digest([]), used)

    # Reading ------------------------------------------------------------------------------

    def published(self, uri: str, version: int) -> list[types.Diagnostic]:
        """The diagnostics last delivered for version `version` of the document, current or
        not (a settings change or another file's edit may be re-analyzing it): what the editor
        holds, with each fix's edits (see `ConvertOptions.lean_fixes`)."""
        result = self.results.get(uri)
        return result.diagnostics if result is not None and result.version == version else []

    def latest(self, uri: str) -> DocResult | None:
        """The document's result if it is current, without waiting: same settings, and no
        buffer it was computed from (another file of the crate, say) changed or closed since."""
        doc = self.host.documents.get(uri)
        result = self.results.get(uri)
        if doc is None or result is None or result.version != doc.version:
            return None
        if result.generation != self.host.generation:
            return None
        for other, version in result.used.items():
            buffer = self.host.documents.get(other)
            if buffer is None or buffer.version != version:
                return None
        return result

    async def current(self, uri: str) -> DocResult | None:
        """The document's current result, analyzing it if needed; None when it is not open
        or burnlint is disabled."""
        loop = asyncio.get_running_loop()
        while True:
            await self.host.settings_ready.wait()
            if self.closed or not self.host.settings.enable:
                return None
            if self.host.documents.get(uri) is None:
                return None
            result = self.latest(uri)
            if result is not None:
                return result
            if uri not in self._pending:
                self.schedule(uri, 0)
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.setdefault(uri, []).append(waiter)
            await waiter

    async def findings_of(self, doc: OpenDocument) -> list[Finding] | None:
        """The findings of the document's current text (analyzing it if needed); None when
        burnlint is off or the document closed."""
        result = await self.current(doc.uri)
        if result is None and (self.closed or not self.host.settings.enable):
            return None
        return result.findings if result is not None and result.version == doc.version else []

    async def diagnostics_of(self, doc: OpenDocument, wait: bool) -> list[types.Diagnostic] | None:
        """The document's diagnostics if they match its text (waiting for them with `wait`);
        None while they are being computed."""
        result = await self.current(doc.uri) if wait else self.latest(doc.uri)
        return result.diagnostics if result is not None and result.version == doc.version else None

    def _wake(self, uri: str) -> None:
        for waiter in self._waiters.pop(uri, []):
            if not waiter.done():
                waiter.set_result(None)

    # Caches -------------------------------------------------------------------------------

    def forget_crates(self, path: Path | None = None, manifests: bool = False) -> None:
        """Drop analyzed crates (those reading `path`, or all) after files changed on disk;
        done on the analysis thread, in order with the runs. Kept results are no longer
        current either."""
        self.disk_epoch += 1
        self.results.clear()
        if manifests:
            self._on_analysis_thread(forget_manifests)
        if path is None:
            self._on_analysis_thread(self.cache.forget)
        else:
            self._on_analysis_thread(self.cache.forget_containing, path)
        # A dropped crate analysis holds reference cycles (the program and its contexts).
        self.collect_when_idle()

    def drop_crate(self, key: Path) -> None:
        """Free the analysis of a crate nobody looks at (on the analysis thread)."""
        self._on_analysis_thread(self.cache.forget, key)
        self.collect_when_idle()

    def warm_up(self) -> None:
        """Import and build the analyzer on the analysis thread while the event loop goes on
        with the client's hand-shake; the first run queues behind it. (A failure is not lost:
        the first run builds it again and logs why it fails.)"""
        self._on_analysis_thread(self._build_analyzer)

    def _build_analyzer(self) -> None:
        self.host.analyzer.get()
        # The compiled knowledge base never dies either: out of every collection, as what
        # start-up loaded (see `main.serve`).
        gc.freeze()

    def _on_analysis_thread(self, task: Callable[..., None], *args: Path) -> None:
        if not self.closed:
            self.executor.submit(task, *args)

    def close(self) -> None:
        """Stop scheduling, cancel pending runs and release waiters (at shutdown)."""
        self.closed = True
        if self._idle is not None:
            self._idle.cancel()
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        for uri in list(self._waiters):
            self._wake(uri)
        self.executor.shutdown(wait=False, cancel_futures=True)


def log_failure(task: asyncio.Task[None]) -> None:
    """Log the exception of a background task (nobody awaits it)."""
    if not task.cancelled() and task.exception() is not None:
        logger.error("background task %s failed", task.get_name(), exc_info=task.exception())
