"""The LSP features the server registers; each handler delegates to the module that does the
work."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from lsprotocol import types

from burnlint.lsp.actions import FIX_ALL, code_actions, resolve_fix_all, wanted
from burnlint.lsp.commands import APPLY_ALL_FIXES, EXPLAIN, STATUS, apply_all_fixes, explain, status
from burnlint.lsp.convert import SOURCE, to_lsp_hover
from burnlint.lsp.documents import Span
from burnlint.lsp.hover import hover_at
from burnlint.lsp.indexing import workspace_roots
from burnlint.lsp.inlay import HintList, hint_list, resolve_target, tooltip, with_state
from burnlint.lsp.provenance import SHOW_PROVENANCE, provenance_actions, show_provenance
from burnlint.lsp.server import BurnlintServer
from burnlint.lsp.wire import RawJSON


def _span(change: types.TextDocumentContentChangeEvent) -> Span | None:
    """The replaced range of an incremental change; None for a whole-document change."""
    if isinstance(change, types.TextDocumentContentChangePartial):
        start, end = change.range.start, change.range.end
        return (start.line, start.character), (end.line, end.character)
    return None


def register(ls: BurnlintServer) -> None:
    """Register every feature and command on `ls`."""
    _register_life_cycle(ls)
    _register_sync(ls)
    _register_hover(ls)
    _register_inlay_hints(ls)
    _register_actions(ls)


def _register_life_cycle(ls: BurnlintServer) -> None:
    @ls.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        ls.on_initialize(params)
        # pygls computes the capabilities after this handler: offer pull diagnostics only to a
        # client that will pull them (else it would get them twice, pulled and pushed).
        if ls.support.pull:
            _register_diagnostics(ls)

    @ls.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        await ls.on_initialized()

    @ls.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        ls.on_shutdown()

    @ls.feature(types.EXIT)
    def exit_(params: None) -> None:
        ls.on_exit()

    @ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration(params: types.DidChangeConfigurationParams) -> None:
        await ls.reload_settings(params.settings)

    @ls.feature(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)
    def cancel_progress(params: types.WorkDoneProgressCancelParams) -> None:
        ls.cancelled_progress.add(str(params.token))

    @ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        ls.on_watched_files(list(params.changes))


def _register_sync(ls: BurnlintServer) -> None:
    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        # Only Rust: a client may also send Cargo.toml or Markdown documents.
        if item.language_id == "rust" or item.uri.endswith(".rs"):
            ls.on_opened(ls.documents.open(item.uri, item.version, item.text, item.language_id))

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        changes = [(_span(c), c.text) for c in params.content_changes]
        document = params.text_document
        if ls.documents.change(document.uri, document.version, changes, ls.encoding):
            ls.pipeline.schedule(document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is not None and ls.on_saved(doc.path):
            ls.pipeline.schedule(doc.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        doc = ls.documents.close(params.text_document.uri)
        if doc is not None:
            ls.on_closed(doc)


def _register_diagnostics(ls: BurnlintServer) -> None:
    options = types.DiagnosticOptions(
        identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False
    )

    @ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)
    async def pull(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        result = await ls.pipeline.current(params.text_document.uri)
        if result is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id == result.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=result.diagnostics, result_id=result.result_id
        )


def _register_hover(ls: BurnlintServer) -> None:
    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        if len(doc.text) > ls.pipeline.project_settings(doc.path).max_file_size:
            # Not analyzed (it has a notice saying so); parsing it for a hover would cost
            # hundreds of megabytes for a 10 MB buffer.
            return None
        findings = await ls.pipeline.findings_of(doc)
        if findings is None:
            return None
        position = params.position
        offset = doc.index.byte_offset(position.line, position.character, ls.encoding)
        found = hover_at(doc, offset, findings, ls.entries, ls.analyzer.get().api)
        read = await ls.states.at(doc, offset)
        if read is not None and read.version == doc.version:
            found = with_state(read, found)
        return to_lsp_hover(doc.index, found, ls.encoding) if found else None


def _register_inlay_hints(ls: BurnlintServer) -> None:
    options = types.InlayHintOptions(resolve_provider=True)

    # The last hint list made per document: a request for the same version (and states)
    # takes its range of it.
    lists: dict[str, HintList] = {}

    @ls.feature(types.TEXT_DOCUMENT_INLAY_HINT, options)
    async def inlay_hint(params: types.InlayHintParams) -> RawJSON | None:
        await ls.settings_ready.wait()
        doc = ls.documents.get(params.text_document.uri)
        mode = ls.settings.inlay_hints
        if doc is None or not ls.settings.enable or mode == "off":
            return None
        if len(doc.text) > ls.pipeline.project_settings(doc.path).max_file_size:
            return None
        start, end = params.range.start, params.range.end
        index, encoding = doc.index, ls.encoding
        first = index.byte_offset(start.line, start.character, encoding)
        last = index.byte_offset(end.line, end.character, encoding)
        lazy = ls.support.inlay_tooltip_resolve
        kept = earlier = lists.get(doc.uri)
        if kept is not None and kept.read.version != doc.version:
            kept = None
        if kept is None and (last - first) * 2 < len(doc.text):
            # A viewport (VS Code asks for one after each edit): only its names' states.
            read = await ls.states.in_range(doc, first, last, with_origins=not lazy)
        else:
            # The whole document (Neovim), or a version whose states are read whole already:
            # read once per version and kept while the analysis stands.
            read = await ls.states.whole(doc, with_origins=not lazy)
        if read is None or ls.documents.get(doc.uri) is not doc or read.version != doc.version:
            # Edited meanwhile: the client asks again for the new version.
            return None
        key = (mode, encoding, lazy)
        if kept is None or kept.read is not read or kept.key != key:
            kept = hint_list(doc, read, mode, encoding, lazy, earlier)
            if read.whole:
                for uri in [u for u in lists if ls.documents.get(u) is None]:
                    del lists[uri]
                lists[doc.uri] = kept
        return kept.between(first, last)

    @ls.feature(types.INLAY_HINT_RESOLVE)
    async def resolve_inlay_hint(hint: types.InlayHint) -> types.InlayHint:
        target = resolve_target(hint)
        doc = ls.documents.get(target[0]) if target is not None else None
        if target is None or doc is None or doc.version != target[1]:
            return hint
        read = await ls.states.in_range(doc, target[2], target[2])
        if read is not None and read.version == target[1]:
            for state in read.states:
                if state.start == target[2]:
                    hint.tooltip = tooltip(state, read.uris)
        return hint


def _register_actions(ls: BurnlintServer) -> None:
    options = types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True
    )

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        await ls.settings_ready.wait()
        doc = ls.documents.get(params.text_document.uri)
        if doc is None or not ls.settings.enable:
            return None
        # Fix-all asked for by name (e.g. on save) waits for current results; the lightbulb's
        # frequent requests use what is already there.
        only = params.context.only
        current = await ls.pipeline.diagnostics_of(doc, wait=bool(only and wanted(FIX_ALL, only)))
        unsafe, document_changes = ls.settings.unsafe_fixes, ls.support.document_changes
        lazy = ls.support.action_edit_resolve
        published = ls.pipeline.published(doc.uri, doc.version)
        actions = code_actions(
            doc, params, current, unsafe, ls.encoding, document_changes, lazy, published
        )
        actions += provenance_actions(doc.uri, params.context.diagnostics, only)
        return actions or None

    @ls.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(action: types.CodeAction) -> types.CodeAction:
        data: object = cast(object, action.data)
        uri = cast(Mapping[str, Any], data).get("fixAll") if isinstance(data, Mapping) else None
        doc = ls.documents.get(uri) if isinstance(uri, str) else None
        current = await ls.pipeline.diagnostics_of(doc, wait=True) if doc is not None else None
        return resolve_fix_all(action, doc, current, ls.support.document_changes)

    @ls.command(EXPLAIN)
    def explain_command(query: str) -> str:
        return explain(ls.entries, query, workspace_roots(ls))

    @ls.command(APPLY_ALL_FIXES)
    async def apply_all_command(uri: str) -> dict[str, Any]:
        return await apply_all_fixes(ls, uri)

    @ls.command(SHOW_PROVENANCE)
    async def provenance_command(uri: str, line: int, character: int) -> dict[str, Any]:
        return await show_provenance(ls, uri, line, character)

    @ls.command(STATUS)
    async def status_command(uri: str) -> dict[str, Any]:
        return await status(ls, uri)
