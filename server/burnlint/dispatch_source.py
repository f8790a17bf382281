"""The burn era read from the burn-dispatch source cargo already downloaded for a crate.

When `Cargo.lock` pins burn-dispatch and cargo has fetched it, its `struct DispatchTensor` says
which API the crate compiles against: a public `autodiff:` field (context era), a public
`checkpointing:` field (checkpointing era), or neither (fields `pub(crate)`, or still an enum:
the generic era). That needs no version table, so it is asked before one.

Where cargo keeps sources (`$CARGO_HOME`, default `~/.cargo`):
`registry/src/<index>/burn-dispatch-<version>/` for crates.io, and
`git/checkouts/<repo>-<hash>/<short commit>/crates/burn-dispatch/` for git sources.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from burnlint.eras import CHECKPOINTING, CONTEXT, GENERIC

CRATE = "burn-dispatch"
_DEFINITION = re.compile(
    rb"\b(?P<kind>struct|enum)\s+DispatchTensor\b\s*(?:<[^>{;]*>)?\s*(?:where[^{;]*)?\{"
)
_FIELD = re.compile(
    r"^(?P<vis>pub(?:\s*\([^)]*\))?\s+)?(?P<name>[A-Za-z_]\w*)\s*:(?!:)\s*(?P<type>.+)$", re.S
)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ATTRIBUTE = re.compile(r"#\[[^\]]*\]")
# Where burn has kept the struct; other files are read only when it moved.
_LIKELY = ("tensor.rs", "tensor/mod.rs", "tensor/base.rs", "lib.rs")
_MAX_FILES = 400
_MAX_BYTES = 4 << 20


@dataclass(frozen=True, slots=True)
class Locked:
    """A burn-dispatch package as `Cargo.lock` pins it."""

    version: str
    source: str
    """The lock's `source` (`registry+...`, `git+...#<commit>`); empty for a path dependency."""

    @property
    def git(self) -> bool:
        return self.source.startswith("git+")

    @property
    def commit(self) -> str:
        """The full commit of a git source (after `#`), else empty."""
        return self.source.rpartition("#")[2] if self.git and "#" in self.source else ""


def cargo_home() -> Path:
    """Where cargo keeps downloaded sources: `$CARGO_HOME`, else `~/.cargo`."""
    home = os.environ.get("CARGO_HOME")
    return Path(home) if home else Path.home() / ".cargo"


def downloaded_era(locked: Locked, home: Path | None = None) -> tuple[str, str] | None:
    """The era and why, from the downloaded source of the locked burn-dispatch; None when cargo
    has not downloaded it (or its `DispatchTensor` could not be found)."""
    for folder in _source_folders(locked, home or cargo_home()):
        found = source_era(folder)
        if found is not None:
            return found
    return None


def _source_folders(locked: Locked, home: Path) -> list[Path]:
    """The `src` folders that may hold the locked source, best first."""
    if locked.git:
        commit = locked.commit.lower()
        checkouts = home / "git" / "checkouts"
        found: list[Path] = []
        # Cargo names a checkout by the commit's first 7 hex digits; any prefix of at least
        # that length is the same commit.
        for repo in _children(checkouts):
            if not repo.name.startswith("burn"):
                continue
            for checkout in _children(repo):
                name = checkout.name.lower()
                if len(name) >= 7 and commit.startswith(name):
                    found.append(checkout / "crates" / CRATE / "src")
        return sorted(found)
    if locked.source.startswith(("registry+", "sparse+")):
        return sorted(
            index / f"{CRATE}-{locked.version}" / "src"
            for index in _children(home / "registry" / "src")
        )
    return []


def _children(folder: Path) -> list[Path]:
    try:
        return [child for child in folder.iterdir() if child.is_dir()]
    except OSError:
        return []


@lru_cache(maxsize=64)
def source_era(src: Path) -> tuple[str, str] | None:
    """The era that the `DispatchTensor` defined under the `src` folder implies, and why (naming
    the file); None when no file there defines it. Cached per folder: a downloaded source never
    changes."""
    if not src.is_dir():
        return None
    tried: set[Path] = set()
    for name in _LIKELY:
        file = src / name
        tried.add(file)
        found = _file_era(file)
        if found is not None:
            return found
    try:
        others = sorted(p for p in src.rglob("*.rs") if p not in tried)
    except OSError:
        return None
    for file in others[:_MAX_FILES]:
        found = _file_era(file)
        if found is not None:
            return found
    return None


def _file_era(file: Path) -> tuple[str, str] | None:
    try:
        if file.stat().st_size > _MAX_BYTES:
            return None
        data = file.read_bytes()
    except OSError:
        return None
    if b"DispatchTensor" not in data:
        return None
    match = _DEFINITION.search(data)
    if match is None:
        return None
    if match.group("kind") == b"enum":
        return GENERIC, f"{file}: `DispatchTensor` is an enum (generic `Tensor<B, D, K>` API)"
    body = _body(data[match.end() :].decode("utf-8", "replace"))
    fields = {name: (vis, kind) for vis, name, kind in _fields(body)}
    for name, era, api in (
        ("autodiff", CONTEXT, "`DispatchAutodiffContext` API"),
        ("checkpointing", CHECKPOINTING, "`checkpointing` field API"),
    ):
        vis, kind = fields.get(name, ("", ""))
        if vis == "pub":
            return era, f"{file}: `DispatchTensor` has `pub {name}: {kind}` ({api})"
    shown = ", ".join(f"{vis or 'private'} {name}" for name, (vis, _) in fields.items())
    return GENERIC, (
        f"{file}: `DispatchTensor` fields are not public ({shown}; generic `Tensor<B, D, K>` API, "
        "dispatch rules do not apply)"
    )


def _body(text: str) -> str:
    """The text up to the brace closing the one just opened."""
    text = _COMMENT.sub(" ", text)
    depth = 1
    for index, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[:index]
    return text


def _fields(body: str) -> list[tuple[str, str, str]]:
    """(visibility, name, type) of each field: split at commas outside `<..>` and `(..)`."""
    parts: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(body):
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    parts.append(body[start:])
    found: list[tuple[str, str, str]] = []
    for part in parts:
        match = _FIELD.match(_ATTRIBUTE.sub(" ", part).strip())
        if match is not None:
            vis = re.sub(r"\s+", "", match.group("vis") or "")
            found.append((vis, match.group("name"), " ".join(match.group("type").split())))
    return found
