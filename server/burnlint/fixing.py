"""`burnlint check --fix` and `--diff`: apply fixes in memory until none applies, then write
each changed file atomically, keeping its BOM, newline style and permissions, and never over a
file that changed since it was read."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from burnlint.analysis.findings import Finding, Fix
from burnlint.analysis.rules.edits import apply_fixes, choose_fixes
from burnlint.atomic import ChangedOnDisk, write_atomic
from burnlint.checking import CheckRun, Request

MAX_ROUNDS = 8
"""Each round re-analyzes the fixed text; fixes that keep producing new fixes stop here."""

_BOM = b"\xef\xbb\xbf"


@dataclass(slots=True)
class Changed:
    """One file the fixes changed: where it is, the bytes read at first, and its new text."""

    shown: str
    path: Path
    original: bytes
    text: str

    def encoded(self) -> bytes:
        """The new content as bytes, with the BOM the file had."""
        bom = _BOM if self.original.startswith(_BOM) else b""
        return bom + self.text.encode("utf-8")

    def diff(self) -> str:
        """A unified diff from the file on disk to the fixed text."""
        before = self.original.removeprefix(_BOM).decode("utf-8").splitlines(keepends=True)
        after = self.text.splitlines(keepends=True)
        lines = difflib.unified_diff(before, after, f"a/{self.shown}", f"b/{self.shown}")
        # A last line without a newline would glue the next hunk header onto it.
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(slots=True)
class FixOutcome:
    """What fixing did: the final check (what remains), files changed, fixes applied."""

    run: CheckRun
    changed: list[Changed] = field(default_factory=list[Changed])
    applied: int = 0
    problems: list[str] = field(default_factory=list[str])
    notes: list[str] = field(default_factory=list[str])
    """Worth telling, not errors (fixes that undo each other)."""


Checker = Callable[[Request], CheckRun]
"""Runs one check (the CLI adds unused-suppression findings on top of the analyzer's)."""


def fix_in_memory(checker: Checker, request: Request, unsafe: bool) -> FixOutcome:
    """Check, apply the chosen fixes to the texts, and check again until nothing applies."""
    overlay: dict[Path, str] = dict(request.overlay)
    originals: dict[Path, tuple[str, bytes]] = {}
    # Every text each file has had, in order, with the fixes applied to reach it: fixes that
    # lead back to one of them undo each other (an unsafe fix for one finding can create another
    # whose fix reverts it), so stop there and keep that text.
    trail: dict[Path, list[tuple[str, int, tuple[str, ...]]]] = {}
    settled: set[Path] = set()
    problems: list[str] = []
    notes: list[str] = []
    run = checker(request)
    for _ in range(MAX_ROUNDS):
        progress = 0
        by_file: dict[str, list[Finding]] = {}
        for result in run.results:
            by_file.setdefault(result.path, []).extend(result.findings)
        for shown, findings in sorted(by_file.items()):
            fixes = [f for f in choose_fixes(findings, safe_only=not unsafe) if _local(f, shown)]
            path = run.paths.get(shown)
            if not fixes or path is None or path in settled:
                continue
            text = run.texts[shown]
            if path not in originals:
                original = _original(path, text)
                if original is None:
                    problems.append(f"{shown}: changed on disk during the check; not fixed")
                    continue
                originals[path] = (shown, original)
            crlf = "\r\n" in text
            new_text, count = apply_fixes(text, [_with_newlines(f, crlf) for f in fixes])
            if new_text == text:
                continue
            steps = trail.setdefault(path, [(text, 0, ())])
            earlier = next((i for i, (seen, _, _) in enumerate(steps) if seen == new_text), None)
            if earlier is not None:
                # Settle on the text that recurs: fixing it again would lead back to it, so a
                # second `--fix` run leaves the file as this one does.
                settled.add(path)
                kept = steps[earlier][1]
                circle = [fix_id for _, _, ids in steps[earlier + 1 :] for fix_id in ids]
                circle.extend(f.id for f in fixes)
                del steps[earlier + 1 :]
                if overlay.get(path, text) != new_text:
                    overlay[path] = new_text
                    progress += 1
                notes.append(
                    f"{shown}: fixes undo each other here ({', '.join(dict.fromkeys(circle))} "
                    f"go round in a circle: one creates a finding whose fix reverts it); "
                    + (
                        f"kept the {kept} fix{'es' if kept != 1 else ''} made before the circle "
                        "and stopped fixing this file"
                        if kept
                        else "left this file as it was"
                    )
                )
                continue
            if count:
                steps.append((new_text, steps[-1][1] + count, tuple(f.id for f in fixes)))
                overlay[path] = new_text
                progress += count
        if not progress:
            break
        run = checker(replace(request, overlay=overlay))
    else:
        problems.append(f"fixes kept changing the code after {MAX_ROUNDS} rounds; stopped")
    changed = [
        Changed(shown, path, original, overlay[path])
        for path, (shown, original) in sorted(originals.items(), key=lambda item: item[1][0])
        if path in overlay and overlay[path] != original.removeprefix(_BOM).decode("utf-8")
    ]
    # Fixes in the texts kept, not fixes tried: a circle's fixes are undone.
    applied = sum(steps[-1][1] for steps in trail.values())
    return FixOutcome(run, changed, applied, problems, notes)


def write_changes(outcome: FixOutcome) -> None:
    """Write every changed file; a file edited meanwhile is left alone and reported."""
    for change in outcome.changed:
        try:
            write_atomic(change.path, change.encoded(), expected=change.original)
        except ChangedOnDisk:
            outcome.problems.append(
                f"{change.shown}: changed on disk since it was read; fixes not written"
            )
        except OSError as error:
            outcome.problems.append(f"{change.shown}: cannot write: {error.strerror or error}")


def _local(fix: Fix, shown: str) -> bool:
    """Whether every edit is in the finding's own file (edits elsewhere wait for that file)."""
    return all(edit.range.path == shown for edit in fix.edits)


def _with_newlines(fix: Fix, crlf: bool) -> Fix:
    """Inserted text in the file's own newline style."""
    if not crlf or not any("\n" in e.new_text for e in fix.edits):
        return fix
    edits = tuple(
        replace(e, new_text=e.new_text.replace("\r\n", "\n").replace("\n", "\r\n"))
        for e in fix.edits
    )
    return replace(fix, edits=edits)


def _original(path: Path, text: str) -> bytes | None:
    """The file's bytes, if they still hold the text the check analyzed."""
    try:
        data = path.read_bytes()
        if data.removeprefix(_BOM).decode("utf-8") == text:
            return data
    except (OSError, UnicodeDecodeError):
        pass
    return None
