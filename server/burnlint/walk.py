"""Find the Rust files under the paths a user names, honouring `.gitignore` files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn", ".burnlint_cache"})


@dataclass(frozen=True, slots=True)
class Target:
    """A file to check: where it is on disk and how to show its path to the user."""

    path: Path
    shown: str
    real: Path
    """The file's resolved location (for a walked file: its resolved folder plus its name, since
    walking never follows links)."""


def _spec_for(folder: Path) -> pathspec.GitIgnoreSpec | None:
    ignore = folder / ".gitignore"
    try:
        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


def discover(paths: list[str]) -> Iterator[Target]:
    """Files named directly, and `*.rs` files found under named folders, in a stable order."""
    for given in paths:
        root = Path(given)
        if root.is_file() or not root.exists():
            yield Target(root, given, root.resolve())
            continue
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        for parent in reversed(root.resolve().parents):
            spec = _spec_for(parent)
            if spec is not None:
                specs.append((parent, spec))
        yield from _walk(root, given, root.resolve(), specs)


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]) -> bool:
    result = False
    for base, spec in specs:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if is_dir:
            rel += "/"
        check = spec.check_file(rel)
        if check.include is not None:
            result = bool(check.include)
    return result


def _walk(
    root: Path, shown_root: str, resolved: Path, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]
) -> Iterator[Target]:
    stack: list[tuple[Path, str, Path, list[tuple[Path, pathspec.GitIgnoreSpec]]]] = [
        (root, shown_root, resolved, specs)
    ]
    while stack:
        folder, shown, real, active = stack.pop()
        own = _spec_for(real)
        if own is not None:
            active = [*active, (real, own)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[tuple[Path, str, Path, list[tuple[Path, pathspec.GitIgnoreSpec]]]] = []
        for entry in entries:
            if entry.name in ALWAYS_SKIPPED:
                continue
            child = Path(entry.path)
            child_real = real / entry.name
            # A display string, not a path to open: keep the user's spelling (`./src`), which
            # joining `Path`s would normalise away.
            child_shown = entry.name if shown == "." else os.path.join(shown, entry.name)  # noqa: PTH118
            if entry.is_dir(follow_symlinks=False):
                if not _ignored(child_real, True, active):
                    subdirs.append((child, child_shown, child_real, active))
            elif (
                entry.name.endswith(".rs")
                and entry.is_file(follow_symlinks=False)
                and not _ignored(child_real, False, active)
            ):
                yield Target(child, child_shown, child_real)
        stack.extend(reversed(subdirs))
