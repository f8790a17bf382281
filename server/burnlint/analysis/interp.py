"""Forward abstract interpretation of one lowered function over disjunctive states.

Each expression is evaluated per path class (`Env`) and yields a list of (Env, Value) pairs;
branches on guards split path classes and refine what is known, so correlations such as
"`ctx` is enabled exactly when `x` is autodiff" survive joins. Evaluation is driven by an
explicit stack of generators (`_run`), never by Python recursion on the tree's depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import Any

from burnlint.analysis import ir
from burnlint.analysis.api import ApiModel, ApiRule, SinkSpec
from burnlint.analysis.sinks import Hit, Observation, Site, verdict
from burnlint.analysis.state import Assumption, Env, dedup, merge_envs
from burnlint.analysis.values import (
    AUTODIFF,
    DISABLED,
    EMPTY,
    ENABLED,
    FALSE,
    FLOAT,
    OTHER,
    PLAIN,
    TRUE,
    UNIT,
    UNKNOWN,
    UNKNOWN_VALUE,
    Step,
    Value,
    bounded,
    ctx_of_tensor,
    device_of_tensor,
    join,
    join_all,
)

Pairs = list[tuple[Env, Value]]
Gen = Generator[tuple[str, Any, Env], Pairs, Pairs]

MAX_LOOP_ROUNDS = 6
IDENTITY_METHODS = frozenset(
    {"clone", "to_owned", "as_ref", "as_mut", "borrow", "borrow_mut", "into", "to_vec", "cloned"}
)
UNWRAP_METHODS = frozenset({"unwrap", "expect", "unwrap_unchecked"})
ITER_METHODS = frozenset({"iter", "into_iter", "iter_mut", "drain"})


class Budget(Exception):
    """The per-file time budget ran out."""


@dataclass(slots=True)
class Summary:
    """What a function does, symbolic in its parameters."""

    cases: list[tuple[frozenset[Assumption], Value]] = field(
        default_factory=lambda: list[tuple[frozenset[Assumption], Value]]()
    )
    hits: list[Hit] = field(default_factory=lambda: list[Hit]())
    diverges: bool = False


@dataclass(slots=True)
class _Loop:
    label: str | None
    breaks: Pairs = field(default_factory=lambda: Pairs())
    continues: list[Env] = field(default_factory=lambda: list[Env]())


@dataclass(slots=True)
class Context:
    """What the interpreter needs from the file: API model, era, resolvers, deadline."""

    api: ApiModel
    era: str
    imports: dict[str, tuple[str, ...]]
    consts: dict[str, ir.Lit]
    resolve_function: Callable[[tuple[str, ...], str | None], list[ir.Function]]
    resolve_method: Callable[[str, str | None, bool], list[ir.Function]]
    summaries: dict[int, Summary]
    deadline: float


class Interpreter:
    """Interprets one function; results are its observations and its summary."""

    def __init__(self, ctx: Context, function: ir.Function) -> None:
        self.ctx = ctx
        self.function = function
        self.observations: dict[tuple[str, int, int, int], Observation] = {}
        self.hits: list[Hit] = []
        self._returns: Pairs = []
        self._loops: list[_Loop] = []
        self._ticks = 0
        self.used: dict[int, Summary | None] = {}

    # ---- entry ----------------------------------------------------------------------------

    def run(self) -> Summary:
        """Interpret the body from parameters bound to symbolic values."""
        env = Env()
        for index, param in enumerate(self.function.params):
            hint = _type_hint(param.type_text)
            value = Value(params=frozenset({(index, ())}), hint=hint)
            env = self._bind_param(param.pattern, value, env)
        body = self.function.body
        if body is None:
            return Summary()
        ends = self._run(self._block(body, env))
        returns = ends + self._returns
        summary = Summary(diverges=not returns)
        by_assumptions: dict[frozenset[Assumption], list[Value]] = {}
        for end_env, value in returns:
            by_assumptions.setdefault(end_env.assumptions, []).append(value)
        cases = [(key, join_all(values)) for key, values in by_assumptions.items()]
        if len(cases) > 8:
            cases = [(frozenset(), join_all([value for _, value in cases]))]
        summary.cases = cases
        summary.hits = self.hits
        return summary

    def _bind_param(self, pattern: ir.Pat, value: Value, env: Env) -> Env:
        if isinstance(pattern, ir.PBind):
            return env.set(pattern.binding, value)
        yes, _ = self._match_pattern(pattern, value, env, None)
        return yes[0] if yes else env

    # ---- driver ---------------------------------------------------------------------------

    def _run(self, first: Gen) -> Pairs:
        stack: list[Gen] = [first]
        value: Any = None
        while stack:
            try:
                request = stack[-1].send(value)
            except StopIteration as stop:
                stack.pop()
                value = stop.value
                continue
            self._ticks += 1
            if self._ticks % 512 == 0 and time.monotonic() > self.ctx.deadline:
                raise Budget
            kind, node, env = request
            value = None
            stack.append(self._block(node, env) if kind == "block" else self._expr(node, env))
        return value

    def _many(self, expr: ir.Expr, envs: list[Env]) -> Gen:
        """Evaluate `expr` in every path class."""
        out: Pairs = []
        for env in dedup(envs):
            out.extend((yield ("expr", expr, env)))
        return out

    def _seq(
        self, exprs: tuple[ir.Expr, ...], env: Env
    ) -> Generator[Any, Any, list[tuple[Env, list[Value]]]]:
        """Evaluate expressions left to right, threading path classes."""
        states: list[tuple[Env, list[Value]]] = [(env, [])]
        for expr in exprs:
            nxt: list[tuple[Env, list[Value]]] = []
            for state_env, values in states:
                for out_env, value in (yield ("expr", expr, state_env)):
                    nxt.append((out_env, [*values, value]))
            if len(nxt) > 16:
                merged = merge_envs([e for e, _ in nxt])
                width = len(nxt[0][1])
                nxt = [(merged, [join_all([vals[i] for _, vals in nxt]) for i in range(width)])]
            states = nxt
        return states

    # ---- blocks and statements ------------------------------------------------------------

    def _block(self, block: ir.Block, env: Env) -> Gen:
        envs = [env]
        for stmt in block.stmts:
            nxt: list[Env] = []
            for current in dedup(envs):
                if isinstance(stmt, ir.Let):
                    nxt.extend((yield from self._let(stmt, current)))
                else:
                    nxt.extend(out for out, _ in (yield ("expr", stmt.expr, current)))
            envs = nxt
            if not envs:
                return []
        if block.tail is None:
            return [(e, UNIT) for e in dedup(envs)]
        return (yield from self._many(block.tail, envs))

    def _let(self, stmt: ir.Let, env: Env) -> Generator[Any, Any, list[Env]]:
        if stmt.init is None:
            pairs: Pairs = [(env, Value())]
        else:
            pairs = yield ("expr", stmt.init, env)
        out: list[Env] = []
        for current, value in pairs:
            yes, no = self._match_pattern(stmt.pattern, value, current, stmt.init)
            out.extend(yes)
            if stmt.otherwise is not None and no:
                for other in no:
                    out.extend(e for e, _ in (yield ("block", stmt.otherwise, other)))
        return out

    # ---- expressions ----------------------------------------------------------------------

    def _expr(self, expr: ir.Expr, env: Env) -> Gen:
        if isinstance(expr, ir.Var):
            value = env.get(expr.binding)
            return [(env, value if value is not None else UNKNOWN_VALUE)]
        if isinstance(expr, ir.Path):
            return [(env, self._path_value(expr))]
        if isinstance(expr, ir.Lit):
            if expr.kind == "bool":
                return [(env, TRUE if expr.value == "true" else FALSE)]
            return [(env, UNIT)]
        if isinstance(expr, ir.Call):
            return (yield from self._call(expr, env))
        if isinstance(expr, ir.MethodCall):
            return (yield from self._method(expr, env))
        if isinstance(expr, ir.Field):
            pairs = yield ("expr", expr.base, env)
            return [(e, read_field(v, expr.name)) for e, v in pairs]
        if isinstance(expr, ir.StructLit):
            return (yield from self._struct(expr, env))
        if isinstance(expr, ir.Tuple | ir.Array):
            states = yield from self._seq(expr.items, env)
            out: Pairs = []
            for state_env, values in states:
                if isinstance(expr, ir.Tuple):
                    fields = tuple((str(i), v) for i, v in enumerate(values))
                    out.append(
                        (
                            state_env,
                            bounded(Value(fields=tuple(sorted(fields, key=lambda kv: kv[0])))),
                        )
                    )
                else:
                    element = join_all(values) if values else Value()
                    out.append((state_env, bounded(Value(fields=(("elem", element),)))))
            return out
        if isinstance(expr, ir.Unary):
            pairs = yield ("expr", expr.operand, env)
            if expr.op == "!":
                return [(e, _negate(v)) for e, v in pairs]
            return [(e, UNKNOWN_VALUE) for e, _ in pairs]
        if isinstance(expr, ir.Binary):
            return (yield from self._binary(expr, env))
        if isinstance(expr, ir.LetCond):
            pairs = yield ("expr", expr.value, env)
            out = []
            for current, value in pairs:
                yes, no = self._match_pattern(expr.pattern, value, current, expr.value)
                out.extend((e, TRUE) for e in yes)
                out.extend((e, FALSE) for e in no)
            return out
        if isinstance(expr, ir.If):
            return (yield from self._if(expr, env))
        if isinstance(expr, ir.Match):
            return (yield from self._match(expr, env))
        if isinstance(expr, ir.Loop):
            return (yield from self._loop(expr, env))
        if isinstance(expr, ir.Block):
            return (yield ("block", expr, env))
        if isinstance(expr, ir.Return):
            pairs = [(env, UNIT)] if expr.value is None else (yield ("expr", expr.value, env))
            self._returns.extend(pairs)
            return []
        if isinstance(expr, ir.Break):
            pairs = [(env, UNIT)] if expr.value is None else (yield ("expr", expr.value, env))
            target = self._loop_for(expr.label)
            if target is not None:
                target.breaks.extend(pairs)
            return []
        if isinstance(expr, ir.Continue):
            target = self._loop_for(expr.label)
            if target is not None:
                target.continues.append(env)
            return []
        if isinstance(expr, ir.Diverge):
            return []
        if isinstance(expr, ir.Assert):
            pairs = yield ("expr", expr.cond, env)
            return [(e, UNIT) for e, v in pairs if _may_be(v, "true")]
        if isinstance(expr, ir.Assign):
            return (yield from self._assign(expr, env))
        if isinstance(expr, ir.Try):
            pairs = yield ("expr", expr.value, env)
            return [(e, unwrap(v)) for e, v in pairs]
        if isinstance(expr, ir.Closure):
            return [(env, Value(closure=expr.span.start))]
        parts = expr.parts
        states = yield from self._seq(parts, env)
        return [(e, UNKNOWN_VALUE) for e, _ in states]

    def _loop_for(self, label: str | None) -> _Loop | None:
        for loop in reversed(self._loops):
            if label is None or loop.label == label:
                return loop
        return None

    def _path_value(self, path: ir.Path) -> Value:
        segments = path.segments
        if len(segments) == 1 and segments[0] in self.ctx.consts:
            return TRUE if self.ctx.consts[segments[0]].value == "true" else FALSE
        if segments == ("None",):
            return none_value(path.span)
        rule = self.ctx.api.match_call(self._resolve(segments), self.ctx.era)
        if rule is not None:
            return self._effect(rule, path.span, [], None, {}, None)
        return UNKNOWN_VALUE

    def _resolve(self, segments: tuple[str, ...]) -> tuple[str, ...]:
        full = self.ctx.imports.get(segments[0])
        if full is not None:
            return full + segments[1:]
        return segments

    # ---- calls ----------------------------------------------------------------------------

    def _call(self, expr: ir.Call, env: Env) -> Gen:
        states = yield from self._seq(expr.args, env)
        callee = expr.callee
        out: Pairs = []
        if not isinstance(callee, ir.Path):
            for state_env, _ in states:
                out.append((state_env, UNKNOWN_VALUE))
            return out
        segments = callee.segments
        resolved = self._resolve(segments)
        for state_env, args in states:
            if (
                segments in (("Some",), ("Ok",), ("Box", "new"), ("Rc", "new"), ("Arc", "new"))
                and args
            ):
                value = some_value(args[0]) if segments == ("Some",) else args[0]
                out.append((state_env, value))
                continue
            self._check_call_sinks(expr, resolved, args, state_env)
            functions = self.ctx.resolve_function(segments, self.function.owner)
            if functions:
                out.extend(self._apply_summaries(functions, expr, args, state_env, expr.span))
                continue
            rule = self.ctx.api.match_call(resolved, self.ctx.era)
            if rule is not None:
                named = {role: args[i] for role, i in rule.args.items() if i < len(args)}
                value = self._effect(rule, expr.span, args, None, named, expr)
                out.extend(self._effect_outcomes(rule, value, state_env, expr, None))
                continue
            out.append((state_env, UNKNOWN_VALUE))
        return out

    def _method(self, expr: ir.MethodCall, env: Env) -> Gen:
        receivers = yield ("expr", expr.receiver, env)
        out: Pairs = []
        for receiver_env, receiver in receivers:
            states = yield from self._seq(expr.args, receiver_env)
            for state_env, args in states:
                out.extend(self._method_value(expr, receiver, args, state_env))
        return out

    def _method_value(
        self, expr: ir.MethodCall, receiver: Value, args: list[Value], env: Env
    ) -> Pairs:
        name = expr.name
        if name in IDENTITY_METHODS:
            return [(env, receiver)]
        if name in UNWRAP_METHODS:
            return [(env, unwrap(receiver))]
        if name in ITER_METHODS:
            element = receiver.get_field("elem")
            return [(env, receiver if element is not None else UNKNOWN_VALUE)]
        if name == "index":
            element = receiver.get_field("elem")
            return [(env, element if element is not None else UNKNOWN_VALUE)]
        if name == "unwrap_or_default":
            return [(env, unwrap_or_default(receiver, expr.span))]
        is_self = isinstance(expr.receiver, ir.Var) and expr.receiver.name == "self"
        if is_self:
            functions = self.ctx.resolve_method(name, self.function.owner, True)
            if functions:
                return self._apply_summaries(functions, expr, [receiver, *args], env, expr.span)
        kinds = receiver_kinds(receiver)
        rule = self.ctx.api.match_method(name, kinds, self.ctx.era)
        if rule is not None:
            named = {role: args[i - 1] for role, i in rule.args.items() if 0 < i <= len(args)}
            named.setdefault("receiver", receiver)
            value = self._effect(rule, expr.span, args, receiver, named, expr)
            return self._effect_outcomes(rule, value, env, expr, receiver)
        if not is_self:
            functions = self.ctx.resolve_method(name, None, False)
            if functions:
                return self._apply_summaries(functions, expr, [receiver, *args], env, expr.span)
        if receiver.tensor or receiver.params:
            return [
                (
                    env,
                    Value(
                        tensor=receiver.tensor,
                        params=receiver.params,
                        origins=receiver.origins,
                        hint=receiver.hint,
                    ),
                )
            ]
        return [(env, UNKNOWN_VALUE)]

    # ---- effects --------------------------------------------------------------------------

    def _effect(
        self,
        rule: ApiRule,
        span: ir.Span,
        args: list[Value],
        receiver: Value | None,
        named: dict[str, Value],
        site: ir.Call | ir.MethodCall | None,
    ) -> Value:
        effect = rule.effect
        label = rule.label
        subject = named.get(
            "tensor",
            named.get("device", receiver if receiver is not None else (args[0] if args else None)),
        )
        if effect == "device-autodiff":
            inner = named.get("device", receiver)
            strategy = named.get("strategy")
            strategies = (
                strategy.strategy
                if strategy is not None and strategy.strategy
                else (frozenset({"?"}) if strategy is not None else frozenset({"Disabled"}))
            )
            value = Value(device=frozenset({AUTODIFF}), strategy=strategies)
            if site is not None and inner is not None:
                self._check_effect_sinks(rule, {"device": inner}, site, span)
            return value.with_origin(label or "autodiff device created here", span)
        if effect == "device-checkpointing":
            base = receiver if receiver is not None else UNKNOWN_VALUE
            return replace(base, strategy=frozenset({"Balanced"}))
        if effect == "device-plain":
            return Value(device=frozenset({PLAIN}))
        if effect == "device-inner":
            return Value(device=frozenset({PLAIN}))
        if effect == "device-of":
            source = subject if subject is not None else UNKNOWN_VALUE
            device = device_of_tensor(source.tensor) if source.tensor else frozenset({UNKNOWN})
            value = Value(device=device, strategy=source.strategy, origins=source.origins)
            return value if not source.params else join(value, source.project(("method", "device")))
        if effect == "tensor-create":
            device = named.get("device")
            if device is None:
                device = next((a for a in reversed(args) if a.device - {UNKNOWN}), None) or next(
                    (a for a in reversed(args) if "device" in a.hint), None
                )
            if device is None:
                return self._effect(
                    replace(rule, effect="tensor-op"), span, args, receiver, named, site
                )
            if not device.device:
                if device.params:
                    return Value(params=device.params).project(("method", f"create:{rule.dtype}"))
                return Value(tensor=frozenset({UNKNOWN}))
            value = tensor_on(device, rule.dtype)
            if AUTODIFF in value.tensor:
                value = value.with_origin(label or "autodiff tensor created here", span)
            return value
        if effect == "tensor-op":
            inputs = [
                v
                for v in ([receiver] if receiver is not None else []) + args
                if v.tensor or v.params
            ]
            if not inputs:
                return Value(tensor=frozenset({UNKNOWN}))
            certain = [v for v in inputs if v.tensor == frozenset({AUTODIFF}) and not v.params]
            # An op with a certainly-autodiff input yields an autodiff output whatever the others are.
            chosen = certain or inputs
            merged = join_all(
                [
                    Value(tensor=v.tensor, strategy=v.strategy, params=v.params, origins=v.origins)
                    for v in chosen
                ]
            )
            if rule.dtype == "other" and merged.tensor:
                merged = replace(
                    merged, tensor=frozenset(OTHER if k == FLOAT else k for k in merged.tensor)
                )
            return merged
        if effect == "tensor-strip":
            return Value(tensor=frozenset({FLOAT}))
        if effect == "tensor-lift":
            if site is not None and subject is not None:
                self._check_effect_sinks(rule, {"tensor": subject}, site, span)
            return Value(
                tensor=frozenset({AUTODIFF}), strategy=frozenset({"Disabled"})
            ).with_origin(label or "autodiff tensor created here", span)
        if effect == "tensor-grad":
            return some_value(Value(tensor=frozenset({FLOAT})))
        if effect == "kind-autodiff":
            if site is not None and subject is not None:
                self._check_effect_sinks(rule, {"tensor": subject}, site, span)
            return Value(tensor=frozenset({AUTODIFF})).with_origin(
                label or "autodiff kind built here", span
            )
        if effect == "kind-backend":
            inner = subject.tensor if subject is not None else EMPTY
            return Value(
                tensor=frozenset({FLOAT}) if inner == frozenset({FLOAT}) else frozenset({OTHER})
            )
        if effect == "backend-float":
            return Value(tensor=frozenset({FLOAT}))
        if effect == "backend-other":
            return Value(tensor=frozenset({OTHER}))
        if effect in ("ctx-disabled", "ctx-default"):
            return Value(ctx=frozenset({DISABLED})).with_origin(
                label or "context disabled here", span
            )
        if effect == "ctx-enabled":
            strategy = named.get("strategy")
            strategies = (
                strategy.strategy
                if strategy is not None and strategy.strategy
                else frozenset({"?"})
            )
            return Value(ctx=frozenset({ENABLED}), strategy=strategies)
        if effect == "strategy":
            name = (
                site.callee.segments[-1]
                if isinstance(site, ir.Call) and isinstance(site.callee, ir.Path)
                else ""
            )
            return Value(strategy=frozenset({name or "?"}))
        if effect == "identity":
            return subject if subject is not None else UNKNOWN_VALUE
        if effect == "unwrap":
            return unwrap(subject) if subject is not None else UNKNOWN_VALUE
        if effect == "unwrap-or-default":
            return unwrap_or_default(subject, span) if subject is not None else UNKNOWN_VALUE
        if effect == "some":
            return some_value(subject) if subject is not None else UNKNOWN_VALUE
        if effect == "none":
            return none_value(span)
        return UNKNOWN_VALUE

    def _effect_outcomes(
        self,
        rule: ApiRule,
        value: Value,
        env: Env,
        site: ir.Call | ir.MethodCall,
        receiver: Value | None,
    ) -> Pairs:
        """Split path classes for guard effects; other effects produce one outcome."""
        if rule.effect not in ("guard-tensor-autodiff", "guard-device-autodiff"):
            return [(env, value)]
        if isinstance(site, ir.MethodCall):
            place_expr: ir.Expr | None = site.receiver
        else:
            index = rule.args.get("tensor", rule.args.get("device", 0))
            place_expr = site.args[index] if index < len(site.args) else None
        facet = "tensor" if rule.effect == "guard-tensor-autodiff" else "device"
        negative = frozenset({FLOAT, OTHER}) if facet == "tensor" else frozenset({PLAIN})
        out: Pairs = []
        yes = self._refine(env, place_expr, facet, frozenset({AUTODIFF}))
        if yes is not None:
            out.append((yes, TRUE))
        no = self._refine(env, place_expr, facet, negative)
        if no is not None:
            out.append((no, FALSE))
        return out

    # ---- summaries ------------------------------------------------------------------------

    def _apply_summaries(
        self,
        functions: list[ir.Function],
        expr: ir.Call | ir.MethodCall,
        args: list[Value],
        env: Env,
        span: ir.Span,
    ) -> Pairs:
        out: Pairs = []
        arg_exprs: list[ir.Expr | None] = list(expr.args)
        if isinstance(expr, ir.MethodCall):
            arg_exprs = [expr.receiver, *expr.args]
        for function in functions:
            summary = self.ctx.summaries.get(function.span.start)
            self.used.setdefault(function.span.start, summary)
            if summary is None:
                out.append((env, UNKNOWN_VALUE))
                continue
            for hit in summary.hits:
                self._instantiate_hit(hit, function, args, arg_exprs, env, span)
            for assumptions, ret in summary.cases:
                current: Env | None = env
                for index, steps, facet, allowed in assumptions:
                    if current is None:
                        break
                    arg = args[index] if index < len(args) else UNKNOWN_VALUE
                    place = arg_exprs[index] if index < len(arg_exprs) else None
                    current = self._assume_arg(current, arg, place, steps, facet, allowed)
                if current is not None:
                    out.append((current, instantiate(ret, args, span)))
        return out

    def _assume_arg(
        self,
        env: Env,
        arg: Value,
        place: ir.Expr | None,
        steps: tuple[Step, ...],
        facet: str,
        allowed: frozenset[str],
    ) -> Env | None:
        projected = arg
        for step in steps:
            projected = apply_step(projected, step)
        known = _facet(projected, facet) - {UNKNOWN}
        if known and not (known & allowed) and not projected.params:
            return None
        if steps:
            return env
        return self._refine(env, place, facet, allowed) or (env if known & allowed else None)

    def _instantiate_hit(
        self,
        hit: Hit,
        function: ir.Function,
        args: list[Value],
        arg_exprs: list[ir.Expr | None],
        env: Env,
        span: ir.Span,
    ) -> None:
        current: Env | None = env
        for index, steps, facet, allowed in hit.assumptions:
            if current is None:
                return
            arg = args[index] if index < len(args) else UNKNOWN_VALUE
            place = arg_exprs[index] if index < len(arg_exprs) else None
            current = self._assume_arg(current, arg, place, steps, facet, allowed)
        if current is None:
            return
        values = {role: instantiate(value, args, span) for role, value in hit.values}
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
        self._observe(hit.spec, site, values, current)

    # ---- sinks ----------------------------------------------------------------------------

    def _observe(self, spec: SinkSpec, site: Site, values: dict[str, Value], env: Env) -> None:
        if spec.eras is not None and self.ctx.era not in spec.eras:
            return
        result = verdict(spec, values)
        if any(v.params for v in values.values()) and result in ("symbolic", "may", "must"):
            symbolic = tuple(sorted(values.items()))
            hit = Hit(spec, site, symbolic, env.assumptions)
            if hit not in self.hits:
                self.hits.append(hit)
            if result == "symbolic":
                result = "none"
        role_span = site.role_span("tensor") or site.role_span("device") or site.span
        key = (
            spec.code,
            site.span.start,
            role_span.start,
            site.chain[0][1].start if site.chain else -1,
        )
        observation = self.observations.get(key)
        if observation is None:
            observation = self.observations[key] = Observation(site)
        observation.verdicts.append((result, env.lossy))
        if result in ("must", "may"):
            for role, value in values.items():
                old = observation.values.get(role)
                observation.values[role] = value if old is None else join(old, value)

    def _check_call_sinks(
        self, expr: ir.Call, resolved: tuple[str, ...], args: list[Value], env: Env
    ) -> None:
        for spec in self.ctx.api.sinks:
            if spec.site != "call" or len(args) < spec.min_args or spec.context >= len(args):
                continue
            if not any(_suffix(p, resolved) for p in spec.calls):
                continue
            ctx_value = args[spec.context]
            for index in spec.tensors:
                if index >= len(args):
                    continue
                site = Site(
                    code=spec.code,
                    kind="call",
                    span=expr.span,
                    whole=expr.span,
                    role_spans=(
                        ("tensor", expr.args[index].span),
                        ("context", expr.args[spec.context].span),
                    ),
                    scope=expr.scope,
                )
                self._observe(spec, site, {"tensor": args[index], "context": ctx_value}, env)

    def _check_effect_sinks(
        self, rule: ApiRule, values: dict[str, Value], expr: ir.Call | ir.MethodCall, span: ir.Span
    ) -> None:
        if rule.checked_eras is not None and self.ctx.era not in rule.checked_eras:
            return
        for spec in self.ctx.api.sinks:
            if spec.site != "effect" or rule.effect not in spec.effects:
                continue
            if isinstance(expr, ir.MethodCall):
                primary, role_span = expr.name_span, expr.receiver.span
            else:
                primary = expr.span
                role_span = expr.args[0].span if expr.args else expr.span
            role = next(iter(values))
            site = Site(
                code=spec.code,
                kind="method" if isinstance(expr, ir.MethodCall) else "call",
                span=primary,
                whole=expr.span,
                role_spans=((role, role_span),),
                scope=expr.scope,
                variant=rule.variant,
            )
            self._observe(spec, site, values, self._current_env)

    _current_env: Env = Env()

    def _struct(self, expr: ir.StructLit, env: Env) -> Gen:
        parts: tuple[ir.Expr, ...] = tuple(f.value for f in expr.fields)
        if expr.base is not None:
            parts = (*parts, expr.base)
        states = yield from self._seq(parts, env)
        out: Pairs = []
        name = expr.path[-1]
        for state_env, values in states:
            base = values[-1] if expr.base is not None else None
            fields = {f.name: v for f, v in zip(expr.fields, values, strict=False)}
            specs = [s for s in self.ctx.api.sinks if s.site == "struct" and name in s.structs]
            if specs:
                kind_value = fields.get(specs[0].kind_field)
                if kind_value is None and base is not None:
                    kind_value = read_field(base, specs[0].kind_field)
                for spec in specs:
                    ctx_field = next(
                        (f for f in expr.fields if f.name in spec.context_fields), None
                    )
                    if ctx_field is not None:
                        ctx_value = fields[ctx_field.name]
                        ctx_span = ctx_field.value.span
                        primary = ctx_field.span
                    elif base is not None:
                        field_name = next(iter(sorted(spec.context_fields)))
                        ctx_value = read_field(base, field_name)
                        ctx_span = expr.base.span if expr.base is not None else expr.span
                        primary = expr.span
                    else:
                        continue
                    if kind_value is None:
                        continue
                    kind_init = next((f for f in expr.fields if f.name == spec.kind_field), None)
                    site = Site(
                        code=spec.code,
                        kind="struct",
                        span=primary,
                        whole=expr.span,
                        role_spans=(
                            (
                                "tensor",
                                kind_init.value.span if kind_init is not None else expr.span,
                            ),
                            ("context", ctx_span),
                        ),
                        scope=expr.scope,
                        base=_kind_base(kind_init.value)
                        if kind_init is not None and len(expr.fields) == 2 and expr.base is None
                        else None,
                    )
                    self._observe(
                        spec, site, {"tensor": kind_value, "context": ctx_value}, state_env
                    )
                tensor = kind_value if kind_value is not None else UNKNOWN_VALUE
                out.append(
                    (
                        state_env,
                        Value(
                            tensor=tensor.tensor,
                            strategy=tensor.strategy,
                            params=tensor.params,
                            origins=tensor.origins,
                        ),
                    )
                )
                continue
            value = base if base is not None else Value()
            for key, field_value in fields.items():
                value = value.with_field(key, field_value)
            out.append((state_env, value))
        return out

    def _assign(self, expr: ir.Assign, env: Env) -> Gen:
        pairs = yield ("expr", expr.value, env)
        out: Pairs = []
        target = expr.target
        for current, value in pairs:
            if expr.op:
                value = UNKNOWN_VALUE
            if isinstance(target, ir.Var):
                out.append((current.set(target.binding, value), UNIT))
                continue
            if isinstance(target, ir.Field):
                base_pairs = yield ("expr", target.base, current)
                for base_env, base_value in base_pairs:
                    for spec in self.ctx.api.sinks:
                        if spec.site == "assign" and target.name in spec.context_fields:
                            site = Site(
                                code=spec.code,
                                kind="assign",
                                span=expr.span,
                                whole=expr.span,
                                role_spans=(
                                    ("tensor", target.base.span),
                                    ("context", expr.value.span),
                                ),
                                scope=expr.scope,
                            )
                            self._observe(
                                spec, site, {"tensor": base_value, "context": value}, base_env
                            )
                    out.append((self._store_field(base_env, target, value), UNIT))
                continue
            out.append((current, UNIT))
        return out

    def _store_field(self, env: Env, target: ir.Field, value: Value) -> Env:
        chain: list[str] = [target.name]
        base: ir.Expr = target.base
        while isinstance(base, ir.Field):
            chain.append(base.name)
            base = base.base
        if not isinstance(base, ir.Var):
            return env
        root = env.get(base.binding) or Value()
        values = [root]
        for name in reversed(chain[1:]):
            values.append(read_field(values[-1], name))
        new = value
        for name, holder in zip(chain, reversed(values), strict=False):
            new = holder.with_field(name, new)
        return env.set(base.binding, new)

    # ---- control flow ---------------------------------------------------------------------

    def _binary(self, expr: ir.Binary, env: Env) -> Gen:
        left = yield ("expr", expr.left, env)
        out: Pairs = []
        if expr.op in ("&&", "||"):
            short = "false" if expr.op == "&&" else "true"
            for current, value in left:
                if _may_be(value, short):
                    out.append((current, FALSE if short == "false" else TRUE))
                if _may_be(value, "true" if short == "false" else "false"):
                    out.extend((yield ("expr", expr.right, current)))
            return out
        for current, lvalue in left:
            for right_env, rvalue in (yield ("expr", expr.right, current)):
                if expr.op in ("==", "!=") and (rvalue.ctx or lvalue.ctx):
                    out.extend(self._compare_ctx(expr, lvalue, rvalue, right_env))
                else:
                    out.append((right_env, Value()))
        return out

    def _compare_ctx(self, expr: ir.Binary, lvalue: Value, rvalue: Value, env: Env) -> Pairs:
        constant, place = (
            (rvalue, expr.left)
            if len(rvalue.ctx) == 1 and not rvalue.params
            else (lvalue, expr.right)
        )
        if len(constant.ctx) != 1 or UNKNOWN in constant.ctx:
            return [(env, Value())]
        target = next(iter(constant.ctx))
        other = ENABLED if target == DISABLED else DISABLED
        equal, differ = (TRUE, FALSE) if expr.op == "==" else (FALSE, TRUE)
        out: Pairs = []
        yes = self._refine(env, place, "ctx", frozenset({target}))
        if yes is not None:
            out.append((yes, equal))
        no = self._refine(env, place, "ctx", frozenset({other}))
        if no is not None:
            out.append((no, differ))
        return out

    def _if(self, expr: ir.If, env: Env) -> Gen:
        conds = yield ("expr", expr.cond, env)
        out: Pairs = []
        for current, value in conds:
            if _may_be(value, "true"):
                out.extend((yield ("block", expr.then, current)))
            if _may_be(value, "false"):
                if expr.otherwise is None:
                    out.append((current, UNIT))
                else:
                    out.extend((yield ("expr", expr.otherwise, current)))
        return out

    def _match(self, expr: ir.Match, env: Env) -> Gen:
        scrutinees = yield ("expr", expr.scrutinee, env)
        out: Pairs = []
        for current, value in scrutinees:
            remaining = [current]
            for arm in expr.arms:
                if not remaining:
                    break
                next_remaining: list[Env] = []
                for candidate in dedup(remaining):
                    yes, no = self._match_pattern(arm.pattern, value, candidate, expr.scrutinee)
                    next_remaining.extend(no)
                    for matched in yes:
                        if arm.guard is None:
                            out.extend((yield ("expr", arm.body, matched)))
                            continue
                        for guard_env, guard in (yield ("expr", arm.guard, matched)):
                            if _may_be(guard, "true"):
                                out.extend((yield ("expr", arm.body, guard_env)))
                            if _may_be(guard, "false"):
                                next_remaining.append(guard_env)
                remaining = next_remaining
        return out

    def _loop(self, expr: ir.Loop, env: Env) -> Gen:
        loop = _Loop(expr.label)
        self._loops.append(loop)
        exits: Pairs = []
        element = UNKNOWN_VALUE
        if expr.iterable is not None:
            iterables = yield ("expr", expr.iterable, env)
            env = (
                merge_envs([e for e, _ in iterables])
                if len(iterables) > 1
                else (iterables[0][0] if iterables else env)
            )
            elements = [v.get_field("elem") for _, v in iterables]
            known = [e for e in elements if e is not None]
            element = join_all(known) if known and len(known) == len(elements) else UNKNOWN_VALUE
            if not iterables:
                self._loops.pop()
                return []
        seen: dict[Env, None] = {env.normalized(): None}
        frontier = [env]
        for round_index in range(MAX_LOOP_ROUNDS + 1):
            back: list[Env] = []
            for head in frontier:
                bodies: list[Env] = []
                if expr.kind == "while" and expr.cond is not None:
                    for cond_env, value in (yield ("expr", expr.cond, head)):
                        if _may_be(value, "true"):
                            bodies.append(cond_env)
                        if _may_be(value, "false"):
                            exits.append((cond_env, UNIT))
                elif expr.kind == "for" and expr.pattern is not None:
                    bodies.extend(self._match_pattern(expr.pattern, element, head, None)[0])
                    exits.append((head, UNIT))
                else:
                    bodies.append(head)
                for body_env in bodies:
                    back.extend(e for e, _ in (yield ("block", expr.body, body_env)))
            back.extend(loop.continues)
            loop.continues = []
            frontier = [e for e in dedup(back) if e.normalized() not in seen]
            for e in frontier:
                seen[e.normalized()] = None
            if not frontier:
                break
            if round_index == MAX_LOOP_ROUNDS - 1 or len(seen) > 32:
                frontier = [merge_envs(list(seen))]
        self._loops.pop()
        return exits + loop.breaks

    # ---- patterns and refinement ----------------------------------------------------------

    def _match_pattern(
        self, pattern: ir.Pat, value: Value, env: Env, place: ir.Expr | None
    ) -> tuple[list[Env], list[Env]]:
        """Path classes where `pattern` matches `value` (with bindings) and where it fails."""
        work: list[tuple[ir.Pat, Value, ir.Expr | None]] = [(pattern, value, place)]
        yes = [env]
        no: list[Env] = []
        while work:
            pat, val, where = work.pop()
            nxt: list[Env] = []
            for current in yes:
                matched, failed = self._match_one(pat, val, current, where, work)
                nxt.extend(matched)
                no.extend(failed)
            yes = nxt
        return yes, no

    def _match_one(
        self,
        pat: ir.Pat,
        value: Value,
        env: Env,
        place: ir.Expr | None,
        work: list[tuple[ir.Pat, Value, ir.Expr | None]],
    ) -> tuple[list[Env], list[Env]]:
        if isinstance(pat, ir.PBind):
            bound = env.set(pat.binding, value)
            if pat.sub is not None:
                work.append((pat.sub, value, place))
            return [bound], []
        if isinstance(pat, ir.PWild):
            return [env], []
        if isinstance(pat, ir.PTuple):
            for index, item in enumerate(pat.items):
                work.append((item, read_field(value, str(index)), None))
            return [env], []
        if isinstance(pat, ir.POr):
            matched: list[Env] = []
            remaining = [env]
            for alt in pat.alts:
                nxt: list[Env] = []
                for current in remaining:
                    y, n = self._match_pattern(alt, value, current, place)
                    matched.extend(y)
                    nxt.extend(n)
                remaining = nxt
            return matched, remaining
        if isinstance(pat, ir.PPath):
            if pat.path == ("None",):
                is_none = value.get_field("none") is not None
                is_some = value.get_field("some") is not None
                return ([env] if is_none or not is_some else []), (
                    [env] if is_some or not is_none else []
                )
            rule = self.ctx.api.match_call(self._resolve(pat.path), self.ctx.era)
            if rule is not None and rule.effect in ("ctx-disabled", "ctx-enabled"):
                return self._split(
                    env,
                    place,
                    "ctx",
                    frozenset({DISABLED if rule.effect == "ctx-disabled" else ENABLED}),
                    frozenset({ENABLED if rule.effect == "ctx-disabled" else DISABLED}),
                )
            return [env], [env]
        # PStruct: tuple-struct or struct pattern.
        path = pat.path
        if path == ("Some",):
            inner = value.get_field("some")
            is_none = value.get_field("none") is not None
            for key, sub in pat.fields:
                work.append(
                    (
                        sub,
                        inner
                        if inner is not None
                        else (UNKNOWN_VALUE if key == "0" else UNKNOWN_VALUE),
                        None,
                    )
                )
            return ([env] if inner is not None or not is_none else []), (
                [env] if is_none or inner is None else []
            )
        if path in (("Ok",), ("Box",)):
            for _, sub in pat.fields:
                work.append((sub, value, None))
            return [env], [env] if path == ("Ok",) else []
        rule = (
            self.ctx.api.match_call(self._resolve(path), self.ctx.era) if path != ("?",) else None
        )
        effect = rule.effect if rule is not None else ""
        if effect == "kind-autodiff":
            for _, sub in pat.fields:
                work.append((sub, Value(tensor=frozenset({OTHER})), None))
            return self._split(
                env, place, "tensor", frozenset({AUTODIFF}), frozenset({FLOAT, OTHER})
            )
        if effect == "ctx-enabled":
            for _, sub in pat.fields:
                work.append((sub, Value(strategy=value.strategy or frozenset({"?"})), None))
            return self._split(env, place, "ctx", frozenset({ENABLED}), frozenset({DISABLED}))
        if effect in ("kind-backend", "backend-float", "backend-other"):
            for _, sub in pat.fields:
                work.append(
                    (
                        sub,
                        Value(
                            tensor=frozenset({FLOAT})
                            if effect != "backend-other"
                            else frozenset({OTHER})
                        ),
                        None,
                    )
                )
            if effect == "kind-backend":
                return self._split(
                    env, place, "tensor", frozenset({FLOAT, OTHER}), frozenset({AUTODIFF})
                )
            return [env], [env]
        for key, sub in pat.fields:
            work.append((sub, read_field(value, key) if key != "?" else UNKNOWN_VALUE, None))
        refutable = (
            len(path) > 1 or path == ("?",) or (bool(pat.fields) and pat.fields[0][0] == "0")
        )
        return [env], ([env] if refutable and path != ("?",) else [])

    def _split(
        self,
        env: Env,
        place: ir.Expr | None,
        facet: str,
        positive: frozenset[str],
        negative: frozenset[str],
    ) -> tuple[list[Env], list[Env]]:
        yes = self._refine(env, place, facet, positive)
        no = self._refine(env, place, facet, negative)
        return ([yes] if yes is not None else []), ([no] if no is not None else [])

    def _refine(
        self, env: Env, place: ir.Expr | None, facet: str, allowed: frozenset[str]
    ) -> Env | None:
        """Narrow what `place` may be to `allowed`; None when that is impossible on this path."""
        binding, steps = _place(place)
        if binding is None:
            return env
        current = env.get(binding)
        if current is None:
            return env
        target_facet = facet
        mapped = allowed
        if steps == (("field", "kind"),) and facet == "tensor":
            steps = ()
        elif (
            steps in ((("field", "autodiff"),), (("field", "checkpointing"),))
            and facet == "ctx"
            and (current.tensor or current.params)
        ):
            steps, target_facet = (), "tensor"
            mapped = frozenset({AUTODIFF} if allowed == {ENABLED} else {FLOAT}) | (
                frozenset({OTHER})
            )
        elif steps == (("method", "device"),) and facet == "device":
            steps, target_facet = (), "tensor"
            mapped = frozenset({AUTODIFF}) if AUTODIFF in allowed else frozenset({FLOAT, OTHER})
        if steps:
            return env
        known = _facet(current, target_facet)
        if known and not known <= {UNKNOWN} and not current.params:
            narrowed = (known - {UNKNOWN}) & mapped
            if UNKNOWN in known:
                narrowed |= mapped if not narrowed else frozenset()
            if not narrowed:
                return None
        else:
            narrowed = mapped
        refined = _with_facet(current, target_facet, narrowed)
        if current.params:
            for index, param_steps in current.params:
                env = env.assume((index, param_steps, target_facet, mapped))
            refined = replace(refined, params=frozenset())
        return env.set(binding, refined)


# ---- value operations -------------------------------------------------------------------------


def _type_hint(type_text: str) -> frozenset[str]:
    hints: set[str] = set()
    if "Device" in type_text:
        hints.add("device")
    elif "Tensor" in type_text:
        hints.add("tensor")
    if "Context" in type_text or "Ctx" in type_text:
        hints.add("ctx")
    return frozenset(hints)


def receiver_kinds(value: Value) -> frozenset[str]:
    """Which kinds of receiver a value may be, from facts and declared types."""
    kinds = set(value.hint)
    if value.tensor - {UNKNOWN}:
        kinds.add("tensor")
    if value.device - {UNKNOWN}:
        kinds.add("device")
    if value.ctx - {UNKNOWN}:
        kinds.add("ctx")
    if value.get_field("some") is not None or value.get_field("none") is not None:
        kinds.add("option")
    return frozenset(kinds)


def _facet(value: Value, facet: str) -> frozenset[str]:
    if facet == "tensor":
        return value.tensor
    if facet == "ctx":
        return value.ctx
    if facet == "device":
        return value.device
    return value.boolean


def _with_facet(value: Value, facet: str, allowed: frozenset[str]) -> Value:
    if facet == "tensor":
        return replace(value, tensor=allowed)
    if facet == "ctx":
        return replace(value, ctx=allowed)
    if facet == "device":
        return replace(value, device=allowed)
    return replace(value, boolean=allowed)


def _place(expr: ir.Expr | None) -> tuple[int | None, tuple[Step, ...]]:
    steps: list[Step] = []
    current = expr
    while current is not None:
        if isinstance(current, ir.Var):
            return current.binding, tuple(reversed(steps))
        if isinstance(current, ir.Field):
            steps.append(("field", current.name))
            current = current.base
        elif (
            isinstance(current, ir.MethodCall)
            and not current.args
            and current.name in ("device", "clone", "as_ref")
        ):
            if current.name == "device":
                steps.append(("method", "device"))
            current = current.receiver
        else:
            return None, ()
    return None, ()


def _kind_base(expr: ir.Expr) -> ir.Span | None:
    if (
        isinstance(expr, ir.Field)
        and expr.name == "kind"
        and isinstance(expr.base, ir.Var | ir.Path)
    ):
        return expr.base.span
    return None


def _suffix(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    return len(pattern) <= len(path) and path[len(path) - len(pattern) :] == pattern


def _may_be(value: Value, truth: str) -> bool:
    return not value.boolean or truth in value.boolean


def _negate(value: Value) -> Value:
    if not value.boolean:
        return Value()
    flipped = {"true": "false", "false": "true"}
    return Value(boolean=frozenset(flipped[b] for b in value.boolean))


def read_field(value: Value, name: str) -> Value:
    """The abstract value of `value.name`."""
    stored = value.get_field(name)
    if stored is not None:
        return stored
    result: Value | None = None
    if value.tensor:
        if name == "kind":
            result = Value(tensor=value.tensor, strategy=value.strategy, origins=value.origins)
        elif name in ("autodiff", "checkpointing"):
            result = Value(ctx=ctx_of_tensor(value.tensor), strategy=value.strategy)
    if value.params:
        projected = value.project(("field", name))
        result = projected if result is None else join(result, projected)
    return result if result is not None else UNKNOWN_VALUE


def tensor_on(device: Value, dtype: str) -> Value:
    """A tensor created on `device`: autodiff on an autodiff device (floats only)."""
    kinds: set[str] = set()
    for kind in device.device:
        if kind == AUTODIFF:
            kinds.add(AUTODIFF if dtype == "float" else OTHER)
        elif kind == PLAIN:
            kinds.add(FLOAT if dtype == "float" else OTHER)
        else:
            kinds.add(UNKNOWN)
    origins = frozenset(o for o in device.origins if "autodiff" in o.label)
    return Value(tensor=frozenset(kinds), strategy=device.strategy, origins=origins)


def apply_step(value: Value, step: Step) -> Value:
    """Re-run one projection step on a concrete value (used to instantiate summaries)."""
    kind, name = step
    if kind == "field":
        return read_field(value, name)
    if name.startswith("create:"):
        if value.device:
            return tensor_on(value, name.split(":", 1)[1])
        return value.project(step) if value.params else Value(tensor=frozenset({UNKNOWN}))
    if name == "device":
        if value.tensor:
            return Value(
                device=device_of_tensor(value.tensor),
                strategy=value.strategy,
                origins=value.origins,
            )
        return value.project(step) if value.params else UNKNOWN_VALUE
    if name in UNWRAP_METHODS:
        return unwrap(value)
    if name == "unwrap_or_default":
        return unwrap_or_default(value, ir.Span(0, 0))
    return value


def instantiate(value: Value, args: list[Value], span: ir.Span) -> Value:
    """Replace parameter references in a summary value by the call's argument values."""
    base = replace(
        value,
        params=frozenset(),
        fields=tuple((k, instantiate(v, args, span)) for k, v in value.fields),
    )
    for index, steps in value.params:
        arg = args[index] if index < len(args) else UNKNOWN_VALUE
        for step in steps:
            arg = apply_step(arg, step)
        base = join(base, arg) if base != Value() else arg
    return base


def some_value(inner: Value) -> Value:
    """`Some(inner)`; in the checkpointing era `Some(strategy)` is an enabled context."""
    ctx = frozenset({ENABLED}) if inner.strategy and not inner.tensor else EMPTY
    return bounded(
        Value(fields=(("some", inner),), ctx=ctx, strategy=inner.strategy if ctx else EMPTY)
    )


def none_value(span: ir.Span) -> Value:
    """`None`; in the checkpointing era a `None` context is a disabled one."""
    return Value(fields=(("none", Value()),), ctx=frozenset({DISABLED})).with_origin(
        "context disabled here", span
    )


def unwrap(value: Value) -> Value:
    """`value.unwrap()`: the payload of a known `Some`, else the value itself."""
    inner = value.get_field("some")
    if inner is not None:
        return inner
    if value.params:
        return value.project(("method", "unwrap"))
    return value


def unwrap_or_default(value: Value, span: ir.Span) -> Value:
    """`value.unwrap_or_default()`: for contexts the default is `Disabled`."""
    inner = value.get_field("some")
    default = Value(ctx=frozenset({DISABLED})).with_origin(
        "context defaulted to `Disabled` here", span
    )
    if value.params and inner is None and value.get_field("none") is None:
        return value.project(("method", "unwrap_or_default"))
    if inner is not None and value.get_field("none") is None:
        return inner
    if inner is None:
        return default
    return join(inner, default)
