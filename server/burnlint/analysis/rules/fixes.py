"""Turn a finding's site and the entry's fix templates into concrete text edits."""

from __future__ import annotations

import re
from collections.abc import Callable

from burnlint.analysis.findings import Edit, Fix, Range
from burnlint.analysis.interp.sinks import Observation
from burnlint.analysis.interp.values import AUTODIFF, FLOAT
from burnlint.analysis.rules.template import fill
from burnlint.analysis.syntax import ir
from burnlint.kb.model import Entry, FixTemplate

_CTX_LITERAL = re.compile(r"^(?P<prefix>[A-Za-z_][A-Za-z0-9_:]*)::(?:Disabled|default\(\s*\))$")
_STRATEGIES = ("Balanced", "Disabled")
FULL_PATHS = {
    "DispatchAutodiffContext": "burn::backend::DispatchAutodiffContext",
    "GradientCheckpointingStrategy": "burn::backend::GradientCheckpointingStrategy",
    "Dispatch": "burn::backend::Dispatch",
    "AutodiffBackend": "burn::backend::AutodiffBackend",
}
PLACEHOLDER = 'todo!("choose a gradient checkpointing strategy")'


def spelled(name: str, imports: dict[str, tuple[str, ...]]) -> str:
    """How to write burn's `name` in this file: its local alias if imported, else a full path."""
    if name in imports and imports[name][-1] == name:
        return name
    for local, full in imports.items():
        if full and full[-1] == name:
            return local
    return FULL_PATHS.get(name, name)


def build_fixes(
    entry: Entry,
    observation: Observation,
    era: str,
    severity_may: bool,
    imports: dict[str, tuple[str, ...]],
    text_of: Callable[[ir.Span], str],
    to_range: Callable[[ir.Span], Range],
    plain_path: bool = False,
) -> tuple[Fix, ...]:
    """Concrete fixes for one finding, in the entry's order of preference (`plain_path`: the
    edited site is also reached with a plain float tensor)."""
    site = observation.site
    fixes: list[Fix] = []
    for template in entry.fixes:
        if plain_path and "plain-path" in template.omit_when:
            continue
        fix = _build(template, observation, era, severity_may, imports, text_of, to_range)
        if fix is not None:
            fixes.append(fix)
    del site
    return tuple(fixes)


def _build(
    template: FixTemplate,
    observation: Observation,
    era: str,
    severity_may: bool,
    imports: dict[str, tuple[str, ...]],
    text_of: Callable[[ir.Span], str],
    to_range: Callable[[ir.Span], Range],
) -> Fix | None:
    site = observation.site
    kind = site.kind
    pattern = template.replacement.get(f"{kind}.{era}") or template.replacement.get(kind)
    target = template.target.get(kind, "")
    if not target:
        # A target for every kind of site (`any`): an origin of the tensor, not the site.
        pattern = template.replacement.get(f"any.{era}") or template.replacement.get("any")
        target = template.target.get("any", "")
    if pattern is None or not target:
        return None
    operands = _operands(observation)
    origin_receiver = ""
    if target == "whole":
        span: ir.Span | None = site.whole
    elif target.startswith("origin:"):
        span, origin_receiver = _origin(observation, target.removeprefix("origin:"), text_of)
    else:
        span = site.role_span(operands.get(target, target))
    if span is None:
        return None
    if template.absorbs:
        span = _absorbed(span, template.absorbs, text_of)
        if span is None:
            return None
    flags: set[str] = set()
    if severity_may:
        flags.add("may")
    variables: dict[str, str] = {
        "Dispatch": spelled("Dispatch", imports),
        "AutodiffBackend": spelled("AutodiffBackend", imports),
        "Gcs": spelled("GradientCheckpointingStrategy", imports),
    }
    if origin_receiver:
        variables["origin_receiver"] = origin_receiver
    for role, role_span in site.role_spans:
        variables[role] = text_of(role_span)
        variables[f"{role}_operand"] = _operand(variables[role])
    for name, role in operands.items():
        if role in variables:
            variables[name] = variables[role]
            variables[f"{name}_operand"] = variables[f"{role}_operand"]
    if kind == "struct":
        if site.base is None:
            if "{tensor}" in pattern:
                return None
        else:
            variables["tensor"] = text_of(site.base)
    context_text = variables.get("context", "")
    match = _CTX_LITERAL.match(context_text.replace(" ", ""))
    if match is not None and match.group("prefix") not in ("Default", "Option"):
        variables["Ctx"] = match.group("prefix")
    else:
        variables["Ctx"] = spelled("DispatchAutodiffContext", imports)
    if "{strategy}" in pattern:
        variables["strategy"] = _strategy(observation, variables["Gcs"], site.scope, flags)
    if "{strategy_differs}" in pattern:
        return None
    device = observation.values.get("device")
    if device is not None and len(device.strategy) > 1:
        flags.add("strategy-differs")
    # Replacing a call by its device argument drops the arguments after it (the strategy of
    # `autodiff_with_gradient_checkpointing(device, strategy)`): unless the device already has
    # that strategy, the program changes, so the fix is unsafe and says what it drops.
    kept = site.role_span("device")
    if pattern == "{device}" and kind == "call" and kept is not None:
        rest = text_of(kept.sub(kept.end, span.end)).strip().lstrip(",").strip()
        dropped = rest.removesuffix(")").strip().rstrip(",").strip()
        has = device.strategy if device is not None else frozenset[str]()
        if dropped and has != frozenset({dropped.rsplit("::", 1)[-1]}):
            flags.add("strategy-differs")
            variables["dropped"] = f" (drops the strategy `{dropped}`)"
    try:
        new_text = pattern.format_map(variables)
    except KeyError:
        return None
    safety = template.safety
    if safety == "safe" and flags & set(template.unsafe_when):
        safety = "unsafe"
    title = fill(template.title, variables | {"new": new_text}, keep_unknown=True)
    title += variables.get("dropped", "") if safety == "unsafe" else ""
    return Fix(template.id, title, safety, (Edit(to_range(span), new_text),))


def _strategy(observation: Observation, gcs: str, scope: ir.Scope | None, flags: set[str]) -> str:
    tensor = observation.values.get("tensor")
    known = tensor.strategy if tensor is not None else frozenset[str]()
    if len(known) == 1:
        (only,) = tuple(known)
        if only in _STRATEGIES:
            return f"{gcs}::{only}"
    flags.add("strategy-guessed")
    if scope is not None:
        for name, (_, type_text) in sorted(scope.names.items()):
            if "GradientCheckpointingStrategy" in type_text or type_text.strip() == gcs:
                return name
        for name in sorted(scope.names):
            if "strategy" in name.lower():
                return name
    flags.add("placeholder")
    return PLACEHOLDER


_TRACKED = frozenset({AUTODIFF})
_PLAIN = frozenset({FLOAT})


def _operands(observation: Observation) -> dict[str, str]:
    """Which of two mixed operands (`tensor`, `other`) is the `tracked` one and which the
    `plain` one, when every path agrees."""
    tensor, other = observation.values.get("tensor"), observation.values.get("other")
    if tensor is None or other is None:
        return {}
    if tensor.tensor == _TRACKED and other.tensor == _PLAIN:
        return {"tracked": "tensor", "plain": "other"}
    if tensor.tensor == _PLAIN and other.tensor == _TRACKED:
        return {"tracked": "other", "plain": "tensor"}
    return {}


_ATOM = re.compile(r"[\w:.<>]*(?:\([^()]*\))?(?:\.[\w]+(?:\([^()]*\))?)*|\(.*\)", re.DOTALL)


_METHOD_CALL = re.compile(r"^(?P<receiver>.+?)\s*\.\s*(?P<name>\w+)\s*\(\s*\)$", re.DOTALL)


def _origin(
    observation: Observation, label: str, text_of: Callable[[ir.Span], str]
) -> tuple[ir.Span | None, str]:
    """The one call the tensor went through whose origin label starts with `label` (a method
    call without arguments, `x.detach()`), and its receiver's text; None when there are several
    or none, so a fix never guesses which one."""
    tensor = observation.values.get("tensor")
    if tensor is None:
        return None, ""
    spans = {o.span for o in tensor.origins if o.label.startswith(label)}
    if len(spans) != 1:
        return None, ""
    (span,) = spans
    found = _METHOD_CALL.match(text_of(span))
    return (span, found.group("receiver")) if found is not None else (None, "")


def _operand(text: str) -> str:
    """`text` as the receiver of a method call: in parentheses unless it is a path, call or
    method chain already."""
    return text if _ATOM.fullmatch(text.strip()) and "&" not in text[:1] else f"({text})"


def _absorbed(span: ir.Span, call: str, text_of: Callable[[ir.Span], str]) -> ir.Span | None:
    """`span` extended over the call `call` (`.autodiff()`) written right after it, if it is."""
    after = text_of(ir.Span(span.end, span.end + 200, span.file))
    parts = [re.escape(part) for part in re.findall(r"\w+|\S", call)]
    found = re.match(r"\s*" + r"\s*".join(parts), after)
    if found is None:
        return None
    end = span.end + len(after[: found.end()].encode())
    return ir.Span(span.start, end, span.file)
