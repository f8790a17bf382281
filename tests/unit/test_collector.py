"""The cyclic collector's thresholds while a check analyzes a crate (`few_collections`)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from burnlint import analyzing, cli
from burnlint.analysis import engine

DEMO = Path(__file__).resolve().parents[2] / "examples" / "dispatch-demo"


def test_a_check_analyzes_with_few_collections_and_restores_the_thresholds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every crate of a check is analyzed at `COLLECTOR_THRESHOLDS`; the process's own
    thresholds are back once the check is done (a program importing burnlint keeps them)."""
    seen: list[tuple[int, int, int]] = []
    results = engine.CrateSession.results

    def watched(self: engine.CrateSession) -> object:
        seen.append(gc.get_threshold())
        return results(self)

    monkeypatch.setattr(engine.CrateSession, "results", watched)
    before = gc.get_threshold()
    assert before != analyzing.COLLECTOR_THRESHOLDS
    code = cli.main(["check", str(DEMO), "--no-cache", "--format", "json"])
    capsys.readouterr()
    assert code == 1  # the demo crate has findings: the analysis ran
    assert seen
    assert set(seen) == {analyzing.COLLECTOR_THRESHOLDS}
    assert gc.get_threshold() == before
