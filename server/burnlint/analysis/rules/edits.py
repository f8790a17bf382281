"""Apply text edits to a file's text without ever producing overlapping or partial results."""

from __future__ import annotations

from burnlint.analysis.findings import Edit, Finding, Fix


def choose_fixes(findings: list[Finding], choice: str = "", safe_only: bool = False) -> list[Fix]:
    """One fix per finding: the one named `choice` if offered, else the first (preferred) one."""
    chosen: list[Fix] = []
    for finding in findings:
        candidates = [f for f in finding.fixes if not safe_only or f.safety == "safe"]
        named = [f for f in candidates if f.id == choice] if choice else []
        pick = named[0] if named else (candidates[0] if candidates else None)
        if pick is not None:
            chosen.append(pick)
    return chosen


def apply_fixes(text: str, fixes: list[Fix]) -> tuple[str, int]:
    """Apply non-overlapping fixes in order; a fix overlapping an earlier one is skipped whole.

    Returns the new text and how many fixes were applied.
    """
    data = text.encode("utf-8")
    taken: list[tuple[int, int]] = []
    accepted: list[Edit] = []
    applied = 0
    for fix in fixes:
        spans = [(e.range.start_byte, e.range.end_byte) for e in fix.edits]
        if any(s < end and start < e for s, e in spans for start, end in taken):
            continue
        if any(s < 0 or e > len(data) or s > e for s, e in spans):
            continue
        taken.extend(spans)
        accepted.extend(fix.edits)
        applied += 1
    for edit in sorted(accepted, key=lambda e: e.range.start_byte, reverse=True):
        data = (
            data[: edit.range.start_byte]
            + edit.new_text.encode("utf-8")
            + data[edit.range.end_byte :]
        )
    return data.decode("utf-8"), applied
