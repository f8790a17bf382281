"""Disjunctive abstract states: one `Env` per path class, with the assumptions it made.

Path classes only stay apart while they differ in tracked facts (see `Value.tracked`): classes
that agree on every tracked fact are joined at once (`dedup`), so branches on integers, shapes and
other untracked values cost one class, not one per path. What a path knows of its integer
comparisons (`facts`) rides along, and is joined too.
"""

from __future__ import annotations

import bisect
from collections.abc import Generator
from dataclasses import field
from typing import Any, cast

from burnlint.analysis.interp import facts as path_facts
from burnlint.analysis.interp.facts import Fact
from burnlint.analysis.interp.values import OPAQUE, Step, Value, join
from burnlint.records import record

Assumption = tuple[int, tuple[Step, ...], str, frozenset[str]]
"""(parameter index, projection, facet, allowed values): what a path assumed of a parameter."""

MAX_DISJUNCTS = 16
"""Path classes kept apart at one program point; past it they are joined (lossy)."""


@record
class Env:
    """Immutable binding -> value map for one path class through a function."""

    values: tuple[tuple[int, Value], ...] = ()
    assumptions: frozenset[Assumption] = frozenset()
    lossy: bool = False
    facts: tuple[Fact, ...] = ()
    """How integer locals compare on this path (see `facts`)."""
    _key: object = field(default=None, init=False, compare=False, repr=False)
    _hash: int = field(default=0, init=False, compare=False, repr=False)
    _keys: tuple[int, ...] | None = field(default=None, init=False, compare=False, repr=False)

    def __hash__(self) -> int:
        # Path classes are hashed whenever alike ones are joined; cache it (as `Value` does).
        cached = self._hash
        if cached == 0:
            cached = hash((self.values, self.assumptions, self.lossy, self.facts)) or 1
            object.__setattr__(self, "_hash", cached)
        return cached

    def _bindings(self) -> tuple[int, ...]:
        """The bound bindings, in order (what `get` and `set` bisect, without a key function)."""
        keys = self._keys
        if keys is None:
            keys = tuple(binding for binding, _ in self.values)
            object.__setattr__(self, "_keys", keys)
        return keys

    def _same_bindings(self, env: Env) -> Env:
        """`env`, which binds what this class binds, knowing it (see `_bindings`)."""
        if self._keys is not None:
            object.__setattr__(env, "_keys", self._keys)
        return env

    def get(self, binding: int) -> Value | None:
        """The value bound to `binding` on this path, if it was bound."""
        keys = self._bindings()
        index = bisect.bisect_left(keys, binding)
        if index < len(keys) and keys[index] == binding:
            return self.values[index][1]
        return None

    def set(self, binding: int, value: Value) -> Env:
        """A copy with `binding` rebound (a strong update); bindings stay sorted, and what the
        path knew of the old value's comparisons is forgotten."""
        values = self.values
        keys = self._bindings()
        index = bisect.bisect_left(keys, binding)
        if index < len(keys) and keys[index] == binding:
            new = (*values[:index], (binding, value), *values[index + 1 :])
        else:
            new = (*values[:index], (binding, value), *values[index:])
            keys = (*keys[:index], binding, *keys[index:])
        facts = self.facts
        env = Env(
            new, self.assumptions, self.lossy, path_facts.forget(facts, binding) if facts else facts
        )
        object.__setattr__(env, "_keys", keys)
        known = self._key
        if known is not None:
            # A path class whose key was needed (it met others) has descendants whose keys
            # will be: one binding changed, so the key changes in one place.
            object.__setattr__(env, "_key", _rekeyed(known, binding, value))
        return env

    def assume(self, assumption: Assumption) -> Env:
        """A copy that also records an assumption about a parameter."""
        return self._same_bindings(
            Env(self.values, self.assumptions | {assumption}, self.lossy, self.facts)
        )

    def without(self, scope: tuple[int, int]) -> Env:
        """A copy that forgets the bindings `range(*scope)` (they went out of scope)."""
        low, high = scope
        values = self.values
        if low >= high or not values:
            return self
        keys = self._bindings()
        start = bisect.bisect_left(keys, low)
        end = bisect.bisect_left(keys, high)
        if start == end:
            return self
        facts = tuple(
            fact
            for fact in self.facts
            if not any(isinstance(a, int) and low <= a < high for a in fact[0])
        )
        env = Env((*values[:start], *values[end:]), self.assumptions, self.lossy, facts)
        object.__setattr__(env, "_keys", (*keys[:start], *keys[end:]))
        return env

    def with_facts(self, facts: tuple[Fact, ...]) -> Env:
        """A copy knowing `facts` about its integer comparisons."""
        env = self._same_bindings(Env(self.values, self.assumptions, self.lossy, facts))
        # Path facts are not part of the key.
        object.__setattr__(env, "_key", self._key)
        return env

    def normalized(self) -> Env:
        """Bindings in a canonical order (kept sorted by `set`), so equal states hash equal."""
        return self

    def key(self) -> object:
        """The tracked facts of this path class: its bindings' `tracked` keys and assumptions.
        Path classes with equal keys are joined (`dedup`)."""
        cached = self._key
        if cached is None:
            cached = (
                tuple(
                    (binding, key)
                    for binding, value in self.values
                    if (key := value.tracked()) is not OPAQUE
                ),
                self.assumptions,
            )
            object.__setattr__(self, "_key", cached)
        return cached

    def coarse_key(self) -> object:
        """The `Value.coarse` keys of its bindings and its assumptions: path classes that agree
        on them can be joined without losing a fact a sink checks (see `coarsen`)."""
        return (
            tuple(
                (binding, key)
                for binding, value in self.values
                if (key := value.coarse()) is not OPAQUE
            ),
            self.assumptions,
        )


def _rekeyed(key: object, binding: int, value: Value) -> object:
    """`Env.key` of a path class whose key is `key`, with `binding` rebound to `value`."""
    entries, assumptions = cast("tuple[tuple[tuple[int, object], ...], object]", key)
    tracked = value.tracked()
    index = bisect.bisect_left(entries, binding, key=_binding_of)
    found = index < len(entries) and entries[index][0] == binding
    if tracked is OPAQUE:
        if not found:
            return key
        return ((*entries[:index], *entries[index + 1 :]), assumptions)
    return ((*entries[:index], (binding, tracked), *entries[index + found :]), assumptions)


def _binding_of(entry: tuple[int, object]) -> int:
    return entry[0]


Pairs = list[tuple[Env, Value]]
"""What evaluating an expression yields: one value per path class that continues."""

Gen = Generator[tuple[str, Any, Env], Pairs, Pairs]
"""An evaluation in progress: it yields ("expr" | "block", node, path class) requests to the
interpreter (`trampoline.run`, see `Interpreter._start`) and receives what each evaluated to."""


def merge_envs(envs: list[Env]) -> Env:
    """Join several path classes into one; correlations are lost, so the result is lossy."""
    return _join(envs, lossy=True)


def _join(envs: list[Env], lossy: bool) -> Env:
    if len(envs) == 1 and (envs[0].lossy or not lossy):
        return envs[0]
    merged: dict[int, Value] = {}
    for env in envs:
        for binding, value in env.values:
            merged[binding] = join(merged[binding], value) if binding in merged else value
    assumptions = (
        frozenset[Assumption]().union(*(env.assumptions for env in envs))
        if len({env.assumptions for env in envs}) == 1
        else frozenset[Assumption]()
    )
    keys = tuple(sorted(merged))
    env = Env(
        tuple((binding, merged[binding]) for binding in keys),
        assumptions,
        lossy or any(env.lossy for env in envs),
        path_facts.join([env.facts for env in envs]),
    )
    object.__setattr__(env, "_keys", keys)
    return env


def dedup(envs: list[Env]) -> list[Env]:
    """Join the path classes that agree on every tracked fact (nothing a sink can see is lost),
    and join them all (lossy) when more than `MAX_DISJUNCTS` remain."""
    if len(envs) <= 1:
        return envs
    groups: dict[object, list[Env]] = {}
    for env in envs:
        groups.setdefault(env.key(), []).append(env)
    joined = [
        group[0] if len(group) == 1 else _join(list(dict.fromkeys(group)), lossy=False)
        for group in groups.values()
    ]
    if len(joined) > MAX_DISJUNCTS:
        return coarsen(joined, MAX_DISJUNCTS) or [merge_envs(envs)]
    return joined


def coarsen(envs: list[Env], bound: int) -> list[Env] | None:
    """When more than `bound` path classes remain, join those that agree on their coarse keys
    (shapes and booleans may differ, tensor facts may not); None when that still leaves more
    than `bound`."""
    groups: dict[object, list[Env]] = {}
    for env in envs:
        groups.setdefault(env.coarse_key(), []).append(env)
    if len(groups) > bound:
        return None
    return [_join(group, lossy=False) for group in groups.values()]


def dedup_pairs(pairs: Pairs) -> Pairs:
    """`dedup` for (path class, value) pairs: pairs whose path class and value agree on every
    tracked fact are joined."""
    if len(pairs) <= 1:
        return pairs
    groups: dict[tuple[object, object], list[tuple[Env, Value]]] = {}
    for env, value in pairs:
        groups.setdefault((env.key(), value.tracked()), []).append((env, value))
    if len(groups) == len(pairs):
        return pairs
    out: Pairs = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        value = group[0][1]
        for _, other in group[1:]:
            value = join(value, other)
        out.append((_join(list(dict.fromkeys(e for e, _ in group)), lossy=False), value))
    return out
