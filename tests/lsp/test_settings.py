"""Settings: pulled from `workspace/configuration`, re-read on `didChangeConfiguration`,
falling back to `initializationOptions`; invalid values warn once and use defaults."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from harness import EDITORS, EXAMPLE, QUANT, Client, diagnostics, open_doc, start, until
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)


def seed(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in found if d.code == "BD001" and d.range.start.line == 15]


async def reconfigure(lsp: Client, settings: dict[str, object]) -> int:
    """Change the client's settings and notify the server; returns the publish mark."""
    lsp.set_configuration(settings, section="burnlint")
    mark = len(lsp.published)
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    return mark


@pytest.mark.parametrize("editor", EDITORS)
async def test_configuration_changes_republish(lsp: Client, editor: str) -> None:
    await start(lsp, editor, settings={})
    uri = open_doc(lsp, QUANT)
    [diagnostic] = seed(await diagnostics(lsp, uri, version=1))
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.code_description is None

    mark = await reconfigure(lsp, {"ignore": ["BD001"]})
    assert seed(await diagnostics(lsp, uri, mark, version=1)) == []

    docs = "https://burnlint.example/{code}"
    mark = await reconfigure(lsp, {"severity": {"BD001": "warning"}, "docsUrl": docs})
    [diagnostic] = seed(await diagnostics(lsp, uri, mark, version=1))
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    if editor == "visual-studio-code":
        assert diagnostic.code_description == types.CodeDescription(
            href="https://burnlint.example/BD001"
        )
    else:
        # Neovim does not advertise `codeDescriptionSupport`.
        assert diagnostic.code_description is None

    mark = await reconfigure(lsp, {"enable": False})
    assert await diagnostics(lsp, uri, mark) == []


async def test_initialization_options_apply_and_invalid_values_warn_once(lsp: Client) -> None:
    # The client has no `burnlint` section, so the initialization options are the settings:
    # the valid severity override applies, the invalid values fall back to their defaults.
    invalid = {"enable": "yes", "scope": "everywhere", "severity": {"BD001": "fatal"}}
    options = {"burnlint": {**invalid, "severity": {"BD001": "hint", "BD004": "loud"}}}
    await start(lsp, "visual-studio-code", init_options=options)
    uri = open_doc(lsp, QUANT)
    [diagnostic] = seed(await diagnostics(lsp, uri, version=1))
    assert diagnostic.severity == types.DiagnosticSeverity.Hint
    await until(lambda: bool(lsp.messages), "a window/showMessage warning")
    [message] = lsp.messages
    assert message.type == types.MessageType.Warning
    for key in ("`enable`", "`scope`", "`severity.BD004`"):
        assert key in message.message
    # The same invalid settings again are not announced a second time.
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)
    assert len(lsp.messages) == 1


async def test_project_configuration_file_applies_in_the_editor(
    lsp: Client, tmp_path: Path
) -> None:
    crate = tmp_path / "demo"
    shutil.copytree(EXAMPLE, crate)
    (crate / "burnlint.toml").write_text(
        'severity = { BD001 = "warning" }\nexclude = ["src/train.rs"]\n', encoding="utf-8"
    )
    await start(lsp, "visual-studio-code", settings={})
    quant = open_doc(lsp, crate / "src" / "quant.rs")
    [diagnostic] = seed(await diagnostics(lsp, quant, version=1))
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    train = open_doc(lsp, crate / "src" / "train.rs")
    assert await diagnostics(lsp, train, version=1) == []
    # The editor's own settings win over the project's.
    mark = await reconfigure(lsp, {"severity": {"BD001": "hint"}})
    [diagnostic] = seed(await diagnostics(lsp, quant, mark, version=1))
    assert diagnostic.severity == types.DiagnosticSeverity.Hint


async def test_broken_project_configuration_is_shown_and_ignored(
    lsp: Client, tmp_path: Path
) -> None:
    crate = tmp_path / "demo"
    shutil.copytree(EXAMPLE, crate)
    (crate / "burnlint.toml").write_text("ignore = BD001\n", encoding="utf-8")
    await start(lsp, "visual-studio-code", settings={})
    quant = open_doc(lsp, crate / "src" / "quant.rs")
    assert seed(await diagnostics(lsp, quant, version=1))
    await until(lambda: bool(lsp.messages), "a window/showMessage warning")
    assert "burnlint.toml:1" in lsp.messages[0].message


async def test_a_file_over_max_file_size_gets_a_notice_not_an_analysis(
    lsp: Client, tmp_path: Path
) -> None:
    crate = tmp_path / "demo"
    shutil.copytree(EXAMPLE, crate)
    (crate / "burnlint.toml").write_text('max-file-size = "200B"\n', encoding="utf-8")
    await start(lsp, "neovim", settings={})
    [notice] = await diagnostics(lsp, open_doc(lsp, crate / "src" / "quant.rs"), version=1)
    assert notice.severity == types.DiagnosticSeverity.Information
    assert notice.message.startswith("burnlint: not analyzed: this file is ")
    assert "larger than max-file-size (200 bytes" in notice.message
