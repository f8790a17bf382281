"""rustc-style text output: header, `-->` location, code frame with carets, notes and help."""

from __future__ import annotations

import re
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


_SINK = re.compile(r"^reaches `(?P<function>[^`]+)`'s sink here$")


def note_text(message: str) -> str:
    """A related location's message in the user's words (the analysis calls the place where
    burn panics a "sink")."""
    found = _SINK.match(message)
    return f"burn panics here (in `{found.group('function')}`)" if found else message


@dataclass(slots=True)
class _Note:
    """Every related location on one line, merged: one frame, one label."""

    range: Range
    start: int
    end: int
    messages: list[str]


def _notes(finding: Finding) -> list[_Note]:
    """The related locations merged per line, in the order of their first mention; a message
    said twice on one line is said once."""
    by_line: dict[tuple[str, int], _Note] = {}
    for related in finding.related:
        range_ = related.range
        start = range_.start.character
        end = range_.end.character if range_.end.line == range_.start.line else None
        key = (range_.path, range_.start.line)
        note = by_line.get(key)
        message = note_text(related.message)
        if note is None:
            by_line[key] = _Note(range_, start, end if end is not None else -1, [message])
            continue
        note.start = min(note.start, start)
        note.end = -1 if end is None or note.end == -1 else max(note.end, end)
        if message not in note.messages:
            note.messages.append(message)
    return list(by_line.values())


def render_finding(
    finding: Finding, line_text: Callable[[str, int], str | None], style: Style
) -> str:
    """One finding as rustc renders a diagnostic: the line that panics, then one note per
    other line the values went through (notes on the finding's own line are marked under it)."""
    out: list[str] = []
    head = style.paint(f"{finding.severity}[{finding.code}]", finding.severity, bold=True)
    out.append(f"{head}{style.paint(': ' + finding.message, 'plain', bold=True)}")
    label = f"burn panics: {finding.panic}" if finding.panic else ""
    primary = finding.range
    notes = _notes(finding)
    inline = [
        n
        for n in notes
        if n.range.path == primary.path and n.range.start.line == primary.start.line
    ]
    end = primary.end.character if primary.end.line == primary.start.line else -1
    marks = [(primary.start.character, end, "^", label, finding.severity)]
    # Under the primary line each related span keeps its own underline (rustc's labels); the
    # messages of one span are said once.
    spans: dict[tuple[int, int], list[str]] = {}
    for related in finding.related:
        where = related.range
        if where.path != primary.path or where.start.line != primary.start.line:
            continue
        stop = where.end.character if where.end.line == where.start.line else -1
        said = spans.setdefault((where.start.character, stop), [])
        message = note_text(related.message)
        if message not in said:
            said.append(message)
    marks.extend((s, e, "-", "; ".join(m), "note") for (s, e), m in spans.items())
    out.extend(_frame(primary, line_text, style, marks))
    for note in notes:
        if note in inline:
            continue
        out.append(f"{style.paint('note', 'note', bold=True)}: {'; '.join(note.messages)}")
        out.extend(_frame(note.range, line_text, style, [(note.start, note.end, "-", "", "note")]))
    # rustc aligns the `=` of help and note lines with the frames' `|`.
    width = max(len(str(r.start.line + 1)) for r in (primary, *(n.range for n in notes)))
    gutter = style.paint(" " * (width + 1) + "= ", "frame")
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
    marks: list[tuple[int, int, str, str, str]],
) -> list[str]:
    """The `-->` location and the source line with one marker line per (start column, end
    column or -1 for the end of the line, mark character, label, colour role)."""
    line_no = range_.start.line + 1
    width = len(str(line_no))
    pad = " " * width
    column = marks[0][0] + 1
    out = [f"{pad}{style.paint('-->', 'frame', bold=True)} {range_.path}:{line_no}:{column}"]
    text = line_text(range_.path, range_.start.line)
    if text is None:
        return out
    bar = style.paint("|", "frame", bold=True)
    shown = text.replace("\t", "    ")
    out.append(f"{pad} {bar}")
    out.append(f"{style.paint(str(line_no), 'frame', bold=True)} {bar} {shown}")
    for start, end, mark, label, role in marks:
        end = len(text) if end < 0 else end
        end = max(end, start + 1)
        tabs_before = text[:start].count("\t") * 3
        underline = " " * (start + tabs_before) + mark * (end - start)
        out.append(
            f"{pad} {bar} {style.paint(underline + (' ' + label if label else ''), role, bold=True)}"
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


def count_by_code(findings: list[Finding]) -> dict[str, int]:
    """Findings per code, most frequent first, then by code (`--statistics` in every format)."""
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def render_statistics(findings: list[Finding], slugs: dict[str, str]) -> str:
    """Counts per code, most frequent first (`--statistics`)."""
    rows = list(count_by_code(findings).items())
    width = max((len(str(n)) for _, n in rows), default=1)
    code_width = max((len(code) for code, _ in rows), default=5)
    return "\n".join(
        f"{n:>{width}}  {code:<{code_width}}  {slugs.get(code, code)}" for code, n in rows
    )
