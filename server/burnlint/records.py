"""Immutable records for the analysis' hot paths: frozen to the type checker, plain slots at
run time.

A frozen dataclass sets every field through `object.__setattr__`, which makes building one
about 3.5 times as slow as a plain slots class (a `Value` with 18 slots: 2.6 against 0.7 us);
the analysis builds hundreds of thousands of them (values, path states, spans, lowered code)
per crate. `record` makes the same class without that check: pyright, strict in CI, reports
any assignment to a field of a record, since `dataclass_transform(frozen_default=True)` tells
it records are frozen. Equality and hashing are the frozen dataclass' (over the compared
fields), or the class' own `__hash__` when it defines one.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TypeVar

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_T], /) -> type[_T]:
    """`@dataclass(frozen=True, slots=True)`, with field stores checked statically only."""
    own_hash = "__hash__" in cls.__dict__
    return dataclass(slots=True, eq=True, unsafe_hash=not own_hash)(cls)
