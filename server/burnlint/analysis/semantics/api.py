"""The burn API model: vocabulary (what calls do) and sinks (where bugs panic), built from KB data.

Every entry's `[detect]` table contributes `api` rules and `sinks`; the union over all loaded
entries is the model, so adding an API name is a knowledge-base edit. The effect names used by
the rules are the mechanism implemented by `interp` (`interp.effects.EFFECTS`); the model is
compiled against that registry's names, and every key of a `[detect]` table is checked.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from fnmatch import fnmatchcase
from typing import Any, Literal, TypeGuard, cast, get_args

from burnlint.eras import ERAS
from burnlint.kb.load import KBError

EffectName = Literal[
    "device-autodiff",
    "device-checkpointing",
    "device-plain",
    "device-inner",
    "device-of",
    "tensor-create",
    "tensor-op",
    "tensor-strip",
    "tensor-float",
    "tensor-lift",
    "tensor-grad",
    "tensor-binary",
    "tensor-concat",
    "tensor-inner",
    "tensor-backward",
    "tensor-require-grad",
    "tensor-to-device",
    "kind-autodiff",
    "kind-backend",
    "backend-float",
    "backend-other",
    "ctx-disabled",
    "ctx-enabled",
    "ctx-default",
    "ctx-option-test",
    "strategy",
    "guard-tensor-autodiff",
    "guard-device-autodiff",
    "identity",
]
"""The effects a rule may name: each has exactly one handler in `interp.effects.EFFECTS`
(checked when that module loads), whose keys are what a KB entry is validated against."""
Receiver = Literal["any", "tensor", "device", "ctx", "option", "checkpointing-field"]
SiteKind = Literal["call", "struct", "assign", "effect"]
RECEIVERS: tuple[Receiver, ...] = get_args(Receiver)
SITES: tuple[SiteKind, ...] = get_args(SiteKind)
_API_KEYS = (
    "effect",
    "calls",
    "methods",
    "receiver",
    "args",
    "eras",
    "checked_eras",
    "dtype",
    "variant",
    "label",
    "doc",
)
_SINK_KEYS = (
    "site",
    "when",
    "calls",
    "structs",
    "effects",
    "tensors",
    "context",
    "min_args",
    "kind_field",
    "context_fields",
    "eras",
    "known",
)
_DETECT_KEYS = ("api", "sinks", "example")
_ROLES = frozenset({"tensor", "context", "device", "build"})
"""The roles a sink condition may require one fact of; any other `when` key is a relation."""


class ApiSpecError(KBError):
    """A `[detect]` table is malformed; the message names the entry and the key."""


@dataclass(frozen=True, slots=True)
class ApiRule:
    """One vocabulary rule: calls or methods with this name have this effect."""

    effect: EffectName
    calls: tuple[tuple[str, ...], ...] = ()
    methods: frozenset[str] = frozenset()
    receiver: Receiver = "any"
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
    site: SiteKind
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
    known: bool = False
    """Fire only on facts: a value whose facet may be unknown never makes this sink panic
    (high-level API rules, where most tensors' autodiff-ness is not known)."""


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
    _call_sinks: dict[tuple[str, ...], tuple[SinkSpec, ...]] = field(
        default_factory=dict[tuple[str, ...], tuple[SinkSpec, ...]]
    )

    by_era: dict[str, tuple[tuple[bytes, ...], re.Pattern[bytes]]] = field(
        default_factory=dict[str, tuple[tuple[bytes, ...], re.Pattern[bytes]]]
    )
    """`trigger_words` and `trigger` of the sinks (and the API rules feeding them) that apply
    in each era: `require_grad()` is no trigger in an era where no rule checks it."""

    def _triggers(self, era: str | None) -> tuple[tuple[bytes, ...], re.Pattern[bytes]]:
        """`trigger_words` and `trigger` of `era` (of every era when None)."""
        default = (self.trigger_words, self.trigger)
        return self.by_era.get(era, default) if era else default

    def words_of(self, era: str | None = None) -> frozenset[bytes]:
        """The trigger words of `era` (all eras' when None): a text whose words (`\\w+`
        runs) include none of them cannot fire, as each is matched as a whole word."""
        return frozenset(self._triggers(era)[0])

    def may_fire(self, data: bytes, era: str | None = None) -> bool:
        """False when a text contains none of the words any sink (of `era`, if given) needs
        where code would use them (an exact prefilter: a sink is a call, method call, struct
        literal or field)."""
        words, trigger = self._triggers(era)
        return any(word in data for word in words) and trigger.search(data) is not None

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

    def call_sinks(self, path: tuple[str, ...]) -> tuple[SinkSpec, ...]:
        """The call sinks whose call pattern is a suffix of `path` (already import-resolved)."""
        found = self._call_sinks.get(path)
        if found is None:
            found = self._call_sinks[path] = tuple(
                spec
                for spec in self.sinks
                if spec.site == "call" and any(suffix_match(p, path) for p in spec.calls)
            )
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
    return tail == pattern or all(
        fnmatchcase(seg, pat) for seg, pat in zip(tail, pattern, strict=True)
    )


def build_model(
    specs: list[tuple[str, dict[str, Any]]],
    effects: Collection[str],
    files: Mapping[str, str] | None = None,
) -> ApiModel:
    """Compile `(entry id, detect table)` pairs into one model. `effects` are the effect names
    the interpreter implements; `files` names each entry's file for error messages. Every key
    and name is checked: ApiSpecError names the file, the key and the closest valid name."""
    rules: list[ApiRule] = []
    sinks: list[SinkSpec] = []
    for entry, detect in specs:
        where = f"{(files or {}).get(entry, entry)}: detect"
        _known_keys(detect, _DETECT_KEYS, where)
        for index, raw in enumerate(_list(detect.get("api", []), f"{where}.api")):
            rules.append(_rule(entry, index, raw, effects, where))
        for index, raw in enumerate(_list(detect.get("sinks", []), f"{where}.sinks")):
            sinks.append(_sink(entry, index, raw, effects, where))
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
    for sink in sinks:
        scope_names.update(p[-1] for p in sink.calls)
        scope_names.update(sink.structs)
        scope_names.update(sink.context_fields)
    triggers, method_triggers = _triggers(sinks, rules, None)
    by_era = {
        era: (
            tuple(sorted(word.encode() for word in words | methods)),
            _trigger_pattern(words, methods - words),
        )
        for era in ERAS
        for words, methods in [_triggers(sinks, rules, era)]
    }
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
        trigger_words=tuple(sorted(word.encode() for word in triggers | method_triggers)),
        trigger=_trigger_pattern(triggers, method_triggers - triggers),
        by_era=by_era,
    )


def _triggers(
    sinks: list[SinkSpec], rules: list[ApiRule], era: str | None
) -> tuple[set[str], set[str]]:
    """The words (and method names) whose use may reach a sink of `era` (None: any era): the
    sinks' calls, structs and fields, and the calls and methods of the API rules whose effect
    a sink checks, where both apply in that era."""
    triggers: set[str] = set()
    method_triggers: set[str] = set()
    for sink in sinks:
        if era is not None and sink.eras is not None and era not in sink.eras:
            continue
        triggers.update(p[-1] for p in sink.calls)
        triggers.update(sink.structs)
        triggers.update(sink.context_fields)
        if any(key not in _ROLES for key in sink.when):
            # A condition about operands together (mixed kinds, two strategies, two backends)
            # needs facts a function learns from code that already names burn's autodiff or
            # device API (a trigger of its own): the operations themselves (`matmul`, `+`,
            # everywhere in tensor code) would make every function a root.
            continue
        for rule in rules:
            if rule.effect not in sink.effects:
                continue
            if era is not None and not all(
                eras is None or era in eras for eras in (rule.eras, rule.checked_eras)
            ):
                continue
            for pattern in rule.calls:
                last = pattern[-1]
                if any(c in last for c in "*?["):
                    continue
                # `Dispatch::inner(` is written with its path; a bare `inner` is a local.
                (method_triggers if len(pattern) > 1 else triggers).add(last)
            method_triggers.update(rule.methods)
    return triggers, method_triggers


def _trigger_pattern(words: set[str], methods: set[str]) -> re.Pattern[bytes]:
    """Any trigger word followed by what code puts after a callee, variant, struct or field,
    and any method name after `.` or `::` (a method call, a call by path, or a function passed
    by name; see `ApiModel.trigger`); comments and strings may match too, which only costs
    time. A method name alone is a local (`let inner = ..`), not a use of burn's method."""

    def alternatives(names: set[str]) -> bytes:
        return b"|".join(re.escape(word.encode()) for word in sorted(names, key=len, reverse=True))

    parts: list[bytes] = []
    if words:
        # `fn autodiff(` declares a function of that name; it is not a use of burn's.
        parts.append(
            rb"(?<!fn )\b(?:" + alternatives(words) + rb")\s*(?:\(|::\s*<|\{|\)|,|:(?!:)|=(?!=))"
        )
    if methods:
        parts.append(rb"(?:\.|::)\s*(?:" + alternatives(methods) + rb")\s*(?:\(|::\s*<|\)|,)")
    if not parts:
        return re.compile(b"(?!)")
    return re.compile(b"|".join(parts))


def _strings(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list) and all(isinstance(x, str) for x in cast(list[Any], raw)):
        return cast(list[str], raw)
    raise ApiSpecError(f"{where}: expected a string or a list of strings")


def _list(raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise ApiSpecError(f"{where}: expected an array of tables")
    return cast(list[Any], raw)


def _closest(name: str, valid: Collection[str]) -> str:
    """` (did you mean `x`?)` for the valid name closest to a wrong one, if any is close."""
    found = get_close_matches(name, sorted(valid), n=1, cutoff=0.6)
    return f" (did you mean `{found[0]}`?)" if found else ""


def _known_keys(table: dict[str, Any], valid: Collection[str], where: str) -> None:
    for key in table:
        if key not in valid:
            raise ApiSpecError(f"{where}.{key}: unknown key{_closest(key, valid)}")


def _one_of(value: str, valid: Collection[str], where: str, what: str) -> None:
    if value not in valid:
        raise ApiSpecError(f"{where}: unknown {what} `{value}`{_closest(value, valid)}")


def _is_effect(name: str, effects: Collection[str]) -> TypeGuard[EffectName]:
    return name in effects and name in get_args(EffectName)


def _is_receiver(name: str) -> TypeGuard[Receiver]:
    return name in RECEIVERS


def _is_site(name: str) -> TypeGuard[SiteKind]:
    return name in SITES


def _table(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ApiSpecError(f"{where}: expected a table")
    return cast(dict[str, Any], raw)


def _eras(raw: Any, where: str) -> frozenset[str] | None:
    values = _strings(raw, where)
    return frozenset(values) if values else None


def _rule(entry: str, index: int, raw: Any, effects: Collection[str], detect: str) -> ApiRule:
    where = f"{detect}.api[{index}]"
    table = _table(raw, where)
    _known_keys(table, _API_KEYS, where)
    effect = str(table.get("effect", ""))
    if not _is_effect(effect, effects):
        raise ApiSpecError(f"{where}.effect: unknown effect `{effect}`{_closest(effect, effects)}")
    receiver = str(table.get("receiver", "any"))
    if not _is_receiver(receiver):
        raise ApiSpecError(
            f"{where}.receiver: unknown receiver `{receiver}`{_closest(receiver, RECEIVERS)}"
        )
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


def _sink(entry: str, index: int, raw: Any, known: Collection[str], detect: str) -> SinkSpec:
    where = f"{detect}.sinks[{index}]"
    table = _table(raw, where)
    _known_keys(table, _SINK_KEYS, where)
    site = str(table.get("site", ""))
    if not _is_site(site):
        raise ApiSpecError(f"{where}.site: unknown site kind `{site}`{_closest(site, SITES)}")
    when = {str(k): str(v) for k, v in _table(table.get("when", {}), f"{where}.when").items()}
    if not when:
        raise ApiSpecError(f"{where}.when: must name at least one facet")
    effects = frozenset(_strings(table.get("effects"), f"{where}.effects"))
    for name in sorted(effects):
        _one_of(name, known, f"{where}.effects", "effect")
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
        known=bool(table.get("known", False)),
    )
