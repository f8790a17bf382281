"""File-level items: everything a module declares, as the DefMap needs it.

Functions (free, impl, trait default), constants and statics (lowered like bodies), modules,
structs, enums and their variants, traits, type aliases, `impl` blocks, `use` trees (with
renames, nested groups and globs), `extern crate` and `macro_rules!`. Items are indexed eagerly
(cheap: only the item tree is walked); bodies are lowered on first use, so a crate's helpers cost
nothing until a call reaches them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from tree_sitter import Node

from burnlint.analysis.semantics.cfg import BuildConfig, evaluate_cfg
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.lower import BodyLowerer
from burnlint.analysis.syntax.source import SourceFile
from burnlint.analysis.syntax.tree import Frag

Module = tuple[str, ...]
"""A module path; its first segment names the crate ("crate" for the crate being checked)."""

Visibility = str
"""Who may see an item: "pub"; "crate" (`pub(crate)`); "private" (the module and its
descendants); or "in:" and a module path (`pub(super)`, `pub(in crate::render)`: that module
and its descendants)."""

BodyKind = Literal["fn", "const"]


@dataclass(slots=True)
class FunctionDecl:
    """A function, constant or static of the program; its body is lowered on first use.

    A constant or static is a function without parameters whose body is its initializer, so
    its value is computed (and memoized) by the same interpreter as any function's result."""

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
    kind: BodyKind = "fn"
    vis: Visibility = "private"
    impl: int | None = None
    """The index of the `impl` block (in its file's `FileItems.impls`) that declares it."""
    trait_name: str | None = None
    """The trait that declares it, for a trait's default method or associated constant."""
    return_type: str = ""
    """The declared result type (a constant's or static's type) as written."""
    self_type: str | None = None
    """The type key of `Self` where it is declared (filled in by the DefMap)."""
    mut_self: bool = False
    """Whether it takes `&mut self` (what it sets in `self` is seen by the caller)."""
    scope: Module | None = None
    """The block scope of its body when the body declares items (`fn` or `use` inside a
    function): names there shadow the module's."""
    _lowered: ir.Function | None = None
    expanded: frozenset[ir.Span] = frozenset()
    """The macro invocations of its body that were lowered as their expansion."""
    anchor: ir.Anchor = field(default_factory=ir.Anchor)
    """Where it starts in its file: its lowered form's spans are relative to it."""

    def __post_init__(self) -> None:
        self.anchor.base = self.node.start_byte

    @property
    def fixed_receiver(self) -> bool:
        """Whether it takes `self` or `&self`, not `&mut self` or `mut self`: nothing in its
        body changes the receiver's fields (through another method or a `&mut` borrow)."""
        params = self.node.child_by_field_name("parameters")
        first = params.named_child(0) if params is not None and params.named_child_count else None
        if first is None or first.type != "self_parameter":
            return False
        return not any(child.type == "mutable_specifier" for child in first.children)

    @property
    def names_in(self) -> Module:
        """Where the names its body writes are resolved: its block scope, else its module."""
        return self.scope or self.module

    def lowered(self) -> ir.Function:
        """The function's intermediate form (lowered once)."""
        if self._lowered is None:
            lowerer = self.lowerer
            shared = lowerer.expanded
            # The lowerer is the file's; what this body expands is kept apart so that a later
            # version of the file can take this body's lowered form over with its expansions.
            lowerer.expanded = set()
            try:
                if self.kind == "const":
                    self._lowered = self.lowerer.constant(self.node, self.owner, self.anchor)
                else:
                    self._lowered = self.lowerer.function(self.node, self.owner, self.anchor)
                self.expanded = frozenset(lowerer.expanded)
            finally:
                shared |= lowerer.expanded
                lowerer.expanded = shared
        return self._lowered

    def drop_lowered(self) -> None:
        """Forget the lowered form (the body's text changed)."""
        self._lowered = None

    def succeed(self, old: FunctionDecl) -> None:
        """Take over `old`'s identity and anchor (moved to where this version starts): `old`
        is this item in the previous version of the file. Spans made from `old`'s body keep
        their place relative to its start."""
        self.uid = old.uid
        self.anchor = old.anchor
        self.anchor.base = self.node.start_byte

    def adopt(self, old: FunctionDecl) -> None:
        """Take over `old`'s identity, anchor and lowered form: `old` is the same text in the
        previous version of the file, maybe moved by an edit before it."""
        self.succeed(old)
        self._lowered = old._lowered
        self.expanded = old.expanded
        self.lowerer.expanded |= old.expanded


@dataclass(frozen=True, slots=True)
class ModDecl:
    """`mod name;` (a module in another file; which file, `#[path]` included, is the project
    model's business: `project.module_of`, `project.path_modules`)."""

    parent: Module
    name: str
    vis: Visibility = "private"


TypeKind = Literal["struct", "enum", "union", "trait", "alias"]


@dataclass(frozen=True, slots=True)
class TypeDecl:
    """A struct, enum, union, trait or type alias declared in `module`."""

    module: Module
    name: str
    kind: TypeKind
    vis: Visibility
    fields: tuple[tuple[str, str], ...] = ()
    """Struct fields as (name, type text); tuple fields are named "0", "1", ..."""
    shape: Literal["named", "tuple", "unit"] = "named"
    derives: frozenset[str] = frozenset()
    variants: tuple[tuple[str, Literal["named", "tuple", "unit"]], ...] = ()
    aliased: str = ""
    """What a type alias stands for, as written."""


@dataclass(frozen=True, slots=True)
class UseDecl:
    """One leaf of a `use` tree: `path` imported as `alias` (None: a glob `path::*`).

    `path` is as written, with `self`/`super`/`crate` segments kept; an alias of "_" imports
    nothing by name (traits only)."""

    module: Module
    path: tuple[str, ...]
    alias: str | None
    vis: Visibility
    span: ir.Span


@dataclass(frozen=True, slots=True)
class ImplDecl:
    """`impl [Trait for] Type { .. }` declared in `module`."""

    module: Module
    self_type: str
    trait_path: str | None


@dataclass(frozen=True, slots=True)
class MacroDecl:
    """A `macro_rules!` definition: its rules as (matcher, transcriber) token trees."""

    module: Module
    name: str
    rules: tuple[tuple[Node, Node], ...]
    exported: bool
    offset: int
    """Where it is defined (a `macro_rules!` is visible textually after its definition)."""
    data: bytes = b""
    """The text of the file that defines it (the rules' nodes point into it)."""
    file: int = 0


@dataclass(slots=True)
class FileItems:
    """What the analyzer needs to know about a file's items."""

    functions: list[FunctionDecl] = field(default_factory=list[FunctionDecl])
    constants: list[FunctionDecl] = field(default_factory=list[FunctionDecl])
    imports: dict[str, tuple[str, ...]] = field(default_factory=dict[str, tuple[str, ...]])
    """Flat `name -> crate-absolute path` of the file's `use` declarations (for fixes' names)."""
    uses: list[UseDecl] = field(default_factory=list[UseDecl])
    types: list[TypeDecl] = field(default_factory=list[TypeDecl])
    impls: list[ImplDecl] = field(default_factory=list[ImplDecl])
    macros: list[MacroDecl] = field(default_factory=list[MacroDecl])
    externs: list[tuple[Module, str, str]] = field(default_factory=list[tuple[Module, str, str]])
    """`extern crate name as alias;` as (module, name, alias)."""
    mods: list[ModDecl] = field(default_factory=list[ModDecl])
    inline_modules: dict[Module, Visibility] = field(default_factory=dict[Module, Visibility])
    block_scopes: dict[Module, Module] = field(default_factory=dict[Module, Module])
    """Block scopes of function bodies that declare items -> the module around them."""
    skipped_cfg: list[ir.Span] = field(default_factory=list[ir.Span])


@dataclass(slots=True)
class _Container:
    node: Node
    module: Module
    owner: str | None = None
    impl: int | None = None
    trait_name: str | None = None


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
    stack: list[_Container] = [_Container(source.tree.root_node, module)]
    while stack:
        container = stack.pop()
        current = container.module
        pending_attrs: list[Node] = []
        for child in container.node.named_children:
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
            vis = _visibility(child, frag, current)
            if kind in ("function_item", "function_signature_item"):
                if kind == "function_item":
                    decl = _declare(child, container, frag, lowerer, vis)
                    items.functions.append(decl)
                    body = child.child_by_field_name("body")
                    if body is not None and _ITEM_WORD.search(
                        source.data, body.start_byte, body.end_byte
                    ):
                        # Items declared inside the body live in a block scope of their own.
                        scope = (*current, f"{{{child.start_byte}}}")
                        decl.scope = scope
                        items.block_scopes[scope] = current
                        stack.extend(_Container(block, scope) for block in _blocks(body))
            elif kind in ("const_item", "static_item"):
                items.constants.append(_constant(child, container, frag, lowerer, vis))
            elif kind == "mod_item":
                name = _name(child, frag)
                body = child.child_by_field_name("body")
                if body is not None:
                    items.inline_modules[(*current, name)] = vis
                    stack.append(_Container(body, (*current, name)))
                else:
                    items.mods.append(ModDecl(current, name, vis))
            elif kind == "foreign_mod_item":
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append(_Container(body, current))
            elif kind == "impl_item":
                _impl(child, container, frag, items, stack)
            elif kind == "trait_item":
                name = _name(child, frag)
                items.types.append(TypeDecl(current, name, "trait", vis))
                body = child.child_by_field_name("body")
                if body is not None:
                    stack.append(_Container(body, current, name, None, name))
            elif kind in ("struct_item", "union_item"):
                items.types.append(_struct(child, current, frag, vis, attrs))
            elif kind == "enum_item":
                items.types.append(_enum(child, current, frag, vis, attrs))
            elif kind == "type_item":
                target = child.child_by_field_name("type")
                aliased = frag.text(target) if target is not None else ""
                items.types.append(
                    TypeDecl(current, _name(child, frag), "alias", vis, aliased=aliased)
                )
            elif kind == "use_declaration":
                argument = child.child_by_field_name("argument")
                if argument is not None:
                    _collect_use(argument, current, frag, vis, items)
            elif kind == "extern_crate_declaration":
                name = _name(child, frag)
                alias_node = child.child_by_field_name("alias")
                alias = frag.text(alias_node) if alias_node is not None else name
                items.externs.append((current, name, alias))
            elif kind == "macro_definition":
                items.macros.append(_macro(child, current, frag, attrs))
    return items


def edit_body(
    items: FileItems, source: SourceFile, start: int, old_end: int, new_end: int
) -> FunctionDecl | None:
    """Bring a file's items up to a new version `source` in place, when its only change is
    inside one function's body (bytes `start`..`old_end` became `start`..`new_end`) and
    declares no item there: every item keeps its declaration, moved to its new node and
    offset. Returns the edited function (its lowered form dropped); None, changing nothing,
    when the edit is not of that kind (the items must be collected again)."""
    root = source.tree.root_node
    changed = source.changed
    if changed is None:
        return None
    decls = [*items.functions, *items.constants]
    touched = [d for d in decls if d.node.start_byte <= old_end and start < d.node.end_byte]
    if len(touched) != 1 or touched[0].kind != "fn" or touched[0].scope is not None:
        return None
    edited = touched[0]
    body = edited.node.child_by_field_name("body")
    if body is None or not body.start_byte < start or not old_end < body.end_byte:
        return None
    delta = new_end - old_end
    new_start, new_stop = edited.node.start_byte, edited.node.end_byte + delta
    # Outside the changed ranges the new tree is the old one moved: the same items.
    if any(a < new_start or b > new_stop for a, b in changed):
        return None
    if any(m.offset >= start for m in items.macros):
        return None  # Textual macro scopes would need their offsets moved too.
    # Each item's node in the new tree, checked to be the same kind of node at the same (moved)
    # place; a keystroke does this for every item of the file, hence the plain loop.
    placed: list[tuple[Node, int]] = []
    new_edited: Node | None = None
    find = root.descendant_for_byte_range
    for decl in decls:
        old_node = decl.node
        a, b = old_node.start_byte, old_node.end_byte
        if decl is edited:
            b += delta
        elif a >= old_end:
            if decl.scope is not None:
                return None  # Its block scope is named by its offset.
            a, b = a + delta, b + delta
        node = find(a, b)
        if (
            node is None
            or node.kind_id != old_node.kind_id
            or node.start_byte != a
            or node.end_byte != b
        ):
            return None
        if decl is edited:
            new_edited = node
        placed.append((node, a))
    new_body = new_edited.child_by_field_name("body") if new_edited is not None else None
    if new_body is None or _ITEM_WORD.search(source.data, new_body.start_byte, new_body.end_byte):
        return None
    for lowerer in {id(d.lowerer): d.lowerer for d in decls}.values():
        lowerer.rebase(source.data)
    for decl, (node, offset) in zip(decls, placed, strict=True):
        decl.node = node
        decl.anchor.base = offset
    edited.lowerer.expanded -= edited.expanded
    edited.expanded = frozenset()
    edited.drop_lowered()

    def moved(span: ir.Span) -> ir.Span:
        if span.start < old_end:
            return span
        return ir.Span(span.rel_start + delta, span.rel_end + delta, span.file, span.anchor)

    items.skipped_cfg = [moved(span) for span in items.skipped_cfg]
    items.uses = [
        u if u.span.start < old_end else replace(u, span=moved(u.span)) for u in items.uses
    ]
    return edited


_ITEM_WORD = re.compile(rb"\b(?:fn|use|const|static|struct|enum|trait|impl|mod|macro_rules!)\b")
"""Words that may start an item inside a function body (a cheap test before walking it)."""
_NO_BLOCKS = frozenset({"function_item", "line_comment", "block_comment", "string_literal"})


def _blocks(body: Node) -> list[Node]:
    """The blocks inside a function body (itself included), not those of nested functions."""
    found: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "block":
            found.append(node)
        stack.extend(c for c in node.named_children if c.type not in _NO_BLOCKS)
    return found


def _name(node: Node, frag: Frag) -> str:
    name = node.child_by_field_name("name")
    return frag.text(name) if name is not None else "?"


def _visibility(node: Node, frag: Frag, module: Module) -> Visibility:
    for child in node.children:
        if child.type == "visibility_modifier":
            return _restricted("".join(frag.text(child).split()), module)
        if child.is_named and child.type not in ("attribute_item", "line_comment"):
            break
    return "private"


def _restricted(text: str, module: Module) -> Visibility:
    """`pub`, `pub(crate)`, `pub(self)`, `pub(super)`, `pub(in path)` written in `module`."""
    if text == "pub":
        return "pub"
    inner = text.removeprefix("pub(").removesuffix(")")
    if inner == "crate":
        return "crate"
    if inner == "self":
        return "private"
    if inner == "super":
        return "in:" + "::".join(module[:-1] or module)
    if inner.startswith("in"):
        path = tuple(p for p in inner[2:].split("::") if p)
        return "in:" + "::".join(absolute(path, module)) if path else "crate"
    return "crate"


def _declare(
    node: Node, container: _Container, frag: Frag, lowerer: BodyLowerer, vis: Visibility
) -> FunctionDecl:
    params = node.child_by_field_name("parameters")
    # `self` can only come first; asking for one child avoids building the whole list.
    first = params.named_child(0) if params is not None and params.named_child_count else None
    has_self = first is not None and first.type == "self_parameter"
    mut_self = (
        has_self and first is not None and "&" in frag.text(first) and "mut" in frag.text(first)
    )
    ret = node.child_by_field_name("return_type")
    return FunctionDecl(
        _name(node, frag),
        container.owner,
        container.module,
        has_self,
        node,
        lowerer,
        frag.file,
        vis=vis,
        impl=container.impl,
        trait_name=container.trait_name,
        return_type=frag.text(ret) if ret is not None else "",
        mut_self=mut_self,
    )


def _constant(
    node: Node, container: _Container, frag: Frag, lowerer: BodyLowerer, vis: Visibility
) -> FunctionDecl:
    declared = node.child_by_field_name("type")
    return FunctionDecl(
        _name(node, frag),
        container.owner,
        container.module,
        False,
        node,
        lowerer,
        frag.file,
        kind="const",
        vis=vis,
        impl=container.impl,
        trait_name=container.trait_name,
        return_type=frag.text(declared) if declared is not None else "",
    )


def _impl(
    node: Node, container: _Container, frag: Frag, items: FileItems, stack: list[_Container]
) -> None:
    type_node = node.child_by_field_name("type")
    trait_node = node.child_by_field_name("trait")
    body = node.child_by_field_name("body")
    if type_node is None or body is None:
        return
    self_type = frag.text(type_node)
    trait_path = frag.text(trait_node) if trait_node is not None else None
    index = len(items.impls)
    items.impls.append(ImplDecl(container.module, self_type, trait_path))
    owner = type_name(self_type)
    stack.append(_Container(body, container.module, owner or None, index, None))


def type_name(text: str) -> str:
    """The last path segment of a written type, without generics or references: the name
    field summaries key a type by (`&mut Learner<B>` -> "Learner")."""
    text = text.strip().lstrip("&").strip()
    if text.startswith("mut "):
        text = text[4:]
    return text.split("<")[0].strip().split("::")[-1].strip()


def _derives(attrs: list[Node], frag: Frag) -> frozenset[str]:
    found: set[str] = set()
    for attr in attrs:
        text = frag.text(attr)
        inner = text[text.find("[") + 1 : text.rfind("]")].strip()
        if inner.startswith("derive(") and inner.endswith(")"):
            found.update(part.strip().split("::")[-1] for part in inner[7:-1].split(","))
    return frozenset(found)


Shape = Literal["named", "tuple", "unit"]


def _fields(body: Node | None, frag: Frag) -> tuple[tuple[tuple[str, str], ...], Shape]:
    if body is None:
        return (), "unit"
    if body.type == "ordered_field_declaration_list":
        types = body.children_by_field_name("type")
        return tuple((str(i), frag.text(t)) for i, t in enumerate(types)), "tuple"
    fields: list[tuple[str, str]] = []
    for child in body.named_children:
        if child.type == "field_declaration":
            name = child.child_by_field_name("name")
            declared = child.child_by_field_name("type")
            if name is not None and declared is not None:
                fields.append((frag.text(name), frag.text(declared)))
    return tuple(fields), "named"


def _struct(node: Node, module: Module, frag: Frag, vis: Visibility, attrs: list[Node]) -> TypeDecl:
    fields, shape = _fields(node.child_by_field_name("body"), frag)
    kind: TypeKind = "union" if node.type == "union_item" else "struct"
    return TypeDecl(
        module,
        _name(node, frag),
        kind,
        vis,
        fields,
        shape,
        _derives(attrs, frag),
    )


def _enum(node: Node, module: Module, frag: Frag, vis: Visibility, attrs: list[Node]) -> TypeDecl:
    variants: list[tuple[str, Shape]] = []
    body = node.child_by_field_name("body")
    for child in body.named_children if body is not None else ():
        if child.type == "enum_variant":
            _, shape = _fields(child.child_by_field_name("body"), frag)
            variants.append((_name(child, frag), shape))
    return TypeDecl(
        module,
        _name(node, frag),
        "enum",
        vis,
        derives=_derives(attrs, frag),
        variants=tuple(variants),
    )


def _macro(node: Node, module: Module, frag: Frag, attrs: list[Node]) -> MacroDecl:
    rules: list[tuple[Node, Node]] = []
    for child in node.named_children:
        if child.type == "macro_rule":
            left = child.child_by_field_name("left")
            right = child.child_by_field_name("right")
            if left is not None and right is not None:
                rules.append((left, right))
    exported = any("macro_export" in frag.text(attr) for attr in attrs)
    return MacroDecl(
        module, _name(node, frag), tuple(rules), exported, node.start_byte, frag.data, frag.file
    )


def _cfg_allows(attrs: list[Node], frag: Frag, config: BuildConfig) -> bool:
    for attr in attrs:
        text = frag.text(attr)
        inner = text[text.find("[") + 1 : text.rfind("]")].strip()
        is_cfg = inner.startswith("cfg(") and inner.endswith(")")
        if is_cfg and evaluate_cfg(inner[4:-1], config) is False:
            return False
    return True


def _collect_use(node: Node, module: Module, frag: Frag, vis: Visibility, items: FileItems) -> None:
    # `use` trees are shallow; an explicit stack keeps this iterative anyway.
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, ())]
    span = frag.span(node)
    while stack:
        current, base = stack.pop()
        kind = current.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            path = base + _segments(current, frag)
            if path and path[-1] == "self":
                path = path[:-1]
            if path:
                items.uses.append(UseDecl(module, path, path[-1], vis, span))
                items.imports[path[-1]] = absolute(path, module)
        elif kind == "use_as_clause":
            target = current.child_by_field_name("path")
            alias = current.child_by_field_name("alias")
            if target is not None and alias is not None:
                path = base + _segments(target, frag)
                if path and path[-1] == "self":
                    path = path[:-1]
                name = frag.text(alias)
                items.uses.append(UseDecl(module, path, name, vis, span))
                if name != "_":
                    items.imports[name] = absolute(path, module)
        elif kind == "use_wildcard":
            prefix = tuple(
                segment for child in current.named_children for segment in _segments(child, frag)
            )
            items.uses.append(UseDecl(module, base + prefix, None, vis, span))
        elif kind == "scoped_use_list":
            path_node = current.child_by_field_name("path")
            list_node = current.child_by_field_name("list")
            new_base = base + (_segments(path_node, frag) if path_node is not None else ())
            if list_node is not None:
                stack.extend((child, new_base) for child in list_node.named_children)
        elif kind == "use_list":
            stack.extend((child, base) for child in current.named_children)


def absolute(path: tuple[str, ...], module: Module) -> tuple[str, ...]:
    """A path written in `module` with leading `self`/`super`/`crate` made crate-absolute
    (rooted at `module`'s crate)."""
    if not path:
        return path
    if path[0] == "crate":
        return (module[0], *path[1:])
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
