"""The SARIF 2.1.0 report: findings for code-scanning services (GitHub, Azure DevOps, IDE viewers).

Conventions (SARIF 2.1.0, OASIS errata01):
- Columns are Unicode code points (`run.columnKind = "unicodeCodePoints"`), 1-based, and
  `endColumn` is exclusive, which is exactly our 0-based `Position.character` plus one.
- Files under `root` get relative, percent-encoded URIs against the `%SRCROOT%` base id; other
  files get absolute `file:` URIs.
- `partialFingerprints["burnlint/v1"]` hashes the code, the relative path, the finding's source
  line(s) without whitespace and an occurrence index, never a line number, so a result keeps its
  identity when code above it moves.
- Every result carries `suppressions`: an empty array for a reported finding (burnlint looked for
  suppression comments and none applies, SARIF 2.1.0 section 3.27.23), one `inSource` suppression
  for a finding a `// burnlint: allow(..)` comment acknowledged (with the comment as the
  justification and its location), so viewers that honour suppressions hide it.
- Output is deterministic: rules sorted by id, results by path and position, no timestamps.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from burnlint import __version__
from burnlint.analysis.findings import Finding, Fix, Range
from burnlint.analysis.rules.suppress import UNUSED_CODE, Suppressed
from burnlint.kb.model import Entry

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://github.com/burnlint/burnlint"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "burnlint/v1"
HELP_SECTIONS = ("What it means", "How to fix", "Example", "Use instead", "Fix safety")

_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
# GitHub code scanning reads `problem.severity` from rule properties; it has no "note".
_PROBLEM_SEVERITY = {
    "error": "error",
    "warning": "warning",
    "info": "recommendation",
    "hint": "recommendation",
}
_FENCE = re.compile(r"^```\w*\s*$")


def render_sarif(
    findings: Sequence[Finding],
    suppressed: Sequence[Suppressed],
    entries: Sequence[Entry],
    *,
    root: Path,
    docs_url: str | None,
    problems: Sequence[str],
    texts: Mapping[str, str],
    statistics: Mapping[str, int] | None = None,
) -> str:
    """The findings (reported and suppressed) as a SARIF 2.1.0 log with one run.

    `root` is the `%SRCROOT%` base; finding paths are relative to the working directory or
    absolute; `docs_url` is a template with `{code}`/`{slug}` that becomes each rule's `helpUri`;
    `texts` maps a finding path to the file's text, for snippets and fingerprints;
    `statistics` (with `--statistics`) the findings per code, as the run's properties.
    """
    rules = sorted(entries, key=lambda entry: entry.id)
    descriptors = [_rule(entry, docs_url) for entry in rules]
    if any(f.code == UNUSED_CODE for f in findings):
        descriptors.append(_UNUSED_RULE)
    rule_index = {rule["id"]: index for index, rule in enumerate(descriptors)}
    where = _Locator(root, texts)
    items: list[tuple[Finding, Suppressed | None]] = [(f, None) for f in findings]
    items.extend((s.finding, s) for s in suppressed)
    items.sort(key=lambda item: (item[0].sort_key, item[1] is not None, item[0].message))
    seen: dict[tuple[str, str, str], int] = {}
    results: list[dict[str, Any]] = []
    for finding, suppression in items:
        key = where.fingerprint_key(finding)
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        results.append(_result(finding, suppression, rule_index, where, key, occurrence))
    invocation: dict[str, Any] = {"executionSuccessful": not problems}
    if problems:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": problem}} for problem in problems
        ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "burnlint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": descriptors,
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": where.root_uri}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if statistics is not None:
        run["properties"] = {"statistics": dict(statistics)}
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


_UNUSED_RULE: dict[str, Any] = {
    "id": UNUSED_CODE,
    "name": "UnusedSuppression",
    "shortDescription": {"text": "suppression comment that acknowledges no finding"},
    "fullDescription": {
        "text": "A `// burnlint: allow(..)` comment names a code that has no finding on the "
        "line it covers (reported with --report-unused-suppressions)."
    },
    "help": {
        "text": "Remove the code from the comment, or the comment when no code is left "
        "(`burnlint check --report-unused-suppressions --fix` does it).",
        "markdown": "Remove the code from the comment, or the comment when no code is left "
        "(`burnlint check --report-unused-suppressions --fix` does it).",
    },
    "defaultConfiguration": {"level": "warning"},
    "properties": {"tags": ["suppression"], "problem.severity": "warning"},
}


def rule_name(slug: str) -> str:
    """A slug as a SARIF rule name: `nested-autodiff-device` -> `NestedAutodiffDevice`."""
    return "".join(part[:1].upper() + part[1:] for part in slug.split("-") if part)


def help_uri(docs_url: str, entry: Entry) -> str:
    """The documentation template with the entry's code and slug filled in."""
    # Plain replacement, not str.format: a URL may contain other braces.
    return docs_url.replace("{code}", entry.id).replace("{slug}", entry.slug)


def _rule(entry: Entry, docs_url: str | None) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": entry.id,
        "name": rule_name(entry.slug),
        "shortDescription": {"text": entry.title},
        "fullDescription": {"text": entry.summary},
        "help": {"text": _help_text(entry), "markdown": _help_markdown(entry)},
        "defaultConfiguration": {"level": _LEVELS.get(entry.severity, "warning")},
        "properties": {
            "tags": [entry.category],
            "problem.severity": _PROBLEM_SEVERITY.get(entry.severity, "warning"),
        },
    }
    if docs_url:
        rule["helpUri"] = help_uri(docs_url, entry)
    return rule


def _help_markdown(entry: Entry) -> str:
    parts = [f"burn panics: `{entry.message}`"]
    parts.extend(
        f"## {heading}\n\n{entry.sections[heading].strip()}"
        for heading in HELP_SECTIONS
        if entry.sections.get(heading, "").strip()
    )
    return "\n\n".join(parts) + "\n"


def _help_text(entry: Entry) -> str:
    parts = [f"burn panics: {entry.message}"]
    for heading in HELP_SECTIONS:
        body = entry.sections.get(heading, "").strip()
        if not body:
            continue
        # Plain text has no fences: code blocks are indented instead, as `burnlint explain` does.
        lines: list[str] = []
        in_code = False
        for line in body.splitlines():
            if _FENCE.match(line):
                in_code = not in_code
                continue
            lines.append(f"    {line}" if in_code and line else line)
        parts.append(f"{heading}:\n" + "\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _result(
    finding: Finding,
    suppression: Suppressed | None,
    rule_index: Mapping[str, int],
    where: _Locator,
    key: tuple[str, str, str],
    occurrence: int,
) -> dict[str, Any]:
    primary = where.physical(finding.range, context=True)
    result: dict[str, Any] = {"ruleId": finding.code}
    if finding.code in rule_index:
        result["ruleIndex"] = rule_index[finding.code]
    result["level"] = _LEVELS.get(finding.severity, "warning")
    result["message"] = {"text": f"{finding.message}; burn panics: {finding.panic}"}
    result["locations"] = [{"physicalLocation": primary}]
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": where.physical(related.range),
                "message": {"text": related.message},
            }
            for number, related in enumerate(finding.related, start=1)
        ]
        # The provenance path: where the value came from, step by step, ending at the sink.
        steps = [
            {
                "location": {
                    "physicalLocation": where.physical(related.range),
                    "message": {"text": related.message},
                }
            }
            for related in finding.related
        ]
        steps.append(
            {"location": {"physicalLocation": primary, "message": {"text": finding.message}}}
        )
        result["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
    if finding.fixes:
        result["fixes"] = [_fix(fix, where) for fix in finding.fixes]
    digest = hashlib.sha256("\0".join((*key, str(occurrence))).encode("utf-8")).hexdigest()
    result["partialFingerprints"] = {FINGERPRINT_KEY: digest}
    result["suppressions"] = (
        []
        if suppression is None
        else [
            {
                "kind": "inSource",
                "justification": suppression.text,
                "location": {"physicalLocation": where.physical(suppression.comment)},
            }
        ]
    )
    return result


def _fix(fix: Fix, where: _Locator) -> dict[str, Any]:
    by_path: dict[str, list[dict[str, Any]]] = {}
    for edit in sorted(fix.edits, key=lambda e: (e.range.path, e.range.start_byte)):
        by_path.setdefault(edit.range.path, []).append(
            {
                "deletedRegion": _region(edit.range),
                "insertedContent": {"text": edit.new_text},
            }
        )
    paths = sorted(by_path, key=lambda path: where.artifact(path)["uri"])
    changes = [
        {"artifactLocation": where.artifact(path), "replacements": by_path[path]} for path in paths
    ]
    return {"description": {"text": f"{fix.title} ({fix.safety})"}, "artifactChanges": changes}


def _region(range_: Range) -> dict[str, Any]:
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }


@dataclass(frozen=True, slots=True)
class _Artifact:
    """Where a finding path lives for SARIF: its URI, and its path relative to root (if under)."""

    uri: str
    relative: str | None


class _Locator:
    """Turns finding paths and ranges into SARIF artifact locations, regions and snippets."""

    def __init__(self, root: Path, texts: Mapping[str, str]) -> None:
        self.root = _absolute(root)
        self.real_root = self.root.resolve()
        uri = self.root.as_uri()
        self.root_uri = uri if uri.endswith("/") else uri + "/"
        self.texts = texts
        self._artifacts: dict[str, _Artifact] = {}
        self._lines: dict[str, list[str] | None] = {}

    def _artifact(self, path: str) -> _Artifact:
        known = self._artifacts.get(path)
        if known is not None:
            return known
        absolute = _absolute(Path(path))
        relative: str | None = None
        # Lexical first (keeps symlinked paths as the user sees them), then with links resolved.
        for base, target in ((self.root, absolute), (self.real_root, absolute.resolve())):
            try:
                relative = target.relative_to(base).as_posix()
            except ValueError:
                continue
            break
        if relative is None:
            artifact = _Artifact(absolute.as_uri(), None)
        else:
            artifact = _Artifact(quote(relative, safe="/"), relative)
        self._artifacts[path] = artifact
        return artifact

    def artifact(self, path: str) -> dict[str, str]:
        """An artifactLocation: relative with `%SRCROOT%` when under root, else absolute."""
        artifact = self._artifact(path)
        if artifact.relative is None:
            return {"uri": artifact.uri}
        return {"uri": artifact.uri, "uriBaseId": SRCROOT}

    def lines(self, path: str) -> list[str] | None:
        """The file's lines as findings count them (only "\\n" ends a line), if its text is known."""
        if path not in self._lines:
            text = self.texts.get(path)
            self._lines[path] = None if text is None else text.split("\n")
        return self._lines[path]

    def physical(self, range_: Range, context: bool = False) -> dict[str, Any]:
        """A physicalLocation with the region's exact text as its snippet and, with `context`,
        a contextRegion holding the region's whole lines."""
        region = _region(range_)
        location: dict[str, Any] = {"artifactLocation": self.artifact(range_.path)}
        lines = self.lines(range_.path)
        first, last = range_.start.line, range_.end.line
        if lines is None or not 0 <= first <= last < len(lines):
            location["region"] = region
            return location
        if first == last:
            snippet = lines[first][range_.start.character : range_.end.character]
        else:
            middle = lines[first + 1 : last]
            snippet = "\n".join(
                [
                    lines[first][range_.start.character :],
                    *middle,
                    lines[last][: range_.end.character],
                ]
            )
        region["snippet"] = {"text": snippet}
        location["region"] = region
        if context:
            location["contextRegion"] = {
                "startLine": first + 1,
                "endLine": last + 1,
                "snippet": {"text": "\n".join(lines[first : last + 1])},
            }
        return location

    def fingerprint_key(self, finding: Finding) -> tuple[str, str, str]:
        """What identifies a finding across runs: code, relative path and whitespace-free source
        line(s); the caller adds an occurrence index for findings that share all three."""
        artifact = self._artifact(finding.range.path)
        path = artifact.relative if artifact.relative is not None else artifact.uri
        lines = self.lines(finding.range.path)
        first, last = finding.range.start.line, finding.range.end.line
        if lines is not None and 0 <= first <= last < len(lines):
            text = "".join("".join(lines[first : last + 1]).split())
        else:
            # Without the file's text the message is the most stable description left.
            text = finding.message
        return finding.code, path, text


def _absolute(path: Path) -> Path:
    """`path` made absolute against the working directory, `..` folded, links kept."""
    return Path(os.path.normpath(Path.cwd() / path))
