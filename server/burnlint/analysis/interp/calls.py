"""What calls, method calls and paths evaluate to: API rules, and the file's own functions.

A call to one of the file's own functions instantiates the callee's `Summary`: its return value
under each set of assumptions about its parameters, and the sinks its parameters reach (`Hit`s),
which are judged again with the arguments of this call.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Protocol

from burnlint.analysis.interp.effects import (
    effect_outcomes,
    effect_sink_values,
    effect_value,
    strategy_value,
)
from burnlint.analysis.interp.observe import Observer
from burnlint.analysis.interp.patterns import refine, variant_name
from burnlint.analysis.interp.sinks import Hit, Site
from burnlint.analysis.interp.state import Assumption, Env, Pairs
from burnlint.analysis.interp.valueops import (
    UNWRAP_METHODS,
    apply_step,
    detached,
    instantiate,
    is_untracked,
    none_value,
    receiver_kinds,
    receiver_link,
    some_value,
    tensor_facts,
    tuple_value,
    unlinked,
    unwrap,
    unwrap_or_default,
    with_tracking,
)
from burnlint.analysis.interp.values import (
    UNKNOWN,
    UNKNOWN_VALUE,
    Step,
    Value,
    join_all,
)
from burnlint.analysis.semantics.api import ApiModel, ApiRule
from burnlint.analysis.semantics.items import FunctionDecl, Module
from burnlint.analysis.syntax import ir

OPERATOR_METHODS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "remainder"}
"""The method burn's `Tensor` implements each arithmetic operator with."""
IDENTITY_METHODS = frozenset(
    {
        "clone",
        "to_owned",
        "as_ref",
        "as_mut",
        "borrow",
        "borrow_mut",
        "into",
        "to_vec",
        "cloned",
        "collect",
        "copied",
        "rev",
        "by_ref",
    }
)
ITER_METHODS = frozenset({"iter", "into_iter", "iter_mut", "drain"})
WRAPPERS = frozenset({("Some",), ("Ok",), ("Box", "new"), ("Rc", "new"), ("Arc", "new")})
MAX_CASES = 8


def _alike_merged(
    cases: list[tuple[frozenset[Assumption], Value]], lossy: set[frozenset[Assumption]]
) -> tuple[list[tuple[frozenset[Assumption], Value]], set[frozenset[Assumption]]]:
    """`cases` with the cases whose results are alike merged into one, under the assumptions
    they share; and which of the merged cases are lossy.

    Results are alike when they have the same `tracked` key, origins and steps (a finding's
    explanation shows only the origins on its path). A method that matches on `self` and
    returns the same facts for every variant (`DynTensor::R1(t) => t.dtype()`, one arm per
    rank) would otherwise make each caller follow one path class per variant, and every class
    would learn the same."""
    if len(cases) < 2:
        return cases, lossy
    groups: dict[object, list[tuple[frozenset[Assumption], Value]]] = {}
    for case in cases:
        value = case[1]
        groups.setdefault((value.tracked(), value.origins, value.trail), []).append(case)
    if len(groups) == len(cases):
        return cases, lossy
    merged: list[tuple[frozenset[Assumption], Value]] = []
    merged_lossy: set[frozenset[Assumption]] = set()
    for group in groups.values():
        keys = [key for key, _ in group]
        common = keys[0].intersection(*keys[1:])
        merged.append(
            (common, join_all([value for _, value in group]) if len(group) > 1 else group[0][1])
        )
        if any(key in lossy for key in keys):
            merged_lossy.add(common)
    return merged, merged_lossy


@dataclass(slots=True)
class Summary:
    """What a function does, symbolic in its parameters."""

    cases: list[tuple[frozenset[Assumption], Value]] = field(
        default_factory=list[tuple[frozenset[Assumption], Value]]
    )
    hits: list[Hit] = field(default_factory=list[Hit])
    diverges: bool = False
    stores: list[tuple[str, str, Value]] = field(default_factory=list[tuple[str, str, Value]])
    """Field stores whose value depends on parameters: (type, field, value), made concrete
    at each call site."""
    receiver: Value | None = None
    """For a `&mut self` method: what `self` is when it returns (symbolic in the parameters),
    so the caller's receiver takes the fields the method set."""
    lossy: frozenset[int] = frozenset()
    """The cases whose result joins exits that disagree on a tracked fact for reasons the
    caller cannot see (the callee's own branches): what a caller concludes from them is lossy,
    so a "may" finding that rests on them is not reported."""

    @staticmethod
    def of(returns: Pairs, hits: list[Hit], stores: list[tuple[str, str, Value]]) -> Summary:
        """The summary of a function whose exits are `returns`: one case per assumption set."""
        by_assumptions: dict[frozenset[Assumption], list[Value]] = {}
        lossy_keys: set[frozenset[Assumption]] = set()
        for env, value in returns:
            by_assumptions.setdefault(env.assumptions, []).append(value)
            if env.lossy:
                lossy_keys.add(env.assumptions)
        cases = [(key, join_all(values)) for key, values in by_assumptions.items()]
        lossy_cases = {
            key
            for key, _ in cases
            if key in lossy_keys or len({v.tracked() for v in by_assumptions[key]}) > 1
        }
        cases, lossy_cases = _alike_merged(cases, lossy_cases)
        lossy = {index for index, (key, _) in enumerate(cases) if key in lossy_cases}
        if len(cases) > MAX_CASES:
            # Every case is instantiated at every call site; past the cap, keep only their join.
            cases = [(frozenset[Assumption](), join_all([value for _, value in cases]))]
            lossy = {0}
        return Summary(cases, hits, diverges=not returns, stores=stores, lossy=frozenset(lossy))


class Program(Protocol):
    """What calls need from the whole program: names resolved, summaries on demand, fields."""

    @property
    def record_states(self) -> bool:
        """Whether analyses keep what names were bound to (`interp.bindings`)."""
        ...

    def resolve_function(
        self, segments: tuple[str, ...], caller: FunctionDecl, trait_name: str | None = None
    ) -> list[FunctionDecl]: ...

    def trait_of_path(self, segments: tuple[str, ...], caller: FunctionDecl) -> str | None: ...

    def variant_of(
        self, segments: tuple[str, ...], caller: FunctionDecl
    ) -> tuple[str, frozenset[str]] | None: ...

    def resolve_method(
        self,
        name: str,
        caller: FunctionDecl,
        on_self: bool,
        types: frozenset[str] = frozenset(),
        trait: str | None = None,
        arity: int | None = None,
    ) -> list[FunctionDecl]: ...

    def constant_value(
        self, segments: tuple[str, ...], caller: FunctionDecl, trait_name: str | None = None
    ) -> Value | None: ...

    def declared_types(self, decl: FunctionDecl, text: str) -> frozenset[str]: ...

    def type_of_path(self, segments: tuple[str, ...], caller: FunctionDecl) -> str | None: ...

    def method_count(self, name: str) -> int: ...

    def field_types(self, types: frozenset[str], name: str) -> frozenset[str]: ...

    def numbers_only(self, type_key: str | None, name: str) -> bool: ...

    def non_float_field(self, types: frozenset[str], name: str) -> bool: ...

    def expand(self, module: Module, segments: tuple[str, ...]) -> tuple[tuple[str, ...], ...]: ...

    def default_value(self, type_key: str, span: ir.Span) -> Value | None: ...

    def option_payload(self, decl: FunctionDecl, text: str) -> str | None: ...

    def summary(self, decl: FunctionDecl) -> Summary | None: ...

    def field_value(self, owner: str, name: str) -> Value | None: ...

    def record_field(self, owner: str, name: str, value: Value) -> None: ...


@dataclass(slots=True)
class Context:
    """What the interpreter needs from the file and program: API model, era, names, deadline."""

    api: ApiModel
    era: str
    module: Module
    program: Program
    deadline: float
    build: str = "unknown"
    """Whether burn's `autodiff` feature is "on", "off" or "unknown" where this code compiles."""

    def resolve(self, segments: tuple[str, ...]) -> tuple[str, ...]:
        """A written path with its first segment expanded to what it names here (through
        imports, globs and re-exports), for the API model's suffix match; of the candidates a
        glob of another crate's items leaves, the first the API model knows."""
        candidates = self.program.expand(self.module, segments)
        if len(candidates) > 1:
            for candidate in candidates:
                if self.api.match_call(candidate, self.era) is not None:
                    return candidate
        return candidates[-1] if candidates else segments

    def call_rule(self, segments: tuple[str, ...]) -> ApiRule | None:
        """The API rule a written call path matches in this file's era."""
        return self.api.match_call(self.resolve(segments), self.era)


class Calls:
    """Evaluates the calls inside one function (`caller`) on one path class at a time."""

    def __init__(self, ctx: Context, caller: FunctionDecl, observer: Observer) -> None:
        self.ctx = ctx
        self.caller = caller
        self.observer = observer
        self.used: dict[int, Summary | None] = {}
        """The callee summaries this function's result depends on, as they were when used."""
        self.compared: set[ir.Span] = set()
        """Calls written as an operand of `==`/`!=`: what they build is compared, never handed
        to burn, so building it is no sink (`x.autodiff == Ctx::Enabled(..)`)."""
        self.stores: list[tuple[str, str, Value]] = []
        self._recorded: set[tuple[str, str, Value]] = set()
        self._changing_receiver = caller.has_self and not caller.fixed_receiver
        """Whether the caller takes `&mut self` or `mut self`: a method it calls on `self` may
        change the receiver, so a result read from the receiver's field is not linked to it."""
        """Field stores that depend on this function's parameters (see `Summary.stores`)."""

    def store(self, owner: str, name: str, value: Value) -> None:
        """`owner`'s field `name` receives `value`: recorded now if it is concrete, at each call
        site of this function if it depends on the parameters."""
        if value.params:
            entry = (owner, name, value)
            if entry not in self.stores:
                self.stores.append(entry)
            # Callers outside the program (a public API) may pass anything.
            value = detached(value)
        key = (owner, name, value)
        if key in self._recorded:
            # The same store again (a call in a loop, another path class): nothing new.
            return
        self._recorded.add(key)
        self.ctx.program.record_field(owner, name, value)

    def path_value(self, path: ir.Path) -> Value:
        """The value of a path expression: a boolean constant, `None`, or an API value."""
        segments = path.segments
        program = self.ctx.program
        constant = program.constant_value(segments, self.caller, path.trait_name)
        if constant is not None:
            return constant
        if segments == ("None",):
            return none_value(path.span)
        variant = self.variant(segments)
        if variant is not None:
            return variant
        rule = self.ctx.call_rule(segments)
        if rule is not None and rule.effect == "strategy":
            return strategy_value(segments[-1])
        if rule is not None:
            return effect_value(rule, path.span, [], None, {}, None)
        variant = variant_name(segments)
        if variant is not None:
            return Value(boolean=frozenset({variant}))
        unit = program.type_of_path(segments, self.caller) if segments[-1][:1].isupper() else None
        if unit is not None:
            # A unit struct used as a value: `let loader = AutodiffLoader;`.
            return UNKNOWN_VALUE.typed(frozenset({unit}))
        return UNKNOWN_VALUE

    def variant(self, segments: tuple[str, ...]) -> Value | None:
        """A unit variant of one of the program's enums, as a constant named by its canonical
        key (so `Eval`, `Mode::Eval` and `Self::Eval` are one value, told apart from `Train`)."""
        found = self.ctx.program.variant_of(segments, self.caller)
        if found is None:
            return None
        key = found[0]
        return Value(boolean=frozenset({key})).typed(frozenset({key.rsplit("::", 1)[0]}))

    def call(self, expr: ir.Call, args: list[Value], env: Env) -> Pairs:
        """`callee(args)` on the path class `env`."""
        callee = expr.callee
        if not isinstance(callee, ir.Path):
            return [(env, UNKNOWN_VALUE)]
        segments = callee.segments
        last = segments[-1] if segments else ""
        if segments in WRAPPERS and args:
            return [(env, some_value(args[0]) if segments == ("Some",) else args[0])]
        resolved = self.ctx.resolve(segments)
        self.observer.call(expr, resolved, args, env)
        program = self.ctx.program
        functions = program.resolve_function(segments, self.caller, callee.trait_name)
        if not functions and len(segments) >= 2 and args:
            # `Trait::method(&x)`: the receiver's type picks the implementation.
            trait = program.trait_of_path(segments, self.caller)
            if trait is not None and args[0].types:
                functions = program.resolve_method(last, self.caller, False, args[0].types, trait)
        if functions:
            return self._apply_summaries(functions, expr, args, env)
        if last == "default" and len(segments) >= 2 and not args:
            owner = program.type_of_path(segments[:-1], self.caller)
            derived = program.default_value(owner, expr.span) if owner is not None else None
            if derived is not None:
                return [(env, derived)]
        rule = self.ctx.api.match_call(resolved, self.ctx.era)
        if rule is not None:
            named = {role: args[i] for role, i in rule.args.items() if i < len(args)}
            return self._api(rule, expr, args, None, named, env)
        if last[:1].isupper():
            # A tuple struct (or tuple variant) built from its fields: `Pair(a, b)`.
            owner = self.caller.owner if segments == ("Self",) else last
            for index, arg in enumerate(args):
                self.store(owner or last, str(index), arg)
            built = program.type_of_path(segments, self.caller)
            typed = frozenset({built}) if built is not None else frozenset[str]()
            value = tuple_value(args).typed(typed)
            variant = self.variant(segments)
            if variant is not None:
                # A tuple variant of the program's enums: its payload, and which variant it is.
                value = dataclasses.replace(
                    value, boolean=variant.boolean, types=value.types | variant.types
                )
            return [(env, value)]
        return [(env, UNKNOWN_VALUE)]

    def method(self, expr: ir.MethodCall, receiver: Value, args: list[Value], env: Env) -> Pairs:
        """`receiver.name(args)` on the path class `env`."""
        name = expr.name
        program = self.ctx.program
        typed = receiver.types
        if typed and name not in IDENTITY_METHODS:
            # (`clone`, `into`, `as_ref` are taken as what std's traits promise, whoever
            # implements them.)
            # The receiver's type is known: its impls decide, never a same-named method of
            # another type.
            functions = program.resolve_method(name, self.caller, False, typed)
            if functions:
                # Only the type tells which of several same-named methods runs: what such a
                # callee's own branches leave open is not held against the caller.
                shared = program.method_count(name) > 1
                return self._apply_summaries(functions, expr, [receiver, *args], env, shared)
        if name in IDENTITY_METHODS:
            return [(env, receiver)]
        if name in UNWRAP_METHODS:
            return [(env, unwrap(receiver))]
        if name in ITER_METHODS:
            element = receiver.get_field("elem")
            return [(env, receiver if element is not None else UNKNOWN_VALUE)]
        if name in ("index", "remove", "swap_remove"):
            element = receiver.get_field("elem")
            return [(env, element if element is not None else UNKNOWN_VALUE)]
        if name in ("pop", "first", "last", "get", "first_mut", "last_mut", "get_mut"):
            element = receiver.get_field("elem")
            return [(env, some_value(element) if element is not None else UNKNOWN_VALUE)]
        if name == "take" and not args:
            return [(env, receiver)]
        if name == "unwrap_or_default":
            return [(env, unwrap_or_default(receiver, expr.span))]
        is_self = isinstance(expr.receiver, ir.Var) and expr.receiver.name == "self"
        if is_self and not typed:
            functions = program.resolve_method(name, self.caller, True)
            if functions:
                return self._apply_summaries(functions, expr, [receiver, *args], env)
        rule = self.ctx.api.match_method(name, receiver_kinds(receiver), self.ctx.era)
        if rule is not None:
            named = {role: args[i - 1] for role, i in rule.args.items() if 0 < i <= len(args)}
            named.setdefault("receiver", receiver)
            return self._api(rule, expr, args, receiver, named, env)
        if not is_self and not typed:
            functions = program.resolve_method(name, self.caller, False, arity=len(args))
            if functions:
                return self._apply_summaries(functions, expr, [receiver, *args], env)
        if receiver.tensor or receiver.params:
            # An unknown method on a tensor is assumed to return a tensor of the same kind.
            kept = Value(
                tensor=receiver.tensor,
                params=receiver.params,
                origins=receiver.origins,
                hint=receiver.hint,
            )
            if is_untracked(receiver) and not any(a.tensor or a.params for a in args):
                # `x.exp()`, `x.sum()`, `x.powf_scalar(2.0)`: no other tensor joins the graph.
                kept = with_tracking(kept, False)
            return [(env, kept)]
        return [(env, UNKNOWN_VALUE)]

    def operator(self, expr: ir.Binary, left: Value, right: Value, env: Env) -> Pairs:
        """`left op right` with a tensor operand: the API rule of the method the operator
        stands for (`a + b` is `a.add(b)`), or the tensor operand's kind for `2.0 * t`."""
        name = OPERATOR_METHODS.get(expr.op)
        rule = None
        if name is not None:
            rule = self.ctx.api.match_method(name, receiver_kinds(left), self.ctx.era)
        if rule is None:
            if name is not None and right.tensor and not left.tensor:
                return [(env, tensor_facts(right))]
            return [(env, Value())]
        named = {"receiver": left, "other": right}
        value = effect_value(rule, expr.span, [right], left, named, None)
        sink_values = effect_sink_values(rule, [right], left, named, self.ctx.build)
        if sink_values is not None:
            self.observer.effect(rule, sink_values, expr, env)
        return [(env, value)]

    def _api(
        self,
        rule: ApiRule,
        expr: ir.Call | ir.MethodCall,
        args: list[Value],
        receiver: Value | None,
        named: dict[str, Value],
        env: Env,
    ) -> Pairs:
        value = effect_value(rule, expr.span, args, receiver, named, expr)
        sink_values = effect_sink_values(rule, args, receiver, named, self.ctx.build)
        if sink_values is not None and expr.span not in self.compared:
            self.observer.effect(rule, sink_values, expr, env)
        return effect_outcomes(rule, value, env, expr)

    def _apply_summaries(
        self,
        functions: list[FunctionDecl],
        expr: ir.Call | ir.MethodCall,
        args: list[Value],
        env: Env,
        shared: bool = False,
    ) -> Pairs:
        out: Pairs = []
        arg_exprs: list[ir.Expr | None] = list(expr.args)
        if isinstance(expr, ir.MethodCall):
            arg_exprs = [expr.receiver, *expr.args]
        for function in functions:
            summary = self.ctx.program.summary(function)
            self.used.setdefault(function.uid, summary)
            if summary is None:
                # Still being computed (recursion) or too deep: an unknown value of the
                # declared type.
                value = UNKNOWN_VALUE
                if function.return_type:
                    value = value.typed(
                        self.ctx.program.declared_types(function, function.return_type)
                    )
                out.append((env, value))
                continue
            if function.kind != "const" and self.observer.bindings.enabled:
                self.observer.bindings.passed(function.lowered().params, args)
            for hit in summary.hits:
                self._instantiate_hit(hit, function, args, arg_exprs, env, expr.span)
            for owner, name, stored in summary.stores:
                self.store(owner, name, instantiate(stored, args, expr.span))
            declared = self.ctx.program.declared_types(function, function.return_type)
            mutated = self._mutated_receiver(summary, expr, args)
            for index, (assumptions, ret) in enumerate(summary.cases):
                current = self._assume_all(env, assumptions, args, arg_exprs)
                if current is not None and mutated is not None:
                    current = current.set(*mutated)
                if current is not None and shared and index in summary.lossy and not current.lossy:
                    current = dataclasses.replace(current, lossy=True)
                if current is not None:
                    value = instantiate(ret, args, expr.span)
                    if self._changing_receiver:
                        value = _unlinked_from_receiver(value)
                    if function.return_type:
                        # The caller sees the signature's type, as rustc does: a function
                        # returning `Box<dyn Stage>` hides which impl it built.
                        value = value.retyped(declared)
                    out.append((current, value))
        return out

    @staticmethod
    def _mutated_receiver(
        summary: Summary, expr: ir.Call | ir.MethodCall, args: list[Value]
    ) -> tuple[int, Value] | None:
        """The caller's receiver binding after a `&mut self` method that set its fields."""
        if summary.receiver is None or not isinstance(expr, ir.MethodCall):
            return None
        receiver = expr.receiver
        if not isinstance(receiver, ir.Var) or receiver.name == "self":
            return None
        return receiver.binding, instantiate(summary.receiver, args, expr.span)

    def _assume_all(
        self,
        env: Env,
        assumptions: frozenset[Assumption],
        args: list[Value],
        arg_exprs: list[ir.Expr | None],
    ) -> Env | None:
        """`env` refined by what the callee assumed of its parameters; None if it cannot hold."""
        current: Env | None = env
        for index, steps, facet_name, allowed in assumptions:
            if current is None:
                break
            arg = args[index] if index < len(args) else UNKNOWN_VALUE
            place = arg_exprs[index] if index < len(arg_exprs) else None
            current = _assume_arg(current, arg, place, steps, facet_name, allowed)
        return current

    def _instantiate_hit(
        self,
        hit: Hit,
        function: FunctionDecl,
        args: list[Value],
        arg_exprs: list[ir.Expr | None],
        env: Env,
        span: ir.Span,
    ) -> None:
        current = self._assume_all(env, hit.assumptions, args, arg_exprs)
        if current is None:
            return
        values = {
            role: instantiate(value, args, span).with_step(
                f"passed to `{function.name}` here", span
            )
            for role, value in hit.values
        }
        chain = ((f"reaches `{function.name}`'s sink here", hit.site.span), *hit.site.chain)
        role_spans: list[tuple[str, ir.Span]] = []
        for role, value in hit.values:
            indexes = {index for index, _ in value.params}
            if len(indexes) == 1:
                (index,) = indexes
                arg_expr = arg_exprs[index] if index < len(arg_exprs) else None
                if arg_expr is not None:
                    role_spans.append((role, arg_expr.span))
        site = Site(
            code=hit.spec.code,
            kind="summary",
            span=span,
            whole=span,
            role_spans=tuple(role_spans),
            scope=None,
            variant=hit.site.variant,
            chain=chain,
        )
        self.observer.observe(hit.spec, site, values, current)


def _unlinked_from_receiver(value: Value) -> Value:
    """`value` without a link to a field of the caller's receiver (parameter 0)."""
    link = receiver_link(value)
    return unlinked(value) if link is not None and link[0] == 0 else value


def _assume_arg(
    env: Env,
    arg: Value,
    place: ir.Expr | None,
    steps: tuple[Step, ...],
    facet_name: str,
    allowed: frozenset[str],
) -> Env | None:
    """`env` where the argument `arg` (written `place`) satisfies one callee assumption."""
    projected = arg
    for step in steps:
        projected = apply_step(projected, step)
    known = projected.facet(facet_name) - {UNKNOWN}
    if known and not (known & allowed) and not projected.params:
        return None
    if steps:
        return env
    return refine(env, place, facet_name, allowed) or (env if known & allowed else None)
