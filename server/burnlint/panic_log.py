"""Read panics out of `cargo test` or application output and explain each distinct one.

Both header formats are understood: `thread 'name' panicked at path:line:col:` followed by the
message (Rust >= 1.73, with an optional thread id) and the older
`thread 'name' panicked at 'message', path:line:col`. A message ends at a `note:` line, a
backtrace, the next panic, a test-harness line, or a blank line followed by unindented text.
`RUST_BACKTRACE=1` and `full` frames are collected, `---- test stdout ----` sections name the
test, colours and Windows line ends are ignored.

For each distinct panic (same message pattern at the same location) the analysis gives the
knowledge-base matches, the burn version and era implied by where it panicked, and the first
backtrace frame in the user's own code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from burnlint.eras import era_from_version
from burnlint.kb.match import (
    EXACT,
    PLACEHOLDER,
    Match,
    best_matches,
    match_panic,
    message_eras,
    next_text_line,
    reduce,
    unescape_breaks,
)
from burnlint.kb.match import strip_ansi as _strip_ansi
from burnlint.kb.match import template_of as _template_of
from burnlint.kb.model import Entry
from burnlint.project import find_crate

_HEADER = re.compile(
    r"^(?P<pre>.*?)(?:thread '(?P<thread>[^']*)'(?: \(\d+\))? )?panicked at (?P<rest>.*)$"
)
_LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<column>\d+))?$")
_NEW_REST = re.compile(r"^(?P<loc>.+?:\d+(?::\d+)?):\s*$")
_INLINE_REST = re.compile(r"^(?P<loc>[^\s']+?:\d+:\d+):\s+(?P<msg>\S.*)$")
"""The new header with the message on the same line: a panic pasted into a one-line box."""
_OLD_REST = re.compile(
    r"\A'(?P<msg>.*?)', (?P<loc>[^\n]+?:\d+(?::\d+)?)[ \t]*$", re.DOTALL | re.MULTILINE
)
_SECTION = re.compile(
    r"^-{3,4} (?:(?P<name>\S.*?) (?:stdout|stderr)|(?:STDOUT|STDERR): +(?P<nx>.+?)) -{3,4}\s*$"
)
_FAILED = re.compile(r"^test (?P<name>\S+) \.\.\. FAILED")
_HARNESS = re.compile(
    r"^(?:test \S+ \.\.\. |failures:\s*$|test result: |running \d+ tests?|error: test failed"
    r"|\s+Running |\s+Doc-tests )"
)
_STOP = re.compile(
    r"^(?:note: |stack backtrace:|Stack backtrace:|thread caused non-unwinding panic)"
)
_INLINE_TEST = re.compile(r"^test (?P<name>\S+) \.\.\. ")
_FRAME = re.compile(
    r"^\s*(?P<index>\d+):\s+(?:(?P<address>0x[0-9a-fA-F]+) - )?(?P<function>\S.*?)\s*$"
)
_AT = re.compile(r"^\s+at (?P<loc>.+?)\s*$")
_HASH = re.compile(r"::h[0-9a-f]{16}$")
_REGISTRY = re.compile(
    r"(?:^|[/\\])(?P<crate>burn(?:-[a-z][a-z0-9_]*)*)-"
    r"(?P<version>\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?:\+[0-9A-Za-z.]+)?)[/\\]"
)
_GIT = re.compile(
    r"[/\\]checkouts[/\\]burn-[0-9a-f]+[/\\](?P<rev>[0-9A-Za-z_.-]+)[/\\]"
    r"(?:crates[/\\](?P<crate>[^/\\]+)[/\\])?"
)
_CHECKOUT = re.compile(r"(?:^|[/\\])crates[/\\](?P<crate>burn(?:-[a-z0-9_]+)*)[/\\]src[/\\]")
_FOREIGN = re.compile(
    r"(?:^|[/\\])(?:\.cargo|\.rustup|rustlib)[/\\]|^/rustc/|(?:^|[/\\])library[/\\](?:std|core|alloc"
    r"|proc_macro|test|panic_unwind|panic_abort)[/\\]|^(?:/|[A-Za-z]:[/\\])?rustc[/\\][0-9a-f]{40}"
)


@dataclass(frozen=True, slots=True)
class Location:
    """A source position as printed in a panic or a backtrace (1-based line and column)."""

    path: str
    line: int
    column: int = 0

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}:{self.column}" if self.column else f"{self.path}:{self.line}"
        )


@dataclass(frozen=True, slots=True)
class Frame:
    """One backtrace frame: its number, function (without the symbol hash) and location."""

    index: int
    function: str
    location: Location | None = None
    address: str = ""


@dataclass(frozen=True, slots=True)
class Panic:
    """One panic in a log: thread, message (as printed), location, backtrace, and the cargo
    test whose output it is in ("" outside a test's section)."""

    thread: str
    message: str
    location: Location | None
    frames: tuple[Frame, ...] = ()
    test: str = ""
    line: int = 0
    """1-based line of the `panicked at` header in the log."""


@dataclass(frozen=True, slots=True)
class BurnSource:
    """The burn crate a path belongs to: `registry` (a published version), `git` (a git
    dependency at a revision) or `path` (a burn source checkout)."""

    kind: str
    crate: str
    version: str = ""
    rev: str = ""

    def describe(self) -> str:
        """`burn-dispatch 0.22.0-pre.4`, `burn git 0e2dc6b (burn-dispatch)`, …"""
        if self.kind == "registry":
            return f"{self.crate} {self.version}"
        if self.kind == "git":
            return f"burn git {self.rev}" + (f" ({self.crate})" if self.crate else "")
        return f"{self.crate} (burn source checkout)"


@dataclass(slots=True)
class PanicGroup:
    """A distinct panic: the first occurrence, how often it occurred and in which tests, what
    explains it, the era it implies, and the user's frames that led to it."""

    panic: Panic
    matches: list[Match]
    count: int = 1
    tests: list[str] = field(default_factory=list[str])
    threads: list[str] = field(default_factory=list[str])
    user_frames: list[Frame] = field(default_factory=list[Frame])
    burn: BurnSource | None = None
    era: str | None = None
    era_reason: str = ""

    @property
    def user_frame(self) -> Frame | None:
        """The first user frame seen for this panic."""
        return self.user_frames[0] if self.user_frames else None

    @property
    def best(self) -> list[Match]:
        """The matches sharing the best score."""
        return best_matches(self.matches)


def has_panic(text: str) -> bool:
    """Whether `text` looks like output holding at least one panic."""
    return "panicked at" in text


def parse_location(text: str) -> Location | None:
    """`path:line[:column]` as a Location, or None."""
    found = _LOCATION.match(text.strip())
    if found is None:
        return None
    column = found.group("column")
    return Location(found.group("path"), int(found.group("line")), int(column) if column else 0)


def parse_panics(text: str) -> list[Panic]:
    """Every panic in `text`, in order."""
    lines = _strip_ansi(unescape_breaks(text)).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    failed = {m.group("name") for m in map(_FAILED.match, lines) if m is not None}
    panics: list[Panic] = []
    section = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = _SECTION.match(line)
        if heading is not None:
            name = heading.group("name") or heading.group("nx") or ""
            section = name.split()[-1] if name.split() else ""
            index += 1
            continue
        if line.startswith(("failures:", "test result:", "running ")):
            section = ""
        header = _HEADER.match(line)
        if header is None:
            index += 1
            continue
        thread = header.group("thread") or ""
        rest = header.group("rest")
        start = index
        new = _NEW_REST.match(rest)
        if rest.startswith("'"):
            message, location, index = _old_style(lines, index, rest)
        elif new is not None:
            location = parse_location(new.group("loc"))
            message, index = _message(lines, index + 1)
        elif (inline_rest := _INLINE_REST.match(rest)) is not None:
            location = parse_location(inline_rest.group("loc"))
            message, index = inline_rest.group("msg").strip(), index + 1
        elif header.group("thread") is not None:
            # A thread's panic in a shape we do not know: keep the rest of the line.
            message, location, index = rest, None, index + 1
        else:
            # "panicked at" in ordinary text, not a panic header.
            index += 1
            continue
        frames, index = _backtrace(lines, index)
        # `cargo test -- --nocapture` prints the panic on the test's own `test name ... ` line.
        inline = _INLINE_TEST.match(header.group("pre"))
        test = (
            section
            or (inline.group("name") if inline else "")
            or (thread if thread in failed else "")
        )
        panics.append(Panic(thread, message, location, frames, test, start + 1))
    return panics


def _old_style(lines: list[str], index: int, rest: str) -> tuple[str, Location | None, int]:
    window = "\n".join([rest, *lines[index + 1 : index + 200]])
    found = _OLD_REST.search(window)
    if found is None:
        return rest.strip("'"), None, index + 1
    used = window[: found.end()].count("\n")
    return found.group("msg"), parse_location(found.group("loc")), index + used + 1


def _message(lines: list[str], index: int) -> tuple[str, int]:
    kept: list[str] = []
    while index < len(lines):
        line = lines[index]
        if _STOP.match(line) or _HEADER.match(line) or _SECTION.match(line):
            break
        if _HARNESS.match(line) and kept:
            break
        if not line.strip():
            following = next_text_line(lines, index + 1)
            if kept and (not following or not following[0].isspace()):
                break
            if not kept and not following:
                break
        kept.append(line)
        index += 1
    return "\n".join(kept).strip("\n"), index


def _backtrace(lines: list[str], index: int) -> tuple[tuple[Frame, ...], int]:
    if index >= len(lines) or not lines[index].lower().startswith("stack backtrace:"):
        return (), index
    index += 1
    frames: list[Frame] = []
    while index < len(lines):
        line = lines[index]
        frame = _FRAME.match(line)
        at = _AT.match(line)
        if at is not None and frames and frames[-1].location is None:
            last = frames[-1]
            frames[-1] = Frame(
                last.index, last.function, parse_location(at.group("loc")), last.address
            )
        elif at is not None:
            pass  # a second `at` line (inlined code): the first one is the frame's own
        elif frame is not None:
            function = _HASH.sub("", frame.group("function"))
            frames.append(
                Frame(int(frame.group("index")), function, None, frame.group("address") or "")
            )
        else:
            break
        index += 1
    return tuple(frames), index


def burn_source(path: str) -> BurnSource | None:
    """The burn crate `path` is in, when it is in one (registry, git dependency or checkout)."""
    registry = _REGISTRY.search(path)
    if registry is not None:
        return BurnSource("registry", registry.group("crate"), version=registry.group("version"))
    git = _GIT.search(path)
    if git is not None:
        return BurnSource("git", git.group("crate") or "", rev=git.group("rev"))
    checkout = _CHECKOUT.search(path)
    if checkout is not None:
        return BurnSource("path", checkout.group("crate"))
    return None


def _is_absolute(path: str) -> bool:
    return path.startswith(("/", "\\")) or PureWindowsPath(path).is_absolute()


def user_path(path: str, root: Path) -> Path | None:
    """Where `path` (as printed) is on disk when it is the user's own code: relative to the
    workspace `root` or below it, and not the standard library, a `~/.cargo` dependency or burn.
    None for anything else, and for user paths that do not exist under `root`."""
    if not is_user_path(path, root):
        return None
    candidate = Path(path) if _is_absolute(path) else root / path
    return candidate if candidate.is_file() else None


def is_user_path(path: str, root: Path) -> bool:
    """Whether a printed path is the user's code (see `user_path`), whether or not it exists."""
    if burn_source(path) is not None or _FOREIGN.search(path.replace("\\", "/")):
        return False
    if not _is_absolute(path):
        return True
    try:
        Path(path).resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


def user_frames(panic: Panic, root: Path) -> list[Frame]:
    """The backtrace frames in the user's own code, innermost first; when the panic has no
    backtrace and panicked in user code, that location as frame 0."""
    frames = [
        f for f in panic.frames if f.location is not None and is_user_path(f.location.path, root)
    ]
    if not frames and panic.location is not None and is_user_path(panic.location.path, root):
        frames = [Frame(0, "", panic.location)]
    return frames


def _message_era(matches: list[Match]) -> str | None:
    best = [m for m in best_matches(matches) if m.kind in (EXACT, PLACEHOLDER)]
    if not best:
        return None
    eras = frozenset[str]().union(*(message_eras(m.entry, m.message) for m in best))
    return next(iter(eras)) if len(eras) == 1 else None


def _burn_of(panic: Panic) -> BurnSource | None:
    if panic.location is not None:
        found = burn_source(panic.location.path)
        if found is not None:
            return found
    for frame in panic.frames:
        if frame.location is not None:
            found = burn_source(frame.location.path)
            if found is not None:
                return found
    return None


def _era(group: PanicGroup, root: Path) -> tuple[str | None, str]:
    burn = group.burn
    from_message = _message_era(group.matches)
    said = f"the message only exists in the {from_message} era" if from_message else ""
    if burn is not None and burn.kind == "registry":
        era = era_from_version(burn.version)
        if era is not None:
            return era, f"{burn.describe()} in the panic location"
        if from_message:
            return from_message, f"{burn.describe()} does not decide the era; {said}"
    if burn is not None and burn.kind != "registry":
        if from_message:
            return from_message, f"{burn.describe()}; {said}"
        return None, f"{burn.describe()}: the era is not known from the location"
    if from_message:
        return from_message, said
    frame = group.user_frame
    if frame is not None and frame.location is not None:
        path = user_path(frame.location.path, root)
        if path is not None:
            crate = find_crate(path)
            if crate.era is not None:
                return crate.era, f"{crate.era_reason} (the workspace)"
    return None, "unknown: neither the location nor the message decides it"


def analyze(entries: tuple[Entry, ...], text: str, root: Path | None = None) -> list[PanicGroup]:
    """Parse `text` and explain each distinct panic (same message pattern at the same
    location) once, with how often it occurred; in order of first occurrence."""
    where = root or Path.cwd()
    groups: dict[tuple[str, str], PanicGroup] = {}
    for panic in parse_panics(text):
        matches = match_panic(entries, reduce(panic.message))
        key = (_template_of(panic.message, matches), str(panic.location or ""))
        group = groups.get(key)
        if group is None:
            group = PanicGroup(panic, matches, count=0, burn=_burn_of(panic))
            groups[key] = group
        group.count += 1
        if panic.test and panic.test not in group.tests:
            group.tests.append(panic.test)
        if panic.thread and panic.thread not in group.threads:
            group.threads.append(panic.thread)
        for frame in user_frames(panic, where)[:1]:
            if all(frame.location != seen.location for seen in group.user_frames):
                group.user_frames.append(frame)
    for group in groups.values():
        group.era, group.era_reason = _era(group, where)
    return list(groups.values())
