"""Properties of the analyzer and the fixer over generated programs: valid and broken Rust around
burn's dispatch vocabulary, mutated corpus fixtures, and structureless text.

The default (`ci`) profile is derandomized and quick; a long random run for releases:

    BURNLINT_FUZZ=release pytest tests/fuzz -q
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import (
    ANALYZER,
    BUDGET,
    CASES,
    EXERCISED,
    SLACK,
    analyze,
    check_edits_disjoint,
    check_ranges,
    fix_once,
    fix_to_fixpoint,
    parse_errors,
    syntax_errors,
)
from rustgen import any_program, broken_program, mutated_fixture, program

from burnlint.analysis.rules.edits import choose_fixes
from burnlint.checking import Request, check
from burnlint.config import Overrides

texts = st.one_of(program, broken_program, mutated_fixture(), any_program)


@given(texts)
def test_analysis_never_raises(text: str) -> None:
    CASES["analysis never raises"] += 1
    if analyze(text).result.findings:
        EXERCISED["with findings"] += 1


@given(texts)
def test_analysis_finishes_within_the_budget(text: str) -> None:
    CASES["analysis within budget"] += 1
    analyzed = analyze(text)
    assert analyzed.seconds < BUDGET + SLACK


@given(texts)
def test_ranges_lie_inside_the_file_on_character_boundaries(text: str) -> None:
    CASES["ranges valid"] += 1
    check_ranges(analyze(text))


@given(texts, st.booleans())
def test_edits_of_the_chosen_fixes_do_not_overlap(text: str, safe_only: bool) -> None:
    CASES["edits disjoint"] += 1
    analyzed = analyze(text)
    check_edits_disjoint(
        choose_fixes(analyzed.result.findings, safe_only=safe_only), len(analyzed.source.data)
    )


# Fixes matter where there are findings: the corpus mutations and generated programs have most.
fixable = st.one_of(mutated_fixture(), program, broken_program)


@given(fixable)
def test_fixes_add_no_syntax_errors_and_the_fixed_text_analyzes(text: str) -> None:
    CASES["fixes keep syntax"] += 1
    analyzed = analyze(text)
    before = syntax_errors(analyzed.source.tree)
    fixed, applied = fix_once(analyzed.source.text)
    if applied:
        EXERCISED["fixes applied"] += 1
    assert parse_errors(fixed) <= before, fixed
    check_ranges(analyze(fixed))


@given(fixable, st.booleans())
def test_fixing_again_changes_nothing(text: str, unsafe: bool) -> None:
    CASES["fix idempotent"] += 1
    once = fix_to_fixpoint(text, unsafe)
    assert once.converged, f"fixes kept changing the text for {once.rounds} rounds"
    if once.rounds > 1:
        EXERCISED["fixed to a fixpoint in several rounds"] += 1
    twice = fix_to_fixpoint(once.text, unsafe)
    assert twice.text == once.text


@given(data=st.one_of(texts, st.binary(max_size=300)))
def test_cli_check_of_a_file_never_raises(
    tmp_path_factory: pytest.TempPathFactory, data: str | bytes
) -> None:
    CASES["cli check never raises"] += 1
    path = tmp_path_factory.getbasetemp() / "fuzz-check.rs"
    raw = data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass")
    path.write_bytes(raw)
    run = check(ANALYZER, Request((str(path),), Overrides(isolated=True)))
    assert run.files == 1 or run.problems
    for result in run.results:
        for finding in result.findings:
            assert 0 <= finding.range.start_byte <= finding.range.end_byte <= len(raw)
