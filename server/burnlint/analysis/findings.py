"""What the analyzer reports: findings with ranges, related locations and fixes.

Records (see `burnlint.records`): a keystroke moves every finding after it, and a frozen
dataclass costs three times as much to build.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from burnlint.records import record


@record
class Position:
    """A 0-based line and a 0-based column counted in Unicode scalar values."""

    line: int
    character: int


@record
class Range:
    """A range in one file: byte offsets plus 0-based (line, Unicode column) positions."""

    path: str
    start_byte: int
    end_byte: int
    start: Position
    end: Position


@record
class Related:
    """A secondary location that explains the finding."""

    range: Range
    message: str


@record
class Edit:
    """Replace the bytes of `range` with `new_text`."""

    range: Range
    new_text: str


@record
class Fix:
    """A titled set of edits; `safety` is "safe" or "unsafe"."""

    id: str
    title: str
    safety: str
    edits: tuple[Edit, ...]


@record
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


@dataclass(frozen=True, slots=True)
class Suppressed:
    """A finding that a suppression comment acknowledged."""

    finding: Finding
    comment: Range
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Unused:
    """A code named by a suppression comment that acknowledged no finding."""

    code: str
    comment: Range
    text: str


@dataclass(slots=True)
class FileResult:
    """Findings for one file plus what the analyzer decided about it."""

    path: str
    findings: list[Finding] = field(default_factory=list[Finding])
    era: str = ""
    era_reason: str = ""
    notes: list[str] = field(default_factory=list[str])
    suppressed: list[Suppressed] = field(default_factory=list[Suppressed])
    """Findings a `// burnlint: allow(..)` comment acknowledged (not in `findings`)."""
    unused: list[Unused] = field(default_factory=list[Unused])
    """Codes in suppression comments that acknowledged no finding."""
