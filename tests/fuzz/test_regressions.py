"""Defects the fuzz tests found, pinned as plain tests (each ran red before its fix)."""

from __future__ import annotations

import time

import pytest
from invariants import ANALYZER, CASES, analyze, check_ranges

from burnlint.analysis import cputime
from burnlint.analysis.engine import Options
from burnlint.analysis.syntax.source import SourceFile

pytestmark = pytest.mark.timeout(60)

HEAD = "use burn::backend::DispatchAutodiffContext as Ctx;\n"
SOURCE = (
    "    let mut x = Dispatch::float_from_data(d, &DispatchDevice::autodiff("
    "DispatchDevice::Flex(Default::default())));\n"
)
SINK = "    dispatch::q_matmul(x, q, Ctx::Disabled);\n"


def test_lone_surrogates_are_read_as_replacement_characters() -> None:
    """`SourceFile` raised UnicodeEncodeError on a lone surrogate (an editor's JSON `\\ud800`
    escape, a `surrogateescape` decode): every analysis of such a text failed."""
    CASES["regressions"] += 1
    text = (
        HEAD
        + 'fn f(q: DispatchTensor, d: TensorData) {\n let s = "\ud800";\n'
        + SOURCE
        + SINK
        + "}\n"
    )
    source = SourceFile("t.rs", text)
    assert source.text == text.replace("\ud800", "\ufffd")
    assert len(source.text) == len(text)  # one character for one: columns count the same
    analyzed = analyze(text)
    assert [f.code for f in analyzed.result.findings] == ["BD001"]
    check_ranges(analyzed)


def _slow_function(name: str, statements: int) -> str:
    return (
        f"fn {name}(q: DispatchTensor, d: TensorData) {{\n"
        + SOURCE
        + "    if c { x = x.clone(); }\n" * statements
        + SINK
        + "}\n"
    )


def test_the_budget_is_per_file_not_per_function() -> None:
    """Each function (and each nested summary) got a fresh budget: four slow functions took
    four budgets, ten times `budget_seconds` in all."""
    CASES["regressions"] += 1
    text = HEAD + "".join(_slow_function(f"f{i}", 10_000) for i in range(4))
    start = time.monotonic()
    result = ANALYZER.analyze(SourceFile("t.rs", text), Options(budget_seconds=0.5))
    assert time.monotonic() - start < 0.5 + 2.0
    stopped = [note for note in result.notes if note.startswith("analysis stopped")]
    assert len(stopped) == 1, result.notes


def test_the_budget_clock_stands_still_while_the_process_waits() -> None:
    """The budget was wall-clock time: on a busy machine (a loaded CI runner) burn-mamba's
    test files ran out of their 5 s while the process was merely waiting for a CPU."""
    start, wall = cputime.now(), time.monotonic()
    time.sleep(0.3)
    assert time.monotonic() - wall >= 0.3
    assert cputime.now() - start < 0.1


def test_lowering_counts_against_the_budget() -> None:
    """Lowering a function to the analyzer's IR was not budgeted: a megabyte-long expression
    took three budgets before interpretation even started."""
    CASES["regressions"] += 1
    body = "    let v = " + "x + " * 250_000 + "x;\n"
    text = HEAD + "fn f(q: DispatchTensor, d: TensorData) {\n" + SOURCE + body + SINK + "}\n"
    start = time.monotonic()
    result = ANALYZER.analyze(SourceFile("t.rs", text), Options(budget_seconds=0.5))
    assert time.monotonic() - start < 0.5 + 2.0
    assert any(note.startswith("analysis stopped") for note in result.notes)


def test_a_new_version_of_a_file_gets_a_new_budget() -> None:
    """The budget is per file and run: after an update (the language server's edits), the
    re-analysis has the whole budget again."""
    CASES["regressions"] += 1
    from burnlint.analysis.engine import CrateFile, CrateSession

    slow = HEAD + _slow_function("f", 10_000)
    session = CrateSession(
        ANALYZER, [CrateFile(SourceFile("t.rs", slow))], Options(budget_seconds=0.3)
    )
    [first] = session.results()
    # The first run stopped at its deadline: a deadline kept from it would have passed already.
    assert any(note.startswith("analysis stopped") for note in first.notes)
    quick = HEAD + "fn g(q: DispatchTensor, d: TensorData) {\n" + SOURCE + SINK + "}\n"
    session.update(0, SourceFile("t.rs", quick))
    [second] = session.results()
    assert [f.code for f in second.findings] == ["BD001"]
    assert not second.notes
