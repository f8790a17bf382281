"""One analysis run, as the analysis thread does it: analyze a crate from a snapshot of the open
buffers, then turn each reported file's findings into LSP diagnostics.

Everything here reads only the immutable snapshot it is given, so it can run off the event loop.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from weakref import WeakKeyDictionary

from lsprotocol import types

from burnlint.analysis.findings import Finding, Position, Range
from burnlint.analysis.options import Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.lsp.convert import ConvertOptions, Texts, note_diagnostics, to_lsp_diagnostic
from burnlint.lsp.crates import CrateCache, CrateReport, FileReport, crate_key
from burnlint.lsp.documents import uri_of
from burnlint.lsp.wire import WireDiagnostic, json_of, wire_of

if TYPE_CHECKING:
    from burnlint.analysis.engine import CrateSession


@dataclass(frozen=True, slots=True)
class Buffer:
    """An open document as it was when the run started."""

    uri: str
    version: int
    text: str


@dataclass(frozen=True, slots=True)
class Job:
    """What to analyze: the crate around `anchor` (or, for a document that is not a file, that
    buffer alone), with these open buffers, options and settings."""

    anchor: Path | None
    buffers: dict[Path, Buffer]
    """Every open file document, by path; the run keeps those of the anchor's crate."""
    standalone: Buffer | None
    """The buffer to analyze on its own when `anchor` is None (`untitled:` documents)."""
    options: Options
    everything: bool
    convert: ConvertOptions
    ignore: frozenset[str]
    generation: int


@dataclass(frozen=True, slots=True)
class FileDiagnostics:
    """One file's outcome: its diagnostics, stamped with the version they were computed for."""

    uri: str
    path: Path | None
    version: int | None
    """The open buffer's version; None for a file read from disk."""
    findings: list[Finding]
    diagnostics: list[types.Diagnostic]
    result_id: str
    notes: list[str] = field(default_factory=list[str])
    """What the analyzer said about the file besides findings (also among `diagnostics`)."""
    wire: list[str] = field(default_factory=list[str])
    """The JSON text of each of `diagnostics` (see `lsp.wire`)."""


@dataclass(slots=True)
class JobResult:
    """A run's outcome; it is valid only while every buffer it used is unchanged."""

    generation: int
    used: dict[str, int] = field(default_factory=dict[str, int])
    """URI -> version of every open buffer the run read."""
    files: list[FileDiagnostics] = field(default_factory=list[FileDiagnostics])
    era: str = ""
    era_reason: str = ""
    """The burn era the crate was analyzed in, and why."""


def run_job(cache: CrateCache, job: Job) -> JobResult:
    """Analyze and convert; call only from the analysis thread (it uses `cache`)."""
    result = JobResult(job.generation)
    if job.anchor is None:
        buffer = job.standalone
        if buffer is None:
            return result
        analyzed = cache.analyzer.get().analyze(SourceFile(buffer.uri, buffer.text), job.options)
        report = CrateReport(era=analyzed.era, era_reason=analyzed.era_reason)
        report.files.append(
            FileReport(None, buffer.text, analyzed.findings, buffer.uri, analyzed.notes)
        )
        report.texts[buffer.uri] = (None, buffer.text)
        uris = {buffer.uri: buffer.uri}
        result.used[buffer.uri] = buffer.version
        versions = {buffer.uri: buffer.version}
    else:
        key = crate_key(job.anchor)
        buffers = {p: b for p, b in job.buffers.items() if crate_key(p) == key}
        # Open files of other crates: a dependency's unsaved edit is what its callers see.
        others = {p: b.text for p, b in job.buffers.items() if p not in buffers}
        report = cache.analyze(
            job.anchor,
            {p: b.text for p, b in buffers.items()},
            job.options,
            job.everything,
            others,
        )
        uris = {str(p): b.uri for p, b in buffers.items()}
        result.used = {b.uri: b.version for b in buffers.values()}
        versions = dict(result.used)
    texts = Texts(
        {
            shown: (uris.get(str(path), uri_of(path)) if path else shown, text)
            for shown, (path, text) in report.texts.items()
        }
    )
    made = DiagnosticCache()
    if report.session is not None:
        made = _MADE.setdefault(report.session, made)
    for file in report.files:
        uri = uris.get(str(file.path), uri_of(file.path)) if file.path else file.shown
        version = versions.get(uri)
        findings = [f for f in file.findings if f.code not in job.ignore]
        payloads: list[str] = []
        diagnostics: list[types.Diagnostic] = []
        wire: list[str] = []
        for finding in findings:
            diagnostic, shape = made.diagnostic(finding, texts, job.convert, uri, version)
            diagnostics.append(diagnostic)
            payloads.append(shape.unstamped)
            wire.append(shape.stamped(version))
        notes = note_diagnostics(file.notes, file.text, job.convert.encoding)
        diagnostics += notes
        for note in notes:
            # A note's JSON names no version: it is its payload too.
            text = json_of(note)
            payloads.append(text)
            wire.append(text)
        result_id = _digest_payloads(payloads, version)
        result.files.append(
            FileDiagnostics(
                uri, file.path, version, findings, diagnostics, result_id, file.notes, wire
            )
        )
    made.prune()
    result.era, result.era_reason = report.era, report.era_reason
    return result


def digest(diagnostics: list[types.Diagnostic]) -> str:
    """A result id that changes exactly when the diagnostics do."""
    return _digest_payloads([_payload(d) for d in diagnostics], None)


def _payload(diagnostic: types.Diagnostic) -> str:
    # Every field, nested ones too (attrs classes, dicts built in one order): equal exactly
    # when the diagnostics are, and much cheaper than their JSON.
    return repr(diagnostic)


def _digest_payloads(payloads: list[str], version: int | None) -> str:
    """The result id of diagnostics given as their JSON without the document version (the
    version they are stamped with is `version`)."""
    text = "\n".join([str(version), *payloads])
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


_Made = tuple[Finding, ConvertOptions, str, types.Diagnostic, WireDiagnostic, dict[str, Any]]
"""The finding, what it was converted with (options, URI), the diagnostic, its JSON, its data."""


class DiagnosticCache:
    """The LSP diagnostics made from a crate's findings, kept while the analysis reuses the
    finding objects (a finding whose text or place changed is a new object), and for findings
    an edit before them only moved in the file without changing a line or column they show
    (a character typed earlier in the file): a keystroke converts only what it changed."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[_Made, object]] = {}
        """By the finding's id: what it made, and its `_shown` key."""
        self._seen: set[int] = set()
        self._shown: dict[object, _Made] = {}

    def diagnostic(
        self,
        finding: Finding,
        texts: Texts,
        convert: ConvertOptions,
        uri: str,
        version: int | None,
    ) -> tuple[types.Diagnostic, WireDiagnostic]:
        """The finding's diagnostic stamped with `version`, and its JSON (to be stamped)."""
        key = id(finding)
        self._seen.add(key)
        kept = self._made.get(key)
        found = kept[0] if kept is not None else None
        # The entry holds the finding, so its id cannot name another object meanwhile.
        if found is None or found[0] is not finding or found[1] != convert or found[2] != uri:
            shown = _shown(finding)
            found = self._shown.get(shown)
            if found is None or found[1] != convert or found[2] != uri:
                made = to_lsp_diagnostic(finding, texts, convert, None)
                data = cast(dict[str, Any], made.data)
                found = (finding, convert, uri, made, wire_of(made, convert.lean_fixes), data)
                self._shown[shown] = found
            else:
                found = (finding, *found[1:])
            self._made[key] = (found, shown)
        made, shape, data = found[3], found[4], found[5]
        if data["version"] == version:
            return made, shape
        stamped = types.Diagnostic(
            range=made.range,
            message=made.message,
            severity=made.severity,
            code=made.code,
            code_description=made.code_description,
            source=made.source,
            related_information=made.related_information,
            data={**data, "version": version},
        )
        return stamped, shape

    def prune(self) -> None:
        """Forget the diagnostics of findings the last run did not report."""
        if len(self._made) != len(self._seen):
            self._made = {k: v for k, v in self._made.items() if k in self._seen}
        self._seen = set()
        if len(self._shown) > len(self._made):
            kept = {shown for _, shown in self._made.values()}
            self._shown = {k: v for k, v in self._shown.items() if k in kept}


def _shown(finding: Finding) -> object:
    """What the client sees of a finding: all of it but byte offsets. Two findings with equal
    keys make the same diagnostic: a range's line and Unicode column are the same, and so is
    the text before it on its line (an edit there would have moved or dropped the finding)."""

    def place(where: Range) -> tuple[str, Position, Position]:
        return where.path, where.start, where.end

    return (
        finding.code,
        finding.slug,
        finding.severity,
        finding.message,
        place(finding.range),
        tuple((place(r.range), r.message) for r in finding.related),
        tuple(
            (f.id, f.title, f.safety, tuple((place(e.range), e.new_text) for e in f.edits))
            for f in finding.fixes
        ),
        finding.panic,
        finding.era,
    )


_MADE: WeakKeyDictionary[CrateSession, DiagnosticCache] = WeakKeyDictionary()
"""Each kept crate analysis' diagnostics (freed with the analysis)."""
