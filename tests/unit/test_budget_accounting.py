"""A file's budget is the CPU time its own analyses take, wherever in the run they fall: a
cheap function analyzed late in a large crate is not stopped because other files took the
budget's worth of time since its file was first analyzed.

Time here is a fake clock that advances by a fixed step each time the analysis reads it (at
each summary's start and end, and every 512 interpreter steps), so the run is the same on any
machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.analysis import cputime
from burnlint.analysis.engine import Analyzer, CrateSession, Options
from burnlint.kb.load import load_kb
from burnlint.loading import load_crate

ANALYZER = Analyzer(load_kb())
STEP = 0.01
"""Fake CPU seconds per reading of the clock."""

# A helper no rule names (so it is no root), long enough to read the clock as it runs; the
# last file's root is what first calls it, after every other file's roots ran.
HELPER = "\n".join(f"    let x{i} = x{i - 1}.clone() + 1.0;" for i in range(1, 300))
FILES = {
    "lib.rs": "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n",
    "a.rs": (
        "use burn::tensor::Tensor;\n\n"
        "pub fn first(t: Tensor<2>) -> Tensor<2> {\n    Tensor::from_inner(t.inner())\n}\n\n"
        f"pub fn helper(x0: Tensor<2>) -> Tensor<2> {{\n{HELPER}\n    x299\n}}\n"
    ),
    **{
        f"{name}.rs": "use burn::tensor::Tensor;\n\n"
        + "\n".join(
            f"pub fn root{i}(t: Tensor<2>) -> Tensor<2> {{\n    Tensor::from_inner(t.inner())\n}}\n"
            for i in range(25)
        )
        for name in ("b", "c")
    },
    "d.rs": (
        "use burn::tensor::Tensor;\n\n"
        "pub fn last(t: Tensor<2>) -> Tensor<2> {\n"
        "    Tensor::from_inner(crate::a::helper(t).inner())\n}\n"
    ),
}


def _notes(
    tmp_path: Path, budget: float, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], float]:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "late"\nversion = "0.1.0"\n\n[dependencies]\nburn = "=0.22.0-pre.2"\n',
        encoding="utf-8",
    )
    for name, text in FILES.items():
        (src / name).write_text(text, encoding="utf-8")
    clock = [0.0]

    def now() -> float:
        clock[0] += STEP
        return clock[0]

    monkeypatch.setattr(cputime, "now", now)
    loaded = load_crate(src / "lib.rs", {}, everything=True)
    session = CrateSession(
        ANALYZER, list(loaded.files), Options(budget_seconds=budget), loaded.crate
    )
    notes = [note for result in session.results() for note in result.notes]
    return notes, clock[0]


def test_a_function_analyzed_late_has_what_its_file_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run takes more than the budget, no file does: nothing stops."""
    notes, elapsed = _notes(tmp_path, 0.5, monkeypatch)
    assert elapsed > 1.0, elapsed  # the run took twice the budget
    assert not [n for n in notes if "analysis stopped" in n], notes


def test_a_function_that_takes_the_budget_is_still_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same crate with a budget the helper's own analysis exceeds: it stops there, and
    the note names it."""
    notes, _ = _notes(tmp_path, 0.025, monkeypatch)
    assert any("analysis stopped in `helper`" in n for n in notes), notes
