"""The provenance of a finding: where its value came from (origin -> each binding, store and call
-> sink) as a list of locations, for `burnlint.showProvenance` and the code action that runs it
(VS Code shows them in a peek view, Neovim in the quickfix list)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from burnlint.lsp.convert import SOURCE

if TYPE_CHECKING:
    from burnlint.lsp.server import BurnlintServer

SHOW_PROVENANCE = "burnlint.showProvenance"


def provenance_actions(
    uri: str, diagnostics: Sequence[types.Diagnostic], only: Sequence[str] | None
) -> list[types.CodeAction]:
    """One "show where the value came from" action per burnlint diagnostic that has a path
    (none when the client asks for some kinds only: this action has no kind)."""
    if only:
        return []
    actions: list[types.CodeAction] = []
    for diagnostic in diagnostics:
        if diagnostic.source != SOURCE or not diagnostic.related_information:
            continue
        start = diagnostic.range.start
        actions.append(
            types.CodeAction(
                title=f"Show where this value came from ({diagnostic.code})",
                diagnostics=[diagnostic],
                command=types.Command(
                    title="Show provenance",
                    command=SHOW_PROVENANCE,
                    arguments=[uri, start.line, start.character],
                ),
            )
        )
    return actions


async def show_provenance(
    server: BurnlintServer, uri: str, line: int, character: int
) -> dict[str, Any]:
    """The path of the finding at (`line`, `character`) of an open document (the innermost
    one there, else the first on that line): `locations` in flow order, origin first and the
    sink last, with a `text` each; `uri` and `position` say where to show them."""
    if server.documents.get(uri) is None:
        raise JsonRpcInvalidParams(f"{uri} is not open")
    result = await server.pipeline.current(uri)
    found = _diagnostic_at(result.diagnostics if result else [], line, character)
    if found is None:
        raise JsonRpcInvalidParams(f"no burnlint finding at {line + 1}:{character + 1}")
    items = [
        _location(related.location.uri, related.location.range, related.message)
        for related in found.related_information or []
    ]
    items.append(_location(uri, found.range, f"{found.code}: {found.message}"))
    start = found.range.start
    return {
        "uri": uri,
        "position": {"line": start.line, "character": start.character},
        "locations": items,
    }


def _diagnostic_at(
    diagnostics: Sequence[types.Diagnostic], line: int, character: int
) -> types.Diagnostic | None:
    ours = [d for d in diagnostics if d.source == SOURCE and d.code]
    inside = [
        d
        for d in ours
        if (d.range.start.line, d.range.start.character)
        <= (line, character)
        <= (d.range.end.line, d.range.end.character)
    ]
    if inside:
        return min(inside, key=lambda d: (d.range.end.line - d.range.start.line, _width(d)))
    return next((d for d in ours if d.range.start.line == line), None)


def _width(diagnostic: types.Diagnostic) -> int:
    return diagnostic.range.end.character - diagnostic.range.start.character


def _location(uri: str, where: types.Range, text: str) -> dict[str, Any]:
    return {
        "uri": uri,
        "range": {
            "start": {"line": where.start.line, "character": where.start.character},
            "end": {"line": where.end.line, "character": where.end.character},
        },
        "text": text,
    }
