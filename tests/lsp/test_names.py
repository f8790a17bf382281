"""Re-checking callers when a helper they reach by name resolution changes: through a glob
import, through a (glob and renaming) re-export, and in another workspace member (a `path`
dependency). The helper's file is edited as an unsaved buffer; the caller's open file must get
its diagnostics again, in both directions (the bug goes away, then comes back)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import (
    EDITORS,
    Client,
    change_doc,
    diagnostics,
    open_doc,
    pull,
    pushed,
    replace_all,
    start,
    until,
    write_crate,
)
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

pytestmark = pytest.mark.timeout(30)

# The captured VS Code and Neovim capabilities both get pushed diagnostics; `neovim+refresh`
# pulls, so the pull path (refresh, then pull again) is covered too.
CLIENTS = [*EDITORS, "neovim+refresh"]

DISABLED = "Ctx::Disabled"
ENABLED = "Ctx::Enabled(GradientCheckpointingStrategy::Disabled)"
HELPERS = """use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, GradientCheckpointingStrategy};
pub fn ad_device() -> DispatchDevice { DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
pub fn eval_ctx() -> Ctx { CTX }
"""
"""The helpers; `CTX` is replaced by the context `eval_ctx()` returns."""

GLOB_MODEL = """use burn::backend::{Dispatch, DispatchTensor};
use burn::tensor::TensorData;
use crate::common::*;
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    dispatch::q_matmul(Dispatch::float_from_data(d, &ad_device()), q, eval_ctx())
}
"""
PRELUDE = """pub use crate::ops::*;
pub use crate::ops::eval_ctx as ctx_for_eval;
"""
"""A glob re-export (`ad_device`) and a renaming one (`ctx_for_eval`)."""
PRELUDE_MODEL = """use burn::backend::{Dispatch, DispatchTensor};
use burn::tensor::TensorData;
use crate::prelude::*;
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    dispatch::q_matmul(Dispatch::float_from_data(d, &ad_device()), q, ctx_for_eval())
}
"""
WORKSPACE = '[workspace]\nmembers = ["core", "app"]\nresolver = "2"\n'
CORE_MANIFEST = '[package]\nname = "render-core"\nversion = "0.1.0"\nedition = "2021"\n'
APP_MANIFEST = """[package]
name = "app"
version = "0.1.0"
edition = "2021"

[dependencies]
render-core = { path = "../core" }
"""
APP = """use burn::backend::{Dispatch, DispatchTensor};
use burn::tensor::TensorData;
use render_core::*;
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    dispatch::q_matmul(Dispatch::float_from_data(d, &ad_device()), q, render_core::eval_ctx())
}
"""
"""`ad_device` by a glob import of the other member, `eval_ctx` by its path."""


def helpers(ctx: str) -> str:
    return HELPERS.replace("CTX", ctx)


async def codes_after_edit(lsp: Client, caller: str, mark: int, refreshes: int) -> list[str]:
    """The caller's diagnostic codes once the server re-checked it after an edit elsewhere (the
    caller's own version stays 1). A push client gets them pushed; a pull client is asked to
    pull again (`workspace/diagnostic/refresh`), then pulls."""
    if lsp.pull:
        await until(
            lambda: lsp.diagnostic_refresh_count > refreshes,
            f"workspace/diagnostic/refresh after editing a helper of {caller}",
        )
        report = await pull(lsp, caller)
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return [str(d.code) for d in report.items]
    return [str(d.code) for d in await pushed(lsp, caller, after=mark, version=1)]


async def flip_helper(lsp: Client, helper: str, caller: str) -> None:
    """With `caller` showing BD001 because `helper`'s `eval_ctx()` is `Disabled`: make it
    `Enabled` (BD001 goes), then `Disabled` again (BD001 comes back), unsaved each time."""
    for version, ctx, expected in ((2, ENABLED, []), (3, DISABLED, ["BD001"])):
        mark, refreshes = len(lsp.published), lsp.diagnostic_refresh_count
        change_doc(lsp, helper, version, [replace_all(helpers(ctx))])
        try:
            codes: object = await codes_after_edit(lsp, caller, mark, refreshes)
        except AssertionError as timeout:
            codes = f"nothing ({timeout})"
        assert codes == expected, (
            f"after didChange of {helper} to version {version} (eval_ctx() -> {ctx}), the "
            f"caller {caller} (version 1) should have {expected}, got {codes}; published since "
            f"the edit: {[(p.uri, p.version, [d.code for d in p.diagnostics]) for p in lsp.published[mark:]]}"
        )
    assert await diagnostics(lsp, helper, version=3) == []


async def check(lsp: Client, helper: Path, caller: Path) -> None:
    """Open the helper then its caller, check the starting BD001, then flip the helper."""
    helper_uri = open_doc(lsp, helper)
    caller_uri = open_doc(lsp, caller)
    assert [d.code for d in await diagnostics(lsp, caller_uri, version=1)] == ["BD001"]
    assert await diagnostics(lsp, helper_uri, version=1) == []
    await flip_helper(lsp, helper_uri, caller_uri)


@pytest.mark.parametrize("editor", CLIENTS)
async def test_editing_a_helper_reached_by_a_glob_import_rechecks_its_caller(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    crate = write_crate(
        tmp_path / "glob",
        {
            "src/lib.rs": "pub mod common;\npub mod model;\n",
            "src/common.rs": helpers(DISABLED),
            "src/model.rs": GLOB_MODEL,
        },
    )
    await check(lsp, crate / "src" / "common.rs", crate / "src" / "model.rs")


@pytest.mark.parametrize("editor", CLIENTS)
async def test_editing_a_helper_reached_by_a_re_export_rechecks_its_caller(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    crate = write_crate(
        tmp_path / "prelude",
        {
            "src/lib.rs": "pub mod ops;\npub mod prelude;\npub mod model;\n",
            "src/ops.rs": helpers(DISABLED),
            "src/prelude.rs": PRELUDE,
            "src/model.rs": PRELUDE_MODEL,
        },
    )
    await check(lsp, crate / "src" / "ops.rs", crate / "src" / "model.rs")


@pytest.mark.parametrize("editor", CLIENTS)
async def test_editing_a_helper_in_another_workspace_member_rechecks_its_caller(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    root = tmp_path / "ws"
    files = {
        "Cargo.toml": WORKSPACE,
        "core/Cargo.toml": CORE_MANIFEST,
        "core/src/lib.rs": helpers(DISABLED),
        "app/Cargo.toml": APP_MANIFEST,
        "app/src/lib.rs": APP,
    }
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    await check(lsp, root / "core" / "src" / "lib.rs", root / "app" / "src" / "lib.rs")


EXAMPLE_MAIN = """mod ops;
use burn::backend::{Dispatch, DispatchTensor};
use burn::tensor::TensorData;
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    dispatch::q_matmul(Dispatch::float_from_data(d, &demo::tracked()), q, ops::eval_ctx())
}
fn main() {}
"""
"""An example in a folder: the library's device by the package's name, the context from its
own `ops` module (another example has an `ops` module too)."""


@pytest.mark.parametrize("editor", CLIENTS)
async def test_editing_an_example_module_rechecks_the_example(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    crate = write_crate(
        tmp_path / "targets",
        {
            "src/lib.rs": "use burn::backend::DispatchDevice;\n"
            "pub fn tracked() -> DispatchDevice {"
            " DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }\n",
            "examples/train/main.rs": EXAMPLE_MAIN,
            "examples/train/ops.rs": helpers(DISABLED),
            "examples/serve/main.rs": EXAMPLE_MAIN,
            "examples/serve/ops.rs": helpers(ENABLED),
        },
    )
    train = crate / "examples" / "train"
    await check(lsp, train / "ops.rs", train / "main.rs")


SHARED_MAIN = """#[path = "../common/mod.rs"]
mod common;
use burn::backend::{Dispatch, DispatchTensor};
use burn::tensor::TensorData;
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    dispatch::q_matmul(Dispatch::float_from_data(d, &common::ad_device()), q, common::eval_ctx())
}
fn main() {}
"""
"""An example that includes the examples' shared code by path (two examples do)."""


@pytest.mark.parametrize("editor", CLIENTS)
async def test_editing_code_two_examples_include_rechecks_the_second(
    lsp: Client, editor: str, tmp_path: Path
) -> None:
    await start(lsp, editor)
    crate = write_crate(
        tmp_path / "shared",
        {
            "src/lib.rs": "pub fn nothing() {}\n",
            "examples/common/mod.rs": helpers(DISABLED),
            "examples/first/main.rs": SHARED_MAIN,
            "examples/second/main.rs": SHARED_MAIN,
        },
    )
    examples = crate / "examples"
    await check(lsp, examples / "common" / "mod.rs", examples / "second" / "main.rs")
