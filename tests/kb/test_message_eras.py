"""One source of truth for "which message in which era" (`Entry.message_eras`): the entry as
`explain` prints it, the era a log's panic implies, and the README's era table agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burnlint.kb.load import load_kb
from burnlint.kb.match import message_eras
from burnlint.kb.model import Entry
from burnlint.panic_log import analyze
from burnlint.report.explain import render_entry

ENTRIES = load_kb()
BY_ID = {entry.id: entry for entry in ENTRIES}
README = Path(__file__).resolve().parents[2] / "README.md"


def _printed_tags(entry: Entry) -> dict[str, tuple[str, ...]]:
    """message -> the era tags `burnlint explain` prints before it."""
    tags: dict[str, tuple[str, ...]] = {}
    for line in render_entry(entry).splitlines():
        found = re.match(r"^  \[(?P<eras>[^\]]*)\] (?P<message>.+)$", line)
        if found is not None:
            tags[found.group("message")] = tuple(found.group("eras").split(", "))
    return tags


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_the_printed_entry_tags_each_message_with_the_eras_it_panics_in(entry: Entry) -> None:
    tags = _printed_tags(entry)
    for message, _ in entry.all_messages():
        assert tags[message] == entry.message_eras(message), message
        for era in tags[message]:
            if era != "any":
                assert entry.panic_for(era) == message or any(
                    v.message == message and v.era == era for v in entry.variants
                ), (era, message)


def test_the_seed_message_is_tagged_with_the_era_a_log_summary_names() -> None:
    bd001 = BY_ID["BD001"]
    log = (
        "thread 'main' panicked at src/lib.rs:3:5:\n"
        "an autodiff float primitive must have an enabled autodiff context\n"
    )
    (group,) = analyze(ENTRIES, log)
    assert group.era == "context"
    assert "only exists in the context era" in group.era_reason
    # The entry printed below the summary says the same.
    assert _printed_tags(bd001)[bd001.message] == ("context",)
    assert message_eras(bd001, bd001.message) == frozenset({"context"})


def test_the_readme_era_table_names_each_era_s_bd001_message() -> None:
    bd001 = BY_ID["BD001"]
    rows = re.findall(
        r"^\| `(context|checkpointing)` \|.*\| `(?P<message>[^`|]+)` \|$",
        README.read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert {era for era, _ in rows} == {"context", "checkpointing"}
    for era, message in rows:
        assert bd001.panic_for(era) == message
        assert era in bd001.message_eras(message)
