"""The concise format on real analyzer findings: one `path:line:col: CODE [severity] message`
line per finding, optionally coloured.

The snapshot of each format is in tests/cli/test_snapshots.py.
"""

from __future__ import annotations

import re

from burnlint.analysis.findings import Finding
from burnlint.report.concise import render_concise
from burnlint.report.text import Style

LINE = re.compile(
    r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<code>BD\d{3}) \[(?P<sev>\w+)\] (?P<msg>.+)$"
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_one_line_per_finding(findings: list[Finding]) -> None:
    lines = render_concise(findings, Style(color=False)).split("\n")
    assert len(lines) == len(findings)
    for finding, line in zip(findings, lines, strict=True):
        match = LINE.match(line)
        assert match, line
        assert match.group("path") == finding.range.path
        assert int(match.group("line")) == finding.range.start.line + 1
        assert int(match.group("col")) == finding.range.start.character + 1
        assert match.group("code") == finding.code
        assert match.group("sev") == finding.severity
        assert match.group("msg") == finding.message
    assert "\x1b[" not in "\n".join(lines)


def test_colour_only_adds_escape_codes(findings: list[Finding]) -> None:
    plain = render_concise(findings, Style(color=False))
    coloured = render_concise(findings, Style(color=True))
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == plain
    # The code takes its severity's colour: red for errors, yellow for warnings.
    assert "\x1b[1;31mBD001\x1b[0m" in coloured
    assert "\x1b[1;33mBD001\x1b[0m" in coloured


def test_no_findings_no_output() -> None:
    assert render_concise([], Style(color=True)) == ""
