"""Typed, frozen records for knowledge-base entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SECTIONS = (
    "What it means",
    "When it happens",
    "How to fix",
    "Example",
    "Use instead",
    "Fix safety",
    "References",
)
SEVERITIES = ("error", "warning", "info", "hint")
SAFETIES = ("safe", "unsafe")
DETECTIONS = ("static", "partial", "runtime-only")
"""How much of an entry burnlint finds before burn panics: `static`, the entry's own rule reports
it (codes `BD0nn`); `partial`, a panic explained by the knowledge base whose causes other static
rules (listed in `detected_by`) report in part; `runtime-only`, no rule reports it and the entry
only explains the panic (codes `BDRnnn` for both)."""


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where burn writes a panic message."""

    repo: str
    path: str
    line: int
    commit: str

    @property
    def url(self) -> str:
        """A GitHub link to the line (the commit may be unknown, then the default branch)."""
        ref = self.commit if all(c in "0123456789abcdef" for c in self.commit) else "main"
        line = f"#L{self.line}" if self.line else ""
        return f"https://github.com/{self.repo}/blob/{ref}/{self.path}{line}"


@dataclass(frozen=True, slots=True)
class Variant:
    """Another message for the same bug: another burn era, or another API that panics."""

    message: str
    era: str
    id: str = ""
    versions: str = ""
    source: SourceRef | None = None
    sources: tuple[SourceRef, ...] = ()
    """Further places in burn that panic with the same message (after `source`)."""


@dataclass(frozen=True, slots=True)
class FixTemplate:
    """How a finding of this entry can be fixed; the edit is built by `analysis.fixes`."""

    id: str
    title: str
    safety: str
    replacement: dict[str, str]
    target: dict[str, str]
    unsafe_when: tuple[str, ...] = ()
    omit_when: tuple[str, ...] = ()
    """Conditions (`plain-path`: the edited site is also reached with a plain float tensor, as a
    closure called on plain and autodiff tensors is) under which the fix is not offered at all,
    because the edit would break the paths that work."""
    absorbs: str = ""
    """A call that must directly follow the target (`.autodiff()`), replaced with it: the
    fix reorders a builder chain. Without it there, the fix is not offered."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One knowledge-base entry: front matter plus the Markdown body split by heading."""

    id: str
    slug: str
    title: str
    summary: str
    severity: str
    category: str
    message: str
    eras: tuple[str, ...]
    related: tuple[str, ...]
    references: tuple[str, ...]
    source: SourceRef
    variants: tuple[Variant, ...]
    finding: str
    finding_may: str
    fixes: tuple[FixTemplate, ...]
    detect: dict[str, Any]
    body: str
    sections: dict[str, str]
    path: str
    detection: str = "static"
    """One of `DETECTIONS`."""
    detected_by: tuple[str, ...] = ()
    """The static codes that report this entry's bug (empty for runtime-only entries)."""
    confirmed: bool = True
    """False when the cause described is an inference the research behind the entry could not
    confirm from burn's source or its issue tracker."""
    sources: tuple[SourceRef, ...] = ()
    """Further places in burn that panic with the main message (after `source`)."""
    versions: str = ""
    """The burn versions in which the main message is raised (variants carry their own)."""

    @property
    def is_static(self) -> bool:
        """Whether a burnlint rule of this entry's own reports it (codes `BD0nn`)."""
        return self.detection == "static"

    def panic_for(self, era: str, variant: str = "") -> str:
        """The panic message this bug produces in `era` (or for the named variant)."""
        if variant:
            for candidate in self.variants:
                if candidate.id == variant and candidate.era in (era, "any"):
                    return candidate.message
            for candidate in self.variants:
                if candidate.id == variant:
                    return candidate.message
        if era in self.eras and (not self.variants or self.eras[0] == era):
            return self.message
        for candidate in self.variants:
            if candidate.era == era and not candidate.id:
                return candidate.message
        return self.message

    def message_eras(self, message: str) -> tuple[str, ...]:
        """The eras in which this bug panics with `message`, in the entry's order: the one
        answer to "which message in which era" that `explain`, its log summary and the README
        share. Read as `panic_for` reads the entry (a variant with an `id` is another API in its
        era, not another era); `any` stands for every era."""
        eras = [era for era in self.eras if self.panic_for(era) == message]
        for variant in self.variants:
            if variant.message == message and variant.era not in eras:
                eras.append(variant.era)
        return tuple(eras)

    def versions_of(self, message: str) -> tuple[str, ...]:
        """The burn versions the entry names for `message`: the main message's `versions`, then
        those of each variant with that text (one text can be raised by several versions, each
        listed by its own variant)."""
        out = [self.versions] if message == self.message and self.versions else []
        out.extend(v.versions for v in self.variants if v.message == message and v.versions)
        return tuple(out)

    def all_messages(self) -> list[tuple[str, str]]:
        """Every (message, era) pair this entry explains."""
        out = [(self.message, self.eras[0] if self.eras else "")]
        out.extend((variant.message, variant.era) for variant in self.variants)
        return out

    def locations(self) -> list[tuple[str, SourceRef]]:
        """Every (message, place in burn) pair this entry documents, main message first."""
        out = [(self.message, self.source)]
        out.extend((self.message, source) for source in self.sources)
        for variant in self.variants:
            if variant.source is not None:
                out.append((variant.message, variant.source))
            out.extend((variant.message, source) for source in variant.sources)
        return out
