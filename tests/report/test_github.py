"""GitHub Actions workflow commands on real analyzer findings: format, levels, escaping.

The snapshot of each format is in tests/cli/test_snapshots.py.
"""

from __future__ import annotations

import re
from dataclasses import replace

from burnlint.analysis.findings import Finding
from burnlint.report.github import escape_data, escape_property, render_github

COMMAND = re.compile(r"^::(?P<command>error|warning|notice)(?: (?P<props>[^:]*))?::(?P<data>.*)$")


def unescape(text: str) -> str:
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, raw)
    return text


def parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command back into (command, properties, message)."""
    match = COMMAND.match(line)
    assert match, line
    props: dict[str, str] = {}
    if match.group("props"):
        for pair in match.group("props").split(","):
            key, value = pair.split("=", 1)
            props[key] = unescape(value)
    return match.group("command"), props, unescape(match.group("data"))


def test_one_command_per_finding_with_its_location(findings: list[Finding]) -> None:
    lines = render_github(findings, []).split("\n")
    assert len(lines) == len(findings)
    commands = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}
    for finding, line in zip(findings, lines, strict=True):
        command, props, message = parse(line)
        assert command == commands[finding.severity]
        assert props == {
            "file": finding.range.path,
            "line": str(finding.range.start.line + 1),
            "col": str(finding.range.start.character + 1),
            "endLine": str(finding.range.end.line + 1),
            "endColumn": str(finding.range.end.character + 1),
            "title": f"burnlint {finding.code} ({finding.slug})",
        }
        assert message == finding.message
    assert {parse(line)[0] for line in lines} >= {"error", "warning"}


def test_info_and_hint_become_notices(findings: list[Finding]) -> None:
    for severity in ("info", "hint"):
        line = render_github([replace(findings[0], severity=severity)], [])
        assert line.startswith("::notice file=")


def test_problems_become_errors_without_location(findings: list[Finding]) -> None:
    out = render_github(findings[:1], ["src/a.rs: not valid UTF-8 (byte 3); skipped"])
    lines = out.split("\n")
    assert lines[1] == "::error::burnlint: src/a.rs: not valid UTF-8 (byte 3); skipped"
    assert render_github([], []) == ""


def test_message_and_properties_are_escaped(findings: list[Finding]) -> None:
    message = "100% sure, a: b\nsecond line\r"
    path = "odd,dir/a:b%c.rs"
    finding = replace(findings[0], message=message, range=replace(findings[0].range, path=path))
    line = render_github([finding], [])
    assert "\n" not in line and "\r" not in line
    assert line.endswith("::100%25 sure, a: b%0Asecond line%0D")
    assert "file=odd%2Cdir/a%3Ab%25c.rs," in line
    command, props, data = parse(line)
    assert (command, props["file"], data) == ("error", path, message)


def test_escape_functions() -> None:
    assert escape_data("50%,:\r\n") == "50%25,:%0D%0A"
    assert escape_property("50%,:\r\n") == "50%25%2C%3A%0D%0A"


def test_backslash_paths_become_forward_slashes(findings: list[Finding]) -> None:
    finding = replace(
        findings[0], range=replace(findings[0].range, path="examples\\dispatch-demo\\src\\x.rs")
    )
    assert "file=examples/dispatch-demo/src/x.rs," in render_github([finding], [])
