"""A path class's key (`Env.key`, what `dedup` joins path classes by) is carried from a
class whose key was needed to the classes made from it (`Env.set`, `Env.with_facts`), and its
sorted bindings (what `get` and `set` bisect) from the classes it was made from (`set`,
`without`, joins): both must be what a fresh computation gives, whatever the bindings and
values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from burnlint.analysis.interp.facts import EQ
from burnlint.analysis.interp.state import Env, dedup
from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    FLOAT,
    UNKNOWN_VALUE,
    Value,
)

VALUES = [
    Value(),
    UNKNOWN_VALUE,
    Value(tensor=frozenset({AUTODIFF})),
    Value(tensor=frozenset({FLOAT})),
    Value(ctx=frozenset({DISABLED})),
    Value(params=frozenset({(0, ())})),
    Value(fields=(("some", Value(tensor=frozenset({AUTODIFF}))),)),
    Value(fields=(("elem", Value()),)),
    Value(boolean=frozenset({"true"})),
    Value(hint=frozenset({"tensor"})),
]

STEPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("set"), st.integers(-2, 5), st.integers(0, len(VALUES) - 1), st.booleans()
        ),
        st.tuples(st.just("facts"), st.integers(0, 5), st.integers(0, 5), st.booleans()),
        st.tuples(st.just("without"), st.integers(-2, 5), st.integers(0, 4), st.booleans()),
        st.tuples(
            st.just("join"), st.integers(-2, 5), st.integers(0, len(VALUES) - 1), st.booleans()
        ),
    ),
    min_size=4,
    max_size=40,
)


def fresh_key(env: Env) -> object:
    """The key computed from scratch, for a class with the same bindings and assumptions."""
    return Env(env.values, env.assumptions, env.lossy, env.facts).key()


def check(env: Env) -> None:
    assert env.key() == fresh_key(env)
    assert env.values == tuple(sorted(env.values, key=lambda pair: pair[0]))
    for binding, value in env.values:
        assert env.get(binding) is value


@given(STEPS)
def test_a_carried_key_is_the_key_computed_afresh(steps: list[tuple[str, int, int, bool]]) -> None:
    env = Env()
    for kind, first, second, ask in steps:
        if kind == "set":
            env = env.set(first, VALUES[second])
        elif kind == "facts":
            env = env.with_facts((((first, second), EQ),) if first != second else ())
        elif kind == "without":
            env = env.without((first, first + second))
        else:
            # Two classes that differ in one binding, joined as at the end of a branch.
            (env,) = dedup(
                [env, env.set(first, VALUES[second]).set(first, env.get(first) or Value())]
            )
        if ask:
            # Asking makes the key known, so the next classes carry it.
            check(env)
    check(env)
