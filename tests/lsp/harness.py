"""Driving a real `burnlint server` from the tests: a recording pytest-lsp client, session
start-up with captured editor capabilities, and helpers to wait for diagnostics and apply edits."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol
from pygls.protocol import default_converter  # noqa: TID251 - pytest-lsp's client needs it
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dispatch-demo"
QUANT = EXAMPLE / "src" / "quant.rs"
CORPUS = ROOT / "tests" / "corpus"
SEED = "let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);"
EDITORS = ("visual-studio-code", "neovim")
WAIT = 20.0
"""Upper bound for any single wait on the server (the per-test timeout is the hard stop)."""

HELPERS = """use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};
pub fn ad_device() -> DispatchDevice { DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
pub fn eval_ctx() -> Ctx { Ctx::default() }
"""
MODEL = """use burn::backend::{Dispatch, DispatchTensor};
use crate::helpers::{ad_device, eval_ctx};
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &ad_device());
    dispatch::q_matmul(x, q, eval_ctx())
}
"""
MANIFEST = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n'


class Client(LanguageClient):
    """The pytest-lsp client, also recording every publish, registration and applied edit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.registrations: list[types.Registration] = []
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.pulled: dict[str, types.RelatedFullDocumentDiagnosticReport] = {}
        self.result: types.InitializeResult | None = None
        self.inlay_refreshes = 0
        """How many times the server asked for `workspace/inlayHint/refresh`."""

    @property
    def encoding(self) -> str:
        """The position encoding the server chose."""
        assert self.result is not None
        return str(self.result.capabilities.position_encoding or "utf-16")

    @property
    def pull(self) -> bool:
        """Whether the server lets this client pull diagnostics (it then never pushes them for
        open files): the client must pull and accept `workspace/diagnostic/refresh`."""
        assert self.result is not None
        return self.result.capabilities.diagnostic_provider is not None


def _publish(client: Client, params: types.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics


def _register(client: Client, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)


def _apply_edit(
    client: Client, params: types.ApplyWorkspaceEditParams
) -> types.ApplyWorkspaceEditResult:
    client.applied.append(params)
    return types.ApplyWorkspaceEditResult(applied=True)


def _inlay_refresh(client: Client, params: None) -> None:
    client.inlay_refreshes += 1


def _converter() -> Any:
    """pygls' converter, reading a code action that carries a command as a code action:
    lsprotocol's hook reads anything with a `command` key as a bare `Command`."""
    converter = default_converter()

    def command_or_action(value: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(value.get("command"), str):
            return converter.structure(value, types.Command)
        return converter.structure(value, types.CodeAction)

    converter.register_structure_hook(types.Command | types.CodeAction, command_or_action)
    return converter


def make_client() -> Client:
    """A recording client with pytest-lsp's default handlers plus the requests it lacks."""
    client = Client(converter_factory=_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    features[types.WORKSPACE_APPLY_EDIT] = _apply_edit
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = _inlay_refresh
    register_lsp_features(client, features)
    return client


SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "burnlint", "server"], client_factory=make_client
)


def capabilities(editor: str) -> types.ClientCapabilities:
    """Captured capabilities: `visual-studio-code`, `neovim`, `neovim+utf-32` (Neovim asking
    for UTF-32 positions only), `neovim+refresh` (Neovim that also accepts
    `workspace/diagnostic/refresh`, so the server lets it pull) or `no-action-resolve` (VS
    Code's without `codeAction/resolve`)."""
    if editor == "neovim+refresh":
        caps = client_capabilities("neovim")
        assert caps.workspace is not None
        caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True
        )
        return caps
    if editor == "no-action-resolve":
        # An editor that applies code actions as they come (no `codeAction/resolve`).
        caps = client_capabilities("visual-studio-code")
        assert caps.text_document is not None and caps.text_document.code_action is not None
        caps.text_document.code_action.resolve_support = None
        return caps
    if editor == "neovim+utf-32":
        caps = client_capabilities("neovim")
        assert caps.general is not None
        caps.general.position_encodings = [types.PositionEncodingKind.Utf32]
        return caps
    return client_capabilities(editor)


async def start(
    client: Client,
    editor: str,
    *,
    init_options: Any = None,
    settings: dict[str, Any] | None = None,
    folders: Sequence[Path] = (),
) -> types.InitializeResult:
    """Initialize a session as `editor`; `settings` answer `workspace/configuration`."""
    if settings is not None:
        client.set_configuration(settings, section="burnlint")
    params = types.InitializeParams(
        capabilities=capabilities(editor),
        initialization_options=init_options,
        root_uri=folders[0].as_uri() if folders else None,
        workspace_folders=[types.WorkspaceFolder(f.as_uri(), f.name) for f in folders] or None,
    )
    client.result = await asyncio.wait_for(client.initialize_session(params), WAIT)
    return client.result


def open_doc(client: Client, path: Path, text: str | None = None, version: int = 1) -> str:
    """Open a file in the server (its text from disk unless given); returns its URI."""
    uri = path.as_uri()
    content = path.read_text(encoding="utf-8") if text is None else text
    item = types.TextDocumentItem(uri=uri, language_id="rust", version=version, text=content)
    client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    return uri


def change_doc(
    client: Client,
    uri: str,
    version: int,
    changes: Sequence[types.TextDocumentContentChangeEvent],
) -> None:
    """Send a `didChange` with these content changes."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes),
        )
    )


def replace_all(text: str) -> types.TextDocumentContentChangeWholeDocument:
    """A whole-document change."""
    return types.TextDocumentContentChangeWholeDocument(text=text)


async def until(predicate: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Wait until `predicate()` holds (polling; the server answers on its own schedule)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def pushed(
    client: Client, uri: str, after: int = 0, version: int | None = None
) -> list[types.Diagnostic]:
    """The first diagnostics pushed for `uri` at index `after` or later of `client.published`
    (and for `version`, if given)."""

    def find() -> types.PublishDiagnosticsParams | None:
        for params in client.published[after:]:
            if params.uri == uri and (version is None or params.version == version):
                return params
        return None

    await until(lambda: find() is not None, f"diagnostics for {uri} (version {version})")
    found = find()
    assert found is not None
    return list(found.diagnostics)


async def pull(
    client: Client, uri: str, previous: str | None = None
) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
    """Pull the document's diagnostics."""
    params = types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
    )
    report = await asyncio.wait_for(client.text_document_diagnostic_async(params), WAIT)
    if isinstance(report, types.RelatedFullDocumentDiagnosticReport):
        client.pulled[uri] = report
    return report


async def diagnostics(
    client: Client, uri: str, after: int = 0, version: int | None = None
) -> list[types.Diagnostic]:
    """The document's current diagnostics, however this client gets them."""
    if client.pull:
        report = await pull(client, uri)
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return list(report.items)
    return await pushed(client, uri, after, version)


async def code_actions(
    client: Client,
    uri: str,
    diagnostics: Sequence[types.Diagnostic],
    only: Sequence[str] | None = None,
) -> list[types.CodeAction]:
    """The code actions for these diagnostics (their union range)."""
    start = min((d.range.start for d in diagnostics), key=lambda p: (p.line, p.character))
    end = max((d.range.end for d in diagnostics), key=lambda p: (p.line, p.character))
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=start, end=end),
        context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
    )
    found = await asyncio.wait_for(client.text_document_code_action_async(params), WAIT)
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def inlay_hints(client: Client, uri: str, text: str) -> list[types.InlayHint] | None:
    """The inlay hints over the whole document."""
    lines = text.splitlines()
    end = types.Position(len(lines), 0)
    params = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(0, 0), end=end),
    )
    return await asyncio.wait_for(client.text_document_inlay_hint_async(params), WAIT)


async def hover(client: Client, uri: str, line: int, character: int) -> types.Hover | None:
    """Hover at a position (in the negotiated encoding)."""
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character),
    )
    return await asyncio.wait_for(client.text_document_hover_async(params), WAIT)


def edits_for(edit: types.WorkspaceEdit | None, uri: str) -> list[types.TextEdit]:
    """The text edits a workspace edit makes to `uri` (from `changes` or `documentChanges`)."""
    assert edit is not None
    found: list[types.TextEdit] = list((edit.changes or {}).get(uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found += [e for e in change.edits if isinstance(e, types.TextEdit)]
    return found


_BREAK = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """Code units of `text` in an LSP position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def offset(text: str, position: types.Position, encoding: str) -> int:
    """The string offset of an LSP position in `text` (an independent oracle for the tests)."""
    starts = [0] + [m.end() for m in _BREAK.finditer(text)]
    start = starts[position.line]
    match = _BREAK.search(text, start)
    line = text[start : match.start() if match else len(text)]
    count = 0
    for index, char in enumerate(line):
        if count >= position.character:
            return start + index
        count += units(char, encoding)
    return start + len(line)


def character(line: str, column: int, encoding: str) -> int:
    """The LSP character of string column `column` of a line."""
    return units(line[:column], encoding)


def apply_edits(text: str, edits: Sequence[types.TextEdit], encoding: str) -> str:
    """`text` with non-overlapping LSP text edits applied (all relative to the original)."""
    spans = sorted(
        (
            (offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def helpers_crate(root: Path) -> Path:
    """A crate whose `model.rs` calls `helpers.rs` (`HELPERS`, `MODEL`)."""
    lib = "pub mod helpers;\npub mod model;\n"
    return write_crate(root, {"src/lib.rs": lib, "src/helpers.rs": HELPERS, "src/model.rs": MODEL})


def write_crate(root: Path, files: dict[str, str], name: str = "demo") -> Path:
    """A crate on disk: a Cargo.toml plus `files` (paths relative to the crate root)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text(MANIFEST.format(name=name), encoding="utf-8")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return root
