"""Sink checks: do the values meeting at a sink have the facets that make burn panic?"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from burnlint.analysis.interp.state import Assumption
from burnlint.analysis.interp.values import UNKNOWN, Value
from burnlint.analysis.semantics.api import SinkSpec
from burnlint.analysis.syntax.ir import Scope, Span

ROLE_FACETS = {"tensor": "tensor", "context": "ctx", "device": "device"}
Verdict = Literal["must", "may", "symbolic", "none"]
"""A sink's judgement on one path: it panics, it may panic, it depends on the caller's
arguments (judged again at each call site), or it cannot panic."""


@dataclass(frozen=True, slots=True)
class Site:
    """A concrete place where a sink is reached, with what fixes and messages need."""

    code: str
    kind: str
    span: Span
    whole: Span
    role_spans: tuple[tuple[str, Span], ...] = ()
    scope: Scope | None = None
    variant: str = ""
    chain: tuple[tuple[str, Span], ...] = ()
    base: Span | None = None

    def role_span(self, role: str) -> Span | None:
        """The expression that supplied `role` at this site."""
        for key, span in self.role_spans:
            if key == role:
                return span
        return None


@dataclass(slots=True)
class Observation:
    """Everything seen at one site over all paths that reach it."""

    site: Site
    verdicts: list[tuple[Verdict, bool]] = field(default_factory=list[tuple[Verdict, bool]])
    values: dict[str, Value] = field(default_factory=dict[str, Value])


@dataclass(frozen=True, slots=True)
class Hit:
    """A sink reached with parameter-dependent values: checked again at each call site."""

    spec: SinkSpec
    site: Site
    values: tuple[tuple[str, Value], ...]
    assumptions: frozenset[Assumption]


def facet_of(value: Value, role: str) -> frozenset[str]:
    """The facet of `value` that `role` constrains."""
    return value.facet(ROLE_FACETS.get(role, role))


def verdict(spec: SinkSpec, values: dict[str, Value]) -> Verdict:
    """ "must", "may", "symbolic" (depends on parameters) or "none" for one path."""
    if spec.when.get("backend") == "mismatch":
        return _backend_verdict(values)
    return _facet_verdict(spec, values)


def _backend_verdict(values: dict[str, Value]) -> Verdict:
    """Two operands whose known backends cannot coincide."""
    lhs, rhs = values.get("tensor"), values.get("other")
    if lhs is None or rhs is None:
        return "none"
    if lhs.backend and rhs.backend and not lhs.backend & rhs.backend:
        return "must"
    if (lhs.params and (rhs.params or rhs.backend)) or (rhs.params and lhs.backend):
        # An operand is the caller's: judged again at each call site, with its argument.
        return "symbolic"
    return "none"


def _facet_verdict(spec: SinkSpec, values: dict[str, Value]) -> Verdict:
    """ "must", "may", "symbolic" (depends on parameters) or "none" for one path."""
    result = "must"
    for role, required in spec.when.items():
        value = values.get(role)
        if value is None:
            return "none"
        facet = facet_of(value, role)
        if required in facet:
            if facet != frozenset({required}) or value.params:
                result = "may" if result == "must" else result
            continue
        if value.params and (not facet or facet <= {UNKNOWN}):
            result = "symbolic"
            continue
        return "none"
    return result
