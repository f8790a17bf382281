"""Name resolution: one DefMap over the crates of a program, computed to a fixpoint.

Modelled on rust-analyzer's `hir-def` name resolution: every module gets a scope with a type,
a value and a macro namespace; items declared in a module go in first; `use` declarations are
then resolved again and again until nothing changes, because an import may name something that
only a later import (or a glob) brings into scope. Explicit items and imports shadow names that
a glob brings in, as in rustc; a glob brings in what the importing module may see (public items,
crate-visible items inside the crate, and private ones only in the module and its descendants),
including what the source module itself imports, so `pub use` chains and glob re-exports
(preludes) resolve. A path whose first segment names nothing here is another crate's (burn's,
std's): it resolves to an `extern` definition that keeps the path as written, for the API model.

Types: a written type resolves to a *type key*, the canonical path of a struct, enum, union or
trait (`crate::model::Learner`); aliases, references and smart pointers are seen through. Methods
are found by receiver type the way `hir-ty` does it: inherent impls first, then the trait impls
of the type, then the default methods of the traits it implements.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from burnlint.analysis.semantics.items import (
    FileItems,
    FunctionDecl,
    MacroDecl,
    Module,
    TypeDecl,
    UseDecl,
    Visibility,
)

DefKind = Literal["mod", "fn", "const", "type", "ctor", "variant", "assoc", "extern", "macro"]
Namespace = Literal["types", "values", "macros"]
NAMESPACES: tuple[Namespace, ...] = ("types", "values", "macros")
MAX_GLOB_DEPTH = 32
"""Globs of globs are followed this deep (a pathological chain stops here)."""
POINTERS = frozenset({"Box", "Arc", "Rc", "RefCell", "Cell", "Mutex", "RwLock", "Cow", "Pin"})
"""Wrappers a method call sees through (auto-deref) when it looks for the receiver's type."""


@dataclass(frozen=True, slots=True)
class Def:
    """What a name resolves to: a module, function, constant, type, constructor, enum variant,
    associated item (`Type::name`), macro, or a path of another crate (`extern`)."""

    kind: DefKind
    path: tuple[str, ...]

    @property
    def key(self) -> str:
        """The canonical path as one string (a type key for types)."""
        return "::".join(self.path)


@dataclass(slots=True)
class _Binding:
    target: Def
    vis: Visibility
    glob: bool
    item: bool = False
    """Declared here (not imported): nothing imported can replace it."""


@dataclass(slots=True)
class _Scope:
    names: dict[Namespace, dict[str, _Binding]] = field(
        default_factory=lambda: {ns: dict[str, _Binding]() for ns in NAMESPACES}
    )
    globs: list[tuple[Module, Visibility]] = field(default_factory=list[tuple[Module, Visibility]])
    extern_globs: list[tuple[str, ...]] = field(default_factory=list[tuple[str, ...]])

    def put(self, ns: Namespace, name: str, binding: _Binding) -> None:
        """Bind `name` in `ns` (replacing what was there)."""
        self.names[ns][name] = binding


@dataclass(slots=True)
class _Impl:
    module: Module
    self_type: str | None
    trait_key: str | None
    members: dict[str, list[FunctionDecl]]


class _Wait(Exception):
    """A path cannot be decided yet: a glob still being resolved may bring its name in."""


@dataclass(frozen=True, slots=True)
class CrateUnit:
    """One file's items and where they live, as the DefMap is built from them."""

    module: Module
    items: FileItems


class DefMap:
    """Every module scope of the program's crates, resolved to a fixpoint."""

    def __init__(self, units: Iterable[CrateUnit], crate_deps: dict[str, dict[str, str]]) -> None:
        self._scopes: dict[Module, _Scope] = {}
        self._deps = crate_deps
        """For each crate (its root segment), the crates it may name: extern name -> root."""
        self._functions: dict[tuple[str, ...], list[FunctionDecl]] = {}
        self._constants: dict[tuple[str, ...], list[FunctionDecl]] = {}
        self._types: dict[tuple[str, ...], TypeDecl] = {}
        self._macros: dict[tuple[str, ...], MacroDecl] = {}
        self._impls: list[_Impl] = []
        self._inherent: dict[str, dict[str, list[FunctionDecl]]] = {}
        self._trait_impls: dict[str, list[_Impl]] = {}
        self._impls_of_trait: dict[str, list[_Impl]] = {}
        self._trait_members: dict[str, dict[str, list[FunctionDecl]]] = {}
        self._extern_aliases: dict[str, dict[str, str]] = {}
        self._macro_names: set[str] = set()
        self._crate_macro_list: dict[tuple[str, str], list[MacroDecl]] = {}
        self._resolved: dict[tuple[Module, tuple[str, ...], Namespace], Def | None] = {}
        self._types_memo: dict[tuple[Module, str, str | None, bool], str | None] = {}
        self._expanded: dict[tuple[Module, tuple[str, ...]], tuple[tuple[str, ...], ...]] = {}
        self._memo: dict[tuple[Module, str, Namespace], _Binding | None] | None = None
        """Lookups through globs, remembered once imports are resolved (None until then)."""
        units = list(units)
        self._bindable: set[str] = set()
        """Every name anything in the program binds: a path starting with another name can only
        be another crate's, so its import need not wait for globs."""
        self._declare(units)
        self._resolve_imports([use for unit in units for use in unit.items.uses])
        self._index_impls(units)

    # ---- building -----------------------------------------------------------------------

    def _scope(self, module: Module) -> _Scope:
        scope = self._scopes.get(module)
        if scope is None:
            scope = self._scopes[module] = _Scope()
            if len(module) > 1:
                parent = self._scope(module[:-1])
                if module[-1] not in parent.names["types"]:
                    parent.put(
                        "types", module[-1], _Binding(Def("mod", module), "pub", False, True)
                    )
        return scope

    def _define(
        self, module: Module, ns: Namespace, name: str, target: Def, vis: Visibility
    ) -> None:
        scope = self._scope(module)
        old = scope.names[ns].get(name)
        if old is None or not old.item or old.target.kind == "mod":
            scope.put(ns, name, _Binding(target, vis, False, True))

    def _declare(self, units: list[CrateUnit]) -> None:
        for unit in units:
            items = unit.items
            self._scope(unit.module)
            for module, vis in items.inline_modules.items():
                self._scope(module)
                self._scope(module[:-1]).put(
                    "types", module[-1], _Binding(Def("mod", module), vis, False, True)
                )
            for scope, around in items.block_scopes.items():
                # A block sees its module's names (privately, as a descendant would).
                self._scope(scope).globs.append((around, "private"))
            for mod in items.mods:
                child = (*mod.parent, mod.name)
                self._scope(child)
                self._scope(mod.parent).put(
                    "types", mod.name, _Binding(Def("mod", child), mod.vis, False, True)
                )
            for decl in items.functions:
                if decl.owner is None and decl.impl is None and not decl.build_off:
                    path = (*decl.module, decl.name)
                    self._functions.setdefault(path, []).append(decl)
                    self._define(decl.module, "values", decl.name, Def("fn", path), decl.vis)
            for decl in items.constants:
                if decl.owner is None and decl.impl is None:
                    path = (*decl.module, decl.name)
                    self._constants.setdefault(path, []).append(decl)
                    self._define(decl.module, "values", decl.name, Def("const", path), decl.vis)
            for decl in items.types:
                path = (*decl.module, decl.name)
                self._types.setdefault(path, decl)
                self._define(decl.module, "types", decl.name, Def("type", path), decl.vis)
                if decl.kind == "struct" and decl.shape != "named":
                    self._define(decl.module, "values", decl.name, Def("ctor", path), decl.vis)
            for macro in items.macros:
                self._macro_names.add(macro.name)
                self._crate_macro_list.setdefault((macro.module[0], macro.name), []).append(macro)
                own = (*macro.module, macro.name)
                self._macros[own] = macro
                self._define(macro.module, "macros", macro.name, Def("macro", own), "private")
                if macro.exported:
                    root = (macro.module[0],)
                    self._macros.setdefault((*root, macro.name), macro)
                    self._define(
                        root, "macros", macro.name, Def("macro", (*root, macro.name)), "pub"
                    )
            for module, name, alias in items.externs:
                self._extern_aliases.setdefault(module[0], {})[alias] = name

    def _resolve_imports(self, uses: list[UseDecl]) -> None:
        for scope in self._scopes.values():
            for names in scope.names.values():
                self._bindable.update(names)
        self._bindable.update(use.alias or "" for use in uses)
        for deps in self._deps.values():
            self._bindable.update(deps)
        for aliases in self._extern_aliases.values():
            self._bindable.update(aliases)
        pending = list(uses)
        final = False
        while pending:
            progress = False
            waiting: list[UseDecl] = []
            for use in pending:
                try:
                    done = self._import(use, final)
                except _Wait:
                    done = False
                if done:
                    progress = True
                else:
                    waiting.append(use)
            pending = waiting
            if progress:
                final = False
            elif final:
                break
            else:
                # Nothing more can come in through globs: what is still unknown is another
                # crate's path (or names nothing).
                final = True
        self._memo = {}

    def _import(self, use: UseDecl, final: bool) -> bool:
        if use.alias is None:
            target = self._walk(use.module, use.path, "types", final, importing=True)
            if target is None:
                return final
            scope = self._scope(use.module)
            if target.kind == "mod":
                if (target.path, use.vis) not in scope.globs and target.path != use.module:
                    scope.globs.append((target.path, use.vis))
            elif target.kind == "type" and (decl := self._types.get(target.path)) is not None:
                for variant, shape in decl.variants:
                    found = Def("variant", (*target.path, variant))
                    self._bind_glob(use.module, "types", variant, found, use.vis)
                    if shape != "named":
                        self._bind_glob(use.module, "values", variant, found, use.vis)
            elif target.kind == "extern":
                scope.extern_globs.append(target.path)
            return True
        resolved: dict[Namespace, Def] = {}
        waiting = False
        for ns in NAMESPACES:
            try:
                found = self._walk(use.module, use.path, ns, final, importing=True)
            except _Wait:
                waiting = True
                continue
            if found is not None:
                resolved[ns] = found
        if not resolved:
            if waiting:
                raise _Wait
            return final
        if use.alias == "_":
            return True
        for ns, target in resolved.items():
            scope = self._scope(use.module)
            old = scope.names[ns].get(use.alias)
            if old is None or old.glob:
                scope.put(ns, use.alias, _Binding(target, use.vis, False))
        return True

    def _bind_glob(
        self, module: Module, ns: Namespace, name: str, target: Def, vis: Visibility
    ) -> bool:
        scope = self._scope(module)
        if name in scope.names[ns]:
            return False
        scope.put(ns, name, _Binding(target, vis, True))
        self._bindable.add(name)
        return True

    @staticmethod
    def _visible(vis: Visibility, owner: Module, viewer: Module) -> bool:
        if vis == "pub":
            return True
        if vis == "crate":
            return owner[0] == viewer[0]
        if vis.startswith("in:"):
            within = tuple(vis[3:].split("::"))
            return viewer[: len(within)] == within
        return viewer[: len(owner)] == owner

    def _index_impls(self, units: list[CrateUnit]) -> None:
        for unit in units:
            items = unit.items
            members: dict[int, dict[str, list[FunctionDecl]]] = {}
            for decl in (*items.functions, *items.constants):
                if decl.impl is not None and not decl.build_off:
                    members.setdefault(decl.impl, {}).setdefault(decl.name, []).append(decl)
                elif decl.trait_name is not None and decl.impl is None:
                    trait = self.resolve_type(decl.module, decl.trait_name)
                    if trait is not None:
                        decl.self_type = trait
                        self._trait_members.setdefault(trait, {}).setdefault(decl.name, []).append(
                            decl
                        )
            for index, impl in enumerate(items.impls):
                self_type = self.resolve_type(impl.module, impl.self_type)
                trait_key: str | None = None
                if impl.trait_path is not None:
                    trait_key = self.resolve_type(impl.module, impl.trait_path, extern=True)
                found = _Impl(impl.module, self_type, trait_key, members.get(index, {}))
                self._impls.append(found)
                for decls in found.members.values():
                    for decl in decls:
                        decl.self_type = self_type
                if self_type is None:
                    continue
                if trait_key is None:
                    inherent = self._inherent.setdefault(self_type, {})
                    for name, decls in found.members.items():
                        inherent.setdefault(name, []).extend(decls)
                else:
                    self._trait_impls.setdefault(self_type, []).append(found)
                    self._impls_of_trait.setdefault(trait_key, []).append(found)

    # ---- queries ------------------------------------------------------------------------

    def _binding(self, module: Module, name: str, ns: Namespace) -> _Binding | None:
        """What `name` is bound to in `module`: its own items and explicit imports first, then
        what its globs bring in (looked up through them, never copied: a prelude glob of a
        large module costs nothing until a name is asked for)."""
        if name not in self._bindable:
            # Nothing in the program binds this name (`Vec`, `std`, `burn`): no lookup needed.
            return None
        memo = self._memo
        key = (module, name, ns)
        if memo is not None and key in memo:
            return memo[key]
        found: _Binding | None = None
        scope = self._scopes.get(module)
        if scope is not None:
            found = scope.names[ns].get(name)
            if found is None and scope.globs:
                found = self._through_globs(module, name, ns)
        if memo is not None:
            memo[key] = found
        return found

    def _through_globs(self, module: Module, name: str, ns: Namespace) -> _Binding | None:
        """The binding the globs of `module` bring in for `name`: the nearest ones (a glob's
        own names before what its globs bring in); two different items at that distance are
        ambiguous, as in rustc, and give None (unknown)."""
        seen = {module}
        level: list[tuple[Module, Visibility]] = list(self._scopes[module].globs)
        for _ in range(MAX_GLOB_DEPTH):
            found: list[_Binding] = []
            deeper: list[tuple[Module, Visibility]] = []
            for source, vis in level:
                if source in seen:
                    continue
                seen.add(source)
                scope = self._scopes.get(source)
                if scope is None:
                    continue
                binding = scope.names[ns].get(name)
                if binding is None:
                    deeper.extend((inner, _narrow(vis, v)) for inner, v in scope.globs)
                elif self._visible(binding.vis, source, module):
                    found.append(_Binding(binding.target, _narrow(vis, binding.vis), True))
            if found:
                targets = {binding.target for binding in found}
                return found[0] if len(targets) == 1 else None
            if not deeper:
                return None
            level = deeper
        return None

    def _lookup(self, module: Module, name: str, ns: Namespace) -> Def | None:
        binding = self._binding(module, name, ns)
        if binding is not None:
            return binding.target
        if ns == "types":
            crate = module[0]
            dep = self._deps.get(crate, {}).get(name)
            if dep is None:
                original = self._extern_aliases.get(crate, {}).get(name)
                if original is not None:
                    dep = self._deps.get(crate, {}).get(original)
                    if dep is None:
                        return Def("extern", (original,))
            if dep is not None:
                return Def("mod", (dep,))
        return None

    def _walk(
        self,
        module: Module,
        path: tuple[str, ...],
        ns: Namespace,
        final: bool = True,
        importing: bool = False,
    ) -> Def | None:
        """What `path` written in `module` names in namespace `ns` (of its last segment).

        While imports are being resolved (`importing`), a name that is not there yet raises
        `_Wait`: a later import may bring it in. Once nothing more comes in (`final`), a first
        segment that names nothing here is another crate's."""
        if not path:
            return None
        first = path[0]
        rest = path[1:]
        current: Def | None
        if first in ("self", "super"):
            module = _enclosing_module(module)
        if first == "crate":
            current = Def("mod", (module[0],))
        elif first == "self":
            current = Def("mod", module)
        elif first == "super":
            base = module[:-1] if len(module) > 1 else module
            while rest and rest[0] == "super":
                base = base[:-1] if len(base) > 1 else base
                rest = rest[1:]
            current = Def("mod", base)
        else:
            current = self._lookup(module, first, "types" if rest else ns)
            if current is None and rest:
                current = self._lookup(module, first, "values")
            if current is None:
                if importing and not final and first in self._bindable:
                    raise _Wait
                rooted = (module[0], first)
                if rooted in self._scopes and module[0] == "crate":
                    # A 2015-edition path: `use a::b` meant `crate::a::b`.
                    current = Def("mod", rooted)
                else:
                    return Def("extern", path)
        if not rest:
            return current if current.kind != "mod" or ns == "types" else None
        for index, segment in enumerate(rest):
            last = index == len(rest) - 1
            want: Namespace = ns if last else "types"
            current = self._step(current, segment, want, importing)
            if current is None:
                return None
        return current

    def _step(self, current: Def, segment: str, ns: Namespace, importing: bool) -> Def | None:
        if current.kind == "extern":
            return Def("extern", (*current.path, segment))
        if current.kind == "mod":
            found = self._lookup_in(current.path, segment, ns)
            if found is None and importing:
                raise _Wait
            return found
        if current.kind == "type":
            decl = self._types.get(current.path)
            if (
                decl is not None
                and decl.kind == "enum"
                and any(name == segment for name, _ in decl.variants)
            ):
                return Def("variant", (*current.path, segment))
            if decl is not None and decl.kind == "alias":
                aliased = self.resolve_type(decl.module, decl.aliased)
                if aliased is not None:
                    return Def("assoc", (*aliased.split("::"), segment))
            return Def("assoc", (*current.path, segment))
        return None

    def _lookup_in(self, module: Module, name: str, ns: Namespace) -> Def | None:
        binding = self._binding(module, name, ns)
        return binding.target if binding is not None else None

    def resolve(
        self, module: Module, path: tuple[str, ...], ns: Namespace = "values"
    ) -> Def | None:
        """What an expression or type path written in `module` names, or None (unknown)."""
        key = (module, path, ns)
        if key in self._resolved:
            return self._resolved[key]
        try:
            found = self._walk(module, path, ns)
        except _Wait:  # pragma: no cover - only raised while imports are resolved
            found = None
        if self._memo is not None:
            self._resolved[key] = found
        return found

    def expand(self, module: Module, path: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """What `path` may stand for, for the API model (which matches burn's paths by suffix):
        its first segment replaced by what it names (`Ctx::Disabled` -> `burn::..::
        DispatchAutodiffContext::Disabled` when `Ctx` is imported, directly, by a glob or
        through re-exports); a name nothing here binds may come from a glob of another crate's
        module or enum (`use burn::..::DispatchAutodiffContext::*; Disabled`): one candidate
        per such glob, then the path as written."""
        key = (module, path)
        found = self._expanded.get(key)
        if found is None:
            found = self._expand(module, path)
            if self._memo is not None:
                # Asked at every call the interpreter meets (the same paths again and again).
                self._expanded[key] = found
        return found

    def _expand(self, module: Module, path: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        first = path[0] if path else "crate"
        if first in ("crate", "self", "super", "Self"):
            return (path,)
        for ns in ("types", "values") if len(path) > 1 else ("values", "types"):
            found = self._lookup(module, first, ns)
            if found is not None:
                if found.kind == "extern":
                    return ((*found.path, *path[1:]),)
                return ((*found.path, *path[1:]) if found.kind != "mod" else path,)
        globs = self._extern_globs(module)
        return (*((*glob, *path) for glob in globs), path)

    def _extern_globs(self, module: Module) -> list[tuple[str, ...]]:
        """Other crates' modules and enums `module` glob-imports, directly or through its own
        globs (a prelude's `pub use burn::..::*`)."""
        found: list[tuple[str, ...]] = []
        seen: set[Module] = set()
        stack = [module]
        while stack and len(seen) < MAX_GLOB_DEPTH * 4:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            scope = self._scopes.get(current)
            if scope is None:
                continue
            found.extend(g for g in scope.extern_globs if g not in found)
            stack.extend(source for source, _ in scope.globs)
        return found

    def functions(self, target: Def) -> list[FunctionDecl]:
        """The functions a resolved value path names (free functions and associated ones)."""
        if target.kind == "fn":
            return self._functions.get(target.path, [])
        if target.kind == "assoc":
            owner, name = "::".join(target.path[:-1]), target.path[-1]
            return [d for d in self.associated(owner, name) if d.kind == "fn"]
        return []

    def constants(self, target: Def) -> list[FunctionDecl]:
        """The constants or statics a resolved value path names."""
        if target.kind == "const":
            return self._constants.get(target.path, [])
        if target.kind == "assoc":
            owner, name = "::".join(target.path[:-1]), target.path[-1]
            return [d for d in self.associated(owner, name) if d.kind == "const"]
        return []

    def associated(self, type_key: str, name: str) -> list[FunctionDecl]:
        """`Type::name`: inherent items first, then the type's trait impls, then the default
        members of the traits it implements; for a trait, its single implementation's member
        (several implementations: unknown, the receiver decides)."""
        inherent = self._inherent.get(type_key, {}).get(name)
        if inherent:
            return inherent
        found: list[FunctionDecl] = []
        for impl in self._trait_impls.get(type_key, []):
            found.extend(impl.members.get(name, []))
        if found:
            return found
        for impl in self._trait_impls.get(type_key, []):
            if impl.trait_key is not None:
                found.extend(self._trait_members.get(impl.trait_key, {}).get(name, []))
        if found:
            return found
        if type_key in self._trait_members or type_key in self._impls_of_trait:
            impls = self._impls_of_trait.get(type_key, [])
            providers = [impl for impl in impls if name in impl.members]
            if len(impls) == 1 and providers:
                return providers[0].members[name]
            if not impls:
                return self._trait_members.get(type_key, {}).get(name, [])
        return []

    def trait_member(self, type_key: str, trait_key: str, name: str) -> list[FunctionDecl]:
        """`<Type as Trait>::name`: the impl's member, else the trait's default."""
        for impl in self._trait_impls.get(type_key, []):
            if impl.trait_key == trait_key and name in impl.members:
                return impl.members[name]
        return self._trait_members.get(trait_key, {}).get(name, [])

    def methods(
        self, type_keys: Iterable[str], name: str, trait_key: str | None = None
    ) -> list[FunctionDecl]:
        """The methods `receiver.name(..)` reaches for a receiver of one of `type_keys`."""
        found: list[FunctionDecl] = []
        for key in type_keys:
            if trait_key is not None:
                members = self.trait_member(key, trait_key, name)
            else:
                members = self.associated(key, name)
            found.extend(d for d in members if d.kind == "fn" and d.has_self and d not in found)
        return found

    def is_local_type(self, type_key: str) -> bool:
        """Whether a type key names a type of this program (not burn's or std's)."""
        return tuple(type_key.split("::")) in self._types

    def type_decl(self, type_key: str) -> TypeDecl | None:
        """The declaration of a program type."""
        return self._types.get(tuple(type_key.split("::")))

    def has_trait_impls(self, trait_key: str) -> bool:
        """Whether the program implements or declares the trait (so its methods are known)."""
        return trait_key in self._impls_of_trait or trait_key in self._trait_members

    def resolve_type(
        self, module: Module, text: str, self_type: str | None = None, extern: bool = False
    ) -> str | None:
        """The type key a written type names (through references, smart pointers and aliases);
        None for a type that is not the program's (unless `extern`: then its written path)."""
        key = (module, text, self_type, extern)
        if self._memo is not None:
            if key in self._types_memo:
                return self._types_memo[key]
            found = self._resolve_type(module, text, self_type, extern)
            self._types_memo[key] = found
            return found
        return self._resolve_type(module, text, self_type, extern)

    def _resolve_type(
        self, module: Module, text: str, self_type: str | None, extern: bool
    ) -> str | None:
        for _ in range(8):
            text = _strip_type(text)
            if not text:
                return None
            base, args = _split_generic(text)
            last = base.split("::")[-1]
            if last in POINTERS and args:
                text = args[0]
                continue
            if base == "Self":
                return self_type
            path = tuple(part for part in base.split("::") if part)
            target = self.resolve(module, path, "types")
            if target is None:
                return None
            if target.kind == "extern":
                return "::".join(target.path) if extern else None
            if target.kind != "type":
                return None
            decl = self._types.get(target.path)
            if decl is not None and decl.kind == "alias":
                module, text = decl.module, decl.aliased
                continue
            return target.key
        return None

    def option_payload(self, module: Module, text: str, self_type: str | None) -> str | None:
        """The program type `T` a written `Option<T>` (or `&Option<T>`) holds, if it is one."""
        base, args = _split_generic(_strip_type(text))
        if base.split("::")[-1] != "Option" or len(args) != 1:
            return None
        return self.resolve_type(module, args[0], self_type)

    def field_type(self, type_key: str, name: str) -> tuple[Module, str] | None:
        """Where a struct field's type is written, and how."""
        decl = self._types.get(tuple(type_key.split("::")))
        if decl is None:
            return None
        for field_name, text in decl.fields:
            if field_name == name:
                return decl.module, text
        return None

    def macro(
        self, module: Module, path: tuple[str, ...], file: int = -1, offset: int = -1
    ) -> MacroDecl | None:
        """The `macro_rules!` an invocation at `offset` of unit `file` (in `module`) names.

        A bare name follows `macro_rules!` textual scoping: the latest definition above it in
        the same file, else one of an enclosing module, else an exported one, else any of the
        crate's (a definition elsewhere reached through `#[macro_use]`)."""
        if not path or path[-1] not in self._macro_names:
            return None
        if len(path) == 1:
            name = path[0]
            local = [
                m
                for m in self._crate_macro_list.get((module[0], name), [])
                if m.file == file and m.offset < offset
            ]
            if local:
                return max(local, key=lambda m: m.offset)
            enclosing = [
                m
                for m in self._crate_macro_list.get((module[0], name), [])
                if m.file != file and module[: len(m.module)] == m.module
            ]
            if enclosing:
                return max(enclosing, key=lambda m: len(m.module))
        target = self.resolve(module, path, "macros")
        if target is not None and target.kind == "macro":
            found = self._macros.get(target.path)
            if found is not None:
                return found
        if len(path) == 1:
            defined = self._crate_macro_list.get((module[0], path[0]))
            return defined[0] if defined else None
        return None


def _enclosing_module(scope: Module) -> Module:
    """The module a block scope is in (`self` and `super` name modules, not blocks)."""
    end = len(scope)
    while end > 1 and scope[end - 1].startswith("{"):
        end -= 1
    return scope[:end]


def _narrow(import_vis: Visibility, item_vis: Visibility) -> Visibility:
    def rank(vis: Visibility) -> int:
        return {"private": 0, "crate": 2, "pub": 3}.get(vis, 1)

    return import_vis if rank(import_vis) <= rank(item_vis) else item_vis


def _strip_type(text: str) -> str:
    text = text.strip()
    while True:
        if text.startswith("&"):
            text = text[1:].lstrip()
            if text.startswith("'"):
                text = text.split(None, 1)[1] if " " in text else ""
            continue
        if text.startswith("mut "):
            text = text[4:].lstrip()
            continue
        if text.startswith(("dyn ", "impl ", "(", "[", "*", "fn(", "fn ")):
            return ""
        return text.removeprefix("::")


def _split_generic(text: str) -> tuple[str, list[str]]:
    """`a::B<C, D<E>>` -> ("a::B", ["C", "D<E>"])."""
    start = text.find("<")
    if start < 0:
        return text.strip(), []
    base = text[:start].strip().removesuffix("::")
    inner = text[start + 1 : text.rfind(">")] if ">" in text else text[start + 1 :]
    args: list[str] = []
    depth = 0
    current = ""
    for char in inner:
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            args.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        args.append(current.strip())
    return base, [a for a in args if not a.startswith("'")]
