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
    plain = crate.program.units[2].items.functions[0].uid
    dropped = crate.update(2, SourceFile("src/other.rs", OTHER.replace("d, &", "d , &")))
    assert dropped == {plain}
    assert codes(crate) == [("src/model.rs", "BD001")]


def test_a_comment_after_every_function_drops_nothing() -> None:
    crate = session()
    codes(crate)
    assert crate.update(2, SourceFile("src/other.rs", OTHER + "\n// edited\n")) == set()
    assert codes(crate) == [("src/model.rs", "BD001")]


def test_a_callee_edit_that_keeps_its_summary_keeps_its_callers_analysis() -> None:
    helpers = HELPERS.replace(
        "{ DispatchDevice::autodiff", "{ let _s = 0.125f32; DispatchDevice::autodiff"
    )
    files = [
        CrateFile(SourceFile("src/helpers.rs", helpers), ("crate", "helpers")),
        CrateFile(SourceFile("src/model.rs", MODEL), ("crate", "model")),
    ]
    crate = CrateSession(ANALYZER, files, Options())
    assert codes(crate) == [("src/model.rs", "BD001")]
    program = crate.program
    assert program is not None
    head = program.units[1].items.functions[0]
    before = program.summary(head)
    crate.update(0, SourceFile("src/helpers.rs", helpers.replace("0.125", "0.126")))
    assert codes(crate) == [("src/model.rs", "BD001")]
    assert program.summary(program.units[1].items.functions[0]) is before


def test_old_versions_are_freed() -> None:
    crate = session()
    codes(crate)
    program = crate.program
    assert program is not None
    count = len(program.decls)
    for n in range(20):
        text = OTHER.replace("d, &", "d," + " " * (n % 3) + " &")
        crate.update(2, SourceFile("src/other.rs", text, previous=crate.files[2].source))
        codes(crate)
    live = {d.uid for d in program.decls}
    assert len(live) == count
    assert set(program._decls) == live  # pyright: ignore[reportPrivateUsage]
    assert set(program._summaries) <= live  # pyright: ignore[reportPrivateUsage]


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
