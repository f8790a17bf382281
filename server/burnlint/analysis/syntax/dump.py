"""A readable text form of the lowered IR, for tests and debugging: one node per line,
children indented, spans left out (they are byte offsets, and say nothing about the shape),
and so are fields that are unset: None, empty, or a flag that is off.

    Let
      pattern: PBind x#3
      value: MethodCall .autodiff
        receiver: Path Device::default
"""

from __future__ import annotations

import dataclasses
from typing import cast

from burnlint.analysis.syntax import ir

_SKIPPED = frozenset({"span", "name_span", "scope", "whole"})
"""Fields that locate a node rather than describe it."""


def dump(node: object) -> str:
    """`node` (an IR node, or a tuple of them) as indented text."""
    lines: list[str] = []
    _dump(node, "", 0, lines)
    return "\n".join(lines) + "\n"


def _dump(node: object, label: str, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    head = f"{pad}{label}: " if label else pad
    if isinstance(node, tuple):
        items = cast(tuple[object, ...], node)
        if items:
            lines.append(f"{head}[{len(items)}]".rstrip())
        for item in items:
            _dump(item, "-", depth + 1, lines)
        return
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        lines.append(f"{head}{node!r}")
        return
    simple: list[str] = []
    nested: list[tuple[str, object]] = []
    for field in dataclasses.fields(node):
        if field.name in _SKIPPED:
            continue
        value: object = getattr(node, field.name)
        if value is None or value is False or value in ((), ""):
            continue
        if dataclasses.is_dataclass(value) or _has_nodes(value):
            nested.append((field.name, value))
        else:
            simple.append(f"{field.name}={_scalar(value)}")
    lines.append(f"{head}{type(node).__name__} {' '.join(simple)}".rstrip())
    for name, value in nested:
        _dump(value, name, depth + 1, lines)


def _has_nodes(value: object) -> bool:
    """Whether a tuple holds IR nodes (at any depth), rather than names or numbers."""
    if not isinstance(value, tuple):
        return False
    return any(
        dataclasses.is_dataclass(v) or _has_nodes(v) for v in cast(tuple[object, ...], value)
    )


def _scalar(value: object) -> str:
    if isinstance(value, tuple):
        parts = cast(tuple[object, ...], value)
        if all(isinstance(v, str) for v in parts):
            return "::".join(str(v) for v in parts)
        return str(parts)
    if isinstance(value, ir.Span):
        return f"{value.start}..{value.end}"
    return repr(value) if isinstance(value, str) else str(value)
