"""Check paths as a user names them: read files, apply each file's configuration, group them by
crate, and analyze each crate's target files with the crate's other files as context (helpers,
wrappers, struct fields), from the result cache when nothing changed, in worker processes when
there is more than one crate to analyze."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from burnlint.analysis.crate import CrateInfo, find_crate, module_of, path_modules
from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, FileResult, Options
from burnlint.analysis.source import SourceFile
from burnlint.cache import ResultCache, batch_key
from burnlint.config import ConfigError, Overrides, Settings, is_excluded, settings_for
from burnlint.walk import Target, discover

MAX_FILE_BYTES = 8 * 1024 * 1024


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


@dataclass(slots=True)
class _Input:
    path: Path
    shown: str
    text: str
    target: bool


@dataclass(slots=True)
class _Batch:
    """Files analyzed together: one crate (or one loose file) under one configuration."""

    anchor: Path
    crate: CrateInfo
    settings: Settings
    inputs: list[_Input]

    @property
    def size(self) -> int:
        return sum(len(i.text) for i in self.inputs)


def options_for(settings: Settings, known: frozenset[str]) -> Options:
    """The analyzer's options for a configuration."""
    enabled = frozenset(code for code in known if settings.enabled(code))
    return Options(
        era=settings.era,
        select=None if enabled == known else enabled,
        budget_seconds=settings.budget,
    )


def check(analyzer: Analyzer, request: Request) -> CheckRun:
    """Check files and folders; each file is analyzed with the crate it belongs to."""
    run = CheckRun()
    known = frozenset(analyzer.by_code)
    groups: dict[tuple[Path | None, str], list[tuple[Target, str, Settings]]] = {}
    discovered: dict[Path | None, list[Target]] = {}
    try:
        for target in discover(list(request.paths)):
            manifest = find_crate(target.real).manifest
            discovered.setdefault(manifest, []).append(target)
            settings = settings_for(target.path, known, request.overrides)
            if is_excluded(settings, target.path):
                continue
            text = _read(target, run.problems, request.overlay)
            if text is None:
                continue
            run.files += 1
            run.settings[target.shown] = settings
            groups.setdefault((manifest, settings.digest()), []).append((target, text, settings))
    except ConfigError as error:
        run.problems.append(f"configuration: {error}")
        return run
    folders = [Path(p).resolve() for p in request.paths if Path(p).is_dir()]
    batches: list[_Batch] = []
    crate_files: dict[Path, list[Target]] = {}
    for (manifest, _), members in groups.items():
        if manifest is None:
            for target, text, settings in members:
                inputs = [_Input(target.real, target.shown, text, True)]
                batches.append(_Batch(target.path, find_crate(target.real), settings, inputs))
            continue
        if manifest not in crate_files:
            root = manifest.parent
            covered = any(f == root or f in root.parents for f in folders)
            # A crate inside a folder the user named was walked whole already.
            crate_files[manifest] = discovered[manifest] if covered else list(_crate_targets(root))
        targets = {t.real: (t.shown, text) for t, text, _ in members}
        inputs = _gather(crate_files[manifest], targets, False, request.overlay)
        anchor = members[0][0].path
        batches.append(_Batch(anchor, find_crate(members[0][0].real), members[0][2], inputs))
    pending: list[tuple[_Batch, str, str]] = []
    for batch in batches:
        run.texts.update((i.shown, i.text) for i in batch.inputs)
        run.paths.update((i.shown, i.path) for i in batch.inputs)
        slot, key = _keys(batch, known)
        cached = request.cache.get(slot, key) if request.cache else None
        if cached is None:
            pending.append((batch, slot, key))
        else:
            run.cached += len(cached)
            run.results.extend(_adjusted(r, batch.settings) for r in cached)
    total = len(pending)
    for done, (batch, slot, key, results) in enumerate(_analyze(analyzer, pending, request), 1):
        if request.cache is not None:
            request.cache.put(slot, key, results)
        run.results.extend(_adjusted(r, batch.settings) for r in results)
        if request.progress is not None:
            request.progress(done, total)
    for result in run.results:
        run.problems.extend(f"{result.path}: {note}" for note in result.notes if "stopped" in note)
    run.results.sort(key=lambda r: r.path)
    return run


def _keys(batch: _Batch, known: frozenset[str]) -> tuple[str, str]:
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
    parts = (
        str(Path.cwd()),
        str(crate.manifest),
        repr((crate.name, crate.burn_version, crate.era, crate.era_reason, crate.build)),
        repr(features),
        repr((options.era, sorted(options.select or ()), options.budget_seconds)),
        batch.settings.digest(),
    )
    targets = sorted(str(i.path) for i in batch.inputs if i.target)
    slot = "\0".join((*parts[:2], batch.settings.digest(), *targets))
    files = ((i.shown, i.text.encode("utf-8", "surrogatepass"), i.target) for i in batch.inputs)
    return slot, batch_key(parts, files)


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
    analyzer: Analyzer, pending: list[tuple[_Batch, str, str]], request: Request
) -> Iterator[tuple[_Batch, str, str, list[FileResult]]]:
    known = frozenset(analyzer.by_code)
    jobs = max(1, min(request.jobs, len(pending)))
    if jobs == 1:
        for batch, slot, key in pending:
            yield batch, slot, key, _analyze_batch(analyzer, batch, known)
        return
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
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _worker(batch: _Batch, known: frozenset[str]) -> list[FileResult]:
    analyzer = _WORKER.get("analyzer")
    if analyzer is None:
        # A spawned worker starts empty: compile the knowledge base once per worker.
        from burnlint.kb.load import load_kb

        analyzer = _WORKER["analyzer"] = Analyzer(load_kb())
    return _analyze_batch(analyzer, batch, known)


def _analyze_batch(analyzer: Analyzer, batch: _Batch, known: frozenset[str]) -> list[FileResult]:
    files = _crate_files(batch.crate, batch.inputs)
    session = CrateSession(analyzer, files, options_for(batch.settings, known), batch.crate)
    return [r for r, f in zip(session.results(), files, strict=True) if f.target]


def _read(target: Target, problems: list[str] | None, overlay: Mapping[Path, str]) -> str | None:
    if overlay:
        text = overlay.get(target.real)
        if text is not None:
            return text
    return read_source(target.path, target.shown, problems)


def read_source(path: Path, shown: str, problems: list[str] | None) -> str | None:
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
    if len(data) > MAX_FILE_BYTES:
        problem(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; skipped")
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


def load_crate(
    path: Path, targets: dict[Path, tuple[str, str]], everything: bool = False
) -> LoadedCrate:
    """The crate around `path`: the `targets` (resolved path -> (shown path, text), e.g. open
    editor buffers) plus every other `.rs` file of the crate read from disk as context (or as
    targets too, with `everything`)."""
    crate = find_crate(path)
    if crate.manifest is None:
        inputs = [_Input(p, shown, text, True) for p, (shown, text) in targets.items()]
    else:
        inputs = _gather(_crate_targets(crate.manifest.parent), targets, everything, {})
    return LoadedCrate(crate, _crate_files(crate, inputs), [i.path for i in inputs])


def _crate_targets(root: Path) -> Iterator[Target]:
    """The `.rs` files of the crate rooted at `root` (not those of crates nested below it)."""
    for other in discover([str(root)]):
        if not _in_nested_crate(root, other.real):
            yield other


def _gather(
    crate: Iterator[Target] | list[Target],
    targets: dict[Path, tuple[str, str]],
    everything: bool,
    overlay: Mapping[Path, str],
) -> list[_Input]:
    inputs = {p: _Input(p, shown, text, True) for p, (shown, text) in targets.items()}
    for other in crate:
        if other.real in inputs:
            continue
        text = _read(other, None, overlay)
        if text is not None:
            inputs[other.real] = _Input(other.real, os.path.relpath(other.path), text, everything)
    return list(inputs.values())


def _crate_files(crate: CrateInfo, inputs: list[_Input]) -> list[CrateFile]:
    manifest = crate.manifest
    modules = {
        i.path: module_of(manifest.parent, i.path) if manifest else ("crate",) for i in inputs
    }
    if manifest is not None:
        path_modules({i.path: i.text for i in inputs}, modules)
    return [CrateFile(SourceFile(i.shown, i.text), modules[i.path], i.target) for i in inputs]


def _in_nested_crate(root: Path, path: Path) -> bool:
    """Whether `path` belongs to another crate below `root` (one with its own Cargo.toml)."""
    folder = path.parent
    root = root.resolve()
    while folder != root and root in folder.parents:
        if (folder / "Cargo.toml").is_file():
            return True
        folder = folder.parent
    return False
