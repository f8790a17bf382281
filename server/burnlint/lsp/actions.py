"""Code actions: a quick fix per fix carried in a diagnostic's data, a "suppress on this line"
edit, and `source.fixAll.burnlint` (safe fixes only)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from lsprotocol import types

from burnlint.lsp.convert import SOURCE, DiagnosticData, from_lsp_data, structure_edits
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


Span = tuple[tuple[int, int], tuple[int, int]]


def _span(edit: Mapping[str, Any]) -> Span:
    """A raw text edit's range as ((line, character), (line, character))."""
    start, end = edit["range"]["start"], edit["range"]["end"]
    return (int(start["line"]), int(start["character"])), (int(end["line"]), int(end["character"]))


def _safe_fixes(diagnostics: Iterable[types.Diagnostic]) -> list[Mapping[str, list[Any]]]:
    """The edits (JSON, by URI) of the first safe fix of each diagnostic, skipping any fix
    that overlaps an earlier one (as the CLI does). Read from the diagnostics' data as sent:
    choosing (and counting) them needs no conversion of every edit."""
    taken: dict[str, list[Span]] = {}
    chosen: list[Mapping[str, list[Any]]] = []
    for diagnostic in diagnostics:
        raw: object = cast(object, diagnostic.data)
        if diagnostic.source != SOURCE or not isinstance(raw, Mapping):
            continue
        try:
            fixes = cast(list[Mapping[str, Any]], cast(Mapping[str, Any], raw)["fixes"])
            fix = next((f for f in fixes if f["safety"] == "safe"), None)
            if fix is None:
                continue
            edits = cast(Mapping[str, list[Any]], fix["edits"])
            spans = {uri: [_span(e) for e in items] for uri, items in edits.items()}
        except (KeyError, TypeError, ValueError):
            # A client that altered the data gets no fix rather than a failed request.
            continue
        clash = any(
            s < end and start < e
            for uri, items in spans.items()
            for s, e in items
            for start, end in taken.get(uri, [])
        )
        if clash:
            continue
        for uri, items in spans.items():
            taken.setdefault(uri, []).extend(items)
        chosen.append(edits)
    return chosen


def safe_changes(diagnostics: Iterable[types.Diagnostic]) -> tuple[Changes, int]:
    """The first safe fix of each diagnostic, skipping any fix that overlaps an earlier one
    (as the CLI does); returns the edits and how many fixes they apply."""
    changes: Changes = {}
    chosen = _safe_fixes(diagnostics)
    for edits in chosen:
        for uri, items in edits.items():
            changes.setdefault(uri, []).extend(structure_edits(items))
    return changes, len(chosen)


def fix_all_action(
    doc: OpenDocument,
    diagnostics: Sequence[types.Diagnostic],
    document_changes: bool,
    lazy: bool = False,
) -> types.CodeAction | None:
    """`source.fixAll.burnlint` over the document's current diagnostics; None if nothing to do.
    With `lazy`, without its edit: `resolve_fix_all` makes it (see `ClientSupport`)."""
    if lazy:
        count = len(_safe_fixes(diagnostics))
        if not count:
            return None
        return types.CodeAction(
            title=_fix_all_title(count),
            kind=FIX_ALL,
            data={"fixAll": doc.uri, "version": doc.version},
        )
    changes, count = safe_changes(diagnostics)
    if not count:
        return None
    return types.CodeAction(
        title=_fix_all_title(count),
        kind=FIX_ALL,
        edit=workspace_edit(changes, {doc.uri: doc.version}, document_changes),
    )


def resolve_fix_all(
    action: types.CodeAction,
    doc: OpenDocument | None,
    diagnostics: Sequence[types.Diagnostic] | None,
    document_changes: bool,
) -> types.CodeAction:
    """A lazy fix-all action with its edit, for the document's current diagnostics (versioned
    with `document_changes`, so an edit made for a version the user has typed past is
    refused by the editor); unchanged when it is no fix-all or the document is closed."""
    data: object = cast(object, action.data)
    if (
        doc is None
        or diagnostics is None
        or not isinstance(data, Mapping)
        or cast(Mapping[str, Any], data).get("fixAll") != doc.uri
    ):
        return action
    changes, count = safe_changes(diagnostics)
    action.title = _fix_all_title(count)
    action.edit = workspace_edit(changes, {doc.uri: doc.version}, document_changes)
    return action


def _identity(diagnostic: types.Diagnostic) -> tuple[object, ...]:
    """What tells one of a version's diagnostics from another, as the editor sends it back."""
    start, end = diagnostic.range.start, diagnostic.range.end
    return (
        start.line,
        start.character,
        end.line,
        end.character,
        diagnostic.code,
        diagnostic.message,
    )


def _fix_all_title(count: int) -> str:
    return f"burnlint: fix all safely fixable problems ({count})"


def code_actions(
    doc: OpenDocument,
    params: types.CodeActionParams,
    current: Sequence[types.Diagnostic] | None,
    unsafe_fixes: bool,
    encoding: Encoding,
    document_changes: bool,
    lazy_fix_all: bool = False,
    published: Sequence[types.Diagnostic] = (),
) -> list[types.CodeAction]:
    """Every action for a code action request; `current` are the document's up-to-date
    diagnostics (None while they are being computed: then no fix-all), `published` those
    last sent for its version (the quick fixes' edits are taken from them)."""
    only = params.context.only
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        # The server's copy of each diagnostic carries its fixes' edits even when the editor
        # was sent them without (`ConvertOptions.lean_fixes`).
        own = {_identity(d): d for d in published}
        for diagnostic in params.context.diagnostics:
            data = from_lsp_data(own.get(_identity(diagnostic), diagnostic))
            if data is None:
                continue
            actions += quick_fixes(doc, diagnostic, data, unsafe_fixes, document_changes)
            actions.append(suppress_action(doc, diagnostic, data.code, encoding, document_changes))
    if current is not None and wanted(FIX_ALL, only):
        # A request for fix-all by name (on save) applies it at once: it gets the edit.
        lazy = lazy_fix_all and not (only and wanted(FIX_ALL, only))
        fix_all = fix_all_action(doc, current, document_changes, lazy)
        if fix_all is not None:
            actions.append(fix_all)
    return actions
