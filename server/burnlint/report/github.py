"""GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` annotation per finding.

GitHub shows these on the pull request's changed lines. Escaping follows @actions/core: in the
message, `%`, CR and LF are percent-encoded; in property values also `:` and `,`, which would
otherwise end the value.
"""

from __future__ import annotations

from collections.abc import Sequence

from burnlint.analysis.findings import Finding

_COMMANDS = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def escape_data(text: str) -> str:
    """A command's message, escaped so it stays on one line."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command property value, escaped so `:` and `,` do not end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(findings: Sequence[Finding], problems: Sequence[str]) -> str:
    """One workflow command per finding (in the given order), then one per problem; no trailing
    newline, and the empty string when there is nothing to report."""
    lines: list[str] = []
    for finding in findings:
        range_ = finding.range
        properties = {
            # GitHub matches annotations to repository paths, which always use forward slashes.
            "file": range_.path.replace("\\", "/"),
            "line": str(range_.start.line + 1),
            "col": str(range_.start.character + 1),
            "endLine": str(range_.end.line + 1),
            "endColumn": str(range_.end.character + 1),
            "title": f"burnlint {finding.code} ({finding.slug})",
        }
        joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
        command = _COMMANDS.get(finding.severity, "warning")
        lines.append(f"::{command} {joined}::{escape_data(finding.message)}")
    lines.extend(f"::error::{escape_data(f'burnlint: {problem}')}" for problem in problems)
    return "\n".join(lines)
