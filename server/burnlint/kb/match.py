"""Match pasted panic text against the knowledge base's messages.

Each knowledge-base message is compiled once into a regular expression in which burn's format
placeholders (`{}`, `{:?}`, `{name}`, `{0}`) are lazy wildcards. The pasted text is reduced to the
bare message first: colours, Windows line ends, the `thread '…' panicked at …` header, the panic
macros' decorations (`internal error: entered unreachable code: `, `not implemented: `,
`assertion `left == right` failed: ` with its `left:`/`right:` lines, …) and surrounding quotes go.

Ranking, best first: an exact literal match, then a match through placeholders or an
`expect`/`unwrap` suffix (`msg: <error>`) where fewer characters were taken by wildcards is
better, then a prefix of a message (the user pasted the start of it), then a fragment of one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from burnlint.eras import DISPATCH_ERAS
from burnlint.kb.model import Entry

EXACT, PLACEHOLDER, PREFIX, FRAGMENT = "exact", "placeholder", "prefix", "fragment"
_TIERS = {EXACT: 3, PLACEHOLDER: 2, PREFIX: 1, FRAGMENT: 0}
_MIN_PARTIAL = 12
"""Shortest text matched as the prefix or a fragment of a message (shorter is too vague)."""
_MIN_LITERAL = 10
"""Fewest literal characters a message needs before wildcards or a suffix may complete it."""

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_HEADER_NEW = re.compile(
    r"^.*?panicked at (?P<loc>[^\n]*?:\d+:\d+):[ \t]*\n(?P<rest>.*)\Z", re.DOTALL
)
_HEADER_OLD = re.compile(
    r"^.*?panicked at '(?P<msg>.*?)', (?P<loc>[^\n]*?:\d+:\d+)[ \t]*(?:\n.*)?\Z", re.DOTALL
)
_HEADER_BARE = re.compile(r"^.*?panicked at [^\n]*\n(?P<rest>.*)\Z", re.DOTALL)
_STOP = re.compile(
    r"^(?:note: |stack backtrace:|thread '|---- .* ----\s*$|test \S+ \.\.\. |failures:\s*$"
    r"|test result: |error: test failed)"
)
_ASSERT_SIDE = re.compile(r"^\s*(?:left|right)\s*:")
_OLD_ASSERT = re.compile(
    r"^assertion failed: `\(left [!=]= right\)`\s*\n?\s*left: `.*?`,\s*\n?\s*right: `.*?`"
    r"(?:: (?P<msg>.*))?\Z",
    re.DOTALL,
)
DECORATIONS = (
    "internal error: entered unreachable code: ",
    "not implemented: ",
    "not yet implemented: ",
    "assertion `left == right` failed: ",
    "assertion `left != right` failed: ",
    "assertion failed: ",
)
BARE_PANICS = frozenset(
    {
        "internal error: entered unreachable code",
        "not implemented",
        "not yet implemented",
        "explicit panic",
        "assertion `left == right` failed",
        "assertion `left != right` failed",
    }
)
"""Messages of the panic macros called without a message: they only ever match exactly."""
_ESCAPED_BREAK = re.compile(r"\\r\\n|\\n")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_SPACE = re.compile(r"\s+")
_QUOTES = ("'", '"', "`")


@dataclass(frozen=True, slots=True)
class Match:
    """One candidate entry for a pasted message, best first when sorted by `score`.

    `kind` is how the text matched (`exact`, `placeholder`, `prefix` or `fragment`) and
    `wildcard` how many characters were left to wildcards, suffixes or the unmatched rest of a
    message; `score` orders both (higher is better, equal scores are equally good)."""

    entry: Entry
    message: str
    era: str
    score: int
    kind: str = EXACT
    wildcard: int = 0


@dataclass(frozen=True, slots=True)
class Reduced:
    """A panic message reduced for matching: the bare text and the decorations it carried."""

    text: str
    decorations: tuple[str, ...]
    first_line: str


@dataclass(frozen=True, slots=True)
class _Compiled:
    core: str
    lowered: str
    pattern: re.Pattern[str]
    literals: tuple[str, ...]
    anchor: str
    literal_length: int
    placeholders: int
    decorations: tuple[str, ...]
    bare: bool


def strip_ansi(text: str) -> str:
    """`text` without terminal colour and hyperlink escape sequences."""
    return ANSI.sub("", text)


def unescape_breaks(text: str) -> str:
    """`text` with line breaks pasted as a literal backslash-n (editors, chat, issue threads and
    JSON strings give panics that way) turned into real ones: in text of one line, everywhere;
    in text of several lines, on the lines that hold a `panicked at` header."""
    if "\\n" not in text:
        return text
    if "\n" not in text.strip("\r\n"):
        return _ESCAPED_BREAK.sub("\n", text)
    return "\n".join(
        _ESCAPED_BREAK.sub("\n", line) if "panicked at" in line else line
        for line in text.split("\n")
    )


def _lines(text: str) -> str:
    return strip_ansi(text).replace("\r\n", "\n").replace("\r", "\n")


def message_of(text: str) -> str:
    """The first panic message in `text`: after a `panicked at` header when there is one, up to
    the line that ends a panic message (a `note:`, a backtrace, the next panic, a test-harness
    line, or a blank line followed by unindented text)."""
    text = _lines(unescape_breaks(text)).strip("\n")
    old = _HEADER_OLD.match(text)
    new = _HEADER_NEW.match(text)
    if old is not None and (new is None or old.start("msg") < new.start("loc")):
        return old.group("msg")
    if new is not None:
        text = new.group("rest")
    else:
        bare = _HEADER_BARE.match(text)
        if bare is not None:
            text = bare.group("rest")
    kept: list[str] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if kept and _STOP.match(line):
            break
        if not line.strip() and kept:
            following = next_text_line(lines, index + 1)
            if following and not following[0].isspace():
                break
        kept.append(line)
    return "\n".join(kept).strip("\n")


def next_text_line(lines: list[str], index: int) -> str:
    """The first non-blank line at or after `index` ("" when there is none)."""
    while index < len(lines):
        if lines[index].strip():
            return lines[index]
        index += 1
    return ""


def reduce(text: str) -> Reduced:
    """Reduce pasted text to the bare message it reports (see the module docstring)."""
    message = message_of(text)
    old = _OLD_ASSERT.match(message.strip())
    decorations: list[str] = []
    if old is not None:
        decorations.append("assertion `left == right` failed: ")
        message = old.group("msg") or "assertion `left == right` failed"
    lines = message.split("\n")
    if lines and lines[0].startswith("assertion `left"):
        # assert_eq!/assert_ne! print the operands on the next lines: not part of the message.
        lines = [line for line in lines if not _ASSERT_SIDE.match(line)]
    message = _unquote("\n".join(lines).strip())
    message, found = _undecorate(message)
    decorations.extend(found)
    message = _unquote(message)
    first = message.split("\n", 1)[0]
    return Reduced(_squash(message), tuple(decorations), _squash(first))


def normalize(text: str) -> str:
    """The bare message of `text` on one line (see `reduce`)."""
    return reduce(text).text


def _undecorate(message: str) -> tuple[str, list[str]]:
    found: list[str] = []
    changed = True
    while changed:
        changed = False
        for prefix in DECORATIONS:
            if message.startswith(prefix) and len(message) > len(prefix):
                message = message[len(prefix) :].lstrip()
                found.append(prefix)
                changed = True
    return message, found


def _unquote(message: str) -> str:
    while len(message) >= 2 and message[0] in _QUOTES and message[-1] == message[0]:
        message = message[1:-1].strip()
    return message


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


@lru_cache(maxsize=4096)
def _compile(message: str) -> _Compiled:
    squashed = _squash(_lines(message))
    bare = squashed in BARE_PANICS
    core, decorations = (squashed, []) if bare else _undecorate(squashed)
    literals: list[str] = []
    pieces: list[str] = []
    literal = ""
    placeholders = 0
    position = 0
    for found in _PLACEHOLDER.finditer(core):
        literal += core[position : found.start()]
        position = found.end()
        if found.group() in ("{{", "}}"):
            literal += found.group()[0]
            continue
        literals.append(literal)
        pieces.append(re.escape(literal))
        pieces.append("(.*?)")
        placeholders += 1
        literal = ""
    literal += core[position:]
    literals.append(literal)
    pieces.append(re.escape(literal))
    # An `expect`/`unwrap` adds `: <error>`; the error text is a wildcard like a placeholder.
    # (A message may end in a space that squashing dropped: `msg : <error>`.)
    pattern = re.compile("".join(pieces) + r"(?: ?: (.*))?", re.DOTALL)
    return _Compiled(
        core="".join(literals) if not placeholders else core,  # `{{` is a literal `{`
        lowered=core.lower(),
        pattern=pattern,
        literals=tuple(literals),
        anchor=max(literals, key=len),
        literal_length=sum(len(part) for part in literals),
        placeholders=placeholders,
        decorations=tuple(decorations),
        bare=bare,
    )


def _score(tier: str, wildcard: int, agree: bool) -> int:
    return _TIERS[tier] * 1_000_000 + (99_999 - min(wildcard, 99_999)) * 10 + int(agree)


def _full(compiled: _Compiled, text: str) -> int | None:
    """Wildcard characters used when `text` matches the whole message, else None."""
    if compiled.anchor not in text:
        return None
    found = compiled.pattern.fullmatch(text)
    if found is None:
        return None
    return sum(len(group) for group in found.groups() if group)


def _prefix(compiled: _Compiled, text: str) -> int | None:
    """Characters of the message left over when `text` is its beginning, else None."""
    rest = text
    remaining = compiled.literal_length
    for index, literal in enumerate(compiled.literals):
        if index:
            # `rest` starts inside a placeholder's value: find where the next literal begins.
            at = rest.find(literal) if literal else 0
            if at == -1:
                return remaining if len(text) >= _MIN_PARTIAL else None
            rest = rest[at:]
        if len(rest) <= len(literal):
            return remaining - len(rest) if literal.startswith(rest) else None
        if not rest.startswith(literal):
            return None
        rest = rest[len(literal) :]
        remaining -= len(literal)
    return None


def match_message(message: str, panic: Reduced) -> tuple[str, int] | None:
    """How one knowledge-base message matches a reduced panic: (kind, wildcard characters)."""
    compiled = _compile(message)
    text = panic.text
    if not text:
        return None
    if text == compiled.core and not compiled.placeholders:
        return EXACT, 0
    if compiled.bare:
        return None
    views = [(text, 0)]
    if panic.first_line and panic.first_line != text:
        views.append((panic.first_line, len(text) - len(panic.first_line)))
    for view, dropped in views:
        wildcard = _full(compiled, view)
        # A short message completed by wildcards would match nearly anything.
        if wildcard is not None and (compiled.literal_length >= _MIN_LITERAL or wildcard == 0):
            return PLACEHOLDER, wildcard + dropped
    if len(text) >= _MIN_PARTIAL:
        left = _prefix(compiled, text)
        if left is not None:
            return PREFIX, left
        if text.lower() in compiled.lowered:
            return FRAGMENT, len(compiled.core) - len(text)
    return None


def find_matches(entries: tuple[Entry, ...], text: str) -> list[Match]:
    """Entries whose panic messages match `text` (a message or a pasted panic), best first;
    each entry appears once, with its best-matching message."""
    return match_panic(entries, reduce(text))


def match_panic(entries: tuple[Entry, ...], panic: Reduced) -> list[Match]:
    """Entries whose panic messages match an already reduced panic, best first."""
    if not panic.text:
        return []
    found: dict[str, Match] = {}
    for entry in entries:
        for message, era in entry.all_messages():
            how = match_message(message, panic)
            if how is None:
                continue
            kind, wildcard = how
            agree = bool(panic.decorations) and _compile(message).decorations == panic.decorations
            score = _score(kind, wildcard, agree)
            best = found.get(entry.id)
            if best is None or best.score < score:
                found[entry.id] = Match(entry, message, era, score, kind, wildcard)
    return sorted(found.values(), key=lambda m: (-m.score, m.entry.id))


def closest(entries: tuple[Entry, ...], text: str, limit: int = 3) -> list[tuple[Entry, int]]:
    """The entries most similar to `text` that matches none (a code, a slug or a message, each
    compared with the entry's code, slug and messages), with their similarity in percent, most
    similar first."""
    query = reduce(text).text.lower() or text.strip().lower()
    scored: list[tuple[Entry, int]] = []
    for entry in entries:
        names = [entry.id, entry.slug, *(_squash(m) for m, _ in entry.all_messages())]
        ratio = max(SequenceMatcher(None, query, name.lower()).ratio() for name in names)
        scored.append((entry, round(ratio * 100)))
    scored.sort(key=lambda item: (-item[1], item[0].id))
    return scored[:limit]


def best_matches(matches: list[Match]) -> list[Match]:
    """The matches sharing the best score (more than one when the text is ambiguous)."""
    return [m for m in matches if m.score == matches[0].score] if matches else []


def template_of(text: str, matches: list[Match]) -> str:
    """A key for deduplicating panics: the matched knowledge-base message (so panics that only
    differ in placeholder values are one), else the bare message itself."""
    if matches and matches[0].kind in (EXACT, PLACEHOLDER):
        return matches[0].message
    return normalize(text)


def message_eras(entry: Entry, message: str) -> frozenset[str]:
    """The burn eras in which `entry` panics with `message` (`Entry.message_eras`), with `any`
    and unknown eras read as every dispatch era."""
    eras = set(entry.message_eras(message))
    if not eras or not eras <= set(DISPATCH_ERAS):
        return frozenset(DISPATCH_ERAS)
    return frozenset(eras)
