"""Filling the knowledge base's text templates (`{tensor}`, `{new}`) with names from the code."""

from __future__ import annotations

from collections.abc import Mapping


class _Fill(dict[str, str]):
    keep: bool = False

    def __missing__(self, key: str) -> str:
        return "{" + key + "}" if self.keep else ""


def fill(template: str, names: Mapping[str, str], keep_unknown: bool = False) -> str:
    """`template` with each `{name}` replaced; a name not given becomes empty (a message
    leaves out what it cannot name), or stays as written with `keep_unknown` (a fix title
    filled in two steps)."""
    values = _Fill(names)
    values.keep = keep_unknown
    return template.format_map(values)
