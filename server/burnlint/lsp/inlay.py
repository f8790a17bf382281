"""Tensor states in the editor: inlay hints after bound names, and the state part of a hover
(per path, with where it became that way as file:line links)."""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from lsprotocol import types

from burnlint.lsp.documents import OpenDocument
from burnlint.lsp.hover import HoverText
from burnlint.lsp.markdown import inline_code
from burnlint.lsp.positions import Encoding, LineIndex
from burnlint.lsp.settings import InlayHints
from burnlint.lsp.wire import RawJSON

if TYPE_CHECKING:
    from burnlint.analysis.states import BindingState
from burnlint.lsp.states import Read

KINDS = {
    "let": "bound here",
    "pattern": "bound by a pattern",
    "for": "each element",
    "closure": "closure parameter",
    "param": "as callers pass it",
    "field": "read here",
    "call": "as it returns here",
    "arg": "as passed here",
}


Pieces = tuple["BindingState", int, int, str, str]
"""A lazy hint's state, line and character, and its JSON before and after the version."""


@dataclass(frozen=True, slots=True)
class HintList:
    """The inlay hints of one read of a document's states, as JSON text in file order (the
    same JSON lsprotocol's converter writes): a request takes those in its range."""

    read: Read
    key: tuple[InlayHints, Encoding, bool]
    """The setting, the position encoding and whether tooltips were left out (lazy)."""
    starts: list[int]
    """The first byte of each hint's name, ascending."""
    texts: list[str]
    index: LineIndex
    """The line index the positions were placed with."""
    pieces: dict[int, Pieces] = field(default_factory=dict[int, Pieces])
    """Lazy hints' JSON around the document version, by the id of their state: (state, line,
    character, before, after). A state kept from the last read, still at the same place,
    takes its JSON from here."""

    def between(self, start: int, end: int) -> RawJSON:
        """The hints of the names whose first byte is in `start`..`end`."""
        low = bisect.bisect_left(self.starts, start)
        high = bisect.bisect_right(self.starts, end)
        return RawJSON("[" + ", ".join(self.texts[low:high]) + "]")


def hint_list(
    doc: OpenDocument,
    read: Read,
    mode: InlayHints,
    encoding: Encoding,
    lazy: bool,
    previous: HintList | None = None,
) -> HintList:
    """One hint after each name of `read` whose state is known (with `dispatch`, only in
    functions that name dispatch types or burn's dispatch vocabulary), as a type hint's label;
    with `lazy`, their tooltips are left for `inlayHint/resolve` (`data` says which name).
    Each hint's JSON is written here, not by the converter: a document's thousand hints
    through it cost more than the request may take. With the `previous` list of the same
    document and settings, the hints of states kept since (see `file_states`) reuse their
    JSON."""
    index = doc.index
    starts: list[int] = []
    texts: list[str] = []
    uri = json.dumps(doc.uri)
    key = (mode, encoding, lazy)
    old = previous.pieces if previous is not None and previous.key == key and lazy else {}
    # Lines where they were: a kept state is where it was, no need to place it again.
    placed = previous is not None and bool(old) and index.same_places(previous.index)
    pieces: dict[int, Pieces] = {}
    version = str(doc.version)
    for state in read.states:
        if mode != "on" and not state.dispatch:
            continue
        starts.append(state.start)
        if not lazy:
            value = json.dumps(state_markdown(state, read.uris))
            tip = f'{{"kind": "markdown", "value": {value}}}'
            head = _hint_head(index.position(state.end, encoding), state.label)
            texts.append(f'{head}, "tooltip": {tip}, "paddingLeft": true}}')
            continue
        found = old.get(id(state))
        if found is not None and found[0] is not state:
            found = None
        if found is None or not placed:
            where = index.position(state.end, encoding)
            if found is None or found[1:3] != where:
                found = (
                    state,
                    *where,
                    f'{_hint_head(where, state.label)}, "paddingLeft": true, '
                    f'"data": {{"uri": {uri}, "version": ',
                    f', "start": {state.start}}}}}',
                )
        pieces[id(state)] = found
        texts.append(found[3] + version + found[4])
    return HintList(read, key, starts, texts, index, pieces)


def _hint_head(where: tuple[int, int], label: str) -> str:
    """A hint's JSON up to its kind: its position and label."""
    line, character = where
    return (
        f'{{"position": {{"line": {line}, "character": {character}}}, '
        f'"label": {json.dumps(label)}, "kind": 1'
    )


def tooltip(state: BindingState, uris: dict[str, str]) -> types.MarkupContent:
    """A hint's tooltip: the state per path and where it became that way."""
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=state_markdown(state, uris))


def resolve_target(hint: types.InlayHint) -> tuple[str, int, int] | None:
    """(uri, version, first byte of the name) of a hint sent without its tooltip."""
    data = hint.data
    if not isinstance(data, dict):
        return None
    fields = cast(dict[str, object], data)
    uri, version, start = fields.get("uri"), fields.get("version"), fields.get("start")
    if isinstance(uri, str) and isinstance(version, int) and isinstance(start, int):
        return uri, version, start
    return None


def state_markdown(state: BindingState, uris: dict[str, str], name: str | None = None) -> str:
    """What burnlint knows about a name ("" for a call whose value a `let` binds; None in a
    hint's tooltip): its label, each path's state, and the origins as file:line links."""
    some = " (known on some paths only)" if state.some_paths else ""
    subject = "" if name is None else f"{inline_code(name)}: " if name else "this call's value: "
    lines = [f"**burnlint** · {subject}`{state.label}`{some}, {KINDS.get(state.kind, '')}", ""]
    if len(state.paths) == 1 and not state.some_paths:
        lines.append(state.paths[0])
    else:
        lines.extend(f"- on one path: {path}" for path in state.paths)
        if state.some_paths:
            lines.append("- on the other paths: not known")
    if state.origins:
        lines += ["", "Where it became that way:"]
        for origin in state.origins:
            where = origin.range
            shown = f"{where.path.rsplit('/', 1)[-1]}:{where.start.line + 1}"
            uri = uris.get(where.path)
            link = f"[{shown}]({uri}#L{where.start.line + 1})" if uri else f"`{shown}`"
            lines.append(f"- {origin.message}: {link}")
    return "\n".join(lines)


def with_state(read: Read | None, found: HoverText | None) -> HoverText | None:
    """The hover with the hovered name's state above what else shows there (a finding, the
    knowledge base's text on an API name)."""
    hovered = read.hovered if read is not None else None
    if read is None or hovered is None:
        return found
    text = state_markdown(hovered.state, read.uris, hovered.name)
    if found is None:
        return HoverText(text, hovered.start, hovered.end)
    return HoverText(f"{text}\n\n---\n\n{found.markdown}", found.start, found.end)
