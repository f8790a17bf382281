"""Path facts: how two integer-valued atoms (locals, integer literals) compare on a path.

A condition such as `cut > 0` or `pos == cut` teaches a path class a relation between its two
atoms, one of the subsets of {<, =, >}. A later condition on the same atoms (`pos < cut`) is then
decided on that path instead of being paired with every state, which keeps code guarded twice by
correlated conditions from meeting states of the other branch. Facts are dropped when one of their
locals is rebound; a `for` loop over an integer range advances the facts of its variable.
"""

from __future__ import annotations

import re

Atom = int | str
"""A local binding (its id) or an integer constant ("#3")."""

Relation = frozenset[str]
"""The possible orders of (left, right): a subset of {"<", "=", ">"}."""

Fact = tuple[tuple[Atom, Atom], Relation]

LT: Relation = frozenset({"<"})
EQ: Relation = frozenset({"="})
GT: Relation = frozenset({">"})
ANY: Relation = frozenset({"<", "=", ">"})
NONE: Relation = frozenset()

OPERATORS: dict[str, Relation] = {
    "==": EQ,
    "!=": frozenset({"<", ">"}),
    "<": LT,
    "<=": frozenset({"<", "="}),
    ">": GT,
    ">=": frozenset({">", "="}),
}
"""The relation a comparison operator asserts between its left and right operands."""

_MIRROR = {"<": ">", "=": "=", ">": "<"}
_INTEGER = re.compile(r"^([0-9][0-9_]*)(?:[iu](?:8|16|32|64|128|size))?$")


def constant(text: str) -> Atom | None:
    """The atom of an integer literal (`0`, `1usize`, `1_000`), or None."""
    match = _INTEGER.match(text)
    return f"#{int(match.group(1).replace('_', ''))}" if match else None


def mirror(relation: Relation) -> Relation:
    """The relation of (right, left) given that of (left, right)."""
    return frozenset(_MIRROR[r] for r in relation)


def _order(atom: Atom) -> tuple[int, int | str]:
    return (0, atom) if isinstance(atom, int) else (1, atom)


def canonical(left: Atom, right: Atom, relation: Relation) -> Fact:
    """The fact in its stored orientation (atoms in a fixed order)."""
    if _order(left) <= _order(right):
        return (left, right), relation
    return (right, left), mirror(relation)


def _constant_relation(left: str, right: str) -> Relation:
    a, b = int(left[1:]), int(right[1:])
    return LT if a < b else EQ if a == b else GT


def _compose(first: Relation, second: Relation) -> Relation:
    """The relation of (a, c) from those of (a, b) and (b, c)."""
    out: set[str] = set()
    for r1 in first:
        for r2 in second:
            if r1 == "=":
                out.add(r2)
            elif r2 in ("=", r1):
                out.add(r1)
            else:
                return ANY
    return frozenset(out)


def lookup(facts: tuple[Fact, ...], left: Atom, right: Atom) -> Relation:
    """What is known of (left, right): the stored fact, else what one shared atom implies
    (`pos == 0` and `cut > 0` give `pos < cut`), else anything."""
    if left == right:
        return EQ
    if isinstance(left, str) and isinstance(right, str):
        return _constant_relation(left, right)
    known = _relations(facts, left)
    direct = known.get(right)
    if direct is not None:
        return direct
    result = ANY
    others = _relations(facts, right)
    for middle, first in known.items():
        for second in _between(middle, right, others):
            result = result & _compose(first, second)
    return result


def _between(middle: Atom, right: Atom, others: dict[Atom, Relation]) -> list[Relation]:
    """What is known of (middle, right), `others` being what `right` relates to."""
    if isinstance(middle, str) and isinstance(right, str):
        return [_constant_relation(middle, right)]
    stored = others.get(middle)
    if stored is not None:
        return [mirror(stored)]
    if not isinstance(middle, str):
        return []
    # Through two constants: `pos == 0` and `cut > 1` give `pos < cut`.
    return [
        _compose(_constant_relation(middle, other), mirror(relation))
        for other, relation in others.items()
        if isinstance(other, str)
    ]


def _relations(facts: tuple[Fact, ...], atom: Atom) -> dict[Atom, Relation]:
    """Every atom `atom` is related to, with the relation of (atom, other)."""
    out: dict[Atom, Relation] = {}
    for (a, b), relation in facts:
        if a == atom:
            out[b] = relation
        elif b == atom:
            out[a] = mirror(relation)
    return out


def learn(facts: tuple[Fact, ...], left: Atom, right: Atom, relation: Relation) -> tuple[Fact, ...]:
    """`facts` where (left, right) is also known to be in `relation`."""
    if (isinstance(left, str) and isinstance(right, str)) or left == right:
        return facts
    key, stored = canonical(left, right, relation)
    rest = [fact for fact in facts if fact[0] != key]
    if stored == ANY:
        return tuple(rest)
    return tuple(sorted([*rest, (key, stored)], key=_fact_order))


def _fact_order(fact: Fact) -> tuple[tuple[int, int | str], tuple[int, int | str]]:
    return _order(fact[0][0]), _order(fact[0][1])


def forget(facts: tuple[Fact, ...], binding: int) -> tuple[Fact, ...]:
    """`facts` without what was known of `binding` (it was rebound)."""
    if not facts:
        return facts
    return tuple(fact for fact in facts if binding not in fact[0])


def join(many: list[tuple[Fact, ...]]) -> tuple[Fact, ...]:
    """What every one of several paths knows: the union of each relation they all constrain."""
    first = many[0]
    if all(facts == first for facts in many[1:]):
        return first
    out: list[Fact] = []
    for key, relation in first:
        merged = relation
        for facts in many[1:]:
            other = next((r for k, r in facts if k == key), None)
            if other is None:
                merged = ANY
                break
            merged = merged | other
        if merged != ANY:
            out.append((key, merged))
    return tuple(out)


_SUCCESSOR = {"<": frozenset({"<", "="}), "=": GT, ">": GT}


def advance(facts: tuple[Fact, ...], binding: int) -> dict[Atom, Relation]:
    """What is known of `binding + 1` against every atom `binding` is related to, directly or
    through a shared atom: the next value of a `for` loop over an integer range."""
    atoms: set[Atom] = set()
    for (a, b), _ in facts:
        atoms.update((a, b))
    atoms.discard(binding)
    out: dict[Atom, Relation] = {}
    for atom in atoms:
        relation = lookup(facts, binding, atom)
        if relation == ANY:
            continue
        following = frozenset[str]().union(*(_SUCCESSOR[r] for r in relation))
        if following != ANY:
            out[atom] = following
    return out
