"""Workspace behaviour: the `workspace` scope scans every crate with progress and publishes
closed files; file watchers are registered where the client allows it, and a change on disk
re-publishes the open files that depend on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import (
    EDITORS,
    HELPERS,
    MODEL,
    WAIT,
    Client,
    diagnostics,
    open_doc,
    pushed,
    start,
    until,
    write_crate,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)

LIB = "pub mod helpers;\npub mod model;\n"
FIXED_HELPERS = HELPERS.replace(
    "Ctx::default()", "Ctx::Enabled(GradientCheckpointingStrategy::Disabled)"
).replace("as Ctx,", "as Ctx, GradientCheckpointingStrategy,")
PLAIN = "pub fn add(a: i32, b: i32) -> i32 { a + b }\n"


def two_crates(root: Path) -> tuple[Path, Path]:
    """A workspace folder with a buggy crate and a clean one."""
    buggy = write_crate(
        root / "buggy", {"src/lib.rs": LIB, "src/helpers.rs": HELPERS, "src/model.rs": MODEL}
    )
    clean = write_crate(root / "clean", {"src/lib.rs": PLAIN}, name="clean")
    return buggy, clean


@pytest.mark.parametrize("editor", EDITORS)
async def test_workspace_scope_scans_every_crate_with_progress(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    buggy, _ = two_crates(tmp_path)
    await start(lsp, editor, settings={"scope": "workspace"}, folders=[tmp_path])
    # The model file was never opened, yet its finding is published.
    model = (buggy / "src" / "model.rs").as_uri()
    assert [d.code for d in await pushed(lsp, model)] == ["BD001"]

    def ended() -> bool:
        return any(
            isinstance(r, types.WorkDoneProgressEnd)
            for reports in lsp.progress_reports.values()
            for r in reports
        )

    await until(ended, "the end of the workspace progress")
    [reports] = lsp.progress_reports.values()
    begin, *steps, end = reports
    assert isinstance(begin, types.WorkDoneProgressBegin) and begin.cancellable
    assert len(steps) == 2 and all(isinstance(s, types.WorkDoneProgressReport) for s in steps)
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "2 of 2 crates analyzed"
    # Clean files get no (empty) publication at all.
    clean = {p.uri for p in lsp.published if not p.diagnostics}
    assert not clean
    # Opening the file hands it over to the client's usual diagnostics.
    uri = open_doc(lsp, buggy / "src" / "model.rs")
    assert [d.code for d in await diagnostics(lsp, uri, version=1)] == ["BD001"]


@pytest.mark.parametrize("editor", EDITORS)
async def test_disk_changes_republish_dependent_open_files(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    buggy, _ = two_crates(tmp_path)
    await start(lsp, editor, folders=[tmp_path])
    model = open_doc(lsp, buggy / "src" / "model.rs")
    assert [d.code for d in await diagnostics(lsp, model, version=1)] == ["BD001"]
    helpers = buggy / "src" / "helpers.rs"
    helpers.write_text(FIXED_HELPERS, encoding="utf-8")
    mark = len(lsp.published)
    if editor == "visual-studio-code":
        await until(lambda: bool(lsp.registrations), "the watcher registration", WAIT)
        [watch] = [
            r for r in lsp.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        ]
        options = watch.register_options
        assert isinstance(options, dict)
        assert {w["globPattern"] for w in options["watchers"]} == {
            "**/*.rs",
            "**/Cargo.toml",
            "**/Cargo.lock",
            "**/burnlint.toml",
        }
        change = types.FileEvent(uri=helpers.as_uri(), type=types.FileChangeType.Changed)
        lsp.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([change]))
    else:
        # Neovim on Linux cannot register watchers; saving a file re-reads its crate instead.
        assert not [
            r for r in lsp.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        ]
        lsp.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(model))
        )
    assert await diagnostics(lsp, model, mark, version=1) == []
