"""Read Rust source files as the checker and the language server need them: decoded, within
the configured size limit, or left out with a problem a user can act on."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from burnlint.config import DEFAULT_MAX_FILE_SIZE
from burnlint.walk import Target

MAX_FILE_BYTES = DEFAULT_MAX_FILE_SIZE


def describe_size(size: int) -> str:
    """A byte count as people read it: 8 MiB, 512 KiB, 300 bytes."""
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor:
            value = size / factor
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


def read_target(
    target: Target,
    problems: list[str] | None,
    overlay: Mapping[Path, str],
    limit: int = MAX_FILE_BYTES,
) -> str | None:
    """A walked file's text: from `overlay` (by resolved path) when it has the file, else from
    disk (see `read_source`)."""
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
