"""A crate (or a lone file) as the analyzer sees it: files, modules, functions, on-demand summaries.

Function summaries are computed when a call first needs them (callees before callers, whatever
the file order), memoized for the program's lifetime, and cut at recursion (a function being
summarized is "unknown" to the calls inside it). Struct fields get a flow-insensitive summary:
the join of everything any method of the type stores in the field.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from tree_sitter import Node

from burnlint.analysis import cputime
from burnlint.analysis.interp.bindings import BindingLog
from burnlint.analysis.interp.calls import Context, Summary
from burnlint.analysis.interp.effects import effect_value
from burnlint.analysis.interp.interpreter import THRIFTY_TICKS, Budget, Interpreter
from burnlint.analysis.interp.observe import ObservationKey
from burnlint.analysis.interp.sinks import Observation
from burnlint.analysis.interp.valueops import (
    holds_numbers_only,
    non_float_tensor,
    none_value,
    struct_value,
    with_none_default,
)
from burnlint.analysis.interp.values import OPAQUE, UNKNOWN_VALUE, Value, join, join_all
from burnlint.analysis.semantics.api import ApiModel
from burnlint.analysis.semantics.defmap import CrateUnit, DefMap
from burnlint.analysis.semantics.items import FileItems, FunctionDecl, Module, edit_body
from burnlint.analysis.syntax.ir import Span
from burnlint.analysis.syntax.lower import LoweringBudget, MacroLookup
from burnlint.analysis.syntax.source import SourceFile

_K = TypeVar("_K")

MAX_RESTABILIZED_STEPS = THRIFTY_TICKS
"""Functions that took more interpreter steps than this are not analyzed again to stabilize:
a function this long ran its loops thrifty (lossy), and a second run costs what it would find."""
MAX_SUMMARY_DEPTH = 24
"""Summaries computed inside summaries, at most; deeper call chains are treated as unknown."""


@dataclass(slots=True)
class Unit:
    """One file of the program."""

    path: Path | None
    shown: str
    source: SourceFile
    module: Module
    items: FileItems
    target: bool = True
    """Whether findings in this file are reported (other files only contribute summaries)."""
    build: str | None = None
    """Whether burn's `autodiff` is on where this file compiles, when its crate differs from
    the program's (another crate of the workspace)."""
    copy: bool = False
    """A copy of a file another target includes (see `CrateFile.copy`)."""


@dataclass(frozen=True, slots=True)
class FunctionText:
    """One function's text and the names it uses, read once per version of the text (name
    relevance and the analyzer's reachability both ask, at every keystroke in an editor)."""

    text: bytes
    words: frozenset[bytes]
    """The words it names (`\\w+` runs, as a bytes `\\b` delimits them): a name is used in
    the text exactly when it is one of them."""
    fields: frozenset[bytes]
    """The fields it reads or writes on `self`."""


class Program:
    """Every unit of one crate, indexed for name resolution, with memoized summaries."""

    def __init__(
        self,
        api: ApiModel,
        era: str,
        units: list[Unit],
        budget_seconds: float,
        build: str = "unknown",
        crate_deps: dict[str, dict[str, str]] | None = None,
        record_states: bool = False,
    ) -> None:
        self.api = api
        self.record_states = record_states
        """Whether analyses keep what names were bound to (`interp.bindings`)."""
        self.era = era
        self.build = build
        self.units = units
        self.budget_seconds = budget_seconds
        self.notes: list[tuple[int, str]] = []
        self._crate_deps = crate_deps or {}
        self._reachable: dict[str, set[str]] = {}
        """For each crate, the crates its code can run (see `_reaches`)."""
        self.defs = DefMap((), self._crate_deps)
        self._by_owner: dict[str, list[FunctionDecl]] = {}
        self._methods: dict[str, list[FunctionDecl]] = {}
        self._relevant: set[int] | None = None
        self._texts: dict[int, FunctionText] = {}
        self._summaries: dict[int, Summary] = {}
        self._observations: dict[int, dict[ObservationKey, Observation]] = {}
        self._bindings: dict[int, BindingLog] = {}
        """What each analysis bound its names to (for display only)."""
        self._in_progress: set[int] = set()
        self._stack: list[int] = []
        self._reads: dict[int, dict[tuple[str, str], Value | None]] = {}
        self._used: dict[int, dict[int, Summary | None]] = {}
        self._fields: dict[tuple[str, str], Value] = {}
        self._owners_done: set[str] = set()
        self._cost: dict[int, int] = {}
        """Interpreter steps each function's last analysis took."""
        self._contexts: dict[tuple[int, str, Module], Context] = {}
        self._depth = 0
        self._decls: dict[int, FunctionDecl] = {}
        """Every live function and constant by id; a replaced file's old ones are removed."""
        self._next_uid = 0
        self._suspect: set[int] = set()
        """Memoized analyses that used a summary recomputed since (see `replace_unit`): each is
        checked against the current summaries of what it used before it is reused."""
        self._constants_used: dict[int, dict[int, Summary | None]] = {}
        """The summaries each analysis read outside calls (constants, hand-written
        `default()`s), as they were when read."""
        self._stores: dict[tuple[str, str], dict[int, Value]] = {}
        """For each field, what each analysis stored in it (joined; -1: stored outside any
        analysis): the field's value is their join, so an analysis that is dropped takes its
        stores out of it, and only the readers of fields that changed are checked again."""
        self._written: dict[int, set[tuple[str, str]]] = {}
        """The fields each analysis stored in."""
        self._users: dict[int, set[int]] = {}
        """For each function, the analyses that used its summary (in calls or constants): kept as
        analyses end, a superset of what their tables say."""
        self._readers: dict[tuple[str, str], set[int]] = {}
        """For each field, the analyses that read it (a superset, like `_users`)."""
        self._unsettled: set[int] = set()
        """The analyses that may have seen a field or a summary that changed since: the only
        ones `stabilize` has to check (a keystroke changes few; a program holds thousands)."""
        self._deadlines: dict[int, float] = {}
        """When the running analyses of each file must stop: set when the first of them
        starts, from what is left of the file's budget (`_spent`), and moved later by the time
        nested summaries of other files take (`_lend_time`)."""
        self._spent: dict[int, float] = {}
        """CPU seconds each file's analyses have taken in this run (since creation or the last
        `replace_unit`), nested summaries of other files left out: one budget per file,
        shared by its functions, however far apart in the run they are analyzed."""
        self._nested: list[float] = []
        """For each analysis on the stack, the time its nested summaries took so far."""
        for unit in units:
            self._number(unit)
        self._rebuild_index()

    def _number(self, unit: Unit) -> None:
        for decl in (*unit.items.functions, *unit.items.constants):
            decl.uid = self._next_uid
            self._next_uid += 1
            self._decls[decl.uid] = decl

    def _rebuild_index(self) -> None:
        """Compute the DefMap again (the program's items changed) and the name indexes kept
        for fields and for method calls whose receiver type is unknown."""
        self.defs = DefMap(
            (CrateUnit(unit.module, unit.items) for unit in self.units), self._crate_deps
        )
        self._by_owner = {}
        self._methods = {}
        self._relevant = None
        for index, unit in enumerate(self.units):
            lookup = self._macro_lookup(unit.module, index)
            for decl in (*unit.items.functions, *unit.items.constants):
                decl.lowerer.macros = lookup
            for decl in unit.items.functions:
                if decl.build_off or decl.owner is None:
                    continue
                self._by_owner.setdefault(decl.owner, []).append(decl)
                if decl.has_self:
                    self._methods.setdefault(decl.name, []).append(decl)

    def _macro_lookup(self, module: Module, file: int) -> MacroLookup:
        defs = self.defs

        def lookup(
            path: tuple[str, ...], offset: int
        ) -> tuple[tuple[tuple[Node, Node], ...], bytes] | None:
            found = defs.macro(module, path, file, offset)
            return (found.rules, found.data) if found is not None and found.rules else None

        return lookup

    def expanded(self, file: int) -> set[Span]:
        """The macro invocations of unit `file` that were analyzed as their expansion."""
        out: set[Span] = set()
        for decl in self.units[file].items.functions:
            out |= decl.lowerer.expanded
        return out

    def replace_unit(self, index: int, unit: Unit) -> set[int]:
        """Swap in a new version of one file and free everything of the old one; returns the
        ids of the analyses dropped (the next `summary` calls recompute them on demand).

        When the file's items are the same (names, signatures, imports, types, macros: only
        bodies changed), each function keeps its id and anchor (moved to its new start); one
        whose text is unchanged, wherever it now is, keeps its lowered form and analysis too
        (their spans are relative to the anchor), and an analysis that used a recomputed
        summary is kept when that summary comes out the same (checked on demand). Otherwise
        every analysis of the program is dropped."""
        old_unit = self.units[index]
        old_decls = [*old_unit.items.functions, *old_unit.items.constants]
        new_decls = [*unit.items.functions, *unit.items.constants]
        self.units[index] = unit
        for decl in old_decls:
            del self._decls[decl.uid]
        stopped = any(f == index and n.startswith("analysis stopped") for f, n in self.notes)
        if stopped or _skeleton(old_unit) != _skeleton(unit):
            # New or renamed items can change what any name of the program resolves to.
            for decl in new_decls:
                decl.uid = self._next_uid
                self._next_uid += 1
                self._decls[decl.uid] = decl
            self._rebuild_index()
            return self._forget_all()
        old_data, new_data = old_unit.source.data, unit.source.data
        changed: set[int] = set()
        for old, new in zip(old_decls, new_decls, strict=True):
            text = new_data[new.node.start_byte : new.node.end_byte]
            if text == old_data[old.node.start_byte : old.node.end_byte]:
                # Same text, maybe moved: its spans are relative to its anchor, which moves.
                new.adopt(old)
            else:
                new.succeed(old)
                changed.add(old.uid)
            self._decls[new.uid] = new
        relevant = self._relevant
        self._rebuild_index()
        return self._drop_changed(index, changed, relevant)

    def edit_body(
        self, index: int, source: SourceFile, start: int, old_end: int, new_end: int
    ) -> set[int] | None:
        """Take a new version of one file whose only change is inside one function's body
        (bytes `start`..`old_end` became `start`..`new_end`), keeping its items and the
        program's index (see `items.edit_body`); returns the ids of the analyses dropped, or
        None, changing nothing, when the edit is not of that kind (see `replace_unit`)."""
        unit = self.units[index]
        if any(f == index and n.startswith("analysis stopped") for f, n in self.notes):
            return None
        edited = edit_body(unit.items, source, start, old_end, new_end)
        if edited is None:
            return None
        unit.source = source
        return self._drop_changed(index, {edited.uid}, self._relevant)

    def _drop_changed(self, index: int, changed: set[int], relevant: set[int] | None) -> set[int]:
        """Drop the analyses of the functions of unit `index` whose text changed, and what
        used them unless it is checked first (see `replace_unit`)."""
        self._relevant = None
        if relevant is not None:
            self._relevant = self._relevant_functions()
            if relevant != self._relevant:
                # Which methods are worth a summary decides what calls resolve to.
                return self._forget_all()
        dropped = set(changed)
        # A dropped analysis takes its stores out of the fields (`_forget`); what read a field
        # that changed is checked again (`stabilize`), nothing else.
        for uid in dropped:
            self._forget(uid)
        # What used a dropped analysis, directly or not, is checked before it is reused.
        stack = list(dropped)
        visited: set[int] = set()
        while stack:
            callee = stack.pop()
            if callee in visited:
                continue
            visited.add(callee)
            for user in self._users.get(callee, ()):
                if (
                    user not in self._suspect
                    and user in self._summaries
                    and (
                        callee in self._used.get(user, ())
                        or callee in self._constants_used.get(user, ())
                    )
                ):
                    self._suspect.add(user)
                    stack.append(user)
        self._contexts = {key: ctx for key, ctx in self._contexts.items() if key[0] != index}
        self.notes = [(file, note) for file, note in self.notes if file != index]
        self._deadlines.clear()
        self._spent.clear()
        return dropped

    def _forget(self, uid: int) -> None:
        """Drop one memoized analysis and what it recorded."""
        if self._summaries.pop(uid, None) is not None:
            self._unsettled.update(self._users.get(uid, ()))
        self._unstore(uid)
        for table in (self._used, self._constants_used):
            for callee in table.get(uid, ()):
                _discard(self._users, callee, uid)
        for key in self._reads.get(uid, ()):
            _discard(self._readers, key, uid)
        self._unsettled.discard(uid)
        self._observations.pop(uid, None)
        self._bindings.pop(uid, None)
        self._used.pop(uid, None)
        self._constants_used.pop(uid, None)
        self._reads.pop(uid, None)
        self._cost.pop(uid, None)
        self._suspect.discard(uid)

    def _forget_all(self) -> set[int]:
        """Drop every memoized analysis (the program's names changed); returns their ids."""
        dropped = set(self._summaries)
        self._summaries.clear()
        self._observations.clear()
        self._bindings.clear()
        self._used.clear()
        self._constants_used.clear()
        self._reads.clear()
        self._cost.clear()
        self._suspect.clear()
        self._users.clear()
        self._readers.clear()
        self._unsettled.clear()
        self._fields.clear()
        self._stores.clear()
        self._written.clear()
        self._owners_done.clear()
        self._contexts.clear()
        self.notes.clear()
        self._deadlines.clear()
        self._spent.clear()
        return dropped

    def _still_valid(self, uid: int) -> bool:
        """Whether a suspect analysis may be reused: every summary it used is the same now."""
        self._suspect.discard(uid)
        for table in (self._used, self._constants_used):
            for callee, seen in list(table.get(uid, {}).items()):
                decl = self._decls.get(callee)
                if decl is None or self.summary(decl) != seen:
                    return False
        return True

    @property
    def decls(self) -> list[FunctionDecl]:
        """Every live function of the program, in file order."""
        return [
            decl for unit in self.units for decl in (*unit.items.functions, *unit.items.constants)
        ]

    @property
    def analyzed(self) -> int:
        """How many function analyses are currently memoized (for tests and statistics)."""
        return len(self._summaries)

    def observations(self, file: int, analyzed_only: bool = False) -> list[Observation]:
        """Everything observed at the sinks of the functions of unit `file` (all of them are
        analyzed first unless `analyzed_only`)."""
        out: list[Observation] = []
        items = self.units[file].items
        for decl in (*items.functions, *items.constants):
            if not analyzed_only:
                self.summary(decl)
            out.extend(self._observations.get(decl.uid, {}).values())
        return out

    def observation_tables(self, file: int) -> list[dict[ObservationKey, Observation]]:
        """The observations of each analyzed function of unit `file`, in file order: one
        table per analysis, never changed once made (a new analysis makes a new table)."""
        items = self.units[file].items
        found = (self._observations.get(d.uid) for d in (*items.functions, *items.constants))
        return [table for table in found if table is not None]

    def binding_logs(self, file: int) -> list[BindingLog]:
        """The binding logs of the current analyses with a site in unit `file` (its own
        functions' names, and its functions' parameters as callers pass them)."""
        return [log for log in self._bindings.values() if file in log.files]

    def binding_log(self, decl: FunctionDecl) -> BindingLog | None:
        """The binding log of `decl`'s current analysis, if it was analyzed."""
        return self._bindings.get(decl.uid)

    def summary(self, decl: FunctionDecl) -> Summary | None:
        """`decl`'s summary, computed on first use; None while it is being computed."""
        found = self._summaries.get(decl.uid)
        if found is not None:
            if decl.uid not in self._suspect:
                return found
            if decl.uid not in self._in_progress and self._still_valid(decl.uid):
                return found
            self._forget(decl.uid)
        if decl.uid in self._in_progress or self._depth >= MAX_SUMMARY_DEPTH:
            return None
        self._suspect.discard(decl.uid)
        self._in_progress.add(decl.uid)
        self._stack.append(decl.uid)
        self._reads[decl.uid] = {}
        self._constants_used[decl.uid] = {}
        self._depth += 1
        build = self.units[decl.file].build or self.build
        context = self._context(decl.file, "off" if decl.build_off else build, decl.names_in)
        file = decl.file
        started = cputime.now()
        if not any(self._decls[uid].file == file for uid in self._stack[:-1]):
            # No analysis of the file is running: it gets what the file's earlier analyses
            # left of its budget, however long ago they ran (a deadline fixed at its first
            # analysis would also count every other file's time since, and stop a cheap
            # function analyzed late in a large crate).
            self._deadlines[file] = started + self.budget_seconds - self._spent.get(file, 0.0)
        self._nested.append(0.0)
        # The budget is the file's: a nested summary of the same file does not extend it, and
        # lowering (as slow as interpreting on a megabyte of dense code) counts too.
        context.deadline = decl.lowerer.deadline = self._deadlines[file]
        interpreter: Interpreter | None = None
        try:
            interpreter = Interpreter(context, decl)
            summary = interpreter.run()
        except (Budget, LoweringBudget):
            summary = Summary()
            if not any(f == decl.file and n.startswith("analysis stopped") for f, n in self.notes):
                self.notes.append(
                    (
                        decl.file,
                        f"analysis stopped in `{decl.name}` after {self.budget_seconds:g}s;"
                        " findings may be incomplete",
                    )
                )
        finally:
            self._depth -= 1
            self._stack.pop()
            self._in_progress.discard(decl.uid)
            elapsed = cputime.now() - started
            nested = self._nested.pop()
            if self._nested:
                self._nested[-1] += elapsed
            self._spent[file] = self._spent.get(file, 0.0) + elapsed - nested
            self._lend_time(file, elapsed)
        self._summaries[decl.uid] = summary
        self._unsettled.update(self._users.get(decl.uid, ()))
        if interpreter is None:
            self._constants_used.pop(decl.uid, None)
        else:
            self._cost[decl.uid] = interpreter.ticks
            self._observations[decl.uid] = interpreter.observer.observations
            if self.record_states:
                self._bindings[decl.uid] = interpreter.observer.bindings
            self._used[decl.uid] = dict(interpreter.calls.used)
        self._note_uses(decl.uid)
        return summary

    def _note_uses(self, uid: int) -> None:
        """Index what analysis `uid` used; it is unsettled already if a summary or field it used
        changed while it ran (a recursive call saw none yet)."""
        unsettled = False
        for table in (self._used, self._constants_used):
            for callee, seen in table.get(uid, {}).items():
                self._users.setdefault(callee, set()).add(uid)
                unsettled = unsettled or self._summaries.get(callee) is not seen
        for key, value in self._reads.get(uid, {}).items():
            self._readers.setdefault(key, set()).add(uid)
            unsettled = unsettled or self._fields.get(key) is not value
        if unsettled:
            self._unsettled.add(uid)

    def _lend_time(self, file: int, spent: float) -> None:
        """A summary of another file's function, computed inside a caller, spent that file's
        budget, not the caller's: the caller's file gets the time back (so a stop names the
        function that used the time)."""
        if not self._stack:
            return
        caller = self._decls[self._stack[-1]].file
        if caller == file or caller not in self._deadlines:
            return
        self._deadlines[caller] += spent
        for key, context in self._contexts.items():
            if key[0] == caller:
                context.deadline = self._deadlines[caller]

    def stabilize(self, rounds: int = 3) -> None:
        """Re-analyze functions that read a field or used a callee summary that has changed
        since (summaries are computed on demand, so an early reader may have seen too little)."""
        for _ in range(rounds):
            unsettled, self._unsettled = self._unsettled, set()
            stale = self.stale(unsettled)
            if not stale:
                return
            for uid in stale:
                self._summaries.pop(uid, None)
            for uid in stale:
                self.summary(self._decls[uid])

    def stale(self, among: set[int] | None = None) -> list[int]:
        """The analyses (of `among`, or of all) that read a field or used a summary whose
        facts have changed since, in the order they were made. Only unsettled analyses can be
        stale: `stabilize` asks about those."""
        # A summary is compared with what many callers saw: work out its facts once.
        known: dict[int, tuple[Summary | None, object]] = {}

        def facts_of(summary: Summary | None) -> object:
            found = known.get(id(summary))
            if found is None or found[0] is not summary:
                found = known[id(summary)] = (summary, _summary_facts(summary))
            return found[1]

        return [
            uid
            for uid in list(self._summaries)
            if (among is None or uid in among)
            # A function whose analysis is expensive keeps its first result: re-running it
            # for what a later summary taught costs more than it finds (a deterministic
            # bound, counted in interpreter steps, not seconds).
            and self._cost.get(uid, 0) <= MAX_RESTABILIZED_STEPS
            and (
                any(
                    _facts(self._fields.get(key)) != _facts(seen)
                    for key, seen in self._reads.get(uid, {}).items()
                )
                or any(
                    facts_of(self._summaries.get(c)) != facts_of(s)
                    for c, s in self._used.get(uid, {}).items()
                )
            )
        ]

    def _context(self, file: int, build: str, module: Module) -> Context:
        context = self._contexts.get((file, build, module))
        if context is None:
            context = Context(self.api, self.era, module, self, 0.0, build)
            self._contexts[(file, build, module)] = context
        return context

    def resolve_function(
        self, segments: tuple[str, ...], caller: FunctionDecl, trait_name: str | None = None
    ) -> list[FunctionDecl]:
        """The functions a call path written in `caller` names (none when the path names
        nothing this program defines: never a guess by name)."""
        defs = self.defs
        if len(segments) >= 2 and (segments[0] == "Self" or trait_name is not None):
            owner = self.type_of_path(segments[:-1], caller)
            if owner is None:
                return []
            if trait_name is not None:
                trait = defs.resolve_type(
                    caller.names_in, trait_name, caller.self_type, extern=True
                )
                if trait is None:
                    return []
                found = defs.trait_member(owner, trait, segments[-1])
            else:
                found = defs.associated(owner, segments[-1])
            return [d for d in found if d.kind == "fn"]
        target = defs.resolve(caller.names_in, segments)
        return defs.functions(target) if target is not None else []

    def type_of_path(self, segments: tuple[str, ...], caller: FunctionDecl) -> str | None:
        """The program type a path written in `caller` names (`Self`, `Opts`, `cfg::Opts`)."""
        if segments == ("Self",):
            return caller.self_type
        return self.defs.resolve_type(caller.names_in, "::".join(segments), caller.self_type)

    def variant_of(
        self, segments: tuple[str, ...], caller: FunctionDecl
    ) -> tuple[str, frozenset[str]] | None:
        """The variant of one of the program's enums a path written in `caller` names
        (`Mode::Eval`, `Self::Eval`, an alias's, or a bare `Eval` imported by `use Mode::*`),
        as its canonical key, with the keys of every variant of that enum; None otherwise."""
        if not segments[-1][:1].isupper():
            return None
        if len(segments) == 1:
            target = self.defs.resolve(caller.names_in, segments)
            if target is None or target.kind != "variant":
                return None
            owner: str | None = "::".join(target.path[:-1])
        else:
            owner = self.type_of_path(segments[:-1], caller)
        decl = self.defs.type_decl(owner) if owner is not None else None
        if decl is None or decl.kind != "enum":
            return None
        names = {name for name, _ in decl.variants}
        if segments[-1] not in names:
            return None
        return f"{owner}::{segments[-1]}", frozenset(f"{owner}::{name}" for name in names)

    def trait_of_path(self, segments: tuple[str, ...], caller: FunctionDecl) -> str | None:
        """The program trait a call path's owner names (`Loader::load(&x)`), if any."""
        if len(segments) < 2:
            return None
        key = self.type_of_path(segments[:-1], caller)
        return key if key is not None and self.defs.has_trait_impls(key) else None

    def resolve_method(
        self,
        name: str,
        caller: FunctionDecl,
        on_self: bool,
        types: frozenset[str] = frozenset(),
        trait: str | None = None,
        arity: int | None = None,
    ) -> list[FunctionDecl]:
        """The program's methods a method call may reach: by the receiver's types when they are
        known (on `self`: the caller's own type), else the only method of that name that takes
        `arity` arguments besides `self` (when given) in a crate the caller's can use."""
        if types:
            found = self.defs.methods(sorted(types), name, trait)
            # A method that cannot touch burn's values is not worth a summary (the call stays
            # unknown, as before types were known); deciding that is cheap, analyzing is not.
            return found if any(self.relevant(d) for d in found) else []
        if on_self:
            if caller.self_type is not None:
                return self.defs.methods([caller.self_type], name)
            return [
                d
                for d in self._by_owner.get(caller.owner or "", [])
                if d.name == name and d.has_self
            ]
        candidates = self._methods.get(name, [])
        if len(candidates) != 1 or candidates[0] is caller:
            # A method named like its caller, on a receiver of unknown type, is the wrapped
            # value's (`self.0.dims()` inside a wrapper's `fn dims`): delegation, not recursion.
            return []
        found = candidates[0]
        if (arity is not None and _arity(found) != arity) or not self._reaches(caller, found):
            # The only method of that name, but not one this call can run: it takes another
            # number of arguments (`reader.read(&mut buf)` is std's, not a `fn read(&self)`),
            # or it is in a crate the caller's crate does not depend on.
            return []
        return candidates

    def _reaches(self, caller: FunctionDecl, callee: FunctionDecl) -> bool:
        """Whether code of `caller`'s crate can run `callee` (its crate, or one it depends on
        directly or through others); true when the crate graph does not know the caller's."""
        start, target = caller.module[0], callee.module[0]
        if start == target or start not in self._crate_deps:
            return True
        reached = self._reachable.get(start)
        if reached is None:
            reached = set[str]()
            pending = [start]
            while pending:
                for root in self._crate_deps.get(pending.pop(), {}).values():
                    if root not in reached:
                        reached.add(root)
                        pending.append(root)
            self._reachable[start] = reached
        return target in reached

    def relevant(self, decl: FunctionDecl) -> bool:
        """Whether a function may handle burn values: its text names burn's API vocabulary,
        a program type whose fields do, or (by name) another such function."""
        if self._relevant is None:
            self._relevant = self._relevant_functions()
        return decl.uid in self._relevant

    def function_texts(self) -> dict[int, FunctionText]:
        """The text facts of every live function (by id), read again only where the text
        changed since the last call (a replaced function's go with it)."""
        kept = self._texts
        fresh: dict[int, FunctionText] = {}
        units = self.units
        for decl in self.decls:
            node = decl.node
            text = units[decl.file].source.data[node.start_byte : node.end_byte]
            found = kept.get(decl.uid)
            if found is None or found.text != text:
                found = FunctionText(
                    text, frozenset(_WORD.findall(text)), frozenset(_SELF_FIELD.findall(text))
                )
            fresh[decl.uid] = found
        self._texts = fresh
        return fresh

    def _relevant_functions(self) -> set[int]:
        words = {w.encode() for w in self.api.vocabulary if _SPECIFIC.search(w)}
        for unit in self.units:
            words.update(name.encode() for name in _specific_imports(unit.items))
        texts = self.function_texts()
        types = [t for unit in self.units for t in unit.items.types if t.fields]
        while True:
            more = {
                name
                for t in types
                if (name := t.name.encode()) not in words
                and any(words & _identifiers(f) for _, f in t.fields)
            }
            if not more:
                break
            words |= more
        relevant = {uid for uid, text in texts.items() if not text.words.isdisjoint(words)}
        # Every method of a type that holds burn values (a builder's `with_scale(self) -> Self`
        # carries the context through, whatever its own text says).
        holders = {"::".join((*t.module, t.name)) for t in types if t.name.encode() in words}
        decls = self.decls
        relevant.update(d.uid for d in decls if d.self_type in holders)
        # Then what relevant functions call, and what writes the fields they read (a flag a
        # setter stores may decide which context a relevant method builds).
        found: list[FunctionDecl] = [d for d in decls if d.uid in relevant]
        rest: list[FunctionDecl] = [d for d in decls if d.uid not in relevant]
        while found and rest:
            callees = {d.name.encode() for d in found}
            read: set[bytes] = set()
            for decl in found:
                read |= texts[decl.uid].fields
            found = [
                d
                for d in rest
                if not texts[d.uid].words.isdisjoint(callees)
                or not texts[d.uid].fields.isdisjoint(read)
            ]
            relevant.update(d.uid for d in found)
            rest = [d for d in rest if d.uid not in relevant]
        return relevant

    def method_count(self, name: str) -> int:
        """How many methods of the program have this name."""
        return len(self._methods.get(name, ()))

    def constant_value(
        self, segments: tuple[str, ...], caller: FunctionDecl, trait_name: str | None = None
    ) -> Value | None:
        """The value of the constant or static a path names (computed like a function's
        result), or None when the path names none of the program's constants."""
        defs = self.defs
        if trait_name is not None and len(segments) >= 2:
            # `<T as Trait>::C`: the trait impl's value (or the trait's default), never T's
            # inherent constant of the same name.
            owner = self.type_of_path(segments[:-1], caller)
            trait = defs.resolve_type(caller.names_in, trait_name, caller.self_type, extern=True)
            if owner is None or trait is None:
                return None
            found = defs.trait_member(owner, trait, segments[-1])
            decls = [d for d in found if d.kind == "const"]
        elif segments[:1] == ("Self",) and len(segments) == 2:
            if caller.self_type is None:
                return None
            name = segments[-1]
            decls = [d for d in defs.associated(caller.self_type, name) if d.kind == "const"]
        else:
            target = defs.resolve(caller.names_in, segments)
            if target is None or target.kind not in ("const", "assoc"):
                return None
            decls = defs.constants(target)
        value = self._result_of(decls)
        if value is None:
            return None
        return value.typed(self.declared_types(decls[0], decls[0].return_type))

    def _result_of(self, decls: list[FunctionDecl]) -> Value | None:
        """The join of what these parameterless bodies (constants, `default()`s) evaluate to,
        each read by the running analysis like a constant (it is checked again before reuse
        when one changes); None when there are none."""
        values: list[Value] = []
        for decl in decls:
            summary = self.summary(decl)
            if self._stack:
                self._constants_used.setdefault(self._stack[-1], {}).setdefault(decl.uid, summary)
            if summary is None or not summary.cases:
                values.append(UNKNOWN_VALUE)
                continue
            values.extend(value for _, value in summary.cases)
        return join_all(values) if values else None

    def expand(self, module: Module, segments: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """What a written path may stand for in `module` (see `DefMap.expand`)."""
        return self.defs.expand(module, segments)

    def default_value(self, type_key: str, span: Span, depth: int = 0) -> Value | None:
        """`T::default()` for one of the program's structs: what its hand-written `default()`
        returns (its summary), or with `#[derive(Default)]` each field's type's default
        (burn's context type: `Disabled`, from the API model); None otherwise."""
        decl = self.defs.type_decl(type_key)
        if decl is None or decl.kind != "struct" or depth > 4:
            return None
        if "Default" not in decl.derives:
            return self._written_default(type_key)
        fields: dict[str, Value] = {}
        for name, text in decl.fields:
            key = self.defs.resolve_type(decl.module, text, type_key)
            value: Value | None = None
            if key is not None:
                value = self.default_value(key, span, depth + 1)
            elif (payload := self.defs.option_payload(decl.module, text, type_key)) is not None:
                value = self.none_of(payload, span, depth + 1)
            else:
                written = self.defs.resolve_type(decl.module, text, type_key, extern=True)
                if written is not None:
                    rule = self.api.match_call((*written.split("::"), "default"), self.era)
                    if rule is not None:
                        value = effect_value(rule, span, [], None, {}, None)
            fields[name] = value if value is not None else UNKNOWN_VALUE
        return struct_value(None, fields).typed(frozenset({type_key}))

    def none_of(self, payload: str, span: Span, depth: int = 0) -> Value:
        """`None` of an `Option` of the program type `payload`: `unwrap_or_default()` on it
        gives the type's default, when that is known."""
        default = self.default_value(payload, span, depth)
        return (
            with_none_default(none_value(span), default)
            if default is not None
            else none_value(span)
        )

    def option_payload(self, decl: FunctionDecl, text: str) -> str | None:
        """The program type `T` of a type `Option<T>` written in `decl`, if it is one."""
        return self.defs.option_payload(decl.names_in, text, decl.self_type)

    def _written_default(self, type_key: str) -> Value | None:
        """What the type's own `fn default() -> Self` (an `impl Default`) returns."""
        found = [
            d
            for d in self.defs.associated(type_key, "default")
            if d.kind == "fn" and not d.has_self and not d.lowered().params
        ]
        value = self._result_of(found)
        return value.typed(frozenset({type_key})) if value is not None else None

    def declared_types(self, decl: FunctionDecl, text: str) -> frozenset[str]:
        """The program type a type written in `decl`'s signature names (none if not ours)."""
        if not text:
            return frozenset()
        key = self.defs.resolve_type(decl.names_in, text, decl.self_type)
        return frozenset({key}) if key is not None else frozenset()

    def numbers_only(self, type_key: str | None, name: str) -> bool:
        """Whether field `name` of the program type `type_key` is declared to hold numbers or
        text only (see `holds_numbers_only`): what its writers store can change no finding."""
        written = self.defs.field_type(type_key, name) if type_key is not None else None
        return written is not None and holds_numbers_only(written[1])

    def non_float_field(self, types: frozenset[str], name: str) -> bool:
        """Whether field `name` of one of the program types `types` is declared an int or bool
        tensor (see `non_float_tensor`): never an autodiff primitive, whatever was stored."""
        for key in types:
            written = self.defs.field_type(key, name)
            if written is not None and non_float_tensor(written[1]):
                return True
        return False

    def field_types(self, types: frozenset[str], name: str) -> frozenset[str]:
        """The program types field `name` has in structs of the given types."""
        out: set[str] = set()
        for key in types:
            written = self.defs.field_type(key, name)
            if written is not None:
                found = self.defs.resolve_type(written[0], written[1], key)
                if found is not None:
                    out.add(found)
        return frozenset(out)

    def field_value(self, owner: str, name: str) -> Value | None:
        """The join of every value any method of `owner` stores in its field `name`."""
        reader = self._stack[-1] if self._stack else None
        if owner not in self._owners_done:
            self._owners_done.add(owner)
            for decl in self._by_owner.get(owner, []):
                # A method that names nothing of burn's cannot store burn facts in a field.
                if self.relevant(decl):
                    self.summary(decl)
        value = self._fields.get((owner, name))
        if reader is not None:
            self._reads.setdefault(reader, {})[(owner, name)] = value
        return value

    def record_field(self, owner: str, name: str, value: Value) -> None:
        """Remember that a method of `owner` stores `value` in its field `name`."""
        key = (owner, name)
        writer = self._stack[-1] if self._stack else -1
        stored = self._stores.setdefault(key, {})
        earlier = stored.get(writer)
        stored[writer] = value if earlier is None else join(earlier, value)
        self._written.setdefault(writer, set()).add(key)
        old = self._fields.get(key)
        self._fields[key] = value if old is None else join(old, value)
        self._unsettled.update(self._readers.get(key, ()))

    def _unstore(self, uid: int) -> None:
        """Take what analysis `uid` stored out of the fields: each becomes the join of what the
        other analyses stored, and its readers are checked again. The owner's methods are
        summarized again at the next read (a method whose analysis was dropped stores anew)."""
        for key in self._written.pop(uid, ()):
            stored = self._stores.get(key)
            if stored is None or stored.pop(uid, None) is None:
                continue
            if stored:
                self._fields[key] = join_all(list(stored.values()))
            else:
                del self._stores[key]
                self._fields.pop(key, None)
            self._unsettled.update(self._readers.get(key, ()))
            self._owners_done.discard(key[0])


def _discard(index: dict[_K, set[int]], key: _K, uid: int) -> None:
    """Take `uid` out of `index[key]`, and the key out when nothing is left."""
    found = index.get(key)
    if found is not None:
        found.discard(uid)
        if not found:
            del index[key]


def _arity(decl: FunctionDecl) -> int:
    """How many arguments a method takes besides `self`, as declared."""
    params = decl.node.child_by_field_name("parameters")
    if params is None:
        return 0
    return sum(1 for child in params.named_children if child.type == "parameter")


def _skeleton(unit: Unit) -> object:
    """What a file declares, without its function bodies: two versions with the same skeleton
    resolve every name of the program alike and list their functions in the same order."""
    items = unit.items
    data = unit.source.data
    starts = sorted(
        offset
        for d in (*items.functions, *items.constants)
        for offset in (d.node.start_byte, d.node.end_byte)
    )
    return (
        unit.module,
        unit.target,
        unit.build,
        tuple(
            (
                d.name,
                d.owner,
                d.module,
                d.has_self,
                d.build_off,
                d.kind,
                d.vis,
                d.impl,
                d.trait_name,
                d.return_type,
                d.mut_self,
                d.scope,
            )
            for d in (*items.functions, *items.constants)
        ),
        items.imports,
        tuple((u.module, u.path, u.alias, u.vis) for u in items.uses),
        items.types,
        items.impls,
        # A macro's rules are nodes of its file's tree: compared by text and place.
        tuple(
            (
                m.module,
                m.name,
                m.exported,
                # A macro is visible after its definition: what matters is which items it
                # precedes, not its offset (an edit before it moves it).
                bisect.bisect(starts, m.offset),
                tuple(data[a.start_byte : b.end_byte] for a, b in m.rules),
            )
            for m in items.macros
        ),
        items.externs,
        items.mods,
        items.inline_modules,
        items.block_scopes,
    )


def _facts(value: Value | None) -> object:
    """What a value can tell a reader at a sink (see `Value.tracked`): nothing known and only
    unknowns, or a different origin, program type or trail, are the same to every sink."""
    return OPAQUE if value is None else value.settled()


_UNKNOWN_RESULT = (((frozenset[object](), OPAQUE),), (), False, (), OPAQUE)


def _summary_facts(summary: Summary | None) -> object:
    """What a callee's summary can change for its callers' findings: a caller analyzed with an
    earlier summary is analyzed again only when this differs."""
    if summary is None:
        # A caller that met the summary while it was being computed saw an unknown result,
        # no sink and no store: the same as a finished summary that says nothing more.
        return _UNKNOWN_RESULT
    return (
        tuple((assumptions, value.settled()) for assumptions, value in summary.cases),
        tuple(
            (
                hit.spec,
                hit.site.span,
                hit.assumptions,
                tuple((r, v.settled()) for r, v in hit.values),
            )
            for hit in summary.hits
        ),
        summary.diverges,
        tuple((owner, name, value.settled()) for owner, name, value in summary.stores),
        _facts(summary.receiver),
    )


_SPECIFIC = re.compile(
    r"(?i)autodiff|dispatch|checkpoint|grad|context|ctx|enabled|disabled|track|inner"
)
"""What the names of burn's autodiff and dispatch API have in common (and `Tensor`, `Device`,
`new` or `from_data`, which all code names, do not)."""


def _specific_imports(items: FileItems) -> set[str]:
    """The names under which a file imports burn's autodiff/dispatch items
    (`DispatchAutodiffContext as Ctx` gives `Ctx`)."""
    return {name for name, path in items.imports.items() if path and _SPECIFIC.search(path[-1])}


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(rb"\w+")
_SELF_FIELD = re.compile(rb"\bself\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)")


def _identifiers(text: str) -> set[bytes]:
    """The identifiers a type written as `text` names."""
    return {name.encode() for name in _IDENTIFIER.findall(text)}
