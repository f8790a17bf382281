"""A crate kept analyzed re-analyzes only what a changed file affects."""

from __future__ import annotations

from pathlib import Path

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.analyzing import KeptSessions
from burnlint.checking import Request, check
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


TWO = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
pub fn first(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let s = 0.125f32;
    let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
pub fn second(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
"""


def ranges(crate: CrateSession) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start_byte, f.range.end_byte, f.range.start.line, f.range.start.character)
        for r in crate.results()
        for f in r.findings
    ]


def test_typing_in_a_body_moves_the_functions_after_it_without_analyzing_them() -> None:
    crate = CrateSession(ANALYZER, [CrateFile(SourceFile("src/two.rs", TWO))], Options())
    assert [c for c, *_ in ranges(crate)] == ["BD001", "BD001"]
    program = crate.program
    assert program is not None
    items = program.units[0].items
    first, second = items.functions
    kept = program.summary(second)
    for typed in ("0.1257f32;\n    let t = 1;", "0.12f32;"):
        old = crate.files[0].source
        text = old.text.replace(old.text[old.text.index("0.12") :].split(";")[0] + ";", typed, 1)
        dropped = crate.update(0, SourceFile("src/two.rs", text, previous=old))
        # Only the edited body is analyzed again; the file's items are the same objects.
        assert dropped == {first.uid}
        assert program.units[0].items is items
        assert program.summary(second) is kept
        fresh = CrateSession(ANALYZER, [CrateFile(SourceFile("src/two.rs", text))], Options())
        assert ranges(crate) == ranges(fresh)


def test_watch_sessions_take_only_the_changed_files(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "w"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    lib = tmp_path / "src" / "lib.rs"
    lib.write_text(TWO)
    kept = KeptSessions()
    request = Request((str(tmp_path),), sessions=kept)
    found = check(ANALYZER, request).results
    assert [f.code for r in found for f in r.findings] == ["BD001", "BD001"]
    lib.write_text(TWO.replace("0.125f32;", "0.125f32;\n    let t = 1;"))
    again = check(ANALYZER, request)
    fresh = check(ANALYZER, Request((str(tmp_path),)))
    assert [(r.path, r.findings) for r in again.results] == [
        (r.path, r.findings) for r in fresh.results
    ]
    sessions = list(kept._kept.values())  # pyright: ignore[reportPrivateUsage]
    assert len(sessions) == 1
    lib.write_text(TWO.replace("0.125f32;", "0.5f32;"))
    third = check(ANALYZER, request)
    # The crate's session was updated in place, not built again.
    assert list(kept._kept.values()) == sessions  # pyright: ignore[reportPrivateUsage]
    assert [(r.path, r.findings) for r in third.results] == [
        (r.path, r.findings) for r in check(ANALYZER, Request((str(tmp_path),))).results
    ]


def test_a_moved_function_that_makes_closures_keeps_its_analysis() -> None:
    # A closure value names its closure by its offset within the function, so the analysis
    # kept after a move still names the right closure: the results equal a fresh analysis.
    text = TWO.replace(
        "dispatch::q_matmul(x, q, Ctx::Disabled)\n}\n",
        "(|| dispatch::q_matmul(x, q, Ctx::Disabled))()\n}\n",
    )
    crate = CrateSession(ANALYZER, [CrateFile(SourceFile("src/two.rs", text))], Options())
    ranges(crate)
    assert crate.program is not None
    first, second = crate.program.units[0].items.functions
    old = crate.files[0].source
    moved = text.replace("0.125f32;", "0.1257f32;", 1)
    dropped = crate.update(0, SourceFile("src/two.rs", moved, previous=old))
    assert dropped == {first.uid}
    assert crate.program.units[0].items.functions[1].uid == second.uid
    fresh = CrateSession(ANALYZER, [CrateFile(SourceFile("src/two.rs", moved))], Options())
    assert ranges(crate) == ranges(fresh)


FIELD_CRATE = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

pub struct Head {
    ctx: Ctx,
}

impl Head {
    pub fn new() -> Self {
        Head { ctx: Ctx::Disabled }
    }

    pub fn run(&self, q: DispatchTensor, d: TensorData) -> DispatchTensor {
        let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(d, &device);
        dispatch::q_matmul(x, q, self.ctx)
    }
}

pub fn unrelated(a: u32) -> u32 {
    a + 1
}
"""


def _field_session(text: str) -> CrateSession:
    return CrateSession(ANALYZER, [CrateFile(SourceFile("src/lib.rs", text))], Options())


def test_an_edit_in_a_program_with_fields_reanalyzes_only_what_it_changes() -> None:
    """Fields hold the join of what every analysis stored: an edit takes the edited
    function's stores out and checks only the readers of fields that changed (it used to drop
    every writer and reader of every field at each keystroke)."""
    crate = _field_session(FIELD_CRATE)
    assert codes(crate) == [("src/lib.rs", "BD001")]
    assert crate.program is not None
    uids = {d.name: d.uid for d in crate.program.units[0].items.functions}
    edited = FIELD_CRATE.replace("a + 1", "a + 2")
    assert crate.update(0, SourceFile("src/lib.rs", edited)) == {uids["unrelated"]}
    assert codes(crate) == [("src/lib.rs", "BD001")]


def test_a_store_edited_away_leaves_the_field_and_its_reader() -> None:
    """The writer changes what it stores: the field's value is rebuilt from what the other
    analyses stored, the reader is analyzed again, and the result is a fresh analysis'."""
    crate = _field_session(FIELD_CRATE)
    assert codes(crate) == [("src/lib.rs", "BD001")]
    enabled = FIELD_CRATE.replace("Ctx::Disabled }", "Ctx::Enabled(Default::default()) }")
    crate.update(0, SourceFile("src/lib.rs", enabled))
    assert codes(crate) == codes(_field_session(enabled)) == []
    crate.update(0, SourceFile("src/lib.rs", FIELD_CRATE))
    assert codes(crate) == codes(_field_session(FIELD_CRATE)) == [("src/lib.rs", "BD001")]
