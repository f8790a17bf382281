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

from burnlint.analysis.findings import Finding
from burnlint.analysis.options import Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.lsp.convert import ConvertOptions, Texts, note_diagnostics, to_lsp_diagnostic
from burnlint.lsp.crates import CrateCache, CrateReport, FileReport, crate_key
from burnlint.lsp.documents import uri_of

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
        for finding in findings:
            diagnostic, payload = made.diagnostic(finding, texts, job.convert, uri, version)
            diagnostics.append(diagnostic)
            payloads.append(payload)
        notes = note_diagnostics(file.notes, file.text, job.convert.encoding)
        diagnostics += notes
        payloads += (_payload(note) for note in notes)
        result_id = _digest_payloads(payloads, version)
        result.files.append(
            FileDiagnostics(uri, file.path, version, findings, diagnostics, result_id, file.notes)
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


class DiagnosticCache:
    """The LSP diagnostics made from a crate's findings, kept while the analysis reuses the
    finding objects (a finding whose text or place changed is a new object): a keystroke
    converts only what it changed."""

    def __init__(self) -> None:
        self._made: dict[
            int, tuple[Finding, ConvertOptions, str, types.Diagnostic, str, dict[str, Any]]
        ] = {}
        self._seen: set[int] = set()

    def diagnostic(
        self,
        finding: Finding,
        texts: Texts,
        convert: ConvertOptions,
        uri: str,
        version: int | None,
    ) -> tuple[types.Diagnostic, str]:
        """The finding's diagnostic stamped with `version`, and its JSON without the stamp."""
        key = id(finding)
        self._seen.add(key)
        found = self._made.get(key)
        # The entry holds the finding, so its id cannot name another object meanwhile.
        if found is None or found[0] is not finding or found[1] != convert or found[2] != uri:
            made = to_lsp_diagnostic(finding, texts, convert, None)
            data = cast(dict[str, Any], made.data)
            found = (finding, convert, uri, made, _payload(made), data)
            self._made[key] = found
        made, payload, data = found[3], found[4], found[5]
        if data["version"] == version:
            return made, payload
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
        return stamped, payload

    def prune(self) -> None:
        """Forget the diagnostics of findings the last run did not report."""
        self._made = {k: v for k, v in self._made.items() if k in self._seen}
        self._seen = set()


_MADE: WeakKeyDictionary[CrateSession, DiagnosticCache] = WeakKeyDictionary()
"""Each kept crate analysis' diagnostics (freed with the analysis)."""
