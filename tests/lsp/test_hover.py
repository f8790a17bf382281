"""Hover: the knowledge base over a finding, a code in an allow comment, or a string holding a
burn panic message; nothing (not an empty hover) anywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import EDITORS, QUANT, SEED, Client, character, diagnostics, hover, open_doc, start
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)

TESTS = """// burnlint: allow(BD004)
#[test]
#[should_panic(expected = "must have an enabled autodiff context")]
fn panics() {
    let note = "é 😀"; panic!("internal error: entered unreachable code: Should only be called with autodiff.");
}
fn plain() -> &'static str { "hello" }
"""


def text_of(found: types.Hover | None) -> str:
    assert found is not None
    assert isinstance(found.contents, types.MarkupContent)
    assert found.contents.kind == types.MarkupKind.Markdown
    return found.contents.value


@pytest.mark.parametrize("editor", EDITORS)
async def test_hover_on_a_finding_explains_it(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    [diagnostic] = [d for d in await diagnostics(lsp, uri, version=1) if d.code == "BD001"]
    line = QUANT.read_text(encoding="utf-8").splitlines()[15]
    assert SEED in line
    found = await hover(lsp, uri, 15, character(line, line.index("autodiff_lhs,"), lsp.encoding))
    # The value's state (tests/lsp/test_inlay_hints.py) comes first, then the finding.
    state, _, text = text_of(found).partition("\n\n---\n\n")
    assert state.startswith("**burnlint** · `autodiff_lhs`")
    assert found is not None and found.range == diagnostic.range
    assert text.startswith("### BD001 `autodiff-in-disabled-context`")
    assert "autodiff tensor `autodiff_lhs` reaches a disabled autodiff context" in text
    assert "an autodiff float primitive must have an enabled autodiff context" in text
    assert "1. line 13: autodiff device created here" in text
    assert "2. line 14: autodiff tensor created here" in text
    assert "#### How to fix" in text and "#### Example" in text
    # Outside any finding, comment or string there is no hover at all.
    assert await hover(lsp, uri, 11, 2) is None


@pytest.mark.parametrize("editor", EDITORS)
async def test_hover_on_comment_codes_and_panic_strings(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    path = tmp_path / "panics.rs"
    path.write_text(TESTS, encoding="utf-8")
    uri = open_doc(lsp, path)
    lines = TESTS.splitlines()

    async def at(line: int, needle: str, shift: int = 1) -> types.Hover | None:
        column = lines[line].index(needle) + shift
        return await hover(lsp, uri, line, character(lines[line], column, lsp.encoding))

    comment = await at(0, "BD004")
    assert text_of(comment).startswith("### BD004 `nested-autodiff-device`")
    assert comment is not None and comment.range == types.Range(
        start=types.Position(0, lines[0].index("BD004")),
        end=types.Position(0, lines[0].index("BD004") + 5),
    )
    assert await at(0, "burnlint") is None
    expected = text_of(await at(2, "must have"))
    assert "### BD001" in expected and "matches burn's panic message (context era)" in expected
    # After non-ASCII text on the line, so the column differs per encoding.
    panic = text_of(await at(4, "Should only"))
    assert "### BD001" in panic and "(checkpointing era)" in panic
    assert await at(6, "hello") is None
    assert await at(3, "panics") is None


API = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor, DispatchTensorKind};
fn consistent(t: DispatchTensor) -> DispatchTensor {
    let kind = t.kind; let ctx = if matches!(kind, DispatchTensorKind::Autodiff(_)) { t.autodiff } else { Ctx::Disabled };
    let frozen = t.detach(); let plain = frozen.without_autodiff();
    DispatchTensor { kind: plain.kind, autodiff: ctx }
}
"""


@pytest.mark.parametrize("editor", EDITORS)
async def test_hover_on_burn_api_names_explains_them(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    path = tmp_path / "api.rs"
    path.write_text(API, encoding="utf-8")
    uri = open_doc(lsp, path)
    lines = API.splitlines()

    async def at(line: int, needle: str) -> str:
        column = lines[line].index(needle) + 1
        return text_of(await hover(lsp, uri, line, character(lines[line], column, lsp.encoding)))

    disabled = await at(2, "Disabled")
    assert disabled.startswith("**`DispatchAutodiffContext::Disabled`** (burn API)")
    assert "an autodiff float primitive must have an enabled autodiff context" in disabled
    assert "autodiff-tracked float" in await at(2, "Autodiff(_)")
    assert "KEEPS its autodiff kind" in await at(3, "detach")
    assert "plain float kind" in await at(3, "without_autodiff")
    # Names burn's API rules do not document get no hover.
    column = lines[3].index("frozen") + 1
    assert await hover(lsp, uri, 3, character(lines[3], column, lsp.encoding)) is None
