"""File-level items: functions (free, impl, trait default), modules, constants, `use` imports.

Items are indexed eagerly (cheap: only the item tree is walked); function bodies are lowered on
first use, so a crate's helpers cost nothing until a call reaches them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from burnlint.analysis.semantics.cfg import BuildConfig, evaluate_cfg
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.lower import BodyLowerer
from burnlint.analysis.syntax.source import SourceFile
from burnlint.analysis.syntax.tree import Frag

Module = tuple[str, ...]
"""A module path inside a crate, starting with "crate"."""


@dataclass(slots=True)
class FunctionDecl:
    """A function of the program; its body is lowered on first use."""

    name: str
    owner: str | None
    module: Module
    has_self: bool
    node: Node
    lowerer: BodyLowerer
    file: int = 0
    uid: int = -1
    build_off: bool = False
    """Compiled only when burn's `autodiff` feature is off (e.g. under `cfg(not(feature = ..))`)."""
    _lowered: ir.Function | None = None

    def lowered(self) -> ir.Function:
        """The function's intermediate form (lowered once)."""
        if self._lowered is None:
            self._lowered = self.lowerer.function(self.node, self.owner)
        return self._lowered


@dataclass(frozen=True, slots=True)
class ModDecl:
    """`mod name;` (a module in another file), with its `#[path = "..."]` if any."""

    parent: Module
    name: str
    path_attr: str | None


@dataclass(slots=True)
class FileItems:
    """What the analyzer needs to know about a file's items."""

    functions: list[FunctionDecl] = field(default_factory=list[FunctionDecl])
    consts: dict[str, ir.Lit] = field(default_factory=dict[str, ir.Lit])
    imports: dict[str, tuple[str, ...]] = field(default_factory=dict[str, tuple[str, ...]])
    mods: list[ModDecl] = field(default_factory=list[ModDecl])
    inline_modules: set[Module] = field(default_factory=set[Module])
    skipped_cfg: list[ir.Span] = field(default_factory=list[ir.Span])


def collect_items(
    source: SourceFile,
    config: BuildConfig,
    wants_scope: Callable[[str], bool],
    module: Module = ("crate",),
    file: int = 0,
) -> FileItems:
    """Walk the item tree (modules, impls, traits); bodies are lowered lazily."""
    items = FileItems()
    lowerer = BodyLowerer(source.data, wants_scope, file)
    frag = Frag(source.data, 0, file)
    stack: list[tuple[Node, str | None, Module]] = [(source.tree.root_node, None, module)]
    while stack:
        container, owner, current = stack.pop()
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
                items.functions.append(_declare(child, owner, current, frag, lowerer))
            elif kind == "mod_item":
                name_node = child.child_by_field_name("name")
                name = frag.text(name_node) if name_node is not None else "?"
                body = child.child_by_field_name("body")
                if body is not None:
                    items.inline_modules.add((*current, name))
                    stack.append((body, owner, (*current, name)))
                else:
                    items.mods.append(ModDecl(current, name, _path_attr(attrs, frag)))
            elif kind == "foreign_mod_item":
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append((body, owner, current))
            elif kind in ("impl_item", "trait_item"):
                name_node = child.child_by_field_name("type" if kind == "impl_item" else "name")
                body = child.child_by_field_name("body")
                if body is not None:
                    name = (
                        frag.text(name_node).split("<")[0].strip()
                        if name_node is not None
                        else None
                    )
                    stack.append((body, name.split("::")[-1] if name else None, current))
            elif kind in ("const_item", "static_item"):
                _collect_const(child, frag, items)
            elif kind == "use_declaration":
                argument = child.child_by_field_name("argument")
                if argument is not None:
                    _collect_use(argument, current, frag, items.imports)
    return items


def _declare(
    node: Node, owner: str | None, module: Module, frag: Frag, lowerer: BodyLowerer
) -> FunctionDecl:
    name_node = node.child_by_field_name("name")
    params = node.child_by_field_name("parameters")
    # `self` can only come first; asking for one child avoids building the whole list.
    first = params.named_child(0) if params is not None and params.named_child_count else None
    has_self = first is not None and first.type == "self_parameter"
    name = frag.text(name_node) if name_node is not None else "?"
    return FunctionDecl(name, owner, module, has_self, node, lowerer, frag.file)


def _path_attr(attrs: list[Node], frag: Frag) -> str | None:
    for attr in attrs:
        text = frag.text(attr)
        inner = text[text.find("[") + 1 : text.rfind("]")].strip()
        if inner.startswith("path") and "=" in inner:
            value = inner.split("=", 1)[1].strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                return value[1:-1]
    return None


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
    node: Node, module: Module, frag: Frag, imports: dict[str, tuple[str, ...]]
) -> None:
    # `use` trees are shallow; an explicit stack keeps this iterative anyway.
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, ())]
    while stack:
        current, base = stack.pop()
        kind = current.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            path = base + _segments(current, frag)
            if path and path[-1] == "self":
                path = path[:-1]
            if path:
                imports[path[-1]] = absolute(path, module)
        elif kind == "use_as_clause":
            target = current.child_by_field_name("path")
            alias = current.child_by_field_name("alias")
            if target is not None and alias is not None:
                imports[frag.text(alias)] = absolute(base + _segments(target, frag), module)
        elif kind == "scoped_use_list":
            path_node = current.child_by_field_name("path")
            list_node = current.child_by_field_name("list")
            new_base = base + (_segments(path_node, frag) if path_node is not None else ())
            if list_node is not None:
                stack.extend((child, new_base) for child in list_node.named_children)
        elif kind == "use_list":
            stack.extend((child, base) for child in current.named_children)


def absolute(path: tuple[str, ...], module: Module) -> tuple[str, ...]:
    """A path written in `module` with leading `self`/`super` made crate-absolute."""
    if not path:
        return path
    if path[0] == "self":
        return (*module, *path[1:])
    if path[0] == "super":
        base = module
        rest = path
        while rest and rest[0] == "super":
            base = base[:-1] if len(base) > 1 else base
            rest = rest[1:]
        return (*base, *rest)
    return path


def _segments(node: Node, frag: Frag) -> tuple[str, ...]:
    return tuple(part.strip() for part in frag.text(node).split("::") if part.strip())
