"""API effects: what a call or method matched by an `ApiRule` evaluates to.

The effect names are those `api.EFFECTS` validates. Effects are pure; guard effects also split
path classes (`effect_outcomes`), and a few effects are themselves sinks (`effect_sink_values`).
"""

from __future__ import annotations

from dataclasses import replace

from burnlint.analysis.interp.patterns import refine
from burnlint.analysis.interp.state import Env, Pairs
from burnlint.analysis.interp.valueops import (
    none_value,
    some_value,
    tensor_facts,
    tensor_on,
    unwrap,
    unwrap_or_default,
)
from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    EMPTY,
    ENABLED,
    FALSE,
    FLOAT,
    OTHER,
    PLAIN,
    TRUE,
    UNKNOWN,
    UNKNOWN_VALUE,
    Value,
    device_of_tensor,
    join,
    join_all,
)
from burnlint.analysis.semantics.api import ApiRule
from burnlint.analysis.syntax import ir

GUARD_EFFECTS = frozenset({"guard-tensor-autodiff", "guard-device-autodiff"})


def _subject(args: list[Value], receiver: Value | None, named: dict[str, Value]) -> Value | None:
    """The value an effect is about: the named tensor or device, else the receiver or first arg."""
    fallback = receiver if receiver is not None else (args[0] if args else None)
    return named.get("tensor", named.get("device", fallback))


def effect_value(
    rule: ApiRule,
    span: ir.Span,
    args: list[Value],
    receiver: Value | None,
    named: dict[str, Value],
    site: ir.Call | ir.MethodCall | None,
) -> Value:
    """The value of a call or method (at `span`) that `rule` matched."""
    effect = rule.effect
    label = rule.label
    subject = _subject(args, receiver, named)
    if effect == "device-autodiff":
        strategy = named.get("strategy")
        strategies = (
            strategy.strategy
            if strategy is not None and strategy.strategy
            else (frozenset({"?"}) if strategy is not None else frozenset({"Disabled"}))
        )
        inner = named.get("device", receiver)
        backend = inner.backend if inner is not None else EMPTY
        value = Value(device=frozenset({AUTODIFF}), strategy=strategies, backend=backend)
        return value.with_origin(label or "autodiff device created here", span)
    if effect == "device-checkpointing":
        base = receiver if receiver is not None else UNKNOWN_VALUE
        return replace(base, strategy=frozenset({"Balanced"}))
    if effect == "device-plain":
        return Value(device=frozenset({PLAIN}), backend=_backend_of(site))
    if effect == "device-inner":
        inner = subject if subject is not None else UNKNOWN_VALUE
        return Value(device=frozenset({PLAIN}), backend=inner.backend)
    if effect == "device-of":
        source = subject if subject is not None else UNKNOWN_VALUE
        device = device_of_tensor(source.tensor) if source.tensor else frozenset({UNKNOWN})
        value = Value(device=device, strategy=source.strategy, origins=source.origins)
        return value if not source.params else join(value, source.project(("method", "device")))
    if effect == "tensor-create":
        return _created_tensor(rule, span, args, receiver, named, site)
    if effect == "tensor-op":
        return _op_result(rule, args, receiver)
    if effect == "tensor-strip":
        return Value(tensor=frozenset({FLOAT}))
    if effect == "tensor-lift":
        return Value(tensor=frozenset({AUTODIFF}), strategy=frozenset({"Disabled"})).with_origin(
            label or "autodiff tensor created here", span
        )
    if effect == "tensor-grad":
        return some_value(Value(tensor=frozenset({FLOAT})))
    if effect == "kind-autodiff":
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
        return Value(ctx=frozenset({DISABLED})).with_origin(label or "context disabled here", span)
    if effect == "ctx-enabled":
        strategy = named.get("strategy")
        strategies = (
            strategy.strategy if strategy is not None and strategy.strategy else frozenset({"?"})
        )
        return Value(ctx=frozenset({ENABLED}), strategy=strategies)
    if effect == "strategy":
        name = (
            site.callee.segments[-1]
            if isinstance(site, ir.Call) and isinstance(site.callee, ir.Path)
            else ""
        )
        return strategy_value(name)
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


def _created_tensor(
    rule: ApiRule,
    span: ir.Span,
    args: list[Value],
    receiver: Value | None,
    named: dict[str, Value],
    site: ir.Call | ir.MethodCall | None,
) -> Value:
    device = named.get("device")
    if device is None:
        device = next((a for a in reversed(args) if a.device - {UNKNOWN}), None) or next(
            (a for a in reversed(args) if "device" in a.hint), None
        )
    if device is None:
        # No device to create on: the tensor is whatever the other inputs make it.
        return effect_value(replace(rule, effect="tensor-op"), span, args, receiver, named, site)
    if not device.device:
        if device.params:
            return Value(params=device.params).project(("method", f"create:{rule.dtype}"))
        return Value(tensor=frozenset({UNKNOWN}))
    value = tensor_on(device, rule.dtype)
    if AUTODIFF in value.tensor:
        value = value.with_origin(rule.label or "autodiff tensor created here", span)
    return value


def _op_result(rule: ApiRule, args: list[Value], receiver: Value | None) -> Value:
    inputs = [
        v for v in ([receiver] if receiver is not None else []) + args if v.tensor or v.params
    ]
    if not inputs:
        return Value(tensor=frozenset({UNKNOWN}))
    certain = [v for v in inputs if v.tensor == frozenset({AUTODIFF}) and not v.params]
    # An op with a certainly-autodiff input yields an autodiff output whatever the others are.
    chosen = certain or inputs
    merged = join_all([tensor_facts(v) for v in chosen])
    if rule.dtype == "other" and merged.tensor:
        merged = replace(
            merged, tensor=frozenset(OTHER if k == FLOAT else k for k in merged.tensor)
        )
    return merged


def effect_sink_values(
    rule: ApiRule, args: list[Value], receiver: Value | None, named: dict[str, Value], build: str
) -> dict[str, Value] | None:
    """The role and value an effect-site sink checks for this rule, if its effect is checked."""
    if rule.effect == "device-autodiff":
        inner = named.get("device", receiver)
        return {"device": inner} if inner is not None else None
    if rule.effect in ("tensor-lift", "kind-autodiff"):
        subject = _subject(args, receiver, named)
        return {"tensor": subject} if subject is not None else None
    if rule.effect == "ctx-enabled":
        return {"build": Value(boolean=frozenset({build}))}
    return None


def effect_outcomes(rule: ApiRule, value: Value, env: Env, site: ir.Call | ir.MethodCall) -> Pairs:
    """Split path classes for guard effects; other effects produce one outcome."""
    if rule.effect not in GUARD_EFFECTS:
        return [(env, value)]
    if isinstance(site, ir.MethodCall):
        place_expr: ir.Expr | None = site.receiver
    else:
        index = rule.args.get("tensor", rule.args.get("device", 0))
        place_expr = site.args[index] if index < len(site.args) else None
    facet_name = "tensor" if rule.effect == "guard-tensor-autodiff" else "device"
    negative = frozenset({FLOAT, OTHER}) if facet_name == "tensor" else frozenset({PLAIN})
    out: Pairs = []
    yes = refine(env, place_expr, facet_name, frozenset({AUTODIFF}))
    if yes is not None:
        out.append((yes, TRUE))
    no = refine(env, place_expr, facet_name, negative)
    if no is not None:
        out.append((no, FALSE))
    return out


def strategy_value(variant: str) -> Value:
    """A `GradientCheckpointingStrategy` variant; the 2026-05 name `None` meant `Disabled`."""
    name = "Disabled" if variant == "None" else variant
    return Value(strategy=frozenset({name or "?"}))


def _backend_of(site: ir.Call | ir.MethodCall | None) -> frozenset[str]:
    """The backend a `DispatchDevice::Variant(..)` constructor names (unknown otherwise)."""
    if isinstance(site, ir.Call) and isinstance(site.callee, ir.Path):
        segments = site.callee.segments
        if len(segments) >= 2 and segments[-2] == "DispatchDevice" and segments[-1][:1].isupper():
            return frozenset({segments[-1]})
    return EMPTY
