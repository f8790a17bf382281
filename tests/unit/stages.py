"""Run one stage of the analysis on a small function, without the rest of the pipeline, and
compare its output with a snapshot (`--bless` rewrites snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.interp.values import Value
from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.items import collect_items
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
ANALYZER = Analyzer(load_kb())
PRELUDE = (
    "use burn::tensor::{Device, Distribution, Tensor};\n"
    # A sink in the file, so the prefilter lets the crate through to the interpreter.
    "fn stage_sink(t: Tensor<2>) -> Tensor<2> { Tensor::from_inner(t) }\n"
)


def lowered(text: str) -> ir.Function:
    """The last function of `text` lowered to the IR."""
    source = SourceFile("stage.rs", text)
    items = collect_items(source, BuildConfig(), ANALYZER.api.scope_names.__contains__)
    return items.functions[-1].lowered()


def summary_text(text: str, era: str = "checkpointing") -> str:
    """What interpreting the last function of `text` concludes: each return case's facets."""
    session = CrateSession(
        ANALYZER, [CrateFile(SourceFile("stage.rs", PRELUDE + text))], Options(era=era)
    )
    program = session._program()  # pyright: ignore[reportPrivateUsage]
    assert program is not None
    decl = program.units[0].items.functions[-1]
    summary = program.summary(decl)
    assert summary is not None
    cases: list[str] = []
    for assumptions, value in summary.cases:
        # Sets print in hash order, which changes from run to run: spell them sorted.
        assumed = sorted(
            f"param {index}{''.join(f'.{name}' for _, name in steps)} {facet} in "
            f"{{{','.join(sorted(allowed))}}}"
            for index, steps, facet, allowed in assumptions
        )
        cases.append(f"case assuming [{'; '.join(assumed)}]: {facets(value)}")
    return "\n".join([f"diverges={summary.diverges}", *sorted(cases)]) + "\n"


def facets(value: Value) -> str:
    """The facts a sink can see in a value, compactly: `tensor={autodiff,float} ctx={..}`."""
    parts = []
    for name in ("tensor", "ctx", "device", "strategy", "backend", "boolean"):
        facet: frozenset[str] = getattr(value, name)
        if facet:
            parts.append(f"{name}={{{','.join(sorted(facet))}}}")
    if value.params:
        parts.append(f"params={sorted(value.params)}")
    for key, field_value in value.fields:
        parts.append(f"{key}:({facets(field_value)})")
    return " ".join(parts) or "nothing known"


def compare(kind: str, name: str, actual: str, request: pytest.FixtureRequest) -> None:
    path = SNAPSHOTS / kind / f"{name}.txt"
    if request.config.getoption("--bless"):
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} is missing (run with --bless):\n{actual}"
    assert path.read_text(encoding="utf-8") == actual, f"{path.name} differs (run with --bless)"
