"""The server's commands: `burnlint.explain`, `burnlint.applyAllFixes` and `burnlint.status`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from burnlint.kb.load import by_code
from burnlint.kb.match import find_matches
from burnlint.kb.model import Entry
from burnlint.lsp.actions import safe_changes, workspace_edit
from burnlint.lsp.markdown import entry_markdown, inline_code

if TYPE_CHECKING:
    from burnlint.explaining import Explained
    from burnlint.lsp.server import BurnlintServer

EXPLAIN = "burnlint.explain"
APPLY_ALL_FIXES = "burnlint.applyAllFixes"
STATUS = "burnlint.status"


def explain(entries: tuple[Entry, ...], query: str, roots: Sequence[Path] = ()) -> str:
    """The Markdown of the entry named by a code or slug, or matching pasted panic text; pasted
    output holding panics (one or many, with backtraces) explains each distinct panic, with a
    static analysis of the user's frame when it is a file under one of the workspace `roots`."""
    # Imported on first use: explaining panics is not needed to start answering.
    from burnlint.panic_log import has_panic, parse_panics

    key = query.strip()
    index = by_code(entries)
    entry = index.get(key.upper()) or index.get(key.lower())
    if entry is None and has_panic(query) and parse_panics(query):
        return _log_markdown(entries, query, roots)
    if entry is None:
        matches = find_matches(entries, query)
        entry = matches[0].entry if matches else None
    if entry is None:
        raise JsonRpcInvalidParams(f"no knowledge-base entry matches {query!r}")
    return entry_markdown(entry)


def _log_markdown(entries: tuple[Entry, ...], text: str, roots: Sequence[Path]) -> str:
    from burnlint.explaining import explain_log, pick_root

    explained = explain_log(entries, text, pick_root(text, roots))
    if not any(item.matched for item in explained):
        first = explained[0].group.panic.message.split("\n", 1)[0] if explained else text
        raise JsonRpcInvalidParams(f"no knowledge-base entry matches {first!r}")
    total = sum(item.group.count for item in explained)
    out = [f"## burn panics: {total} ({len(explained)} distinct)", ""]
    shown: set[str] = set()
    for number, item in enumerate(explained, 1):
        out += _panic_markdown(number, item)
        for match in item.group.best:
            if match.entry.id in shown:
                out += [f"*{match.entry.id} `{match.entry.slug}`: explained above.*", ""]
            else:
                shown.add(match.entry.id)
                out += [entry_markdown(match.entry), ""]
    return "\n".join(out).rstrip() + "\n"


def _panic_markdown(number: int, item: Explained) -> list[str]:
    group = item.group
    panic = group.panic
    times = f"{group.count} times" if group.count > 1 else "once"
    tests = ", ".join(inline_code(test) for test in group.tests)
    out = [f"### Panic {number} ({times}{f', in {tests}' if tests else ''})", ""]
    out += ["```text", panic.message, "```", ""]
    if panic.location is not None:
        out.append(f"- **at** {inline_code(str(panic.location))}")
    if group.burn is not None:
        out.append(f"- **burn**: {group.burn.describe()}")
    out.append(f"- **era**: {group.era or 'unknown'} ({group.era_reason})")
    if not item.checks:
        out.append("- **your code**: no frame in your code (run with `RUST_BACKTRACE=1`)")
    for check_ in item.checks:
        frame = check_.frame
        function = f" in {inline_code(frame.function)}" if frame.function else ""
        out.append(f"- **your code**: {inline_code(str(frame.location))}{function}")
        if check_.path is None:
            out.append("  - not a file of an open workspace folder: no static analysis")
            continue
        for near in check_.explaining:
            finding = near.finding
            where = check_.where(finding)
            out.append(
                f"  - static analysis found **{finding.code}** at {inline_code(where)}, which "
                f"explains this panic: {finding.message}"
            )
        if not check_.explaining:
            out.append("  - no static finding matches; this panic is runtime-only")
    best = group.best
    if best:
        names = ", ".join(f"**{m.entry.id}** {inline_code(m.entry.slug)}" for m in best)
        out.append(f"- **explained by** {names} ({best[0].kind} match)")
    else:
        out.append("- no knowledge-base entry matches this panic")
    return [*out, ""]


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


async def status(server: BurnlintServer, uri: str) -> dict[str, Any]:
    """What burnlint decided about an open document: the burn era its crate is analyzed in and
    why, and the analyzer's notes (a budget stop); `analyzed` is false when burnlint is off."""
    if server.documents.get(uri) is None:
        raise JsonRpcInvalidParams(f"{uri} is not open")
    result = await server.pipeline.current(uri)
    if result is None:
        return {"uri": uri, "analyzed": False, "era": "", "reason": "", "notes": []}
    return {
        "uri": uri,
        "analyzed": True,
        "era": result.era,
        "reason": result.era_reason,
        "notes": list(result.notes),
    }
