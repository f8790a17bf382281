"""Code actions and commands: quick fixes reproduce the corpus' `.fixed` files, fix-all applies
only safe fixes, suppression comments silence a finding, unsafe fixes follow the setting."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest
from harness import (
    CORPUS,
    EDITORS,
    QUANT,
    WAIT,
    Client,
    apply_edits,
    change_doc,
    code_actions,
    diagnostics,
    edits_for,
    open_doc,
    start,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.rules.edits import apply_fixes, choose_fixes
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

pytestmark = pytest.mark.timeout(40)

FIX_ALL_KIND = "source.fixAll.burnlint"

FIXTURES = (
    "BD001/b10_vec_field_push_then_read.rs",
    "BD001/b_tuple_pattern_two_on_one_line.rs",
    "BD002/plain_float_kind_literal_enabled.rs",
    "BD005/double_autodiff_kind_literal.rs",
)
MIXED_SAFETY = CORPUS / "BD004" / "b_device_field_rewrapped.rs"


async def first_fix_edits(
    lsp: Client, uri: str, diagnostic: types.Diagnostic
) -> list[types.TextEdit]:
    """The edits of the diagnostic's first quick fix (what a `.fixed` file applies)."""
    actions = await code_actions(lsp, uri, [diagnostic], only=[types.CodeActionKind.QuickFix])
    fixes = [a for a in actions if a.title.startswith(f"burnlint ({diagnostic.code}):")]
    assert fixes, f"no fix offered for {diagnostic.code} at {diagnostic.range}"
    return edits_for(fixes[0].edit, uri)


@pytest.mark.parametrize("editor", EDITORS)
async def test_quick_fixes_reproduce_the_fixed_files(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    for name in FIXTURES:
        path = CORPUS / name
        text = path.read_text(encoding="utf-8")
        uri = open_doc(lsp, path)
        found = await diagnostics(lsp, uri, version=1)
        assert found, name
        edits: list[types.TextEdit] = []
        for diagnostic in found:
            edits += await first_fix_edits(lsp, uri, diagnostic)
        fixed = apply_edits(text, edits, lsp.encoding)
        assert fixed == path.with_suffix(".fixed").read_text(encoding="utf-8"), name


@pytest.mark.parametrize("editor", EDITORS)
async def test_fix_all_applies_only_safe_fixes(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    text = MIXED_SAFETY.read_text(encoding="utf-8")
    analyzed = Analyzer(load_kb()).analyze(SourceFile(str(MIXED_SAFETY), text), Options())
    expected, applied = apply_fixes(text, choose_fixes(analyzed.findings, safe_only=True))
    # Only the plain `DispatchDevice::autodiff` rewrap is safe to drop: the other asks for
    # `Gcs::Balanced` (dropping it drops the strategy) and the closure's wrap is a "may".
    assert applied == 1
    uri = open_doc(lsp, MIXED_SAFETY)
    found = await diagnostics(lsp, uri, version=1)
    assert len(found) == 3
    [action] = await code_actions(lsp, uri, found, only=[types.CodeActionKind.SourceFixAll])
    assert action.kind == "source.fixAll.burnlint"
    assert apply_edits(text, edits_for(action.edit, uri), lsp.encoding) == expected
    # The command does the same through `workspace/applyEdit`.
    answer = await asyncio.wait_for(
        lsp.workspace_execute_command_async(
            types.ExecuteCommandParams(command="burnlint.applyAllFixes", arguments=[uri])
        ),
        WAIT,
    )
    assert answer == {"applied": True, "fixes": 1}
    [request] = lsp.applied
    assert apply_edits(text, edits_for(request.edit, uri), lsp.encoding) == expected


@pytest.mark.parametrize("editor", EDITORS)
async def test_the_lightbulb_lists_fix_all_without_its_edit_until_it_is_resolved(
    lsp: Client, editor: str
) -> None:
    """Both editors resolve code action edits: a lightbulb request gets the fix-all action
    with its count but not its edit (every safe fix of the file); `codeAction/resolve` makes
    the same edit as a request for fix-all by name."""
    await start(lsp, editor)
    text = MIXED_SAFETY.read_text(encoding="utf-8")
    uri = open_doc(lsp, MIXED_SAFETY)
    found = await diagnostics(lsp, uri, version=1)
    [eager] = await code_actions(lsp, uri, found, only=[types.CodeActionKind.SourceFixAll])
    assert eager.edit is not None
    [lazy] = [a for a in await code_actions(lsp, uri, found[:1]) if a.kind == FIX_ALL_KIND]
    assert lazy.edit is None
    assert lazy.title == eager.title == "burnlint: fix all safely fixable problems (1)"
    resolved = await asyncio.wait_for(lsp.code_action_resolve_async(lazy), WAIT)
    assert resolved.edit is not None
    fixed = apply_edits(text, edits_for(resolved.edit, uri), lsp.encoding)
    assert fixed == apply_edits(text, edits_for(eager.edit, uri), lsp.encoding)
    assert fixed != text
    # An action that is not burnlint's fix-all comes back as it was.
    other = types.CodeAction(title="x", data={"fixAll": "file:///nowhere.rs"})
    assert (await asyncio.wait_for(lsp.code_action_resolve_async(other), WAIT)).edit is None


@pytest.mark.parametrize("editor", ["visual-studio-code", "no-action-resolve"])
async def test_fixes_travel_without_edits_to_an_editor_that_resolves_them(
    lsp: Client, editor: str
) -> None:
    """An editor that resolves code action edits gets each diagnostic's data without its
    fixes (they were 60% of a publication); its quick fixes still carry the edits, taken
    from the server's copy. An editor that does not resolve gets the fixes in the data."""
    await start(lsp, editor)
    uri = open_doc(lsp, QUANT)
    [diagnostic] = [d for d in await diagnostics(lsp, uri, version=1) if d.code == "BD001"]
    fixes = cast(dict[str, Any], diagnostic.data).get("fixes")
    if editor == "no-action-resolve":
        assert fixes and all(f["edits"] for f in fixes)
        assert {f["id"] for f in fixes} >= {"enable-context"}
    else:
        assert fixes is None
    quick = [
        a
        for a in await code_actions(lsp, uri, [diagnostic])
        if a.kind == types.CodeActionKind.QuickFix and "suppress" not in a.title
    ]
    assert quick and all(a.edit is not None and edits_for(a.edit, uri) for a in quick)
    # A diagnostic the server never sent (an altered copy): without fixes in its data it gets
    # none (and no error); with them it still does (the data is all the server reads).
    altered = types.Diagnostic(
        range=diagnostic.range,
        message="something else",
        code="BD001",
        source="burnlint",
        data={**cast(dict[str, Any], diagnostic.data)},
    )
    fixed = [
        a
        for a in await code_actions(lsp, uri, [altered])
        if a.kind == types.CodeActionKind.QuickFix and "suppress" not in a.title
    ]
    assert bool(fixed) == (editor == "no-action-resolve")


async def test_unsafe_fixes_are_labelled_and_follow_the_setting(lsp: Client) -> None:
    await start(lsp, "visual-studio-code", settings={})
    uri = open_doc(lsp, QUANT)
    safe = (
        "burnlint (BD001): enable the autodiff context: "
        "`DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled)`"
    )
    for unsafe in (True, False):
        if not unsafe:
            lsp.set_configuration({"unsafeFixes": False}, section="burnlint")
            lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(None))
        found = await diagnostics(lsp, uri, version=1)
        [diagnostic] = [d for d in found if d.code == "BD001"]
        titles = {a.title: a.is_preferred for a in await code_actions(lsp, uri, [diagnostic])}
        assert titles[safe] is True
        flagged = [t for t in titles if t.endswith("(unsafe)")]
        assert len(flagged) == (1 if unsafe else 0)
        assert all(not titles[t] for t in flagged)
        assert "burnlint: suppress BD001 on this line" in titles


@pytest.mark.parametrize("editor", EDITORS)
async def test_suppression_comment_silences_the_line(lsp: Client, editor: str) -> None:
    await start(lsp, editor)
    text = QUANT.read_text(encoding="utf-8")
    uri = open_doc(lsp, QUANT)
    [diagnostic] = [d for d in await diagnostics(lsp, uri, version=1) if d.code == "BD001"]
    [action] = [
        a
        for a in await code_actions(lsp, uri, [diagnostic])
        if a.title == "burnlint: suppress BD001 on this line"
    ]
    [edit] = edits_for(action.edit, uri)
    assert edit.new_text == "    // burnlint: allow(BD001)\n"
    assert edit.range.start == types.Position(line=15, character=0)
    # Sent as the client would: an incremental change with the action's own range.
    mark = len(lsp.published)
    change = types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)
    change_doc(lsp, uri, 2, [change])
    assert not [d for d in await diagnostics(lsp, uri, mark, version=2) if d.code == "BD001"]
    assert apply_edits(text, [edit], lsp.encoding).splitlines()[15].strip() == (
        "// burnlint: allow(BD001)"
    )


@pytest.mark.parametrize("editor", EDITORS)
async def test_crlf_quick_fix_and_suppression_keep_crlf(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    source = CORPUS / "BD001" / "b01_seed_exact_line.rs"
    text = source.read_text(encoding="utf-8").replace("\n", "\r\n")
    path = tmp_path / "seed.rs"
    path.write_bytes(text.encode("utf-8"))
    uri = open_doc(lsp, path, text)
    [diagnostic] = await diagnostics(lsp, uri, version=1)
    line = text.split("\r\n")[15]
    column = line.index("dispatch::q_matmul")
    assert diagnostic.range.start == types.Position(line=15, character=column)
    assert diagnostic.range.end == types.Position(line=15, character=line.index(";"))
    fixed = apply_edits(text, await first_fix_edits(lsp, uri, diagnostic), lsp.encoding)
    assert fixed == source.with_suffix(".fixed").read_text(encoding="utf-8").replace("\n", "\r\n")
    [suppress] = [
        a
        for a in await code_actions(lsp, uri, [diagnostic])
        if a.title.startswith("burnlint: suppress")
    ]
    [edit] = edits_for(suppress.edit, uri)
    assert edit.new_text == "    // burnlint: allow(BD001)\r\n"


async def test_explain_command_and_errors_keep_the_server_serving(lsp: Client) -> None:
    await start(lsp, "visual-studio-code")

    async def explain(*arguments: object) -> object:
        params = types.ExecuteCommandParams(command="burnlint.explain", arguments=list(arguments))
        return await asyncio.wait_for(lsp.workspace_execute_command_async(params), WAIT)

    by_code = await explain("BD001")
    assert isinstance(by_code, str) and by_code.startswith("### BD001")
    by_panic = await explain(
        "thread 'main' panicked at src/x.rs:3:5:\nShould only be called with autodiff."
    )
    assert isinstance(by_panic, str) and "BD001" in by_panic
    with pytest.raises(Exception, match="no knowledge-base entry"):
        await explain("this is not a burn panic at all")
    with pytest.raises(Exception, match="arguments"):
        await explain()
    # A notification for a document that was never opened is logged, not fatal.
    change_doc(
        lsp,
        "file:///nowhere/never_opened.rs",
        2,
        [types.TextDocumentContentChangeWholeDocument(text="")],
    )
    assert (await explain("nested-autodiff-device")).startswith("### BD004")
