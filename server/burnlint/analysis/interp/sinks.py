"""Sink checks: do the values meeting at a sink have the facets that make burn panic?"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from burnlint.analysis.interp.state import Assumption
from burnlint.analysis.interp.valueops import is_untracked
from burnlint.analysis.interp.values import AUTODIFF, FLOAT, UNKNOWN, Value
from burnlint.analysis.semantics.api import SinkSpec
from burnlint.analysis.syntax.ir import Scope, Span
from burnlint.records import record

ROLE_FACETS = {"tensor": "tensor", "other": "tensor", "context": "ctx", "device": "device"}
Verdict = Literal["must", "may", "symbolic", "none"]
"""A sink's judgement on one path: it panics, it may panic, it depends on the caller's
arguments (judged again at each call site), or it cannot panic."""


@record
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
    plain: bool = False
    """Whether some path reached the site with a plain float as its tensor: an edit there must
    not assume the tensor is autodiff."""
    only_certain: bool = False
    """Whether some path's panic rests on a tensor being untracked (`TRACKING`): such a site
    reports only when every path panics, since the paths that do not (a loop that ran, a
    branch that called `require_grad()`) are usually the ones that run."""


@record
class Hit:
    """A sink reached with parameter-dependent values: checked again at each call site."""

    spec: SinkSpec
    site: Site
    values: tuple[tuple[str, Value], ...]
    assumptions: frozenset[Assumption]


def facet_of(value: Value, role: str) -> frozenset[str]:
    """The facet of `value` that `role` constrains."""
    return value.facet(ROLE_FACETS.get(role, role))


Relation = Callable[[dict[str, Value]], Verdict]
RELATIONS: dict[tuple[str, str], Relation] = {}
"""Sink conditions about operands together (`when = { backend = "mismatch" }`), by their
`when` key and value; every other condition requires one fact of one role (`_facet_verdict`)."""


def relation(key: str, value: str) -> Callable[[Relation], Relation]:
    """Register the decorated function as the judge of the sink condition `key = value`."""

    def register(judge: Relation) -> Relation:
        RELATIONS[(key, value)] = judge
        return judge

    return register


def rests_on_tracking(spec: SinkSpec) -> bool:
    """Whether a sink's condition can hold because a tensor is untracked (`TRACKING`)."""
    return ("tensor", "no-graph") in spec.when.items()


def is_relation(spec: SinkSpec) -> bool:
    """Whether a sink's condition is about two operands together (see `RELATIONS`)."""
    return any(item in RELATIONS for item in spec.when.items())


def verdict(spec: SinkSpec, values: dict[str, Value]) -> Verdict:
    """ "must", "may", "symbolic" (depends on parameters) or "none" for one path."""
    for item in spec.when.items():
        judge = RELATIONS.get(item)
        if judge is not None:
            return judge(values)
    return _facet_verdict(spec, values)


_MIXED = frozenset({AUTODIFF, FLOAT})


@relation("operands", "mixed")
def _mixed_verdict(values: dict[str, Value]) -> Verdict:
    """An autodiff float and a plain float in one operation: the two operands `tensor` and
    `other`, or (for `cat`/`stack`) the joined elements of one collection in `tensor`. Only
    known kinds count: an operand that may be anything else makes no finding."""
    operands = [values[role] for role in ("tensor", "other") if role in values]
    if not operands:
        return "none"
    if any(value.params for value in operands):
        # Decided at each call site, once the caller's arguments are known.
        return "symbolic"
    facets = [value.tensor for value in operands]
    if any(not facet or not facet <= _MIXED for facet in facets):
        return "none"
    if len(facets) == 1:
        return "must" if facets[0] == _MIXED else "none"
    lhs, rhs = facets
    if {lhs, rhs} == {frozenset({AUTODIFF}), frozenset({FLOAT})}:
        return "must"
    if (AUTODIFF in lhs and FLOAT in rhs) or (FLOAT in lhs and AUTODIFF in rhs):
        return "may"
    return "none"


@relation("guard", "checkpointing-field")
def _checkpointing_guard_verdict(values: dict[str, Value]) -> Verdict:
    """`t.checkpointing.is_some()`/`is_none()` (BD015): the API rule matched only a tensor's
    `checkpointing` field, so the test itself is the finding."""
    return "must" if "context" in values else "none"


@relation("tensor", "no-graph")
def _no_graph_verdict(values: dict[str, Value]) -> Verdict:
    """`backward()` from burn 0.22 on: a plain float (as `tensor = "float"` with `known`), or an
    autodiff tensor that certainly has no `require_grad()` source (see `TRACKING`). A tensor
    whose tracking is not known makes no finding."""
    value = values.get("tensor")
    if value is None:
        return "none"
    facet = value.tensor
    if UNKNOWN in facet or not facet:
        return "symbolic" if value.params and facet <= {UNKNOWN} else "none"
    if FLOAT in facet:
        return "must" if facet == frozenset({FLOAT}) and not value.params else "may"
    return "must" if is_untracked(value) else "none"


_TRACKED = frozenset({AUTODIFF})


@relation("strategy", "mismatch")
def _strategy_verdict(values: dict[str, Value]) -> Verdict:
    """Two autodiff operands whose gradient-checkpointing strategies differ (each remembers
    its device's). Only tensors known to be tracked, each with one known strategy, count; a
    parameter is judged again at each call site."""
    lhs, rhs = values.get("tensor"), values.get("other")
    if lhs is None or rhs is None:
        return "none"
    if lhs.params or rhs.params:
        return "symbolic"
    if lhs.tensor != _TRACKED or rhs.tensor != _TRACKED:
        return "none"
    known = {"Balanced", "Disabled"}
    left, right = lhs.strategy, rhs.strategy
    if not left or not right or not left <= known or not right <= known:
        return "none"
    # Two operands that may each be either strategy usually come from one device picked at
    # run time (the same on both sides): only strategies known on their own are compared.
    if len(left) == len(right) == 1 and left != right:
        return "must"
    return "none"


@relation("backend", "mismatch")
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
        if spec.known and UNKNOWN in facet:
            # A high-level rule fires on facts only: "may be anything" is not "may be plain".
            if value.params and facet <= {UNKNOWN}:
                result = "symbolic"
                continue
            return "none"
        if required in facet:
            if facet != frozenset({required}) or value.params:
                result = "may" if result == "must" else result
            continue
        if value.params and (not facet or facet <= {UNKNOWN}):
            result = "symbolic"
            continue
        return "none"
    return result
