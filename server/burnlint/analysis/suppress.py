"""`// burnlint: allow(BD001)` comments: which findings the user has acknowledged.

A comment alone on its line covers the next line; a comment after code covers its own line;
`// burnlint: allow-file(BD001, BD004)` anywhere covers the whole file. The CLI and the language
server both filter through `Suppressions`, so they agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from burnlint.analysis.findings import Finding

_COMMENT = re.compile(r"//\s*burnlint:\s*(?P<kind>allow-file|allow)\((?P<codes>[^)]*)\)")


@dataclass(slots=True)
class Suppressions:
    """The suppression comments of one file."""

    lines: dict[int, set[str]] = field(default_factory=dict[int, set[str]])
    file: set[str] = field(default_factory=set[str])

    @staticmethod
    def parse(text: str) -> Suppressions:
        """Find every suppression comment in `text` (0-based lines)."""
        found = Suppressions()
        if "burnlint:" not in text:
            return found
        # Lines as findings count them: only "\n" ends a line (a "\r" before it is kept).
        for number, line in enumerate(text.split("\n")):
            for match in _COMMENT.finditer(line):
                codes = {c.strip().upper() for c in match.group("codes").split(",") if c.strip()}
                if match.group("kind") == "allow-file":
                    found.file |= codes
                    continue
                own_line = not line[: match.start()].strip()
                target = number + 1 if own_line else number
                found.lines.setdefault(target, set()).update(codes)
        return found

    def covers(self, finding: Finding) -> bool:
        """Whether a comment acknowledges this finding."""
        if finding.code in self.file:
            return True
        return finding.code in self.lines.get(finding.range.start.line, set())
