"""Match pasted panic text against the knowledge base's messages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from burnlint.kb.model import Entry

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_PANICKED_AT = re.compile(r"^thread '[^']*' panicked at [^\n]*:\s*\n?", re.MULTILINE)
_PREFIXES = (
    "internal error: entered unreachable code: ",
    "not implemented: ",
    "not yet implemented: ",
    "assertion `left == right` failed: ",
    "assertion `left != right` failed: ",
    "assertion failed: ",
)


@dataclass(frozen=True, slots=True)
class Match:
    """One candidate entry for a pasted message, best first when sorted by `score`."""

    entry: Entry
    message: str
    era: str
    score: int


def normalize(text: str) -> str:
    """Strip colours, `thread … panicked at` headers, panic-macro prefixes and extra lines."""
    text = _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _PANICKED_AT.sub("", text).strip()
    first = text.split("\n", 1)[0].strip().strip("'\"`")
    changed = True
    while changed:
        changed = False
        for prefix in _PREFIXES:
            if first.startswith(prefix):
                first = first[len(prefix) :]
                changed = True
    return first.strip()


def _pattern(message: str) -> re.Pattern[str]:
    parts = [re.escape(part) for part in normalize(message).split("{}")]
    return re.compile("(?:.+?)".join(parts) + r"(?::.*)?$", re.DOTALL)


def find_matches(entries: tuple[Entry, ...], text: str) -> list[Match]:
    """Entries whose panic messages match `text`, best first."""
    wanted = normalize(text)
    if not wanted:
        return []
    found: dict[str, Match] = {}
    for entry in entries:
        for message, era in entry.all_messages():
            bare = normalize(message)
            score = 0
            if _pattern(message).match(wanted):
                score = 100
            elif len(wanted) >= 12 and bare.startswith(wanted):
                score = 60
            elif len(wanted) >= 12 and wanted in bare:
                score = 40
            if score and (entry.id not in found or found[entry.id].score < score):
                found[entry.id] = Match(entry, message, era, score)
    return sorted(found.values(), key=lambda m: (-m.score, m.entry.id))
