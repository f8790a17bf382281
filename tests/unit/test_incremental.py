"""A crate kept analyzed re-analyzes only what a changed file affects."""

from __future__ import annotations

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

ANALYZER = Analyzer(load_kb())
HELPERS = """use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};
pub fn ad_device() -> DispatchDevice { DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
pub fn eval_ctx() -> Ctx { Ctx::default() }
"""
MODEL = """use burn::backend::{Dispatch, DispatchTensor};
use crate::helpers::{ad_device, eval_ctx};
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &ad_device());
    dispatch::q_matmul(x, q, eval_ctx())
}
"""
OTHER = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
pub fn plain(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
"""


def session() -> CrateSession:
    files = [
        CrateFile(SourceFile("src/helpers.rs", HELPERS), ("crate", "helpers")),
        CrateFile(SourceFile("src/model.rs", MODEL), ("crate", "model")),
        CrateFile(SourceFile("src/other.rs", OTHER), ("crate", "other")),
    ]
    return CrateSession(ANALYZER, files, Options())


def codes(crate: CrateSession) -> list[tuple[str, str]]:
    return [(r.path, f.code) for r in crate.results() for f in r.findings]


def test_cross_file_finding_and_unrelated_edit_reanalyzes_little() -> None:
    crate = session()
    assert codes(crate) == [("src/model.rs", "BD001")]
    assert crate.program is not None
    model_uids = {d.uid for d in crate.program.units[1].items.functions}
    dropped = crate.update(2, SourceFile("src/other.rs", OTHER + "\n// edited\n"))
    assert dropped and not dropped & model_uids
    assert codes(crate) == [("src/model.rs", "BD001")]


def test_editing_a_helper_reanalyzes_its_callers() -> None:
    crate = session()
    assert codes(crate) == [("src/model.rs", "BD001")]
    assert crate.program is not None
    model_uids = {d.uid for d in crate.program.units[1].items.functions}
    fixed = HELPERS.replace(
        "Ctx::default()", "Ctx::Enabled(GradientCheckpointingStrategy::Disabled)"
    )
    fixed = fixed.replace("as Ctx,", "as Ctx, GradientCheckpointingStrategy,")
    dropped = crate.update(0, SourceFile("src/helpers.rs", fixed))
    assert model_uids <= dropped
    assert codes(crate) == []


def test_same_text_drops_nothing() -> None:
    crate = session()
    codes(crate)
    assert crate.update(1, SourceFile("src/model.rs", MODEL)) == set()
