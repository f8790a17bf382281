"""A crate kept analyzed across edits reports exactly what a fresh analysis of the final text does.

The edits land anywhere in the example crate's files: inside bodies (a literal, a context
switched on or off, a new statement), in signatures and `use` lines, as raw insertions and
deletions that break the syntax, or typed right after a `{` (the text after moves, the items
stay: the functions after it keep their analyses and move); a session takes them one by one as
the language server does (each version re-parsed from the previous one).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st
from invariants import ANALYZER, CASES, EXERCISED

from burnlint.analysis.engine import CrateFile, CrateSession, FileResult, Options
from burnlint.analysis.states import StateCache, file_states
from burnlint.analysis.syntax.source import SourceFile
from burnlint.loading import load_crate

CRATE = Path(__file__).resolve().parents[2] / "examples" / "dispatch-demo"
LOADED = load_crate(CRATE / "src" / "lib.rs", {}, everything=True)
HELPERS = """use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, GradientCheckpointingStrategy};
pub fn ad_device() -> DispatchDevice { DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
pub fn eval_ctx() -> Ctx { let _s = 0.125f32; Ctx::default() }
pub fn wrap_ctx() -> Ctx { eval_ctx() }
"""
MODEL = """use burn::backend::{Dispatch, DispatchTensor};
use crate::helpers::{ad_device, eval_ctx, wrap_ctx};
pub fn head(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &ad_device());
    dispatch::q_matmul(x, q, wrap_ctx())
}
pub fn tail(q: DispatchTensor, d: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(d, &ad_device());
    dispatch::q_matmul(x, q, eval_ctx())
}
"""
CALLS = [
    CrateFile(SourceFile("src/helpers.rs", HELPERS), ("crate", "helpers")),
    CrateFile(SourceFile("src/model.rs", MODEL), ("crate", "model")),
]
"""Calls across files and through a wrapper, without struct fields: what a helper's edit
changes reaches its callers only through their summaries."""
SNIPPETS = [
    "x",
    "1",
    " ",
    "\n",
    "_",
    ";",
    "}",
    "{",
    "let y = 2;",
    "DispatchAutodiffContext::Disabled",
    "DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled)",
    "// note\n",
    "fn extra() {}\n",
]
SWAPS = [
    ("Enabled(GradientCheckpointingStrategy::Disabled)", "Disabled"),
    ("0.125", "0.25"),
    ("Ctx::default()", "Ctx::Enabled(GradientCheckpointingStrategy::Disabled)"),
    ("ad_device()", "DispatchDevice::Flex(Default::default())"),
]

PADS = ["  ", "\n", "/* moved */", "let _pad = 1;", "\n\n// two lines\n"]
"""Typed right after a `{`: mostly inside a body, so the text after moves and nothing else
changes (functions after it keep their analyses and move)."""

edit = st.tuples(
    st.integers(0, 4),
    st.floats(0, 1),
    st.one_of(
        st.tuples(st.just("insert"), st.sampled_from(SNIPPETS)),
        st.tuples(st.just("pad"), st.sampled_from(PADS)),
        st.tuples(st.just("delete"), st.integers(1, 6)),
        st.tuples(st.just("swap"), st.integers(0, len(SWAPS) - 1)),
    ),
)


def apply(text: str, where: float, change: tuple[str, object]) -> str:
    """`text` with one edit at the relative position `where`."""
    kind, what = change
    at = int(where * len(text))
    if kind == "insert":
        return text[:at] + str(what) + text[at:]
    if kind == "pad":
        found = text.find("{", at)
        return text if found < 0 else text[: found + 1] + str(what) + text[found + 1 :]
    if kind == "delete":
        assert isinstance(what, int)
        return text[:at] + text[at + what :]
    assert isinstance(what, int)
    old, new = SWAPS[what]
    found = text.find(old, at)
    if found < 0:
        old, new = new, old
        found = text.find(old, at)
    return text if found < 0 else text[:found] + new + text[found + len(old) :]


def outcome(results: list[FileResult]) -> list[object]:
    return [(r.path, r.findings, r.notes, r.suppressed, r.unused) for r in results]


def fresh(files: list[CrateFile], example: bool) -> list[object]:
    clean = [CrateFile(SourceFile(f.source.path, f.source.text), f.module, f.target) for f in files]
    crate = LOADED.crate if example else None
    return outcome(CrateSession(ANALYZER, clean, Options(), crate).results())


# Deleting the `i` of an `if` in infer.rs: tree-sitter recovered from the error differently in
# the re-used tree than in a fresh parse (found by the release profile).
@example(True, [(1, 0.0, ("swap", 0)), (1, 0.766678069845043, ("delete", 1))])
@given(st.booleans(), st.lists(edit, min_size=1, max_size=8))
def test_incremental_results_equal_a_fresh_analysis(
    example: bool,
    edits: list[tuple[int, float, tuple[str, object]]],
) -> None:
    CASES["incremental equals fresh"] += 1
    if example:
        session = CrateSession(ANALYZER, list(LOADED.files), Options(), LOADED.crate)
    else:
        session = CrateSession(ANALYZER, list(CALLS), Options())
    session.results()
    for index, where, change in edits:
        index %= len(session.files)
        old = session.files[index].source
        text = apply(old.text, where, change)
        program = session.program
        items = program.units[index].items if program is not None else None
        session.update(index, SourceFile(old.path, text, previous=old))
        if program is not None and text != old.text:
            if len(text) != len(old.text) and program.analyzed > 0:
                EXERCISED["moving edits that kept analyses"] += 1
            if program.units[index].items is items:
                EXERCISED["body edits that kept the items"] += 1
        kept = outcome(session.results())
        assert kept == fresh(session.files, example)
    if any(r.findings for r in session.results()):
        EXERCISED["incremental with findings"] += 1


@given(st.booleans(), st.booleans(), st.lists(edit, min_size=1, max_size=8))
def test_states_kept_across_edits_equal_states_read_afresh(
    example: bool,
    with_origins: bool,
    edits: list[tuple[int, float, tuple[str, object]]],
) -> None:
    """A whole-file read of names' states (inlay hints) reuses each binding log's states from
    the last read while they hold: after every edit it gives exactly what a read with nothing
    kept gives."""
    CASES["kept states equal fresh"] += 1
    files = list(LOADED.files) if example else list(CALLS)
    session = CrateSession(ANALYZER, files, Options(states=True), LOADED.crate if example else None)
    session.results()
    kept = StateCache()
    for index, where, change in [(0, 0.0, ("insert", "")), *edits]:
        index %= len(session.files)
        old = session.files[index].source
        text = apply(old.text, where, change)
        session.update(index, SourceFile(old.path, text, previous=old))
        session.results()
        program = session.program
        if program is None:
            continue
        for file, unit in enumerate(program.units):
            if not unit.target:
                continue
            again = file_states(program, file, ANALYZER.api, cache=kept, with_origins=with_origins)
            fresh = file_states(
                program, file, ANALYZER.api, cache=StateCache(), with_origins=with_origins
            )
            assert again == fresh
            if again:
                EXERCISED["whole-file state reads with states"] += 1
