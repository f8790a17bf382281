"""Bad input never crashes the analyzer: deep nesting, broken syntax, budgets, odd characters."""

from __future__ import annotations

import time

import pytest

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.syntax.source import Position, SourceFile
from burnlint.kb.load import load_kb

ANALYZER = Analyzer(load_kb())
HEADER = "use burn::backend::DispatchAutodiffContext as Ctx;\n"
SINK = "let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));\n"


def analyze(text: str, **options: object) -> list[str]:
    result = ANALYZER.analyze(SourceFile("t.rs", text), Options(**options))  # type: ignore[arg-type]
    return [f.code for f in result.findings]


@pytest.mark.parametrize(
    ("opening", "closing"),
    [("(", ")"), ("{ ", " }"), ("[", "]"), ("Some(", ")"), ("g(", ")"), ("(1, ", ",)")],
)
def test_deep_nesting_does_not_hit_the_recursion_limit(opening: str, closing: str) -> None:
    depth = 5000
    body = opening * depth + "dispatch::q_matmul(x, q, Ctx::Disabled)" + closing * depth
    text = HEADER + "fn f(q: DispatchTensor, d: TensorData) {\n" + SINK + f"let _y = {body};\n}}\n"
    start = time.monotonic()
    codes = analyze(text)
    assert time.monotonic() - start < 30
    assert codes in ([], ["BD001"])


def test_deeply_nested_blocks_still_find_the_bug() -> None:
    depth = 3000
    text = (
        HEADER
        + "fn f(q: DispatchTensor, d: TensorData) {\n"
        + SINK
        + "{ " * depth
        + "dispatch::q_matmul(x, q, Ctx::Disabled);"
        + " }" * depth
        + "\n}\n"
    )
    assert analyze(text) == ["BD001"]


@pytest.mark.parametrize(
    "text",
    [
        "fn f( {",
        "fn f() { let x = ; dispatch::q_matmul(x, q, Ctx::Disabled) ",
        "}}}}{{{{",
        "fn f() { match x { A => , } }",
        "\x00\x00fn f() {}\x00",
        "fn f() {\r\n let x = 1;\r dispatch::q_matmul(a, b, c)\n}",
        "impl { fn }",
        "fn f() { let x = Dispatch::float_from_data(d, &ad); x.autodiff = ; }",
        "x" * 100_000,
    ],
)
def test_malformed_input_is_tolerated(text: str) -> None:
    result = ANALYZER.analyze(SourceFile("t.rs", text), Options())
    for finding in result.findings:
        assert 0 <= finding.range.start_byte <= finding.range.end_byte <= len(text.encode())


def test_budget_stops_analysis_with_a_note() -> None:
    branches = "\n".join(
        f"    if c{i} {{ x = Dispatch::float_exp(x); }} else {{ x = Dispatch::float_log(x); }}"
        for i in range(400)
    )
    text = (
        HEADER
        + "fn f(q: DispatchTensor, d: TensorData) {\n"
        + SINK
        + branches
        + "\n    dispatch::q_matmul(x, q, Ctx::Disabled);\n}\n"
    )
    result = ANALYZER.analyze(SourceFile("t.rs", text), Options(budget_seconds=0.0))
    assert any("analysis stopped" in note for note in result.notes)


def test_many_branches_finish_and_still_report() -> None:
    branches = "\n".join(f"    if c{i} {{ x = Dispatch::float_exp(x); }}" for i in range(300))
    text = (
        HEADER
        + "fn f(q: DispatchTensor, d: TensorData) {\n"
        + SINK
        + branches
        + "\n    dispatch::q_matmul(x, q, Ctx::Disabled);\n}\n"
    )
    start = time.monotonic()
    assert analyze(text) == ["BD001"]
    assert time.monotonic() - start < 10


def test_positions_count_unicode_scalars() -> None:
    source = SourceFile("t.rs", 'let s = "é😀"; x\nsecond\n')
    offset = source.data.index(b"x")
    assert source.position(offset) == Position(0, 14)
    assert source.offset(Position(0, 14)) == offset
    assert source.position(source.data.index(b"second")) == Position(1, 0)
    assert source.line_text(0) == 'let s = "é😀"; x'


def test_incremental_reparse_gives_the_same_tree_as_a_fresh_parse() -> None:
    old = SourceFile("t.rs", "fn a() { let x = 1; }\nfn b() { let é = 2; }\n")
    for new_text in (
        "fn a() { let x = 10; }\nfn b() { let é = 2; }\n",
        "fn a() { let x = 1; }\nfn b() { let é = 2; } fn c() {}\n",
        "fn b() { let é = 2; }\n",
        "",
        "fn a() { let x = 1; }\nfn b() { let é = 2; }\n",
        "fn a() { let x = 1; \n",
    ):
        incremental = SourceFile("t.rs", new_text, previous=old)
        fresh = SourceFile("t.rs", new_text)
        assert str(incremental.tree.root_node) == str(fresh.tree.root_node), new_text
        old = incremental
