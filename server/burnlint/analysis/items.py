"""File-level items: functions (free, impl, trait default), constants, `use` imports, cfg gates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from burnlint.analysis import ir
from burnlint.analysis.cfg import BuildConfig, evaluate_cfg
from burnlint.analysis.lower import BodyLowerer
from burnlint.analysis.source import SourceFile
from burnlint.analysis.syntax import Frag

_CONTAINERS = frozenset({"source_file", "declaration_list"})


@dataclass(slots=True)
class FileItems:
    """What the analyzer needs to know about a file's items."""

    functions: list[ir.Function] = field(default_factory=list[ir.Function])
    consts: dict[str, ir.Lit] = field(default_factory=dict[str, ir.Lit])
    imports: dict[str, tuple[str, ...]] = field(default_factory=dict[str, tuple[str, ...]])
    skipped_cfg: list[ir.Span] = field(default_factory=list[ir.Span])


def collect_items(
    source: SourceFile, config: BuildConfig, wants_scope: Callable[[str], bool]
) -> FileItems:
    """Walk the item tree (modules, impls, traits) and lower every function body once."""
    items = FileItems()
    lowerer = BodyLowerer(source.data, wants_scope)
    frag = Frag(source.data, 0)
    stack: list[tuple[Node, str | None]] = [(source.tree.root_node, None)]
    while stack:
        container, owner = stack.pop()
        pending_attrs: list[Node] = []
        for child in container.named_children:
            if child.type == "attribute_item":
                pending_attrs.append(child)
                continue
            if child.type in ("line_comment", "block_comment"):
                continue
            attrs, pending_attrs = pending_attrs, []
            if not _cfg_allows(attrs, frag, config):
                items.skipped_cfg.append(frag.span(child))
                continue
            kind = child.type
            if kind == "function_item":
                items.functions.append(lowerer.function(child, owner))
            elif kind in ("mod_item", "foreign_mod_item"):
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append((body, owner))
            elif kind == "impl_item":
                type_node = child.child_by_field_name("type")
                body = child.child_by_field_name("body")
                if body is not None:
                    name = frag.text(type_node).split("<")[0] if type_node is not None else None
                    stack.append((body, name))
            elif kind == "trait_item":
                name_node = child.child_by_field_name("name")
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append((body, frag.text(name_node) if name_node is not None else None))
            elif kind in ("const_item", "static_item"):
                _collect_const(child, frag, items)
            elif kind == "use_declaration":
                argument = child.child_by_field_name("argument")
                if argument is not None:
                    _collect_use(argument, (), frag, items.imports)
    return items


def _cfg_allows(attrs: list[Node], frag: Frag, config: BuildConfig) -> bool:
    for attr in attrs:
        text = frag.text(attr)
        inner = text[text.find("[") + 1 : text.rfind("]")].strip()
        is_cfg = inner.startswith("cfg(") and inner.endswith(")")
        if is_cfg and evaluate_cfg(inner[4:-1], config) is False:
            return False
    return True


def _collect_const(node: Node, frag: Frag, items: FileItems) -> None:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    if name is None or value is None:
        return
    if value.type == "boolean_literal":
        items.consts[frag.text(name)] = ir.Lit("bool", frag.text(value), frag.span(value))


def _collect_use(
    node: Node, prefix: tuple[str, ...], frag: Frag, imports: dict[str, tuple[str, ...]]
) -> None:
    # `use` trees are shallow; an explicit stack keeps this iterative anyway.
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, prefix)]
    while stack:
        current, base = stack.pop()
        kind = current.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            path = base + _segments(current, frag)
            if path and path[-1] == "self":
                path = path[:-1]
            if path:
                imports[path[-1]] = path
        elif kind == "use_as_clause":
            target = current.child_by_field_name("path")
            alias = current.child_by_field_name("alias")
            if target is not None and alias is not None:
                imports[frag.text(alias)] = base + _segments(target, frag)
        elif kind == "scoped_use_list":
            path_node = current.child_by_field_name("path")
            list_node = current.child_by_field_name("list")
            new_base = base + (_segments(path_node, frag) if path_node is not None else ())
            if list_node is not None:
                stack.extend((child, new_base) for child in list_node.named_children)
        elif kind == "use_list":
            stack.extend((child, base) for child in current.named_children)


def _segments(node: Node, frag: Frag) -> tuple[str, ...]:
    return tuple(part.strip() for part in frag.text(node).split("::") if part.strip())
