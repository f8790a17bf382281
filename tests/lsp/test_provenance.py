"""The provenance peek: a code action on a finding runs `burnlint.showProvenance`, which answers
with the path of the value (origin first, each step, the sink last) as locations to peek at."""

from __future__ import annotations

import asyncio

import pytest
from harness import EDITORS, QUANT, WAIT, Client, code_actions, diagnostics, open_doc, start
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol
from pygls.exceptions import JsonRpcInvalidParams  # noqa: TID251 - the error a client sees

pytestmark = pytest.mark.timeout(30)


async def run(lsp: Client, command: types.Command) -> dict:
    params = types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    return await asyncio.wait_for(lsp.workspace_execute_command_async(params), WAIT)


@pytest.mark.parametrize("editor", EDITORS)
async def test_a_finding_offers_its_provenance_as_locations(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    [finding] = [d for d in await diagnostics(lsp, uri, version=1) if d.code == "BD001"]
    actions = await code_actions(lsp, uri, [finding])
    [action] = [a for a in actions if a.title == "Show where this value came from (BD001)"]
    assert action.kind is None and action.edit is None
    assert action.command is not None and action.command.command == "burnlint.showProvenance"
    answer = await run(lsp, action.command)
    assert answer["uri"] == uri
    assert answer["position"] == {
        "line": finding.range.start.line,
        "character": finding.range.start.character,
    }
    steps = [(item["range"]["start"]["line"], item["text"]) for item in answer["locations"]]
    assert steps[:2] == [(12, "autodiff device created here"), (13, "autodiff tensor created here")]
    assert steps[-1] == (15, f"BD001: {finding.message}")
    # The path goes through other files too (the sink inside the `q_matmul` helper).
    uris = [item["uri"] for item in answer["locations"]]
    assert uris[0] == uris[-1] == uri
    assert any(u.endswith("/src/dispatch.rs") for u in uris)
    # Asking only for fixes (fix-all on save) offers no provenance.
    assert not [a for a in await code_actions(lsp, uri, [finding], only=["quickfix"]) if a.command]


async def test_no_finding_there_is_an_invalid_request(lsp: Client) -> None:
    await start(lsp, "neovim")
    uri = open_doc(lsp, QUANT)
    await diagnostics(lsp, uri, version=1)
    command = types.Command("", "burnlint.showProvenance", arguments=[uri, 0, 0])
    with pytest.raises(JsonRpcInvalidParams, match="no burnlint finding at 1:1"):
        await run(lsp, command)
