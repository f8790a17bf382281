"""The burn API model: vocabulary (what calls do) and sinks (where bugs panic), built from KB data.

Every entry's `[detect]` table contributes `api` rules and `sinks`; the union over all loaded
entries is the model, so adding an API name is a knowledge-base edit. The effect names used by
the rules are the mechanism implemented by `interp`; `EFFECTS` lists them for validation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, cast

EFFECTS = frozenset(
    {
        "device-autodiff",
        "device-checkpointing",
        "device-plain",
        "device-inner",
        "device-of",
        "tensor-create",
        "tensor-op",
        "tensor-strip",
        "tensor-lift",
        "tensor-grad",
        "kind-autodiff",
        "kind-backend",
        "backend-float",
        "backend-other",
        "ctx-disabled",
        "ctx-enabled",
        "ctx-default",
        "strategy",
        "guard-tensor-autodiff",
        "guard-device-autodiff",
        "identity",
        "unwrap",
        "unwrap-or-default",
        "some",
        "none",
        "opaque",
    }
)
RECEIVERS = frozenset({"any", "tensor", "device", "ctx", "option"})
SITES = frozenset({"call", "struct", "assign", "effect"})


class ApiSpecError(Exception):
    """A `[detect]` table is malformed; the message names the entry and the key."""


@dataclass(frozen=True, slots=True)
class ApiRule:
    """One vocabulary rule: calls or methods with this name have this effect."""

    effect: str
    calls: tuple[tuple[str, ...], ...] = ()
    methods: frozenset[str] = frozenset()
    receiver: str = "any"
    args: dict[str, int] = field(default_factory=dict[str, int])
    eras: frozenset[str] | None = None
    checked_eras: frozenset[str] | None = None
    dtype: str = "float"
    variant: str = ""
    label: str = ""
    entry: str = ""
    doc: str = ""
    """A one-paragraph explanation shown when hovering over a name this rule matches."""


@dataclass(frozen=True, slots=True)
class SinkSpec:
    """Where a code's bug panics and which facets the values there must have for it to fire."""

    code: str
    site: str
    when: dict[str, str]
    calls: tuple[tuple[str, ...], ...] = ()
    structs: frozenset[str] = frozenset()
    effects: frozenset[str] = frozenset()
    tensors: tuple[int, ...] = ()
    context: int = -1
    min_args: int = 0
    kind_field: str = "kind"
    context_fields: frozenset[str] = frozenset()
    eras: frozenset[str] | None = None


@dataclass(frozen=True)
class ApiModel:
    """The compiled vocabulary and sinks, with lookups by name."""

    rules: tuple[ApiRule, ...]
    sinks: tuple[SinkSpec, ...]
    by_method: dict[str, tuple[ApiRule, ...]]
    by_last_segment: dict[str, tuple[ApiRule, ...]]
    glob_rules: tuple[ApiRule, ...]
    scope_names: frozenset[str]
    vocabulary: frozenset[str]
    """Every name the API rules and sinks know (calls' last segments, methods, structs,
    context fields): code that names none of them cannot handle burn's values directly."""
    trigger_words: tuple[bytes, ...]
    trigger: re.Pattern[bytes] = field(default=re.compile(b"(?!)"))
    """The trigger words where they can be code that reaches a sink: a call or variant
    (`q_matmul(`, `Autodiff(`, `from_inner::<`), a method call (`.autodiff(`), a struct literal
    (`DispatchTensor {`), a context field (`autodiff:`, `.autodiff =`), or a function passed by
    name (`map(DispatchDevice::autodiff)`). `Autodiff<B>` in a type is none of these, and most
    of a large workspace's mentions of autodiff are types."""
    _call_cache: dict[tuple[tuple[str, ...], str], ApiRule | None] = field(
        default_factory=dict[tuple[tuple[str, ...], str], ApiRule | None]
    )

    def may_fire(self, data: bytes) -> bool:
        """False when a text contains none of the words any sink needs where code would use
        them (an exact prefilter: a sink is a call, method call, struct literal or field)."""
        return any(word in data for word in self.trigger_words) and (
            self.trigger.search(data) is not None
        )

    def match_call(self, path: tuple[str, ...], era: str) -> ApiRule | None:
        """The first rule whose call pattern is a suffix of `path` (already import-resolved)."""
        key = (path, era)
        if key in self._call_cache:
            return self._call_cache[key]
        found: ApiRule | None = None
        for rule in self.by_last_segment.get(path[-1], ()):
            if (rule.eras is None or era in rule.eras) and any(
                suffix_match(p, path) for p in rule.calls
            ):
                found = rule
                break
        for rule in self.glob_rules:
            if found is not None and self.rules.index(rule) > self.rules.index(found):
                break
            if (rule.eras is None or era in rule.eras) and any(
                suffix_match(p, path) for p in rule.calls
            ):
                found = rule
                break
        self._call_cache[key] = found
        return found

    def doc_for(self, path: tuple[str, ...], method: bool, era: str) -> ApiRule | None:
        """The first documented rule for a call path (or, with `method`, a method name)."""
        if method:
            rules = [r for r in self.by_method.get(path[-1], ()) if r.doc]
            return next((r for r in rules if r.eras is None or era in r.eras), None)
        rule = self.match_call(path, era)
        return rule if rule is not None and rule.doc else None

    def match_method(self, name: str, receiver_kinds: frozenset[str], era: str) -> ApiRule | None:
        """The first method rule for `name` whose receiver constraint holds."""
        for rule in self.by_method.get(name, ()):
            if rule.eras is not None and era not in rule.eras:
                continue
            if rule.receiver == "any" or rule.receiver in receiver_kinds:
                return rule
        return None


def suffix_match(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether `path` ends with `pattern` (whose segments may be shell-style wildcards)."""
    if len(pattern) > len(path):
        return False
    tail = path[len(path) - len(pattern) :]
    return all(fnmatchcase(seg, pat) for seg, pat in zip(tail, pattern, strict=True))


def build_model(specs: list[tuple[str, dict[str, Any]]]) -> ApiModel:
    """Compile `(entry id, detect table)` pairs into one model; raise ApiSpecError on bad data."""
    rules: list[ApiRule] = []
    sinks: list[SinkSpec] = []
    for entry, detect in specs:
        for index, raw in enumerate(cast(list[Any], detect.get("api", []))):
            rules.append(_rule(entry, index, raw))
        for index, raw in enumerate(cast(list[Any], detect.get("sinks", []))):
            sinks.append(_sink(entry, index, raw))
    by_method: dict[str, list[ApiRule]] = {}
    by_last: dict[str, list[ApiRule]] = {}
    globs: list[ApiRule] = []
    for rule in rules:
        for method in rule.methods:
            by_method.setdefault(method, []).append(rule)
        for pattern in rule.calls:
            if any(ch in pattern[-1] for ch in "*?["):
                if rule not in globs:
                    globs.append(rule)
            else:
                by_last.setdefault(pattern[-1], []).append(rule)
    scope_names: set[str] = set()
    triggers: set[str] = set()
    for sink in sinks:
        scope_names.update(p[-1] for p in sink.calls)
        scope_names.update(sink.structs)
        scope_names.update(sink.context_fields)
        triggers.update(p[-1] for p in sink.calls)
        triggers.update(sink.structs)
        triggers.update(sink.context_fields)
        for rule in rules:
            if rule.effect in sink.effects:
                triggers.update(p[-1] for p in rule.calls if not any(c in p[-1] for c in "*?["))
                triggers.update(rule.methods)
    rank = {id(rule): index for index, rule in enumerate(rules)}
    globs.sort(key=lambda r: rank[id(r)])
    return ApiModel(
        rules=tuple(rules),
        sinks=tuple(sinks),
        by_method={k: tuple(v) for k, v in by_method.items()},
        by_last_segment={k: tuple(v) for k, v in by_last.items()},
        glob_rules=tuple(globs),
        scope_names=frozenset(scope_names),
        vocabulary=frozenset(
            {
                *(w for w in by_last if w.isidentifier()),
                *(w for w in by_method if w.isidentifier()),
                *scope_names,
                *(p for rule in rules for path in rule.calls for p in path if p.isidentifier()),
            }
        ),
        trigger_words=tuple(sorted(word.encode() for word in triggers)),
        trigger=_trigger_pattern(triggers),
    )


def _trigger_pattern(words: set[str]) -> re.Pattern[bytes]:
    """Any trigger word followed by what code puts after a callee, variant, struct or field
    (see `ApiModel.trigger`); comments and strings may match too, which only costs time."""
    if not words:
        return re.compile(b"(?!)")
    names = b"|".join(re.escape(word.encode()) for word in sorted(words, key=len, reverse=True))
    # `fn autodiff(` declares a function of that name; it is not a use of burn's.
    return re.compile(rb"(?<!fn )\b(?:" + names + rb")\s*(?:\(|::\s*<|\{|\)|,|:(?!:)|=(?!=))")


def _strings(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list) and all(isinstance(x, str) for x in cast(list[Any], raw)):
        return cast(list[str], raw)
    raise ApiSpecError(f"{where}: expected a string or a list of strings")


def _table(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ApiSpecError(f"{where}: expected a table")
    return cast(dict[str, Any], raw)


def _eras(raw: Any, where: str) -> frozenset[str] | None:
    values = _strings(raw, where)
    return frozenset(values) if values else None


def _rule(entry: str, index: int, raw: Any) -> ApiRule:
    where = f"{entry}: detect.api[{index}]"
    table = _table(raw, where)
    effect = str(table.get("effect", ""))
    if effect not in EFFECTS:
        raise ApiSpecError(f"{where}.effect: unknown effect {effect!r}")
    receiver = str(table.get("receiver", "any"))
    if receiver not in RECEIVERS:
        raise ApiSpecError(f"{where}.receiver: unknown receiver {receiver!r}")
    calls = tuple(tuple(c.split("::")) for c in _strings(table.get("calls"), f"{where}.calls"))
    methods = frozenset(_strings(table.get("methods"), f"{where}.methods"))
    if not calls and not methods:
        raise ApiSpecError(f"{where}: needs `calls` or `methods`")
    args = {str(k): int(v) for k, v in _table(table.get("args", {}), f"{where}.args").items()}
    return ApiRule(
        effect=effect,
        calls=calls,
        methods=methods,
        receiver=receiver,
        args=args,
        eras=_eras(table.get("eras"), f"{where}.eras"),
        checked_eras=_eras(table.get("checked_eras"), f"{where}.checked_eras"),
        dtype=str(table.get("dtype", "float")),
        variant=str(table.get("variant", "")),
        label=str(table.get("label", "")),
        entry=entry,
        doc=str(table.get("doc", "")),
    )


def _sink(entry: str, index: int, raw: Any) -> SinkSpec:
    where = f"{entry}: detect.sinks[{index}]"
    table = _table(raw, where)
    site = str(table.get("site", ""))
    if site not in SITES:
        raise ApiSpecError(f"{where}.site: must be one of {sorted(SITES)}")
    when = {str(k): str(v) for k, v in _table(table.get("when", {}), f"{where}.when").items()}
    if not when:
        raise ApiSpecError(f"{where}.when: must name at least one facet")
    effects = frozenset(_strings(table.get("effects"), f"{where}.effects"))
    unknown = effects - EFFECTS
    if unknown:
        raise ApiSpecError(f"{where}.effects: unknown {sorted(unknown)}")
    return SinkSpec(
        code=entry,
        site=site,
        when=when,
        calls=tuple(tuple(c.split("::")) for c in _strings(table.get("calls"), f"{where}.calls")),
        structs=frozenset(_strings(table.get("structs"), f"{where}.structs")),
        effects=effects,
        tensors=tuple(int(x) for x in cast(list[Any], table.get("tensors", []))),
        context=int(table.get("context", -1)),
        min_args=int(table.get("min_args", 0)),
        kind_field=str(table.get("kind_field", "kind")),
        context_fields=frozenset(_strings(table.get("context_fields"), f"{where}.context_fields")),
        eras=_eras(table.get("eras"), f"{where}.eras"),
    )
