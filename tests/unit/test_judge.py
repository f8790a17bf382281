"""The reporting policy on its own: which observations report, certain or possible, and when
their fixes are guarded. No message or fix text is made here."""

from __future__ import annotations

import pytest

from burnlint.analysis.interp.sinks import Observation, Site, Verdict
from burnlint.analysis.rules.judge import judge
from burnlint.analysis.syntax.ir import Span

SITE = Site(code="BD001", kind="call", span=Span(10, 20), whole=Span(0, 30))


def _observed(*verdicts: tuple[Verdict, bool]) -> Observation:
    return Observation(SITE, list(verdicts))


@pytest.mark.parametrize(
    ("verdicts", "certain"),
    [
        ([("must", False)], True),
        ([("must", False), ("must", False)], True),
        ([("must", False), ("none", False)], False),  # one path is fine: "may"
        ([("may", False)], False),
        ([("must", False), ("must", True)], False),  # a lossy path makes it uncertain
        ([("may", False), ("none", True)], False),
    ],
)
def test_reports_with_certainty(verdicts: list[tuple[Verdict, bool]], certain: bool) -> None:
    judgement = judge(_observed(*verdicts))
    assert judgement is not None
    assert judgement.certain is certain
    assert judgement.guarded is not certain


@pytest.mark.parametrize(
    "verdicts",
    [
        [],
        [("none", False)],
        [("symbolic", False)],
        [("must", True)],  # only lossy paths: they pair facts of paths that may never meet
        [("may", True), ("must", True), ("none", False)],
    ],
)
def test_reports_nothing(verdicts: list[tuple[Verdict, bool]]) -> None:
    assert judge(_observed(*verdicts)) is None


def test_select_filters_by_code() -> None:
    observed = _observed(("must", False))
    assert judge(observed, frozenset({"BD004"})) is None
    assert judge(observed, frozenset({"BD001"})) is not None


def test_a_site_shared_with_a_clean_context_guards_its_fixes() -> None:
    judgement = judge(_observed(("must", False)), shared=True)
    assert judgement is not None and judgement.certain and judgement.guarded
