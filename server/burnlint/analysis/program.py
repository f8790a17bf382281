"""A crate (or a lone file) as the analyzer sees it: files, modules, functions, on-demand summaries.

Function summaries are computed when a call first needs them (callees before callers, whatever
the file order), memoized for the program's lifetime, and cut at recursion (a function being
summarized is "unknown" to the calls inside it). Struct fields get a flow-insensitive summary:
the join of everything any method of the type stores in the field.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.analysis.api import ApiModel
from burnlint.analysis.calls import Context, Summary
from burnlint.analysis.interp import Budget, Interpreter
from burnlint.analysis.items import FileItems, FunctionDecl, Module, absolute
from burnlint.analysis.lower import LoweringBudget
from burnlint.analysis.observe import ObservationKey
from burnlint.analysis.sinks import Observation
from burnlint.analysis.source import SourceFile
from burnlint.analysis.values import Value, join

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


@dataclass(slots=True)
class _Index:
    free: dict[tuple[Module, str], list[FunctionDecl]] = field(
        default_factory=dict[tuple[Module, str], list[FunctionDecl]]
    )
    by_name: dict[str, list[FunctionDecl]] = field(default_factory=dict[str, list[FunctionDecl]])
    assoc: dict[tuple[str, str], list[FunctionDecl]] = field(
        default_factory=dict[tuple[str, str], list[FunctionDecl]]
    )
    methods: dict[str, list[FunctionDecl]] = field(default_factory=dict[str, list[FunctionDecl]])
    by_owner: dict[str, list[FunctionDecl]] = field(default_factory=dict[str, list[FunctionDecl]])
    modules: set[Module] = field(default_factory=set[Module])


class Program:
    """Every unit of one crate, indexed for name resolution, with memoized summaries."""

    def __init__(
        self,
        api: ApiModel,
        era: str,
        units: list[Unit],
        budget_seconds: float,
        build: str = "unknown",
    ) -> None:
        self.api = api
        self.era = era
        self.build = build
        self.units = units
        self.budget_seconds = budget_seconds
        self.notes: list[tuple[int, str]] = []
        self._index = _Index()
        self._summaries: dict[int, Summary] = {}
        self._observations: dict[int, dict[ObservationKey, Observation]] = {}
        self._in_progress: set[int] = set()
        self._stack: list[int] = []
        self._reads: dict[int, dict[tuple[str, str], Value | None]] = {}
        self._used: dict[int, dict[int, Summary | None]] = {}
        self._fields: dict[tuple[str, str], Value] = {}
        self._owners_done: set[str] = set()
        self._contexts: dict[tuple[int, str], Context] = {}
        self._depth = 0
        self._decls: list[FunctionDecl] = []
        self._dead: set[int] = set()
        self._writers: dict[tuple[str, str], set[int]] = {}
        self._deadlines: dict[int, float] = {}
        """When each file's budget runs out in this run (since creation or the last
        `replace_unit`): one budget per file, shared by its functions and nested summaries."""
        for unit in units:
            self._number(unit)
        self._rebuild_index()

    def _number(self, unit: Unit) -> None:
        for decl in unit.items.functions:
            decl.uid = len(self._decls)
            self._decls.append(decl)

    def _rebuild_index(self) -> None:
        self._index = _Index()
        for unit in self.units:
            self._index.modules.add(unit.module)
            self._index.modules.update(unit.items.inline_modules)
            for decl in unit.items.functions:
                self._add(decl)

    def replace_unit(self, index: int, unit: Unit) -> set[int]:
        """Swap in a new version of one file. Drops what depended on the old one (its functions,
        their callers, and everything that wrote or read struct fields) and returns the dropped
        ids; the next `summary` calls recompute them on demand."""
        old = {decl.uid for decl in self.units[index].items.functions}
        self.units[index] = unit
        self._number(unit)
        self._dead |= old
        self._rebuild_index()
        dropped = set(old)
        if self._fields:
            # Field summaries are joins over every writer; rebuild them from scratch.
            dropped |= {uid for uids in self._writers.values() for uid in uids}
            dropped |= {uid for uid, reads in self._reads.items() if reads}
            self._fields.clear()
            self._writers.clear()
            self._owners_done.clear()
        changed = True
        while changed:
            changed = False
            for uid, used in self._used.items():
                if uid not in dropped and any(callee in dropped for callee in used):
                    dropped.add(uid)
                    changed = True
        for uid in dropped:
            self._summaries.pop(uid, None)
            self._observations.pop(uid, None)
            self._used.pop(uid, None)
            self._reads.pop(uid, None)
        self._contexts = {key: ctx for key, ctx in self._contexts.items() if key[0] != index}
        self.notes = [(file, note) for file, note in self.notes if file != index]
        self._deadlines.clear()
        return dropped

    def _add(self, decl: FunctionDecl) -> None:
        if decl.build_off:
            # Only compiled without autodiff: analyzed on its own, never the target of a call
            # from the main build (where a same-named autodiff variant exists).
            return
        index = self._index
        if decl.owner is None:
            index.free.setdefault((decl.module, decl.name), []).append(decl)
            index.by_name.setdefault(decl.name, []).append(decl)
            return
        index.assoc.setdefault((decl.owner, decl.name), []).append(decl)
        index.by_owner.setdefault(decl.owner, []).append(decl)
        if decl.has_self:
            index.methods.setdefault(decl.name, []).append(decl)

    @property
    def decls(self) -> list[FunctionDecl]:
        """Every live function of the program."""
        return [decl for decl in self._decls if decl.uid not in self._dead]

    @property
    def analyzed(self) -> int:
        """How many function analyses are currently memoized (for tests and statistics)."""
        return len(self._summaries)

    def observations(self, file: int, analyzed_only: bool = False) -> list[Observation]:
        """Everything observed at the sinks of the functions of unit `file` (all of them are
        analyzed first unless `analyzed_only`)."""
        out: list[Observation] = []
        for decl in self.units[file].items.functions:
            if not analyzed_only:
                self.summary(decl)
            out.extend(self._observations.get(decl.uid, {}).values())
        return out

    def summary(self, decl: FunctionDecl) -> Summary | None:
        """`decl`'s summary, computed on first use; None while it is being computed."""
        found = self._summaries.get(decl.uid)
        if found is not None:
            return found
        if decl.uid in self._in_progress or self._depth >= MAX_SUMMARY_DEPTH:
            return None
        self._in_progress.add(decl.uid)
        self._stack.append(decl.uid)
        self._reads[decl.uid] = {}
        self._depth += 1
        context = self._context(decl.file, "off" if decl.build_off else self.build)
        deadline = self._deadlines.get(decl.file)
        if deadline is None:
            deadline = self._deadlines[decl.file] = time.monotonic() + self.budget_seconds
        # The budget is the file's: a nested summary does not extend it, and lowering (as
        # slow as interpreting on a megabyte of dense code) counts too.
        context.deadline = decl.lowerer.deadline = deadline
        interpreter: Interpreter | None = None
        started = time.monotonic()
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
            self._lend_time(decl.file, time.monotonic() - started)
        self._summaries[decl.uid] = summary
        if interpreter is not None:
            self._observations[decl.uid] = interpreter.observer.observations
            self._used[decl.uid] = dict(interpreter.calls.used)
        return summary

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
        for (owner, _), context in self._contexts.items():
            if owner == caller:
                context.deadline = self._deadlines[caller]

    def stabilize(self, rounds: int = 3) -> None:
        """Re-analyze functions that read a field or used a callee summary that has changed
        since (summaries are computed on demand, so an early reader may have seen too little)."""
        for _ in range(rounds):
            stale = [
                uid
                for uid in list(self._summaries)
                if any(
                    self._fields.get(key) != seen for key, seen in self._reads.get(uid, {}).items()
                )
                or any(self._summaries.get(c) != s for c, s in self._used.get(uid, {}).items())
            ]
            if not stale:
                return
            for uid in stale:
                self._summaries.pop(uid, None)
            for uid in stale:
                self.summary(self._decls[uid])

    def _context(self, file: int, build: str) -> Context:
        context = self._contexts.get((file, build))
        if context is None:
            items = self.units[file].items
            context = Context(self.api, self.era, items.imports, items.consts, self, 0.0, build)
            self._contexts[(file, build)] = context
        return context

    def resolve_function(
        self, segments: tuple[str, ...], caller: FunctionDecl
    ) -> list[FunctionDecl]:
        """The functions a call path written in `caller` may name."""
        index = self._index
        name = segments[-1]
        imports = self.units[caller.file].items.imports
        if len(segments) == 1:
            local = index.free.get((caller.module, name))
            if local:
                return local
            imported = imports.get(name)
            if imported is not None:
                return index.free.get((imported[:-1], imported[-1]), [])
            return [d for d in index.by_name.get(name, []) if d.file == caller.file]
        prefix = segments[:-1]
        last = prefix[-1]
        if last == "Self":
            return index.assoc.get((caller.owner or "", name), [])
        if last[:1].isupper():
            owner = imports.get(last, (last,))[-1]
            return index.assoc.get((owner, name), [])
        module = self._module(prefix, caller)
        if module is not None:
            found = index.free.get((module, name))
            if found:
                return found
        # A module this program does not contain (a single file, or a crate's external helper):
        # fall back to a same-named free function of the calling file.
        return [d for d in index.by_name.get(name, []) if d.file == caller.file]

    def _module(self, prefix: tuple[str, ...], caller: FunctionDecl) -> Module | None:
        first = prefix[0]
        if first in ("crate", "self", "super"):
            return absolute(("crate", *prefix[1:]) if first == "crate" else prefix, caller.module)
        imported = self.units[caller.file].items.imports.get(first)
        if imported is not None and imported[0] == "crate":
            return (*imported, *prefix[1:])
        child = (*caller.module, *prefix)
        if child in self._index.modules:
            return child
        rooted = ("crate", *prefix)
        return rooted if rooted in self._index.modules else None

    def resolve_method(self, name: str, caller: FunctionDecl, on_self: bool) -> list[FunctionDecl]:
        """The program's methods a method call may reach (on `self`: the caller's own type)."""
        if on_self:
            return [d for d in self._index.assoc.get((caller.owner or "", name), []) if d.has_self]
        candidates = self._index.methods.get(name, [])
        return candidates if len(candidates) == 1 else []

    def field_value(self, owner: str, name: str) -> Value | None:
        """The join of every value any method of `owner` stores in its field `name`."""
        reader = self._stack[-1] if self._stack else None
        if owner not in self._owners_done:
            self._owners_done.add(owner)
            for decl in self._index.by_owner.get(owner, []):
                self.summary(decl)
        value = self._fields.get((owner, name))
        if reader is not None:
            self._reads.setdefault(reader, {})[(owner, name)] = value
        return value

    def record_field(self, owner: str, name: str, value: Value) -> None:
        """Remember that a method of `owner` stores `value` in its field `name`."""
        key = (owner, name)
        if self._stack:
            self._writers.setdefault(key, set()).add(self._stack[-1])
        old = self._fields.get(key)
        self._fields[key] = value if old is None else join(old, value)
