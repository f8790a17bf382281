"""What one start of the language server keeps for the next: the generated methods of classes,
compiled, and the knowledge base's front matter, parsed.

dataclasses, attrs and cattrs write Python source (a class's `__init__`, `__repr__`, `__eq__`,
a converter's structure function) and compile it when a class is defined or first converted.
For the language server's start that is about 420 compiles for burnlint's own dataclasses
(60 ms on a small machine) and 560 for lsprotocol's attrs classes and their converters
(0.15-0.2 s): together about a third of the time from the start to the first diagnostics. The
same source compiled by the same Python gives the same code, so the code objects are kept in
`marshal` files in the user's cache folder (one for burnlint's classes, one for the protocol's),
keyed by a digest of each script, its file name and mode, and handed back on the next start.

The knowledge base's 49 entries start with TOML front matter; parsing it takes 25 ms per run.
`parsed_front_matter` keeps each parsed table by a digest of its text, in a second file.

Only `burnlint server` uses this (`install`, from `burnlint.entry`): a check writes nothing
outside the checked tree and its results cache, and a program that imports burnlint is left
alone. The files hold only what burnlint's own process generated and parsed (never anything
read from a checked tree), in the user's own cache folder with owner-only permissions, and the
code in them is run, as Python runs its `__pycache__`. Anything unexpected (another layout of
attrs or dataclasses, an unreadable or damaged file, a read-only folder) only means compiling
and parsing as usual.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")

ALWAYS_NEW = 8
"""Scripts compiled anew on every run that do not make the file worth rewriting: attrs writes
the process's (randomized) hash of a hashable class's name into its `__hash__`, so those
differ each time; compiling them costs less than rewriting a megabyte."""


def cache_folder() -> Path:
    """Where per-user caches go: `BURNLINT_CACHE_DIR` if set, else the platform's cache folder
    (`$XDG_CACHE_HOME/burnlint`, `~/.cache/burnlint`, ...)."""
    given = os.environ.get("BURNLINT_CACHE_DIR")
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_cache_dir("burnlint", appauthor=False))


class Kept(Generic[T]):
    """Values made from text, by a digest of the text: those read from a file, and those this
    process used (`save` writes those back)."""

    def __init__(self, path: Path, kind: type[T], always_new: int = 0) -> None:
        self.path = path
        self.stored: dict[bytes, T] = {
            key: value
            for key, value in _read(path).items()
            if isinstance(key, bytes) and isinstance(value, kind)
        }
        self.used: dict[bytes, T] = {}
        self.made = 0
        """How many values were not in the file (made in this process)."""
        self._saved = 0
        self._always_new = always_new
        """New values that do not make the file worth rewriting (see `ALWAYS_NEW`)."""

    def get(self, text: str, make: Callable[[], T]) -> T:
        """The value made from `text`, from the file when it is there, else `make()`."""
        key = hashlib.blake2b(text.encode(), digest_size=16).digest()
        found = self.used.get(key)
        if found is None:
            found = self.stored.get(key)
        if found is None:
            found = make()
            try:
                marshal.dumps(cast(Any, found))
            except ValueError:
                # No marshal form (a TOML date, say): made every time.
                return found
            self.made += 1
        self.used[key] = found
        return found

    def save(self) -> None:
        """Write what this process used, if it made more than a few values since the last
        save (so the file holds those of the installed versions only: it never grows with
        upgrades)."""
        if self.made - self._saved <= self._always_new:
            return
        self._saved = self.made
        # Imported here: a start that writes nothing (the usual one) does not pay for it.
        import tempfile

        with contextlib.suppress(OSError, ValueError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.stem}-")
            temporary = Path(name)
            try:
                with os.fdopen(handle, "wb") as stream:
                    marshal.dump(self.used, stream)
                temporary.replace(self.path)
            finally:
                temporary.unlink(missing_ok=True)


class CompiledCode(Kept[CodeType]):
    """Code objects by digest of (mode, file name, source), as `compile` and `exec` for the
    modules that generate code."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, CodeType, ALWAYS_NEW)

    def code(self, source: str, filename: str, mode: str) -> CodeType:
        """`source` compiled, from the file when it is there."""
        return self.get(
            f"{mode}\0{filename}\0{source}", lambda: builtins.compile(source, filename, mode)
        )

    def compile(self, source: Any, filename: str, mode: str, *rest: Any, **options: Any) -> Any:
        """`compile`, answered from the file for plain calls with source text."""
        if rest or options or not isinstance(source, str):
            return cast(Any, builtins.compile)(source, filename, mode, *rest, **options)
        return self.code(source, filename, mode)

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """`exec`, with source text compiled from the file."""
        if isinstance(source, str):
            source = self.code(source, "<string>", "exec")
        builtins.exec(source, globals, locals)


def _read(path: Path) -> dict[object, object]:
    try:
        # One read, then `loads`: `marshal.load` on a stream reads it piecemeal, object by
        # object, and takes 5-10 times as long for these files (100 ms against 14 at a start).
        found: object = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return cast(dict[object, object], found) if isinstance(found, dict) else {}


@dataclass
class Installed:
    """What `install` set up for this process."""

    folder: Path
    classes: CompiledCode
    """dataclasses' generated methods."""
    front_matter: Kept[dict[str, Any]]
    """The knowledge base's parsed front matter."""
    protocol: CompiledCode | None = None
    """attrs' and cattrs' generated code (see `protocol_compiled`)."""


_STATE: dict[str, Installed] = {}


def _file(folder: Path, name: str) -> Path:
    return folder / f"{name}-{sys.implementation.cache_tag}.marshal"


def install(folder: Path | None = None) -> Installed:
    """From now on, dataclasses' generated methods come from the cache file in `folder` (the
    user's cache folder by default), and so does the knowledge base's front matter; `save`
    writes what was compiled or parsed meanwhile."""
    found = _STATE.get("installed")
    if found is None:
        folder = folder or cache_folder()
        found = _STATE["installed"] = Installed(
            folder,
            CompiledCode(_file(folder, "compiled-classes")),
            Kept(_file(folder, "kb-front-matter"), cast(type[dict[str, Any]], dict)),
        )
        if callable(getattr(dataclasses, "_create_fn", None)) or hasattr(
            dataclasses, "_FuncBuilder"
        ):
            # dataclasses calls the builtin by its name: a module global of that name comes
            # first.
            module: ModuleType = dataclasses
            module.exec = found.classes.exec  # type: ignore[attr-defined]
    return found


@contextlib.contextmanager
def without_tls() -> Generator[None]:
    """Within the block, `import ssl` fails as it does in a Python built without it: asyncio
    (imported there, by pygls) then runs with no TLS, which a server talking over stdio or a
    local TCP port never uses, and the start does not pay for loading OpenSSL (10-40 ms).
    After the block, `ssl` imports normally again."""
    if "ssl" in sys.modules:
        yield
        return
    # A None entry is how the import system marks a module that must not be imported.
    modules = cast(dict[str, ModuleType | None], sys.modules)
    modules["ssl"] = None
    try:
        yield
    finally:
        if "ssl" in modules and modules["ssl"] is None:
            del modules["ssl"]


@contextlib.contextmanager
def protocol_compiled() -> Generator[CompiledCode | None]:
    """Within the block (importing the protocol types), attrs' generated methods come from a
    cache file of their own (when `install`ed); so, from then on, do the structure and
    unstructure functions cattrs writes on first use of each protocol type."""
    installed = _STATE.get("installed")
    try:
        import attr._make as make
        import cattrs.gen as generate
    except ImportError:  # pragma: no cover - lsprotocol depends on both
        make = generate = None
    if (
        installed is None
        or make is None
        or generate is None
        or not callable(getattr(make, "_compile_and_eval", None))
    ):
        # Not installed, or another attrs layout whose compiles may not be the plain ones.
        yield None
        return
    code = installed.protocol = CompiledCode(_file(installed.folder, "compiled-protocol"))
    attrs_module: ModuleType = make
    attrs_module.compile = code.compile  # type: ignore[attr-defined]
    cattrs_module: ModuleType = generate
    cattrs_module.compile = code.compile  # type: ignore[attr-defined]
    try:
        yield code
    finally:
        del attrs_module.compile  # type: ignore[attr-defined]
        code.save()


def parsed_front_matter(text: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """`parse(text)` for a knowledge-base entry's front matter, kept between runs once
    `install`ed."""
    installed = _STATE.get("installed")
    if installed is None:
        return parse(text)
    return installed.front_matter.get(text, lambda: parse(text))


def save() -> None:
    """Write the cache files if this process compiled or parsed anything new (see
    `Kept.save`)."""
    installed = _STATE.get("installed")
    if installed is not None:
        for kept in (installed.classes, installed.front_matter, installed.protocol):
            if kept is not None:
                kept.save()
