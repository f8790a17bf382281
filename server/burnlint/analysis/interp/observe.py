"""Recording what reaches each sink while one function is interpreted.

`Observer` builds the `Site` of each kind of sink (call, effect, struct literal, field
assignment), judges the values there with `sinks.verdict`, and keeps one `Observation` per site;
values that still depend on the function's parameters also become `Hit`s for its summary.
"""

from __future__ import annotations

from dataclasses import replace

from burnlint.analysis.interp.bindings import BindingLog
from burnlint.analysis.interp.sinks import (
    Hit,
    Observation,
    Site,
    is_relation,
    rests_on_tracking,
    verdict,
)
from burnlint.analysis.interp.state import Env
from burnlint.analysis.interp.valueops import is_untracked, read_field
from burnlint.analysis.interp.values import FLOAT, Value, join
from burnlint.analysis.semantics.api import ApiModel, ApiRule, SinkSpec
from burnlint.analysis.syntax import ir

ObservationKey = tuple[str, int, int, int]
"""(code, site start, start of the tensor/device expression, start of the first chain link)."""


class Observer:
    """Observations and summary hits of the sinks one function reaches."""

    def __init__(self, api: ApiModel, era: str, record_states: bool = False) -> None:
        self.api = api
        self.era = era
        self.invocations: list[tuple[str, ir.Span]] = []
        """The closure calls being evaluated, innermost last: ("closure called here", span)."""
        self.observations: dict[ObservationKey, Observation] = {}
        self.hits: list[Hit] = []
        self.bindings = BindingLog(record_states)
        """What the function's names were bound to (shown as hints, never judged)."""

    def observe(self, spec: SinkSpec, site: Site, values: dict[str, Value], env: Env) -> None:
        """Record the verdict for the values meeting at `site` on the path class `env`."""
        if spec.eras is not None and self.era not in spec.eras:
            return
        if self.invocations:
            # Inside a closure: each call of the closure is judged on its own.
            site = replace(site, chain=(*site.chain, *reversed(self.invocations)))
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
        tensor = values.get("tensor")
        if tensor is not None and FLOAT in tensor.tensor:
            observation.plain = True
        if (
            result == "must"
            and tensor is not None
            and is_untracked(tensor)
            and rests_on_tracking(spec)
        ):
            observation.only_certain = True
        if result in ("must", "may"):
            for role, value in values.items():
                old = observation.values.get(role)
                observation.values[role] = value if old is None else join(old, value)

    def call(self, expr: ir.Call, resolved: tuple[str, ...], args: list[Value], env: Env) -> None:
        """Check the call sinks that `resolved(args)` reaches."""
        for spec in self.api.call_sinks(resolved):
            if len(args) < spec.min_args or spec.context >= len(args):
                continue
            if is_relation(spec):
                self._pair(spec, expr, args, env)
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
                self.observe(spec, site, {"tensor": args[index], "context": ctx_value}, env)

    def _pair(self, spec: SinkSpec, expr: ir.Call, args: list[Value], env: Env) -> None:
        """A sink about two operands together (e.g. their backends)."""
        first, second = spec.tensors[:2]
        if max(first, second) >= len(args):
            return
        site = Site(
            code=spec.code,
            kind="call",
            span=expr.span,
            whole=expr.span,
            role_spans=(("tensor", expr.args[first].span), ("other", expr.args[second].span)),
            scope=expr.scope,
        )
        self.observe(spec, site, {"tensor": args[first], "other": args[second]}, env)

    def effect(
        self,
        rule: ApiRule,
        values: dict[str, Value],
        expr: ir.Call | ir.MethodCall | ir.Binary,
        env: Env,
    ) -> None:
        """Check the effect sinks of `rule`'s effect, reached by `expr` with its roles' values
        (the subject first; an operator's operands are `tensor` and `other`)."""
        if rule.checked_eras is not None and self.era not in rule.checked_eras:
            return
        for spec in self.api.sinks:
            if spec.site != "effect" or rule.effect not in spec.effects:
                continue
            scope: ir.Scope | None = None
            if isinstance(expr, ir.Binary):
                kind, primary, subject = "operator", expr.span, expr.left.span
                spans = {"tensor": expr.left.span, "other": expr.right.span}
            elif isinstance(expr, ir.MethodCall):
                kind, primary, scope = "method", expr.name_span, expr.scope
                spans = {
                    role: expr.args[index - 1].span
                    for role, index in rule.args.items()
                    if 0 < index <= len(expr.args)
                }
                subject = expr.receiver.span
            else:
                kind, primary, scope = "call", expr.span, expr.scope
                spans = {
                    role: expr.args[index].span
                    for role, index in rule.args.items()
                    if index < len(expr.args)
                }
                subject = expr.args[0].span if expr.args else expr.span
            role_spans: list[tuple[str, ir.Span]] = []
            for position, role in enumerate(values):
                if role == "build":
                    role_spans.append((role, primary))
                elif role in spans:
                    role_spans.append((role, spans[role]))
                elif position == 0:
                    role_spans.append((role, subject))
            site = Site(
                code=spec.code,
                kind=kind,
                span=primary,
                whole=expr.span,
                role_spans=tuple(role_spans),
                scope=scope,
                variant=rule.variant,
            )
            self.observe(spec, site, values, env)

    def struct(
        self,
        expr: ir.StructLit,
        specs: list[SinkSpec],
        fields: dict[str, Value],
        base: Value | None,
        env: Env,
    ) -> Value | None:
        """Check the struct sinks `specs` of `expr`; the value of its kind field, if known."""
        kind_value = fields.get(specs[0].kind_field)
        if kind_value is None and base is not None:
            kind_value = read_field(base, specs[0].kind_field)
        for spec in specs:
            ctx_field = next((f for f in expr.fields if f.name in spec.context_fields), None)
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
            rebuilt_from: ir.Span | None = None
            if kind_init is not None and len(expr.fields) == 2 and expr.base is None:
                # A fix may rebuild the literal from `x` in `kind: x.kind` only when the two
                # checked fields are all it has.
                rebuilt_from = _kind_base(kind_init.value)
            site = Site(
                code=spec.code,
                kind="struct",
                span=primary,
                whole=expr.span,
                role_spans=(
                    ("tensor", kind_init.value.span if kind_init is not None else expr.span),
                    ("context", ctx_span),
                ),
                scope=expr.scope,
                base=rebuilt_from,
            )
            self.observe(spec, site, {"tensor": kind_value, "context": ctx_value}, env)
        return kind_value

    def assign(
        self, expr: ir.Assign, target: ir.Field, holder: Value, value: Value, env: Env
    ) -> None:
        """Check the assignment sinks of `holder.field = value`."""
        for spec in self.api.sinks:
            if spec.site == "assign" and target.name in spec.context_fields:
                site = Site(
                    code=spec.code,
                    kind="assign",
                    span=expr.span,
                    whole=expr.span,
                    role_spans=(("tensor", target.base.span), ("context", expr.value.span)),
                    scope=expr.scope,
                )
                self.observe(spec, site, {"tensor": holder, "context": value}, env)


def _kind_base(expr: ir.Expr) -> ir.Span | None:
    """The span of `x` in a kind initializer written `x.kind`."""
    if (
        isinstance(expr, ir.Field)
        and expr.name == "kind"
        and isinstance(expr.base, ir.Var | ir.Path)
    ):
        return expr.base.span
    return None
