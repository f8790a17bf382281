"""The `burnlint.explain` command with pasted panic output: one or many panics, deduplicated,
with the static analysis of the user's frame when it is a file of a workspace folder."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from harness import EXAMPLE, WAIT, Client, start
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(40)

BD001 = "an autodiff float primitive must have an enabled autodiff context"
BD004 = "Autodiff should not wrap an autodiff device."
QTENSOR = (
    "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
    "burn-dispatch-0.22.0-pre.4/src/ops/qtensor.rs:298:25"
)
FRAMES = (
    "stack backtrace:\n"
    "   0: rust_begin_unwind\n"
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:665:5\n"
    "   3: dispatch_demo::quant::tracked_scores\n"
    "             at ./src/quant.rs:16:15\n"
)


def panic(thread: str, location: str, message: str, tail: str = "") -> str:
    return f"thread '{thread}' panicked at {location}:\n{message}\n{tail}"


async def explain(lsp: Client, *arguments: object) -> object:
    params = types.ExecuteCommandParams(command="burnlint.explain", arguments=list(arguments))
    return await asyncio.wait_for(lsp.workspace_execute_command_async(params), WAIT)


async def test_pasted_output_with_many_panics_is_explained_once_each(lsp: Client) -> None:
    await start(lsp, "visual-studio-code")
    log = "\r\n".join(
        [
            panic("a", QTENSOR, BD001),
            "\x1b[31m" + panic("b", QTENSOR, BD001) + "\x1b[0m",
            panic("c", "src/device.rs:3:5", f"internal error: entered unreachable code: {BD004}"),
        ]
    )
    found = await explain(lsp, log)
    assert isinstance(found, str)
    assert "3 (2 distinct)" in found
    assert found.count("### Panic") == 2
    assert "### BD001 `autodiff-in-disabled-context`" in found
    assert "### BD004 `nested-autodiff-device`" in found
    assert "burn-dispatch 0.22.0-pre.4" in found and "context" in found
    assert "2 times" in found


async def test_output_that_matches_no_entry_is_an_error(lsp: Client) -> None:
    await start(lsp, "neovim")
    with pytest.raises(Exception, match="no knowledge-base entry"):
        await explain(lsp, panic("main", "src/main.rs:1:1", "index out of bounds"))
    # The server keeps serving.
    assert str(await explain(lsp, "BD001")).startswith("### BD001")


async def test_the_users_frame_in_a_workspace_folder_is_checked(
    lsp: Client, tmp_path: Path
) -> None:
    crate = tmp_path / "dispatch-demo"
    shutil.copytree(EXAMPLE, crate)
    await start(lsp, "visual-studio-code", folders=[crate])
    found = await explain(lsp, panic("main", QTENSOR, BD001, FRAMES))
    assert isinstance(found, str)
    assert "`./src/quant.rs:16:15`" in found and "dispatch_demo::quant::tracked_scores" in found
    assert "static analysis found **BD001** at `src/quant.rs:16:15`" in found
