"""How to analyze: the options a run passes to the analyzer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Options:
    """How to analyze: era override, codes to report, time budget per file, and whether to
    record what names are bound to."""

    era: str | None = None
    select: frozenset[str] | None = None
    budget_seconds: float = 5.0
    states: bool = False
    """Record the values names are bound to, for display (the language server's inlay hints
    and hovers); a check never shows them, and recording costs a few percent."""
