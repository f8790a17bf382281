"""Operations on abstract values that Rust expressions perform: fields, options, projections.

Every function here is pure: it maps values to a value and never looks at paths or bindings.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    EMPTY,
    ENABLED,
    FLOAT,
    OTHER,
    OTHER_AUTODIFF,
    PLAIN,
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
from burnlint.analysis.syntax import ir

UNWRAP_METHODS = frozenset({"unwrap", "expect", "unwrap_unchecked"})


_NON_FLOAT_TENSOR = re.compile(
    r"(?:\bTensor\s*<[^<>]*,\s*(?:[A-Za-z_]\w*\s*::\s*)*(?:Int|Bool)\s*>|\b(?:Int|Bool)Tensor\s*<[^<>]*>)"
)
_REFERENCE = re.compile(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)+")


@lru_cache(maxsize=4096)
def non_float_tensor(type_text: str) -> bool:
    """Whether a declared type is an int or bool tensor (`Tensor<D, Int>`, `&Tensor<2,
    burn::tensor::Bool>`, `IntTensor<B>`): only floats can be autodiff primitives, so such a
    tensor is never one, whatever device or context it has. (Asked at every field read and
    parameter: the answer for a type text is kept.)"""
    text = _REFERENCE.sub("", type_text.strip())
    found = _NON_FLOAT_TENSOR.match(text)
    return found is not None and found.end() == len(text)


def type_hint(type_text: str) -> frozenset[str]:
    """What a declared type says a value is: "device", "tensor" and/or "ctx"."""
    hints: set[str] = set()
    if "Device" in type_text:
        hints.add("device")
    elif "Tensor" in type_text:
        hints.add("tensor")
    if "Context" in type_text or "Ctx" in type_text:
        hints.add("ctx")
    return frozenset(hints)


_SCALARS = frozenset(
    {
        *(f"{sign}{bits}" for sign in "iu" for bits in ("8", "16", "32", "64", "128", "size")),
        "f32",
        "f64",
        "char",
        "str",
        "String",
        "Vec",
        "Option",
        "Box",
    }
)
_ARRAY_LENGTH = re.compile(r";\s*[A-Za-z_0-9]+\s*\]")
_TYPE_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def holds_numbers_only(type_text: str) -> bool:
    """Whether a declared type can only hold numbers and text (`usize`, `[usize; D]`,
    `Option<(f32, u64)>`, `()`): no value of it carries a fact a sink checks (nor decides a
    branch that could, unlike `bool`), so a function returning it summarizes to unknown."""
    text = _ARRAY_LENGTH.sub("]", type_text.replace("&", "").replace("'static", ""))
    return bool(text.strip()) and all(word in _SCALARS for word in _TYPE_WORD.findall(text))


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


def with_facet(value: Value, name: str, allowed: frozenset[str]) -> Value:
    """A copy of `value` whose facet `name` is replaced by `allowed`."""
    if name == "tensor":
        return replace(value, tensor=allowed)
    if name == "ctx":
        return replace(value, ctx=allowed)
    if name == "device":
        return replace(value, device=allowed)
    return replace(value, boolean=allowed)


def may_be(value: Value, truth: str) -> bool:
    """Whether a condition with this value may evaluate to `truth` ("true" or "false")."""
    return not value.boolean or truth in value.boolean


def negate(value: Value) -> Value:
    """`!value`."""
    if not value.boolean:
        return Value()
    flipped = {"true": "false", "false": "true"}
    return Value(boolean=frozenset(flipped[b] for b in value.boolean))


def tuple_value(items: list[Value]) -> Value:
    """`(a, b, ...)`: a struct whose fields are named by position."""
    fields = tuple((str(i), v) for i, v in enumerate(items))
    return bounded(Value(fields=tuple(sorted(fields, key=lambda kv: kv[0]))))


def array_value(items: list[Value]) -> Value:
    """`[a, b, ...]`: a collection whose element is the join of the items."""
    element = join_all(items) if items else Value()
    return bounded(Value(fields=(("elem", element),)))


def struct_value(base: Value | None, fields: dict[str, Value]) -> Value:
    """`S { fields, ..base }` for a struct that no sink watches."""
    value = base if base is not None else Value()
    for key, field_value in fields.items():
        value = value.with_field(key, field_value)
    return value


TRACKING = "#tracked"
"""A tensor's pseudo-field (no Rust field has this name): `false` when the tensor is certainly
autodiff and nothing it comes from had `require_grad()` (burn >= 0.22 panics when `backward()`
runs on it), `true` after `require_grad()`. Only operations that know all their tensor inputs
keep it; everything else forgets it, so an unknown source never makes a tensor untracked."""


RECEIVER = "#receiver"
"""A value's pseudo-field (no Rust field has this name): the field of a parameter it was read
from, unchanged (`self.ctx` in a method: parameter 0, then field `ctx`), as a parameter
reference. The value itself is what the type's methods store in that field (the flow-
insensitive field summary), right for a receiver nothing is known of; a call site whose
receiver holds that field takes the receiver's own instead (see `instantiate`)."""


def with_link(value: Value, index: int, steps: tuple[Step, ...]) -> Value:
    """`value`, read from parameter `index` followed by `steps` (see `RECEIVER`)."""
    return value.with_field(RECEIVER, Value(params=frozenset({(index, steps)})))


def receiver_link(value: Value) -> tuple[int, tuple[Step, ...]] | None:
    """The parameter field `value` was read from, if it is still that field's (a join of
    values read from different places was read from none)."""
    link = value.get_field(RECEIVER)
    if link is None or len(link.params) != 1:
        return None
    return next(iter(link.params))


def unlinked(value: Value) -> Value:
    """`value` without its `RECEIVER` link (it is no longer what the field holds)."""
    if value.get_field(RECEIVER) is None:
        return value
    return replace(value, fields=tuple((k, v) for k, v in value.fields if k != RECEIVER))


def is_untracked(value: Value) -> bool:
    """Whether `value` is certainly an autodiff tensor with no `require_grad()` source."""
    if value.tensor != frozenset({AUTODIFF}) or value.params:
        return False
    mark = value.get_field(TRACKING)
    return mark is not None and mark.boolean == frozenset({"false"})


def is_constant(value: Value) -> bool:
    """Whether `value` is certainly a plain float: a constant of an autodiff operation."""
    return value.tensor == frozenset({FLOAT}) and not value.params


def with_tracking(value: Value, tracked: bool) -> Value:
    """`value` with its tracking mark set (see `TRACKING`)."""
    return value.with_field(TRACKING, Value(boolean=frozenset({"true" if tracked else "false"})))


def tensor_facts(value: Value) -> Value:
    """Only what `value` says about a tensor: its kind, strategy, parameters and origins."""
    return Value(
        tensor=value.tensor,
        strategy=value.strategy,
        params=value.params,
        origins=value.origins,
        backend=value.backend,
        trail=value.trail,
    )


def read_field(value: Value, name: str) -> Value:
    """The abstract value of `value.name`; a tensor's `checkpointing` field says so in its hint
    (a receiver kind of its own: BD015 checks tests of it)."""
    result = _read_field(value, name)
    if name == "checkpointing" and (value.tensor - {UNKNOWN} or "tensor" in value.hint):
        result = replace(result, hint=result.hint | {"checkpointing-field"})
    return result


def _read_field(value: Value, name: str) -> Value:
    stored = value.get_field(name)
    if stored is not None:
        return stored
    result: Value | None = None
    if value.tensor:
        if name == "kind":
            result = Value(
                tensor=value.tensor,
                strategy=value.strategy,
                backend=value.backend,
                origins=value.origins,
            )
        elif name in ("autodiff", "checkpointing"):
            result = Value(ctx=ctx_of_tensor(value.tensor), strategy=value.strategy)
    if value.params:
        projected = value.project(("field", name))
        result = projected if result is None else join(result, projected)
    return result if result is not None else UNKNOWN_VALUE


def detached(value: Value) -> Value:
    """`value` without its dependence on the current function's parameters (unknown there)."""
    if not value.params:
        return value
    rest = replace(
        value, params=frozenset(), fields=tuple((k, detached(v)) for k, v in value.fields)
    )
    if not (rest.tensor or rest.ctx or rest.device or rest.fields or rest.boolean or rest.strategy):
        return UNKNOWN_VALUE
    return join(rest, UNKNOWN_VALUE)


def store_field(root: Value, chain: list[str], value: Value) -> Value:
    """`root.a.b = value` for `chain` ["b", "a"] (innermost field first): a strong update."""
    holders = [root]
    for name in reversed(chain[1:]):
        holders.append(read_field(holders[-1], name))
    new = value
    for name, holder in zip(chain, reversed(holders), strict=False):
        # A holder with a field set is no longer what the parameter's field holds.
        new = unlinked(holder).with_field(name, new)
    return new


def tensor_on(device: Value, dtype: str) -> Value:
    """A tensor created on `device`: autodiff on an autodiff device (floats only)."""
    kinds: set[str] = set()
    for kind in device.device:
        if kind == AUTODIFF:
            kinds.add(AUTODIFF if dtype == "float" else OTHER_AUTODIFF)
        elif kind == PLAIN:
            kinds.add(FLOAT if dtype == "float" else OTHER)
        else:
            kinds.add(UNKNOWN)
    origins = frozenset(o for o in device.origins if "autodiff" in o.label)
    return Value(
        tensor=frozenset(kinds), strategy=device.strategy, origins=origins, backend=device.backend
    )


NON_FLOAT_STEP: Step = ("method", "as-non-float")
"""The projection step of a parameter declared an int or bool tensor (see `non_float`)."""
FLOAT_STEP: Step = ("method", "as-float")
"""The projection step of a parameter cast with `float()` (see `as_float`)."""
_NON_FLOAT_KINDS = {AUTODIFF: OTHER_AUTODIFF, FLOAT: OTHER}
_FLOAT_KINDS = {OTHER_AUTODIFF: AUTODIFF, OTHER: FLOAT}


def non_float(value: Value) -> Value:
    """`value` as an int or bool tensor: its kinds are the non-float ones of its device (an
    autodiff float's device makes `OTHER_AUTODIFF`), and a caller's argument is read the same
    way (see `NON_FLOAT_STEP`)."""
    return _recast(value, _NON_FLOAT_KINDS, NON_FLOAT_STEP)


def as_float(value: Value) -> Value:
    """`value.float()`: an int or bool tensor on an autodiff device is an autodiff float again
    (a plain one a plain float); a float stays what it is."""
    return _recast(value, _FLOAT_KINDS, FLOAT_STEP)


def _recast(value: Value, kinds: dict[str, str], step: Step) -> Value:
    """`value` with its tensor kinds mapped by `kinds`, and each parameter it stands for read
    through `step` (so a caller's argument is recast the same way)."""
    mapped = frozenset(kinds.get(kind, kind) for kind in value.tensor)
    out = replace(value, tensor=mapped) if mapped != value.tensor else value
    if out.params:
        out = replace(out, params=frozenset((i, (*s, step)) for i, s in out.params))
    return out


def apply_step(value: Value, step: Step) -> Value:
    """Re-run one projection step on a concrete value (used to instantiate summaries)."""
    kind, name = step
    if kind == "field":
        return read_field(value, name)
    if step == NON_FLOAT_STEP:
        return non_float(value)
    if step == FLOAT_STEP:
        return as_float(value)
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
    if not value.params and not value.fields:
        # Most summary values name no parameter: nothing to replace.
        return value
    link = receiver_link(value)
    if link is not None:
        return _through_link(value, link, args, span)
    if len(value.params) == 1 and value.fields:
        ((index, steps),) = value.params
        if not steps and not (value.tensor or value.ctx or value.device):
            # A parameter with some fields set (`self.ctx = ..; self` in a builder): the
            # argument with those fields replaced.
            result = args[index] if index < len(args) else UNKNOWN_VALUE
            for key, field_value in value.fields:
                result = result.with_field(key, instantiate(field_value, args, span))
            return result
    base = value.rebuilt(tuple((k, instantiate(v, args, span)) for k, v in value.fields))
    for index, steps in value.params:
        arg = args[index] if index < len(args) else UNKNOWN_VALUE
        for step in steps:
            arg = apply_step(arg, step)
        # What the summary value knows besides the parameter may be only its declared type
        # (`Trainer { stepper }` from a `stepper: Stepper` parameter): nothing to join.
        base = join(base, arg) if _says_something(base) else arg.typed(base.types)
    return base


def _says_something(value: Value) -> bool:
    """Whether `value` knows more than its program types and type hint."""
    return bool(
        value.tensor
        or value.ctx
        or value.device
        or value.strategy
        or value.boolean
        or value.fields
        or value.params
        or value.origins
        or value.backend
        or value.closure is not None
    )


def _through_link(
    value: Value, link: tuple[int, tuple[Step, ...]], args: list[Value], span: ir.Span
) -> Value:
    """A summary value read from a parameter's field (see `RECEIVER`): that field of the
    argument when the argument holds it; linked to the caller's own parameter field when the
    argument is one (a method calling another on `self`); else the value itself (what the
    type's methods store there: the caller knows nothing of that field)."""
    index, steps = link
    fallback = instantiate(unlinked(value), args, span)
    current = args[index] if index < len(args) else UNKNOWN_VALUE
    for position, (_, name) in enumerate(steps):
        own = receiver_link(current)
        if own is None and current.get_field(name) is None and len(current.params) == 1:
            own = next(iter(current.params))
        if own is not None:
            base_index, base_steps = own
            return with_link(fallback, base_index, (*base_steps, *steps[position:]))
        field = current.get_field(name)
        if field is None:
            return fallback
        current = field
    return current


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


def with_none_default(value: Value, default: Value) -> Value:
    """`value` (an `Option`) whose `None` would be replaced by `default` in
    `unwrap_or_default()`: the payload type's default, held in its `none` field."""
    if value.get_field("none") is None:
        return value
    return value.with_field("none", default)


def unwrap_or_default(value: Value, span: ir.Span) -> Value:
    """`value.unwrap_or_default()`: the payload type's default when the `None` says it (see
    `with_none_default`); for contexts the default is `Disabled`."""
    inner = value.get_field("some")
    default = value.get_field("none")
    if default is None or default == Value():
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
