"""Analyze batches: in this process, updating crates kept analyzed between checks, or in a pool
of worker processes when there is more than one crate to analyze."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from burnlint.analysis.findings import FileResult
from burnlint.analysis.options import Options
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.batches import Batch
from burnlint.config import Settings
from burnlint.kb.model import Entry
from burnlint.loading import crate_files

if TYPE_CHECKING:
    from pathlib import Path

    from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession

Tag = TypeVar("Tag")


class LazyAnalyzer:
    """The analyzer, built on first use: a check answered from the cache never imports the
    analysis engine (a fifth of a second on a small machine), and the language server answers
    `initialize` before importing it. Safe to share between threads."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.by_code = {entry.id: entry for entry in entries if entry.is_static}
        self._built: Analyzer | None = None
        self._lock = threading.Lock()

    def get(self) -> Analyzer:
        """The analyzer (imported and built now if needed)."""
        if self._built is None:
            with self._lock:
                if self._built is None:
                    from burnlint.analysis.engine import Analyzer

                    self._built = Analyzer(self.entries)
        return self._built


class KeptSessions:
    """The analyzed crates of earlier checks, by crate (see `Request.sessions`); the `limit`
    most recently analyzed are kept (a workspace's every crate would hold all its analyses)."""

    def __init__(self, limit: int = 8) -> None:
        self._kept: dict[Path, tuple[object, CrateSession]] = {}
        self.limit = limit

    def __contains__(self, anchor: Path) -> bool:
        return anchor in self._kept

    def session(
        self,
        analyzer: Analyzer,
        anchor: Path,
        files: list[CrateFile],
        options: Options,
        crate: CrateInfo,
        graph: dict[str, dict[str, str]],
    ) -> CrateSession:
        """The crate's kept session brought up to `files` (their texts changed, nothing else),
        or a new one (kept for next time)."""
        from burnlint.analysis.engine import CrateSession
        from burnlint.analysis.syntax.source import SourceFile

        shape = (
            tuple((f.source.path, f.module, f.target, f.crate) for f in files),
            options,
            crate,
            repr(graph),
        )
        found = self._kept.pop(anchor, None)
        if found is not None and found[0] == shape:
            self._kept[anchor] = found
            session = found[1]
            for index, file in enumerate(files):
                old = session.files[index].source
                if old.text != file.source.text:
                    # Reuse the old tree: tree-sitter re-parses only around the change.
                    session.update(index, SourceFile(old.path, file.source.text, previous=old))
            return session
        session = CrateSession(analyzer, files, options, crate, graph)
        self._kept[anchor] = (shape, session)
        while len(self._kept) > self.limit:
            del self._kept[next(iter(self._kept))]
        return session


def options_for(settings: Settings, known: frozenset[str]) -> Options:
    """The analyzer's options for a configuration."""
    enabled = frozenset(code for code in known if settings.enabled(code))
    return Options(
        era=settings.era,
        select=None if enabled == known else enabled,
        budget_seconds=settings.budget,
    )


# Worker processes. The analyzer is handed over by fork where that is safe (no other threads),
# which saves each worker from compiling the knowledge base again.
_WORKER: dict[str, Analyzer] = {}


def analyze(
    lazy: Analyzer | LazyAnalyzer,
    pending: Sequence[tuple[Batch, Tag]],
    jobs: int,
    sessions: KeptSessions | None,
) -> Iterator[tuple[Batch, Tag, list[FileResult]]]:
    """Each pending batch's target results, with the tag it came with: kept crates and a
    single batch in this process, the rest in up to `jobs` worker processes (largest first,
    answered in that order)."""
    if not pending:
        return
    analyzer = lazy.get() if isinstance(lazy, LazyAnalyzer) else lazy
    known = frozenset(analyzer.by_code)
    if sessions is not None:
        # Crates kept from an earlier check are updated in this process.
        for batch, tag in pending:
            if batch.anchor in sessions:
                yield batch, tag, _analyze_batch(analyzer, batch, known, sessions)
        pending = [item for item in pending if item[0].anchor not in sessions]
        if not pending:
            return
    jobs = max(1, min(jobs, len(pending)))
    if jobs == 1:
        for batch, tag in pending:
            yield batch, tag, _analyze_batch(analyzer, batch, known, sessions)
        return
    # Imported here: a language server (one crate at a time, in-process) never needs them,
    # and they cost a tenth of a second at start.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _WORKER["analyzer"] = analyzer
    method = "fork" if _can_fork() else "spawn"
    context = multiprocessing.get_context(method)
    # Largest first, so one big crate does not start last and leave the other workers idle.
    order = sorted(range(len(pending)), key=lambda i: -pending[i][0].size)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [(i, pool.submit(_worker, pending[i][0], known)) for i in order]
        for i, future in futures:
            batch, tag = pending[i]
            yield batch, tag, future.result()


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _worker(batch: Batch, known: frozenset[str]) -> list[FileResult]:
    analyzer = _WORKER.get("analyzer")
    if analyzer is None:
        # A spawned worker starts empty: compile the knowledge base once per worker.
        from burnlint.analysis.engine import Analyzer
        from burnlint.kb.load import load_kb

        analyzer = _WORKER["analyzer"] = Analyzer(load_kb())
    return _analyze_batch(analyzer, batch, known)


def _analyze_batch(
    analyzer: Analyzer,
    batch: Batch,
    known: frozenset[str],
    sessions: KeptSessions | None = None,
) -> list[FileResult]:
    from burnlint.analysis.engine import CrateSession

    files, _, graph = crate_files(batch.crate, batch.inputs, batch.graph)
    options = options_for(batch.settings, known)
    if sessions is not None:
        session = sessions.session(analyzer, batch.anchor, files, options, batch.crate, graph)
    else:
        session = CrateSession(analyzer, files, options, batch.crate, graph)
    return [r for r, f in zip(session.results(), files, strict=True) if f.target]
