"""Analyze one Rust file: parse, lower, interpret with summaries, and report findings."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from burnlint.analysis import ir
from burnlint.analysis.api import ApiModel, build_model
from burnlint.analysis.calls import Context, Summary
from burnlint.analysis.cfg import BuildConfig
from burnlint.analysis.crate import CrateInfo, era_from_text, find_crate
from burnlint.analysis.findings import Finding, Range, Related
from burnlint.analysis.fixes import build_fixes
from burnlint.analysis.interp import Budget, Interpreter
from burnlint.analysis.items import FileItems, collect_items
from burnlint.analysis.observe import ObservationKey
from burnlint.analysis.sinks import Observation
from burnlint.analysis.source import SourceFile
from burnlint.kb.model import Entry

MAX_SUMMARY_ROUNDS = 4


@dataclass(frozen=True, slots=True)
class Options:
    """How to analyze: era override, codes to report, time budget per file."""

    era: str | None = None
    select: frozenset[str] | None = None
    budget_seconds: float = 5.0


@dataclass(slots=True)
class FileResult:
    """Findings for one file plus what the analyzer decided about it."""

    path: str
    findings: list[Finding] = field(default_factory=list[Finding])
    era: str = ""
    era_reason: str = ""
    notes: list[str] = field(default_factory=list[str])


class Analyzer:
    """Holds the knowledge base and the API model compiled from it; analyzes files."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.by_code = {entry.id: entry for entry in entries}

    @cached_property
    def api(self) -> ApiModel:
        """The API model: the union of every entry's `[detect]` table."""
        return build_model([(entry.id, entry.detect) for entry in self.entries])

    def analyze_path(self, path: Path, text: str, options: Options, shown_path: str) -> FileResult:
        """Analyze a file's text, taking crate facts (era, features) from around `path`."""
        return self.analyze(SourceFile(shown_path, text), options, find_crate(path))

    def analyze(
        self, source: SourceFile, options: Options, crate: CrateInfo | None = None
    ) -> FileResult:
        """Analyze one parsed file."""
        crate = crate or CrateInfo(None, "", BuildConfig(), "", None, "")
        result = FileResult(source.path)
        if options.era:
            result.era, result.era_reason = options.era, "set by configuration"
        elif crate.era:
            result.era, result.era_reason = crate.era, crate.era_reason
        else:
            result.era, result.era_reason = era_from_text(source.data)
        api = self.api
        if not api.may_fire(source.data):
            return result
        items = collect_items(source, crate.config, api.scope_names.__contains__)
        deadline = time.monotonic() + options.budget_seconds
        observations: dict[ObservationKey, Observation] = {}
        try:
            observations = self._interpret(items, api, result.era, deadline)
        except Budget:
            result.notes.append(
                f"analysis stopped after {options.budget_seconds:g}s; findings may be incomplete"
            )
        for observation in observations.values():
            finding = self._finding(source, observation, items, result.era, options)
            if finding is not None:
                result.findings.append(finding)
        result.findings.sort(key=lambda f: f.sort_key)
        if source.tree.root_node.has_error:
            result.notes.append("the file has syntax errors; burnlint analyzed what it could parse")
        return result

    def _interpret(
        self, items: FileItems, api: ApiModel, era: str, deadline: float
    ) -> dict[ObservationKey, Observation]:
        free: dict[str, list[ir.Function]] = {}
        methods: dict[str, list[ir.Function]] = {}
        owned: dict[tuple[str | None, str], list[ir.Function]] = {}
        for function in items.functions:
            if function.has_self:
                methods.setdefault(function.name, []).append(function)
            elif function.owner is None:
                free.setdefault(function.name, []).append(function)
            owned.setdefault((function.owner, function.name), []).append(function)

        def resolve_function(segments: tuple[str, ...], owner: str | None) -> list[ir.Function]:
            name = segments[-1]
            if len(segments) == 1:
                return free.get(name, [])
            prefix = segments[-2]
            if prefix == "Self":
                return owned.get((owner, name), [])
            if prefix[:1].isupper():
                return owned.get((prefix, name), [])
            return free.get(name, [])

        def resolve_method(name: str, owner: str | None, on_self: bool) -> list[ir.Function]:
            if on_self:
                return [f for f in owned.get((owner, name), []) if f.has_self]
            candidates = methods.get(name, [])
            return candidates if len(candidates) == 1 else []

        summaries: dict[int, Summary] = {}
        context = Context(
            api,
            era,
            items.imports,
            items.consts,
            resolve_function,
            resolve_method,
            summaries,
            deadline,
        )
        per_function: dict[int, dict[ObservationKey, Observation]] = {}
        used: dict[int, dict[int, Summary | None]] = {}
        pending = list(items.functions)
        for _ in range(MAX_SUMMARY_ROUNDS):
            for function in pending:
                interpreter = Interpreter(context, function)
                summary = interpreter.run()
                key = function.span.start
                old = summaries.get(key)
                if old is None or old.cases != summary.cases or old.hits != summary.hits:
                    summaries[key] = summary
                per_function[key] = interpreter.observer.observations
                used[key] = interpreter.calls.used
            # Re-run only the functions that used a callee summary that has changed since.
            pending = [
                f
                for f in items.functions
                if any(
                    summaries.get(callee) is not seen for callee, seen in used[f.span.start].items()
                )
            ]
            if not pending:
                break
        observations: dict[ObservationKey, Observation] = {}
        for found in per_function.values():
            observations.update(found)
        return observations

    def _finding(
        self,
        source: SourceFile,
        observation: Observation,
        items: FileItems,
        era: str,
        options: Options,
    ) -> Finding | None:
        site = observation.site
        if options.select is not None and site.code not in options.select:
            return None
        entry = self.by_code.get(site.code)
        if entry is None:
            return None
        bugs = [(v, lossy) for v, lossy in observation.verdicts if v in ("must", "may")]
        if not bugs:
            return None
        precise = [v for v, lossy in bugs if not lossy]
        if not precise and all(v == "may" for v, _ in bugs):
            return None
        must = all(v == "must" and not lossy for v, lossy in observation.verdicts)
        severity = entry.severity if must else "warning"

        def to_range(span: ir.Span) -> Range:
            return Range(
                source.path,
                span.start,
                span.end,
                source.position(span.start),
                source.position(span.end),
            )

        def text_of(span: ir.Span) -> str:
            return source.slice(span.start, span.end)

        names: dict[str, str] = {}
        for role, span in site.role_spans:
            text = text_of(span)
            names[role] = f"`{text}`" if len(text) <= 40 and "\n" not in text else ""
        template = entry.finding if must else entry.finding_may
        # A long expression is left out of the message; the range already points at it.
        message = " ".join(template.format_map(_Names(names)).split())
        related: list[Related] = []
        seen: set[tuple[int, int, str]] = set()
        origins = sorted(
            (origin for value in observation.values.values() for origin in value.origins),
            key=lambda o: (o.span.start, o.label),
        )
        for origin in origins:
            key = (origin.span.start, origin.span.end, origin.label)
            if key in seen or (origin.span.start, origin.span.end) == (
                site.span.start,
                site.span.end,
            ):
                continue
            seen.add(key)
            related.append(Related(to_range(origin.span), origin.label))
        for label, span in site.chain:
            related.append(Related(to_range(span), label))
        fixes = build_fixes(entry, observation, era, not must, items.imports, text_of, to_range)
        return Finding(
            code=entry.id,
            slug=entry.slug,
            severity=severity,
            message=message,
            range=to_range(site.span),
            related=tuple(related),
            fixes=fixes,
            panic=entry.panic_for(era, site.variant),
            era=era,
        )


class _Names(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""
