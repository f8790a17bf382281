"""Inlay hints and hovers on values: what the analyzer knows about a name (`autodiff`, `plain`,
`ctx: Disabled`, `autodiff?`), where it became that way, and the `inlayHints` setting; hints
are asked for again when an edit to another file changes them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import (
    EDITORS,
    HELPERS,
    MODEL,
    QUANT,
    SEED,
    WAIT,
    Client,
    change_doc,
    character,
    diagnostics,
    helpers_crate,
    hover,
    inlay_hints,
    open_doc,
    replace_all,
    start,
    until,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)

HELPER = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice};
fn twice(t: T) -> T { t }
pub fn run(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = twice(Dispatch::float_from_data(data, &ad));
    let ctx = Ctx::Disabled;
    dispatch::q_matmul(x, q, ctx)
}
"""


def by_line(hints: list[types.InlayHint] | None) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for hint in hints or []:
        assert isinstance(hint.label, str)
        out.setdefault(hint.position.line, []).append(hint.label)
    return out


async def tooltip(lsp: Client, hint: types.InlayHint) -> str:
    """The hint's tooltip; a client that can resolve them (Neovim) gets them on resolve."""
    if hint.tooltip is None:
        assert hint.data is not None
        hint = await asyncio.wait_for(lsp.inlay_hint_resolve_async(hint), WAIT)
    assert isinstance(hint.tooltip, types.MarkupContent)
    return hint.tooltip.value


@pytest.mark.parametrize("editor", EDITORS)
async def test_hints_label_bindings_with_their_state_and_origin(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    text = QUANT.read_text(encoding="utf-8")
    await diagnostics(lsp, uri, version=1)
    hints = await inlay_hints(lsp, uri, text)
    assert hints
    lines = text.splitlines()
    labels = by_line(hints)
    assert labels[12] == ["device: autodiff"]
    assert labels[13] == ["autodiff"]
    assert SEED in lines[15]
    [seed] = [h for h in hints if h.position.line == 13]
    # Right after the name, as a type hint is.
    name_end = lines[13].index("autodiff_lhs") + len("autodiff_lhs")
    assert seed.position.character == character(lines[13], name_end, lsp.encoding)
    assert seed.kind == types.InlayHintKind.Type and seed.padding_left
    # Neovim resolves tooltips: they are left out of the (large) list of a document's hints.
    assert (seed.tooltip is None) == (editor == "neovim")
    shown = await tooltip(lsp, seed)
    assert "autodiff tensor (checkpointing Disabled) on Flex" in shown
    assert f"autodiff device created here: [quant.rs:13]({uri}#L13)" in shown
    assert f"autodiff tensor created here: [quant.rs:14]({uri}#L14)" in shown
    # Both paths of a name rebound to a plain tensor are told apart.
    assert {label for line in (41, 42) for label in labels.get(line, [])} == {"autodiff", "plain"}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("off", None),
        ("dispatch", {3: ["device: autodiff"], 4: ["autodiff"], 5: ["ctx: Disabled"]}),
        (
            "on",
            {1: ["autodiff"], 3: ["device: autodiff"], 4: ["autodiff"], 5: ["ctx: Disabled"]},
        ),
    ],
)
async def test_the_setting_turns_hints_off_on_or_to_dispatch_code_only(
    lsp: Client, mode: str, expected: dict[int, list[str]] | None, tmp_path: Path
) -> None:
    await start(lsp, "neovim", settings={"inlayHints": mode})
    path = tmp_path / "helper.rs"
    path.write_text(HELPER, encoding="utf-8")
    uri = open_doc(lsp, path)
    await diagnostics(lsp, uri, version=1)
    hints = await inlay_hints(lsp, uri, HELPER)
    if expected is None:
        assert hints is None
        return
    # `twice` names no dispatch type: its parameter's hint (as `run` passes it) shows with "on".
    assert by_line(hints) == expected
    if mode == "on":
        [param] = [h for h in hints or [] if h.position.line == 1]
        assert "as callers pass it" in await tooltip(lsp, param)


@pytest.mark.parametrize("editor", EDITORS)
async def test_hover_on_a_value_shows_its_state_above_the_finding(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    await diagnostics(lsp, uri, version=1)
    lines = QUANT.read_text(encoding="utf-8").splitlines()
    found = await hover(
        lsp, uri, 15, character(lines[15], lines[15].index("autodiff_lhs,"), lsp.encoding)
    )
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    text = found.contents.value
    state, _, finding = text.partition("\n\n---\n\n")
    assert state.startswith("**burnlint** · `autodiff_lhs`: `autodiff`")
    assert f"[quant.rs:14]({uri}#L14)" in state
    assert finding.startswith("### BD001 `autodiff-in-disabled-context`")
    # A name with a state and nothing else to explain: its own hover, over the name.
    device = await hover(
        lsp, uri, 13, character(lines[13], lines[13].index("&device") + 2, lsp.encoding)
    )
    assert device is not None and isinstance(device.contents, types.MarkupContent)
    assert device.contents.value.startswith("**burnlint** · `device`: `device: autodiff`")
    # A call whose value a `let` binds: its state, over the call.
    at = character(lines[13], lines[13].index("float_from_data") + 3, lsp.encoding)
    call = await hover(lsp, uri, 13, at)
    assert call is not None and isinstance(call.contents, types.MarkupContent)
    assert call.contents.value.startswith("**burnlint** · this call's value: `autodiff`")
    call_start = lines[13].index("Dispatch::float_from_data")
    assert call.range is not None
    assert call.range.start == types.Position(13, character(lines[13], call_start, lsp.encoding))
    column = lines[13].index("&device") + 1
    assert device.range == types.Range(
        start=types.Position(13, character(lines[13], column, lsp.encoding)),
        end=types.Position(13, character(lines[13], column + len("device"), lsp.encoding)),
    )


@pytest.mark.parametrize("editor", EDITORS)
async def test_ranges_of_a_version_and_the_next_version_get_their_own_hints(
    lsp: Client, editor: str
) -> None:
    await start(lsp, editor)
    text = QUANT.read_text(encoding="utf-8")
    uri = open_doc(lsp, QUANT)
    await diagnostics(lsp, uri, version=1)
    whole = await inlay_hints(lsp, uri, text)
    assert whole and len(whole) >= 8
    # Asked again, and for a range of lines of the same version: the same hints, those that
    # start in the range.
    assert list(await inlay_hints(lsp, uri, text) or []) == list(whole)
    view = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(13, 0), end=types.Position(29, 0)),
    )
    part = list(await asyncio.wait_for(lsp.text_document_inlay_hint_async(view), WAIT) or [])
    assert part == [h for h in whole if 13 <= h.position.line < 29]
    assert part and len(part) < len(whole)
    # A line inserted at the top: the next version's hints are one line further down.
    change_doc(lsp, uri, 2, [replace_all("// moved\n" + text)])
    await diagnostics(lsp, uri, version=2)
    moved = await inlay_hints(lsp, uri, "// moved\n" + text)
    assert [(h.position.line, h.label) for h in moved or []] == [
        (h.position.line + 1, h.label) for h in whole
    ]


FIELDS = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;
pub struct Cfg {
    pub ctx: Ctx,
}
pub struct Model {
    device: DispatchDevice,
}
impl Model {
    pub fn new() -> Self {
        Self { device: DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
    }
    pub fn score(&self, data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let cfg = Cfg { ctx: Ctx::Disabled };
        dispatch::q_matmul(Dispatch::float_from_data(data, &self.device), q, cfg.ctx)
    }
}
pub fn count(n: usize) -> usize {
    let m = n;
    m + 1
}
"""


@pytest.mark.parametrize("editor", EDITORS)
async def test_hover_on_fields_calls_and_arguments_shows_their_state(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    path = tmp_path / "fields.rs"
    path.write_text(FIELDS, encoding="utf-8")
    uri = open_doc(lsp, path)
    [finding] = [d for d in await diagnostics(lsp, uri, version=1) if d.code == "BD001"]
    assert finding.range.start.line == 14
    lines = FIELDS.splitlines()

    async def at(line: int, needle: str, shift: int = 0) -> types.Hover | None:
        column = lines[line].index(needle) + shift
        return await hover(lsp, uri, line, character(lines[line], column, lsp.encoding))

    def parts(found: types.Hover | None) -> tuple[str, str]:
        """(the state section, the finding's text after it)."""
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        state, _, rest = found.contents.value.partition("\n\n---\n\n")
        return state, rest

    # A field of `self`, read where it is passed: what the type's methods store in it.
    device, finding_text = parts(await at(14, "device)", 1))
    assert device.startswith("**burnlint** · `self.device`: `device: autodiff`, read here")
    assert f"- autodiff device created here: [fields.rs:11]({uri}#L11)" in device
    assert finding_text.startswith("### BD001 `autodiff-in-disabled-context`")
    # A local struct's field, passed to the sink: the disabled context the sink got.
    ctx, _ = parts(found := await at(14, "cfg.ctx", 5))
    assert ctx.startswith("**burnlint** · `cfg.ctx`: `ctx: Disabled`, read here")
    assert f"- autodiff context disabled here: [fields.rs:14]({uri}#L14)" in ctx
    assert found is not None and found.range == finding.range
    # A call's result passed as an argument.
    call, _ = parts(await at(14, "float_from_data", 3))
    assert call.startswith("**burnlint** · this call's value: `autodiff`, as it returns here")
    assert "autodiff tensor (checkpointing Disabled) on Flex" in call
    assert f"- autodiff tensor created here: [fields.rs:15]({uri}#L15)" in call
    # A plain identifier whose state is unknown: no state section (only the finding it is in).
    unknown = await at(14, "q, cfg")
    assert unknown is not None and isinstance(unknown.contents, types.MarkupContent)
    assert unknown.contents.value.startswith("### BD001")
    assert "**burnlint** ·" not in unknown.contents.value
    # ... and nothing at all outside any finding.
    assert await at(18, "m = n", 4) is None
    assert await at(19, "m + 1") is None


async def test_an_edit_in_another_file_refreshes_the_hints(lsp: Client, tmp_path: Path) -> None:
    await start(lsp, "neovim")
    root = helpers_crate(tmp_path / "demo")
    model_uri = open_doc(lsp, root / "src" / "model.rs")
    helpers_uri = open_doc(lsp, root / "src" / "helpers.rs")
    await diagnostics(lsp, model_uri, version=1)
    await diagnostics(lsp, helpers_uri, version=1)
    assert by_line(await inlay_hints(lsp, model_uri, MODEL))[3] == ["autodiff"]
    plain = HELPERS.replace(
        "DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))",
        "DispatchDevice::Flex(Default::default())",
    )
    change_doc(lsp, helpers_uri, 2, [replace_all(plain)])
    await until(lambda: lsp.inlay_refreshes > 0, "workspace/inlayHint/refresh")
    assert by_line(await inlay_hints(lsp, model_uri, MODEL))[3] == ["plain"]


async def test_changing_the_setting_asks_for_hints_again(lsp: Client, tmp_path: Path) -> None:
    await start(lsp, "neovim", settings={"inlayHints": "on"})
    path = tmp_path / "helper.rs"
    path.write_text(HELPER, encoding="utf-8")
    uri = open_doc(lsp, path)
    await diagnostics(lsp, uri, version=1)
    assert 1 in by_line(await inlay_hints(lsp, uri, HELPER))
    lsp.set_configuration({"inlayHints": "dispatch"}, section="burnlint")
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await until(lambda: lsp.inlay_refreshes > 0, "workspace/inlayHint/refresh")
    assert 1 not in by_line(await inlay_hints(lsp, uri, HELPER))
