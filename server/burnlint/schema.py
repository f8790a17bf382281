"""The values burnlint's settings accept, checked once for every place they are set:
`burnlint.toml` and Cargo metadata (kebab-case keys, `config`), the editor's `burnlint`
section (camelCase keys, `lsp.settings`) and command-line flags.

Each check returns the typed value or raises `Invalid` with one message, worded the same
wherever the setting came from; the caller adds where it was (a file and line, a settings key).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import cast

from burnlint.eras import ERAS
from burnlint.kb.model import SEVERITIES

LOG_LEVELS = ("error", "warning", "info", "debug")
PLACEHOLDERS = ("code", "slug")
"""What a documentation link template may contain: `{code}` and `{slug}`."""
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(B|KB|KiB|MB|MiB|GB|GiB)?\s*$", re.IGNORECASE)
_UNITS = {
    "b": 1,
    "kb": 1000,
    "kib": 1024,
    "mb": 1000**2,
    "mib": 1024**2,
    "gb": 1000**3,
    "gib": 1024**3,
}


class Invalid(ValueError):
    """A value a setting does not accept. `detail` says why; `item` is the array item or table
    key at fault (to point at its line); `subkey` refines the key (`severity.BD001`)."""

    def __init__(self, detail: str, item: str | None = None, subkey: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.item = item
        self.subkey = subkey


def describe(value: object) -> str:
    """A value's type (and the value, when short) for a message: `a string ('x')`."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, str):
        return f"a string ({value!r})" if len(value) <= 40 else "a string"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a float ({value})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "a table"
    return f"a {type(value).__name__}"


def choices(options: Iterable[str]) -> str:
    """`"a", "b", "c"`: the valid values, for a message."""
    return ", ".join(f'"{option}"' for option in options)


def known_codes(known: Iterable[str]) -> str:
    return ", ".join(sorted(known))


def flag(value: object) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise Invalid(f"expected true or false, got {describe(value)}")
    return value


def choice(value: object, options: tuple[str, ...]) -> str:
    """One of `options`."""
    if not isinstance(value, str) or value not in options:
        raise Invalid(f"expected one of {choices(options)}, got {describe(value)}")
    return value


def era(value: object) -> str:
    """A burn API era (`auto` is for the caller to handle: it means "detect")."""
    return choice(value, ERAS)


def strings(value: object) -> tuple[str, ...]:
    """An array of strings."""
    if not isinstance(value, list):
        raise Invalid(f"expected an array of strings, got {describe(value)}")
    items = cast(list[object], value)
    for item in items:
        if not isinstance(item, str):
            raise Invalid(f"expected an array of strings, got an item {describe(item)}")
    return tuple(cast(list[str], items))


def codes(value: object, known: frozenset[str]) -> frozenset[str]:
    """An array of rule codes (any case, surrounding spaces ignored)."""
    return code_set(strings(value), known)


def code_set(items: Iterable[str], known: frozenset[str]) -> frozenset[str]:
    """Rule codes already split into strings (a command-line flag's, or an array's)."""
    out: set[str] = set()
    for item in items:
        code = item.strip().upper()
        if code not in known:
            raise Invalid(f"unknown code {item!r}; known codes: {known_codes(known)}", item)
        out.add(code)
    return frozenset(out)


def severities(value: object, known: frozenset[str]) -> dict[str, str]:
    """A table of code = severity."""
    if not isinstance(value, Mapping):
        raise Invalid(f"expected a table of code = severity, got {describe(value)}")
    out: dict[str, str] = {}
    for raw_code, level in cast(Mapping[object, object], value).items():
        code = str(raw_code).strip().upper()
        if code not in known:
            detail = f"unknown code {str(raw_code)!r}; known codes: {known_codes(known)}"
            raise Invalid(detail, str(raw_code))
        if not isinstance(level, str) or level not in SEVERITIES:
            detail = f"expected one of {choices(SEVERITIES)}, got {describe(level)}"
            raise Invalid(detail, str(raw_code), f"severity.{raw_code}")
        out[code] = level
    return out


def docs_url(value: object) -> str:
    """A link template; `{code}` and `{slug}` are replaced, no other placeholder is allowed."""
    if not isinstance(value, str):
        raise Invalid(f"expected a string, got {describe(value)}")
    unknown = [p for p in _PLACEHOLDER.findall(value) if p not in PLACEHOLDERS]
    if unknown:
        raise Invalid(
            f"unknown placeholder {{{unknown[0]}}}: only {{code}} and {{slug}} are replaced"
        )
    return value


def seconds(value: object) -> float:
    """A positive, finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Invalid(f"expected a number of seconds, got {describe(value)}")
    if not math.isfinite(value) or value <= 0:
        raise Invalid(f"expected a positive number of seconds, got {value}")
    return float(value)


def count(value: object) -> int:
    """A positive whole number."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise Invalid(f"expected a positive whole number, got {describe(value)}")
    return value


def size(value: object) -> int:
    """A positive size in bytes: a whole number, or a string such as "8MiB"."""
    found = parse_size(value)
    if found is None:
        raise Invalid(f'expected a positive size like 8388608 or "8MiB", got {describe(value)}')
    return found


def parse_size(value: object) -> int | None:
    """A size in bytes from a whole number or a string like "8MiB" / "512 KB"; None when it is
    neither or not positive."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if match is None:
        return None
    found = int(float(match.group(1)) * _UNITS[(match.group(2) or "b").lower()])
    return found if found > 0 else None
