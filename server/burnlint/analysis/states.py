"""What the analyzer knows about the names of a file, in words: one `BindingState` per `let`
name, closure parameter and function parameter whose tensor, context or device state is known
on some path (from the binding logs the analyses that made the findings kept).

A label is short (`autodiff·Balanced`, `plain`, `ctx: Disabled`, `autodiff?` when known on some
paths only); the paths and origins say the rest.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from burnlint.analysis.findings import Range, Related
from burnlint.analysis.interp.bindings import BindingLog, BindingSite, held
from burnlint.analysis.interp.program import Program
from burnlint.analysis.interp.values import (
    AUTODIFF,
    DISABLED,
    ENABLED,
    FLOAT,
    PLAIN,
    UNKNOWN,
    Value,
)
from burnlint.analysis.semantics.api import ApiModel
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.source import SourceFile
from burnlint.records import record

DEFAULT_STRATEGY = "Disabled"
"""The checkpointing strategy an autodiff value has unless one is asked for: left out of
labels (it would read like a disabled context)."""
MAX_SHOWN_ORIGINS = 4
MAX_TEXTS = 2_000
"""Function texts a `StateCache` keeps before it forgets those the last call did not ask
about (the texts of earlier versions)."""


@record
class BindingState:
    """The known state of one bound name."""

    start: int
    end: int
    """The name's bytes in the file."""
    kind: str
    """"let", "closure" or "param"."""
    label: str
    paths: tuple[str, ...]
    """One description per group of alike paths, e.g. "autodiff tensor (checkpointing
    Balanced)"."""
    origins: tuple[Related, ...]
    """Where the values were made (autodiff device created here, ...), in file order."""
    some_paths: bool
    """Known on some paths only (others bind something the analyzer knows nothing of)."""
    dispatch: bool
    """The function it is in names dispatch types or burn's dispatch vocabulary."""


def file_states(
    program: Program,
    file: int,
    api: ApiModel,
    start: int = 0,
    end: int | None = None,
    cache: StateCache | None = None,
    with_origins: bool = True,
    only: ir.Span | None = None,
) -> list[BindingState]:
    """The known states of unit `file`'s names whose first byte is in `start`..`end` (the
    whole file by default), in file order (one per name), or of the name bound at `only`;
    `cache` keeps what it can across calls; without `with_origins` their origins are left
    out (they cost most)."""
    cache = cache if cache is not None else StateCache()
    if only is None and start == 0 and end is None:
        return _whole_file(program, file, api, cache, with_origins)
    unit = program.units[file]
    end = len(unit.source.data) if end is None else end

    def keep(span: ir.Span) -> bool:
        return (
            span == only if only is not None else span.file == file and start <= span.start <= end
        )

    logs = [
        log
        for log in program.binding_logs(file)
        if only is None or only in log.sites or only in log.silent
    ]
    maker = _StateMaker(program, file, api, cache, with_origins)
    out = _collected_states(maker, logs, keep)
    cache.prune()
    out.sort(key=_file_order)
    return out


def _collected_states(
    maker: _StateMaker, logs: list[BindingLog], keep: Callable[[ir.Span], bool]
) -> list[BindingState]:
    """The states of the sites of `logs` that `keep` accepts, a site in several logs joined
    (see `_collect`)."""
    sites: dict[ir.Span, BindingSite] = {}
    silent: set[ir.Span] = set()
    merged: set[ir.Span] = set()
    for log in logs:
        _collect(log, keep, sites, silent, merged)
    out: list[BindingState] = []
    for span, site in sites.items():
        # A parameter's site joined from several callers is made anew each time: not kept.
        made = maker.state(span, site, bool(silent) and span in silent, span in merged)
        if made is not None:
            out.append(made[0])
    return out


def _file_order(state: BindingState) -> tuple[int, int, str, str]:
    return state.start, state.end, state.kind, state.label


class _StateMaker:
    """Makes the state of one site of a read (see `file_states`): its words (kept with the
    site), whether its function touches dispatch code, its origins."""

    def __init__(
        self, program: Program, file: int, api: ApiModel, cache: StateCache, with_origins: bool
    ) -> None:
        self.program = program
        self.file = file
        self.unit = program.units[file]
        self.api = api
        self.cache = cache
        self.with_origins = with_origins
        self.places = cache.places(program) if with_origins else {}
        self._functions: list[tuple[int, int]] | None = None
        self._function_set: set[tuple[int, int]] | None = None
        self._touching: dict[tuple[int, int], bool] = {}

    @property
    def functions(self) -> list[tuple[int, int]]:
        """The file's functions' byte ranges, in order."""
        if self._functions is None:
            self._functions = sorted(
                (decl.node.start_byte, decl.node.end_byte)
                for decl in self.unit.items.functions
                if not decl.build_off
            )
        return self._functions

    @property
    def function_set(self) -> set[tuple[int, int]]:
        """`functions` as a set."""
        if self._function_set is None:
            self._function_set = set(self.functions)
        return self._function_set

    def touches(self, fn_start: int, fn_end: int) -> bool:
        """Whether the function at these bytes names dispatch types or vocabulary."""
        key = (fn_start, fn_end)
        found = self._touching.get(key)
        if found is None:
            text = self.unit.source.data[fn_start:fn_end]
            found = self._touching[key] = self.cache.dispatch(text, self.api, self.program.era)
        return found

    def state(
        self, span: ir.Span, site: BindingSite, quiet: bool, merged: bool
    ) -> tuple[BindingState, tuple[int, int] | None] | None:
        """The state of `site` at `span` (None when nothing is known), with the byte range of
        the function it is in (None outside functions)."""
        words = None if merged else self.cache.get(site, quiet)
        if words is None:
            words = _words(site, quiet)
            if not merged:
                self.cache.put(site, quiet, words)
        if not words[0]:
            return None
        functions = self.functions
        name_start, name_end = span.start, span.end
        index = bisect.bisect_right(functions, (name_start, 1 << 62)) - 1
        function: tuple[int, int] | None = None
        if index >= 0 and name_start < functions[index][1]:
            function = functions[index]
        touches = function is not None and self.touches(*function)
        label, some, paths = words
        origins = _origins(self.program, site.paths, self.places) if self.with_origins else ()
        made = BindingState(name_start, name_end, site.kind, label, paths, origins, some, touches)
        return made, function


@dataclass(slots=True)
class _Part:
    """The states one binding log gave a whole-file read, and what they depended on: they are
    the same in the next read while the log is, its spans have not moved, its functions still
    stand where they were and touch dispatch code as they did, and (with origins) no file
    changed."""

    log: BindingLog
    keys: frozenset[ir.Span]
    """The log's spans in the file (sites and silent ones)."""
    states: list[BindingState]
    anchors: tuple[tuple[ir.Anchor, int], ...]
    """The anchors of the log's spans and where they were."""
    functions: tuple[tuple[int, int, bool], ...]
    """The functions the states are in, and whether each touched dispatch code."""
    places: object
    """The origins' placing table (see `StateCache.places`); None without origins."""

    def holds(self, maker: _StateMaker, shared: set[ir.Span], places: object) -> bool:
        """Whether the states are still what a read of the log's sites would make."""
        if places is not self.places or (shared and not self.keys.isdisjoint(shared)):
            return False
        for anchor, base in self.anchors:
            if anchor.base != base:
                return False
        ranges = maker.function_set
        for start, end, touched in self.functions:
            if (start, end) not in ranges or maker.touches(start, end) != touched:
                return False
        return True


def _whole_file(
    program: Program, file: int, api: ApiModel, cache: StateCache, with_origins: bool
) -> list[BindingState]:
    """`file_states` of a whole file, reusing each binding log's states from the last read
    when they still hold (see `_Part`): after an edit inside one function, only the logs of
    the functions analyzed again are read. A name in several logs (a parameter several
    callers pass) is read anew each time."""
    size = len(program.units[file].source.data)
    logs = program.binding_logs(file)
    keysets = [cache.keys(log, file) for log in logs]
    seen: set[ir.Span] = set()
    shared: set[ir.Span] = set()
    for keys in keysets:
        shared |= seen & keys
        seen |= keys
    maker = _StateMaker(program, file, api, cache, with_origins)
    places = maker.places if with_origins else None
    parts = cache.parts_of(file)
    kept: dict[int, _Part] = {}
    out: list[BindingState] = []
    for log, keys in zip(logs, keysets, strict=True):
        part = parts.get(id(log))
        if part is not None and part.log is log and part.holds(maker, shared, places):
            out.extend(part.states)
            kept[id(log)] = part
            continue
        made, part = _read_part(maker, log, keys, shared, size, places)
        out.extend(made)
        if part is not None:
            kept[id(log)] = part
    cache.keep_parts(file, logs, kept)
    if shared:
        out += _collected_states(
            maker, logs, lambda span: span in shared and 0 <= span.start <= size
        )
    cache.prune()
    out.sort(key=_file_order)
    return out


def _read_part(
    maker: _StateMaker,
    log: BindingLog,
    keys: frozenset[ir.Span],
    shared: set[ir.Span],
    size: int,
    places: object,
) -> tuple[list[BindingState], _Part | None]:
    """The states of `log`'s own sites in the file (those not `shared`), and them as a part to
    keep (None when a span is out of the file's range or outside its functions: those may
    change with any edit)."""
    made: list[BindingState] = []
    anchors: dict[ir.Anchor, int] = {}
    functions: dict[tuple[int, int], bool] = {}
    keepable = True
    file = maker.file
    for span, site in log.sites.items():
        if span.file != file or span in shared:
            continue
        anchors[span.anchor] = span.anchor.base
        if not 0 <= span.start <= size:
            keepable = False
            continue
        found = maker.state(span, site, span in log.silent, False)
        if found is None:
            continue
        state, function = found
        if function is None:
            keepable = False
        else:
            functions[function] = state.dispatch
        made.append(state)
    if not keepable:
        return made, None
    ranges = tuple((start, end, touched) for (start, end), touched in functions.items())
    return made, _Part(log, keys, made, tuple(anchors.items()), ranges, places)


Words = tuple[str, bool, tuple[str, ...]]
"""A site's label, whether it holds on some paths only, and each path's description."""
_Shown = tuple[bool, Words] | None
"""What a site keeps in `shown` (see `StateCache.put`); spelled once here: a type expression
in a call is evaluated on every call (a thousand per read)."""


def _words(site: BindingSite, silent: bool) -> Words:
    label, some = _label(site.paths, silent)
    if not label:
        return "", False, ()
    return label, some, tuple(describe(value) for value in site.paths)


class StateCache:
    """What `file_states` can keep across calls: the words of each binding site (while the
    analysis keeps its binding log: a dropped log's entries go with it; where the site is
    does not matter) and whether a function's text names dispatch vocabulary."""

    def __init__(self) -> None:
        self._dispatch: dict[bytes, bool] = {}
        self._dispatch_seen: set[bytes] = set()
        self._places: dict[tuple[int, int, int, str], Related] = {}
        self._places_of: tuple[SourceFile, ...] = ()
        self._keys: dict[int, dict[int, tuple[BindingLog, frozenset[ir.Span]]]] = {}
        self._parts: dict[int, dict[int, _Part]] = {}

    def keys(self, log: BindingLog, file: int) -> frozenset[ir.Span]:
        """The spans of `log`'s sites and silent sites in `file` (kept with the log)."""
        table = self._keys.setdefault(file, {})
        found = table.get(id(log))
        if found is None or found[0] is not log:
            spans = frozenset(s for s in (*log.sites, *log.silent) if s.file == file)
            found = table[id(log)] = (log, spans)
        return found[1]

    def parts_of(self, file: int) -> dict[int, _Part]:
        """The parts of the last whole read of `file`, by the id of their log."""
        return self._parts.get(file, {})

    def keep_parts(self, file: int, logs: list[BindingLog], parts: dict[int, _Part]) -> None:
        """After a whole read of `file`: its parts, and the keys of its current logs only."""
        self._parts[file] = parts
        table = self._keys.get(file, {})
        self._keys[file] = {id(log): table[id(log)] for log in logs if id(log) in table}

    def places(self, program: Program) -> dict[tuple[int, int, int, str], Related]:
        """Origins placed in the program's files, by (file, start, end, label): kept while
        every file is the same version (a thousand states share a few dozen origins, and
        placing one decodes its line)."""
        sources = tuple(unit.source for unit in program.units)
        if len(sources) != len(self._places_of) or any(
            a is not b for a, b in zip(sources, self._places_of, strict=True)
        ):
            self._places = {}
            self._places_of = sources
        return self._places

    def get(self, site: BindingSite, silent: bool) -> Words | None:
        """The words made from `site`, if they were made."""
        found = cast(_Shown, site.shown)
        return found[1] if found is not None and found[0] == silent else None

    def put(self, site: BindingSite, silent: bool, words: Words) -> None:
        """Remember the words made from `site`."""
        site.shown = (silent, words)

    def dispatch(self, text: bytes, api: ApiModel, era: str) -> bool:
        """Whether a function's text names dispatch types or burn's dispatch vocabulary."""
        self._dispatch_seen.add(text)
        found = self._dispatch.get(text)
        if found is None:
            found = self._dispatch[text] = b"Dispatch" in text or api.may_fire(text, era)
        return found

    def prune(self) -> None:
        """End of a call: past `MAX_TEXTS` function texts, keep only those it asked about."""
        if len(self._dispatch) > MAX_TEXTS:
            self._dispatch = {k: v for k, v in self._dispatch.items() if k in self._dispatch_seen}
        self._dispatch_seen = set()


@dataclass(frozen=True, slots=True)
class NameState:
    """The state of the name at a place: a binding, or a read of one."""

    name: str
    start: int
    end: int
    """The bytes of the name where it is (the read, or the binding itself)."""
    state: BindingState
    """The known state of its binding: what it was bound to, wherever it is read."""


def state_at(program: Program, file: int, api: ApiModel, offset: int) -> NameState | None:
    """The innermost name or shown expression at byte `offset` of unit `file` and its known
    state: a name's is its binding's; a field read's, a call's result's or a call argument's
    is what the analysis evaluated it to there (the values the sinks saw). None when the
    innermost one has no known state."""
    decl = next(
        (
            d
            for d in program.units[file].items.functions
            if d.node.start_byte <= offset < d.node.end_byte and not d.build_off
        ),
        None,
    )
    log = program.binding_log(decl) if decl is not None else None
    if decl is None or log is None:
        return None
    named = _name_at(decl.lowered(), offset)
    shown = _expression_at(log, file, offset)
    if shown is not None and (
        named is None
        or _width(shown) < _width(named[1])
        or (_width(shown) == _width(named[1]) and shown in log.values)
    ):
        # The expression is the tighter fit (or the same one, seen where it is used).
        site = log.values.get(shown)
        if site is None:
            return None
        quiet = shown in log.values_silent
        label, some, paths = _words(site, quiet)
        if not label:
            return None
        origins = _origins(program, site.paths)
        state = BindingState(shown.start, shown.end, site.kind, label, paths, origins, some, True)
        text = program.units[file].source.data[shown.start : shown.end].decode(errors="replace")
        name = named[0] if named is not None and named[1] == shown else _shown_name(site.kind, text)
        return NameState(name, shown.start, shown.end, state)
    if named is None:
        return None
    name, where, binding = named
    for state in file_states(program, file, api, only=binding):
        return NameState(name, where.start, where.end, state)
    return None


MAX_SHOWN_NAME = 40
"""Characters of an expression's text a hover names it by at most."""


def _shown_name(kind: str, text: str) -> str:
    """What a hover calls an expression: "" for a call (its value), else its text on one
    line, shortened."""
    if kind == "call":
        return ""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_SHOWN_NAME else flat[: MAX_SHOWN_NAME - 1] + "…"


def _width(span: ir.Span) -> int:
    return span.end - span.start


def _expression_at(log: BindingLog, file: int, offset: int) -> ir.Span | None:
    """The tightest expression site of `log` in unit `file` holding byte `offset`, whether it
    has values or only said nothing (an expression ending right before the byte is not
    pointed at: the next one, or the one around both, is)."""
    best: ir.Span | None = None
    for spans in (log.values, log.values_silent):
        for span in spans:
            if (
                span.file == file
                and span.start <= offset < span.end
                and (best is None or _width(span) < _width(best))
            ):
                best = span
    return best


def _name_at(function: ir.Function, offset: int) -> tuple[str, ir.Span, ir.Span] | None:
    """The innermost name read or bound at `offset` in `function`, or call whose value a `let`
    binds to a name: its name ("" for a call), its span there, and its binding's span."""
    binds: dict[int, ir.PBind] = {}
    # (span, name, binding id) of the innermost candidate so far.
    best: tuple[ir.Span, str, int] | None = None
    work: list[object] = [function.params, function.body]
    while work:
        node = work.pop()
        if isinstance(node, tuple | list):
            work.extend(cast(tuple[object, ...], node))
            continue
        if node is None or isinstance(node, str | int | bool | ir.Span):
            continue
        found: tuple[ir.Span, str, int] | None = None
        if isinstance(node, ir.PBind):
            binds[node.binding] = node
        if isinstance(node, ir.Var | ir.PBind):
            found = (node.span, node.name, node.binding)
        elif (
            isinstance(node, ir.Let)
            and isinstance(node.pattern, ir.PBind)
            and isinstance(node.init, ir.Call | ir.MethodCall)
        ):
            found = (node.init.span, "", node.pattern.binding)
        if found is not None:
            span = found[0]
            if span.start <= offset <= span.end and (
                best is None or span.end - span.start < best[0].end - best[0].start
            ):
                best = found
        for slot in getattr(type(node), "__slots__", ()):
            work.append(getattr(node, slot))
    if best is None:
        return None
    bound = binds.get(best[2])
    return (best[1], best[0], bound.span) if bound is not None else None


def _collect(
    log: BindingLog,
    keep: Callable[[ir.Span], bool],
    sites: dict[ir.Span, BindingSite],
    silent: set[ir.Span],
    merged: set[ir.Span],
) -> None:
    """Add `log`'s sites that `keep` accepts to `sites`, and its silent ones to `silent`: a
    function parameter passed by several callers joins their values (each caller's log has
    its own site; such joined sites are added to `merged`), and one caller passing something
    unknown makes it hold on some paths only."""
    for span, site in log.sites.items():
        if not keep(span):
            continue
        old = sites.get(span)
        if old is None:
            sites[span] = site
            continue
        sites[span] = BindingSite(old.kind, [*old.paths, *site.paths][:8])
        merged.add(span)
    silent.update(span for span in log.silent if keep(span))


def _label(values: list[Value], silent: bool) -> tuple[str, bool]:
    """The short label for the values a name took, and whether it holds on some paths only:
    `Some(..)` or `[..]` around it when every path holds it in an `Option` or collection."""
    paths = [held(value) for value in values]
    shapes = {_shape(value) for value in values}
    label, some = _bare_label(paths, silent)
    if label and shapes == {"some"}:
        return f"Some({label})", some
    if label and shapes == {"elem"}:
        return f"[{label}]", some
    if not label and len(values) == 1 and not silent:
        return _fields_label(values[0]), False
    return label, some


def _fields_label(value: Value) -> str:
    """`{features: autodiff}`: the fields of a struct whose state is known (two at most)."""
    parts: list[str] = []
    for name, field in value.fields:
        label, _ = _bare_label([held(field)], False)
        if label:
            parts.append(f"{name}: {label}")
    if not parts or len(parts) > 2:
        return ""
    return "{" + ", ".join(parts) + "}"


def _shape(value: Value) -> str:
    """ "some" or "elem" when the value is known only through its payload or element."""
    inner = held(value)
    if inner is value:
        return ""
    return "some" if value.get_field("some") is inner else "elem"


def _bare_label(paths: list[Value], silent: bool) -> tuple[str, bool]:
    tensor = frozenset[str]().union(*(v.tensor for v in paths)) - {UNKNOWN}
    unknown_tensor = silent or any(not (v.tensor - {UNKNOWN}) for v in paths)
    if tensor:
        return _kinds(tensor, unknown_tensor, {AUTODIFF: "autodiff", FLOAT: "plain"}, paths)
    ctx = frozenset[str]().union(*(v.ctx for v in paths)) - {UNKNOWN}
    if ctx:
        unknown_ctx = silent or any(not (v.ctx - {UNKNOWN}) for v in paths)
        text, some = _kinds(ctx, unknown_ctx, {DISABLED: "Disabled", ENABLED: "Enabled"}, [])
        return f"ctx: {text}", some
    device = frozenset[str]().union(*(v.device for v in paths)) - {UNKNOWN}
    if device:
        unknown_device = silent or any(not (v.device - {UNKNOWN}) for v in paths)
        names = {AUTODIFF: "autodiff", PLAIN: "plain"}
        text, some = _kinds(device, unknown_device, names, paths)
        return f"device: {text}", some
    return "", False


def _kinds(
    kinds: frozenset[str], unknown: bool, names: dict[str, str], paths: list[Value]
) -> tuple[str, bool]:
    """`autodiff` (with its strategy when one was asked for), `plain`, or with a `?` when
    known on some paths only (or when the paths disagree: the first name wins)."""
    first = next((kind for kind in names if kind in kinds), None)
    if first is None:
        return "", False
    some = unknown or len(kinds) > 1
    text = names[first]
    if first == AUTODIFF and not some:
        strategies = frozenset[str]().union(*(v.strategy for v in paths)) - {"?"}
        if len(strategies) == 1 and DEFAULT_STRATEGY not in strategies:
            text += "·" + next(iter(strategies))
    return (text + "?" if some else text), some


def describe(value: Value) -> str:
    """One path's state in words: "autodiff tensor (checkpointing Balanced) on Flex"."""
    shape = _shape(value)
    if shape:
        inner = describe(held(value))
        return f"`Some` holding an {inner}" if shape == "some" else f"collection of {inner}s"
    parts: list[str] = []
    tensor = value.tensor - {UNKNOWN}
    if tensor:
        kinds = " or ".join("autodiff" if k == AUTODIFF else "plain" for k in sorted(tensor))
        parts.append(f"{kinds} tensor")
    ctx = value.ctx - {UNKNOWN}
    if ctx and not tensor:
        parts.append(" or ".join(c.capitalize() for c in sorted(ctx)) + " autodiff context")
    device = value.device - {UNKNOWN}
    if device and not tensor and not ctx:
        parts.append(" or ".join(sorted(device)) + " device")
    if not parts:
        return "unknown"
    strategies = value.strategy - {"?"}
    if strategies and (AUTODIFF in tensor or AUTODIFF in device or ctx):
        parts.append(f"(checkpointing {' or '.join(sorted(strategies))})")
    if value.backend:
        parts.append("on " + " or ".join(sorted(value.backend)))
    return " ".join(parts)


def _origins(
    program: Program,
    paths: list[Value],
    places: dict[tuple[int, int, int, str], Related] | None = None,
) -> tuple[Related, ...]:
    """Where the values were made, first in the program's file order (`places` keeps the
    origins already placed, see `StateCache.places`)."""
    places = places if places is not None else {}
    seen: dict[tuple[int, int, str], Related] = {}
    for value in paths:
        for origin in held(value).origins:
            span = origin.span
            key = (span.file, span.start, origin.label)
            if key in seen or span.file >= len(program.units):
                continue
            start, end = span.start, span.end
            placed = places.get((span.file, start, end, origin.label))
            if placed is None:
                source = program.units[span.file].source
                if end > len(source.data):
                    continue
                where = Range(source.path, start, end, source.position(start), source.position(end))
                placed = places[(span.file, start, end, origin.label)] = Related(
                    where, origin.label
                )
            seen[key] = placed
    ordered = sorted(seen.items(), key=lambda item: item[0])
    return tuple(related for _, related in ordered[:MAX_SHOWN_ORIGINS])
