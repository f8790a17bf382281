"""What a batch's cached results are filed under (its slot) and the two keys that tell whether
they still hold: one from the files' status on disk (answers without reading anything) and one
from their content."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from burnlint.analyzing import options_for
from burnlint.batches import Batch
from burnlint.cache import batch_key, tool_digest

RACY_SECONDS = 2.0
"""A file modified this recently may change again within the same timestamp tick, so its
modification time cannot vouch for its content (git's "racy clean" problem): read it."""


def stat_key(batch: Batch, parts: tuple[str, ...]) -> str:
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


def content_key(batch: Batch, parts: tuple[str, ...]) -> str:
    """A key from every read file's shown path, text and role."""
    files = (
        (i.shown, (i.text or "").encode("utf-8", "surrogatepass"), i.target) for i in batch.inputs
    )
    return batch_key(parts, files)


def slot(batch: Batch, parts: tuple[str, ...]) -> str:
    """Where the batch's results are kept: one entry per place, crate, configuration and set
    of target files, overwritten as their content changes."""
    # parts: cwd, manifest, ..., settings digest (see `parts`).
    targets = sorted(str(i.path) for i in batch.inputs if i.target)
    return "\0".join((*parts[:2], parts[-1], *targets))


def parts(batch: Batch, known: frozenset[str]) -> tuple[str, ...]:
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
