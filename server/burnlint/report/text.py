"""rustc-style text output: header, `-->` location, code frame with carets, notes and help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from burnlint.analysis.findings import Finding, Range

_COLORS = {
    "error": "31",
    "warning": "33",
    "info": "36",
    "hint": "36",
    "note": "32",
    "help": "36",
    "frame": "34",
}


@dataclass(frozen=True, slots=True)
class Style:
    """Whether to colour output."""

    color: bool

    def paint(self, text: str, role: str, bold: bool = False) -> str:
        if not self.color:
            return text
        code = _COLORS.get(role, "0")
        return f"\x1b[{'1;' if bold else ''}{code}m{text}\x1b[0m"


def render_finding(
    finding: Finding, line_text: Callable[[str, int], str | None], style: Style
) -> str:
    """One finding as rustc renders a diagnostic."""
    out: list[str] = []
    head = style.paint(f"{finding.severity}[{finding.code}]", finding.severity, bold=True)
    out.append(f"{head}{style.paint(': ' + finding.message, 'plain', bold=True)}")
    label = f"burn panics: {finding.panic}" if finding.panic else ""
    out.extend(_frame(finding.range, line_text, style, "^", label, finding.severity))
    for related in finding.related:
        out.append(f"{style.paint('note', 'note', bold=True)}: {related.message}")
        out.extend(_frame(related.range, line_text, style, "-", "", "note"))
    gutter = style.paint("   = ", "frame")
    for fix in finding.fixes:
        suffix = "" if fix.safety == "safe" else " (unsafe fix)"
        out.append(f"{gutter}{style.paint('help', 'help', bold=True)}: {fix.title}{suffix}")
    if finding.panic:
        out.append(
            f"{gutter}{style.paint('note', 'note', bold=True)}: run `burnlint explain {finding.code}` for details"
        )
    return "\n".join(out)


def _frame(
    range_: Range,
    line_text: Callable[[str, int], str | None],
    style: Style,
    mark: str,
    label: str,
    role: str,
) -> list[str]:
    line_no = range_.start.line + 1
    width = len(str(line_no))
    pad = " " * width
    out = [
        f"{pad}{style.paint('-->', 'frame', bold=True)} {range_.path}:{line_no}:{range_.start.character + 1}"
    ]
    text = line_text(range_.path, range_.start.line)
    if text is None:
        return out
    bar = style.paint("|", "frame", bold=True)
    start = range_.start.character
    end = range_.end.character if range_.end.line == range_.start.line else len(text)
    end = max(end, start + 1)
    shown = text.replace("\t", "    ")
    tabs_before = text[:start].count("\t") * 3
    marks = " " * (start + tabs_before) + mark * (end - start)
    out.append(f"{pad} {bar}")
    out.append(f"{style.paint(str(line_no), 'frame', bold=True)} {bar} {shown}")
    out.append(
        f"{pad} {bar} {style.paint(marks + (' ' + label if label else ''), role, bold=True)}"
    )
    return out


def render_summary(findings: list[Finding], files: int, style: Style) -> str:
    """The closing line."""
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    if not findings:
        return style.paint(
            f"burnlint: no findings in {files} file{'s' if files != 1 else ''}", "note", bold=True
        )
    parts = [
        f"{errors} error{'s' if errors != 1 else ''}",
        f"{warnings} warning{'s' if warnings != 1 else ''}",
    ]
    return style.paint(
        f"burnlint: {len(findings)} finding{'s' if len(findings) != 1 else ''} ({', '.join(parts)}) in {files} file{'s' if files != 1 else ''}",
        "error" if errors else "warning",
        bold=True,
    )


def render_statistics(findings: list[Finding], slugs: dict[str, str]) -> str:
    """Counts per code, most frequent first (`--statistics`)."""
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    width = max((len(str(n)) for _, n in rows), default=1)
    code_width = max((len(code) for code, _ in rows), default=5)
    return "\n".join(
        f"{n:>{width}}  {code:<{code_width}}  {slugs.get(code, code)}" for code, n in rows
    )
