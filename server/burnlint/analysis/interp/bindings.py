"""Recording the values bound to names while one function is interpreted, for display.

`BindingLog` keeps, per binding site (a `let` pattern's name, a closure parameter, and the
parameters of the functions this one calls, as the call passes them), the distinct values
the binding took on the path classes that reached it; and the same per expression whose value a
hover shows (a field read, a call's result, a call's argument), as the interpreter handed them
on: the values the sinks saw. It is kept with the function's analysis and dropped with it;
nothing in it decides a finding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from burnlint.analysis.interp.state import Env
from burnlint.analysis.interp.values import UNKNOWN, Value, join
from burnlint.analysis.syntax import ir

MAX_SITES = 512
"""Binding sites kept per analysis at most; a longer function shows the first ones."""
MAX_VALUES = 2048
"""Expression sites kept per analysis at most (they are only read by hovers)."""
MAX_PATHS = 4
"""Distinct values kept per site; more path classes are joined into the last one."""

_NOTHING = frozenset({UNKNOWN})


def shows(value: Value) -> bool:
    """Whether the value (or the `Some` payload or element it holds) says something about a
    tensor, context or device (else it is not worth recording: an integer, a shape, a value
    only known from the parameters)."""
    inner = held(value)
    return _known(inner) or any(_known(held(field)) for _, field in inner.fields)


def _known(value: Value) -> bool:
    return bool(
        (value.tensor and not value.tensor <= _NOTHING)
        or (value.ctx and not value.ctx <= _NOTHING)
        or (value.device and not value.device <= _NOTHING)
    )


def held(value: Value) -> Value:
    """The value itself, or for an `Option` or collection of nothing else, its payload or
    element."""
    if value.tensor or value.ctx or value.device:
        return value
    inner = value.get_field("some") or value.get_field("elem")
    return inner if inner is not None else value


@dataclass(eq=False)
class BindingSite:
    """What one binding site was bound to. Compared and hashed by identity, and weakly
    referable: what is made from it is kept exactly as long as it lives."""

    kind: str
    """"let", "pattern" (`match` arms, `if let`), "for", "closure" (a closure parameter) or
    "param" (a function parameter); for an expression, "field" (a field read), "call" (a
    call's result) or "arg" (a call's argument)."""
    paths: list[Value] = field(default_factory=list[Value])
    """The distinct values worth showing, one per group of alike path classes."""
    shown: object = field(default=None, repr=False)
    """What the editor's view made of this site (`analysis.states.StateCache`): kept exactly
    as long as the site (a weak-keyed table cost a third of reading a file's states)."""


class BindingLog:
    """The binding sites of one analysis (see the module docstring)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        """False: record nothing (a check, which never shows states)."""
        self.sites: dict[ir.Span, BindingSite] = {}
        self.files: set[int] = set()
        """The files the sites are in (a call records its callee's parameters)."""
        self.silent: set[ir.Span] = set()
        """Sites some path class bound to a value that says nothing: there the state holds
        on some paths only."""
        self.values: dict[ir.Span, BindingSite] = {}
        """Expression sites (in the analyzed function's file): what field reads, calls and
        call arguments evaluated to."""
        self.values_silent: set[ir.Span] = set()
        """Expression sites some path class evaluated to a value that says nothing."""

    def bound(self, kind: str, pattern: ir.Pat, envs: list[Env]) -> None:
        """The names `pattern` binds, as each of `envs` binds them."""
        if not self.enabled:
            return
        names = (pattern,) if isinstance(pattern, ir.PBind) and pattern.sub is None else None
        for name in names or _names(pattern):
            for env in envs:
                value = env.get(name.binding)
                if value is not None:
                    self.add(kind, name.span, value)

    def passed(self, params: tuple[ir.Param, ...], args: list[Value]) -> None:
        """A call passes `args` to a function with these parameters."""
        if not self.enabled:
            return
        for param, arg in zip(params, args, strict=False):
            if isinstance(param.pattern, ir.PBind):
                self.add("param", param.pattern.span, arg)

    def add(self, kind: str, span: ir.Span, value: Value) -> None:
        """One path class binds `value` at `span`."""
        if _record(self.sites, self.silent, MAX_SITES, kind, span, value):
            self.files.add(span.file)

    def evaluated(self, kind: str, span: ir.Span, value: Value) -> None:
        """One path class evaluates the expression at `span` (a "field" read, a "call", an
        "arg"ument) to `value`."""
        if self.enabled:
            _record(self.values, self.values_silent, MAX_VALUES, kind, span, value)


def _record(
    sites: dict[ir.Span, BindingSite],
    silent: set[ir.Span],
    limit: int,
    kind: str,
    span: ir.Span,
    value: Value,
) -> bool:
    """Add what one path class gave the site at `span` to `sites` (at most `limit` of them;
    a value that says nothing goes to `silent`); True when a site was made."""
    if not shows(value):
        # Another path class may show something here: remember this one said nothing.
        if len(silent) < 2 * limit:
            silent.add(span)
        return False
    site = sites.get(span)
    if site is None:
        if len(sites) >= limit:
            return False
        sites[span] = BindingSite(kind, [value])
        return True
    if any(old is value for old in site.paths):
        # The same value again (a loop's next round, another class sharing it): no news.
        return False
    key = value.coarse()
    for index, old in enumerate(site.paths):
        if old.coarse() == key:
            site.paths[index] = join(old, value)
            return False
    if len(site.paths) >= MAX_PATHS:
        site.paths[-1] = join(site.paths[-1], value)
    else:
        site.paths.append(value)
    return False


def _names(pattern: ir.Pat) -> list[ir.PBind]:
    """The names a pattern binds, outermost first."""
    out: list[ir.PBind] = []
    work: list[ir.Pat] = [pattern]
    while work:
        pat = work.pop()
        if isinstance(pat, ir.PBind):
            out.append(pat)
            if pat.sub is not None:
                work.append(pat.sub)
        elif isinstance(pat, ir.PTuple):
            work.extend(pat.items)
        elif isinstance(pat, ir.PStruct):
            work.extend(sub for _, sub in pat.fields)
        elif isinstance(pat, ir.POr):
            work.extend(pat.alts)
    return out
