"""The protocol types' generated methods, compiled once and kept between starts of the server.

lsprotocol defines about 570 attrs classes. Importing it makes attrs write each class's
methods (`__init__`, `__repr__`, `__eq__`, ...) as Python source and compile it: some 760
compiles, a third of the import and about a fifth of the time from the server's start to its
first diagnostics (0.15-0.2 s on a small machine). The same source compiled by the same Python
gives the same code, so the code objects are kept in a `marshal` file in the user's cache
folder, keyed by a digest of each script and its file name, and handed back to attrs on the
next start. Anything unexpected (no attrs, another attrs layout, an unreadable or damaged file,
a read-only folder) only means compiling as usual.
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, cast

_NAME = f"attrs-methods-{sys.implementation.cache_tag}.marshal"


def cache_folder() -> Path:
    """Where per-user caches go: `BURNLINT_CACHE_DIR` if set, else the platform's cache folder
    (`$XDG_CACHE_HOME/burnlint`, `~/.cache/burnlint`, ...)."""
    given = os.environ.get("BURNLINT_CACHE_DIR")
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_cache_dir("burnlint", appauthor=False))


class CompiledMethods:
    """The code objects of one import, by digest: those read from the file, and those used."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stored = _read(path)
        self.used: dict[bytes, CodeType] = {}
        self.compiled = 0
        """How many scripts were not in the file (compiled now)."""

    def compile(self, source: Any, filename: str, mode: str, *rest: Any, **options: Any) -> Any:
        """`compile`, answered from the file for the plain calls attrs makes."""
        if rest or options or not isinstance(source, str):
            return cast(Any, builtins.compile)(source, filename, mode, *rest, **options)
        key = hashlib.blake2b(f"{mode}\0{filename}\0{source}".encode(), digest_size=16).digest()
        code = self.stored.get(key)
        if code is None:
            code = builtins.compile(source, filename, mode)
            self.compiled += 1
        self.used[key] = code
        return code

    def save(self) -> None:
        """Write what this import used, if anything had to be compiled (exactly the scripts of
        the installed versions: the file never grows with upgrades)."""
        if not self.compiled:
            return
        with contextlib.suppress(OSError, ValueError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".attrs-methods-")
            temporary = Path(name)
            try:
                with os.fdopen(handle, "wb") as stream:
                    marshal.dump(self.used, stream)
                temporary.replace(self.path)
            finally:
                temporary.unlink(missing_ok=True)


def _read(path: Path) -> dict[bytes, CodeType]:
    try:
        with path.open("rb") as stream:
            found: object = marshal.load(stream)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        key: code
        for key, code in found.items()  # pyright: ignore[reportUnknownVariableType]
        if isinstance(key, bytes) and isinstance(code, CodeType)
    }


@contextlib.contextmanager
def kept_compiled(folder: Path | None = None) -> Generator[CompiledMethods | None]:
    """Within the block, attrs' compiles are answered from the cache file in `folder` (the
    user's cache folder by default); afterwards the file holds what the block compiled."""
    try:
        import attr._make as make
    except ImportError:
        yield None
        return
    if not callable(getattr(make, "_compile_and_eval", None)):
        # Another attrs layout: its compiles may not be the plain ones this expects.
        yield None
        return
    methods = CompiledMethods((folder or cache_folder()) / _NAME)
    # attrs calls the builtin by its name: a module global of that name comes first.
    module: ModuleType = make
    module.compile = methods.compile  # type: ignore[attr-defined]
    try:
        yield methods
    finally:
        del module.compile  # type: ignore[attr-defined]
        methods.save()
