"""One analyzed `CrateSession` per crate (keyed by its Cargo.toml), updated in place as buffers
change, so an edit re-analyzes only what it affects.

Not thread-safe: the server calls it from its single analysis thread only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint import config as project_config
from burnlint import project
from burnlint.analysis.findings import Finding
from burnlint.analysis.options import Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.loading import load_crate
from burnlint.project import crate_graph, find_crate
from burnlint.sources import read_source
from burnlint.walk import discover

if TYPE_CHECKING:
    from burnlint.analysis.engine import CrateSession
    from burnlint.analyzing import LazyAnalyzer

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class FileReport:
    """The findings for one file and the exact text they were computed from."""

    path: Path | None
    """Where the file is on disk; None for a document that is not a file."""
    text: str
    findings: list[Finding]
    shown: str
    """The path findings use for this file."""
    notes: list[str] = field(default_factory=list[str])
    """What the analyzer says about the file besides findings (a budget stop, syntax errors)."""


@dataclass(slots=True)
class CrateReport:
    """What one analysis of a crate found, with every crate file's text (for related spans)."""

    files: list[FileReport] = field(default_factory=list[FileReport])
    texts: dict[str, tuple[Path | None, str]] = field(
        default_factory=dict[str, tuple[Path | None, str]]
    )
    """Shown path (as findings name files) -> (path on disk, analyzed text)."""
    era: str = ""
    era_reason: str = ""
    """The burn era the crate was analyzed in, and why."""
    session: CrateSession | None = None
    """The kept analysis it comes from (what is made from its findings can be kept with it)."""


@dataclass(slots=True)
class _Entry:
    session: CrateSession
    paths: list[Path]
    index: dict[Path, int]
    """Each file's place in the session (the one reported on)."""
    copies: dict[Path, list[int]]
    """The places of the copies of a file several targets include (see `crate_files`)."""
    buffered: set[Path]
    """Files whose text came from an editor buffer rather than from disk."""
    context: set[Path]
    """Files of dependency crates whose text came from an editor buffer."""
    everything: bool
    options: Options


def crate_key(path: Path) -> Path:
    """The cache key of the crate around `path`: its manifest, or the file itself."""
    return find_crate(path).manifest or path


def forget_manifests() -> None:
    """Forget cached Cargo.toml/Cargo.lock reads after they changed on disk."""
    # A stale cache would keep the old burn era or features until the server restarts.
    project.forget_crates()
    project_config.clear_cache()


class CrateCache:
    """Analyzed crates by key; rebuilt when the set of reported files or the options change."""

    def __init__(self, analyzer: LazyAnalyzer) -> None:
        self.analyzer = analyzer
        """Built by the first analysis, on the analysis thread (see `Pipeline.warm_up`)."""
        self._entries: dict[Path, _Entry] = {}

    def forget(self, key: Path | None = None) -> None:
        """Drop one crate's session (or all of them)."""
        if key is None:
            self._entries.clear()
        else:
            self._entries.pop(key, None)

    def forget_containing(self, path: Path) -> None:
        """Drop every session that reads `path` or whose crate it belongs to (a file changed,
        appeared or disappeared on disk)."""
        owner = crate_key(path)
        for key, entry in list(self._entries.items()):
            if key in (owner, path) or path in entry.index:
                del self._entries[key]

    def analyze(
        self,
        anchor: Path,
        buffers: dict[Path, str],
        options: Options,
        everything: bool,
        context: dict[Path, str] | None = None,
    ) -> CrateReport:
        """Analyze the crate around `anchor`: `buffers` (path -> unsaved text) are reported on,
        and with `everything` every other file of the crate too; `context` holds the unsaved
        text of other open files (those of the crates it depends on are used)."""
        key = crate_key(anchor)
        entry = self._entries.get(key)
        context = context or {}
        if entry is not None and self._reusable(entry, buffers, options, everything):
            self._sync(entry, buffers, context)
        else:
            entry = self._build(anchor, buffers, options, everything, context)
            self._entries[key] = entry
        session = entry.session
        report = CrateReport(era=session.era, era_reason=session.era_reason, session=session)
        for path, file in zip(entry.paths, session.files, strict=True):
            report.texts[file.source.path] = (path, file.source.text)
        for path, file, result in zip(entry.paths, session.files, session.results(), strict=True):
            if file.target:
                report.files.append(
                    FileReport(
                        path, file.source.text, result.findings, file.source.path, result.notes
                    )
                )
        return report

    def locate(self, path: Path) -> tuple[CrateSession, int, list[Path]] | None:
        """The kept analysis that reports on `path`: its session, the file's index there, and
        every file's path on disk (in the session's order)."""
        entry = self._entries.get(crate_key(path))
        if entry is None:
            return None
        index = entry.index.get(path)
        if index is None:
            return None
        return entry.session, index, entry.paths

    @staticmethod
    def _reusable(
        entry: _Entry, buffers: dict[Path, str], options: Options, everything: bool
    ) -> bool:
        if entry.options != options or entry.everything != everything:
            return False
        if not all(path in entry.index for path in buffers):
            return False
        if everything:
            return True
        targets = {path for path, i in entry.index.items() if entry.session.files[i].target}
        return targets == set(buffers)

    def _sync(self, entry: _Entry, buffers: dict[Path, str], context: dict[Path, str]) -> None:
        """Swap changed buffers in (the crate's own and open files of its dependencies); files
        no longer open go back to their text on disk."""
        used = {path: text for path, text in context.items() if path in entry.index}
        _swap(entry, entry.context, used)
        entry.context = set(used)
        _swap(entry, entry.buffered, buffers)
        entry.buffered = set(buffers)

    def _build(
        self,
        anchor: Path,
        buffers: dict[Path, str],
        options: Options,
        everything: bool,
        context: dict[Path, str],
    ) -> _Entry:
        targets = {path: (str(path), text) for path, text in buffers.items()}
        loaded = load_crate(anchor, targets, everything, context)
        logger.debug("analyzing crate %s (%d files)", loaded.crate.manifest, len(loaded.files))
        from burnlint.analysis.engine import CrateSession

        analyzer = self.analyzer.get()
        session = CrateSession(analyzer, loaded.files, options, loaded.crate, loaded.graph)
        index: dict[Path, int] = {}
        copies: dict[Path, list[int]] = {}
        for i, path in enumerate(loaded.paths):
            if path in index:
                copies.setdefault(path, []).append(i)
            else:
                index[path] = i
        used = {path for path in context if path in index}
        return _Entry(session, loaded.paths, index, copies, set(buffers), used, everything, options)


def _swap(entry: _Entry, before: set[Path], now: dict[Path, str]) -> None:
    """Update `entry`'s session: files in `before` but not in `now` from disk, the others to
    their text in `now` when it changed."""
    session = entry.session
    for path in before - set(now):
        text = read_source(path, str(path), None)
        if text is not None:
            index = entry.index[path]
            source = SourceFile(session.files[index].source.path, text)
            for place in (index, *entry.copies.get(path, ())):
                session.update(place, source)
    for path, text in now.items():
        index = entry.index[path]
        old = session.files[index].source
        if old.text != text:
            # Reuse the old tree: tree-sitter re-parses only around the edit.
            source = SourceFile(old.path, text, previous=old)
            # A file several targets include is one text: its copies take the same version.
            for place in (index, *entry.copies.get(path, ())):
                session.update(place, source)


def dependents(path: Path, keys: set[Path]) -> set[Path]:
    """Of the crates `keys`, those that depend (directly or not) on the crate of `path`."""
    owner = find_crate(path).manifest
    if owner is None:
        return set()
    found: set[Path] = set()
    for key in keys:
        crate = find_crate(key)
        if crate.manifest not in (None, owner) and any(
            dep.manifest == owner for dep in crate_graph(crate)
        ):
            found.add(key)
    return found


def crate_files(folder: Path) -> dict[Path, list[Path]]:
    """Every `.rs` file under `folder` (honouring `.gitignore`), grouped by crate key."""
    groups: dict[Path, list[Path]] = {}
    for target in discover([str(folder)]):
        path = target.path.resolve()
        groups.setdefault(crate_key(path), []).append(path)
    return groups
