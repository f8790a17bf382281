"""The example crate's real findings, shared by the renderer tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.analysis.engine import Analyzer
from burnlint.analysis.findings import Finding
from burnlint.checking import Request, check
from burnlint.kb.load import load_kb

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/dispatch-demo"


@pytest.fixture(scope="session")
def findings() -> list[Finding]:
    """The example crate's findings, checked from the repository root with a relative path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        run = check(Analyzer(load_kb()), Request(paths=(EXAMPLE,)))
    assert not run.problems, run.problems
    found = sorted((f for r in run.results for f in r.findings), key=lambda f: f.sort_key)
    assert len(found) >= 3
    return found
