"""Code actions: a quick fix per fix carried in a diagnostic's data, a "suppress on this line"
edit, and `source.fixAll.burnlint` (safe fixes only)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from lsprotocol import types

from burnlint.lsp.convert import DiagnosticData, FixData, from_lsp_data
from burnlint.lsp.documents import OpenDocument
from burnlint.lsp.positions import Encoding, units

FIX_ALL = "source.fixAll.burnlint"
_OWN_LINE_ALLOW = re.compile(r"^(?P<lead>\s*//\s*burnlint:\s*allow\()(?P<codes>[^)]*)\)\s*$")
_INDENT = re.compile(r"^[ \t]*")

Changes = dict[str, list[types.TextEdit]]


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether the client asked for actions of `kind` (`only` lists kinds or their prefixes)."""
    return only is None or any(kind == o or kind.startswith(f"{o}.") for o in only)


def workspace_edit(
    changes: Changes, versions: dict[str, int | None], document_changes: bool
) -> types.WorkspaceEdit:
    """A workspace edit; with `document_changes`, versioned so a stale edit is refused."""
    if not document_changes:
        return types.WorkspaceEdit(changes=changes)
    edits: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = [
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=uri, version=versions.get(uri)
            ),
            edits=list(items),
        )
        for uri, items in changes.items()
    ]
    return types.WorkspaceEdit(document_changes=edits)


def quick_fixes(
    doc: OpenDocument,
    diagnostic: types.Diagnostic,
    data: DiagnosticData,
    unsafe_fixes: bool,
    document_changes: bool,
) -> list[types.CodeAction]:
    """One quick fix per fix of the diagnostic; unsafe ones only when `unsafe_fixes`. Nothing
    for a diagnostic computed for another version of the text: its edits would land in the
    wrong place."""
    actions: list[types.CodeAction] = []
    if data.version is not None and data.version != doc.version:
        return actions
    for fix in data.fixes:
        if not fix.safe and not unsafe_fixes:
            continue
        title = f"burnlint ({data.code}): {fix.title}" + ("" if fix.safe else " (unsafe)")
        actions.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.safe,
                edit=workspace_edit(fix.edits, {doc.uri: data.version}, document_changes),
            )
        )
    return actions


def suppress_edit(doc: OpenDocument, line: int, code: str, encoding: Encoding) -> types.TextEdit:
    """Insert `// burnlint: allow(CODE)` above `line` with its indentation and the file's
    newline style, or add the code to an allow comment already there."""
    index = doc.index
    if line > 0:
        above = index.line_text(line - 1)
        match = _OWN_LINE_ALLOW.match(above)
        if match is not None:
            codes = [c.strip() for c in match.group("codes").split(",") if c.strip()]
            start = units(above[: match.start("codes")], encoding)
            end = units(above[: match.end("codes")], encoding)
            return types.TextEdit(
                range=types.Range(
                    start=types.Position(line=line - 1, character=start),
                    end=types.Position(line=line - 1, character=end),
                ),
                new_text=", ".join([*codes, code]),
            )
    text = index.line_text(line) if line < index.line_count else ""
    indent = _INDENT.match(text)
    newline = index.line_break(line) if line < index.line_count else ""
    comment = (
        f"{indent.group() if indent else ''}// burnlint: allow({code}){newline or index.newline()}"
    )
    start = types.Position(line=line, character=0)
    return types.TextEdit(range=types.Range(start=start, end=start), new_text=comment)


def suppress_action(
    doc: OpenDocument,
    diagnostic: types.Diagnostic,
    code: str,
    encoding: Encoding,
    document_changes: bool,
) -> types.CodeAction:
    """The "suppress CODE on this line" quick fix."""
    edit = suppress_edit(doc, diagnostic.range.start.line, code, encoding)
    return types.CodeAction(
        title=f"burnlint: suppress {code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=workspace_edit({doc.uri: [edit]}, {doc.uri: doc.version}, document_changes),
    )


def _key(position: types.Position) -> tuple[int, int]:
    return (position.line, position.character)


def safe_changes(diagnostics: Iterable[types.Diagnostic]) -> tuple[Changes, int]:
    """The first safe fix of each diagnostic, skipping any fix that overlaps an earlier one
    (as the CLI does); returns the edits and how many fixes they apply."""
    taken: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    changes: Changes = {}
    count = 0
    for diagnostic in diagnostics:
        data = from_lsp_data(diagnostic)
        fix: FixData | None = next((f for f in data.fixes if f.safe), None) if data else None
        if fix is None:
            continue
        spans = {
            uri: [(_key(e.range.start), _key(e.range.end)) for e in edits]
            for uri, edits in fix.edits.items()
        }
        clash = any(
            s < end and start < e
            for uri, items in spans.items()
            for s, e in items
            for start, end in taken.get(uri, [])
        )
        if clash:
            continue
        for uri, edits in fix.edits.items():
            taken.setdefault(uri, []).extend(spans[uri])
            changes.setdefault(uri, []).extend(edits)
        count += 1
    return changes, count


def fix_all_action(
    doc: OpenDocument, diagnostics: Sequence[types.Diagnostic], document_changes: bool
) -> types.CodeAction | None:
    """`source.fixAll.burnlint` over the document's current diagnostics; None if nothing to do."""
    changes, count = safe_changes(diagnostics)
    if not count:
        return None
    return types.CodeAction(
        title=f"burnlint: fix all safely fixable problems ({count})",
        kind=FIX_ALL,
        edit=workspace_edit(changes, {doc.uri: doc.version}, document_changes),
    )


def code_actions(
    doc: OpenDocument,
    params: types.CodeActionParams,
    current: Sequence[types.Diagnostic] | None,
    unsafe_fixes: bool,
    encoding: Encoding,
    document_changes: bool,
) -> list[types.CodeAction]:
    """Every action for a code action request; `current` are the document's up-to-date
    diagnostics (None while they are being computed: then no fix-all)."""
    only = params.context.only
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        for diagnostic in params.context.diagnostics:
            data = from_lsp_data(diagnostic)
            if data is None:
                continue
            actions += quick_fixes(doc, diagnostic, data, unsafe_fixes, document_changes)
            actions.append(suppress_action(doc, diagnostic, data.code, encoding, document_changes))
    if current is not None and wanted(FIX_ALL, only):
        fix_all = fix_all_action(doc, current, document_changes)
        if fix_all is not None:
            actions.append(fix_all)
    return actions
