"""The JSON report: a stable contract for tools (1-based lines, Unicode-character columns)."""

from __future__ import annotations

import json
from typing import Any

from burnlint import __version__
from burnlint.analysis.findings import Finding, Range
from burnlint.analysis.rules.suppress import Suppressed


def _point(range_: Range, which: str) -> dict[str, int]:
    position = range_.start if which == "start" else range_.end
    return {"line": position.line + 1, "column": position.character + 1}


def _located(range_: Range) -> dict[str, Any]:
    return {"path": range_.path, "start": _point(range_, "start"), "end": _point(range_, "end")}


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    """One finding in the JSON contract's shape."""
    return {
        "code": finding.code,
        "slug": finding.slug,
        "severity": finding.severity,
        "message": finding.message,
        **_located(finding.range),
        "panic": finding.panic,
        "era": finding.era,
        "related": [{**_located(r.range), "message": r.message} for r in finding.related],
        "fixes": [
            {
                "title": fix.title,
                "safety": fix.safety,
                "edits": [
                    {**_located(edit.range), "new_text": edit.new_text} for edit in fix.edits
                ],
            }
            for fix in finding.fixes
        ],
    }


def render_json(
    findings: list[Finding],
    files: int,
    errors: list[str],
    suppressed: list[Suppressed] | None = None,
    eras: list[tuple[str, str, int]] | None = None,
    statistics: dict[str, int] | None = None,
) -> str:
    """The whole report as a JSON document; `suppressed` lists the findings a suppression
    comment acknowledged, each with the comment (they count in no total); `eras` the burn API
    eras the files were analyzed in: (era, why, how many files); `statistics` (with
    `--statistics`) the findings per code."""
    document: dict[str, Any] = {
        "tool": {"name": "burnlint", "version": __version__},
        "findings": [finding_to_dict(f) for f in findings],
        "suppressed": [
            {
                **finding_to_dict(s.finding),
                "suppression": {"kind": s.kind, "comment": s.text, **_located(s.comment)},
            }
            for s in suppressed or []
        ],
        "summary": {
            "files": files,
            "findings": len(findings),
            "errors": sum(1 for f in findings if f.severity == "error"),
            "warnings": sum(1 for f in findings if f.severity == "warning"),
        },
        "problems": errors,
        "eras": [
            {"era": era, "era_reason": reason, "files": count} for era, reason, count in eras or []
        ],
    }
    if statistics is not None:
        document["statistics"] = statistics
    return json.dumps(document, indent=2, ensure_ascii=False)
