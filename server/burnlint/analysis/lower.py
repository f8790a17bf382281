"""Lower tree-sitter function bodies into the intermediate form of `ir`.

The lowering never recurses on the Python stack: every `_expr`/`_pat`/`_block` method is a
generator that yields the child nodes it needs lowered, and `_run` drives them with an explicit
stack, so arbitrarily deep nesting cannot hit the recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import tree_sitter

from burnlint.analysis import ir
from burnlint.analysis.source import parse_bytes

Node = tree_sitter.Node
Lowered = ir.Expr | ir.Pat | ir.Block
Request = tuple[str, Node, "Frag"]
Gen = Generator[Request, Any, Any]

DIVERGING_MACROS = frozenset({"panic", "unreachable", "todo", "unimplemented"})
ASSERT_MACROS = frozenset({"assert", "debug_assert"})
TRANSPARENT_MACROS = frozenset({"dbg"})
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


@dataclass(frozen=True, slots=True)
class Frag:
    """Where a node's bytes came from: `delta` maps its offsets back into the file."""

    data: bytes
    delta: int

    def span(self, node: Node) -> ir.Span:
        return ir.Span(node.start_byte + self.delta, node.end_byte + self.delta)

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _fragment(text: bytes, prefix: bytes, suffix: bytes) -> tuple[tree_sitter.Tree, int, bytes]:
    """Parse `prefix + text + suffix`; return the tree, where `text` starts, and the bytes."""
    data = prefix + text + suffix
    return parse_bytes(data), len(prefix), data


def _find_at(node: Node, start: int, types: frozenset[str]) -> Node | None:
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


class BodyLowerer:
    """Lowers one function (parameters and body) into `ir.Function`."""

    def __init__(self, data: bytes, wants_scope: Callable[[str], bool]) -> None:
        self._frag = Frag(data, 0)
        self._wants_scope = wants_scope
        self._scopes: list[dict[str, tuple[int, str]]] = []
        self._names: dict[int, str] = {}

    # ---- driver ---------------------------------------------------------------------------

    def _run(self, first: Gen) -> Any:
        stack: list[Gen] = [first]
        value: Any = None
        while stack:
            try:
                kind, node, frag = stack[-1].send(value)
            except StopIteration as stop:
                stack.pop()
                value = stop.value
                continue
            value = None
            if kind == "expr":
                stack.append(self._expr(node, frag))
            elif kind == "pat":
                stack.append(self._pat(node, frag))
            else:
                stack.append(self._block(node, frag))
        return value

    # ---- scopes ---------------------------------------------------------------------------

    def _bind(self, name: str, type_text: str = "") -> int:
        binding = len(self._names)
        self._names[binding] = name
        self._scopes[-1][name] = (binding, type_text)
        return binding

    def _lookup(self, name: str) -> int | None:
        for scope in reversed(self._scopes):
            found = scope.get(name)
            if found is not None:
                return found[0]
        return None

    def _snapshot(self) -> ir.Scope:
        merged: dict[str, tuple[int, str]] = {}
        for scope in self._scopes:
            merged.update(scope)
        return ir.Scope(merged)

    # ---- entry ----------------------------------------------------------------------------

    def function(self, node: Node, owner: str | None) -> ir.Function:
        """Lower a `function_item` node."""
        frag = self._frag
        self._scopes = [{}]
        self._names = {}
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
                    binding = self._bind("self", owner or "")
                    pat = ir.PBind(binding, "self", None, frag.span(child))
                    params.append(ir.Param(pat, owner or "Self", frag.span(child)))
                elif child.type == "parameter":
                    type_node = child.child_by_field_name("type")
                    type_text = frag.text(type_node) if type_node is not None else ""
                    pat_node = child.child_by_field_name("pattern")
                    pat = (
                        self._run(self._pat(pat_node, frag, type_text))
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
        function.binding_count = len(self._names)
        function.binding_names = dict(self._names)
        return function

    # ---- blocks ---------------------------------------------------------------------------

    def _block(self, node: Node, frag: Frag) -> Gen:
        self._scopes.append({})
        stmts: list[ir.Stmt] = []
        tail: ir.Expr | None = None
        children = [
            c for c in node.named_children if c.type not in ("line_comment", "block_comment")
        ]
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
        return ir.Block(tuple(stmts), tail, frag.span(node))

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
            (yield from self._pat(pat_node, frag, type_text))
            if pat_node is not None
            else ir.PWild(frag.span(node))
        )
        return ir.Let(pattern, init, otherwise, frag.span(node))

    # ---- patterns -------------------------------------------------------------------------

    def _pat(self, node: Node, frag: Frag, type_text: str = "") -> Gen:
        # `&&mut (x)` and friends: unwrap iteratively, the binding is what matters.
        while node.type in (
            "mut_pattern",
            "ref_pattern",
            "reference_pattern",
            "parenthesized_pattern",
        ):
            if not node.named_children:
                return ir.PWild(frag.span(node))
            node = node.named_children[-1]
        span = frag.span(node)
        kind = node.type
        if kind == "identifier":
            name = frag.text(node)
            if name[:1].isupper():
                return ir.PPath((name,), span)
            return ir.PBind(self._bind(name, type_text), name, None, span)
        if kind == "self":
            return ir.PBind(self._bind("self", type_text), "self", None, span)
        if kind == "tuple_pattern":
            items: list[ir.Pat] = []
            for child in node.named_children:
                items.append((yield ("pat", child, frag)))
            return ir.PTuple(tuple(items), span)
        if kind == "tuple_struct_pattern":
            type_node = node.child_by_field_name("type")
            path = _path_segments(type_node, frag) if type_node is not None else ("?",)
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
            path = _path_segments(type_node, frag) if type_node is not None else ("?",)
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
                    bound = ir.PBind(self._bind(field_name), field_name, None, frag.span(name_node))
                    fields.append((field_name, bound))
                else:
                    fields.append((field_name, (yield ("pat", sub, frag))))
            return ir.PStruct(path, tuple(fields), span)
        if kind in ("scoped_identifier", "generic_type", "scoped_type_identifier"):
            return ir.PPath(_path_segments(node, frag), span)
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
            return ir.PBind(self._bind(name, type_text), name, sub, span)
        # Slices, ranges, literals, macros: bind whatever identifiers they introduce to unknowns.
        binds: list[tuple[str, ir.Pat]] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type == "identifier" and not frag.text(current)[:1].isupper():
                name = frag.text(current)
                binds.append(("?", ir.PBind(self._bind(name), name, None, frag.span(current))))
            stack.extend(current.named_children)
        if binds:
            return ir.PStruct(("?",), tuple(binds), span)
        if kind in ("_", "remaining_field_pattern") or frag.text(node) in ("_", ".."):
            return ir.PWild(span)
        # Literals and ranges may or may not match: a path nothing resolves.
        return ir.PPath(("<literal>",), span)

    # ---- expressions ----------------------------------------------------------------------

    def _expr(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        kind = node.type
        if kind == "identifier":
            name = frag.text(node)
            binding = self._lookup(name)
            if binding is not None:
                return ir.Var(binding, name, span)
            return ir.Path((name,), span)
        if kind == "self":
            binding = self._lookup("self")
            return (
                ir.Var(binding, "self", span) if binding is not None else ir.Path(("self",), span)
            )
        if kind in (
            "scoped_identifier",
            "generic_function",
            "scoped_type_identifier",
            "type_identifier",
        ):
            if kind == "generic_function":
                function = node.child_by_field_name("function")
                if function is not None:
                    return (yield ("expr", function, frag))
            return _qualified_path(node, frag, span)
        if kind in LITERALS:
            return ir.Lit(LITERALS[kind], frag.text(node), span)
        if kind in (
            "parenthesized_expression",
            "reference_expression",
            "type_cast_expression",
            "await_expression",
        ):
            inner = node.child_by_field_name("value") or (
                node.named_children[0] if node.named_children else None
            )
            if inner is None:
                return ir.Opaque((), span)
            return (yield ("expr", inner, frag))
        if kind == "call_expression":
            return (yield from self._call(node, frag))
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            field = node.child_by_field_name("field")
            base = (yield ("expr", value, frag)) if value is not None else ir.Opaque((), span)
            return ir.Field(base, frag.text(field) if field is not None else "?", span)
        if kind == "struct_expression":
            return (yield from self._struct(node, frag))
        if kind in ("tuple_expression", "unit_expression"):
            items: list[ir.Expr] = []
            for child in node.named_children:
                if child.type not in ("line_comment", "block_comment", "attribute_item"):
                    items.append((yield ("expr", child, frag)))
            return ir.Tuple(tuple(items), span)
        if kind == "array_expression":
            items = []
            for child in node.named_children:
                if child.type not in ("line_comment", "block_comment"):
                    items.append((yield ("expr", child, frag)))
            return ir.Array(tuple(items), span)
        if kind == "unary_expression":
            operand = node.named_children[-1] if node.named_children else None
            op = frag.text(node.children[0]) if node.children else "?"
            inner_expr = (
                (yield ("expr", operand, frag)) if operand is not None else ir.Opaque((), span)
            )
            if op == "*":
                return inner_expr
            return ir.Unary(op, inner_expr, span)
        if kind == "binary_expression":
            left_node = node.child_by_field_name("left")
            right_node = node.child_by_field_name("right")
            op_node = node.child_by_field_name("operator")
            left = (
                (yield ("expr", left_node, frag)) if left_node is not None else ir.Opaque((), span)
            )
            right = (
                (yield ("expr", right_node, frag))
                if right_node is not None
                else ir.Opaque((), span)
            )
            return ir.Binary(frag.text(op_node) if op_node is not None else "?", left, right, span)
        if kind in ("assignment_expression", "compound_assignment_expr"):
            left_node = node.child_by_field_name("left")
            right_node = node.child_by_field_name("right")
            op_node = node.child_by_field_name("operator")
            right = (
                (yield ("expr", right_node, frag))
                if right_node is not None
                else ir.Opaque((), span)
            )
            left = (
                (yield ("expr", left_node, frag)) if left_node is not None else ir.Opaque((), span)
            )
            op = frag.text(op_node).rstrip("=") if op_node is not None else ""
            field_name = left.name if isinstance(left, ir.Field) else ""
            scope = self._snapshot() if field_name and self._wants_scope(field_name) else None
            return ir.Assign(left, right, op, span, scope)
        if kind == "if_expression":
            return (yield from self._if(node, frag))
        if kind == "match_expression":
            return (yield from self._match(node, frag))
        if kind in ("loop_expression", "while_expression", "for_expression"):
            return (yield from self._loop(node, frag))
        if kind in ("block", "unsafe_block", "async_block", "const_block", "gen_block"):
            block_node = (
                node
                if kind == "block"
                else next((c for c in node.named_children if c.type == "block"), None)
            )
            if block_node is None:
                return ir.Opaque((), span)
            return (yield ("block", block_node, frag))
        if kind == "closure_expression":
            self._scopes.append({})
            params: list[ir.Pat] = []
            params_node = node.child_by_field_name("parameters")
            for child in params_node.named_children if params_node is not None else []:
                target = (
                    child.child_by_field_name("pattern") if child.type == "parameter" else child
                )
                if target is not None:
                    params.append((yield ("pat", target, frag)))
            body_node = node.child_by_field_name("body")
            body = (
                (yield ("expr", body_node, frag)) if body_node is not None else ir.Opaque((), span)
            )
            self._scopes.pop()
            return ir.Closure(tuple(params), body, span)
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
                name_span = ir.Span(parts[0].span.end, span.end)
                return ir.MethodCall(parts[0], "index", (parts[1],), span, name_span)
            return ir.Opaque(tuple(parts), span)
        if kind == "macro_invocation":
            return (yield from self._macro(node, frag))
        # Ranges, let chains handled by `_condition`, and everything else: keep the parts.
        parts = []
        for child in node.named_children:
            if child.type in ("line_comment", "block_comment", "label"):
                continue
            if child.type.endswith("_expression") or child.type in ("identifier", "block", "self"):
                parts.append((yield ("expr", child, frag)))
        return ir.Opaque(tuple(parts), span)

    def _call(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        function = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        if function is not None and function.type == "generic_function":
            function = function.child_by_field_name("function") or function
        if function is not None and function.type == "field_expression":
            receiver_node = function.child_by_field_name("value")
            field_node = function.child_by_field_name("field")
            receiver = (
                (yield ("expr", receiver_node, frag))
                if receiver_node is not None
                else ir.Opaque((), span)
            )
            args = yield from self._args(args_node, frag)
            name = frag.text(field_node) if field_node is not None else "?"
            start = field_node.start_byte + frag.delta if field_node is not None else span.start
            scope = self._snapshot() if self._wants_scope(name) else None
            return ir.MethodCall(receiver, name, args, span, ir.Span(start, span.end), scope)
        callee = (yield ("expr", function, frag)) if function is not None else ir.Opaque((), span)
        args = yield from self._args(args_node, frag)
        scope = None
        if isinstance(callee, ir.Path) and self._wants_scope(callee.segments[-1]):
            scope = self._snapshot()
        return ir.Call(callee, args, span, scope)

    def _args(self, node: Node | None, frag: Frag) -> Gen:
        args: list[ir.Expr] = []
        if node is None:
            return ()
        for child in node.named_children:
            if child.type in ("line_comment", "block_comment", "attribute_item"):
                continue
            args.append((yield ("expr", child, frag)))
        return tuple(args)

    def _struct(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        name_node = node.child_by_field_name("name")
        path = _path_segments(name_node, frag) if name_node is not None else ("?",)
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
        scope = self._snapshot() if self._wants_scope(path[-1]) else None
        return ir.StructLit(path, tuple(fields), base, span, scope)

    def _condition(self, node: Node, frag: Frag) -> Gen:
        """Lower an `if`/`while` condition; `let` conditions bind into the current scope."""
        if node.type == "let_condition":
            value_node = node.child_by_field_name("value")
            value = (
                (yield ("expr", value_node, frag))
                if value_node is not None
                else ir.Opaque((), frag.span(node))
            )
            pat_node = node.child_by_field_name("pattern")
            pattern = (
                (yield ("pat", pat_node, frag))
                if pat_node is not None
                else ir.PWild(frag.span(node))
            )
            return ir.LetCond(pattern, value, frag.span(node))
        if node.type == "let_chain":
            result: ir.Expr | None = None
            for child in node.named_children:
                part = yield from self._condition(child, frag)
                result = part if result is None else ir.Binary("&&", result, part, frag.span(node))
            return result if result is not None else ir.Opaque((), frag.span(node))
        return (yield ("expr", node, frag))

    def _if(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        self._scopes.append({})
        cond_node = node.child_by_field_name("condition")
        cond = (
            (yield from self._condition(cond_node, frag))
            if cond_node is not None
            else ir.Opaque((), span)
        )
        then_node = node.child_by_field_name("consequence")
        then = (
            (yield ("block", then_node, frag))
            if then_node is not None
            else ir.Block((), None, span)
        )
        self._scopes.pop()
        otherwise: ir.Expr | None = None
        alternative = node.child_by_field_name("alternative")
        if alternative is not None:
            target = alternative.named_children[0] if alternative.named_children else None
            if target is not None:
                otherwise = yield ("expr", target, frag)
        return ir.If(cond, then, otherwise, span)

    def _match(self, node: Node, frag: Frag) -> Gen:
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
            self._scopes.append({})
            pattern_node = arm.child_by_field_name("pattern")
            pattern: ir.Pat = ir.PWild(frag.span(arm))
            guard: ir.Expr | None = None
            if pattern_node is not None:
                inner = pattern_node.named_children[0] if pattern_node.named_children else None
                if inner is not None:
                    pattern = yield ("pat", inner, frag)
                condition = pattern_node.child_by_field_name("condition")
                if condition is not None:
                    guard = yield from self._condition(condition, frag)
            value_node = arm.child_by_field_name("value")
            arm_body = (
                (yield ("expr", value_node, frag)) if value_node is not None else ir.Tuple((), span)
            )
            self._scopes.pop()
            arms.append(ir.Arm(pattern, guard, arm_body, frag.span(arm)))
        return ir.Match(scrutinee, tuple(arms), span)

    def _loop(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        label_node = next((c for c in node.children if c.type == "label"), None)
        label = frag.text(label_node) if label_node is not None else None
        self._scopes.append({})
        cond: ir.Expr | None = None
        pattern: ir.Pat | None = None
        iterable: ir.Expr | None = None
        kind = {"loop_expression": "loop", "while_expression": "while"}.get(node.type, "for")
        if kind == "while":
            cond_node = node.child_by_field_name("condition")
            if cond_node is not None:
                cond = yield from self._condition(cond_node, frag)
        elif kind == "for":
            value_node = node.child_by_field_name("value")
            if value_node is not None:
                iterable = yield ("expr", value_node, frag)
            pat_node = node.child_by_field_name("pattern")
            if pat_node is not None:
                pattern = yield ("pat", pat_node, frag)
        body_node = node.child_by_field_name("body")
        body = (
            (yield ("block", body_node, frag))
            if body_node is not None
            else ir.Block((), None, span)
        )
        self._scopes.pop()
        return ir.Loop(kind, label, cond, pattern, iterable, body, span)

    # ---- macros ---------------------------------------------------------------------------

    def _macro(self, node: Node, frag: Frag) -> Gen:
        span = frag.span(node)
        name_node = node.child_by_field_name("macro")
        name = frag.text(name_node).split("::")[-1] if name_node is not None else ""
        if name in DIVERGING_MACROS:
            return ir.Diverge(span)
        tree = next((c for c in node.children if c.type == "token_tree"), None)
        if tree is None:
            return ir.Opaque((), span)
        pieces = _split_token_tree(tree)
        if name == "matches" and len(pieces) >= 2:
            expr = yield from self._fragment_expr(pieces[0], frag)
            pattern, guard = yield from self._fragment_pattern(pieces[1], frag)
            true = ir.Lit("bool", "true", span)
            false = ir.Lit("bool", "false", span)
            arms = (ir.Arm(pattern, guard, true, span), ir.Arm(ir.PWild(span), None, false, span))
            return ir.Match(expr, arms, span)
        if name in ASSERT_MACROS and pieces:
            cond = yield from self._fragment_expr(pieces[0], frag)
            return ir.Assert(cond, span)
        if name == "vec":
            items: list[ir.Expr] = []
            for piece in pieces:
                items.append((yield from self._fragment_expr(piece, frag)))
            return ir.Array(tuple(items), span)
        if name in TRANSPARENT_MACROS and len(pieces) == 1:
            return (yield from self._fragment_expr(pieces[0], frag))
        return ir.Opaque((), span)

    def _fragment_expr(self, piece: tuple[int, int], frag: Frag) -> Gen:
        start, end = piece
        text = frag.data[start:end]
        tree, offset, data = _fragment(text, b"fn __burnlint() { (", b"); }")
        found = _find_at(tree.root_node, offset, _EXPRESSION_LIKE)
        inner = Frag(data, frag.delta + start - offset)
        if found is None or found.end_byte != offset + len(text):
            return ir.Opaque((), ir.Span(start + frag.delta, end + frag.delta))
        return (yield ("expr", found, inner))

    def _fragment_pattern(self, piece: tuple[int, int], frag: Frag) -> Gen:
        start, end = piece
        text = frag.data[start:end]
        tree, offset, data = _fragment(text, b"fn __burnlint() { match () { ", b" => {} } }")
        arm = _find_at(tree.root_node, offset, frozenset({"match_pattern"}))
        inner = Frag(data, frag.delta + start - offset)
        if arm is None or not arm.named_children:
            return ir.PWild(ir.Span(start + frag.delta, end + frag.delta)), None
        pattern = yield ("pat", arm.named_children[0], inner)
        condition = arm.child_by_field_name("condition")
        guard = (yield from self._condition(condition, inner)) if condition is not None else None
        return pattern, guard


_EXPRESSION_LIKE = frozenset(
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


def _split_token_tree(tree: Node) -> list[tuple[int, int]]:
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


def _path_segments(node: Node, frag: Frag) -> tuple[str, ...]:
    """Segments of a (possibly generic or qualified) path, generic arguments dropped."""
    return _qualified_path(node, frag, frag.span(node)).segments


def _qualified_path(node: Node, frag: Frag, span: ir.Span) -> ir.Path:
    segments: list[str] = []
    trait_name: str | None = None
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
        ) or kind in ("metavariable",):
            segments.append(frag.text(current))
        elif kind == "bracketed_type":
            qualified = next(
                (c for c in current.named_children if c.type == "qualified_type"), None
            )
            if qualified is not None:
                type_node = qualified.child_by_field_name("type")
                alias = qualified.child_by_field_name("alias")
                if type_node is not None:
                    segments.extend(_qualified_path(type_node, frag, span).segments)
                if alias is not None:
                    trait_name = _qualified_path(alias, frag, span).segments[-1]
            else:
                for child in current.named_children:
                    segments.extend(_qualified_path(child, frag, span).segments)
        elif kind in ("type_arguments", "generic_type_with_turbofish"):
            if kind == "generic_type_with_turbofish":
                type_node = current.child_by_field_name("type")
                if type_node is not None:
                    stack.append(type_node)
        elif kind == "generic_type":
            type_node = current.child_by_field_name("type")
            if type_node is not None:
                stack.append(type_node)
        else:
            stack.extend(reversed(current.named_children))
    return ir.Path(tuple(segments) or ("?",), span, trait_name)
