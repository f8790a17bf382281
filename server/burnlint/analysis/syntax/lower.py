"""Lower tree-sitter function bodies into the intermediate form of `ir`.

The lowering never recurses on the Python stack: every lowering function is a generator that
yields the child nodes it needs lowered (see `syntax.Request`), and `_run` drives them with an
explicit stack, so arbitrarily deep nesting cannot hit the recursion limit. Patterns, control
flow and macros are lowered by `lower_patterns`, `lower_control` and `macros`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from burnlint.analysis import cputime, trampoline
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.expand import expand
from burnlint.analysis.syntax.lower_control import lower_if, lower_loop, lower_match
from burnlint.analysis.syntax.lower_patterns import lower_pattern
from burnlint.analysis.syntax.macros import EXPRESSION_LIKE, lower_macro
from burnlint.analysis.syntax.scopes import Scopes
from burnlint.analysis.syntax.tree import (
    ExpandedFrag,
    Frag,
    Gen,
    Request,
    find_at,
    parse_fragment,
    path_segments,
    qualified_path,
)

STATEMENT_TYPES = frozenset(
    {
        "let_declaration",
        "expression_statement",
        "empty_statement",
        "function_item",
        "struct_item",
        "enum_item",
        "impl_item",
        "trait_item",
        "mod_item",
        "use_declaration",
        "const_item",
        "static_item",
        "type_item",
        "macro_definition",
        "attribute_item",
        "inner_attribute_item",
        "line_comment",
        "block_comment",
        "extern_crate_declaration",
        "union_item",
        "foreign_mod_item",
    }
)
LITERALS = {
    "integer_literal": "int",
    "float_literal": "float",
    "string_literal": "str",
    "raw_string_literal": "str",
    "char_literal": "char",
    "boolean_literal": "bool",
}
PATH_TYPES = frozenset(
    {"scoped_identifier", "generic_function", "scoped_type_identifier", "type_identifier"}
)
TRANSPARENT_TYPES = frozenset(
    {"parenthesized_expression", "reference_expression", "type_cast_expression", "await_expression"}
)
BLOCK_TYPES = frozenset({"block", "unsafe_block", "async_block", "const_block", "gen_block"})
COMMENT_TYPES = frozenset({"line_comment", "block_comment"})
NON_ITEM_TYPES = frozenset({"line_comment", "block_comment", "attribute_item"})


MAX_EXPANSION_DEPTH = 4
"""Macros expanding to macros are followed this deep (a recursive rule stops here)."""
MacroLookup = Callable[[tuple[str, ...], int], "tuple[tuple[tuple[Node, Node], ...], bytes] | None"]
"""An invocation's path and offset in the file -> the rules (matcher, transcriber) it names and
the text they are in."""


class LoweringBudget(Exception):
    """The analysis' time budget ran out while lowering a function."""


class BodyLowerer:
    """Lowers one function (parameters and body) into `ir.Function`."""

    def __init__(self, data: bytes, wants_scope: Callable[[str], bool], file: int = 0) -> None:
        self._frag = Frag(data, 0, file)
        self._wants_scope = wants_scope
        self._scopes = Scopes(wants_scope)
        self.deadline = math.inf
        """When lowering gives up with `LoweringBudget` (`cputime.now()` seconds)."""
        self.macros: MacroLookup | None = None
        """Finds the `macro_rules!` an invocation path names (set once names are resolved)."""
        self.expanded: set[ir.Span] = set()
        """The invocations lowered from their expansion (their spans cover generated code)."""
        self._steps = 0
        """Requests lowered so far (the deadline is checked every 2048)."""

    def rebase(self, data: bytes) -> None:
        """Lower from a new version of the file's text (items kept: see `items.edit_body`)."""
        self._frag = Frag(data, 0, self._frag.file)

    def _run(self, first: Gen) -> Any:
        return trampoline.run(first, self._start)

    def _start(self, request: Request) -> Gen | ir.Expr:
        """The generator that lowers what a running one asked for (or, for a name, path or
        literal, what it lowers to)."""
        self._steps += 1
        if self._steps % 2048 == 0 and cputime.now() > self.deadline:
            raise LoweringBudget
        kind, node, frag = request
        if kind == "expr":
            leaf = self._leaf(node, frag)
            return leaf if leaf is not None else self._compound(node, frag)
        if kind == "compound":
            return self._compound(node, frag)
        if kind == "pat":
            return lower_pattern(node, frag, self._scopes)
        return self._block(node, frag)

    def function(self, node: Node, owner: str | None, anchor: ir.Anchor = ir.FIXED) -> ir.Function:
        """Lower a `function_item` node (its spans relative to `anchor`)."""
        frag = Frag(self._frag.data, 0, self._frag.file, anchor)
        self._scopes = scopes = Scopes(self._wants_scope)
        name_node = node.child_by_field_name("name")
        params_node = node.child_by_field_name("parameters")
        body_node = node.child_by_field_name("body")
        ret = node.child_by_field_name("return_type")
        params: list[ir.Param] = []
        has_self = False
        if params_node is not None:
            for child in params_node.named_children:
                if child.type == "self_parameter":
                    has_self = True
                    binding = scopes.bind("self", owner or "")
                    pat = ir.PBind(binding, "self", None, frag.span(child))
                    params.append(ir.Param(pat, owner or "Self", frag.span(child)))
                elif child.type == "parameter":
                    type_node = child.child_by_field_name("type")
                    type_text = frag.text(type_node) if type_node is not None else ""
                    pat_node = child.child_by_field_name("pattern")
                    pat = (
                        self._run(lower_pattern(pat_node, frag, scopes, type_text))
                        if pat_node is not None
                        else ir.PWild(frag.span(child))
                    )
                    params.append(ir.Param(pat, type_text, frag.span(child)))
        body = self._run(self._block(body_node, frag)) if body_node is not None else None
        name = frag.text(name_node) if name_node is not None else "?"
        function = ir.Function(
            name=name,
            owner=owner,
            params=tuple(params),
            body=body,
            span=frag.span(node),
            name_span=frag.span(name_node) if name_node is not None else frag.span(node),
            return_type=frag.text(ret) if ret is not None else "",
            has_self=has_self,
        )
        function.binding_count = len(scopes.names)
        function.binding_names = dict(scopes.names)
        return function

    def _expand(self, node: Node, frag: Frag) -> tuple[Node, ExpandedFrag] | None:
        """The expression a crate-local `macro_rules!` invocation expands to, if it does."""
        depth = frag.depth if isinstance(frag, ExpandedFrag) else 0
        if self.macros is None or depth >= MAX_EXPANSION_DEPTH:
            return None
        name_node = node.child_by_field_name("macro")
        tree = next((c for c in node.children if c.type == "token_tree"), None)
        if name_node is None or tree is None:
            return None
        path = tuple(p.strip() for p in frag.text(name_node).split("::") if p.strip())
        found = self.macros(path, frag.span(node).start) if path else None
        if found is None:
            return None
        rules, data = found
        text = expand(rules, data, tree, frag.data)
        if text is None:
            return None
        parsed, offset, expanded = parse_fragment(text.encode(), b"fn __burnlint() { (", b"); }")
        encoded = len(text.encode())
        root = find_at(parsed.root_node, offset, EXPRESSION_LIKE)
        if root is None or root.end_byte != offset + encoded or parsed.root_node.has_error:
            return None
        span = frag.span(node)
        return root, ExpandedFrag(expanded, 0, frag.file, frag.anchor, span, depth + 1)

    def constant(self, node: Node, owner: str | None, anchor: ir.Anchor = ir.FIXED) -> ir.Function:
        """Lower a `const_item` or `static_item` as a function without parameters whose body
        is the initializer (so its value is computed like any function's result; its spans
        relative to `anchor`)."""
        frag = Frag(self._frag.data, 0, self._frag.file, anchor)
        self._scopes = scopes = Scopes(self._wants_scope)
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        declared = node.child_by_field_name("type")
        span = frag.span(node)
        body = None
        if value_node is not None:
            tail = self._run(self._expr(value_node, frag))
            body = ir.Block((), tail, frag.span(value_node))
        function = ir.Function(
            name=frag.text(name_node) if name_node is not None else "?",
            owner=owner,
            params=(),
            body=body,
            span=span,
            name_span=frag.span(name_node) if name_node is not None else span,
            return_type=frag.text(declared) if declared is not None else "",
            has_self=False,
        )
        function.binding_count = len(scopes.names)
        function.binding_names = dict(scopes.names)
        return function

    def _block(self, node: Node, frag: Frag) -> Gen:
        self._scopes.push()
        first = len(self._scopes.names)
        stmts: list[ir.Stmt] = []
        tail: ir.Expr | None = None
        children = [c for c in node.named_children if c.type not in COMMENT_TYPES]
        for index, child in enumerate(children):
            last = index == len(children) - 1
            if child.type == "let_declaration":
                stmts.append((yield from self._let(child, frag)))
            elif child.type == "expression_statement":
                inner = child.named_children[0] if child.named_children else None
                if inner is None:
                    continue
                expr = yield ("expr", inner, frag)
                has_semicolon = child.child_count > 0 and child.children[-1].type == ";"
                if last and not has_semicolon:
                    tail = expr
                else:
                    stmts.append(ir.ExprStmt(expr, frag.span(child)))
            elif child.type in STATEMENT_TYPES:
                continue
            elif last:
                tail = yield ("expr", child, frag)
            else:
                expr = yield ("expr", child, frag)
                stmts.append(ir.ExprStmt(expr, frag.span(child)))
        self._scopes.pop()
        scope = (first, len(self._scopes.names))
        return ir.Block(tuple(stmts), tail, frag.span(node), scope)

    def _let(self, node: Node, frag: Frag) -> Gen:
        value_node = node.child_by_field_name("value")
        init = (yield ("expr", value_node, frag)) if value_node is not None else None
        otherwise_node = node.child_by_field_name("alternative")
        otherwise = (yield ("block", otherwise_node, frag)) if otherwise_node is not None else None
        type_node = node.child_by_field_name("type")
        type_text = frag.text(type_node) if type_node is not None else ""
        pat_node = node.child_by_field_name("pattern")
        # The pattern binds after the initializer is lowered: `let x = x.clone();` reads the old x.
        pattern = (
            (yield from lower_pattern(pat_node, frag, self._scopes, type_text))
            if pat_node is not None
            else ir.PWild(frag.span(node))
        )
        return ir.Let(pattern, init, otherwise, frag.span(node), type_text)

    def _leaf(self, node: Node, frag: Frag) -> ir.Expr | None:
        """A name, path or literal, lowered without a generator of its own (most of the
        requests); None for any other node."""
        kind = node.type
        if kind == "identifier":
            name = frag.text(node)
            binding = self._scopes.lookup(name)
            if binding is not None:
                return ir.Var(binding, name, frag.span(node))
            return ir.Path((name,), frag.span(node))
        if kind == "self":
            binding = self._scopes.lookup("self")
            span = frag.span(node)
            return (
                ir.Var(binding, "self", span) if binding is not None else ir.Path(("self",), span)
            )
        if kind in PATH_TYPES and kind != "generic_function":
            return qualified_path(node, frag, frag.span(node))
        if kind in LITERALS:
            return ir.Lit(LITERALS[kind], frag.text(node), frag.span(node))
        return None

    def _expr(self, node: Node, frag: Frag) -> Gen:
        leaf = self._leaf(node, frag)
        if leaf is not None:
            return leaf
        return (yield from self._compound(node, frag))

    def _operand(self, node: Node, frag: Frag) -> ir.Expr | None:
        """A name, path or literal operand lowered here, without a request (most operands
        are), counted as a request would be; None for anything else, which the caller then
        requests as a "compound" (`_leaf` is asked once per node)."""
        leaf = self._leaf(node, frag)
        if leaf is not None:
            # The deadline is checked every 2048 requests, these included.
            self._steps += 1
            if self._steps % 2048 == 0 and cputime.now() > self.deadline:
                raise LoweringBudget
        return leaf

    def _compound(self, node: Node, frag: Frag) -> Gen:
        """Lower an expression that is not a name, path or literal."""
        kind = node.type
        if kind == "call_expression":
            return (yield from self._call(node, frag))
        if kind == "struct_expression":
            return (yield from self._struct(node, frag))
        if kind in ("binary_expression", "assignment_expression", "compound_assignment_expr"):
            return (yield from self._binary(node, frag))
        if kind == "if_expression":
            return (yield from lower_if(node, frag, self._scopes))
        if kind == "match_expression":
            return (yield from lower_match(node, frag, self._scopes))
        if kind in ("loop_expression", "while_expression", "for_expression"):
            return (yield from lower_loop(node, frag, self._scopes))
        if kind == "closure_expression":
            return (yield from self._closure(node, frag))
        if kind == "macro_invocation":
            expansion = self._expand(node, frag)
            if expansion is not None:
                found, inner = expansion
                self.expanded.add(inner.pinned)
                return (yield ("expr", found, inner))
            return (yield from lower_macro(node, frag))
        if kind in TRANSPARENT_TYPES:
            inner = node.child_by_field_name("value") or (
                node.named_children[0] if node.named_children else None
            )
            if inner is None:
                return ir.Opaque((), frag.span(node))
            return (yield ("expr", inner, frag))
        if kind == "generic_function":
            function = node.child_by_field_name("function")
            if function is not None:
                return (yield ("expr", function, frag))
            return qualified_path(node, frag, frag.span(node))
        # The kinds above make their spans where they need them.
        span = frag.span(node)
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            field = node.child_by_field_name("field")
            base = (yield ("expr", value, frag)) if value is not None else ir.Opaque((), span)
            return ir.Field(base, frag.text(field) if field is not None else "?", span)
        if kind in ("tuple_expression", "unit_expression", "array_expression"):
            skipped = COMMENT_TYPES if kind == "array_expression" else NON_ITEM_TYPES
            items: list[ir.Expr] = []
            for child in node.named_children:
                if child.type not in skipped:
                    items.append((yield ("expr", child, frag)))
            if kind == "array_expression":
                return ir.Array(tuple(items), span)
            return ir.Tuple(tuple(items), span)
        if kind == "unary_expression":
            operand = node.named_children[-1] if node.named_children else None
            op = frag.text(node.children[0]) if node.children else "?"
            inner_expr = (
                (yield ("expr", operand, frag)) if operand is not None else ir.Opaque((), span)
            )
            if op == "*":
                return inner_expr
            return ir.Unary(op, inner_expr, span)
        if kind in BLOCK_TYPES:
            block_node = (
                node
                if kind == "block"
                else next((c for c in node.named_children if c.type == "block"), None)
            )
            if block_node is None:
                return ir.Opaque((), span)
            return (yield ("block", block_node, frag))
        if kind == "return_expression":
            value_node = node.named_children[0] if node.named_children else None
            value = (yield ("expr", value_node, frag)) if value_node is not None else None
            return ir.Return(value, span)
        if kind == "break_expression":
            label = None
            value = None
            for child in node.named_children:
                if child.type == "label":
                    label = frag.text(child)
                else:
                    value = yield ("expr", child, frag)
            return ir.Break(label, value, span)
        if kind == "continue_expression":
            label_node = next((c for c in node.named_children if c.type == "label"), None)
            return ir.Continue(frag.text(label_node) if label_node is not None else None, span)
        if kind == "try_expression":
            inner = node.named_children[0] if node.named_children else None
            value = (yield ("expr", inner, frag)) if inner is not None else ir.Opaque((), span)
            return ir.Try(value, span)
        if kind == "index_expression":
            parts: list[ir.Expr] = []
            for child in node.named_children:
                parts.append((yield ("expr", child, frag)))
            if len(parts) == 2:
                name_span = span.sub(parts[0].span.end, span.end)
                return ir.MethodCall(parts[0], "index", (parts[1],), span, name_span)
            return ir.Opaque(tuple(parts), span)
        if kind == "range_expression":
            return (yield from self._range(node, frag, span))
        # Let chains handled by `lower_condition`, and everything else: keep the parts.
        parts = []
        for child in node.named_children:
            if child.type in ("line_comment", "block_comment", "label"):
                continue
            if child.type.endswith("_expression") or child.type in ("identifier", "block", "self"):
                parts.append((yield ("expr", child, frag)))
        return ir.Opaque(tuple(parts), span)

    def _range(self, node: Node, frag: Frag, span: ir.Span) -> Gen:
        """`a..b` / `a..=b`: the parts are (start, end), an empty placeholder for a missing one."""
        bounds: list[ir.Expr | None] = [None, None]
        side = 0
        inclusive = False
        for child in node.children:
            if child.type in ("..", "..=", "..."):
                side = 1
                inclusive = child.type != ".."
            elif child.is_named and child.type not in ("line_comment", "block_comment"):
                bounds[side] = yield ("expr", child, frag)
        parts = tuple(b if b is not None else ir.Opaque((), span) for b in bounds)
        return ir.Opaque(parts, span, "range=" if inclusive else "range")

    def _binary(self, node: Node, frag: Frag) -> Gen:
        """`a op b`, or the assignment `a = b` / `a op= b` (its right side is lowered first)."""
        span = frag.span(node)
        left_node = node.child_by_field_name("left")
        right_node = node.child_by_field_name("right")
        op_node = node.child_by_field_name("operator")
        op = frag.text(op_node) if op_node is not None else None
        if node.type == "binary_expression":
            left = yield from self._maybe_expr(left_node, frag, span)
            right = yield from self._maybe_expr(right_node, frag, span)
            return ir.Binary(op if op is not None else "?", left, right, span)
        right = yield from self._maybe_expr(right_node, frag, span)
        left = yield from self._maybe_expr(left_node, frag, span)
        field_name = left.name if isinstance(left, ir.Field) else ""
        scope = self._scopes.snapshot_for(field_name) if field_name else None
        return ir.Assign(left, right, op.rstrip("=") if op is not None else "", span, scope)

    def _maybe_expr(self, node: Node | None, frag: Frag, span: ir.Span) -> Gen:
        """Lower `node`, or an opaque placeholder at `span` when the parser left it out."""
        if node is None:
            return ir.Opaque((), span)
        operand = self._operand(node, frag)
        return operand if operand is not None else (yield ("compound", node, frag))

    def _closure(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        self._scopes.push()
        first = len(self._scopes.names)
        params: list[ir.Pat] = []
        params_node = node.child_by_field_name("parameters")
        for child in params_node.named_children if params_node is not None else []:
            target = child.child_by_field_name("pattern") if child.type == "parameter" else child
            if target is not None:
                params.append((yield ("pat", target, frag)))
        body_node = node.child_by_field_name("body")
        body = (yield ("expr", body_node, frag)) if body_node is not None else ir.Opaque((), span)
        self._scopes.pop()
        return ir.Closure(tuple(params), body, span, (first, len(self._scopes.names)))

    def _call(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        function = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        if function is not None and function.type == "generic_function":
            function = function.child_by_field_name("function") or function
        if function is not None and function.type == "field_expression":
            receiver_node = function.child_by_field_name("value")
            field_node = function.child_by_field_name("field")
            receiver = yield from self._maybe_expr(receiver_node, frag, span)
            args = yield from self._args(args_node, frag)
            name = frag.text(field_node) if field_node is not None else "?"
            start = frag.span(field_node).start if field_node is not None else span.start
            scope = self._scopes.snapshot_for(name)
            return ir.MethodCall(receiver, name, args, span, span.sub(start, span.end), scope)
        callee = yield from self._maybe_expr(function, frag, span)
        args = yield from self._args(args_node, frag)
        scope = None
        if isinstance(callee, ir.Path):
            scope = self._scopes.snapshot_for(callee.segments[-1])
        return ir.Call(callee, args, span, scope)

    def _args(self, node: Node | None, frag: Frag) -> Gen:
        args: list[ir.Expr] = []
        if node is None:
            return ()
        for child in node.named_children:
            if child.type in NON_ITEM_TYPES:
                continue
            operand = self._operand(child, frag)
            args.append(operand if operand is not None else (yield ("compound", child, frag)))
        return tuple(args)

    def _struct(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        name_node = node.child_by_field_name("name")
        path = path_segments(name_node, frag) if name_node is not None else ("?",)
        body = node.child_by_field_name("body")
        fields: list[ir.FieldInit] = []
        base: ir.Expr | None = None
        for child in body.named_children if body is not None else []:
            if child.type == "field_initializer":
                field_node = child.child_by_field_name("field")
                value_node = child.child_by_field_name("value")
                if field_node is None or value_node is None:
                    continue
                value = yield ("expr", value_node, frag)
                fields.append(ir.FieldInit(frag.text(field_node), value, frag.span(child)))
            elif child.type == "shorthand_field_initializer":
                ident = child.named_children[0] if child.named_children else child
                value = yield ("expr", ident, frag)
                fields.append(ir.FieldInit(frag.text(ident), value, frag.span(child)))
            elif child.type == "base_field_initializer":
                inner = child.named_children[0] if child.named_children else None
                if inner is not None:
                    base = yield ("expr", inner, frag)
        return ir.StructLit(path, tuple(fields), base, span, self._scopes.snapshot_for(path[-1]))
