"""Never silent in the editor: an analysis that stopped on its time budget is a warning
diagnostic on the function where it stopped (line 0 when that function is in a file read for
context) plus one window message per document version; `burnlint.status` says which burn era the
open file's crate is analyzed in, and why."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from harness import (
    EDITORS,
    QUANT,
    WAIT,
    Client,
    change_doc,
    diagnostics,
    open_doc,
    replace_all,
    start,
    until,
    write_crate,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(60)

MANIFEST_WITH_BURN = (
    '[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n\n'
    '[dependencies]\nburn = { version = "=0.22.0-pre.2", features = ["autodiff"] }\n'
)
LOCK = (
    'version = 4\n\n[[package]]\nname = "burn-dispatch"\nversion = "0.22.0-pre.2"\n'
    'source = "registry+https://github.com/rust-lang/crates.io-index"\n'
)


def _churn(rounds: int) -> str:
    """A long function: enough work to outlast a tiny budget."""
    body = "\n".join(f"    let x{i} = x{i - 1}.clone().inner();" for i in range(1, rounds))
    return f"pub fn churn(x0: Tensor<2>) -> Tensor<2> {{\n{body}\n    Tensor::from_inner(x{rounds - 1})\n}}\n"


ENTRY = """pub fn entry(device: &Device) -> Tensor<2> {
    let x = Tensor::<2>::zeros([2, 2], &device.clone().autodiff());
    churn(x)
}
"""
ONE_FILE = "use burn::tensor::{Device, Tensor};\n\n" + _churn(300) + "\n" + ENTRY
LIB_WITH_HELPER = "use burn::tensor::{Device, Tensor};\n\nmod heavy;\nuse heavy::churn;\n\n" + ENTRY
HEAVY = "use burn::tensor::Tensor;\n\n" + _churn(300)


def _tiny_budget_crate(root: Path, files: dict[str, str]) -> Path:
    crate = write_crate(root, {"burnlint.toml": "budget = 0.000001\n", **files})
    (crate / "Cargo.toml").write_text(MANIFEST_WITH_BURN, encoding="utf-8")
    (crate / "Cargo.lock").write_text(LOCK, encoding="utf-8")
    return crate


def _stops(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in found if "analysis stopped" in d.message]


async def _status(lsp: Client, uri: str) -> dict[str, Any]:
    params = types.ExecuteCommandParams(command="burnlint.status", arguments=[uri])
    answer = await asyncio.wait_for(lsp.workspace_execute_command_async(params), WAIT)
    assert isinstance(answer, dict)
    return answer  # pyright: ignore[reportUnknownVariableType]


@pytest.mark.parametrize("editor", EDITORS)
async def test_a_budget_stop_is_a_diagnostic_and_one_message_per_version(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    crate = _tiny_budget_crate(tmp_path / "probe", {"src/lib.rs": ONE_FILE})
    await start(lsp, editor)
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    [stop] = _stops(await diagnostics(lsp, uri, version=1))
    assert stop.source == "burnlint"
    assert stop.severity == types.DiagnosticSeverity.Warning
    assert "findings may be incomplete" in stop.message and "budget" in stop.message
    # On the name of the function where the analysis stopped.
    match = re.search(r"analysis stopped in `(\w+)`", stop.message)
    assert match is not None, stop.message
    name = match.group(1)
    lines = ONE_FILE.split("\n")
    line = next(i for i, text in enumerate(lines) if f"fn {name}(" in text)
    assert stop.range.start.line == stop.range.end.line == line
    assert lines[line][stop.range.start.character : stop.range.end.character] == name

    def shown() -> list[types.ShowMessageParams]:
        return [m for m in lsp.messages if "analysis stopped" in m.message]

    await until(lambda: len(shown()) == 1, "the budget stop's window message")
    assert shown()[0].type == types.MessageType.Warning
    assert "lib.rs" in shown()[0].message
    # Asking again about the same version shows no second message.
    status = await _status(lsp, uri)
    assert any("analysis stopped" in note for note in status["notes"]), status
    await asyncio.sleep(0.3)
    assert len(shown()) == 1
    # A new version that stops again is told again, once.
    change_doc(lsp, uri, 2, [replace_all(ONE_FILE + "\n")])
    assert _stops(await diagnostics(lsp, uri, version=2))
    await until(lambda: len(shown()) == 2, "the second version's window message")


async def test_a_stop_in_a_file_read_for_context_is_reported_at_line_zero(
    lsp: Client, tmp_path: Path
) -> None:
    crate = _tiny_budget_crate(
        tmp_path / "probe", {"src/lib.rs": LIB_WITH_HELPER, "src/heavy.rs": HEAVY}
    )
    await start(lsp, "neovim")
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    [stop] = _stops(await diagnostics(lsp, uri, version=1))
    assert "heavy.rs, read for context" in stop.message
    assert stop.range.start == stop.range.end == types.Position(0, 0)
    await until(lambda: any("analysis stopped" in m.message for m in lsp.messages), "a message")


async def test_no_stop_means_no_note(lsp: Client, tmp_path: Path) -> None:
    crate = _tiny_budget_crate(tmp_path / "probe", {"src/lib.rs": ONE_FILE})
    (crate / "burnlint.toml").write_text("budget = 30\n", encoding="utf-8")
    await start(lsp, "neovim")
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    assert not _stops(await diagnostics(lsp, uri, version=1))
    status = await _status(lsp, uri)
    assert status["notes"] == [] and not lsp.messages


@pytest.mark.parametrize("editor", EDITORS)
async def test_status_names_the_era_of_the_open_file(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    example = await _status(lsp, open_doc(lsp, QUANT))
    assert example["analyzed"] is True and example["era"] == "context", example
    assert "burn 0.22.0-pre.4 in Cargo.toml" in example["reason"], example
    crate = write_crate(tmp_path / "probe", {"src/lib.rs": ENTRY})
    (crate / "Cargo.toml").write_text(MANIFEST_WITH_BURN, encoding="utf-8")
    (crate / "Cargo.lock").write_text(LOCK, encoding="utf-8")
    probe = await _status(lsp, open_doc(lsp, crate / "src" / "lib.rs"))
    assert probe["era"] == "checkpointing", probe
    assert "burn 0.22.0-pre.2 in Cargo.lock" in probe["reason"], probe
    # A document that is not open is an error the client can show.
    with pytest.raises(Exception, match="is not open"):
        await _status(lsp, (crate / "src" / "other.rs").as_uri())
