"""One line per finding, like ruff's concise format: `path:line:col: CODE [severity] message`."""

from __future__ import annotations

from collections.abc import Sequence

from burnlint.analysis.findings import Finding
from burnlint.report.text import Style


def render_concise(findings: Sequence[Finding], style: Style) -> str:
    """The findings in the given order, 1-based lines and Unicode-character columns; no summary
    line (the caller prints it) and no trailing newline."""
    return "\n".join(concise_line(finding, style) for finding in findings)


def concise_line(finding: Finding, style: Style) -> str:
    """One finding on one line; with colour, the location is bold and the code and severity take
    the severity's colour, as in the rustc-style text report."""
    start = finding.range.start
    where = style.paint(
        f"{finding.range.path}:{start.line + 1}:{start.character + 1}:", "plain", bold=True
    )
    code = style.paint(finding.code, finding.severity, bold=True)
    severity = style.paint(finding.severity, finding.severity)
    return f"{where} {code} [{severity}] {finding.message}"
