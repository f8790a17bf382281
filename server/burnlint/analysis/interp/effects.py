"""API effects: what a call or method matched by an `ApiRule` evaluates to.

Each effect is a small handler registered under its knowledge-base name with `@effect(..)`;
`EFFECTS` is that registry, and the names the KB may use (`[[detect.api]] effect = ..`,
`[[detect.sinks]] effects = [..]`) are its keys (see `analysis.engine`). Effects are pure;
guard effects also split path classes (`effect_outcomes`), and a few effects are themselves
sinks (`effect_sink_values`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Literal, get_args

from burnlint.analysis.interp.patterns import refine
from burnlint.analysis.interp.state import Env, Pairs
from burnlint.analysis.interp.valueops import (
    as_float,
    is_constant,
    is_untracked,
    non_float,
    some_value,
    tensor_facts,
    tensor_on,
    with_tracking,
)
from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    EMPTY,
    ENABLED,
    FALSE,
    FLOAT,
    NOT_AUTODIFF,
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
from burnlint.analysis.semantics.api import ApiRule, EffectName
from burnlint.analysis.syntax import ir
from burnlint.records import record

GuardFacet = Literal["tensor", "device"]


@record
class EffectCall:
    """One call or method that an API rule matched, with the values it was given."""

    rule: ApiRule
    span: ir.Span
    args: list[Value]
    receiver: Value | None
    named: dict[str, Value]
    """Arguments by role (`tensor`, `device`, `strategy`), as the rule's `args` names them."""
    site: ir.Call | ir.MethodCall | None

    @property
    def subject(self) -> Value | None:
        """The value the effect is about: the named tensor or device, else the receiver or
        the first argument."""
        fallback = (
            self.receiver if self.receiver is not None else (self.args[0] if self.args else None)
        )
        return self.named.get("tensor", self.named.get("device", fallback))

    @property
    def label(self) -> str:
        """The related-location label the rule asks for (empty: the effect's own)."""
        return self.rule.label


@record
class Effect:
    """A registered effect: its value, and optionally the sink it is and the guard it makes."""

    name: EffectName
    value: Callable[[EffectCall], Value]
    sink: Callable[[EffectCall, str], dict[str, Value] | None] | None = None
    """The role and value an effect-site sink checks here (given the build's autodiff state)."""
    guard: GuardFacet | None = None
    """The facet a guard effect (`is_autodiff()`) splits path classes on."""


EFFECTS: dict[str, Effect] = {}
"""Every effect by its knowledge-base name."""


def effect(
    name: EffectName,
    *,
    sink: Callable[[EffectCall, str], dict[str, Value] | None] | None = None,
    guard: GuardFacet | None = None,
) -> Callable[[Callable[[EffectCall], Value]], Callable[[EffectCall], Value]]:
    """Register the decorated function as the value of effect `name`."""

    def register(function: Callable[[EffectCall], Value]) -> Callable[[EffectCall], Value]:
        if name in EFFECTS:
            raise ValueError(f"effect {name!r} registered twice")
        EFFECTS[name] = Effect(name, function, sink, guard)
        return function

    return register


def effect_value(
    rule: ApiRule,
    span: ir.Span,
    args: list[Value],
    receiver: Value | None,
    named: dict[str, Value],
    site: ir.Call | ir.MethodCall | None,
) -> Value:
    """The value of a call or method (at `span`) that `rule` matched."""
    return EFFECTS[rule.effect].value(EffectCall(rule, span, args, receiver, named, site))


def _strategies(call: EffectCall, missing: str) -> frozenset[str]:
    """The strategies the `strategy` argument may be (`?` when unknown; `missing` if absent)."""
    strategy = call.named.get("strategy")
    if strategy is None:
        return frozenset({missing})
    return strategy.strategy or frozenset({"?"})


def _device_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    inner = call.named.get("device", call.receiver)
    return {"device": inner} if inner is not None else None


def _tensor_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    subject = call.subject
    return {"tensor": subject} if subject is not None else None


def _build_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    return {"build": Value(boolean=frozenset({build}))}


def _tensor_build_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    """The tensor, and whether burn's `autodiff` feature is on where the call is: `inner` and
    `from_inner` reach burn's placeholder `AutodiffBackend` without it (BD013)."""
    found = _tensor_sink(call, build)
    return None if found is None else {**found, "build": Value(boolean=frozenset({build}))}


@effect("device-autodiff", sink=_device_sink)
def _device_autodiff(call: EffectCall) -> Value:
    """`device.autodiff()`: an autodiff device on the inner device's backend."""
    inner = call.named.get("device", call.receiver)
    backend = inner.backend if inner is not None else EMPTY
    value = Value(
        device=frozenset({AUTODIFF}), strategy=_strategies(call, "Disabled"), backend=backend
    )
    return value.with_origin(call.label or "autodiff device created here", call.span)


def _receiver_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    return {"device": call.receiver} if call.receiver is not None else None


@effect("device-checkpointing", sink=_receiver_sink)
def _device_checkpointing(call: EffectCall) -> Value:
    """`.gradient_checkpointing()`: the receiver, with the balanced strategy."""
    base = call.receiver if call.receiver is not None else UNKNOWN_VALUE
    return replace(base, strategy=frozenset({"Balanced"}))


@effect("device-plain")
def _device_plain(call: EffectCall) -> Value:
    """A plain device (`DispatchDevice::Flex(..)`): on the backend the variant names."""
    return Value(device=frozenset({PLAIN}), backend=_backend_of(call.site))


@effect("device-inner")
def _device_inner(call: EffectCall) -> Value:
    """The plain device under an autodiff one, on the same backend."""
    inner = call.subject if call.subject is not None else UNKNOWN_VALUE
    return Value(device=frozenset({PLAIN}), backend=inner.backend)


@effect("device-of")
def _device_of(call: EffectCall) -> Value:
    """`tensor.device()`: autodiff exactly when the tensor is."""
    source = call.subject if call.subject is not None else UNKNOWN_VALUE
    device = device_of_tensor(source.tensor) if source.tensor else frozenset({UNKNOWN})
    value = Value(device=device, strategy=source.strategy, origins=source.origins)
    return value if not source.params else join(value, source.project(("method", "device")))


@effect("tensor-create")
def _tensor_create(call: EffectCall) -> Value:
    """A tensor made on a device (`float_from_data(data, &device)`)."""
    return _created_tensor(call)


@effect("tensor-op")
def _tensor_op(call: EffectCall) -> Value:
    """An operation on tensors: autodiff when an input certainly is, else what they may be
    (remembered as an origin where the rule has a label: `detach()` keeps autodiff)."""
    value = _op_result(call.rule, call.args, call.receiver)
    if call.label and AUTODIFF in value.tensor:
        value = value.with_origin(call.label, call.span)
    return value


@effect("tensor-float")
def _tensor_float(call: EffectCall) -> Value:
    """`float()`: an int or bool tensor cast to float, autodiff again on an autodiff device."""
    return as_float(_op_result(call.rule, call.args, call.receiver))


@effect("tensor-strip")
def _tensor_strip(call: EffectCall) -> Value:
    """`inner(..)`/`without_autodiff()`: a plain float tensor."""
    return Value(tensor=frozenset({FLOAT}))


@effect("tensor-lift", sink=_tensor_build_sink)
def _tensor_lift(call: EffectCall) -> Value:
    """`from_inner(..)`: an autodiff tensor (the default strategy). Lifted from a plain one it
    is untracked, but it is not marked so: `BackendTensor::autodiff()` (an accessor of burn's
    own backends) reads the same."""
    value = Value(tensor=frozenset({AUTODIFF}), strategy=frozenset({"Disabled"}))
    return value.with_origin(call.label or "autodiff tensor created here", call.span)


@effect("tensor-grad")
def _tensor_grad(call: EffectCall) -> Value:
    """`.grad(..)`: maybe a plain float gradient."""
    return some_value(Value(tensor=frozenset({FLOAT})))


def _operands_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    subject, other = call.receiver, call.named.get("other")
    if subject is None:
        subject = call.named.get("tensor")
    if subject is None or other is None:
        return None
    return {"tensor": subject, "other": other}


@effect("tensor-binary", sink=_operands_sink)
def _tensor_binary(call: EffectCall) -> Value:
    """`a.matmul(b)`, `a + b`: a float op on two tensors, autodiff when one operand is."""
    return _op_result(call.rule, call.args, call.receiver)


def _elements_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    tensors = call.named.get("tensors", call.args[0] if call.args else None)
    element = tensors.get_field("elem") if tensors is not None else None
    if element is None:
        if tensors is not None and tensors.params:
            return {"tensor": tensors.project(("field", "elem"))}
        return None
    return {"tensor": element}


@effect("tensor-concat", sink=_elements_sink)
def _tensor_concat(call: EffectCall) -> Value:
    """`Tensor::cat(vec![a, b], dim)`: one tensor from a collection's elements."""
    tensors = call.named.get("tensors", call.args[0] if call.args else None)
    element = tensors.get_field("elem") if tensors is not None else None
    if element is None or not element.tensor:
        return Value(tensor=frozenset({UNKNOWN}))
    facts = tensor_facts(element)
    if AUTODIFF in facts.tensor and facts.tensor <= {AUTODIFF, FLOAT}:
        # Where mixing does not panic (context era), the plain elements are constants of an
        # autodiff result.
        facts = replace(facts, tensor=frozenset({AUTODIFF}))
    return facts


@effect("tensor-inner", sink=_tensor_build_sink)
def _tensor_inner(call: EffectCall) -> Value:
    """`inner()`: a plain float tensor (checkpointing era: only from an autodiff one)."""
    return Value(tensor=frozenset({FLOAT}))


@effect("tensor-backward", sink=_tensor_sink)
def _tensor_backward(call: EffectCall) -> Value:
    """`loss.backward()`: the gradients of an autodiff tensor (no tensor facts)."""
    return Value()


def _require_grad_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    flag = call.named.get("flag")
    if flag is not None and flag.boolean != frozenset({"true"}):
        # `set_require_grad(false)` is accepted on any tensor.
        return None
    return _tensor_sink(call, build)


@effect("tensor-require-grad", sink=_require_grad_sink)
def _tensor_require_grad(call: EffectCall) -> Value:
    """`require_grad()`: the receiver, marked as a leaf to track."""
    return with_tracking(_op_result(call.rule, [], call.receiver), True)


def _move_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    device = call.named.get("device")
    if call.receiver is None or device is None:
        return None
    return {"tensor": call.receiver, "device": device}


@effect("tensor-to-device", sink=_move_sink)
def _tensor_to_device(call: EffectCall) -> Value:
    """`x.to_device(&d)`: the same tensor kind (a plain tensor moved to an autodiff device
    stays plain; burn >= 0.22.0-pre.4 keeps an autodiff one autodiff on a plain device)."""
    return _op_result(call.rule, [], call.receiver)


@effect("kind-autodiff", sink=_tensor_sink)
def _kind_autodiff(call: EffectCall) -> Value:
    """`DispatchTensorKind::Autodiff(..)`: an autodiff kind."""
    value = Value(tensor=frozenset({AUTODIFF}))
    return value.with_origin(call.label or "autodiff kind built here", call.span)


@effect("kind-backend")
def _kind_backend(call: EffectCall) -> Value:
    """`DispatchTensorKind::Backend(..)`: a float kind for a float payload, else another."""
    inner = call.subject.tensor if call.subject is not None else EMPTY
    return Value(tensor=frozenset({FLOAT}) if inner == frozenset({FLOAT}) else frozenset({OTHER}))


@effect("backend-float")
def _backend_float(call: EffectCall) -> Value:
    """`BackendTensor::Float(..)`: a plain float payload."""
    return Value(tensor=frozenset({FLOAT}))


@effect("backend-other")
def _backend_other(call: EffectCall) -> Value:
    """An int, bool or quantized payload."""
    return Value(tensor=frozenset({OTHER}))


def _disabled(call: EffectCall) -> Value:
    value = Value(ctx=frozenset({DISABLED}))
    return value.with_origin(call.label or "context disabled here", call.span)


effect("ctx-disabled")(_disabled)
effect("ctx-default")(_disabled)


@effect("ctx-enabled", sink=_build_sink)
def _ctx_enabled(call: EffectCall) -> Value:
    """`Enabled(strategy)`: an enabled context with that strategy."""
    return Value(ctx=frozenset({ENABLED}), strategy=_strategies(call, "?"))


def _ctx_guard_sink(call: EffectCall, build: str) -> dict[str, Value] | None:
    return {"context": call.receiver} if call.receiver is not None else None


@effect("ctx-option-test", sink=_ctx_guard_sink)
def _ctx_option_test(call: EffectCall) -> Value:
    """`t.checkpointing.is_some()`: not a fact about the tensor's kind (`grad()` results keep
    `Some(..)` on a plain kind), so an unknown boolean (BD015)."""
    return UNKNOWN_VALUE


@effect("strategy")
def _strategy(call: EffectCall) -> Value:
    """A checkpointing strategy variant, by its name."""
    site = call.site
    name = (
        site.callee.segments[-1]
        if isinstance(site, ir.Call) and isinstance(site.callee, ir.Path)
        else ""
    )
    return strategy_value(name)


@effect("identity")
def _identity(call: EffectCall) -> Value:
    """The subject itself (`clone`, `to_device` on the same kind, `into()`)."""
    return call.subject if call.subject is not None else UNKNOWN_VALUE


@effect("guard-tensor-autodiff", guard="tensor")
def _guard_tensor(call: EffectCall) -> Value:
    """`is_autodiff()` on a tensor: a boolean that splits path classes on its kind."""
    return UNKNOWN_VALUE


@effect("guard-device-autodiff", guard="device")
def _guard_device(call: EffectCall) -> Value:
    """`is_autodiff()` on a device: a boolean that splits path classes on its kind."""
    return UNKNOWN_VALUE


if set(EFFECTS) != set(get_args(EffectName)):  # pragma: no cover - a programming error
    raise ImportError(f"effects without a handler: {set(get_args(EffectName)) - set(EFFECTS)}")


def _created_tensor(call: EffectCall) -> Value:
    args, rule = call.args, call.rule
    device = call.named.get("device")
    if device is None:
        device = next((a for a in reversed(args) if a.device - {UNKNOWN}), None) or next(
            (a for a in reversed(args) if "device" in a.hint), None
        )
    if device is None:
        # No device to create on: the tensor is whatever the other inputs make it.
        return _op_result(rule, args, call.receiver)
    if not device.device:
        if device.params:
            return Value(params=device.params).project(("method", f"create:{rule.dtype}"))
        return Value(tensor=frozenset({UNKNOWN}))
    value = tensor_on(device, rule.dtype)
    if AUTODIFF in value.tensor:
        value = value.with_origin(call.label or "autodiff tensor created here", call.span)
    if value.tensor == frozenset({AUTODIFF}) and not device.params and _tensor_api(call.site):
        # A new `Tensor` on an autodiff device is not tracked before `require_grad()` (the
        # Dispatch-level calls have their own `float_set_require_grad`).
        value = with_tracking(value, False)
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
        # An int, bool or quantized result (`argmax`, `greater`, `int()`) is no autodiff
        # primitive; made from an autodiff tensor, it keeps its device (`float()` lifts it).
        merged = non_float(merged)
    elif merged.tensor == frozenset({AUTODIFF}) and all(
        is_untracked(v) or is_constant(v) for v in inputs
    ):
        # Untracked autodiff inputs and plain constants make an untracked result.
        merged = with_tracking(merged, False)
    return merged


def effect_sink_values(
    rule: ApiRule, args: list[Value], receiver: Value | None, named: dict[str, Value], build: str
) -> dict[str, Value] | None:
    """The role and value an effect-site sink checks for this rule, if its effect is one."""
    sink = EFFECTS[rule.effect].sink
    if sink is None:
        return None
    return sink(EffectCall(rule, ir.Span(0, 0), args, receiver, named, None), build)


def effect_outcomes(rule: ApiRule, value: Value, env: Env, site: ir.Call | ir.MethodCall) -> Pairs:
    """Split path classes for guard effects; other effects produce one outcome."""
    facet_name = EFFECTS[rule.effect].guard
    if facet_name is None:
        return [(env, value)]
    if isinstance(site, ir.MethodCall):
        place_expr: ir.Expr | None = site.receiver
    else:
        index = rule.args.get("tensor", rule.args.get("device", 0))
        place_expr = site.args[index] if index < len(site.args) else None
    negative = NOT_AUTODIFF if facet_name == "tensor" else frozenset({PLAIN})
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


def _tensor_api(site: ir.Call | ir.MethodCall | None) -> bool:
    """Whether a call is burn-tensor's high-level API (`Tensor::ones(..)`), not Dispatch's."""
    return (
        isinstance(site, ir.Call)
        and isinstance(site.callee, ir.Path)
        and "Tensor" in site.callee.segments
        and not any(s.startswith("Dispatch") for s in site.callee.segments)
    )


def _backend_of(site: ir.Call | ir.MethodCall | None) -> frozenset[str]:
    """The backend a `DispatchDevice::Variant(..)` constructor names (unknown otherwise)."""
    if isinstance(site, ir.Call) and isinstance(site.callee, ir.Path):
        segments = site.callee.segments
        if len(segments) >= 2 and segments[-2] == "DispatchDevice" and segments[-1][:1].isupper():
            return frozenset({segments[-1]})
    return EMPTY
