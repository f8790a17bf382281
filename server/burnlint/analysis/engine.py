"""Analyze Rust files: parse, index, interpret with on-demand summaries, and report findings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from burnlint.analysis.findings import Edit, FileResult, Finding, Fix, Position, Range, Related
from burnlint.analysis.interp.effects import EFFECTS
from burnlint.analysis.interp.observe import ObservationKey
from burnlint.analysis.interp.program import FunctionText, Program, Unit
from burnlint.analysis.interp.sinks import Observation
from burnlint.analysis.options import Options
from burnlint.analysis.rules.fixes import build_fixes
from burnlint.analysis.rules.judge import Judgement, judge
from burnlint.analysis.rules.suppress import Suppressed, Suppressions, Unused
from burnlint.analysis.rules.template import fill
from burnlint.analysis.semantics.api import ApiModel, build_model
from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.analysis.semantics.items import FileItems, FunctionDecl, Module, collect_items
from burnlint.analysis.syntax import ir
from burnlint.analysis.syntax.source import SourceFile
from burnlint.eras import GENERIC, era_from_text
from burnlint.kb.model import Entry

__all__ = ["Analyzer", "CrateFile", "CrateSession", "FileResult", "Options"]


@dataclass(frozen=True, slots=True)
class CrateFile:
    """One file handed to the analyzer: its text, module path, and whether to report on it."""

    source: SourceFile
    module: Module = ("crate",)
    target: bool = True
    crate: CrateInfo | None = None
    """The crate it belongs to, when not the session's (another crate of the workspace: its
    own features decide its `cfg` and whether burn's autodiff is on)."""
    copy: bool = False
    """A file another target includes too, read again as this target's module (`#[path]`):
    analyzed where this target calls it, never reported on."""


class Analyzer:
    """Holds the knowledge base and the API model compiled from it; analyzes files."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        # Rules only: runtime-only entries (BDR codes) explain panics but report nothing.
        self.by_code = {entry.id: entry for entry in entries if entry.is_static}
        self.api: ApiModel = build_model(
            [(entry.id, entry.detect) for entry in entries],
            EFFECTS,
            {entry.id: entry.path for entry in entries},
        )
        """The API model: the union of every entry's `[detect]` table (compiled now, so a
        malformed table is an error when burnlint starts, not at the first file)."""

    def analyze(
        self, source: SourceFile, options: Options, crate: CrateInfo | None = None
    ) -> FileResult:
        """Analyze one file on its own (its module is the crate root)."""
        return self.analyze_files([CrateFile(source)], options, crate)[0]

    def analyze_files(
        self, files: list[CrateFile], options: Options, crate: CrateInfo | None = None
    ) -> list[FileResult]:
        """Analyze the files of one crate together; findings are reported for target files."""
        return CrateSession(self, files, options, crate).results()

    def report(
        self,
        program: Program,
        index: int,
        era: str,
        options: Options,
        cache: FindingCache | None = None,
    ) -> tuple[list[Finding], list[Suppressed], list[Unused]]:
        """The findings in unit `index` of an analyzed program: reported, acknowledged by a
        suppression comment, and the suppression codes that acknowledged nothing (each
        finding taken from `cache` when its observation and the text it shows are the same)."""
        cache = cache if cache is not None else FindingCache()
        firing: list[tuple[Observation, EditKey]] = []
        # A site reached in several contexts (a closure called twice) is edited once: its
        # fixes are only safe when every context has the bug.
        partial_keys: set[EditKey] = set()
        # Some context reached the edited site with a plain float tensor.
        plain_keys: set[EditKey] = set()
        for table in program.observation_tables(index):
            sorted_out = cache.sorted_out(table)
            firing.extend(sorted_out.firing)
            partial_keys |= sorted_out.partial
            plain_keys |= sorted_out.plain
        findings: list[Finding] = []
        expanded: dict[int, set[ir.Span]] = {}
        for observation, key in firing:
            partial = key in partial_keys
            state = (partial, key in plain_keys)
            finding = cache.get(observation, state)
            if finding is None:
                spans: list[ir.Span] = []
                finding = self._finding(
                    program, observation, era, options, partial, spans, expanded, key in plain_keys
                )
                cache.put(observation, state, finding, spans)
            if finding:
                findings.append(finding)
        suppressions = Suppressions.parse(program.units[index].source)
        kept, suppressed = suppressions.split(_deduplicated(findings))
        return kept, suppressed, suppressions.unused(suppressed, options.select)

    def items(self, file: CrateFile, index: int, crate: CrateInfo) -> FileItems:
        """The file's items in the crate's main build, plus the functions that exist only when
        burn's autodiff feature is off (checked for BD003, never called from the main build)."""
        wants = self.api.scope_names.__contains__
        crate = file.crate or crate
        items = collect_items(file.source, crate.config, wants, file.module, index)
        off = crate.off_config()
        if off is not None:
            seen = {decl.node.id for decl in items.functions}
            other = collect_items(file.source, off, wants, file.module, index)
            for decl in other.functions:
                if decl.node.id not in seen:
                    decl.build_off = True
                    items.functions.append(decl)
            _add_modules_of_build(items, other)
        return items

    def _finding(
        self,
        program: Program,
        observation: Observation,
        era: str,
        options: Options,
        partial: bool = False,
        spans: list[ir.Span] | None = None,
        expanded_by_file: dict[int, set[ir.Span]] | None = None,
        plain_path: bool = False,
    ) -> Finding | None:
        """The finding an observation makes (None if none); `spans` gets every span whose
        text or position it shows."""
        judgement = judge(observation, options.select, partial, plain_path)
        entry = self.by_code.get(observation.site.code)
        if judgement is None or entry is None:
            return None
        return self._render(program, entry, judgement, era, spans, expanded_by_file)

    def _render(
        self,
        program: Program,
        entry: Entry,
        judgement: Judgement,
        era: str,
        spans: list[ir.Span] | None,
        expanded_by_file: dict[int, set[ir.Span]] | None,
    ) -> Finding:
        """The finding for a judgement: the entry's message for it, the related locations in
        the order the values flowed, and the entry's fixes for this site."""
        spans = spans if spans is not None else []
        expanded_by_file = expanded_by_file if expanded_by_file is not None else {}
        observation = judgement.observation
        site = observation.site
        must = judgement.certain
        severity = entry.severity if must else "warning"

        def to_range(span: ir.Span) -> Range:
            spans.append(span)
            source = program.units[span.file].source
            return Range(
                source.path,
                span.start,
                span.end,
                source.position(span.start),
                source.position(span.end),
            )

        def text_of(span: ir.Span) -> str:
            spans.append(span)
            return program.units[span.file].source.slice(span.start, span.end)

        names: dict[str, str] = {}
        for role, span in site.role_spans:
            text = text_of(span)
            names[role] = f"`{text}`" if len(text) <= 40 and "\n" not in text else ""
        template = entry.finding if must else entry.finding_may
        # A long expression is left out of the message; the range already points at it.
        message = " ".join(fill(template, names).split())
        related = [Related(to_range(span), label) for span, label in _flow(observation)]
        imports = program.units[site.span.file].items.imports
        fixes = build_fixes(
            entry,
            observation,
            era,
            judgement.guarded,
            imports,
            text_of,
            to_range,
            judgement.plain_path,
        )
        expanded = expanded_by_file.get(site.span.file)
        if expanded is None:
            expanded = expanded_by_file[site.span.file] = program.expanded(site.span.file)
        return Finding(
            code=entry.id,
            slug=entry.slug,
            severity=severity,
            message=message,
            range=to_range(site.span),
            related=tuple(related),
            fixes=_outside(fixes, expanded, site.span.file),
            panic=entry.panic_for(era, site.variant),
            era=era,
        )


def _flow(observation: Observation) -> list[tuple[ir.Span, str]]:
    """Where the values at a sink came from, in order: each operand's origins and the steps it
    took, then the chain of calls to the sink (its related locations)."""
    site = observation.site
    out: list[tuple[ir.Span, str]] = []
    seen: set[tuple[ir.Span, str]] = set()
    for role in ("tensor", "other", "device", "context", "build"):
        value = observation.values.get(role)
        if value is None:
            continue
        origins = sorted(value.origins, key=lambda o: (o.span.file, o.span.start, o.label))
        for step in (*origins, *value.trail):
            key = (step.span, step.label)
            if key not in seen and step.span != site.span:
                seen.add(key)
                out.append(key)
    out.extend((span, label) for label, span in site.chain)
    return out


def _outside(fixes: tuple[Fix, ...], expanded: set[ir.Span], file: int) -> tuple[Fix, ...]:
    """The fixes that edit no macro invocation: one analyzed as the code it expands to would
    be rewritten as a call, not as that code."""
    if not expanded:
        return fixes
    return tuple(
        fix
        for fix in fixes
        if not any(
            e.range.start_byte < s.end and s.start < e.range.end_byte
            for e in fix.edits
            for s in expanded
            if s.file == file
        )
    )


EditKey = tuple[str, ir.Span, ir.Span | None]
"""What a fix of an observation edits (see `_edit_key`)."""


@dataclass(frozen=True, slots=True)
class SortedOut:
    """One analysis' observations as the report needs them."""

    firing: list[tuple[Observation, EditKey]]
    """Those that may make a finding (a precise "must" or "may" verdict), in order."""
    partial: set[EditKey]
    """What observations with a "none" verdict edit: fixes there are safe only if every
    context has the bug."""
    plain: set[EditKey]
    """What observations reached with a plain float tensor edit (fixes that strip or add
    autodiff there are withheld)."""


class FindingCache:
    """The findings made from observations, kept across versions of a crate: an analysis that
    was reused keeps its observation objects, and their findings are reused too unless an
    edit touched the text they show (quoted names, fix edits); an edit before them moves
    them."""

    def __init__(self) -> None:
        self._built: dict[
            int, tuple[Observation, tuple[bool, bool], Finding | None, tuple[ir.Span, ...]]
        ] = {}
        self._seen: set[int] = set()
        self._tables: dict[int, tuple[dict[ObservationKey, Observation], SortedOut]] = {}
        self._tables_seen: set[int] = set()

    def sorted_out(self, table: dict[ObservationKey, Observation]) -> SortedOut:
        """An analysis' observations sorted out for the report (once per analysis: most
        observations of a file make no finding, and a keystroke changes few analyses)."""
        key = id(table)
        self._tables_seen.add(key)
        found = self._tables.get(key)
        # The entry holds the table, so its id cannot name another object meanwhile.
        if found is not None and found[0] is table:
            return found[1]
        firing: list[tuple[Observation, EditKey]] = []
        partial: set[EditKey] = set()
        plain: set[EditKey] = set()
        for observation in table.values():
            verdicts = observation.verdicts
            if any(v == "none" for v, _ in verdicts):
                partial.add(_edit_key(observation))
            if observation.plain:
                plain.add(_edit_key(observation))
            if any(v in ("must", "may") and not lossy for v, lossy in verdicts):
                firing.append((observation, _edit_key(observation)))
        sorted_out = SortedOut(firing, partial, plain)
        self._tables[key] = (table, sorted_out)
        return sorted_out

    def get(
        self, observation: Observation, partial: tuple[bool, bool]
    ) -> Finding | Literal[False] | None:
        """The cached finding (False: the observation makes none); None when not cached."""
        found = self._built.get(id(observation))
        # The entry holds the observation, so its id cannot name another object meanwhile.
        if found is None or found[0] is not observation or found[1] != partial:
            return None
        self._seen.add(id(observation))
        return found[2] if found[2] is not None else False

    def put(
        self,
        observation: Observation,
        partial: tuple[bool, bool],
        finding: Finding | None,
        spans: list[ir.Span],
    ) -> None:
        """Remember the finding an observation made and the spans it showed."""
        self._built[id(observation)] = (observation, partial, finding, tuple(spans))
        self._seen.add(id(observation))

    def prune(self) -> None:
        """Forget what the last report did not use (observations of dropped analyses)."""
        self._built = {k: v for k, v in self._built.items() if k in self._seen}
        self._seen = set()
        self._tables = {k: v for k, v in self._tables.items() if k in self._tables_seen}
        self._tables_seen = set()

    def edited(self, file: int, edit: TextEdit) -> None:
        """File `file` changed as `edit` says (spans still read the old version): findings
        that show the changed text are dropped, those after it move."""
        move = edit.mover() if edit.moves() else None
        for key, (observation, partial, finding, spans) in list(self._built.items()):
            after = False
            for span in spans:
                if span.file != file or span.end < edit.start:
                    continue
                if span.start <= edit.old_end:
                    del self._built[key]
                    break
                after = True
            else:
                if after and move is not None and finding is not None:
                    self._built[key] = (observation, partial, move(finding), spans)

    def clear(self) -> None:
        """Forget everything."""
        self._built.clear()
        self._seen.clear()
        self._tables.clear()
        self._tables_seen.clear()


@dataclass(frozen=True, slots=True)
class TextEdit:
    """One file's change between two versions: bytes `start`..`old_end` of `before` became
    bytes `start`..`new_end` of `after` (the text around is the same)."""

    before: SourceFile
    after: SourceFile
    start: int
    old_end: int
    new_end: int

    @staticmethod
    def between(before: SourceFile, after: SourceFile) -> TextEdit:
        """The smallest edit that turns `before` into `after`."""
        return TextEdit(before, after, *after.edit_from(before))

    def moves(self) -> bool:
        """Whether the text after the edit changed offset, line or column."""
        removed = self.before.data[self.start : self.old_end]
        added = self.after.data[self.start : self.new_end]
        return (
            len(removed) != len(added)
            or removed.count(b"\n") != added.count(b"\n")
            or len(removed.decode("utf-8", "replace")) != len(added.decode("utf-8", "replace"))
        )

    def mover(self) -> Callable[[Finding], Finding]:
        """Moves a finding's ranges after the edit (in this file) to the new version."""
        path = self.before.path
        old_end, delta = self.old_end, self.new_end - self.old_end
        old_end_line = self.before.line_of(old_end)
        lines = self.after.line_of(self.new_end) - old_end_line
        position = self.after.position

        def range_of(old: Range) -> Range:
            if old.path != path or old.start_byte <= old_end:
                return old
            start, end = old.start, old.end
            # Only the edit's last line changes columns; lines after it just move (or stay).
            if start.line == old_end_line:
                start = position(old.start_byte + delta)
            elif lines:
                start = Position(start.line + lines, start.character)
            if end.line == old_end_line:
                end = position(old.end_byte + delta)
            elif lines:
                end = Position(end.line + lines, end.character)
            return Range(path, old.start_byte + delta, old.end_byte + delta, start, end)

        def move(finding: Finding) -> Finding:
            return Finding(
                finding.code,
                finding.slug,
                finding.severity,
                finding.message,
                range_of(finding.range),
                tuple(Related(range_of(r.range), r.message) for r in finding.related),
                tuple(
                    Fix(
                        fix.id,
                        fix.title,
                        fix.safety,
                        tuple(Edit(range_of(e.range), e.new_text) for e in fix.edits),
                    )
                    for fix in finding.fixes
                ),
                finding.panic,
                finding.era,
            )

        return move


def _add_modules_of_build(items: FileItems, other: FileItems) -> None:
    """The inline modules that exist only in the other build (`#[cfg(not(feature =
    "autodiff"))] mod serving { .. }`), with their imports, types and constants: the names
    its functions use. Modules of both builds keep the main build's names."""
    only = [m for m in other.inline_modules if m not in items.inline_modules]
    if not only:
        return

    def inside(module: Module) -> bool:
        return any(module[: len(m)] == m for m in only)

    for module in only:
        items.inline_modules[module] = other.inline_modules[module]
    items.uses.extend(use for use in other.uses if inside(use.module))
    items.types.extend(decl for decl in other.types if inside(decl.module))
    items.constants.extend(decl for decl in other.constants if inside(decl.module))


class _ReachMemo:
    """What `_summarize_reachable` computes from texts alone, kept across versions of a crate:
    for each function (by id), whether its text names a sink word, with the program's facts of
    its text (a keystroke changes one function's text; the others' are compared, not read
    again)."""

    def __init__(self) -> None:
        self.texts: dict[int, _Text] = {}

    def read(self, api: ApiModel, program: Program, decls: list[FunctionDecl]) -> dict[int, _Text]:
        """The text facts of `decls` (every live function of `program`), computed again only
        for texts that changed."""
        era = program.era
        triggers = api.words_of(era)
        kept = self.texts
        fresh: dict[int, _Text] = {}
        facts = program.function_texts()
        for decl in decls:
            text = facts[decl.uid]
            found = kept.get(decl.uid)
            if found is None or found.facts is not text:
                # Most functions name no trigger word: the word set says so without a search.
                fires = not text.words.isdisjoint(triggers) and api.may_fire(text.text, era)
                found = _Text(text, fires)
            fresh[decl.uid] = found
        # Only live functions are kept: a replaced function's text goes with it.
        self.texts = fresh
        return fresh


@dataclass(frozen=True, slots=True)
class _Text:
    """One function's text facts and what reachability adds to them."""

    facts: FunctionText
    fires: bool
    """Whether the text names a sink word (`ApiModel.may_fire` in the program's era)."""

    @property
    def words(self) -> frozenset[bytes]:
        """The words the text names (a function is named where one is its name)."""
        return self.facts.words


def _summarize_reachable(program: Program, api: ApiModel, memo: _ReachMemo) -> None:
    """Summarize the functions that can observe a sink: those of the checked crate whose text
    names a sink word or a dependency function that may reach one, then, until nothing changes,
    those whose text names a function already known to reach a sink. Dependencies' functions
    are analyzed only when a call reaches them (their own findings are their crate's)."""
    decls = program.decls
    texts = memo.read(api, program, decls)
    # The crates being checked (those with target files; the others are dependencies).
    checked = {unit.module[0] for unit in program.units if unit.target} or {"crate"}
    # A copy of shared code is analyzed where its target calls it: its own findings are the
    # first includer's.
    units = program.units
    local = [d for d in decls if d.module[0] in checked and not units[d.file].copy]
    roots = [d for d in local if texts[d.uid].fires]
    # A dependency's helper that reaches a sink itself (its own text names one) makes the
    # crate's functions that name it roots too; deeper chains inside dependencies are followed
    # only from roots (analyzing every dependency's call graph per dependent costs too much).
    firing = {d.name.encode() for d in decls if d.module[0] not in checked and texts[d.uid].fires}
    if firing:
        wanted = {word for d in local for word in texts[d.uid].words & firing}
        hits: set[bytes] = set()
        for decl in decls:
            name = decl.name.encode()
            if decl.module[0] not in checked and name in wanted:
                summary = program.summary(decl)
                if summary is not None and summary.hits:
                    hits.add(name)
        if hits:
            roots.extend(
                d for d in local if d not in roots and not texts[d.uid].words.isdisjoint(hits)
            )
    done: set[int] = set()
    frontier = roots
    while frontier:
        names: set[bytes] = set()
        for decl in frontier:
            done.add(decl.uid)
            summary = program.summary(decl)
            if summary is not None and summary.hits:
                names.add(decl.name.encode())
        if not names:
            break
        frontier = [
            d for d in local if d.uid not in done and not texts[d.uid].words.isdisjoint(names)
        ]


def _deduplicated(findings: list[Finding]) -> list[Finding]:
    """One finding per code and range: a call can be both a built-in sink and a call of a
    function whose summary reaches the same sink. Keep the most severe one with the most fixes,
    and give it the other's explanations too."""
    best: dict[tuple[str, int, int], Finding] = {}
    for finding in findings:
        key = (finding.code, finding.range.start_byte, finding.range.end_byte)
        old = best.get(key)
        if old is None:
            best[key] = finding
            continue
        rank = (finding.severity == "error", len(finding.fixes), len(finding.related))
        primary, other = (
            (finding, old)
            if rank > (old.severity == "error", len(old.fixes), len(old.related))
            else (old, finding)
        )
        extra = tuple(r for r in other.related if r not in primary.related)
        best[key] = replace(primary, related=primary.related + extra)
    return sorted(best.values(), key=lambda f: f.sort_key)


def _edit_key(observation: Observation) -> tuple[str, ir.Span, ir.Span | None]:
    """What a fix of this observation edits: the same site and operand, whatever the context."""
    site = observation.site
    return (site.code, site.span, site.role_span("tensor") or site.role_span("device"))


class CrateSession:
    """One crate kept analyzed: `results` reports, `update` swaps in a new version of a file and
    re-analyzes only what depended on it (the language server keeps one per crate)."""

    def __init__(
        self,
        analyzer: Analyzer,
        files: list[CrateFile],
        options: Options,
        crate: CrateInfo | None = None,
        graph: dict[str, dict[str, str]] | None = None,
    ) -> None:
        self.analyzer = analyzer
        self.graph = graph or {}
        """The crate graph: for each crate key, the crates it names (see `Program`)."""
        self.files = list(files)
        self.options = options
        self.crate = crate or CrateInfo(None, "", BuildConfig(), "", None, "")
        self._era: tuple[str, str] | None = None
        if options.era:
            self._era = options.era, "set by configuration"
        elif self.crate.era:
            self._era = self.crate.era, self.crate.era_reason
        self.program: Program | None = None
        self._findings = FindingCache()
        self._reach = _ReachMemo()

    def _decided_era(self) -> tuple[str, str]:
        if self._era is None:
            # Guessed from the text only when needed: a crate without dispatch vocabulary
            # is never analyzed, and counting markers in megabytes of text is not free.
            targets = b"\n".join(f.source.data for f in self.files if f.target)
            era, reason = era_from_text(targets)
            if self.crate.era_reason:
                reason = f"{self.crate.era_reason}; {reason}"
            self._era = era, reason
        return self._era

    @property
    def era(self) -> str:
        """The burn API era the crate is analyzed in."""
        return self._decided_era()[0]

    @property
    def era_reason(self) -> str:
        """Why that era."""
        return self._decided_era()[1]

    def _program(self) -> Program | None:
        if self.program is None:
            api = self.analyzer.api
            if not any(f.target for f in self.files):
                return None
            if self._era is not None and self._era[0] == GENERIC:
                # burn <= 0.21: the dispatch API is out of users' reach; no rule applies.
                return None
            # Any era's sink words first: deciding the era may read every file's text.
            if not any(api.may_fire(f.source.data) for f in self.files):
                return None
            if not any(api.may_fire(f.source.data, self.era) for f in self.files):
                return None
            units = [self._unit(i) for i in range(len(self.files))]
            build = {"optional": "on"}.get(self.crate.build, self.crate.build)
            self.program = Program(
                api,
                self.era,
                units,
                self.options.budget_seconds,
                build,
                self.graph,
                record_states=self.options.states,
            )
        return self.program

    def _unit(self, index: int) -> Unit:
        file = self.files[index]
        items = self.analyzer.items(file, index, self.crate)
        build = None
        if file.crate is not None:
            build = {"optional": "on"}.get(file.crate.build, file.crate.build)
        return Unit(
            None, file.source.path, file.source, file.module, items, file.target, build, file.copy
        )

    def update(self, index: int, source: SourceFile) -> set[int]:
        """Replace file `index`'s text; returns the ids of the analyses that were dropped."""
        old = self.files[index]
        if old.source.data == source.data:
            return set()
        self.files[index] = replace(old, source=source)
        if self.program is None:
            return set()
        # Parsed from the version the program has: tree-sitter can tell what changed.
        incremental = source.previous is old.source
        edit = TextEdit.between(old.source, source)
        self._findings.edited(index, edit)
        if incremental:
            dropped = self.program.edit_body(index, source, edit.start, edit.old_end, edit.new_end)
            if dropped is not None:
                return dropped
        return self.program.replace_unit(index, self._unit(index))

    def results(self) -> list[FileResult]:
        """Findings for every target file (analyzing whatever is not analyzed yet)."""
        program = self._program()
        if program is None:
            era, reason = self._era or ("", "")
            results = [FileResult(f.source.path, era=era, era_reason=reason) for f in self.files]
            for file, result in zip(self.files, results, strict=True):
                if file.target:
                    result.unused = Suppressions.parse(file.source).unused([], self.options.select)
            return results
        results = [
            FileResult(f.source.path, era=self.era, era_reason=self.era_reason) for f in self.files
        ]
        _summarize_reachable(program, self.analyzer.api, self._reach)
        program.stabilize()
        for index, unit in enumerate(program.units):
            if not unit.target:
                continue
            result = results[index]
            result.findings, result.suppressed, result.unused = self.analyzer.report(
                program, index, self.era, self.options, self._findings
            )
            result.notes.extend(note for file, note in program.notes if file == index)
            if unit.source.tree.root_node.has_error:
                result.notes.append(
                    "the file has syntax errors; burnlint analyzed what it could parse"
                )
        self._findings.prune()
        # A stop in a file read only for context (a callee's summary) leaves the targets'
        # findings incomplete too: say so on the first target, never silently.
        first = next((i for i, unit in enumerate(program.units) if unit.target), None)
        if first is not None:
            for file, note in program.notes:
                if not program.units[file].target:
                    shown = program.units[file].source.path
                    results[first].notes.append(f"{note} (in {shown}, read for context)")
        return results
