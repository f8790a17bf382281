"""Diagnostics from the real server: ranges per position encoding, push with versions and
debounce, pull with result ids, cross-file updates."""

from __future__ import annotations

import pytest
from harness import (
    EDITORS,
    HELPERS,
    QUANT,
    SEED,
    Client,
    change_doc,
    character,
    diagnostics,
    helpers_crate,
    open_doc,
    pull,
    pushed,
    replace_all,
    start,
    write_crate,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)

SINK = "dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled)"
WIDE = """use burn::backend::{Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub fn wide(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let autodiff_lhs = Dispatch::float_from_data(batch, &device);
    let label = "😀 漢字 é"; let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);
    out
}
"""


@pytest.mark.parametrize("editor", EDITORS)
async def test_example_crate_seed_line_is_bd001_error(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    found = await diagnostics(lsp, uri, version=1)
    line = QUANT.read_text(encoding="utf-8").splitlines()[15]
    assert SEED in line
    [diagnostic] = [d for d in found if d.range.start.line == 15]
    assert diagnostic.code == "BD001"
    assert diagnostic.source == "burnlint"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    start_col = line.index(SINK)
    assert diagnostic.range.start == types.Position(line=15, character=start_col)
    assert diagnostic.range.end == types.Position(line=15, character=start_col + len(SINK))
    # The flow: the autodiff device (line 13) and tensor (line 14), and the wrapper's sink in
    # another file of the crate.
    related = diagnostic.related_information or []
    assert {(r.location.uri, r.location.range.start.line) for r in related} >= {
        (uri, 12),
        (uri, 13),
    }
    assert any(r.location.uri.endswith("/src/dispatch.rs") for r in related)
    data = diagnostic.data
    assert data["code"] == "BD001"
    # Both editors resolve code action edits: the fixes stay on the server (its quick fixes,
    # safe and unsafe, are checked in test_actions).
    assert "fixes" not in data


@pytest.mark.parametrize("editor", [*EDITORS, "neovim+utf-32"])
async def test_ranges_follow_the_negotiated_encoding(lsp: Client, editor: str, tmp_path) -> None:
    result = await start(lsp, editor)
    expected = {"visual-studio-code": "utf-16", "neovim": "utf-8", "neovim+utf-32": "utf-32"}
    assert result.capabilities.position_encoding == expected[editor]
    crate = write_crate(tmp_path / "wide", {"src/lib.rs": WIDE})
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    [diagnostic] = await diagnostics(lsp, uri, version=1)
    line = WIDE.splitlines()[6]
    column = line.index("dispatch::q_matmul")
    end = line.index(";", column)
    assert diagnostic.range.start == types.Position(6, character(line, column, lsp.encoding))
    assert diagnostic.range.end == types.Position(6, character(line, end, lsp.encoding))
    # The encodings really differ on this line.
    assert len({character(line, column, e) for e in expected.values()}) == 3


async def test_push_is_versioned_and_debounced(lsp: Client, tmp_path) -> None:
    await start(lsp, "visual-studio-code")
    crate = write_crate(tmp_path / "wide", {"src/lib.rs": WIDE})
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    assert len(await pushed(lsp, uri, version=1)) == 1
    mark = len(lsp.published)
    # Five quick edits typing a comment at the end of the file: one analysis, for the last.
    lines = WIDE.count("\n")
    for version in range(2, 7):
        position = types.Position(line=lines, character=version - 2)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=position, end=position), text="/"
        )
        change_doc(lsp, uri, version, [change])
    assert len(await pushed(lsp, uri, after=mark, version=6)) == 1
    versions = [p.version for p in lsp.published[mark:] if p.uri == uri]
    # Superseded runs are never started, and nothing older arrives after a newer version.
    assert versions[-1] == 6 and len(versions) < 5
    assert versions == sorted(versions)


async def test_neovim_without_refresh_support_gets_pushed_diagnostics(lsp: Client) -> None:
    # Neovim 0.11 pulls but cannot be asked to re-pull: pulled diagnostics would go stale after a
    # settings change or an edit in another file, so the server pushes instead.
    result = await start(lsp, "neovim")
    assert result.capabilities.diagnostic_provider is None


async def test_pull_reports_unchanged_until_the_text_changes(lsp: Client, tmp_path) -> None:
    result = await start(lsp, "neovim+refresh")
    assert result.capabilities.diagnostic_provider is not None
    crate = write_crate(tmp_path / "wide", {"src/lib.rs": WIDE})
    uri = open_doc(lsp, crate / "src" / "lib.rs")
    first = await pull(lsp, uri)
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in first.items] == ["BD001"]
    again = await pull(lsp, uri, previous=first.result_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == first.result_id
    fixed = WIDE.replace("DispatchAutodiffContext::Disabled", "DispatchAutodiffContext::Enabled(s)")
    change_doc(lsp, uri, 2, [replace_all(fixed)])
    after = await pull(lsp, uri, previous=first.result_id)
    assert isinstance(after, types.RelatedFullDocumentDiagnosticReport)
    assert not after.items
    assert after.result_id != first.result_id
    # A pull client never gets pushed diagnostics for its open files.
    assert not [p for p in lsp.published if p.uri == uri]


@pytest.mark.parametrize("editor", EDITORS)
async def test_editing_a_helper_updates_the_other_open_file(
    lsp: Client, editor: str, tmp_path
) -> None:
    await start(lsp, editor)
    crate = helpers_crate(tmp_path / "two")
    helpers = open_doc(lsp, crate / "src" / "helpers.rs")
    model = open_doc(lsp, crate / "src" / "model.rs")
    assert [d.code for d in await diagnostics(lsp, model, version=1)] == ["BD001"]
    assert await diagnostics(lsp, helpers, version=1) == []
    mark = len(lsp.published)
    fixed = HELPERS.replace(
        "Ctx::default()", "Ctx::Enabled(GradientCheckpointingStrategy::Disabled)"
    ).replace("as Ctx,", "as Ctx, GradientCheckpointingStrategy,")
    change_doc(lsp, helpers, 2, [replace_all(fixed)])
    if lsp.pull:
        # The client pulls the other file again (the server advertises inter-file dependencies).
        await pushed_nothing_then_pull(lsp, model)
    else:
        assert await pushed(lsp, model, after=mark, version=1) == []


async def pushed_nothing_then_pull(lsp: Client, model: str) -> None:
    report = await pull(lsp, model)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert not report.items
