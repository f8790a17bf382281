"""`burnlint explain`: a code, a slug, a pasted panic message, or a whole log of panics.

With a log (`--log FILE`, `--log -` for standard input, or pasted text holding `panicked at`)
every distinct panic is explained once: the panic (message, location, count, tests), the burn era
its location implies, the knowledge-base entry that explains it, and, when the user's frame is in
the workspace, what burnlint's static analysis finds on or near that line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tree_sitter

from burnlint.analysis.findings import Finding, Related
from burnlint.analysis.syntax.source import SourceFile
from burnlint.analyzing import LazyAnalyzer
from burnlint.checking import Request, check
from burnlint.config import Overrides
from burnlint.kb.load import by_code
from burnlint.kb.match import EXACT, PLACEHOLDER, Match, closest, find_matches
from burnlint.kb.model import Entry
from burnlint.panic_log import Frame, PanicGroup, analyze, has_panic, parse_panics, user_path
from burnlint.report.explain import render_entry
from burnlint.report.json_report import finding_to_dict

if TYPE_CHECKING:
    from burnlint.analysis.engine import Analyzer

# The analysis engine is built only when a user frame is checked.

EXIT_EXPLAINED, EXIT_UNMATCHED, EXIT_ERROR = 0, 1, 2
NEAR = 3
"""Findings within this many lines of the user's frame count as "near" it (besides any finding
in the same function)."""
MAX_FRAMES = 3
"""Distinct user frames of one panic that get a static analysis."""


@dataclass(frozen=True, slots=True)
class Nearby:
    """A static finding near a user frame; `explains` when its code is an entry that matches
    the panic."""

    finding: Finding
    explains: bool
    suppressed: bool = False


@dataclass(slots=True)
class FrameCheck:
    """The static analysis of one user frame: the file on disk (None when it is not in the
    workspace), the workspace root, and the findings near the frame's line."""

    frame: Frame
    path: Path | None
    shown: str = ""
    findings: list[Nearby] = field(default_factory=list[Nearby])
    problems: list[str] = field(default_factory=list[str])
    root: Path | None = None

    def where(self, finding: Finding) -> str:
        """`path:line:column` of a finding (1-based), the path relative to the workspace."""
        start = finding.range.start
        return f"{self.relative(finding.range.path)}:{start.line + 1}:{start.character + 1}"

    def relative(self, path: str) -> str:
        """A finding's path relative to the workspace root when it is below it."""
        if self.root is None or not Path(path).is_absolute():
            return path
        return _shown(Path(path), self.root)

    @property
    def explaining(self) -> list[Nearby]:
        """The findings that explain the panic."""
        return [n for n in self.findings if n.explains]


@dataclass(slots=True)
class Explained:
    """One distinct panic with its static analysis."""

    group: PanicGroup
    checks: list[FrameCheck] = field(default_factory=list[FrameCheck])

    @property
    def matched(self) -> bool:
        """Whether a knowledge-base entry explains the panic."""
        return bool(self.group.matches)


def run_explain(args: argparse.Namespace, entries: tuple[Entry, ...]) -> int:
    """Run `burnlint explain`; 0 when everything was explained, 1 when a panic of a log matched
    no entry, 2 on errors (no query, unreadable log, a query nothing matches)."""
    query = " ".join(args.query).strip()
    fmt: str = args.format
    if args.log is not None and query:
        return _error("give either QUERY or --log FILE, not both")
    if args.log is not None:
        try:
            text = _read_log(args.log)
        except OSError as error:
            return _error(f"cannot read {args.log}: {error.strerror or error}")
        return _explain_text(entries, text, fmt)
    if not query:
        return _error("nothing to explain: give a code, a slug, panic text, or --log FILE")
    if has_panic(query) and parse_panics(query):
        return _explain_text(entries, query, fmt)
    return _explain_query(entries, query, fmt)


def _error(message: str) -> int:
    print(f"burnlint: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _read_log(name: str) -> str:
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    # Logs mix encodings (a test may print anything): never fail on a stray byte.
    return data.decode("utf-8", errors="replace")


def _bold() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _explain_query(entries: tuple[Entry, ...], query: str, fmt: str) -> int:
    index = by_code(entries)
    entry = index.get(query.upper()) or index.get(query.lower())
    matches = [] if entry is not None else find_matches(entries, query)
    if entry is None and not matches:
        print(f"burnlint: no knowledge-base entry matches: {query}", file=sys.stderr)
        print("closest entries:", file=sys.stderr)
        for near, similarity in closest(entries, query):
            print(f"  {near.id} {near.slug} ({similarity}% similar)", file=sys.stderr)
        return EXIT_ERROR
    if fmt == "json":
        found = (
            [_entry_json(entry, None)] if entry is not None else [_match_json(m) for m in matches]
        )
        print(json.dumps({"query": query, "entries": found}, indent=2))
        return EXIT_EXPLAINED
    if entry is None:
        best = matches[0]
        if len(matches) > 1 and matches[1].score == best.score:
            print("several entries match; best first:")
            for match in matches:
                print(f"  {match.entry.id} {match.entry.slug}: {match.message} [{match.era}]")
            print()
        entry = best.entry
    sys.stdout.write(render_entry(entry, _bold()))
    return EXIT_EXPLAINED


def _explain_text(entries: tuple[Entry, ...], text: str, fmt: str) -> int:
    explained = explain_log(entries, text, Path.cwd())
    if fmt == "json":
        print(json.dumps(log_json(explained), indent=2))
    else:
        sys.stdout.write(render_log(explained, _bold()))
    return EXIT_UNMATCHED if any(not e.matched for e in explained) else EXIT_EXPLAINED


def explain_log(
    entries: tuple[Entry, ...],
    text: str,
    root: Path | None,
    analyzer: Analyzer | LazyAnalyzer | None = None,
) -> list[Explained]:
    """Every distinct panic of `text`, with the static analysis of its user frames that are
    files under the workspace `root` (no static analysis without a root)."""
    groups = analyze(entries, text, root)
    checked: dict[
        tuple[Path, str | None], tuple[list[Finding], list[Finding], list[str], SourceFile | None]
    ] = {}
    out: list[Explained] = []
    for group in groups:
        item = Explained(group)
        for frame in group.user_frames[:MAX_FRAMES]:
            assert frame.location is not None
            path = user_path(frame.location.path, root) if root is not None else None
            if root is None or path is None:
                item.checks.append(FrameCheck(frame, None))
                continue
            if analyzer is None:
                analyzer = LazyAnalyzer(entries)
            key = (path.resolve(), group.era)
            if key not in checked:
                checked[key] = _check_file(analyzer, path, root, group.era)
            findings, suppressed, problems, source = checked[key]
            shown = _shown(path, root)
            check_ = FrameCheck(frame, path, shown, problems=list(problems), root=root)
            check_.findings = _near(group, frame, findings, suppressed, source)
            item.checks.append(check_)
        out.append(item)
    return out


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _check_file(
    analyzer: Analyzer | LazyAnalyzer, path: Path, root: Path, era: str | None
) -> tuple[list[Finding], list[Finding], list[str], SourceFile | None]:
    # Shown relative to the workspace when it is the current folder, so findings read like
    # `burnlint check` output.
    target = _shown(path, root) if root.resolve() == Path.cwd().resolve() else str(path)
    # The burn that panicked decides the era better than the crate's manifest or a guess.
    run = check(analyzer, Request((target,), Overrides(era=era)))
    findings = [f for r in run.results for f in r.findings]
    suppressed = [s.finding for r in run.results for s in r.suppressed]
    try:
        source = SourceFile(str(path), path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        source = None
    return findings, suppressed, run.problems, source


def _function_lines(source: SourceFile | None, line: int) -> tuple[int, int] | None:
    """The 0-based first and last line of the innermost function around 0-based `line`."""
    if source is None or not 0 <= line < source.line_count:
        return None
    text = source.line_text(line)
    column = len(text.encode("utf-8")) - len(text.lstrip().encode("utf-8"))
    node: tree_sitter.Node | None = source.tree.root_node.descendant_for_point_range(
        (line, column), (line, column)
    )
    while node is not None and node.type != "function_item":
        node = node.parent
    if node is None:
        return None
    return node.start_point.row, node.end_point.row


def _near(
    group: PanicGroup,
    frame: Frame,
    findings: list[Finding],
    suppressed: list[Finding],
    source: SourceFile | None,
) -> list[Nearby]:
    assert frame.location is not None
    line = frame.location.line - 1
    function = _function_lines(source, line)
    explaining = [m for m in group.matches if m.kind in (EXACT, PLACEHOLDER)] + group.best
    # A runtime entry names the static rules that report its causes (`detected_by`).
    codes = {code for m in explaining for code in (m.entry.id, *m.entry.detected_by)}
    out: list[Nearby] = []
    for finding, hidden in [(f, False) for f in findings] + [(f, True) for f in suppressed]:
        start, end = finding.range.start.line, finding.range.end.line
        close = start - NEAR <= line <= end + NEAR
        inside = function is not None and function[0] <= start <= function[1]
        if close or inside:
            out.append(Nearby(finding, finding.code in codes, hidden))
    # Explaining findings first, then the closest to the frame's line.
    out.sort(key=lambda n: (not n.explains, abs(n.finding.range.start.line - line)))
    return out


def _related(check_: FrameCheck, finding: Finding, related: Related) -> str:
    """`line 14: message`, with the file when it is another one."""
    line = related.range.start.line + 1
    if related.range.path != finding.range.path:
        return f"{check_.relative(related.range.path)}:{line}: {related.message}"
    return f"line {line}: {related.message}"


def _frame_text(frame: Frame) -> str:
    assert frame.location is not None
    function = f" in {frame.function}" if frame.function else ""
    return f"{frame.location}{function}"


def _entries_line(matches: list[Match]) -> str:
    return ", ".join(f"{m.entry.id} {m.entry.slug} [{m.era or 'any'}]" for m in matches)


def render_log(explained: list[Explained], bold: bool = False) -> str:
    """The terminal report of a log: each distinct panic, then the entries that explain them
    (each rendered in full once; a later panic with the same entry refers back to it)."""

    def strong(text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if bold else text

    if not explained:
        return "burnlint: no panic found (no `thread '…' panicked at` line)\n"
    total = sum(e.group.count for e in explained)
    out = [
        f"burnlint: {total} panic{'s' if total != 1 else ''}, {len(explained)} distinct",
        "",
    ]
    shown: set[str] = set()
    for number, item in enumerate(explained, 1):
        group = item.group
        panic = group.panic
        times = f"{group.count} time{'s' if group.count != 1 else ''}"
        tests = f" in test{'s' if len(group.tests) != 1 else ''} {', '.join(group.tests)}"
        out.append(
            strong(f"panic {number} of {len(explained)}: {times}{tests if group.tests else ''}")
        )
        message = panic.message.split("\n") or [""]
        out.append(f"  message:   {message[0]}")
        out.extend(f"             {line}" for line in message[1:])
        if panic.location is not None:
            out.append(f"  location:  {panic.location}")
        if group.burn is not None:
            out.append(f"  burn:      {group.burn.describe()}")
        out.append(f"  era:       {group.era or 'unknown'} ({group.era_reason})")
        if not item.checks:
            hint = " (run with RUST_BACKTRACE=1 to see where your code called burn)"
            out.append(f"  your code: no frame in your code{hint if not panic.frames else ''}")
        for check_ in item.checks:
            out.append(f"  your code: {_frame_text(check_.frame)}")
            out.extend(_check_lines(check_))
        best = group.best
        if not best:
            out.append("  explained by: no knowledge-base entry matches this panic")
        else:
            how = best[0].kind
            out.append(f"  explained by: {_entries_line(best)} ({how} match)")
            for match in best:
                for versions in match.entry.versions_of(match.message):
                    out.append(f"  burn versions ({match.entry.id}): {versions}")
            if len(best) > 1:
                out.append("  several entries match equally well; each is shown below")
            others = [m for m in group.matches if m not in best][:5]
            if others:
                out.append(f"  other candidates: {_entries_line(others)}")
        out.append("")
        for match in best:
            entry = match.entry
            if entry.id in shown:
                out.append(f"{entry.id} {entry.slug}: {entry.title} (explained above)")
                out.append("")
                continue
            shown.add(entry.id)
            out.append(render_entry(entry, bold).rstrip("\n"))
            out.append("")
    explained_count = sum(1 for e in explained if e.matched)
    missing = len(explained) - explained_count
    out.append(
        f"burnlint: {len(explained)} distinct panic{'s' if len(explained) != 1 else ''}: "
        f"{explained_count} explained, {missing} not in the knowledge base"
    )
    return "\n".join(out) + "\n"


def _check_lines(check_: FrameCheck) -> list[str]:
    if check_.path is None:
        assert check_.frame.location is not None
        return [
            f"  static analysis: {check_.frame.location.path} is not a file under this folder "
            "(run `burnlint explain` from the crate's folder to check it)"
        ]
    out = [f"  static analysis: {problem}" for problem in check_.problems]
    explaining = check_.explaining
    for near in explaining:
        finding = near.finding
        note = " (suppressed by a burnlint comment)" if near.suppressed else ""
        out.append(
            f"  static analysis found {finding.code} at {check_.where(finding)}{note} "
            "which explains this panic:"
        )
        out.append(f"      {finding.message}")
        out.extend(f"      {_related(check_, finding, r)}" for r in finding.related)
    if not explaining:
        out.append(
            f"  no static finding matches in {check_.shown} near line {check_.frame.location.line}; "
            "this panic is runtime-only"
            if check_.frame.location is not None
            else "  no static finding matches; this panic is runtime-only"
        )
    for near in check_.findings:
        if not near.explains:
            finding = near.finding
            out.append(
                f"  nearby finding: {finding.code} at {check_.where(finding)}: {finding.message}"
            )
    return out


def _entry_json(entry: Entry, match: Match | None) -> dict[str, Any]:
    return {
        "id": entry.id,
        "slug": entry.slug,
        "title": entry.title,
        "score": match.score if match is not None else None,
        "kind": match.kind if match is not None else "code",
        "message": match.message if match is not None else entry.message,
        "era": match.era if match is not None else None,
        "versions": list(entry.versions_of(match.message if match is not None else entry.message)),
    }


def _match_json(match: Match) -> dict[str, Any]:
    return _entry_json(match.entry, match)


def _frame_json(frame: Frame | None) -> dict[str, Any] | None:
    if frame is None or frame.location is None:
        return None
    location = frame.location
    return {
        "function": frame.function,
        "path": location.path,
        "line": location.line,
        "column": location.column,
    }


def log_json(explained: list[Explained]) -> dict[str, Any]:
    """The JSON document of a log: {"panics": [...], "unmatched": n}."""
    panics: list[dict[str, Any]] = []
    for item in explained:
        group = item.group
        panic = group.panic
        location = panic.location
        findings: list[dict[str, Any]] = []
        for check_ in item.checks:
            findings.extend(
                {**finding_to_dict(n.finding), "explains": n.explains, "suppressed": n.suppressed}
                for n in check_.findings
            )
        panics.append(
            {
                "message": panic.message,
                "location": (
                    {"path": location.path, "line": location.line, "column": location.column}
                    if location is not None
                    else None
                ),
                "count": group.count,
                "tests": group.tests,
                "threads": group.threads,
                "burn": group.burn.describe() if group.burn is not None else None,
                "era": group.era,
                "era_reason": group.era_reason,
                "entries": [_match_json(m) for m in group.matches],
                "user_frame": _frame_json(group.user_frame),
                "user_frames": [_frame_json(f) for f in group.user_frames],
                "in_workspace": any(c.path is not None for c in item.checks),
                "findings": findings,
            }
        )
    return {"panics": panics, "unmatched": sum(1 for e in explained if not e.matched)}


def pick_root(text: str, roots: Sequence[Path]) -> Path | None:
    """Of several workspace folders, the one holding the most user frames of the log."""
    if not roots:
        return None
    frames = [
        frame.location.path
        for panic in parse_panics(text)
        for frame in (*panic.frames, Frame(0, "", panic.location))
        if frame.location is not None
    ]
    return max(roots, key=lambda root: sum(user_path(path, root) is not None for path in frames))
