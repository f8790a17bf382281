"""Render a knowledge-base entry for a terminal."""

from __future__ import annotations

import re

from burnlint.kb.model import Entry

_FENCE = re.compile(r"^```(\w*)\s*$")


def render_entry(entry: Entry, bold: bool = False) -> str:
    """The entry as plain text: a header with the panic per era, then its sections."""

    def strong(text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if bold else text

    out = [strong(f"{entry.id} {entry.slug}: {entry.title}"), "", entry.summary, ""]
    out.append(strong("Panic messages"))
    out.append(f"  [{', '.join(entry.eras)}] {entry.message}")
    out.append(f"      {entry.source.url}")
    for variant in entry.variants:
        out.append(f"  [{variant.era}] {variant.message}")
        if variant.source is not None:
            out.append(f"      {variant.source.url}")
    for heading, text in entry.sections.items():
        out.append("")
        out.append(strong(heading))
        out.append(strong("-" * len(heading)) if not bold else "")
        for line in text.splitlines():
            if _FENCE.match(line):
                continue
            out.append(f"    {line}" if line else "")
    return "\n".join(out).rstrip() + "\n"
