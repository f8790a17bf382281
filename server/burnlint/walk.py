"""Find the Rust files under the paths a user names, honouring `.gitignore` files."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

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


_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


class _Ignore:
    """One `.gitignore` file's patterns. Without negations (`!pattern`) they are one regular
    expression (a match means ignored), which a large tree checks thousands of times; with
    negations the last matching pattern decides, as git does."""

    def __init__(self, spec: pathspec.GitIgnoreSpec) -> None:
        self.spec = spec
        patterns = [p for p in spec.patterns if p.include is not None]
        self.any: re.Pattern[str] | None = None
        regexes = [getattr(p, "regex", None) for p in patterns]
        if all(p.include for p in patterns) and all(isinstance(r, re.Pattern) for r in regexes):
            # Group names repeat across patterns (`ps_d`); one expression needs them unnamed.
            joined = "|".join(
                "(?:" + _NAMED_GROUP.sub("(", cast(re.Pattern[str], r).pattern) + ")"
                for r in regexes
            )
            self.any = re.compile(joined) if joined else None
            self.empty = not joined
        else:
            self.empty = False

    def check(self, rel: str) -> bool | None:
        """True: ignored; False: re-included by a negation; None: no pattern matches."""
        if self.empty:
            return None
        if self.any is not None:
            return True if self.any.match(rel) else None
        include = self.spec.check_file(rel).include
        return None if include is None else bool(include)


def _spec_for(folder: Path) -> _Ignore | None:
    ignore = folder / ".gitignore"
    try:
        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _Ignore(pathspec.GitIgnoreSpec.from_lines(lines))


def discover(paths: list[str], problems: list[str] | None = None) -> Iterator[Target]:
    """Files named directly, and `*.rs` files found under named folders, in a stable order.

    Symbolic links inside folders are not followed (no loops, nothing outside the tree); a
    folder that cannot be listed is recorded in `problems` (when given), never skipped silently.
    """
    for given in paths:
        root = Path(given)
        if root.is_file() or not root.exists():
            yield Target(root, given, root.resolve())
            continue
        specs: list[tuple[str, _Ignore]] = []
        resolved = root.resolve()
        for parent in reversed(resolved.parents):
            spec = _spec_for(parent)
            if spec is not None:
                specs.append((_folder_prefix(str(parent)), spec))
        yield from _walk(given, str(resolved), specs, problems)


def _folder_prefix(folder: str) -> str:
    return folder if folder.endswith(os.sep) else folder + os.sep


def _ignored(real: str, is_dir: bool, specs: list[tuple[str, _Ignore]]) -> bool:
    result = False
    for base, spec in specs:
        if not real.startswith(base):
            continue
        rel = real[len(base) :].replace(os.sep, "/")
        if is_dir:
            rel += "/"
        decided = spec.check(rel)
        if decided is not None:
            result = decided
    return result


def _walk(
    shown_root: str,
    resolved: str,
    specs: list[tuple[str, _Ignore]],
    problems: list[str] | None = None,
) -> Iterator[Target]:
    # Strings, not `Path`s, until a file is yielded: a large workspace has thousands of
    # entries, and `Path` objects cost more than the file-system calls.
    stack: list[tuple[str, str, str, list[tuple[str, _Ignore]]]] = [
        (shown_root, shown_root, resolved, specs)
    ]
    while stack:
        folder, shown, real, active = stack.pop()
        own = _spec_for(Path(real))
        if own is not None:
            active = [*active, (_folder_prefix(real), own)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            if problems is not None:
                problems.append(f"{shown}: cannot read folder: {error.strerror or error}")
            continue
        subdirs: list[tuple[str, str, str, list[tuple[str, _Ignore]]]] = []
        for entry in entries:
            name = entry.name
            if name in ALWAYS_SKIPPED:
                continue
            child_real = os.path.join(real, name)  # noqa: PTH118
            # A display string, not a path to open: keep the user's spelling (`./src`), which
            # joining `Path`s would normalise away.
            child_shown = name if shown == "." else os.path.join(shown, name)  # noqa: PTH118
            if entry.is_dir(follow_symlinks=False):
                if not active or not _ignored(child_real, True, active):
                    subdirs.append((entry.path, child_shown, child_real, active))
            elif (
                name.endswith(".rs")
                and entry.is_file(follow_symlinks=False)
                and (not active or not _ignored(child_real, False, active))
            ):
                yield Target(Path(entry.path), child_shown, Path(child_real))
        stack.extend(reversed(subdirs))
