"""Path classes do not multiply on branches that touch no tracked fact: generated functions with
many integer branches nested in loops (the shape of burn-mamba's `cascade`) are analyzed to
the end, in bounded time, with a bounded number of loop-head states."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.interp import interpreter as interp
from burnlint.analysis.interp.state import MAX_DISJUNCTS
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

ANALYZER = Analyzer(load_kb())
SECONDS = 2.0
"""Per function, far above what it takes (a few hundredths), far below the 5 s budget."""

VARS = ("a", "b", "c", "d", "e", "f")


@st.composite
def _branch(draw: st.DrawFn, depth: int) -> str:
    var = draw(st.sampled_from(VARS))
    other = draw(st.sampled_from(VARS))
    test = draw(st.sampled_from([f"{var} % 2 == 0", f"{var} < {other}", f"{var} == n", "i > 0"]))
    then = draw(st.sampled_from([f"{var} = 0;", f"{var} += 1;", f"{var} = {other} + 1;"]))
    otherwise = draw(st.sampled_from([f"{other} += {var};", f"{other} = 0;", f"{var} -= 1;"]))
    return f"if {test} {{ {then} }} else {{ {otherwise} }}"


@st.composite
def _loop(draw: st.DrawFn, depth: int) -> str:
    kind = draw(st.sampled_from(["for i in 0..n", "while a < n", "for _ in xs.iter()"]))
    parts = [draw(_branch(depth)) for _ in range(draw(st.integers(2, 6)))]
    if depth < 3 and draw(st.booleans()):
        parts.append(draw(_loop(depth + 1)))
    if draw(st.booleans()):
        parts.append("t = t.clone() + t;")
    body = "\n".join(parts)
    return f"{kind} {{\n{body}\n}}"


@st.composite
def functions(draw: st.DrawFn) -> str:
    loops = "\n".join(draw(_loop(1)) for _ in range(draw(st.integers(1, 3))))
    return (
        "use burn::tensor::{Device, Distribution, Tensor};\n"
        "pub fn f(n: usize, xs: Vec<usize>) -> Tensor<2> {\n"
        "    let device = Device::default().autodiff();\n"
        "    let mut t = Tensor::<2>::random([2, 2], Distribution::Default, &device);\n"
        "    let (mut a, mut b, mut c, mut d, mut e, mut f) = (0, 0, 0, 0, 0, 0);\n"
        f"{loops}\n"
        "    Tensor::from_inner(t.inner())\n}\n"
    )


@contextmanager
def _counting() -> Iterator[dict[str, int]]:
    """The largest set of loop-head states and path classes any loop round ran from."""
    seen = {"frontier": 0, "heads": 0}
    original = interp.Interpreter._widen  # pyright: ignore[reportPrivateUsage]

    def widen(self: Any, heads: dict[object, Any], entries: list[Any], *rest: bool) -> Any:
        out = original(self, heads, entries, *rest)
        seen["frontier"] = max(seen["frontier"], len(out))
        seen["heads"] = max(seen["heads"], len(heads))
        return out

    interp.Interpreter._widen = widen  # pyright: ignore[reportPrivateUsage]
    try:
        yield seen
    finally:
        interp.Interpreter._widen = original  # pyright: ignore[reportPrivateUsage]


@given(functions())
def test_integer_branches_in_loops_stay_cheap(text: str) -> None:
    with _counting() as seen:
        started = time.monotonic()
        result = ANALYZER.analyze(SourceFile("gen.rs", text), Options(era="checkpointing"))
        spent = time.monotonic() - started
    assert not [n for n in result.notes if "stopped" in n], text
    assert spent < SECONDS, (spent, text)
    # Integer branches touch no tracked fact: they never add a loop-head state of their own.
    assert seen["frontier"] <= MAX_DISJUNCTS, (seen, text)
    assert seen["heads"] <= MAX_DISJUNCTS, (seen, text)


CORPUS = Path(__file__).resolve().parent.parent / "corpus"
_ERA = re.compile(r"^\s*//@\s*era:\s*(\w+)", re.MULTILINE)


def _findings(path: Path) -> set[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    era = _ERA.search(text)
    result = ANALYZER.analyze(
        SourceFile(path.as_posix(), text), Options(era=era.group(1) if era else None)
    )
    return {(f.range.start.line, f.code) for f in result.findings}


@pytest.mark.parametrize(
    "path",
    sorted(p for p in CORPUS.rglob("*.rs") if "crates" not in p.relative_to(CORPUS).parts),
    ids=lambda p: p.relative_to(CORPUS).as_posix(),
)
def test_thrifty_loops_never_add_findings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long function's loops join their head states at once (lossy); what that loses is
    precision toward 'may', which no finding rests on: every corpus fixture analyzed with
    thrifty loops from the first step reports a subset of its findings (burn-mamba's
    `cascade` reported a false BD005 when a lossy 'must' still counted)."""
    precise = _findings(path)
    monkeypatch.setattr(interp, "THRIFTY_TICKS", -1)
    assert _findings(path) <= precise
    # And a loop round's path classes joined after its first one (what a costly round does).
    monkeypatch.setattr(interp, "THRIFTY_TICKS", 1 << 30)
    monkeypatch.setattr(interp, "THRIFTY_ROUND_TICKS", -1)
    assert _findings(path) <= precise
