"""Disjunctive abstract states: one `Env` per path class, with the assumptions it made."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from burnlint.analysis.interp.values import Step, Value, join

Assumption = tuple[int, tuple[Step, ...], str, frozenset[str]]
"""(parameter index, projection, facet, allowed values): what a path assumed of a parameter."""

MAX_DISJUNCTS = 16


@dataclass(frozen=True, slots=True)
class Env:
    """Immutable binding -> value map for one path class through a function."""

    values: tuple[tuple[int, Value], ...] = ()
    assumptions: frozenset[Assumption] = frozenset()
    lossy: bool = False

    def get(self, binding: int) -> Value | None:
        """The value bound to `binding` on this path, if it was bound."""
        values = self.values
        index = bisect.bisect_left(values, binding, key=lambda kv: kv[0])
        if index < len(values) and values[index][0] == binding:
            return values[index][1]
        return None

    def set(self, binding: int, value: Value) -> Env:
        """A copy with `binding` rebound (a strong update); bindings stay sorted."""
        values = self.values
        index = bisect.bisect_left(values, binding, key=lambda kv: kv[0])
        if index < len(values) and values[index][0] == binding:
            new = (*values[:index], (binding, value), *values[index + 1 :])
        else:
            new = (*values[:index], (binding, value), *values[index:])
        return Env(new, self.assumptions, self.lossy)

    def assume(self, assumption: Assumption) -> Env:
        """A copy that also records an assumption about a parameter."""
        return Env(self.values, self.assumptions | {assumption}, self.lossy)

    def normalized(self) -> Env:
        """Bindings in a canonical order (kept sorted by `set`), so equal states hash equal."""
        return self


Pairs = list[tuple[Env, Value]]
"""What evaluating an expression yields: one value per path class that continues."""


def merge_envs(envs: list[Env]) -> Env:
    """Join several path classes into one; correlations are lost, so the result is lossy."""
    merged: dict[int, Value] = {}
    counts: dict[int, int] = {}
    for env in envs:
        for binding, value in env.values:
            merged[binding] = join(merged[binding], value) if binding in merged else value
            counts[binding] = counts.get(binding, 0) + 1
    assumptions = (
        frozenset[Assumption]().union(*(env.assumptions for env in envs))
        if len({env.assumptions for env in envs}) == 1
        else frozenset[Assumption]()
    )
    return Env(tuple(sorted(merged.items())), assumptions, True)


def dedup(envs: list[Env]) -> list[Env]:
    """Remove duplicate path classes and merge when there are too many."""
    if len(envs) <= 1:
        return envs
    seen: dict[Env, None] = {}
    for env in envs:
        seen.setdefault(env.normalized(), None)
    out = list(seen)
    if len(out) > MAX_DISJUNCTS:
        return [merge_envs(out)]
    return out
