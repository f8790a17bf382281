"""The server's settings: one typed, fully defaulted record read from the client's `burnlint`
configuration section (or `initializationOptions`), with every invalid value reported."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from burnlint.eras import ERAS

Scope = Literal["openFiles", "workspace"]
SEVERITIES = ("error", "warning", "info", "hint")
LOG_LEVELS = ("error", "warning", "info", "debug")
SECTION = "burnlint"


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
    described in the returned problems (one line each)."""
    table = section_of(raw)
    if table is None:
        problems = [] if raw is None else [f"settings must be an object, got {_kind(raw)}"]
        return Settings(), problems
    problems: list[str] = []
    defaults = Settings()

    def flag(key: str, default: bool) -> bool:
        value = table.get(key, default)
        if isinstance(value, bool):
            return value
        problems.append(f"`{key}` must be true or false, got {_kind(value)}")
        return default

    def choice(key: str, options: tuple[str, ...], default: str) -> str:
        value = table.get(key, default)
        if isinstance(value, str) and value in options:
            return value
        problems.append(f"`{key}` must be one of {', '.join(options)}, got {_kind(value)}")
        return default

    def code_list(key: str) -> frozenset[str]:
        value = table.get(key, [])
        if not isinstance(value, list):
            problems.append(f"`{key}` must be a list of codes, got {_kind(value)}")
            return frozenset()
        out: set[str] = set()
        for item in cast(list[object], value):
            if isinstance(item, str) and item.strip().upper() in codes:
                out.add(item.strip().upper())
            else:
                problems.append(f"`{key}`: unknown code {_kind(item)}")
        return frozenset(out)

    severity: dict[str, str] = {}
    raw_severity = table.get("severity", {})
    if isinstance(raw_severity, Mapping):
        for key, value in cast(Mapping[object, object], raw_severity).items():
            code = str(key).strip().upper()
            if code not in codes:
                problems.append(f"`severity`: unknown code {_kind(key)}")
            elif not isinstance(value, str) or value not in SEVERITIES:
                problems.append(
                    f"`severity.{code}` must be one of {', '.join(SEVERITIES)}, got {_kind(value)}"
                )
            else:
                severity[code] = value
    else:
        problems.append(f"`severity` must be an object, got {_kind(raw_severity)}")

    era_value = table.get("era")
    era: str | None = None
    if era_value not in (None, "", "auto"):
        if isinstance(era_value, str) and era_value in ERAS:
            era = era_value
        else:
            problems.append(f"`era` must be auto, {', '.join(ERAS)}, got {_kind(era_value)}")

    docs_value = table.get("docsUrl")
    docs_url: str | None = None
    if docs_value not in (None, ""):
        if isinstance(docs_value, str) and ("{code}" in docs_value or "{slug}" in docs_value):
            docs_url = docs_value
        else:
            problems.append(
                f"`docsUrl` must be a string with `{{code}}` in it, got {_kind(docs_value)}"
            )

    scope = choice("scope", ("openFiles", "workspace"), defaults.scope)
    settings = Settings(
        enable=flag("enable", defaults.enable),
        severity=severity,
        ignore=code_list("ignore"),
        scope="workspace" if scope == "workspace" else "openFiles",
        unsafe_fixes=flag("unsafeFixes", defaults.unsafe_fixes),
        era=era,
        log_level=choice("logLevel", LOG_LEVELS, defaults.log_level),
        docs_url=docs_url,
    )
    return settings, problems


def _kind(value: object) -> str:
    """A short description of a JSON value for a message."""
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else str(value)
    return type(value).__name__
