"""Every conversion from analyzer results to LSP types (`to_lsp_*`), and back from the
`Diagnostic.data` the server attached. Byte offsets become positions in the negotiated encoding
here, from the exact text that was analyzed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from lsprotocol import types

from burnlint.analysis.findings import Finding, Fix, Range
from burnlint.lsp.hover import HoverText
from burnlint.lsp.positions import Encoding, LineIndex
from burnlint.lsp.wire import converter

SOURCE = "burnlint"
BUDGET_STOP = "analysis stopped"
"""How the analyzer's note about running out of its time budget starts."""
_STOPPED_IN = re.compile(r"analysis stopped in `(?P<name>[^`]+)`")


_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """What shapes a diagnostic besides the finding: encoding, settings, client support."""

    encoding: Encoding
    severity: Mapping[str, str]
    docs_url: str | None
    related: bool
    code_description: bool
    lean_fixes: bool = False
    """Send a diagnostic's data without its fixes (the editor resolves code action edits;
    `actions.code_actions` takes the fixes from the server's own copy of the diagnostic): they
    were 60% of a publication's bytes."""


class Texts:
    """The files a crate report names, each with a line index built on first use."""

    def __init__(self, texts: Mapping[str, tuple[str, str]]) -> None:
        """`texts`: the path findings use for a file -> (its URI, the analyzed text)."""
        self._texts = texts
        self._indexes: dict[str, tuple[str, LineIndex]] = {}
        self._plain: dict[str, bool] = {}

    def locate(self, path: str) -> tuple[str, LineIndex] | None:
        """(URI, line index) of a file by the path findings use for it."""
        found = self._indexes.get(path)
        if found is None:
            entry = self._texts.get(path)
            if entry is None:
                return None
            found = (entry[0], LineIndex(entry[1]))
            self._indexes[path] = found
        return found

    def uri(self, path: str) -> str | None:
        """The URI of a file by the path findings use for it."""
        entry = self._texts.get(path)
        return entry[0] if entry is not None else None

    def plain(self, path: str) -> bool:
        """Whether the file is ASCII with no lone `\r`: the analyzer's lines and columns are
        then LSP's in every encoding."""
        found = self._plain.get(path)
        if found is None:
            entry = self._texts.get(path)
            text = entry[1] if entry is not None else ""
            found = self._plain[path] = text.isascii() and text.count("\r") == text.count("\r\n")
        return found


def to_lsp_position(index: LineIndex, byte_offset: int, encoding: Encoding) -> types.Position:
    """An LSP position for a UTF-8 byte offset."""
    line, character = index.position(byte_offset, encoding)
    return types.Position(line=line, character=character)


def to_lsp_range(index: LineIndex, start: int, end: int, encoding: Encoding) -> types.Range:
    """An LSP range for a UTF-8 byte span."""
    return types.Range(
        start=to_lsp_position(index, start, encoding), end=to_lsp_position(index, end, encoding)
    )


def to_lsp_hover(index: LineIndex, hover: HoverText, encoding: Encoding) -> types.Hover:
    """A Markdown hover over its byte span."""
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover.markdown),
        range=to_lsp_range(index, hover.start, hover.end, encoding),
    )


def to_lsp_location(texts: Texts, span: Range, encoding: Encoding) -> types.Location | None:
    """An LSP location for an analyzer range (None if its file is unknown)."""
    if texts.plain(span.path):
        uri = texts.uri(span.path)
        if uri is None:
            return None
        start, end = span.start, span.end
        return types.Location(
            uri=uri,
            range=types.Range(
                start=types.Position(line=start.line, character=start.character),
                end=types.Position(line=end.line, character=end.character),
            ),
        )
    found = texts.locate(span.path)
    if found is None:
        return None
    uri, index = found
    return types.Location(
        uri=uri, range=to_lsp_range(index, span.start_byte, span.end_byte, encoding)
    )


def to_lsp_severity(severity: str) -> types.DiagnosticSeverity:
    """The LSP severity of an analyzer severity name."""
    return _SEVERITY.get(severity, types.DiagnosticSeverity.Warning)


def to_lsp_text_edits(
    fix: Fix, texts: Texts, encoding: Encoding
) -> dict[str, list[types.TextEdit]] | None:
    """A fix's edits grouped by URI; None when one of them names an unknown file."""
    out: dict[str, list[types.TextEdit]] = {}
    for edit in fix.edits:
        location = to_lsp_location(texts, edit.range, encoding)
        if location is None:
            return None
        out.setdefault(location.uri, []).append(
            types.TextEdit(range=location.range, new_text=edit.new_text)
        )
    return out


def to_lsp_diagnostic(
    finding: Finding, texts: Texts, options: ConvertOptions, version: int | None
) -> types.Diagnostic:
    """The LSP diagnostic of a finding; `data` carries the fixes so code actions need no
    re-analysis."""
    located = to_lsp_location(texts, finding.range, options.encoding)
    if located is None:
        raise ValueError(f"finding in unknown file {finding.range.path}")
    related: list[types.DiagnosticRelatedInformation] | None = None
    if options.related and finding.related:
        related = []
        for item in finding.related:
            location = to_lsp_location(texts, item.range, options.encoding)
            if location is not None:
                related.append(types.DiagnosticRelatedInformation(location, item.message))
    description = None
    if options.code_description and options.docs_url:
        href = options.docs_url.replace("{code}", finding.code).replace("{slug}", finding.slug)
        description = types.CodeDescription(href=href)
    fixes: list[dict[str, Any]] = []
    for fix in finding.fixes:
        edits = to_lsp_text_edits(fix, texts, options.encoding)
        if edits is not None:
            fixes.append(
                {
                    "id": fix.id,
                    "title": fix.title,
                    "safety": fix.safety,
                    "edits": {uri: [_edit_json(e) for e in es] for uri, es in edits.items()},
                }
            )
    return types.Diagnostic(
        range=located.range,
        message=finding.message,
        severity=to_lsp_severity(options.severity.get(finding.code, finding.severity)),
        code=finding.code,
        code_description=description,
        source=SOURCE,
        related_information=related,
        data={"code": finding.code, "version": version, "fixes": fixes},
    )


def _edit_json(edit: types.TextEdit) -> dict[str, Any]:
    """A text edit as JSON (what lsprotocol's converter makes of it, without the converter)."""
    start, end = edit.range.start, edit.range.end
    return {
        "range": {
            "start": {"line": start.line, "character": start.character},
            "end": {"line": end.line, "character": end.character},
        },
        "newText": edit.new_text,
    }


@dataclass(frozen=True, slots=True)
class FixData:
    """A fix read back from `Diagnostic.data`."""

    id: str
    title: str
    safe: bool
    edits: dict[str, list[types.TextEdit]]


@dataclass(frozen=True, slots=True)
class DiagnosticData:
    """What the server stored in one of its diagnostics."""

    code: str
    version: int | None
    fixes: tuple[FixData, ...]


def structure_edits(items: object) -> list[types.TextEdit]:
    """Text edits from their JSON form (as a fix in a diagnostic's data carries them)."""
    return converter().structure(items, list[types.TextEdit])


def from_lsp_data(diagnostic: types.Diagnostic) -> DiagnosticData | None:
    """The data of a burnlint diagnostic sent back by the client; None for anything else."""
    raw: object = cast(object, diagnostic.data)
    if diagnostic.source != SOURCE or not isinstance(raw, Mapping):
        return None
    data = cast(Mapping[str, Any], raw)
    code = data.get("code")
    version = data.get("version")
    raw_fixes = data.get("fixes", [])
    if not isinstance(code, str) or not isinstance(raw_fixes, list):
        return None
    fixes: list[FixData] = []
    for raw in cast(list[Any], raw_fixes):
        try:
            fix = cast(Mapping[str, Any], raw)
            edits = {
                str(uri): structure_edits(items)
                for uri, items in cast(Mapping[str, Any], fix["edits"]).items()
            }
            fixes.append(FixData(str(fix["id"]), str(fix["title"]), fix["safety"] == "safe", edits))
        except Exception:
            # A client that altered the data gets no fix rather than a failed request.
            continue
    return DiagnosticData(code, version if isinstance(version, int) else None, tuple(fixes))


def note_diagnostics(notes: list[str], text: str, encoding: Encoding) -> list[types.Diagnostic]:
    """The analyzer's notes about a file as diagnostics, so an incomplete result is never
    silent: a budget stop is a warning on the name of the function where analysis stopped (line
    0 when that function is in another file); other notes (syntax errors) a hint at line 0,
    since the compiler's own diagnostics already mark the error while the user types."""
    found: list[types.Diagnostic] = []
    if not notes:
        return found
    index = LineIndex(text)
    for note in notes:
        start = types.Position(0, 0)
        span = types.Range(start, start)
        if note.startswith(BUDGET_STOP):
            severity = types.DiagnosticSeverity.Warning
            message = f"burnlint: {note} (raise `budget` in burnlint.toml)"
            stopped = _STOPPED_IN.match(note)
            if stopped is not None and "read for context" not in note:
                span = _function_name(index, text, stopped.group("name"), encoding) or span
        else:
            severity = types.DiagnosticSeverity.Hint
            message = f"burnlint: {note}"
        found.append(
            types.Diagnostic(range=span, message=message, severity=severity, source=SOURCE)
        )
    return found


def _function_name(
    index: LineIndex, text: str, name: str, encoding: Encoding
) -> types.Range | None:
    """The range of `name` in the first `fn name` of `text` (a method's name without its
    `Type::` qualifier, as the note may give it)."""
    bare = name.rsplit("::", 1)[-1]
    match = re.search(rf"\bfn\s+(?P<name>{re.escape(bare)})\b", text)
    if match is None:
        return None
    start = len(text[: match.start("name")].encode("utf-8"))
    return to_lsp_range(index, start, start + len(bare.encode("utf-8")), encoding)
