"""Check paths as a user names them: read files, group them by crate, and analyze each crate's
target files with the crate's other files as context (helpers, wrappers, struct fields)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.analysis.crate import CrateInfo, find_crate, module_of, path_modules
from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, FileResult, Options
from burnlint.analysis.source import SourceFile
from burnlint.walk import Target, discover

MAX_FILE_BYTES = 8 * 1024 * 1024


@dataclass(slots=True)
class CheckRun:
    """What one check found: per-file results, problems, and the text of every file read."""

    results: list[FileResult] = field(default_factory=list[FileResult])
    problems: list[str] = field(default_factory=list[str])
    files: int = 0
    texts: dict[str, str] = field(default_factory=dict[str, str])


def check_paths(analyzer: Analyzer, paths: list[str], options: Options) -> CheckRun:
    """Check files and folders; each file is analyzed with the crate it belongs to."""
    run = CheckRun()
    groups: dict[Path | None, list[tuple[Target, str]]] = {}
    for target in discover(paths):
        text = read_source(target.path, target.shown, run.problems)
        if text is None:
            continue
        run.files += 1
        groups.setdefault(find_crate(target.path).manifest, []).append((target, text))
    for manifest, members in groups.items():
        batches = [members] if manifest is not None else [[member] for member in members]
        for batch in batches:
            for result in check_batch(analyzer, manifest, batch, options, run.texts):
                run.problems.extend(
                    f"{result.path}: {note}" for note in result.notes if "stopped" in note
                )
                run.results.append(result)
    return run


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


def check_batch(
    analyzer: Analyzer,
    manifest: Path | None,
    batch: list[tuple[Target, str]],
    options: Options,
    texts: dict[str, str],
) -> list[FileResult]:
    """Analyze target files together with the rest of their crate (for summaries)."""
    targets = {target.path.resolve(): (target.shown, text) for target, text in batch}
    loaded = load_crate(batch[0][0].path, targets)
    texts.update((f.source.path, f.source.text) for f in loaded.files)
    session = CrateSession(analyzer, loaded.files, options, loaded.crate)
    return [r for r, f in zip(session.results(), loaded.files, strict=True) if f.target]


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
    inputs: dict[Path, tuple[str, str, bool]] = {
        resolved: (shown, text, True) for resolved, (shown, text) in targets.items()
    }
    manifest = crate.manifest
    if manifest is not None:
        root = manifest.parent
        for other in discover([str(root)]):
            resolved = other.path.resolve()
            if resolved in inputs or _in_nested_crate(root, resolved):
                continue
            text = read_source(other.path, other.shown, None)
            if text is not None:
                inputs[resolved] = (os.path.relpath(other.path), text, everything)
    modules = {p: module_of(manifest.parent, p) if manifest else ("crate",) for p in inputs}
    if manifest is not None:
        path_modules({p: text for p, (_, text, _) in inputs.items()}, modules)
    files = [
        CrateFile(SourceFile(shown, text), modules[p], target)
        for p, (shown, text, target) in inputs.items()
    ]
    return LoadedCrate(crate, files, list(inputs))


def _in_nested_crate(root: Path, path: Path) -> bool:
    """Whether `path` belongs to another crate below `root` (one with its own Cargo.toml)."""
    folder = path.parent
    root = root.resolve()
    while folder != root and root in folder.parents:
        if (folder / "Cargo.toml").is_file():
            return True
        folder = folder.parent
    return False
