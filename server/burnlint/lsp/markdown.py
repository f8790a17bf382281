"""Knowledge-base entries and findings rendered as Markdown for hovers and `burnlint.explain`."""

from __future__ import annotations

import re
from pathlib import PurePath

from burnlint.analysis.findings import Finding
from burnlint.kb.model import Entry

_HEADING = re.compile(r"^## ", re.MULTILINE)
FINDING_SECTIONS = ("How to fix", "Example")


def inline_code(text: str) -> str:
    """`text` as inline code, with a fence longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _header(entry: Entry) -> list[str]:
    return [f"### {entry.id} `{entry.slug}`", "", f"**{entry.title}**", ""]


def entry_markdown(entry: Entry) -> str:
    """The whole entry: title, summary, the panic message of each era, then its sections."""
    out = _header(entry)
    out += [entry.summary, "", "**burn panics with**", ""]
    out += [f"- {era} era: {inline_code(message)}" for message, era in entry.all_messages()]
    out.append("")
    # The entry's own `##` headings become `####` so they sit below the hover's title.
    out.append(_HEADING.sub("#### ", entry.body.strip()))
    return "\n".join(out).rstrip() + "\n"


def finding_markdown(finding: Finding, entry: Entry) -> str:
    """One finding explained: its message, the panic for its era, the flow that leads to it
    (with line numbers), then how to fix it and an example."""
    out = _header(entry)
    out += [finding.message, ""]
    if finding.panic:
        out += [
            f"**burn panics with** ({finding.era} era):",
            "",
            "```text",
            finding.panic,
            "```",
            "",
        ]
    if finding.related:
        here = finding.range.path
        out += ["**How it gets there**", ""]
        steps = [(r.range.path, r.range.start.line, r.message) for r in finding.related]
        steps.append((here, finding.range.start.line, "reported here"))
        for number, (path, line, message) in enumerate(steps, start=1):
            where = f"line {line + 1}" if path == here else f"{PurePath(path).name}:{line + 1}"
            out.append(f"{number}. {where}: {message}")
        out.append("")
    for heading in FINDING_SECTIONS:
        text = entry.sections.get(heading)
        if text:
            out += [f"#### {heading}", "", text, ""]
    return "\n".join(out).rstrip() + "\n"
