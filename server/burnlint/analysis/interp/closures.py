"""Closures and iterator chains: calling a closure value, and `map`/`for_each`/`filter_map`/...
applied to the element of a collection whose element is known.

These are generator functions run by the interpreter's driver (they yield the same requests as
the expression handlers of `Interpreter`), so closure bodies are evaluated without recursion on
the Python stack.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Protocol

from burnlint.analysis.interp.bindings import BindingLog
from burnlint.analysis.interp.patterns import match_pattern
from burnlint.analysis.interp.state import Env, Gen, Pairs
from burnlint.analysis.interp.valueops import array_value, some_value, unwrap
from burnlint.analysis.interp.values import UNIT, UNKNOWN_VALUE, Value
from burnlint.analysis.semantics.api import ApiRule
from burnlint.analysis.syntax import ir

ADAPTERS = {
    "map": "map",
    "flat_map": "map",
    "and_then": "map",
    "filter_map": "filter_map",
    "for_each": "each",
    "inspect": "keep",
    "filter": "keep",
    "take_while": "keep",
    "skip_while": "keep",
}
"""Iterator and `Option` methods that apply a closure to each element: what they return."""
MAX_CLOSURE_DEPTH = 8


class Host(Protocol):
    """What closure evaluation needs from the interpreter."""

    returns: Pairs
    closure_depth: int
    invocations: list[tuple[str, ir.Span]]
    bindings: BindingLog

    def closure(self, value: Value) -> ir.Closure | None:
        """The closure expression a value was made from, if it was made in this function."""
        ...

    def call_path(
        self, path: ir.Path, args: list[Value], arg_exprs: list[ir.Expr], span: ir.Span, env: Env
    ) -> Pairs:
        """Call a named function (a path used as a value, e.g. `.map(helper)`)."""
        ...

    def call_rule_for(self, segments: tuple[str, ...]) -> ApiRule | None:
        """The API rule a path names, for pattern matching."""
        ...


def invoke(
    host: Host, closure: ir.Closure, args: list[Value], env: Env, call: ir.Span | None = None
) -> Gen:
    """Evaluate `closure` applied to `args` (called at `call`, if the call is known); a
    `return` inside it returns from the closure."""
    if host.closure_depth >= MAX_CLOSURE_DEPTH:
        return [(env, UNKNOWN_VALUE)]
    current = env
    for index, pattern in enumerate(closure.params):
        arg = args[index] if index < len(args) else UNKNOWN_VALUE
        yes, _ = match_pattern(pattern, arg, current, None, host.call_rule_for)
        current = yes[0] if yes else current
        host.bindings.bound("closure", pattern, [current])
    saved = host.returns
    host.returns = []
    host.closure_depth += 1
    if call is not None:
        host.invocations.append(("closure called here", call))
    try:
        pairs = yield ("expr", closure.body, current)
    finally:
        returned = host.returns
        host.returns = saved
        host.closure_depth -= 1
        if call is not None:
            host.invocations.pop()
    # The closure's parameters and locals are out of scope once it returns.
    return [(e.without(closure.scope), v) for e, v in pairs + returned]


def adapt(
    host: Host,
    expr: ir.MethodCall,
    receiver: Value,
    function: Value,
    env: Env,
) -> Generator[tuple[str, Any, Env], Pairs, Pairs | None]:
    """`receiver.map(f)` and friends when `f` is a closure or a named function: `f` runs on the
    receiver's element (or `Some` payload); None when this is not such a call."""
    kind = ADAPTERS.get(expr.name)
    if kind is None or len(expr.args) != 1:
        return None
    element = receiver.get_field("elem")
    option = element is None and receiver.get_field("some") is not None
    if option:
        element = receiver.get_field("some")
    unknown = element is None
    if element is None:
        # An unknown collection: the closure still runs on (unknown) elements, and what it
        # produces is known, e.g. `rows.into_iter().map(|r| float_from_data(r, &ad_dev))`.
        element = UNKNOWN_VALUE
    argument = expr.args[0]
    closure = host.closure(function)
    if closure is not None:
        results = yield from invoke(host, closure, [element], env, expr.name_span)
    elif isinstance(argument, ir.Path):
        results = host.call_path(argument, [element], [expr.receiver], expr.span, env)
    else:
        return None
    out: Pairs = []
    for current, result in results:
        if kind == "each":
            out.append((current, UNIT))
        elif kind == "keep":
            out.append((current, receiver))
        else:
            produced = unwrap(result) if kind == "filter_map" or expr.name == "flat_map" else result
            if option:
                out.append((current, result if expr.name == "and_then" else some_value(produced)))
            elif unknown:
                # An unknown receiver may be an iterator or an `Option`: keep both shapes.
                out.append((current, array_value([produced]).with_field("some", produced)))
            else:
                out.append((current, array_value([produced])))
    return out
