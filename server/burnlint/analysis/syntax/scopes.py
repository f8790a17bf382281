"""Lexical scopes while one function is lowered: which binding each local name refers to."""

from __future__ import annotations

from collections.abc import Callable

from burnlint.analysis.syntax import ir


class Scopes:
    """A stack of scopes mapping names to (binding id, declared type text)."""

    def __init__(self, wants_scope: Callable[[str], bool]) -> None:
        self._wants_scope = wants_scope
        self._stack: list[dict[str, tuple[int, str]]] = [{}]
        self.names: dict[int, str] = {}
        """The name of every binding made so far, by binding id."""

    def push(self) -> None:
        """Enter a block, arm, loop or closure."""
        self._stack.append({})

    def pop(self) -> None:
        """Leave the innermost scope; its names are no longer visible."""
        self._stack.pop()

    def bind(self, name: str, type_text: str = "") -> int:
        """A new binding for `name` in the innermost scope; shadows any older one."""
        binding = len(self.names)
        self.names[binding] = name
        self._stack[-1][name] = (binding, type_text)
        return binding

    def lookup(self, name: str) -> int | None:
        """The binding `name` refers to here, if it is a local."""
        for scope in reversed(self._stack):
            found = scope.get(name)
            if found is not None:
                return found[0]
        return None

    def snapshot_for(self, name: str) -> ir.Scope | None:
        """The visible names, when a use of `name` may be a sink whose fixes need them."""
        if not self._wants_scope(name):
            return None
        merged: dict[str, tuple[int, str]] = {}
        for scope in self._stack:
            merged.update(scope)
        return ir.Scope(merged)
