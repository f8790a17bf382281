"""What must hold for any text the analyzer is handed, as checks the fuzz tests share: ranges
inside the file on character boundaries agreeing with their positions, non-overlapping edits,
fixes that do not break the syntax, and fixing that settles (as `burnlint.fixing` does it)."""

from __future__ import annotations

import bisect
import itertools
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.findings import FileResult, Fix, Range
from burnlint.analysis.rules.edits import apply_fixes, choose_fixes
from burnlint.analysis.syntax.source import SourceFile, parse_bytes
from burnlint.fixing import MAX_ROUNDS
from burnlint.kb.load import load_kb

ANALYZER = Analyzer(load_kb())
BUDGET = 2.0
"""The per-file analysis budget the fuzz tests run with (seconds)."""
SLACK = 4.0
"""What a file may take beyond the budget: parsing, item collection and reporting are not
budgeted, and CI machines are slow and shared."""
PATH = "fuzz.rs"

CASES: Counter[str] = Counter()
"""Cases tried, by test (printed in the terminal summary)."""
EXERCISED: Counter[str] = Counter()
"""Of those, how many exercised something: findings reported, fixes applied."""


@dataclass(frozen=True, slots=True)
class Analyzed:
    source: SourceFile
    result: FileResult
    seconds: float


def analyze(text: str, budget: float = BUDGET) -> Analyzed:
    """Analyze `text` as one file and time it."""
    start = time.monotonic()
    source = SourceFile(PATH, text)
    result = ANALYZER.analyze(source, Options(budget_seconds=budget))
    return Analyzed(source, result, time.monotonic() - start)


def ranges(result: FileResult) -> Iterator[tuple[str, Range]]:
    """Every range a result carries, with what it is."""
    findings = [*result.findings, *(s.finding for s in result.suppressed)]
    for finding in findings:
        yield f"{finding.code} range", finding.range
        for related in finding.related:
            yield f"{finding.code} related {related.message!r}", related.range
        for fix in finding.fixes:
            for edit in fix.edits:
                yield f"{finding.code} fix {fix.id} edit", edit.range
    for suppressed in result.suppressed:
        yield "suppression comment", suppressed.comment
    for unused in result.unused:
        yield "unused suppression comment", unused.comment


class _Lines:
    """An independent oracle for positions: (line, Unicode-scalar column) of a byte offset,
    lines split at `\\n` as the analyzer's positions are."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.breaks = [m.start() for m in re.finditer(b"\n", data)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_left(self.breaks, offset)
        start = self.breaks[line - 1] + 1 if line else 0
        return line, len(self.data[start:offset].decode("utf-8"))


def _on_boundary(data: bytes, offset: int) -> bool:
    return offset == len(data) or (data[offset] & 0xC0) != 0x80


def check_ranges(analyzed: Analyzed) -> None:
    """Every range lies inside the file, start <= end, on UTF-8 character boundaries, and its
    (line, character) positions agree with its byte offsets."""
    data = analyzed.source.data
    lines = _Lines(data)
    for what, where in ranges(analyzed.result):
        assert where.path == PATH, (what, where)
        assert 0 <= where.start_byte <= where.end_byte <= len(data), (what, where, len(data))
        for offset, position in ((where.start_byte, where.start), (where.end_byte, where.end)):
            assert _on_boundary(data, offset), (what, where, data[offset - 3 : offset + 3])
            expected = lines.position(offset)
            assert (position.line, position.character) == expected, (what, where, expected)


def check_edits_disjoint(fixes: list[Fix], size: int) -> None:
    """Within each fix, edits neither overlap nor insert twice at one place (their order would
    be ambiguous); the edits `apply_fixes` accepts from the chosen set are disjoint too."""
    taken: list[tuple[int, int]] = []
    for fix in fixes:
        spans = sorted((e.range.start_byte, e.range.end_byte) for e in fix.edits)
        for (s1, e1), (s2, e2) in itertools.pairwise(spans):
            assert e1 <= s2, (fix.id, spans)
            assert not (s1 == e1 == s2 == e2), (fix.id, "two insertions at one offset", spans)
        assert all(0 <= s <= e <= size for s, e in spans), (fix.id, spans, size)
        if any(s < end and start < e for s, e in spans for start, end in taken):
            continue  # apply_fixes skips this fix whole
        taken.extend(spans)


def syntax_errors(tree: tree_sitter.Tree) -> int:
    """How many ERROR and MISSING nodes a tree has (iteratively: trees can be very deep)."""
    count = 0
    cursor = tree.walk()
    while True:
        node = cursor.node
        assert node is not None
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count


def fix_once(text: str, unsafe: bool = True, analyzed: Analyzed | None = None) -> tuple[str, int]:
    """One round of `burnlint check --fix`: analyze (unless `analyzed` is the analysis of
    `text`), choose one fix per finding, apply them (inserted newlines in the file's own style)."""
    analyzed = analyzed or analyze(text)
    fixes = choose_fixes(analyzed.result.findings, safe_only=not unsafe)
    crlf = "\r\n" in analyzed.source.text
    if crlf:
        fixes = [_crlf(f) for f in fixes]
    return apply_fixes(analyzed.source.text, fixes)


def _crlf(fix: Fix) -> Fix:
    from dataclasses import replace

    edits = tuple(
        replace(e, new_text=e.new_text.replace("\r\n", "\n").replace("\n", "\r\n"))
        for e in fix.edits
    )
    return replace(fix, edits=edits)


@dataclass(frozen=True, slots=True)
class Fixpoint:
    text: str
    rounds: int
    converged: bool
    """False when fixes kept changing the text for MAX_ROUNDS rounds."""


def fix_to_fixpoint(text: str, unsafe: bool = True, analyzed: Analyzed | None = None) -> Fixpoint:
    """Fix until nothing applies, settling on the text that recurs when fixes undo each other
    (as `burnlint.fixing.fix_in_memory` does)."""
    current = SourceFile(PATH, text).text  # the analyzer's reading (lone surrogates replaced)
    seen = {current}
    for round_ in range(1, MAX_ROUNDS + 1):
        new_text, applied = fix_once(current, unsafe, analyzed if round_ == 1 else None)
        if new_text == current or not applied:
            return Fixpoint(current, round_, True)
        if new_text in seen:
            return Fixpoint(new_text, round_, True)
        seen.add(new_text)
        current = new_text
    return Fixpoint(current, MAX_ROUNDS, False)


def parse_errors(text: str) -> int:
    """ERROR and MISSING nodes in a fresh parse of `text`."""
    return syntax_errors(parse_bytes(SourceFile(PATH, text).data))
