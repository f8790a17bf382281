"""The server's settings: one typed, fully defaulted record read from the client's `burnlint`
configuration section (or `initializationOptions`), with every invalid value reported."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast, get_args

from burnlint import schema
from burnlint.schema import LOG_LEVELS, describe

Scope = Literal["openFiles", "workspace"]
SCOPES: tuple[Scope, ...] = get_args(Scope)
InlayHints = Literal["off", "on", "dispatch"]
INLAY_HINTS: tuple[InlayHints, ...] = get_args(InlayHints)
SECTION = "burnlint"
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user can configure; every field has a default."""

    enable: bool = True
    severity: Mapping[str, str] = field(default_factory=dict[str, str])
    """Per-code severity overrides, e.g. {"BD001": "warning"}."""
    ignore: frozenset[str] = frozenset()
    """Codes never reported."""
    scope: Scope = "openFiles"
    """`openFiles`: diagnostics for open files; `workspace`: for every `.rs` file."""
    unsafe_fixes: bool = True
    """Offer unsafe fixes as quick fixes (never in fix-all)."""
    era: str | None = None
    """Force the burn API era (`context`, `checkpointing`, `generic`); None detects it."""
    log_level: str = "warning"
    docs_url: str | None = None
    """Link for a code: `{code}` and `{slug}` are replaced, e.g. `https://example/{code}`."""
    inlay_hints: InlayHints = "dispatch"
    """Tensor-state inlay hints: `off`, `on` (every analyzed function), `dispatch` (only in
    functions that name dispatch types or burn's dispatch vocabulary)."""


def section_of(raw: object) -> Mapping[str, Any] | None:
    """The `burnlint` section inside `raw` when it is wrapped in one, else `raw` itself."""
    if not isinstance(raw, Mapping):
        return None
    table = cast(Mapping[str, Any], raw)
    inner = table.get(SECTION)
    if isinstance(inner, Mapping):
        return cast(Mapping[str, Any], inner)
    return table


def parse_settings(raw: object, codes: frozenset[str]) -> tuple[Settings, list[str]]:
    """Settings from a client's JSON object; invalid values fall back to their default and are
    described in the returned problems (one line each, worded as `schema` words them for
    burnlint.toml and the command line)."""
    table = section_of(raw)
    if table is None:
        problems = [] if raw is None else [f"settings must be an object, got {describe(raw)}"]
        return Settings(), problems
    problems: list[str] = []
    defaults = Settings()

    def read(key: str, check: Callable[[object], _T], default: _T) -> _T:
        if key not in table:
            return default
        try:
            return check(table[key])
        except schema.Invalid as invalid:
            problems.append(f"`{invalid.subkey or key}`: {invalid.detail}")
            return default

    def optional(value: object) -> object:
        # `null`, "" and (for the era) "auto" mean "not set".
        return None if value in (None, "", "auto") else value

    def each(
        key: str, split: Callable[[object], list[object]], check: Callable[[object], Any]
    ) -> list[Any]:
        # An editor keeps the valid entries of a list or table and reports the others.
        parts = read(key, split, [])
        out: list[Any] = []
        for part in parts:
            try:
                out.append(check(part))
            except schema.Invalid as invalid:
                problems.append(f"`{invalid.subkey or key}`: {invalid.detail}")
        return out

    def severity_items(value: object) -> list[object]:
        if not isinstance(value, Mapping):
            raise schema.Invalid(f"expected a table of code = severity, got {describe(value)}")
        return [{k: v} for k, v in cast(Mapping[object, object], value).items()]

    severity: dict[str, str] = {}
    for pair in each("severity", severity_items, lambda v: schema.severities(v, codes)):
        severity.update(pair)
    ignore = frozenset[str]().union(
        *each(
            "ignore", lambda v: list(schema.strings(v)), lambda v: schema.code_set([str(v)], codes)
        )
    )
    era = read("era", lambda v: None if optional(v) is None else schema.era(v), None)
    docs = read("docsUrl", lambda v: None if optional(v) is None else schema.docs_url(v), None)
    scope = read("scope", lambda v: schema.choice(v, SCOPES), defaults.scope)
    hints = read("inlayHints", lambda v: schema.choice(v, INLAY_HINTS), defaults.inlay_hints)
    settings = Settings(
        enable=read("enable", schema.flag, defaults.enable),
        severity=severity,
        ignore=ignore,
        scope="workspace" if scope == "workspace" else "openFiles",
        unsafe_fixes=read("unsafeFixes", schema.flag, defaults.unsafe_fixes),
        era=era,
        log_level=read("logLevel", lambda v: schema.choice(v, LOG_LEVELS), defaults.log_level),
        docs_url=docs,
        inlay_hints="on" if hints == "on" else "off" if hints == "off" else "dispatch",
    )
    return settings, problems
