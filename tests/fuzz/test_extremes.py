"""The extreme inputs, as explicit cases rather than random ones: 10,000-deep nesting of every
kind, megabyte lines, NUL bytes, lone surrogates, invalid UTF-8, odd newlines, non-ASCII
identifiers. Each must satisfy the same properties as the generated programs."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from invariants import (
    ANALYZER,
    BUDGET,
    CASES,
    SLACK,
    Analyzed,
    analyze,
    check_edits_disjoint,
    check_ranges,
    fix_once,
    fix_to_fixpoint,
    parse_errors,
    syntax_errors,
)
from rustgen import ROOT

from burnlint.analysis.rules.edits import choose_fixes
from burnlint.checking import Request, check
from burnlint.config import Overrides

pytestmark = pytest.mark.timeout(120)

HEAD = (
    "use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};\n"
    "fn f(q: DispatchTensor, d: TensorData) -> DispatchTensor {\n"
    "    let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));\n"
)
SINK = "dispatch::q_matmul(x, q, Ctx::Disabled)"
DEEP = 10_000
MEGABYTE = 1_000_000
QUANT = (ROOT / "examples" / "dispatch-demo" / "src" / "quant.rs").read_text(encoding="utf-8")


def _body(inner: str) -> str:
    return HEAD + inner + "\n}\n"


def _invalid_utf8(how: str) -> str:
    data = bytearray(QUANT.encode("utf-8"))
    for at in range(7, len(data), 97):
        data[at] = 0xFF if at % 2 else 0x80
    return bytes(data).decode("utf-8", errors=how)


EXTREMES: dict[str, Callable[[], str]] = {
    "parentheses-10k": lambda: _body("let y = " + "(" * DEEP + SINK + ")" * DEEP + ";"),
    "blocks-10k": lambda: _body("{ " * DEEP + SINK + ";" + " }" * DEEP),
    "ifs-10k": lambda: _body("if c { " * DEEP + SINK + ";" + " }" * DEEP),
    "closures-10k": lambda: _body("let g = " + "|a| " * DEEP + SINK + ";"),
    "calls-10k": lambda: _body("let y = " + "g(" * DEEP + SINK + ")" * DEEP + ";"),
    "match-5k": lambda: _body("match a { _ => " * 5000 + SINK + " }" * 5000 + ";"),
    "generics-10k": lambda: _body("let v: " + "Vec<" * DEEP + "u8" + ">" * DEEP + " = x;\n" + SINK),
    "macro-10k": lambda: _body("m!" + "(" * DEEP + ")" * DEEP + ";\n" + SINK),
    "unclosed-parentheses-10k": lambda: _body("let y = " + "(" * DEEP + SINK),
    "unopened-braces-10k": lambda: "}" * DEEP + _body(SINK),
    "method-chain-1MB-line": lambda: _body(
        "let v = x" + ".clone()" * (MEGABYTE // 8) + "; " + SINK.replace("(x", "(v")
    ),
    "binary-1MB-line": lambda: _body("let v = " + "x + " * (MEGABYTE // 4) + "x;\n" + SINK),
    "string-1MB-line": lambda: _body('let s = "' + "a" * MEGABYTE + '"; ' + SINK),
    "comment-1MB-line": lambda: _body("// " + "é" * (MEGABYTE // 2) + "\n" + SINK),
    "nul-bytes": lambda: _body("\x00let y\x00 = 1;\x00\n" + SINK + "\x00"),
    "lone-surrogates": lambda: _body('let s = "\ud800\udfff"; // \udc80\n' + SINK),
    "surrogate-in-sink": lambda: _body("dispatch::q_matmul(x\udcff, q, Ctx::Disabled)"),
    "invalid-utf8-replaced": lambda: _invalid_utf8("replace"),
    "invalid-utf8-surrogateescape": lambda: _invalid_utf8("surrogateescape"),
    "crlf": lambda: _body(SINK).replace("\n", "\r\n"),
    "cr-only": lambda: _body(SINK).replace("\n", "\r"),
    "mixed-newlines": lambda: "".join(
        line + ("\r\n", "\r", "\n", "\n\r")[i % 4] for i, line in enumerate(QUANT.split("\n"))
    ),
    "non-ascii-identifiers": lambda: QUANT.replace("autodiff_lhs", "données_张量").replace(
        "device", "устройство"
    ),
    "bom-and-separators": lambda: "\ufeff" + QUANT.replace("    ", "\u2028\u00a0\u3000"),
    "only-newlines": lambda: "\n" * MEGABYTE,
    "empty": lambda: "",
    "many-functions": lambda: "".join(_body(SINK).replace("fn f", f"fn f{i}") for i in range(2000)),
}


@cache
def analyzed(name: str) -> Analyzed:
    """Each extreme is analyzed once per session (the properties share the result)."""
    return analyze(EXTREMES[name]())


names = pytest.mark.parametrize("name", sorted(EXTREMES))


@names
def test_extreme_analysis_never_raises_and_keeps_the_budget(name: str) -> None:
    CASES["extremes: analysis within budget"] += 1
    assert analyzed(name).seconds < BUDGET + SLACK


@names
def test_extreme_ranges_are_valid(name: str) -> None:
    CASES["extremes: ranges valid"] += 1
    check_ranges(analyzed(name))


@names
def test_extreme_fixes(name: str) -> None:
    CASES["extremes: fixes"] += 1
    found = analyzed(name)
    fixes = choose_fixes(found.result.findings)
    check_edits_disjoint(fixes, len(found.source.data))
    if not fixes or len(found.source.data) > 200_000:
        return  # fixing re-analyzes: only where that is quick
    fixed, applied = fix_once(found.source.text, analyzed=found)
    assert applied
    assert parse_errors(fixed) <= syntax_errors(found.source.tree)
    once = fix_to_fixpoint(found.source.text, analyzed=found)
    assert once.converged
    assert fix_to_fixpoint(once.text).text == once.text


@pytest.mark.parametrize(
    "name", ["nul-bytes", "lone-surrogates", "invalid-utf8-surrogateescape", "crlf", "empty"]
)
def test_extreme_file_through_the_cli(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    CASES["extremes: cli check"] += 1
    path = tmp_path_factory.mktemp("extreme") / f"{name}.rs"
    path.write_bytes(
        EXTREMES[name]().encode(
            "utf-8", errors="surrogateescape" if "escape" in name else "surrogatepass"
        )
    )
    run = check(ANALYZER, Request((str(path),), Overrides(isolated=True)))
    assert run.files == 1 or run.problems
