"""`burnlint check --watch`: check once, then again whenever a Rust file, a Cargo manifest or a
configuration file under the watched paths changes (file-system notifications via `watchfiles`).
Unchanged crates come from the result cache, so a re-check costs about what changed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import watchfiles

from burnlint.config import clear_cache
from burnlint.project import forget_crates
from burnlint.walk import ALWAYS_SKIPPED

_WATCHED_NAMES = frozenset({"Cargo.toml", "Cargo.lock", "burnlint.toml", ".gitignore"})
_SKIPPED_DIRS = ALWAYS_SKIPPED | {"target", "node_modules"}


def relevant(path: str) -> bool:
    """Whether a change to `path` can change the results."""
    parts = Path(path).parts
    if any(part in _SKIPPED_DIRS for part in parts[:-1]):
        return False
    name = parts[-1] if parts else ""
    return name.endswith(".rs") or name in _WATCHED_NAMES


def watch(
    paths: Iterable[str],
    check: Callable[[list[str]], None],
    stop: threading.Event | None = None,
) -> None:
    """Run `check([])` now and `check(changed paths)` after every relevant change, until
    interrupted (Ctrl-C) or `stop` is set."""
    roots = [str(Path(p)) for p in paths]
    check([])
    changes = watchfiles.watch(
        *roots,
        watch_filter=lambda _change, path: relevant(path),
        stop_event=stop,
        raise_interrupt=False,
    )
    for batch in changes:
        # Manifests and configuration may have changed: read them again.
        forget_crates()
        clear_cache()
        check(sorted({path for _, path in batch}))
