"""Lower control flow: `if`, `match`, loops, and the `let` conditions that bind in them.

Conditions bind into the scope of the construct they guard, so each construct opens its scope
before lowering its condition and closes it after its body.
"""

from __future__ import annotations

from tree_sitter import Node

from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.scopes import Scopes
from burnlint.analysis.syntax.tree import Frag, Gen

_LOOP_KINDS = {"loop_expression": "loop", "while_expression": "while"}


def lower_condition(node: Node, frag: Frag) -> Gen:
    """Lower an `if`/`while` condition or a match guard; `let` conditions bind as they go."""
    if node.type == "let_condition":
        value_node = node.child_by_field_name("value")
        value = (
            (yield ("expr", value_node, frag))
            if value_node is not None
            else ir.Opaque((), frag.span(node))
        )
        pat_node = node.child_by_field_name("pattern")
        pattern = (
            (yield ("pat", pat_node, frag)) if pat_node is not None else ir.PWild(frag.span(node))
        )
        return ir.LetCond(pattern, value, frag.span(node))
    if node.type == "let_chain":
        result: ir.Expr | None = None
        for child in node.named_children:
            part = yield from lower_condition(child, frag)
            result = part if result is None else ir.Binary("&&", result, part, frag.span(node))
        return result if result is not None else ir.Opaque((), frag.span(node))
    return (yield ("expr", node, frag))


def lower_if(node: Node, frag: Frag, scopes: Scopes) -> Gen:
    """Lower an `if` expression; `else if` chains arrive as nested `if` expressions."""
    span = frag.span(node)
    scopes.push()
    cond_node = node.child_by_field_name("condition")
    cond = (
        (yield from lower_condition(cond_node, frag))
        if cond_node is not None
        else ir.Opaque((), span)
    )
    then_node = node.child_by_field_name("consequence")
    then = (yield ("block", then_node, frag)) if then_node is not None else ir.Block((), None, span)
    scopes.pop()
    otherwise: ir.Expr | None = None
    alternative = node.child_by_field_name("alternative")
    if alternative is not None:
        target = alternative.named_children[0] if alternative.named_children else None
        if target is not None:
            otherwise = yield ("expr", target, frag)
    return ir.If(cond, then, otherwise, span)


def lower_match(node: Node, frag: Frag, scopes: Scopes) -> Gen:
    """Lower a `match` expression, each arm in its own scope."""
    span = frag.span(node)
    value_node = node.child_by_field_name("value")
    scrutinee = (
        (yield ("expr", value_node, frag)) if value_node is not None else ir.Opaque((), span)
    )
    arms: list[ir.Arm] = []
    body = node.child_by_field_name("body")
    for arm in body.named_children if body is not None else []:
        if arm.type != "match_arm":
            continue
        scopes.push()
        pattern_node = arm.child_by_field_name("pattern")
        pattern: ir.Pat = ir.PWild(frag.span(arm))
        guard: ir.Expr | None = None
        if pattern_node is not None:
            inner = pattern_node.named_children[0] if pattern_node.named_children else None
            if inner is not None:
                pattern = yield ("pat", inner, frag)
            condition = pattern_node.child_by_field_name("condition")
            if condition is not None:
                guard = yield from lower_condition(condition, frag)
        value_node = arm.child_by_field_name("value")
        arm_body = (
            (yield ("expr", value_node, frag)) if value_node is not None else ir.Tuple((), span)
        )
        scopes.pop()
        arms.append(ir.Arm(pattern, guard, arm_body, frag.span(arm)))
    return ir.Match(scrutinee, tuple(arms), span)


def lower_loop(node: Node, frag: Frag, scopes: Scopes) -> Gen:
    """Lower `loop`, `while` (including `while let`) and `for` loops."""
    span = frag.span(node)
    label_node = next((c for c in node.children if c.type == "label"), None)
    label = frag.text(label_node) if label_node is not None else None
    scopes.push()
    cond: ir.Expr | None = None
    pattern: ir.Pat | None = None
    iterable: ir.Expr | None = None
    kind = _LOOP_KINDS.get(node.type, "for")
    if kind == "while":
        cond_node = node.child_by_field_name("condition")
        if cond_node is not None:
            cond = yield from lower_condition(cond_node, frag)
    elif kind == "for":
        value_node = node.child_by_field_name("value")
        if value_node is not None:
            iterable = yield ("expr", value_node, frag)
        pat_node = node.child_by_field_name("pattern")
        if pat_node is not None:
            pattern = yield ("pat", pat_node, frag)
    body_node = node.child_by_field_name("body")
    body = (yield ("block", body_node, frag)) if body_node is not None else ir.Block((), None, span)
    scopes.pop()
    return ir.Loop(kind, label, cond, pattern, iterable, body, span)
