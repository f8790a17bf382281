"""Diagnostics as JSON text, made once per finding and stamped with each document version;
and results sent as JSON text made beforehand (`RawJSON`).

A keystroke re-sends every diagnostic of the file. Turning a hundred diagnostics (each with its
related locations and fixes) into JSON through lsprotocol's converter costs about as much as
analyzing the edit, and almost all of them are the same as in the previous version: only the
document version in their `data` differs. So each diagnostic's JSON is made once, split around
that version, and a publication is joined from the pieces.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import dataclass
from typing import Any, cast

import attrs
from cattrs import Converter
from lsprotocol import types
from pygls.protocol import default_converter


@functools.cache
def converter() -> Converter:
    """The one converter of the server: pygls' protocol, the diagnostics' JSON and the fixes'
    edits all use it (each made its own; making one registers hundreds of hooks: 20 ms).

    lsprotocol resolves the forward references in the fields of all its ~560 classes when a
    converter is made: 40-60 ms of every start, before `initialize` can be read, for classes
    most sessions never send. Here each class's are resolved the first time the converter
    meets it, just before lsprotocol's own hook factories build its hooks, the same way
    (`attrs.resolve_types` against lsprotocol's type map). If lsprotocol's flag is gone (another
    version), it resolves them all as before and this only costs a check per new type."""
    # Looked up, not imported: a version without that module or flag only loses the saving.
    hooks = sys.modules.get("lsprotocol._hooks")
    flag = "_resolved_forward_references"
    if hooks is not None and getattr(hooks, flag, None) is False:
        setattr(hooks, flag, True)
    made = default_converter()

    def resolve_first(cl: Any) -> bool:
        # A predicate consulted before every other one (the last registered comes first); it
        # never claims the type, so lsprotocol's factories make the hooks as they always did.
        # attrs marks a resolved class and returns at once the next time.
        if isinstance(cl, type) and attrs.has(cl):
            attrs.resolve_types(cl, types.ALL_TYPES_MAP, {})
        return False

    def unreachable(cl: Any) -> Any:  # pragma: no cover - its predicate never holds
        raise AssertionError(cl)

    made.register_structure_hook_factory(resolve_first, unreachable)
    made.register_unstructure_hook_factory(resolve_first, unreachable)
    return made


@dataclass(frozen=True, slots=True)
class WireDiagnostic:
    """One diagnostic's JSON: `head` + the document version + `tail`."""

    head: str
    tail: str

    def stamped(self, version: int | None) -> str:
        """The JSON of the diagnostic for one document version."""
        return f"{self.head}{'null' if version is None else version}{self.tail}"

    @property
    def unstamped(self) -> str:
        """The JSON without a version: equal exactly when two diagnostics are, whatever
        version they are stamped with."""
        return self.head + self.tail


def wire_of(diagnostic: types.Diagnostic, lean_fixes: bool = False) -> WireDiagnostic:
    """`diagnostic`'s JSON as lsprotocol writes it, with `data.version` left open (a diagnostic
    whose `data` is not a mapping gets one holding only the version); with `lean_fixes`,
    without its fixes (see `ConvertOptions.lean_fixes`)."""
    fields = cast(dict[str, Any], converter().unstructure(diagnostic))
    data = fields.pop("data", None)
    rest = dict(cast(dict[str, Any], data)) if isinstance(data, dict) else {}
    rest.pop("version", None)
    if lean_fixes:
        rest.pop("fixes", None)
    head = json.dumps(fields)[:-1] + ', "data": {"version": '
    others = json.dumps(rest)
    tail = (", " + others[1:] if rest else "}") + "}"
    return WireDiagnostic(head, tail)


def json_of(diagnostic: types.Diagnostic) -> str:
    """`diagnostic`'s JSON as it is (for the few diagnostics made per run, such as notes)."""
    return json.dumps(converter().unstructure(diagnostic))


@dataclass(frozen=True, slots=True)
class RawJSON:
    """A request's result given as JSON text: sent as it is, not through the converter
    (`BurnlintProtocol` writes it)."""

    text: str


def publication(uri: str, version: int | None, diagnostics: list[str]) -> str:
    """The JSON text of a `textDocument/publishDiagnostics` notification's params."""
    stamp = "" if version is None else f', "version": {version}'
    return f'{{"uri": {json.dumps(uri)}{stamp}, "diagnostics": [{", ".join(diagnostics)}]}}'
