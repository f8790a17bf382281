"""What to show when hovering: a finding under the cursor, a code in a
`// burnlint: allow(...)` comment, or a string literal holding a burn panic message."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from burnlint.analysis.findings import Finding
from burnlint.analysis.syntax.source import SourceFile
from burnlint.eras import era_from_text
from burnlint.kb.match import find_matches
from burnlint.kb.model import Entry
from burnlint.lsp.documents import OpenDocument
from burnlint.lsp.markdown import entry_markdown, finding_markdown

if TYPE_CHECKING:
    from burnlint.analysis.semantics.api import ApiModel

_ALLOW = re.compile(r"//\s*burnlint:\s*(?:allow-file|allow)\((?P<codes>[^)]*)\)")
_CODE = re.compile(r"[A-Za-z]+\d+")
_STRINGS = ("string_literal", "raw_string_literal")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


@dataclass(frozen=True, slots=True)
class HoverText:
    """Markdown for a hover and the UTF-8 byte span it describes."""

    markdown: str
    start: int
    end: int


def hover_at(
    doc: OpenDocument,
    offset: int,
    findings: Sequence[Finding],
    entries: tuple[Entry, ...],
    api: ApiModel | None = None,
) -> HoverText | None:
    """The hover at UTF-8 byte `offset` of `doc`, or None when there is nothing to explain."""
    by_code = {entry.id: entry for entry in entries}
    return (
        _finding_hover(offset, findings, by_code)
        or _comment_hover(doc, offset, by_code)
        or _literal_hover(doc, offset, entries)
        or (_api_hover(doc, offset, api) if api is not None else None)
    )


def _api_hover(doc: OpenDocument, offset: int, api: ApiModel) -> HoverText | None:
    """A burn API name the knowledge base documents: `DispatchAutodiffContext::Disabled`,
    `DispatchTensorKind::Autodiff`, sanitizers such as `without_autodiff`, `detach`..."""
    source = doc.parsed
    node: tree_sitter.Node | None = source.tree.root_node.descendant_for_byte_range(offset, offset)
    if node is None or node.type not in ("identifier", "field_identifier", "type_identifier"):
        return None
    parent = node.parent
    method = (
        node.type == "field_identifier" and parent is not None and parent.type == "field_expression"
    )
    if method:
        path: tuple[str, ...] = (source.slice(node.start_byte, node.end_byte),)
        span = node
    elif parent is not None and parent.type == "token_tree":
        # Inside a macro (`matches!(k, DispatchTensorKind::Autodiff(_))`) paths are loose tokens.
        parts = [source.slice(node.start_byte, node.end_byte)]
        span = node
        sibling = node.prev_sibling
        while (
            sibling is not None
            and sibling.type == "::"
            and sibling.prev_sibling is not None
            and sibling.prev_sibling.type == "identifier"
        ):
            head = sibling.prev_sibling
            parts.insert(0, source.slice(head.start_byte, head.end_byte))
            sibling = head.prev_sibling
        path = tuple(parts)
    else:
        span = node
        while span.parent is not None and span.parent.type == "scoped_identifier":
            span = span.parent
        text = source.slice(span.start_byte, span.end_byte)
        path = tuple(part.strip() for part in text.split("::") if part.strip())
    if not method and not path:
        return None
    imports, era = _file_facts(source)
    if not method:
        full = imports.get(path[0])
        if full is not None:
            path = (*full, *path[1:])
    rule = api.doc_for(path, method, era)
    if rule is None:
        return None
    name = "::".join(path[-2:]) if not method else f".{path[-1]}()"
    return HoverText(f"**`{name}`** (burn API)\n\n{rule.doc}", span.start_byte, span.end_byte)


_FACTS: list[tuple[SourceFile, dict[str, tuple[str, ...]], str]] = []


def _file_facts(source: SourceFile) -> tuple[dict[str, tuple[str, ...]], str]:
    """The file's imports and burn era, computed once per version of the file: hovering
    over a 5,000-line file must not walk all of its items each time."""
    for known, imports, era in _FACTS:
        if known is source:
            return imports, era
    # Imported here: the item collector is the analysis engine's, loaded after start-up.
    from burnlint.analysis.semantics.cfg import BuildConfig
    from burnlint.analysis.semantics.items import collect_items

    imports = collect_items(source, BuildConfig(), lambda _: False).imports
    era = era_from_text(source.data)[0]
    _FACTS[:] = [(source, imports, era)]
    return imports, era


def _finding_hover(
    offset: int, findings: Sequence[Finding], by_code: dict[str, Entry]
) -> HoverText | None:
    hits = [
        f
        for f in findings
        if f.range.start_byte <= offset < f.range.end_byte
        or f.range.start_byte == offset == f.range.end_byte
    ]
    hits = [f for f in hits if f.code in by_code]
    if not hits:
        return None
    # Innermost first: the finding whose range is the tightest fit is what the user points at.
    hits.sort(key=lambda f: (f.range.end_byte - f.range.start_byte, f.code))
    text = "\n---\n\n".join(finding_markdown(f, by_code[f.code]) for f in hits)
    return HoverText(text, hits[0].range.start_byte, hits[0].range.end_byte)


def _comment_hover(doc: OpenDocument, offset: int, by_code: dict[str, Entry]) -> HoverText | None:
    index = doc.index
    char = index.char_offset_of_byte(offset)
    line, column = index.position_of_char(char, "utf-32")
    text = index.line_text(line)
    if "burnlint:" not in text:
        return None
    line_start = index.char_offset(line, 0, "utf-32")
    for comment in _ALLOW.finditer(text):
        base = comment.start("codes")
        for code in _CODE.finditer(comment.group("codes")):
            start, end = base + code.start(), base + code.end()
            entry = by_code.get(code.group().upper())
            if entry is not None and start <= column <= end:
                return HoverText(
                    entry_markdown(entry),
                    index.byte_of_char_offset(line_start + start),
                    index.byte_of_char_offset(line_start + end),
                )
    return None


def _literal_hover(doc: OpenDocument, offset: int, entries: tuple[Entry, ...]) -> HoverText | None:
    node: tree_sitter.Node | None = doc.parsed.tree.root_node.descendant_for_byte_range(
        offset, offset
    )
    while node is not None and node.type not in _STRINGS:
        node = node.parent
    if node is None:
        return None
    value = string_value(node)
    matches = find_matches(entries, value)
    if not matches:
        return None
    best = matches[0]
    note = f"This string matches burn's panic message ({best.era} era):\n\n```text\n{best.message}\n```\n\n"
    return HoverText(note + entry_markdown(best.entry), node.start_byte, node.end_byte)


def string_value(node: tree_sitter.Node) -> str:
    """The value of a Rust string literal node, with the common escapes decoded."""
    parts: list[str] = []
    for child in node.children:
        raw = (child.text or b"").decode("utf-8", errors="replace")
        if child.type == "string_content":
            parts.append(raw)
        elif child.type == "escape_sequence":
            parts.append(_unescape(raw))
    return "".join(parts)


def _unescape(raw: str) -> str:
    body = raw[1:]
    if body.startswith("u{") and body.endswith("}"):
        try:
            return chr(int(body[2:-1].replace("_", ""), 16))
        except ValueError:
            return raw
    if body.startswith("x") and len(body) == 3:
        try:
            return chr(int(body[1:], 16))
        except ValueError:
            return raw
    if body[:1] in ("\n", "\r"):
        # A `\` at the end of a line continues the string without the break and indentation.
        return ""
    return _ESCAPES.get(body, raw)
