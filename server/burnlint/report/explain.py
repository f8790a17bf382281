"""Render a knowledge-base entry for a terminal."""

from __future__ import annotations

import re

from burnlint.kb.model import Entry, SourceRef

_FENCE = re.compile(r"^```(\w*)\s*$")


def render_entry(entry: Entry, bold: bool = False) -> str:
    """The entry as plain text: a header with the panic per era, then its sections."""

    def strong(text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if bold else text

    out = [strong(f"{entry.id} {entry.slug}: {entry.title}"), "", entry.summary, ""]
    out.append(detection_line(entry))
    if not entry.confirmed:
        out.append("Cause not confirmed: see `When it happens` for what is known.")
    out.append("")
    out.append(strong("Panic messages"))
    # Each text once, with the versions and places of every burn version that raises it.
    places: dict[str, list[str]] = {entry.message: _versions(entry.versions)}
    places[entry.message].extend(_places(entry.source, entry.sources))
    for variant in entry.variants:
        lines = places.setdefault(variant.message, [])
        lines.extend(_versions(variant.versions))
        if variant.source is not None:
            lines.extend(_places(variant.source, variant.sources))
    for message, lines in places.items():
        out.append(f"  [{', '.join(entry.message_eras(message))}] {message}")
        out.extend(lines)
    for heading, text in entry.sections.items():
        out.append("")
        out.append(strong(heading))
        out.append(strong("-" * len(heading)) if not bold else "")
        for line in text.splitlines():
            if _FENCE.match(line):
                continue
            out.append(f"    {line}" if line else "")
    return "\n".join(out).rstrip() + "\n"


def detection_line(entry: Entry) -> str:
    """One sentence on how much of the entry burnlint finds statically."""
    codes = ", ".join(entry.detected_by)
    if entry.detection == "static":
        return f"Detection: static, reported by burnlint as {codes}."
    if entry.detection == "partial":
        return f"Detection: partial, some causes are reported by burnlint as {codes}."
    return "Detection: runtime only, no burnlint rule reports it; this entry explains the panic."


def _versions(versions: str) -> list[str]:
    return [f"      burn versions: {versions}"] if versions else []


def _places(source: SourceRef, more: tuple[SourceRef, ...]) -> list[str]:
    """The first place as a link, further places of the same message as `path:line` on one line."""
    out = [f"      {source.url}"]
    if more:
        others = ", ".join(
            f"{p.path.rsplit('/src/', 1)[-1]}:{p.line}" if p.line else p.path for p in more
        )
        out.append(f"      also: {others}")
    return out
