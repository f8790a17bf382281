"""Lower the macro invocations the analysis understands; any other macro is opaque.

A macro's arguments are an unparsed token tree, so each comma-separated piece is re-parsed on
its own inside a small wrapper function and lowered from that fragment, with offsets mapped
back into the file.
"""

from __future__ import annotations

from tree_sitter import Node

from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.lower_control import lower_condition
from burnlint.analysis.syntax.tree import Frag, Gen, find_at, parse_fragment

DIVERGING_MACROS = frozenset({"panic", "unreachable", "todo", "unimplemented"})
ASSERT_MACROS = frozenset({"assert", "debug_assert"})
TRANSPARENT_MACROS = frozenset({"dbg"})
EXPRESSION_LIKE = frozenset(
    {
        "identifier",
        "self",
        "scoped_identifier",
        "field_expression",
        "call_expression",
        "macro_invocation",
        "unary_expression",
        "binary_expression",
        "reference_expression",
        "parenthesized_expression",
        "struct_expression",
        "tuple_expression",
        "array_expression",
        "index_expression",
        "if_expression",
        "match_expression",
        "block",
        "closure_expression",
        "type_cast_expression",
        "try_expression",
        "generic_function",
        "await_expression",
        "range_expression",
        "unit_expression",
        "boolean_literal",
        "integer_literal",
        "float_literal",
        "string_literal",
        "char_literal",
        "raw_string_literal",
    }
)


def lower_macro(node: Node, frag: Frag) -> Gen:
    """Lower `panic!`-likes, `matches!`, `assert!`, `vec!` and `dbg!`; others are opaque."""
    span = frag.span(node)
    name_node = node.child_by_field_name("macro")
    name = frag.text(name_node).split("::")[-1] if name_node is not None else ""
    if name in DIVERGING_MACROS:
        return ir.Diverge(span)
    tree = next((c for c in node.children if c.type == "token_tree"), None)
    if tree is None:
        return ir.Opaque((), span)
    pieces = split_token_tree(tree)
    if name == "matches" and len(pieces) >= 2:
        expr = yield from _fragment_expr(pieces[0], frag)
        pattern, guard = yield from _fragment_pattern(pieces[1], frag)
        true = ir.Lit("bool", "true", span)
        false = ir.Lit("bool", "false", span)
        arms = (ir.Arm(pattern, guard, true, span), ir.Arm(ir.PWild(span), None, false, span))
        return ir.Match(expr, arms, span)
    if name in ASSERT_MACROS and pieces:
        cond = yield from _fragment_expr(pieces[0], frag)
        return ir.Assert(cond, span)
    if name == "vec":
        items: list[ir.Expr] = []
        for piece in pieces:
            items.append((yield from _fragment_expr(piece, frag)))
        return ir.Array(tuple(items), span)
    if name in TRANSPARENT_MACROS and len(pieces) == 1:
        return (yield from _fragment_expr(pieces[0], frag))
    return ir.Opaque((), span)


def _fragment_expr(piece: tuple[int, int], frag: Frag) -> Gen:
    start, end = piece
    text = frag.data[start:end]
    tree, offset, data = parse_fragment(text, b"fn __burnlint() { (", b"); }")
    found = find_at(tree.root_node, offset, EXPRESSION_LIKE)
    inner = frag.derive(data, frag.delta + start - offset)
    if found is None or found.end_byte != offset + len(text):
        return ir.Opaque((), frag.span_of(start, end))
    return (yield ("expr", found, inner))


def _fragment_pattern(piece: tuple[int, int], frag: Frag) -> Gen:
    start, end = piece
    text = frag.data[start:end]
    tree, offset, data = parse_fragment(text, b"fn __burnlint() { match () { ", b" => {} } }")
    arm = find_at(tree.root_node, offset, frozenset({"match_pattern"}))
    inner = frag.derive(data, frag.delta + start - offset)
    if arm is None or not arm.named_children:
        return ir.PWild(frag.span_of(start, end)), None
    pattern = yield ("pat", arm.named_children[0], inner)
    condition = arm.child_by_field_name("condition")
    guard = (yield from lower_condition(condition, inner)) if condition is not None else None
    return pattern, guard


def split_token_tree(tree: Node) -> list[tuple[int, int]]:
    """Byte ranges of the top-level comma-separated pieces inside a macro's token tree."""
    pieces: list[tuple[int, int]] = []
    inner = tree.children[1:-1]
    start: int | None = None
    end = 0
    for child in inner:
        if child.type == ",":
            if start is not None:
                pieces.append((start, end))
            start = None
            continue
        if start is None:
            start = child.start_byte
        end = child.end_byte
    if start is not None:
        pieces.append((start, end))
    return pieces
