"""Quality gate for the knowledge base: every burn dispatch panic is explained by an entry.

`data/burn-panics.tsv` is a copy of the research inventory of burn's panics (columns: message,
path, line, commit, trigger, static), one row per place in burn's source that panics. Its messages
are written as burn's source has them, placeholders as `{}`. Entries store the same text, or the
text the panic prints at run time, which Rust's panic macros prefix (`unreachable!(m)` prints
`internal error: entered unreachable code: m`, `unimplemented!(m)` `not implemented: m`, ...).

Static entries (`BD0nn`) have a rule of their own; runtime entries (`BDRnnn`) explain a panic that
no rule reports (`runtime-only`) or that other rules report in part (`partial`, listed in
`detected_by`). For every entry whose bug some rule detects, that rule must fire on the entry's
Example and stay quiet on its Use instead; for runtime-only entries no rule may fire at all (if one
does, the entry is partial and must say so).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from test_consistency import _analyze, _block

from burnlint.analysis.engine import Analyzer
from burnlint.analysis.syntax.source import SourceFile
from burnlint.eras import CONTEXT
from burnlint.kb.load import RUNTIME_ID, STATIC_ID, check_sections, load_kb
from burnlint.kb.match import EXACT, PLACEHOLDER, PREFIX, best_matches, find_matches, message_eras
from burnlint.kb.model import DETECTIONS, Entry
from burnlint.lsp.markdown import entry_markdown
from burnlint.report.explain import render_entry

INVENTORY = Path(__file__).resolve().parent / "data" / "burn-panics.tsv"
BURN_022 = Path(__file__).resolve().parent / "data" / "burn-022-messages.tsv"
"""The messages of burn 0.22.x (burn-022.md section D), copied because CI has no research folder:
each with its status against the inventory above (same, new, changed, removed), whether 0.22.x
raises it (`yes`, `no`, or `unknown` where the research could not tell) and how it must match
(`exact`, or `prefix` where the full 0.22.x text was not seen)."""
ENTRIES = load_kb()
ANALYZER = Analyzer(ENTRIES)
STATIC_IDS = frozenset(e.id for e in ENTRIES if e.is_static)
RUNTIME = tuple(e for e in ENTRIES if not e.is_static)
DETECTED = tuple(e for e in ENTRIES if e.detected_by)
RUNTIME_ONLY = tuple(e for e in ENTRIES if e.detection == "runtime-only")
UNCONFIRMED = tuple(e for e in ENTRIES if not e.confirmed)
# Prefixes Rust's panic macros put before a message (burn-dispatch.md, section 2).
PANIC_PREFIXES = (
    "internal error: entered unreachable code: ",
    "not implemented: ",
    "not yet implemented: ",
    "assertion `left == right` failed: ",
)
# burn's own text, kept verbatim although it ends with a space (burn-autodiff checkpoint/base.rs).
VERBATIM_WHITESPACE = frozenset({"Node {} is not in the backward_states. "})


class Row(NamedTuple):
    """One place in burn that panics: the message as burn's source writes it, and where."""

    message: str
    path: str
    line: int


def _table(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def _inventory() -> list[Row]:
    table = _table(INVENTORY)
    assert table[0][:3] == ["message", "path", "line"], "the inventory starts with its header row"
    # `path` may carry a note after the file name ("routing.rs (generated)"); `line` may be empty
    # for versions after the research snapshot whose line is unknown.
    return [Row(r[0], r[1].split()[0], int(r[2]) if r[2] else 0) for r in table[1:]]


ROWS = _inventory()


def _ids(entries: tuple[Entry, ...]) -> list[str]:
    return [e.id for e in entries]


def _source_text(message: str) -> set[str]:
    """The message as stored, and as burn's source writes it (without a panic-macro prefix)."""
    out = {message}
    out.update(message[len(p) :] for p in PANIC_PREFIXES if message.startswith(p))
    return out


def _explained() -> dict[str, set[str]]:
    """Each message burn's source writes, mapped to the entries that explain it."""
    out: dict[str, set[str]] = {}
    for entry in ENTRIES:
        for message, _ in entry.all_messages():
            for text in _source_text(message):
                out.setdefault(text, set()).add(entry.id)
    return out


# --- (a) coverage of the inventory -------------------------------------------------------------


def test_inventory_copy_is_whole() -> None:
    # 218 places in burn's source, 106 distinct messages (the research table, header excluded).
    assert len(ROWS) == 218
    assert len({row.message for row in ROWS}) == 106


def test_every_panic_message_is_explained() -> None:
    explained = _explained()
    missing = sorted({row.message for row in ROWS} - set(explained))
    if missing:
        print("messages no entry explains:", *missing, sep="\n  ")
    assert not missing, f"{len(missing)} burn panic messages have no knowledge-base entry"


def test_every_panic_location_is_listed() -> None:
    # Each row's place is a `source`/`sources` of an entry with that message; a row without a line
    # (a later version of the file) needs only the path.
    places: dict[str, set[tuple[str, int]]] = {}
    for entry in ENTRIES:
        for message, source in entry.locations():
            for text in _source_text(message):
                places.setdefault(text, set()).add((source.path, source.line))
    missing = [
        row
        for row in ROWS
        if not any(
            path == row.path and row.line in (0, line)
            for path, line in places.get(row.message, set())
        )
    ]
    if missing:
        print("places no entry lists:", *missing, sep="\n  ")
    assert not missing


class Message022(NamedTuple):
    """One message of burn 0.22.x's panic inventory."""

    message: str
    status: str
    in_022: str
    match: str
    where: str


def _messages_022() -> list[Message022]:
    table = _table(BURN_022)
    assert table[0] == list(Message022._fields)
    return [Message022(*r) for r in table[1:]]


ROWS_022 = _messages_022()


def test_burn_022_copy_is_whole() -> None:
    assert len(ROWS_022) == 38
    assert {r.status for r in ROWS_022} == {"same", "new", "changed", "removed"}
    assert {r.in_022 for r in ROWS_022} == {"yes", "no", "unknown"}


@pytest.mark.parametrize("row", ROWS_022, ids=[r.message[:50] for r in ROWS_022])
def test_every_burn_022_message_is_explained_with_its_burn_versions(row: Message022) -> None:
    best = best_matches(find_matches(ENTRIES, row.message))
    assert best, "no entry explains it"
    allowed = {EXACT, PLACEHOLDER} | ({PREFIX} if row.match == "prefix" else set())
    assert best[0].kind in allowed, best[0].kind
    for match in best:
        assert match.entry.versions_of(match.message), (
            f"{match.entry.id} names no burn versions for {match.message!r}"
        )
    versions = [v for m in best for v in m.entry.versions_of(m.message)]
    if row.in_022 == "yes":
        # A log of 0.22.x without a burn path must not be read as another era's panic.
        assert CONTEXT in frozenset().union(*(message_eras(m.entry, m.message) for m in best))
        assert any("0.22.0 and 0.22.1" in v or "0.22.x" in v for v in versions), versions
    if row.in_022 == "no":
        assert not any("0.22.0 and 0.22.1 included" in v for v in versions), versions


# --- (b) structure --------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_entry_has_the_seven_sections_in_order(entry: Entry) -> None:
    assert check_sections(entry) == []


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_detection_fields(entry: Entry) -> None:
    assert entry.detection in DETECTIONS
    assert set(entry.detected_by) <= STATIC_IDS, f"{entry.id}: detected_by names a non-static code"
    assert bool(entry.detected_by) == (entry.detection != "runtime-only")
    if entry.is_static:
        assert STATIC_ID.match(entry.id) and entry.id in entry.detected_by
        assert entry.detect, f"{entry.id}: a static entry has a [detect] table"
    else:
        assert RUNTIME_ID.match(entry.id), f"{entry.id}: runtime entries use BDRnnn codes"
        assert entry.severity == "error", f"{entry.id}: a panic is an error"
        assert not entry.fixes and not entry.finding, f"{entry.id}: no findings, so no fixes"
        assert "no automatic fix" in entry.sections["Fix safety"].lower()


def test_ids_are_unique_and_runtime_ids_sequential() -> None:
    assert len({e.id for e in ENTRIES}) == len(ENTRIES)
    assert len({e.slug for e in ENTRIES}) == len(ENTRIES)
    assert [e.id for e in RUNTIME] == [f"BDR{n:03d}" for n in range(1, len(RUNTIME) + 1)]


def test_runtime_codes_never_change() -> None:
    # Codes and slugs are a public interface (`burnlint explain BDR001`): append, never renumber.
    expected = {
        "BDR001": "autodiff-op-on-plain-tensor",
        "BDR002": "autodiff-feature-disabled",
        "BDR003": "autodiff-and-plain-mixed",
        "BDR004": "checkpointing-strategy-mismatch",
        "BDR005": "checkpointing-on-plain-device",
        "BDR006": "autodiff-tensor-to-plain-device",
        "BDR007": "autodiff-tensor-cross-backend-move",
        "BDR008": "replacement-gradient-wrong-backend",
        "BDR009": "non-float-autodiff-kind",
        "BDR010": "backend-tensor-variant-mismatch",
        "BDR011": "autodiff-primitive-conversion-mismatch",
        "BDR012": "from-backend-autodiff-handle",
        "BDR013": "q-matmul-two-float-operands",
        "BDR014": "require-grad-on-non-leaf",
        "BDR015": "backward-without-recorded-step",
        "BDR016": "differentiate-backward-op",
        "BDR017": "burn-device-env-unavailable",
        "BDR018": "device-id-backend-not-compiled",
        "BDR019": "capture-device-limits",
        "BDR020": "cross-backend-move-read-failed",
        "BDR021": "remote-server-unsupported-device",
        "BDR022": "distributed-unsupported-backend",
        "BDR023": "distributed-mixed-devices",
        "BDR024": "distributed-op-not-implemented",
        "BDR025": "transaction-quantized-read",
        "BDR026": "backend-extension-inputs-mismatch",
        "BDR027": "backend-extension-no-backend",
        "BDR028": "backend-extension-unexpected-output",
        "BDR029": "dispatch-internal-invariant",
        "BDR030": "autodiff-checkpoint-bookkeeping",
        "BDR031": "autodiff-graph-bookkeeping",
        "BDR032": "gradient-consumed-before-registered",
        "BDR033": "gradient-broadcast-shape-mismatch",
    }
    assert {e.id: e.slug for e in RUNTIME if e.id in expected} == expected


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_sources_and_references(entry: Entry) -> None:
    for _, source in entry.locations():
        assert source.repo == "tracel-ai/burn" and source.path.startswith("crates/"), entry.id
        assert source.line >= 0 and source.commit, entry.id
    assert entry.references, f"{entry.id}: list the burn source lines and PRs/issues"
    assert all(url.startswith("https://") for url in entry.references), entry.id


# --- (c) grammar -------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_message_grammar(entry: Entry) -> None:
    pairs = entry.all_messages()
    assert len(set(pairs)) == len(pairs), f"{entry.id}: a message is listed twice for one era"
    assert pairs[0][0] == entry.message and pairs[0][1] == entry.eras[0]
    for message, era in pairs:
        assert message and "\n" not in message, f"{entry.id}: {message!r} is one line"
        assert message == message.strip() or message in VERBATIM_WHITESPACE, (
            f"{entry.id}: {message!r} has leading or trailing whitespace"
        )
        assert era in ("context", "checkpointing", "any"), entry.id
    # Titles follow the static entries' style: lowercase, no final punctuation, one table cell.
    assert entry.title[:1].islower() and not entry.title.endswith((".", "!", ":"))
    assert "|" not in entry.title and "\n" not in entry.title
    assert entry.summary.endswith(".") and "\n" not in entry.summary
    assert set(entry.eras) <= {"context", "checkpointing"} and entry.eras


@pytest.mark.parametrize("entry", UNCONFIRMED, ids=_ids(UNCONFIRMED))
def test_unconfirmed_entries_say_so(entry: Entry) -> None:
    text = entry.sections["When it happens"].lower()
    assert re.search(r"unconfirmed|not confirmed|know of none", text), (
        f"{entry.id}: `confirmed = false` must be explained in `When it happens`"
    )


# --- (d) code blocks parse ----------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_code_blocks_parse(entry: Entry) -> None:
    for heading in ("Example", "Use instead"):
        source = SourceFile(f"{entry.id}.rs", _block(entry, heading))
        assert not source.tree.root_node.has_error, f"{entry.id}: `{heading}` has a syntax error"


# --- (e) static detection agrees with `detection` -----------------------------------------------


@pytest.mark.parametrize("entry", DETECTED, ids=_ids(DETECTED))
def test_detecting_rule_fires_on_example(entry: Entry) -> None:
    fired = _analyze(entry, _block(entry, "Example"))
    assert set(fired) & set(entry.detected_by), (
        f"{entry.id}: none of {entry.detected_by} fires on `Example` (got {fired})"
    )
    assert _analyze(entry, _block(entry, "Use instead")) == [], f"{entry.id}: `Use instead` fires"


@pytest.mark.parametrize("entry", RUNTIME_ONLY, ids=_ids(RUNTIME_ONLY))
def test_runtime_only_examples_stay_quiet(entry: Entry) -> None:
    # A rule firing here would detect the entry in part: then it is `partial`, not runtime-only.
    for heading in ("Example", "Use instead"):
        assert _analyze(entry, _block(entry, heading)) == [], f"{entry.id}: `{heading}` fires"


# --- rendering -----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", RUNTIME, ids=_ids(RUNTIME))
def test_runtime_entries_render(entry: Entry) -> None:
    text = render_entry(entry)
    assert text.startswith(f"{entry.id} {entry.slug}: ") and "Detection: " in text
    assert all(message in text for message, _ in entry.all_messages())
    markdown = entry_markdown(entry)
    assert f"### {entry.id}" in markdown and "#### Use instead" in markdown


def test_entries_without_detect_add_no_vocabulary() -> None:
    # The API model is compiled from [detect] tables only: runtime entries leave it unchanged.
    static_only = Analyzer(tuple(e for e in ENTRIES if e.detect))
    assert static_only.api.rules == ANALYZER.api.rules
    assert static_only.api.sinks == ANALYZER.api.sinks
