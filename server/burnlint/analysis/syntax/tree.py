"""Reading tree-sitter nodes for lowering: spans and text, re-parsed fragments, written paths.

Also the protocol of the lowering generators: each yields `Request`s for the child nodes it
needs lowered and receives the lowered node back from the driver in `lower`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from tree_sitter import Node, Tree

from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.source import parse_bytes
from burnlint.records import record


@record
class Frag:
    """Where a node's bytes came from: `delta` maps its offsets back into the file."""

    data: bytes
    delta: int
    file: int = 0
    anchor: ir.Anchor = ir.FIXED
    """The item being lowered: spans are made relative to it."""

    def span(self, node: Node) -> ir.Span:
        """The node's byte range in the file."""
        shift = self.delta - self.anchor.base
        return ir.Span(node.start_byte + shift, node.end_byte + shift, self.file, self.anchor)

    def span_of(self, start: int, end: int) -> ir.Span:
        """The byte range `start`..`end` of `data`, in the file."""
        shift = self.delta - self.anchor.base
        return ir.Span(start + shift, end + shift, self.file, self.anchor)

    def text(self, node: Node) -> str:
        """The node's source text."""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def derive(self, data: bytes, delta: int) -> Frag:
        """A fragment re-parsed from part of this one (offsets still map into the file)."""
        return Frag(data, delta, self.file, self.anchor)


NO_SPAN = ir.Span(0, 0)


@record
class ExpandedFrag(Frag):
    """Text a macro invocation expanded to: it is not in the file, so every node of it spans
    the whole invocation (`pinned`); `depth` counts nested expansions."""

    pinned: ir.Span = NO_SPAN
    depth: int = 1

    def span(self, node: Node) -> ir.Span:
        """The invocation's range, whatever part of the expansion `node` is."""
        return self.pinned

    def span_of(self, start: int, end: int) -> ir.Span:
        """The invocation's range, whatever part of the expansion the bytes are."""
        return self.pinned

    def derive(self, data: bytes, delta: int) -> Frag:
        """Fragments re-parsed inside an expansion stay pinned to the invocation."""
        return ExpandedFrag(data, delta, self.file, self.anchor, self.pinned, self.depth)


Request = tuple[str, Node, Frag]
"""("expr" | "compound" | "pat" | "block", node, fragment): lower this node and send the result
back ("compound": an expression known not to be a name, path or literal)."""

Gen = Generator[Request, Any, Any]
"""A lowering in progress, driven by `trampoline.run` (see `BodyLowerer._start`)."""


def parse_fragment(text: bytes, prefix: bytes, suffix: bytes) -> tuple[Tree, int, bytes]:
    """Parse `prefix + text + suffix`; return the tree, where `text` starts, and the bytes."""
    data = prefix + text + suffix
    return parse_bytes(data), len(prefix), data


def find_at(node: Node, start: int, types: frozenset[str]) -> Node | None:
    """The outermost descendant of one of `types` starting at byte `start`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.start_byte == start and current.type in types:
            return current
        stack.extend(
            child
            for child in reversed(current.children)
            if child.start_byte <= start < child.end_byte
        )
    return None


def path_segments(node: Node, frag: Frag) -> tuple[str, ...]:
    """Segments of a (possibly generic or qualified) path, generic arguments dropped."""
    return qualified_path(node, frag, frag.span(node)).segments


def qualified_path(node: Node, frag: Frag, span: ir.Span) -> ir.Path:
    """The path written at `node`; `<T as Trait>::f` keeps `Trait` as the trait name."""
    segments: list[str] = []
    trait_name: str | None = None
    non_float = False
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind in (
            "identifier",
            "type_identifier",
            "field_identifier",
            "self",
            "super",
            "crate",
            "metavariable",
        ):
            segments.append(frag.text(current))
        elif kind == "bracketed_type":
            qualified = next(
                (c for c in current.named_children if c.type == "qualified_type"), None
            )
            if qualified is not None:
                type_node = qualified.child_by_field_name("type")
                alias = qualified.child_by_field_name("alias")
                if type_node is not None:
                    segments.extend(qualified_path(type_node, frag, span).segments)
                if alias is not None:
                    trait_name = qualified_path(alias, frag, span).segments[-1]
            else:
                for child in current.named_children:
                    segments.extend(qualified_path(child, frag, span).segments)
        elif kind in ("generic_type_with_turbofish", "generic_type"):
            type_node = current.child_by_field_name("type")
            if type_node is not None:
                stack.append(type_node)
                arguments = current.child_by_field_name("type_arguments")
                if (
                    frag.text(type_node).rsplit("::", 1)[-1] == "Tensor"
                    and arguments is not None
                    and arguments.named_children
                    and frag.text(arguments.named_children[-1]).rsplit("::", 1)[-1]
                    in ("Int", "Bool")
                ):
                    non_float = True
        elif kind != "type_arguments":
            stack.extend(reversed(current.named_children))
    return ir.Path(tuple(segments) or ("?",), span, trait_name, non_float)
