"""Check paths as a user names them: read files, apply each file's configuration, group them by
crate, and analyze each crate's target files with the crate's other files as context (helpers,
wrappers, struct fields), from the result cache when nothing changed, in worker processes when
there is more than one crate to analyze."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.analysis.findings import FileResult
from burnlint.analysis.options import Options
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.cache import ResultCache, Stored, batch_key, tool_digest
from burnlint.config import (
    DEFAULT_MAX_FILE_SIZE,
    ConfigError,
    Overrides,
    Settings,
    is_excluded,
    settings_for,
)
from burnlint.kb.model import Entry
from burnlint.project import crate_graph, find_crate, module_of, path_modules
from burnlint.walk import Target, discover

if TYPE_CHECKING:
    from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession

MAX_FILE_BYTES = DEFAULT_MAX_FILE_SIZE


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


@dataclass(slots=True)
class _Input:
    file: Target
    shown: str
    target: bool
    text: str | None = None
    root: str = "crate"
    """The crate the file belongs to: "crate" for the checked one, else a dependency's key."""

    @property
    def path(self) -> Path:
        return self.file.real


@dataclass(slots=True)
class _Batch:
    """Files analyzed together: one crate (or one loose file) under one configuration."""

    anchor: Path
    crate: CrateInfo
    settings: Settings
    inputs: list[_Input]
    problems: list[str] = field(default_factory=list[str])
    """Target files that could not be read."""
    graph: dict[str, dict[str, str]] = field(default_factory=dict[str, dict[str, str]])
    """For each crate of the batch (by key), the dependencies it names: name in code -> key."""

    @property
    def size(self) -> int:
        return sum(len(i.text or "") for i in self.inputs)

    def read(self, overlay: Mapping[Path, str]) -> None:
        """Read every file; unreadable targets become problems, unreadable context is left out."""
        kept: list[_Input] = []
        for item in self.inputs:
            if item.text is None:
                problems = self.problems if item.target else None
                limit = self.settings.max_file_size
                item.text = _read(item.file, problems, overlay, limit)
            if item.text is not None:
                kept.append(item)
        self.inputs = kept


class ScanLimit(Exception):
    """The scan found more files than the configured `max-files`."""


def describe_size(size: int) -> str:
    """A byte count as people read it: 8 MiB, 512 KiB, 300 bytes."""
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor:
            value = size / factor
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


class LazyAnalyzer:
    """The analyzer, built on first use: a check answered from the cache never imports the
    analysis engine (a fifth of a second on a small machine)."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.by_code = {entry.id: entry for entry in entries if entry.is_static}
        self._built: Analyzer | None = None

    def get(self) -> Analyzer:
        """The analyzer (imported and built now if needed)."""
        if self._built is None:
            from burnlint.analysis.engine import Analyzer

            self._built = Analyzer(self.entries)
        return self._built


def _real(analyzer: Analyzer | LazyAnalyzer) -> Analyzer:
    return analyzer.get() if isinstance(analyzer, LazyAnalyzer) else analyzer


def options_for(settings: Settings, known: frozenset[str]) -> Options:
    """The analyzer's options for a configuration."""
    enabled = frozenset(code for code in known if settings.enabled(code))
    return Options(
        era=settings.era,
        select=None if enabled == known else enabled,
        budget_seconds=settings.budget,
    )


def check(analyzer: Analyzer | LazyAnalyzer, request: Request) -> CheckRun:
    """Check files and folders; each file is analyzed with the crate it belongs to."""
    run = CheckRun()
    known = frozenset(analyzer.by_code)
    try:
        batches = _batches(request, known, run)
    except ConfigError as error:
        run.problems.append(f"configuration: {error}")
        return run
    except ScanLimit as error:
        run.problems.append(str(error))
        run.settings.clear()
        return run
    cache = request.cache
    pending: list[tuple[_Batch, str, str, str]] = []
    unread: dict[str, Target] = {}
    for batch in batches:
        run.paths.update((i.shown, i.path) for i in batch.inputs)
        parts = _parts(batch, known)
        slot = _slot(batch, parts)
        stored = cache.lookup(slot) if cache is not None else None
        stat = "" if request.overlay else _stat_key(batch, parts)
        if stored is not None and stat and stored.stat == stat:
            # Nothing changed on disk since the entry was written: answer without reading.
            assert cache is not None
            cache.hits += 1
            unread.update((i.shown, i.file) for i in batch.inputs)
            _answer(run, batch, stored.results, stored.files, stored.problems)
            continue
        batch.read(request.overlay)
        run.texts.update((i.shown, i.text or "") for i in batch.inputs)
        key = _content_key(batch, parts)
        files = sum(1 for i in batch.inputs if i.target)
        if stored is not None and stored.key == key:
            assert cache is not None
            cache.hits += 1
            if stat:
                cache.put(slot, Stored(key, stat, files, tuple(batch.problems), stored.results))
            _answer(run, batch, stored.results, files, tuple(batch.problems))
            continue
        if cache is not None:
            cache.misses += 1
        pending.append((batch, slot, key, stat))
    total = len(pending)
    analyzed = _analyze(analyzer, [(b, slot, key) for b, slot, key, _ in pending], request)
    for done, (batch, slot, key, results) in enumerate(analyzed, 1):
        files = sum(1 for i in batch.inputs if i.target)
        if cache is not None:
            stat = next(s for b, _, _, s in pending if b is batch)
            cache.put(slot, Stored(key, stat, files, tuple(batch.problems), results))
        _answer(run, batch, results, files, tuple(batch.problems), cached=False)
        if request.progress is not None:
            request.progress(done, total)
    _read_reported(run, unread)
    for result in run.results:
        run.problems.extend(f"{result.path}: {note}" for note in result.notes if "stopped" in note)
    run.results.sort(key=lambda r: r.path)
    return run


def _batches(request: Request, known: frozenset[str], run: CheckRun) -> list[_Batch]:
    """The files to check grouped by crate and configuration, with each crate's other files
    as context; nothing is read yet."""
    groups: dict[tuple[Path | None, str], list[tuple[Target, Settings]]] = {}
    discovered: dict[Path | None, list[Target]] = {}
    # Crate and configuration are the same for every file of a folder: look them up once.
    folders_seen: dict[tuple[Path, Path], tuple[Path | None, Settings, str]] = {}
    count = 0
    for target in discover(list(request.paths), run.problems):
        folder = (target.path.parent, target.real.parent)
        known_folder = folders_seen.get(folder)
        if known_folder is None:
            manifest = find_crate(target.real).manifest
            settings = settings_for(target.path, known, request.overrides)
            known_folder = folders_seen[folder] = (manifest, settings, settings.digest())
        manifest, settings, digest = known_folder
        count += 1
        if count > settings.max_files:
            raise ScanLimit(
                f"more than {settings.max_files} Rust files under {', '.join(request.paths)}; "
                "check a smaller folder, or raise max-files (burnlint.toml) or --max-files"
            )
        discovered.setdefault(manifest, []).append(target)
        if settings.exclude and is_excluded(settings, target.path):
            continue
        run.settings[target.shown] = settings
        groups.setdefault((manifest, digest), []).append((target, settings))
    folders = [Path(p).resolve() for p in request.paths if Path(p).is_dir()]
    batches: list[_Batch] = []
    crate_files: dict[Path, list[Target]] = {}
    for (manifest, _), members in groups.items():
        if manifest is None:
            for target, settings in members:
                inputs = [_Input(target, target.shown, True)]
                batches.append(_Batch(target.path, find_crate(target.real), settings, inputs))
            continue
        if manifest not in crate_files:
            root = manifest.parent
            covered = any(f == root or f in root.parents for f in folders)
            # A crate inside a folder the user named was walked whole already.
            crate_files[manifest] = discovered[manifest] if covered else list(_crate_targets(root))
        targets = {t.real: t for t, _ in members}
        inputs = [_Input(t, t.shown, True) for t in targets.values()]
        inputs.extend(
            _Input(other, os.path.relpath(other.path), False)
            for other in crate_files[manifest]
            if other.real not in targets
        )
        anchor = members[0][0]
        crate = find_crate(anchor.real)
        graph = _add_dependencies(crate, inputs)
        batches.append(_Batch(anchor.path, crate, members[0][1], inputs, graph=graph))
    return _merge_connected(batches)


def _crate_keys(
    primary: CrateInfo, others: list[CrateInfo]
) -> tuple[dict[Path, str], dict[str, dict[str, str]]]:
    """A key for each crate of one program ("crate" for `primary`, else its library name made
    unique) and the crate graph in those keys."""
    keys: dict[Path, str] = {}
    if primary.manifest is not None:
        keys[primary.manifest] = "crate"
    for info in others:
        assert info.manifest is not None
        key = info.lib_name or "dep"
        while key in keys.values():
            key += "_"
        keys[info.manifest] = key
    graph = {
        keys[info.manifest]: {name: keys[m] for name, m in info.deps if m in keys}
        for info in (primary, *others)
        if info.manifest is not None
    }
    return keys, graph


def _merge_connected(batches: list[_Batch]) -> list[_Batch]:
    """One batch for crates of a workspace that depend on each other (with the same
    configuration and era): the program is analyzed once, instead of each crate analyzing its
    dependencies' code again."""
    members: dict[Path, _Batch] = {}
    for batch in batches:
        manifest = batch.crate.manifest
        if manifest is not None and batch.graph:
            members[manifest] = batch
    if len(members) < 2:
        return batches
    parent = {manifest: manifest for manifest in members}

    def find(manifest: Path) -> Path:
        while parent[manifest] != manifest:
            manifest = parent[manifest]
        return manifest

    for manifest, batch in members.items():
        for dep in crate_graph(batch.crate):
            other = members.get(dep.manifest) if dep.manifest is not None else None
            if other is None or other.settings.digest() != batch.settings.digest():
                continue
            if other.crate.era == batch.crate.era and other.crate.manifest is not None:
                parent[find(other.crate.manifest)] = find(manifest)
    components: dict[Path, list[_Batch]] = {}
    for manifest, batch in members.items():
        components.setdefault(find(manifest), []).append(batch)
    merged: dict[int, _Batch] = {}
    for group in components.values():
        if len(group) > 1:
            combined = _combine(group)
            for batch in group:
                merged[id(batch)] = combined
    out: list[_Batch] = []
    for batch in batches:
        replacement = merged.get(id(batch), batch)
        if replacement not in out:
            out.append(replacement)
    return out


def _combine(group: list[_Batch]) -> _Batch:
    """Batches of dependency-connected crates as one: every member's files reported on, every
    crate (members and their dependencies) under its own key."""
    primary = group[0]
    crates: dict[Path, CrateInfo] = {}
    for batch in group:
        for info in (batch.crate, *crate_graph(batch.crate)):
            if info.manifest is not None:
                crates.setdefault(info.manifest, info)
    others = [info for manifest, info in crates.items() if manifest != primary.crate.manifest]
    keys, graph = _crate_keys(primary.crate, others)
    inputs: dict[Path, _Input] = {}
    for batch in group:
        own = batch.crate.manifest
        assert own is not None
        for item in batch.inputs:
            if item.root == "crate":
                item.root = keys[own]
            elif item.path in inputs:
                continue
            else:
                item.root = keys[find_crate(item.path).manifest or own]
            previous = inputs.get(item.path)
            if previous is None or (item.target and not previous.target):
                inputs[item.path] = item
    return _Batch(
        primary.anchor, primary.crate, primary.settings, list(inputs.values()), graph=graph
    )


def _add_dependencies(crate: CrateInfo, inputs: list[_Input]) -> dict[str, dict[str, str]]:
    """Add the files of the workspace crates `crate` depends on to `inputs` (as context, each
    under its own crate key) and return the crate graph naming them."""
    deps = crate_graph(crate)
    if not deps:
        return {}
    keys, graph = _crate_keys(crate, deps)
    seen = {i.path for i in inputs}
    for dep in deps:
        assert dep.manifest is not None
        for other in _crate_targets(dep.manifest.parent):
            if other.real not in seen:
                seen.add(other.real)
                shown = os.path.relpath(other.path)
                inputs.append(_Input(other, shown, False, root=keys[dep.manifest]))
    return graph


def _answer(
    run: CheckRun,
    batch: _Batch,
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
        text = _read(file, None, {}) if file is not None else None
        if text is not None:
            run.texts[shown] = text


RACY_SECONDS = 2.0
"""A file modified this recently may change again within the same timestamp tick, so its
modification time cannot vouch for its content (git's "racy clean" problem): read it."""


def _stat_key(batch: _Batch, parts: tuple[str, ...]) -> str:
    """A key from every file's status (size, modification time, inode, mode) instead of its
    bytes; empty when a file is missing or too fresh to trust."""
    limit = time.time_ns() - int(RACY_SECONDS * 1e9)
    digest = hashlib.sha256("\0".join(("stat", tool_digest(), *parts)).encode())
    for item in sorted(batch.inputs, key=lambda i: i.shown):
        try:
            status = item.file.path.stat()
        except OSError:
            return ""
        if status.st_mtime_ns > limit:
            return ""
        digest.update(
            f"\0{item.shown}\0{int(item.target)}\0{status.st_size}\0{status.st_mtime_ns}"
            f"\0{status.st_ino}\0{status.st_mode}".encode()
        )
    return digest.hexdigest()


def _content_key(batch: _Batch, parts: tuple[str, ...]) -> str:
    files = (
        (i.shown, (i.text or "").encode("utf-8", "surrogatepass"), i.target) for i in batch.inputs
    )
    return batch_key(parts, files)


def _slot(batch: _Batch, parts: tuple[str, ...]) -> str:
    # parts: cwd, manifest, ..., settings digest (see `_parts`).
    targets = sorted(str(i.path) for i in batch.inputs if i.target)
    return "\0".join((*parts[:2], parts[-1], *targets))


def _parts(batch: _Batch, known: frozenset[str]) -> tuple[str, ...]:
    """What besides the files decides a batch's results: where, which crate, which options."""
    crate = batch.crate
    options = options_for(batch.settings, known)
    config = crate.config
    # Sets are spelled sorted: their repr follows string hashing, which differs per process.
    features = (
        sorted(config.enabled),
        None if config.declared is None else sorted(config.declared),
        sorted(config.assume_on),
        sorted(config.disabled),
        sorted(crate.autodiff_features),
    )
    return (
        str(Path.cwd()),
        str(crate.manifest),
        repr((crate.name, crate.burn_version, crate.era, crate.era_reason, crate.build)),
        repr(features),
        repr((options.era, sorted(options.select or ()), options.budget_seconds)),
        batch.settings.digest(),
    )


def _adjusted(result: FileResult, settings: Settings) -> FileResult:
    """Apply per-code severities from the configuration."""
    if not settings.severity:
        return result
    findings = [
        replace(f, severity=settings.severity.get(f.code, f.severity)) for f in result.findings
    ]
    return replace(result, findings=findings)


# Worker processes. The analyzer is handed over by fork where that is safe (no other threads),
# which saves each worker from compiling the knowledge base again.
_WORKER: dict[str, Analyzer] = {}


def _analyze(
    lazy: Analyzer | LazyAnalyzer, pending: list[tuple[_Batch, str, str]], request: Request
) -> Iterator[tuple[_Batch, str, str, list[FileResult]]]:
    if not pending:
        return
    analyzer = _real(lazy)
    known = frozenset(analyzer.by_code)
    jobs = max(1, min(request.jobs, len(pending)))
    sessions = request.sessions
    if sessions is not None:
        # Crates kept from an earlier check are updated in this process.
        kept = [item for item in pending if item[0].anchor in sessions]
        for batch, slot, key in kept:
            yield batch, slot, key, _analyze_batch(analyzer, batch, known, sessions)
        pending = [item for item in pending if item[0].anchor not in sessions]
        if not pending:
            return
        jobs = max(1, min(request.jobs, len(pending)))
    if jobs == 1:
        for batch, slot, key in pending:
            yield batch, slot, key, _analyze_batch(analyzer, batch, known, sessions)
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
            batch, slot, key = pending[i]
            yield batch, slot, key, future.result()


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _worker(batch: _Batch, known: frozenset[str]) -> list[FileResult]:
    analyzer = _WORKER.get("analyzer")
    if analyzer is None:
        # A spawned worker starts empty: compile the knowledge base once per worker.
        from burnlint.analysis.engine import Analyzer
        from burnlint.kb.load import load_kb

        analyzer = _WORKER["analyzer"] = Analyzer(load_kb())
    return _analyze_batch(analyzer, batch, known)


def _analyze_batch(
    analyzer: Analyzer,
    batch: _Batch,
    known: frozenset[str],
    sessions: KeptSessions | None = None,
) -> list[FileResult]:
    from burnlint.analysis.engine import CrateSession

    files = _crate_files(batch.crate, batch.inputs)
    options = options_for(batch.settings, known)
    if sessions is not None:
        session = sessions.session(analyzer, batch.anchor, files, options, batch.crate, batch.graph)
    else:
        session = CrateSession(analyzer, files, options, batch.crate, batch.graph)
    return [r for r, f in zip(session.results(), files, strict=True) if f.target]


def _read(
    target: Target,
    problems: list[str] | None,
    overlay: Mapping[Path, str],
    limit: int = MAX_FILE_BYTES,
) -> str | None:
    if overlay:
        text = overlay.get(target.real)
        if text is not None:
            return text
    return read_source(target.path, target.shown, problems, limit)


def read_source(
    path: Path, shown: str, problems: list[str] | None, limit: int = MAX_FILE_BYTES
) -> str | None:
    """A file's text, or None with a problem recorded (when `problems` is given)."""

    def problem(text: str) -> None:
        if problems is not None:
            problems.append(f"{shown}: {text}")

    if not path.exists():
        problem("no such file or directory")
        return None
    try:
        data = path.read_bytes()
    except OSError as error:
        problem(f"cannot read: {error.strerror}")
        return None
    if len(data) > limit:
        problem(
            f"{describe_size(len(data))}, larger than max-file-size ({describe_size(limit)}); skipped"
        )
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        problem(f"not valid UTF-8 (byte {error.start}); skipped")
        return None


@dataclass(slots=True)
class LoadedCrate:
    """A crate's files ready for analysis, with where each file is on disk."""

    crate: CrateInfo
    files: list[CrateFile]
    paths: list[Path]
    graph: dict[str, dict[str, str]] = field(default_factory=dict[str, dict[str, str]])
    """The crate graph (see `_Batch.graph`); files of dependencies are context."""


def load_crate(
    path: Path,
    targets: dict[Path, tuple[str, str]],
    everything: bool = False,
    context: Mapping[Path, str] | None = None,
) -> LoadedCrate:
    """The crate around `path`: the `targets` (resolved path -> (shown path, text), e.g. open
    editor buffers) plus every other `.rs` file of the crate read from disk as context (or as
    targets too, with `everything`), and the files of the crates it depends on (from
    `context`, unsaved editor text by path, else from disk)."""
    context = context or {}
    crate = find_crate(path)
    inputs = [
        _Input(Target(p, shown, p), shown, True, text) for p, (shown, text) in targets.items()
    ]
    if crate.manifest is not None:
        for other in _crate_targets(crate.manifest.parent):
            if other.real in targets:
                continue
            text = _read(other, None, {})
            if text is not None:
                inputs.append(_Input(other, os.path.relpath(other.path), everything, text))
    graph = _add_dependencies(crate, inputs)
    for item in inputs:
        if item.root != "crate":
            # An open buffer of a dependency is what the editor shows: use it, not the disk.
            opened = context.get(item.path)
            item.text = opened if opened is not None else _read(item.file, None, {})
    inputs = [i for i in inputs if i.text is not None]
    return LoadedCrate(crate, _crate_files(crate, inputs), [i.path for i in inputs], graph)


def _crate_targets(root: Path) -> Iterator[Target]:
    """The `.rs` files of the crate rooted at `root` (not those of crates nested below it)."""
    for other in discover([str(root)]):
        if not _in_nested_crate(root, other.real):
            yield other


def _crate_files(crate: CrateInfo, inputs: list[_Input]) -> list[CrateFile]:
    from burnlint.analysis.engine import CrateFile
    from burnlint.analysis.syntax.source import SourceFile

    modules: dict[Path, tuple[str, ...]] = {}
    by_root: dict[str, list[_Input]] = {}
    for item in inputs:
        by_root.setdefault(item.root, []).append(item)
    infos: dict[str, CrateInfo] = {}
    for root, members in by_root.items():
        info = crate if root == "crate" else find_crate(members[0].path)
        infos[root] = info
        manifest = info.manifest
        found = {
            i.path: module_of(manifest.parent, i.path) if manifest else ("crate",) for i in members
        }
        if manifest is not None:
            path_modules({i.path: i.text or "" for i in members}, found)
        modules.update({path: (root, *module[1:]) for path, module in found.items()})
    return [
        CrateFile(
            SourceFile(i.shown, i.text or ""),
            modules[i.path],
            i.target,
            None if i.root == "crate" else infos[i.root],
        )
        for i in inputs
    ]


def _in_nested_crate(root: Path, path: Path) -> bool:
    """Whether `path` belongs to another crate below `root` (one with its own Cargo.toml)."""
    folder = path.parent
    root = root.resolve()
    while folder != root and root in folder.parents:
        if (folder / "Cargo.toml").is_file():
            return True
        folder = folder.parent
    return False
