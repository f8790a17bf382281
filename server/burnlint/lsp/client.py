"""What the connected client supports, read once from its `initialize` capabilities."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types


@dataclass(frozen=True, slots=True)
class ClientSupport:
    """The client features the server adapts to."""

    pull: bool = False
    """`textDocument/diagnostic`: the client pulls diagnostics (else the server pushes)."""
    refresh: bool = False
    """`workspace/diagnostic/refresh`: the server may ask the client to pull again."""
    related: bool = False
    code_description: bool = False
    progress: bool = False
    configuration: bool = False
    """`workspace/configuration`: the server may pull settings."""
    watch_registration: bool = False
    """File watchers can be registered dynamically."""
    configuration_registration: bool = False
    apply_edit: bool = False
    document_changes: bool = False
    """Versioned `documentChanges` in workspace edits."""
    inlay_refresh: bool = False
    """`workspace/inlayHint/refresh`: the server may ask the client to request hints again."""
    action_edit_resolve: bool = False
    """`codeAction/resolve` fills in edits: the fix-all action a lightbulb request lists is
    sent without its edit (every safe fix of the file), which is made when it is chosen."""
    inlay_tooltip_resolve: bool = False
    """`inlayHint/resolve` fills in tooltips: hints are sent without them (a document's hints
    with their tooltips are hundreds of kilobytes)."""

    @staticmethod
    def of(caps: types.ClientCapabilities) -> ClientSupport:
        """Read the capabilities that matter to burnlint (all absent ones are False)."""
        text = caps.text_document
        workspace = caps.workspace
        publish = text.publish_diagnostics if text else None
        pulled = text.diagnostic if text else None
        watched = workspace.did_change_watched_files if workspace else None
        config_change = workspace.did_change_configuration if workspace else None
        edit = workspace.workspace_edit if workspace else None
        diagnostics = workspace.diagnostics if workspace else None
        refresh = bool(diagnostics and diagnostics.refresh_support)
        return ClientSupport(
            # Pull only when the server can ask for a re-pull: otherwise a settings change or an
            # edit in another file would leave the client's diagnostics stale (Neovim 0.11).
            pull=pulled is not None and refresh,
            refresh=refresh,
            related=bool(
                (publish and publish.related_information) or (pulled and pulled.related_information)
            ),
            code_description=bool(
                (publish and publish.code_description_support)
                or (pulled and pulled.code_description_support)
            ),
            progress=bool(caps.window and caps.window.work_done_progress),
            configuration=bool(workspace and workspace.configuration),
            watch_registration=bool(watched and watched.dynamic_registration),
            configuration_registration=bool(config_change and config_change.dynamic_registration),
            apply_edit=bool(workspace and workspace.apply_edit),
            document_changes=bool(edit and edit.document_changes),
            action_edit_resolve=_resolves_action_edits(text),
            inlay_tooltip_resolve=_resolves_tooltips(text),
            inlay_refresh=bool(
                workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support
            ),
        )


def _resolves_action_edits(text: types.TextDocumentClientCapabilities | None) -> bool:
    actions = text.code_action if text else None
    resolve = actions.resolve_support if actions else None
    return bool(resolve and "edit" in resolve.properties)


def _resolves_tooltips(text: types.TextDocumentClientCapabilities | None) -> bool:
    hints = text.inlay_hint if text else None
    resolve = hints.resolve_support if hints else None
    return bool(resolve and "tooltip" in resolve.properties)
