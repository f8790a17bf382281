"""Drive a computation written as generators without recursing in Python: each generator
yields a request for a sub-computation and is sent its result, so code nested as deeply as a
program's expressions costs list entries, not interpreter frames. The lowerer (syntax) and
the interpreter (interp) both run this way; it imports nothing, so every stage may use it."""

from __future__ import annotations

from collections.abc import Callable, Generator
from types import GeneratorType
from typing import Any, TypeVar

Request = TypeVar("Request")


def run(
    first: Generator[Request, Any, Any],
    start: Callable[[Request], Generator[Request, Any, Any] | object],
) -> Any:
    """What `first` returns. Each request a running generator yields is handed to `start`,
    which returns the generator that computes it, or the answer itself when it needs nothing
    more (a variable, a literal: most requests, and a generator costs a microsecond), and may
    raise to stop everything (e.g. when a time budget ran out); what the generator returns,
    or the answer, is sent back to the one that asked."""
    stack: list[Generator[Request, Any, Any]] = [first]
    value: Any = None
    while stack:
        try:
            request = stack[-1].send(value)
        except StopIteration as stop:
            stack.pop()
            value = stop.value
            continue
        started = start(request)
        if type(started) is GeneratorType:
            value = None
            stack.append(started)  # pyright: ignore[reportUnknownArgumentType]
        else:
            value = started
    return value
