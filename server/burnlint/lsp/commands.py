"""The server's commands: `burnlint.explain` and `burnlint.applyAllFixes`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from burnlint.kb.load import by_code
from burnlint.kb.match import find_matches
from burnlint.kb.model import Entry
from burnlint.lsp.actions import safe_changes, workspace_edit
from burnlint.lsp.markdown import entry_markdown

if TYPE_CHECKING:
    from burnlint.lsp.server import BurnlintServer

EXPLAIN = "burnlint.explain"
APPLY_ALL_FIXES = "burnlint.applyAllFixes"


def explain(entries: tuple[Entry, ...], query: str) -> str:
    """The Markdown of the entry named by a code or slug, or matching pasted panic text."""
    key = query.strip()
    index = by_code(entries)
    entry = index.get(key.upper()) or index.get(key.lower())
    if entry is None:
        matches = find_matches(entries, query)
        entry = matches[0].entry if matches else None
    if entry is None:
        raise JsonRpcInvalidParams(f"no knowledge-base entry matches {query!r}")
    return entry_markdown(entry)


async def apply_all_fixes(server: BurnlintServer, uri: str) -> dict[str, Any]:
    """Ask the client to apply every safe fix of an open document."""
    if server.documents.get(uri) is None:
        raise JsonRpcInvalidParams(f"{uri} is not open")
    if not server.support.apply_edit:
        raise JsonRpcException(
            "the client cannot apply workspace edits", code=types.LSPErrorCodes.RequestFailed
        )
    result = await server.pipeline.current(uri)
    if result is None:
        return {"applied": False, "fixes": 0}
    changes, count = safe_changes(result.diagnostics)
    if not count:
        return {"applied": True, "fixes": 0}
    edit = workspace_edit(changes, {uri: result.version}, server.support.document_changes)
    answer = await server.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="burnlint: fix all")
    )
    return {"applied": answer.applied, "fixes": count if answer.applied else 0}
