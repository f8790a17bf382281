"""Three-valued evaluation of `#[cfg(...)]` predicates against what is known of a build."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r'\s*(?:(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<str>"(?:[^"\\]|\\.)*")|(?P<p>[(),=]))'
)


@dataclass(frozen=True, slots=True)
class BuildConfig:
    """What is known about the build: features certainly on, features that exist at all.

    `declared` is None when the crate's features are unknown (no Cargo.toml found); then any
    feature is possible. `assume_on` lists features treated as enabled when undecided.
    """

    enabled: frozenset[str] = frozenset()
    declared: frozenset[str] | None = None
    assume_on: frozenset[str] = frozenset({"autodiff"})
    disabled: frozenset[str] = frozenset()

    def feature(self, name: str) -> bool | None:
        """True/False when decided, None when the feature may or may not be on."""
        if name in self.disabled:
            return False
        if name in self.enabled:
            return True
        if self.declared is not None and name not in self.declared:
            return False
        if name in self.assume_on:
            return True
        return None


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            break
        out.append(match.group(match.lastgroup or "p"))
        pos = match.end()
    return out


def evaluate_cfg(predicate: str, config: BuildConfig) -> bool | None:
    """Evaluate the text inside `cfg(...)`; None means "undecided"."""
    tokens = _tokens(predicate)
    value, _ = _parse(tokens, 0, config)
    return value


def _parse(tokens: list[str], i: int, config: BuildConfig) -> tuple[bool | None, int]:
    # An explicit stack would be overkill: cfg predicates are a few levels deep at most, and
    # pathological nesting is cut off below.
    if i >= len(tokens) or i > 200:
        return None, len(tokens)
    head = tokens[i]
    if head in ("any", "all", "not") and i + 1 < len(tokens) and tokens[i + 1] == "(":
        i += 2
        values: list[bool | None] = []
        while i < len(tokens) and tokens[i] != ")":
            value, i = _parse(tokens, i, config)
            values.append(value)
            if i < len(tokens) and tokens[i] == ",":
                i += 1
        i += 1
        if head == "not":
            inner = values[0] if values else None
            return (None if inner is None else not inner), i
        if head == "any":
            if any(v is True for v in values):
                return True, i
            return (False if all(v is False for v in values) else None), i
        if any(v is False for v in values):
            return False, i
        return (True if all(v is True for v in values) else None), i
    if i + 2 < len(tokens) and tokens[i + 1] == "=":
        key, raw = head, tokens[i + 2]
        name = raw[1:-1] if raw.startswith('"') else raw
        if key == "feature":
            return config.feature(name), i + 3
        return None, i + 3
    return None, i + 1
