"""Lower tree-sitter patterns into `ir` patterns, binding the names they introduce."""

from __future__ import annotations

from tree_sitter import Node

from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.scopes import Scopes
from burnlint.analysis.syntax.tree import Frag, Gen, path_segments

_TRANSPARENT = frozenset(
    {"mut_pattern", "ref_pattern", "reference_pattern", "parenthesized_pattern"}
)


def lower_pattern(node: Node, frag: Frag, scopes: Scopes, type_text: str = "") -> Gen:
    """Lower a pattern; `type_text` is the declared type a plain binding gets."""
    # `&&mut (x)` and friends: unwrap iteratively, the binding is what matters.
    while node.type in _TRANSPARENT:
        if not node.named_children:
            return ir.PWild(frag.span(node))
        node = node.named_children[-1]
    span = frag.span(node)
    kind = node.type
    if kind == "identifier":
        name = frag.text(node)
        if name[:1].isupper():
            return ir.PPath((name,), span)
        return ir.PBind(scopes.bind(name, type_text), name, None, span)
    if kind == "self":
        return ir.PBind(scopes.bind("self", type_text), "self", None, span)
    if kind == "tuple_pattern":
        items: list[ir.Pat] = []
        for child in node.named_children:
            items.append((yield ("pat", child, frag)))
        return ir.PTuple(tuple(items), span)
    if kind == "tuple_struct_pattern":
        type_node = node.child_by_field_name("type")
        path = path_segments(type_node, frag) if type_node is not None else ("?",)
        fields: list[tuple[str, ir.Pat]] = []
        index = 0
        for child in node.named_children:
            if type_node is not None and child.id == type_node.id:
                continue
            fields.append((str(index), (yield ("pat", child, frag))))
            index += 1
        return ir.PStruct(path, tuple(fields), span)
    if kind == "struct_pattern":
        type_node = node.child_by_field_name("type")
        path = path_segments(type_node, frag) if type_node is not None else ("?",)
        fields = []
        for child in node.named_children:
            if child.type != "field_pattern":
                continue
            name_node = child.child_by_field_name("name")
            sub = child.child_by_field_name("pattern")
            if name_node is None:
                continue
            field_name = frag.text(name_node)
            if sub is None:
                bound = ir.PBind(scopes.bind(field_name), field_name, None, frag.span(name_node))
                fields.append((field_name, bound))
            else:
                fields.append((field_name, (yield ("pat", sub, frag))))
        return ir.PStruct(path, tuple(fields), span)
    if kind in ("scoped_identifier", "generic_type", "scoped_type_identifier"):
        return ir.PPath(path_segments(node, frag), span)
    if kind == "or_pattern":
        alts: list[ir.Pat] = []
        for child in node.named_children:
            alts.append((yield ("pat", child, frag)))
        return ir.POr(tuple(alts), span)
    if kind == "captured_pattern":
        named = node.named_children
        binding_node = named[0] if named else None
        sub = (yield ("pat", named[-1], frag)) if len(named) > 1 else None
        if binding_node is None:
            return ir.PWild(span)
        name = frag.text(binding_node)
        return ir.PBind(scopes.bind(name, type_text), name, sub, span)
    return _other_pattern(node, frag, scopes, span)


def _other_pattern(node: Node, frag: Frag, scopes: Scopes, span: ir.Span) -> ir.Pat:
    """Slices, ranges, literals, macros: bind whatever identifiers they introduce to unknowns."""
    binds: list[tuple[str, ir.Pat]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier" and not frag.text(current)[:1].isupper():
            name = frag.text(current)
            binds.append(("?", ir.PBind(scopes.bind(name), name, None, frag.span(current))))
        stack.extend(current.named_children)
    if binds:
        return ir.PStruct(("?",), tuple(binds), span)
    if node.type in ("_", "remaining_field_pattern") or frag.text(node) in ("_", ".."):
        return ir.PWild(span)
    # Literals and ranges may or may not match: a path nothing resolves.
    return ir.PPath(("<literal>",), span)
