"""`// burnlint: allow(BD001)` comments: which findings the user has acknowledged.

A comment alone on its line covers the next line; a comment after code covers its own line;
`// burnlint: allow-file(BD001, BD004)` anywhere covers the whole file. The CLI and the language
server both filter through `Suppressions`, so they agree; the comments that acknowledged nothing
are reported by `burnlint check --report-unused-suppressions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.analysis.findings import Edit, Finding, Fix, Position, Range, Suppressed, Unused

if TYPE_CHECKING:
    from burnlint.analysis.syntax.source import SourceFile

__all__ = ["UNUSED_CODE", "Allow", "Suppressed", "Suppressions", "Unused", "unused_finding"]

_COMMENT = re.compile(r"//\s*burnlint:\s*(?P<kind>allow-file|allow)\((?P<codes>[^)]*)\)")
_CANDIDATE = re.compile(rb"burnlint:[^\n]*?allow")
"""The lines that may hold one, searched in the bytes (a superset: any whitespace, Unicode
too, may separate the words); other mentions of `burnlint:` (a fixture's `// burnlint:
expect BD001`) cost nothing."""


@dataclass(frozen=True, slots=True)
class Allow:
    """One suppression comment: the codes it names and the line it covers (None: the file)."""

    codes: frozenset[str]
    line: int | None
    range: Range
    text: str

    @property
    def kind(self) -> str:
        """ "line" or "file"."""
        return "file" if self.line is None else "line"


@dataclass(slots=True)
class Suppressions:
    """The suppression comments of one file."""

    allows: list[Allow] = field(default_factory=list[Allow])

    @staticmethod
    def parse(source: SourceFile) -> Suppressions:
        """Find every suppression comment in a file (0-based lines)."""
        found = Suppressions()
        if b"burnlint:" not in source.data:
            return found
        # Lines as findings count them: only "\n" ends a line (a "\r" before it is kept).
        # Only the lines that name burnlint are read (a file has thousands of others).
        data = source.data
        numbers: list[int] = []
        for candidate in _CANDIDATE.finditer(data):
            number = source.line_of(candidate.start())
            if not numbers or numbers[-1] != number:
                numbers.append(number)
        for number in numbers:
            offset = source.offset(Position(number, 0))
            end_of_line = data.find(b"\n", offset)
            raw = data[offset:] if end_of_line == -1 else data[offset:end_of_line]
            line = raw.decode("utf-8", "replace")
            for match in _COMMENT.finditer(line):
                codes = frozenset(
                    c.strip().upper() for c in match.group("codes").split(",") if c.strip()
                )
                start = offset + len(line[: match.start()].encode("utf-8"))
                comment = line[match.start() :].rstrip("\r")
                end = start + len(comment.encode("utf-8"))
                where = Range(source.path, start, end, source.position(start), source.position(end))
                if match.group("kind") == "allow-file":
                    target = None
                else:
                    own_line = not line[: match.start()].strip()
                    target = number + 1 if own_line else number
                found.allows.append(Allow(codes, target, where, comment.strip()))
        return found

    def covering(self, finding: Finding) -> Allow | None:
        """The comment that acknowledges this finding, if any (a line comment before a file one)."""
        line = finding.range.start.line
        for allow in self.allows:
            if allow.line == line and finding.code in allow.codes:
                return allow
        for allow in self.allows:
            if allow.line is None and finding.code in allow.codes:
                return allow
        return None

    def covers(self, finding: Finding) -> bool:
        """Whether a comment acknowledges this finding."""
        return self.covering(finding) is not None

    def split(self, findings: list[Finding]) -> tuple[list[Finding], list[Suppressed]]:
        """Findings to report and the ones a comment acknowledged."""
        if not self.allows:
            return findings, []
        kept: list[Finding] = []
        suppressed: list[Suppressed] = []
        for finding in findings:
            allow = self.covering(finding)
            if allow is None:
                kept.append(finding)
            else:
                suppressed.append(Suppressed(finding, allow.range, allow.kind, allow.text))
        return kept, suppressed

    def unused(self, suppressed: list[Suppressed], checked: frozenset[str] | None) -> list[Unused]:
        """Codes in comments that acknowledged nothing; codes outside `checked` (codes not run,
        None: all run) are never called unused, since burnlint did not look for them."""
        used = {(s.comment.start_byte, s.finding.code) for s in suppressed}
        found: list[Unused] = []
        for allow in self.allows:
            for code in sorted(allow.codes):
                if checked is not None and code not in checked:
                    continue
                if (allow.range.start_byte, code) not in used:
                    found.append(Unused(code, allow.range, allow.text))
        return found


UNUSED_CODE = "unused-suppression"


def unused_finding(unused: Unused, text: str, era: str = "") -> Finding:
    """An unused suppression as a warning with a safe fix that removes the stale code (and the
    comment when no code is left; the whole line when the comment stood alone on it)."""
    data = text.encode("utf-8")
    comment = unused.comment
    match = _COMMENT.match(data[comment.start_byte : comment.end_byte].decode("utf-8"))
    codes = [c.strip() for c in match.group("codes").split(",") if c.strip()] if match else []
    rest = [c for c in codes if c.upper() != unused.code]
    start, end = comment.start_byte, comment.end_byte
    if rest and match is not None:
        # Rewrite only the list of codes inside the parentheses.
        start = comment.start_byte + len(match.group(0)[: match.start("codes")].encode("utf-8"))
        end = start + len(match.group("codes").encode("utf-8"))
        new_text = ", ".join(rest)
    else:
        new_text = ""
        line_start = data.rfind(b"\n", 0, start) + 1
        line_end = data.find(b"\n", end)
        line_end = len(data) if line_end == -1 else line_end + 1
        if not data[line_start:start].strip():
            start, end = line_start, line_end
        else:
            # Keep the code before the comment, minus the spaces that led to it.
            while start > line_start and data[start - 1 : start] in (b" ", b"\t"):
                start -= 1
    edit_range = Range(comment.path, start, end, _position(data, start), _position(data, end))
    title = f"remove the unused suppression of {unused.code}"
    return Finding(
        code=UNUSED_CODE,
        slug=UNUSED_CODE,
        severity="warning",
        message=f"`{unused.text}` acknowledges no {unused.code} finding here",
        range=comment,
        related=(),
        fixes=(Fix("remove-suppression", title, "safe", (Edit(edit_range, new_text),)),),
        panic="",
        era=era,
    )


def _position(data: bytes, offset: int) -> Position:
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace"))
    return Position(data.count(b"\n", 0, offset), column)
