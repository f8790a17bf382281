"""Forward abstract interpretation of one lowered function over disjunctive states.

Each expression is evaluated per path class (`Env`) and yields a list of (Env, Value) pairs;
branches on guards split path classes and refine what is known, so correlations such as
"`ctx` is enabled exactly when `x` is autodiff" survive joins. Evaluation is driven by an
explicit stack of generators (`_run`), never by Python recursion on the tree's depth.
What calls evaluate to is decided by `calls`, what patterns and guards teach by `patterns`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from burnlint.analysis import cputime, trampoline
from burnlint.analysis.interp import facts as path_facts
from burnlint.analysis.interp.calls import Calls, Context, Summary
from burnlint.analysis.interp.closures import ADAPTERS, adapt, invoke
from burnlint.analysis.interp.observe import Observer
from burnlint.analysis.interp.patterns import compare_ctx, known_variants, match_pattern
from burnlint.analysis.interp.state import (
    MAX_DISJUNCTS,
    Env,
    Gen,
    Pairs,
    coarsen,
    dedup,
    dedup_pairs,
    merge_envs,
)
from burnlint.analysis.interp.valueops import (
    NON_FLOAT_STEP,
    array_value,
    holds_numbers_only,
    may_be,
    negate,
    non_float,
    non_float_tensor,
    read_field,
    receiver_link,
    store_field,
    struct_value,
    tensor_facts,
    tuple_value,
    type_hint,
    unlinked,
    unwrap,
    with_link,
    with_none_default,
)
from burnlint.analysis.interp.values import (
    FALSE,
    OPAQUE,
    TRUE,
    UNIT,
    UNKNOWN,
    UNKNOWN_VALUE,
    Value,
    join,
    join_all,
)
from burnlint.analysis.semantics.api import ApiRule
from burnlint.analysis.semantics.items import FunctionDecl
from burnlint.analysis.syntax import ir

MAX_LOOP_ROUNDS = 8
"""Rounds of a loop body at most; a loop stops earlier when its head states stop changing."""
WIDEN_ROUND = 4
"""From this round on (or with more than `MAX_LOOP_STATES` head states) a loop's head states are
joined into one (lossy), which then only grows: loops cost a bounded number of rounds."""
MAX_LOOP_STATES = 8
THRIFTY_TICKS = 6_000
"""Evaluation steps after which a function's loops join their head states from the first
back edge on (lossy: no 'may' finding rests on them): nested loops otherwise cost their rounds
multiplied level by level, and a function this long has paid for its precision already."""


_LEAVES = (ir.Var, ir.Path, ir.Lit)
"""Expressions evaluated without a generator of their own (most of the requests)."""


THRIFTY_ROUND_TICKS = 1_500
"""Evaluation steps of one loop round after which the loop joins its head states (as
`THRIFTY_TICKS` does for a whole function)."""


class Budget(Exception):
    """The per-file time budget ran out."""


@dataclass(slots=True)
class _Loop:
    label: str | None
    breaks: Pairs = field(default_factory=Pairs)
    continues: list[Env] = field(default_factory=list[Env])


class Interpreter:
    """Interprets one function: `run` gives its summary, `observer` and `calls` what it met."""

    def __init__(self, ctx: Context, decl: FunctionDecl) -> None:
        self.ctx = ctx
        self.decl = decl
        self.function = decl.lowered()
        self.observer = Observer(ctx.api, ctx.era, ctx.program.record_states)
        self.calls = Calls(ctx, decl, self.observer)
        self.returns: Pairs = []
        self.closure_depth = 0
        self.invocations = self.observer.invocations
        self.bindings = self.observer.bindings
        self._closures: dict[int, ir.Closure] = {}
        self._uncalled: dict[int, Env] = {}
        self._loops: list[_Loop] = []
        self._ticks = 0
        self._fixed_receiver = decl.fixed_receiver

    def run(self) -> Summary:
        """Interpret the body from parameters bound to symbolic values."""
        env = Env()
        program = self.ctx.program
        for index, param in enumerate(self.function.params):
            # An int or bool tensor is never an autodiff primitive: a caller's argument is
            # read as one (an autodiff float's device makes an int on an autodiff device).
            steps = (NON_FLOAT_STEP,) if non_float_tensor(param.type_text) else ()
            value = Value(params=frozenset({(index, steps)}), hint=type_hint(param.type_text))
            if index == 0 and self.function.has_self:
                self_type = self.decl.self_type
                value = value.typed(frozenset({self_type}) if self_type else frozenset[str]())
            else:
                value = value.typed(program.declared_types(self.decl, param.type_text))
            env = self._bind_param(param.pattern, value, env)
        body = self.function.body
        if body is None:
            return Summary()
        ends = self._run(self._block(body, env))
        returns = ends + self.returns
        # Closures handed to code burnlint does not model (spawn, fold, callbacks) still run:
        # check their bodies once, with unknown arguments, in the state where they were made.
        while self._uncalled:
            start, made = self._uncalled.popitem()
            closure = self._closures[start]
            self._run(invoke(self, closure, [UNKNOWN_VALUE] * len(closure.params), made))
        if holds_numbers_only(self.decl.return_type):
            returns = [(env, UNKNOWN_VALUE) for env, _ in returns]
        summary = Summary.of(returns, self.observer.hits, self.calls.stores)
        if self.decl.mut_self and returns:
            summary.receiver = self._final_self(returns)
        return summary

    def _final_self(self, returns: Pairs) -> Value | None:
        """`self` at the exits of a `&mut self` method, when it set some of its fields."""
        first = self.function.params[0].pattern if self.function.params else None
        if not isinstance(first, ir.PBind):
            return None
        finals = [env.get(first.binding) for env, _ in returns]
        if any(value is None or not value.fields for value in finals):
            return None
        return join_all([value for value in finals if value is not None])

    @property
    def ticks(self) -> int:
        """How many evaluation steps the analysis took (a deterministic measure of its cost)."""
        return self._ticks

    def _bind_param(self, pattern: ir.Pat, value: Value, env: Env) -> Env:
        if isinstance(pattern, ir.PBind):
            return env.set(pattern.binding, value)
        yes, _ = self._match_pattern(pattern, value, env, None)
        return yes[0] if yes else env

    def _match_pattern(
        self, pattern: ir.Pat, value: Value, env: Env, place: ir.Expr | None
    ) -> tuple[list[Env], list[Env]]:
        # In a loop, assuming which variant a parameter is would split the path classes anew
        # each round: the arms' states are judged as they are, for every variant.
        split = not self._loops
        return match_pattern(
            pattern, value, env, place, self.ctx.call_rule, self._variant_of, split
        )

    def _variant_of(self, segments: tuple[str, ...]) -> tuple[str, frozenset[str]] | None:
        return self.ctx.program.variant_of(segments, self.decl)

    def _run(self, first: Gen) -> Pairs:
        return trampoline.run(first, self._start)

    def _start(self, request: tuple[str, Any, Env]) -> Gen | Pairs:
        """The generator that evaluates what a running one asked for, or the answer itself for
        a variable, path or literal."""
        self._ticks += 1
        if self._ticks % 512 == 0 and cputime.now() > self.ctx.deadline:
            raise Budget
        kind, node, env = request
        if kind == "block":
            return self._block(node, env)
        return self._HANDLERS[type(node)](self, node, env)

    def _leaf_now(self, expr: ir.Var | ir.Path | ir.Lit, env: Env) -> Pairs:
        """A leaf evaluated without a request to the trampoline, counted as one (the step
        count decides the budget check and when loops turn thrifty, whatever asked)."""
        self._ticks += 1
        if self._ticks % 512 == 0 and cputime.now() > self.ctx.deadline:
            raise Budget
        return self._leaf(expr, env)

    def _leaf(self, expr: ir.Var | ir.Path | ir.Lit, env: Env) -> Pairs:
        """What a variable, path or literal evaluates to."""
        if isinstance(expr, ir.Var):
            value = env.get(expr.binding)
            return [(env, value if value is not None else UNKNOWN_VALUE)]
        if isinstance(expr, ir.Path):
            return [(env, self.calls.path_value(expr))]
        if expr.kind == "bool":
            return [(env, TRUE if expr.value == "true" else FALSE)]
        return [(env, UNIT)]

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
                # Most arguments are names and literals: evaluated here, not as a request.
                pairs = (
                    self._leaf_now(expr, state_env)
                    if isinstance(expr, _LEAVES)
                    else (yield ("expr", expr, state_env))
                )
                for out_env, value in pairs:
                    nxt.append((out_env, [*values, value]))
            if len(nxt) > 1:
                nxt = _joined_states(nxt)
            states = nxt
        return states

    def _block(self, block: ir.Block, env: Env) -> Gen:
        envs = [env]
        for stmt in block.stmts:
            nxt: list[Env] = []
            if isinstance(stmt, ir.ExprStmt) and isinstance(stmt.expr, ir.Loop):
                envs = [e for e, _ in (yield from self._loop(stmt.expr, dedup(envs)))]
                if not envs:
                    return []
                continue
            for current in dedup(envs):
                if isinstance(stmt, ir.Let):
                    nxt.extend((yield from self._let(stmt, current)))
                else:
                    nxt.extend(out for out, _ in (yield ("expr", stmt.expr, current)))
            envs = nxt
            if not envs:
                return []
        if block.tail is None:
            pairs = [(e, UNIT) for e in dedup(envs)]
        else:
            pairs = yield from self._many(block.tail, envs)
        # What the block declared is out of scope after it: forgetting it lets path classes
        # that only differed there join (e.g. at a loop's head).
        return dedup_pairs([(e.without(block.scope), v) for e, v in pairs])

    def _let(self, stmt: ir.Let, env: Env) -> Generator[Any, Any, list[Env]]:
        if stmt.init is None:
            pairs: Pairs = [(env, Value())]
        else:
            pairs = yield ("expr", stmt.init, env)
        out: list[Env] = []
        pattern = stmt.pattern
        declared = (
            self.ctx.program.declared_types(self.decl, stmt.type_text)
            if stmt.type_text
            else frozenset[str]()
        )
        derived = None
        if len(declared) == 1 and _is_default_call(stmt.init):
            # `let o: Opts = Default::default();`: the annotation says whose default it is.
            (key,) = declared
            assert stmt.init is not None
            derived = self.ctx.program.default_value(key, stmt.init.span)
        payload = (
            self.ctx.program.option_payload(self.decl, stmt.type_text) if stmt.type_text else None
        )
        declared_non_float = non_float_tensor(stmt.type_text) if stmt.type_text else False
        for current, value in pairs:
            value = derived if derived is not None else value.typed(declared)
            if declared_non_float:
                # `let ids: Tensor<2, Int> = ..`: whatever device made it, no autodiff primitive.
                value = non_float(value)
            if (
                payload is not None
                and stmt.init is not None
                and value.get_field("none") is not None
            ):
                # `let o: Option<Opts> = None;`: its `unwrap_or_default()` is `Opts`'s default.
                default = self.ctx.program.default_value(payload, stmt.init.span)
                value = with_none_default(value, default) if default is not None else value
            if isinstance(pattern, ir.PBind):
                value = value.with_step(f"bound to `{pattern.name}` here", pattern.span)
            yes, no = self._match_pattern(pattern, value, current, stmt.init)
            self.bindings.bound("let", pattern, yes)
            out.extend(yes)
            if stmt.otherwise is not None and no:
                for other in no:
                    out.extend(e for e, _ in (yield ("block", stmt.otherwise, other)))
        return out

    def _call(self, expr: ir.Call, env: Env) -> Gen:
        states = yield from self._seq(expr.args, env)
        out: Pairs = []
        for current, args in states:
            self._shown_args(expr.args, args)
            closure = self._callee_closure(expr, current)
            if closure is not None:
                out.extend((yield from invoke(self, closure, args, current, expr.span)))
            elif isinstance(expr.callee, ir.Path) and expr.callee.non_float:
                # `Tensor::<1, Int>::arange(..)`: an int or bool tensor, never autodiff.
                out.extend((e, non_float(v)) for e, v in self.calls.call(expr, args, current))
            else:
                out.extend(self.calls.call(expr, args, current))
        self._shown("call", expr.span, out)
        return out

    def _method_call(self, expr: ir.MethodCall, env: Env) -> Gen:
        out = yield from self._method(expr, env)
        self._shown("call", expr.span, out)
        return out

    def _field(self, expr: ir.Field, env: Env) -> Gen:
        base = expr.base
        pairs = (
            self._leaf_now(base, env) if isinstance(base, _LEAVES) else (yield ("expr", base, env))
        )
        out = [(e, self._read_field(expr, v)) for e, v in pairs]
        self._shown("field", expr.span, out)
        return out

    def _tuple(self, expr: ir.Tuple | ir.Array, env: Env) -> Gen:
        make = tuple_value if isinstance(expr, ir.Tuple) else array_value
        states = yield from self._seq(expr.items, env)
        return [(e, make(values)) for e, values in states]

    def _unary(self, expr: ir.Unary, env: Env) -> Gen:
        pairs = yield ("expr", expr.operand, env)
        if expr.op == "!":
            return [(e, negate(v)) for e, v in pairs]
        return [(e, UNKNOWN_VALUE) for e, _ in pairs]

    def _let_cond(self, expr: ir.LetCond, env: Env) -> Gen:
        pairs = yield ("expr", expr.value, env)
        out: Pairs = []
        for current, value in pairs:
            yes, no = self._match_pattern(expr.pattern, value, current, expr.value)
            self.bindings.bound("pattern", expr.pattern, yes)
            out.extend((e, TRUE) for e in yes)
            out.extend((e, FALSE) for e in no)
        return out

    def _loop_expr(self, expr: ir.Loop, env: Env) -> Gen:
        return (yield from self._loop(expr, [env]))

    def _block_expr(self, expr: ir.Block, env: Env) -> Gen:
        return (yield ("block", expr, env))

    def _return(self, expr: ir.Return, env: Env) -> Gen:
        pairs = [(env, UNIT)] if expr.value is None else (yield ("expr", expr.value, env))
        self.returns.extend(pairs)
        return []

    def _break(self, expr: ir.Break, env: Env) -> Gen:
        pairs = [(env, UNIT)] if expr.value is None else (yield ("expr", expr.value, env))
        target = self._loop_for(expr.label)
        if target is not None:
            target.breaks.extend(pairs)
        return []

    def _continue(self, expr: ir.Continue, env: Env) -> Pairs:
        target = self._loop_for(expr.label)
        if target is not None:
            target.continues.append(env)
        return []

    def _diverge(self, expr: ir.Diverge, env: Env) -> Pairs:
        return []

    def _assert(self, expr: ir.Assert, env: Env) -> Gen:
        pairs = yield ("expr", expr.cond, env)
        return [(e, UNIT) for e, v in pairs if may_be(v, "true")]

    def _try(self, expr: ir.Try, env: Env) -> Gen:
        pairs = yield ("expr", expr.value, env)
        return [(e, unwrap(v)) for e, v in pairs]

    def _closure(self, expr: ir.Closure, env: Env) -> Pairs:
        # Named by its offset within the function (relative to the function's anchor), so a
        # kept summary still names it after an edit moves the function.
        self._closures[expr.span.rel_start] = expr
        self._uncalled.setdefault(expr.span.rel_start, env)
        return [(env, Value(closure=expr.span.rel_start))]

    def _opaque(self, expr: ir.Opaque, env: Env) -> Gen:
        states = yield from self._seq(expr.parts, env)
        return [(e, UNKNOWN_VALUE) for e, _ in states]

    def _loop_for(self, label: str | None) -> _Loop | None:
        for loop in reversed(self._loops):
            if label is None or loop.label == label:
                return loop
        return None

    def _method(self, expr: ir.MethodCall, env: Env) -> Gen:
        receiver_expr = expr.receiver
        receivers = (
            self._leaf_now(receiver_expr, env)
            if isinstance(receiver_expr, _LEAVES)
            else (yield ("expr", receiver_expr, env))
        )
        out: Pairs = []
        for receiver_env, receiver in receivers:
            states = yield from self._seq(expr.args, receiver_env)
            for state_env, args in states:
                self._shown_args(expr.args, args)
                adapted = None
                if len(args) == 1 and expr.name in ADAPTERS:
                    adapted = yield from adapt(self, expr, receiver, args[0], state_env)
                if adapted is not None:
                    out.extend(adapted)
                elif expr.name == "push" and len(args) == 1:
                    out.append((self._push(expr.receiver, args[0], state_env), UNIT))
                else:
                    out.extend(self.calls.method(expr, receiver, args, state_env))
        return out

    def _shown(self, kind: str, span: ir.Span, pairs: Pairs) -> None:
        """Keep what an expression evaluated to, for hovers (when states are recorded)."""
        if self.bindings.enabled:
            for _, value in pairs:
                self.bindings.evaluated(kind, span, value)

    def _shown_args(self, exprs: tuple[ir.Expr, ...], args: list[Value]) -> None:
        """Keep the values a call passes, as its callee (or sink) gets them, for hovers; a
        field read or call among them keeps its own."""
        if self.bindings.enabled:
            for expr, value in zip(exprs, args, strict=False):
                if not isinstance(expr, ir.Field | ir.Call | ir.MethodCall):
                    self.bindings.evaluated("arg", expr.span, value)

    def _push(self, target: ir.Expr, item: Value, env: Env) -> Env:
        """`target.push(item)`: the collection's element may now also be `item`."""
        if self.decl.owner and isinstance(target, ir.Field) and _is_self(target.base):
            self.calls.store(self.decl.owner, target.name, array_value([item]))
            return env
        if not isinstance(target, ir.Var):
            return env
        current = env.get(target.binding) or Value()
        element = current.get_field("elem")
        merged = item if element is None or element == Value() else join(element, item)
        return env.set(target.binding, current.with_field("elem", merged))

    def _callee_closure(self, expr: ir.Call, env: Env) -> ir.Closure | None:
        if not isinstance(expr.callee, ir.Var):
            return None
        value = env.get(expr.callee.binding)
        return self.closure(value) if value is not None else None

    def closure(self, value: Value) -> ir.Closure | None:
        """The closure expression a value was made from, if it was made in this function."""
        if value.closure is None:
            return None
        self._uncalled.pop(value.closure, None)
        return self._closures.get(value.closure)

    def call_path(
        self, path: ir.Path, args: list[Value], arg_exprs: list[ir.Expr], span: ir.Span, env: Env
    ) -> Pairs:
        """Call a named function used as a value (`.map(helper)`), with `arg_exprs` as the
        argument expressions the call site shows."""
        return self.calls.call(ir.Call(path, tuple(arg_exprs), span), args, env)

    def call_rule_for(self, segments: tuple[str, ...]) -> ApiRule | None:
        """The API rule a path names (for pattern matching inside closures)."""
        return self.ctx.call_rule(segments)

    def _read_field(self, expr: ir.Field, base: Value) -> Value:
        """`base.name`; a field of `self` not written in this function is read from what every
        method of the type stores in it (a field-based, flow-insensitive summary), linked to
        the receiver's field (a caller whose receiver holds the field takes that instead)."""
        owner = self.decl.owner if _is_self(expr.base) else None
        program = self.ctx.program
        holders = base.types
        if not holders and owner and self.decl.self_type is not None:
            holders = frozenset({self.decl.self_type})
        if holders and program.non_float_field(holders, expr.name):
            # A field declared `Tensor<2, Int>`: what was stored there is no autodiff primitive.
            return non_float(unlinked(self._read_field_value(expr, base, owner)))
        return self._read_field_value(expr, base, owner)

    def _read_field_value(self, expr: ir.Field, base: Value, owner: str | None) -> Value:
        """`base.name` as stored (see `_read_field`)."""
        program = self.ctx.program
        declared = program.field_types(base.types, expr.name) if base.types else None
        step = ("field", expr.name)
        if owner and base.get_field(expr.name) is None:
            if self.ctx.program.numbers_only(self.decl.self_type, expr.name):
                # A count or a size: what the type's methods store there decides nothing.
                return UNKNOWN_VALUE
            stored = self.ctx.program.field_value(owner, expr.name)
            if stored is not None:
                stored = stored.typed(declared) if declared else stored
                # (A receiver the body may change, `&mut self`, may no longer hold what the
                # caller's did: only the summary is safe there. A summary that says nothing
                # tracked misleads no caller, and a link would keep its path classes apart.)
                if (
                    self._fixed_receiver
                    and len(base.params) == 1
                    and stored.settled() is not OPAQUE
                ):
                    ((index, steps),) = base.params
                    stored = with_link(stored, index, (*steps, step))
                return stored
        link = receiver_link(base)
        value = read_field(unlinked(base) if link is not None else base, expr.name)
        if link is not None:
            # A field of what a receiver field holds (`self.inner.ctx`): linked one step deeper.
            value = with_link(value, link[0], (*link[1], step))
        return value.typed(declared) if declared else value

    def _struct(self, expr: ir.StructLit, env: Env) -> Gen:
        parts: tuple[ir.Expr, ...] = tuple(f.value for f in expr.fields)
        if expr.base is not None:
            parts = (*parts, expr.base)
        states = yield from self._seq(parts, env)
        out: Pairs = []
        name = expr.path[-1]
        specs = [s for s in self.ctx.api.sinks if s.site == "struct" and name in s.structs]
        owner = self.decl.owner if name == "Self" else name
        program = self.ctx.program
        built = program.type_of_path(expr.path, self.decl)
        typed = frozenset({built}) if built is not None else frozenset[str]()
        derived = (
            program.default_value(built, expr.base.span)
            if built is not None and expr.base is not None and _is_default_call(expr.base)
            else None
        )
        for state_env, values in states:
            base = values[-1] if expr.base is not None else None
            if derived is not None:
                # `..Default::default()` of a `#[derive(Default)]` struct: each field's default.
                base = derived
            fields = {f.name: v for f, v in zip(expr.fields, values, strict=False)}
            if owner and owner[:1].isupper():
                for field_name, field_value in fields.items():
                    self.calls.store(owner, field_name, field_value)
            if not specs:
                out.append((state_env, struct_value(base, fields).typed(typed)))
                continue
            # A watched struct is a tensor: its value is what its kind says.
            kind = self.observer.struct(expr, specs, fields, base, state_env)
            out.append((state_env, tensor_facts(kind if kind is not None else UNKNOWN_VALUE)))
        return out

    def _assign(self, expr: ir.Assign, env: Env) -> Gen:
        pairs = yield ("expr", expr.value, env)
        out: Pairs = []
        target = expr.target
        for current, value in pairs:
            if expr.op:
                value = UNKNOWN_VALUE
            if isinstance(target, ir.Var):
                value = value.with_step(f"assigned to `{target.name}` here", expr.span)
                out.append((current.set(target.binding, value), UNIT))
                continue
            if isinstance(target, ir.Field):
                if self.decl.owner and _is_self(target.base):
                    stored = value.with_step(f"stored in `self.{target.name}` here", expr.span)
                    self.calls.store(self.decl.owner, target.name, stored)
                for base_env, holder in (yield ("expr", target.base, current)):
                    self.observer.assign(expr, target, holder, value, base_env)
                    out.append((self._store(base_env, target, value), UNIT))
                continue
            out.append((current, UNIT))
        return out

    def _store(self, env: Env, target: ir.Field, value: Value) -> Env:
        """`env` after `target = value`, when `target` is a field path on a local."""
        chain: list[str] = [target.name]
        base: ir.Expr = target.base
        while isinstance(base, ir.Field):
            chain.append(base.name)
            base = base.base
        if not isinstance(base, ir.Var):
            return env
        root = env.get(base.binding) or Value()
        return env.set(base.binding, store_field(root, chain, value))

    def _binary(self, expr: ir.Binary, env: Env) -> Gen:
        if expr.op in ("==", "!="):
            self.calls.compared.update(
                operand.span
                for operand in (expr.left, expr.right)
                if isinstance(operand, ir.Call | ir.MethodCall)
            )
        left = yield ("expr", expr.left, env)
        out: Pairs = []
        if expr.op in ("&&", "||"):
            short = "false" if expr.op == "&&" else "true"
            for current, value in left:
                if may_be(value, short):
                    out.append((current, FALSE if short == "false" else TRUE))
                if may_be(value, "true" if short == "false" else "false"):
                    out.extend((yield ("expr", expr.right, current)))
            return out
        for current, lvalue in left:
            for right_env, rvalue in (yield ("expr", expr.right, current)):
                if expr.op in ("==", "!=") and (rvalue.ctx | lvalue.ctx) - {UNKNOWN}:
                    out.extend(compare_ctx(expr, lvalue, rvalue, right_env))
                elif expr.op in ("==", "!=") and known_variants(lvalue) and known_variants(rvalue):
                    same = lvalue.boolean & rvalue.boolean
                    certain = len(lvalue.boolean) == len(rvalue.boolean) == 1
                    truths: set[str] = (
                        {"true"} if same and certain else {"false"} if not same else set()
                    )
                    if expr.op == "!=":
                        truths = {{"true": "false", "false": "true"}[t] for t in truths}
                    out.append((right_env, Value(boolean=frozenset(truths))))
                elif expr.op in path_facts.OPERATORS:
                    out.extend(_compare(expr, right_env))
                elif _tensor_operand(lvalue) or _tensor_operand(rvalue):
                    out.extend(self.calls.operator(expr, lvalue, rvalue, right_env))
                else:
                    out.append((right_env, Value()))
        return out

    def _if(self, expr: ir.If, env: Env) -> Gen:
        conds = yield ("expr", expr.cond, env)
        out: Pairs = []
        for current, value in conds:
            if may_be(value, "true"):
                out.extend((yield ("block", expr.then, current)))
            if may_be(value, "false"):
                if expr.otherwise is None:
                    out.append((current, UNIT))
                else:
                    out.extend((yield ("expr", expr.otherwise, current)))
        return dedup_pairs(out)

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
                    self.bindings.bound("pattern", arm.pattern, yes)
                    next_remaining.extend(no)
                    for matched in yes:
                        if arm.guard is None:
                            out.extend((yield ("expr", arm.body, matched)))
                            continue
                        for guard_env, guard in (yield ("expr", arm.guard, matched)):
                            if may_be(guard, "true"):
                                out.extend((yield ("expr", arm.body, guard_env)))
                            if may_be(guard, "false"):
                                next_remaining.append(guard_env)
                remaining = next_remaining
        return dedup_pairs(out)

    def _loop(self, expr: ir.Loop, envs: list[Env]) -> Gen:
        """A loop entered in every path class of `envs` at once: the classes share its head
        states, so classes that become alike in the body are iterated once."""
        exits: Pairs = []
        entries: list[Env] = []
        # A `for` loop's element is kept in the path class (under a binding no local has), so
        # each class iterates over its own collection.
        element_slot = -1 - expr.span.start
        if expr.iterable is not None:
            for env in envs:
                for current, iterable in (yield ("expr", expr.iterable, env)):
                    element = iterable.get_field("elem") or UNKNOWN_VALUE
                    exits.append((current, UNIT))
                    entries.append(current.set(element_slot, element))
            if not entries:
                return []
        else:
            entries = list(envs)
        loop = _Loop(expr.label)
        self._loops.append(loop)
        counter = _counter(expr)
        # A `for` loop's head is the entry of its body (the pattern bound, and a counter's
        # facts advanced); the other loops' head is before their condition.
        if expr.kind == "for":
            entries = [n for e in dedup(entries) for n in self._enter(expr, e, counter, True)]
        heads: dict[object, Env] = {}
        thrifty = self._ticks > THRIFTY_TICKS
        frontier = self._widen(heads, dedup(entries), thrifty, thrifty)
        for round_index in range(MAX_LOOP_ROUNDS):
            round_start = self._ticks
            back: list[Env] = []
            pending = list(frontier)
            while pending:
                if len(pending) > 1 and self._ticks - round_start > THRIFTY_ROUND_TICKS:
                    # The path classes this round has not run yet run once, joined (lossy):
                    # each would cost as much as the ones that already ran.
                    pending = [merge_envs(pending)]
                head = pending.pop(0)
                bodies: list[Env] = []
                if expr.kind == "while" and expr.cond is not None:
                    for cond_env, value in (yield ("expr", expr.cond, head)):
                        if may_be(value, "true"):
                            bodies.append(cond_env)
                        if may_be(value, "false"):
                            exits.append((cond_env, UNIT))
                else:
                    bodies.append(head)
                for body_env in bodies:
                    back.extend(e for e, _ in (yield ("block", expr.body, body_env)))
            back.extend(e.without(expr.body.scope) for e in loop.continues)
            loop.continues = []
            back = dedup(back)
            if expr.kind == "for":
                exits.extend((e, UNIT) for e in back)
                back = [n for e in back for n in self._enter(expr, e, counter, False)]
            # A body that costs a lot to run is run once per round from then on: what a
            # round costs, times its path classes, times the rounds, is what a loop costs.
            thrifty = self._ticks > THRIFTY_TICKS or self._ticks - round_start > THRIFTY_ROUND_TICKS
            widen = thrifty or round_index + 1 >= WIDEN_ROUND or len(heads) > MAX_LOOP_STATES
            frontier = self._widen(heads, dedup(back), widen, thrifty)
            if not frontier:
                break
        self._loops.pop()
        out = exits + [(e.without(expr.body.scope), v) for e, v in loop.breaks]
        return dedup_pairs([(e.without((element_slot, element_slot + 1)), v) for e, v in out])

    def _enter(
        self,
        expr: ir.Loop,
        env: Env,
        counter: tuple[int, path_facts.Atom | None, path_facts.Atom | None, bool] | None,
        first: bool,
    ) -> list[Env]:
        """The body entries of a `for` loop from a state at its head: the pattern bound to the
        next element; a counter over an integer range starts at the range's start, or goes one
        past its previous value (what the path knew of it advances)."""
        if expr.pattern is None:
            return [env]
        element = env.get(-1 - expr.span.start) or UNKNOWN_VALUE
        bound = self._match_pattern(expr.pattern, element, env, None)[0]
        self.bindings.bound("for", expr.pattern, bound)
        if counter is None:
            return bound
        binding, start, end, inclusive = counter
        following = {} if first else path_facts.advance(env.facts, binding)
        # The range's end was read once, when the loop started: the counter stays below it as
        # long as the path still relates the two (a rebound end forgot that).
        below_end = end is not None and (
            first or path_facts.lookup(env.facts, binding, end) != path_facts.ANY
        )
        out: list[Env] = []
        for entry in bound:
            known = entry.facts
            if first and start is not None:
                known = path_facts.learn(known, binding, start, path_facts.EQ)
            for atom, relation in following.items():
                known = path_facts.learn(known, binding, atom, relation)
            if below_end and end is not None:
                below = frozenset({"<", "="}) if inclusive else path_facts.LT
                relation = path_facts.lookup(known, binding, end) & below
                known = path_facts.learn(known, binding, end, relation)
            out.append(entry.with_facts(known))
        return out

    def _widen(
        self, heads: dict[object, Env], entries: list[Env], widen: bool, collapse: bool = False
    ) -> list[Env]:
        """Record new loop-head states in `heads` (joined per tracked key); returns the ones to
        run the body from: new keys, or known keys whose join lost path facts. Widening joins
        every head into one lossy state, which is run again only when it grows (with `collapse`
        at once; else heads that agree on every tensor fact are joined first)."""
        if widen and not collapse and len(heads) + len(entries) > 1:
            # First try joining what agrees on every tensor fact, which loses nothing a sink
            # checks; only when that still leaves too many is everything joined (lossy).
            coarse = coarsen([*heads.values(), *entries], MAX_LOOP_STATES)
            if coarse is not None:
                changed = [c for c in coarse if heads.get(c.key()) != c]
                heads.clear()
                heads.update((c.key(), c) for c in coarse)
                return changed
        if widen and len(heads) != 1:
            merged = merge_envs([*heads.values(), *entries])
            heads.clear()
            heads[merged.key()] = merged
            return [merged]
        if widen:
            ((key, old),) = heads.items()
            merged = merge_envs([old, *entries])
            if merged.key() == key and merged.facts == old.facts:
                return []
            heads.clear()
            heads[merged.key()] = merged
            return [merged]
        frontier: list[Env] = []
        for entry in entries:
            key = entry.key()
            old = heads.get(key)
            if old is None:
                heads[key] = entry
                frontier.append(entry)
                continue
            joined = dedup([old, entry])[0]
            if joined.facts != old.facts or joined.lossy != old.lossy:
                heads[key] = joined
                frontier.append(joined)
        return frontier

    _HANDLERS: ClassVar[dict[type, Callable[[Interpreter, Any, Env], Gen | Pairs]]] = {
        ir.Var: _leaf,
        ir.Path: _leaf,
        ir.Lit: _leaf,
        ir.Call: _call,
        ir.MethodCall: _method_call,
        ir.Field: _field,
        ir.StructLit: _struct,
        ir.Tuple: _tuple,
        ir.Array: _tuple,
        ir.Unary: _unary,
        ir.Binary: _binary,
        ir.LetCond: _let_cond,
        ir.If: _if,
        ir.Match: _match,
        ir.Loop: _loop_expr,
        ir.Block: _block_expr,
        ir.Return: _return,
        ir.Break: _break,
        ir.Continue: _continue,
        ir.Diverge: _diverge,
        ir.Assert: _assert,
        ir.Assign: _assign,
        ir.Try: _try,
        ir.Closure: _closure,
        ir.Opaque: _opaque,
    }
    """The handler of each kind of expression (a table, not a chain of type tests: it is
    asked at every step)."""


def _tensor_operand(value: Value) -> bool:
    """Whether an operator's operand is a tensor: known to be, or declared one (a parameter
    `a: Tensor<1>` in `a * b`, judged again at each call site)."""
    return bool(value.tensor) or "tensor" in value.hint


def _counter(
    expr: ir.Loop,
) -> tuple[int, path_facts.Atom | None, path_facts.Atom | None, bool] | None:
    """`for i in a..b` (or `a..=b`): i's binding, the atoms of a and b, and whether b is in."""
    iterable = expr.iterable
    if (
        expr.kind != "for"
        or not isinstance(expr.pattern, ir.PBind)
        or not isinstance(iterable, ir.Opaque)
        or iterable.kind not in ("range", "range=")
        or len(iterable.parts) != 2
    ):
        return None
    start, end = (_atom(part) for part in iterable.parts)
    return expr.pattern.binding, start, end, iterable.kind == "range="


def _atom(expr: ir.Expr) -> path_facts.Atom | None:
    """The atom an integer-valued operand names: a local, or an integer literal."""
    if isinstance(expr, ir.Var):
        return expr.binding
    if isinstance(expr, ir.Lit) and expr.kind == "int":
        return path_facts.constant(expr.value)
    if isinstance(expr, ir.Unary) and expr.op == "*":
        return _atom(expr.operand)
    return None


def _compare(expr: ir.Binary, env: Env) -> Pairs:
    """`a < b` (any comparison) of two atoms: decided by what the path knows, else the path
    splits into the classes where it holds and where it does not, each knowing which."""
    left, right = _atom(expr.left), _atom(expr.right)
    if left is None or right is None:
        return [(env, Value())]
    asserted = path_facts.OPERATORS[expr.op]
    known = path_facts.lookup(env.facts, left, right)
    holds, fails = known & asserted, known - asserted
    if not fails:
        return [(env, TRUE)]
    if not holds:
        return [(env, FALSE)]
    return [
        (env.with_facts(path_facts.learn(env.facts, left, right, holds)), TRUE),
        (env.with_facts(path_facts.learn(env.facts, left, right, fails)), FALSE),
    ]


def _joined_states(
    states: list[tuple[Env, list[Value]]],
) -> list[tuple[Env, list[Value]]]:
    """Join the states of a sequence of operands that agree on every tracked fact (path class
    and values alike); all of them (lossy) past `MAX_DISJUNCTS` groups."""
    groups: dict[object, list[tuple[Env, list[Value]]]] = {}
    for env, values in states:
        key = (env.key(), tuple(v.tracked() for v in values))
        groups.setdefault(key, []).append((env, values))
    lossy = len(groups) > MAX_DISJUNCTS
    if not lossy and len(groups) == len(states):
        return states
    out: list[tuple[Env, list[Value]]] = []
    for group in [states] if lossy else list(groups.values()):
        envs = [e for e, _ in group]
        merged = merge_envs(envs) if lossy else dedup(envs)[0]
        width = len(group[0][1])
        out.append((merged, [join_all([vals[i] for _, vals in group]) for i in range(width)]))
    return out


def _is_default_call(expr: ir.Expr | None) -> bool:
    """`Default::default()` or `T::default()` (the base of a struct literal)."""
    return (
        isinstance(expr, ir.Call)
        and not expr.args
        and isinstance(expr.callee, ir.Path)
        and len(expr.callee.segments) >= 2
        and expr.callee.segments[-1] == "default"
    )


def _is_self(expr: ir.Expr) -> bool:
    return isinstance(expr, ir.Var) and expr.name == "self"
