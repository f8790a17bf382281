"""Check paths as a user names them: read files, apply each file's configuration, group them by
crate, and analyze each crate's target files with the crate's other files as context (helpers,
wrappers, struct fields), from the result cache when nothing changed, in worker processes when
there is more than one crate to analyze."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint import batch_keys
from burnlint.analysis.findings import FileResult
from burnlint.analyzing import KeptSessions, LazyAnalyzer, analyze
from burnlint.batches import Batch, ScanLimit, plan
from burnlint.cache import ResultCache, Stored
from burnlint.config import ConfigError, Overrides, Settings
from burnlint.sources import read_target
from burnlint.walk import Target

if TYPE_CHECKING:
    from burnlint.analysis.engine import Analyzer


@dataclass(slots=True)
class CheckRun:
    """What one check found: per-file results, problems, and the text of every file read."""

    results: list[FileResult] = field(default_factory=list[FileResult])
    problems: list[str] = field(default_factory=list[str])
    files: int = 0
    texts: dict[str, str] = field(default_factory=dict[str, str])
    settings: dict[str, Settings] = field(default_factory=dict[str, Settings])
    """The effective configuration of each target file (by shown path)."""
    cached: int = 0
    """How many target files were answered from the cache."""
    paths: dict[str, Path] = field(default_factory=dict[str, Path])
    """Where each file read is on disk (resolved), by shown path."""


@dataclass(frozen=True, slots=True)
class Request:
    """What to check and how: paths, command-line overrides of the configuration, the cache,
    worker processes, texts to use instead of the disk (`overlay`, by resolved path, e.g. the
    fixer's work in progress), and a progress callback (done, total batches)."""

    paths: tuple[str, ...]
    overrides: Overrides = field(default_factory=Overrides)
    cache: ResultCache | None = None
    jobs: int = 1
    overlay: Mapping[Path, str] = field(default_factory=dict[Path, str])
    progress: Callable[[int, int], None] | None = None
    sessions: KeptSessions | None = None
    """Crates kept analyzed between checks (`--watch`): a crate checked again takes only its
    changed files, and re-analyzes only the functions those changes reach."""


def check(analyzer: Analyzer | LazyAnalyzer, request: Request) -> CheckRun:
    """Check files and folders; each file is analyzed with the crate it belongs to."""
    run = CheckRun()
    known = frozenset(analyzer.by_code)
    try:
        batches = plan(request.paths, request.overrides, known, run.problems, run.settings)
    except ConfigError as error:
        run.problems.append(f"configuration: {error}")
        return run
    except ScanLimit as error:
        run.problems.append(str(error))
        run.settings.clear()
        return run
    cache = request.cache
    pending: list[tuple[Batch, tuple[str, str, str]]] = []
    unread: dict[str, Target] = {}
    for batch in batches:
        run.paths.update((i.shown, i.path) for i in batch.inputs)
        parts = batch_keys.parts(batch, known)
        slot = batch_keys.slot(batch, parts)
        stored = cache.lookup(slot) if cache is not None else None
        stat = "" if request.overlay else batch_keys.stat_key(batch, parts)
        if stored is not None and stat and stored.stat == stat:
            # Nothing changed on disk since the entry was written: answer without reading.
            assert cache is not None
            cache.hits += 1
            unread.update((i.shown, i.file) for i in batch.inputs)
            _answer(run, batch, stored.results, stored.files, stored.problems)
            continue
        batch.read(request.overlay)
        run.texts.update((i.shown, i.text or "") for i in batch.inputs)
        key = batch_keys.content_key(batch, parts)
        files = batch.targets
        if stored is not None and stored.key == key:
            assert cache is not None
            cache.hits += 1
            if stat:
                cache.put(slot, Stored(key, stat, files, tuple(batch.problems), stored.results))
            _answer(run, batch, stored.results, files, tuple(batch.problems))
            continue
        if cache is not None:
            cache.misses += 1
        pending.append((batch, (slot, key, stat)))
    total = len(pending)
    analyzed = analyze(analyzer, pending, request.jobs, request.sessions)
    for done, (batch, (slot, key, stat), results) in enumerate(analyzed, 1):
        files = batch.targets
        if cache is not None:
            cache.put(slot, Stored(key, stat, files, tuple(batch.problems), results))
        _answer(run, batch, results, files, tuple(batch.problems), cached=False)
        if request.progress is not None:
            request.progress(done, total)
    _read_reported(run, unread)
    for result in run.results:
        run.problems.extend(f"{result.path}: {note}" for note in result.notes if "stopped" in note)
    run.results.sort(key=lambda r: r.path)
    return run


def _answer(
    run: CheckRun,
    batch: Batch,
    results: list[FileResult],
    files: int,
    problems: tuple[str, ...],
    cached: bool = True,
) -> None:
    run.files += files
    if cached:
        run.cached += len(results)
    run.problems.extend(problems)
    run.results.extend(_adjusted(r, batch.settings) for r in results)


def _read_reported(run: CheckRun, unread: dict[str, Target]) -> None:
    """Read the files a report shows lines of (answered from the cache without reading)."""
    wanted: set[str] = set()
    for result in run.results:
        for finding in (*result.findings, *(s.finding for s in result.suppressed)):
            wanted.add(finding.range.path)
            wanted.update(r.range.path for r in finding.related)
            wanted.update(e.range.path for fix in finding.fixes for e in fix.edits)
    for shown in sorted(wanted - run.texts.keys()):
        file = unread.get(shown)
        text = read_target(file, None, {}) if file is not None else None
        if text is not None:
            run.texts[shown] = text


def _adjusted(result: FileResult, settings: Settings) -> FileResult:
    """Apply per-code severities from the configuration."""
    if not settings.severity:
        return result
    findings = [
        replace(f, severity=settings.severity.get(f.code, f.severity)) for f in result.findings
    ]
    return replace(result, findings=findings)
