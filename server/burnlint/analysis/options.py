"""How to analyze: the options a run passes to the analyzer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Options:
    """How to analyze: era override, codes to report, time budget per file."""

    era: str | None = None
    select: frozenset[str] | None = None
    budget_seconds: float = 5.0
