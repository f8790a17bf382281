"""What the analyzer reports: findings with ranges, related locations and fixes."""

from __future__ import annotations

from dataclasses import dataclass

from burnlint.analysis.source import Position


@dataclass(frozen=True, slots=True)
class Range:
    """A range in one file: byte offsets plus 0-based (line, Unicode column) positions."""

    path: str
    start_byte: int
    end_byte: int
    start: Position
    end: Position


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location that explains the finding."""

    range: Range
    message: str


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the bytes of `range` with `new_text`."""

    range: Range
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A titled set of edits; `safety` is "safe" or "unsafe"."""

    id: str
    title: str
    safety: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic: code, severity, message, where, why (related) and how to fix."""

    code: str
    slug: str
    severity: str
    message: str
    range: Range
    related: tuple[Related, ...]
    fixes: tuple[Fix, ...]
    panic: str
    era: str

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        """Deterministic report order: path, position, code."""
        return (self.range.path, self.range.start_byte, self.range.end_byte, self.code)
