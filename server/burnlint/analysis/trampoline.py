"""Drive a computation written as generators without recursing in Python: each generator
yields a request for a sub-computation and is sent its result, so code nested as deeply as a
program's expressions costs list entries, not interpreter frames. The lowerer (syntax) and
the interpreter (interp) both run this way; it imports nothing, so every stage may use it."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

Request = TypeVar("Request")


def run(
    first: Generator[Request, Any, Any], start: Callable[[Request], Generator[Request, Any, Any]]
) -> Any:
    """What `first` returns. Each request a running generator yields is handed to `start`,
    which returns the generator that computes it (and may raise to stop everything, e.g. when
    a time budget ran out); what that one returns is sent back to the one that asked."""
    stack: list[Generator[Request, Any, Any]] = [first]
    value: Any = None
    while stack:
        try:
            request = stack[-1].send(value)
        except StopIteration as stop:
            stack.pop()
            value = stop.value
            continue
        value = None
        stack.append(start(request))
    return value
