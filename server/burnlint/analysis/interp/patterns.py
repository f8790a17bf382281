"""Pattern matching and refinement: what a path class learns when a pattern or guard holds.

Matching splits a path class into the classes where a pattern matches (with its bindings) and
where it fails; refinement narrows what a place (a local, or a field or `device()` of one) may
be on a path, and records the assumption when the place depends on a parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from burnlint.analysis.interp.state import Env, Pairs
from burnlint.analysis.interp.valueops import read_field, receiver_link, with_facet
from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    ENABLED,
    FALSE,
    FLOAT,
    NOT_AUTODIFF,
    ON_AUTODIFF_DEVICE,
    OTHER,
    TRUE,
    UNKNOWN,
    UNKNOWN_VALUE,
    Step,
    Value,
)
from burnlint.analysis.semantics.api import ApiRule
from burnlint.analysis.syntax import ir

RuleFor = Callable[[tuple[str, ...]], ApiRule | None]
"""The API rule a written path resolves to (after imports), if any."""

VariantFor = Callable[[tuple[str, ...]], tuple[str, frozenset[str]] | None]
"""The variant of a program enum a written path names (its canonical key), with the keys of
every variant of that enum, if it names one."""

VARIANT = "variant"
"""The facet an enum value's variant is refined in (held in its `boolean`, see `Value.facet`)."""

_Work = list[tuple[ir.Pat, Value, ir.Expr | None]]


def match_pattern(
    pattern: ir.Pat,
    value: Value,
    env: Env,
    place: ir.Expr | None,
    rule_for: RuleFor,
    variant_for: VariantFor | None = None,
    split_variants: bool = True,
) -> tuple[list[Env], list[Env]]:
    """Path classes where `pattern` matches `value` (with bindings) and where it fails;
    `split_variants`: whether a variant pattern of a program enum may assume which variant a
    parameter is (see `_match_variant`)."""
    work: _Work = [(pattern, value, place)]
    yes = [env]
    no: list[Env] = []
    while work:
        pat, val, where = work.pop()
        nxt: list[Env] = []
        for current in yes:
            matched, failed = _match_one(
                pat, val, current, where, work, rule_for, variant_for, split_variants
            )
            nxt.extend(matched)
            no.extend(failed)
        yes = nxt
    return yes, no


def _match_one(
    pat: ir.Pat,
    value: Value,
    env: Env,
    place: ir.Expr | None,
    work: _Work,
    rule_for: RuleFor,
    variant_for: VariantFor | None,
    split_variants: bool,
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
                y, n = match_pattern(
                    alt, value, current, place, rule_for, variant_for, split_variants
                )
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
        found = variant_for(pat.path) if variant_for is not None else None
        if found is not None:
            return _match_variant(found, value, env, place, split_variants)
        variant = variant_name(pat.path)
        if variant is not None and known_variants(value):
            # A unit enum variant against known variants: decided by the constants.
            yes_hit = variant in value.boolean
            no_hit = bool(value.boolean - {variant})
            return ([env] if yes_hit else []), ([env] if no_hit else [])
        rule = rule_for(pat.path)
        if rule is not None and rule.effect in ("ctx-disabled", "ctx-enabled"):
            return split(
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
        for _, sub in pat.fields:
            work.append((sub, inner if inner is not None else UNKNOWN_VALUE, None))
        return ([env] if inner is not None or not is_none else []), (
            [env] if is_none or inner is None else []
        )
    if path in (("Ok",), ("Box",)):
        for _, sub in pat.fields:
            work.append((sub, value, None))
        return [env], [env] if path == ("Ok",) else []
    rule = rule_for(path) if path != ("?",) else None
    effect = rule.effect if rule is not None else ""
    if effect == "kind-autodiff":
        for _, sub in pat.fields:
            work.append((sub, Value(tensor=frozenset({OTHER})), None))
        return split(env, place, "tensor", frozenset({AUTODIFF}), NOT_AUTODIFF)
    if effect == "ctx-enabled":
        for _, sub in pat.fields:
            work.append((sub, Value(strategy=value.strategy or frozenset({"?"})), None))
        return split(env, place, "ctx", frozenset({ENABLED}), frozenset({DISABLED}))
    if effect in ("kind-backend", "backend-float", "backend-other"):
        payload = frozenset({FLOAT}) if effect != "backend-other" else frozenset({OTHER})
        for _, sub in pat.fields:
            work.append((sub, Value(tensor=payload), None))
        if effect == "kind-backend":
            return split(env, place, "tensor", NOT_AUTODIFF, frozenset({AUTODIFF}))
        return [env], [env]
    for key, sub in pat.fields:
        work.append((sub, read_field(value, key) if key != "?" else UNKNOWN_VALUE, None))
    found = variant_for(path) if variant_for is not None and path != ("?",) else None
    if found is not None:
        return _match_variant(found, value, env, place, split_variants)
    refutable = len(path) > 1 or path == ("?",) or (bool(pat.fields) and pat.fields[0][0] == "0")
    return [env], ([env] if refutable and path != ("?",) else [])


def _match_variant(
    found: tuple[str, frozenset[str]],
    value: Value,
    env: Env,
    place: ir.Expr | None,
    split: bool,
) -> tuple[list[Env], list[Env]]:
    """A variant pattern of a program enum: decided when the value is a known variant of that
    enum, else (when `split`) split, narrowing the place and assuming, of the parameter (or
    receiver field) the value stands for, which variant it is: a caller passing a known
    variant takes only its arm. Without `split`, both ways on the same path class."""
    name, siblings = found
    others = siblings - {name}
    may_match = may_fail = True
    if known_variants(value) and value.boolean <= siblings:
        may_match = name in value.boolean
        may_fail = bool(value.boolean - {name})
    yes: list[Env] = []
    no: list[Env] = []
    # What the value stands for, when it stands for one parameter (or one's field): once a
    # place is narrowed it no longer says so, but each arm's assumption must.
    link = receiver_link(value) if split else None
    if link is None and split and len(value.params) == 1:
        link = next(iter(value.params))
    # What this path already assumed of the same parameter (an earlier match on it).
    assumed = [a[3] for a in env.assumptions if link is not None and a[:3] == (*link, VARIANT)]
    for possible, allowed, out in ((may_match, frozenset({name}), yes), (may_fail, others, no)):
        if not possible or not allowed or any(not (allowed & earlier) for earlier in assumed):
            continue
        narrowed = refine(env, place, VARIANT, allowed) if split else env
        if narrowed is None:
            continue
        if link is not None:
            narrowed = narrowed.assume((link[0], link[1], VARIANT, allowed))
        out.append(narrowed)
    return yes, no


def known_variants(value: Value) -> bool:
    """Whether `value` is one of a known set of unit enum variants (see `variant_name`)."""
    return bool(value.boolean) and all("::" in b for b in value.boolean)


def variant_name(segments: tuple[str, ...]) -> str | None:
    """`Mode::Eval` as a constant ("Mode::Eval") when the path looks like a unit enum variant."""
    if len(segments) < 2 or segments[-2] == "Self":
        return None
    if segments[-1][:1].isupper() and segments[-2][:1].isupper():
        return f"{segments[-2]}::{segments[-1]}"
    return None


def split(
    env: Env,
    place: ir.Expr | None,
    facet_name: str,
    positive: frozenset[str],
    negative: frozenset[str],
) -> tuple[list[Env], list[Env]]:
    """The path classes where `place` is one of `positive`, and where it is one of `negative`."""
    yes = refine(env, place, facet_name, positive)
    no = refine(env, place, facet_name, negative)
    return ([yes] if yes is not None else []), ([no] if no is not None else [])


def refine(env: Env, place: ir.Expr | None, facet_name: str, allowed: frozenset[str]) -> Env | None:
    """Narrow what `place` may be to `allowed`; None when that is impossible on this path."""
    binding, steps = place_of(place)
    if binding is None:
        return env
    current = env.get(binding)
    if current is None:
        return env
    target_facet = facet_name
    mapped = allowed
    if steps == (("field", "kind"),) and facet_name == "tensor":
        steps = ()
    elif (
        steps in ((("field", "autodiff"),), (("field", "checkpointing"),))
        and facet_name == "ctx"
        and (current.tensor or current.params)
    ):
        # A tensor's context field is enabled exactly when the tensor is autodiff.
        steps, target_facet = (), "tensor"
        enabled = allowed == frozenset({ENABLED})
        mapped = (ON_AUTODIFF_DEVICE if enabled else frozenset({FLOAT})) | frozenset({OTHER})
    elif steps == (("method", "device"),) and facet_name == "device":
        steps, target_facet = (), "tensor"
        mapped = ON_AUTODIFF_DEVICE if AUTODIFF in allowed else frozenset({FLOAT, OTHER})
    if steps:
        return env
    known = current.facet(target_facet)
    # Narrowing "unknown" to several possibilities teaches nothing; inventing them would turn
    # e.g. "an enabled context" into "maybe an autodiff float" and produce false warnings. (An
    # enum's other variants are all it can be, though.)
    learned = mapped if len(mapped) == 1 or facet_name == VARIANT else frozenset({UNKNOWN})
    if known and not known <= {UNKNOWN} and not current.params:
        narrowed = (known - {UNKNOWN}) & mapped
        if UNKNOWN in known and not narrowed:
            narrowed = learned
        if not narrowed:
            return None
    else:
        narrowed = learned
    refined = with_facet(current, target_facet, narrowed)
    if current.params:
        for index, param_steps in current.params:
            env = env.assume((index, param_steps, target_facet, mapped))
        if narrowed != frozenset({UNKNOWN}):
            refined = replace(refined, params=frozenset())
        else:
            refined = with_facet(refined, target_facet, frozenset())
    return env.set(binding, refined)


def compare_ctx(expr: ir.Binary, left: Value, right: Value, env: Env) -> Pairs:
    """`a == b` / `a != b` where one side is a context constant: refine the other side."""
    constant, place = (
        (right, expr.left) if len(right.ctx) == 1 and not right.params else (left, expr.right)
    )
    if len(constant.ctx) != 1 or UNKNOWN in constant.ctx:
        return [(env, Value())]
    target = next(iter(constant.ctx))
    other = ENABLED if target == DISABLED else DISABLED
    equal, differ = (TRUE, FALSE) if expr.op == "==" else (FALSE, TRUE)
    out: Pairs = []
    yes = refine(env, place, "ctx", frozenset({target}))
    if yes is not None:
        out.append((yes, equal))
    no = refine(env, place, "ctx", frozenset({other}))
    if no is not None:
        out.append((no, differ))
    return out


def place_of(expr: ir.Expr | None) -> tuple[int | None, tuple[Step, ...]]:
    """The local binding `expr` reads and the field/`device()` steps taken from it, if any."""
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
