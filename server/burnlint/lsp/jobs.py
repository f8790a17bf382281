"""One analysis run, as the analysis thread does it: analyze a crate from a snapshot of the open
buffers, then turn each reported file's findings into LSP diagnostics.

Everything here reads only the immutable snapshot it is given, so it can run off the event loop.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from lsprotocol.converters import get_converter

from burnlint.analysis.engine import Options
from burnlint.analysis.findings import Finding
from burnlint.analysis.syntax.source import SourceFile
from burnlint.lsp.convert import ConvertOptions, Texts, note_diagnostics, to_lsp_diagnostic
from burnlint.lsp.crates import CrateCache, CrateReport, FileReport, crate_key
from burnlint.lsp.documents import uri_of

_CONVERTER = get_converter()


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
        analyzed = cache.analyzer.analyze(SourceFile(buffer.uri, buffer.text), job.options)
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
    for file in report.files:
        uri = uris.get(str(file.path), uri_of(file.path)) if file.path else file.shown
        version = versions.get(uri)
        findings = [f for f in file.findings if f.code not in job.ignore]
        diagnostics = [to_lsp_diagnostic(f, texts, job.convert, version) for f in findings]
        diagnostics += note_diagnostics(file.notes, file.text, job.convert.encoding)
        result.files.append(
            FileDiagnostics(
                uri, file.path, version, findings, diagnostics, digest(diagnostics), file.notes
            )
        )
    result.era, result.era_reason = report.era, report.era_reason
    return result


def digest(diagnostics: list[types.Diagnostic]) -> str:
    """A result id that changes exactly when the diagnostics do."""
    payload = json.dumps(_CONVERTER.unstructure(diagnostics), sort_keys=True)
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()[:16]
