"""Write files so a reader never sees half a file and a concurrent edit is never overwritten."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


class ChangedOnDisk(Exception):
    """The file no longer holds the bytes it held when it was read; nothing was written."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: changed on disk since it was read; not written")
        self.path = path


def write_atomic(path: Path, data: bytes, expected: bytes | None = None) -> None:
    """Replace `path`'s content with `data` in one rename.

    The temporary file sits next to the target (same file system, so the rename is atomic) and
    gets the target's permission bits. A symbolic link is followed, so the link stays a link.
    With `expected`, the write is refused (`ChangedOnDisk`) unless the file still holds exactly
    those bytes just before the rename; a file that does not exist yet needs `expected=None`.
    """
    target = Path(os.path.realpath(path))
    mode: int | None = None
    with contextlib.suppress(FileNotFoundError):
        mode = stat.S_IMODE(target.stat().st_mode)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".burnlint-tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            Path(temporary).chmod(mode)
        if expected is not None:
            try:
                current = target.read_bytes()
            except OSError as error:
                raise ChangedOnDisk(path) from error
            if current != expected:
                raise ChangedOnDisk(path)
        Path(temporary).replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temporary).unlink()
        raise
