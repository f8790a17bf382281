"""Tidy-style checks over the knowledge base (rustc's error-index checks, clippy's lint tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import check_sections, load_kb
from burnlint.kb.model import Entry

ENTRIES = load_kb()
# Entries with a rule of their own (`BD0nn`): findings, fixes, corpus fixtures, suppressions.
# Runtime entries (`BDRnnn`) only explain panics; tests/kb/test_entries.py checks them.
STATIC = tuple(e for e in ENTRIES if e.is_static)
ANALYZER = Analyzer(ENTRIES)
README = Path(__file__).resolve().parents[2] / "README.md"
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
# Entries whose detector lands with the analyzer-depth issue; their Example is not expected to fire
# yet and they have no corpus folder. Remove a code from here when its detector lands.
NOT_YET_DETECTED: dict[str, str] = {}
_CODE_BLOCK = re.compile(r"```rust\n(.*?)```", re.DOTALL)


def _ids(entries: tuple[Entry, ...]) -> list[str]:
    return [e.id for e in entries]


def _block(entry: Entry, heading: str) -> str:
    blocks = _CODE_BLOCK.findall(entry.sections.get(heading, ""))
    assert len(blocks) == 1, f"{entry.path}: `## {heading}` needs exactly one ```rust block"
    return blocks[0]


def _analyze(entry: Entry, code: str) -> list[str]:
    crate = None
    example = entry.detect.get("example")
    if isinstance(example, dict):
        features = frozenset(example.get("autodiff_features", []))
        config = BuildConfig(declared=features, assume_on=frozenset({"autodiff"}) | features)
        crate = CrateInfo(None, "example", config, "", None, "", example["build"], features)
    source = SourceFile(f"{entry.id}.rs", code)
    result = ANALYZER.analyze(source, Options(era=entry.eras[0]), crate)
    return [f.code for f in result.findings]


def test_ids_and_slugs_are_unique() -> None:
    assert len({e.id for e in ENTRIES}) == len(ENTRIES)
    assert len({e.slug for e in ENTRIES}) == len(ENTRIES)


def test_public_codes_never_change() -> None:
    # Codes and slugs are a public interface: renumbering one breaks users' suppressions.
    expected = {
        "BD001": "autodiff-in-disabled-context",
        "BD002": "enabled-context-on-plain-float",
        "BD003": "autodiff-context-without-feature",
        "BD004": "nested-autodiff-device",
        "BD005": "nested-autodiff-tensor",
        "BD006": "mixed-backends",
        "BD007": "mixed-autodiff-and-plain",
        "BD008": "inner-on-plain",
        "BD009": "backward-without-autodiff",
        "BD011": "autodiff-to-plain-device",
        "BD012": "checkpointing-before-autodiff",
        "BD013": "inner-without-feature",
        "BD015": "checkpointing-field-as-autodiff-guard",
        "BD014": "require-grad-on-plain",
    }
    assert {e.id: e.slug for e in ENTRIES if e.id in expected} == expected


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_headings_in_order(entry: Entry) -> None:
    assert check_sections(entry) == []


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_message_grammar(entry: Entry) -> None:
    texts = [entry.title, *(f.title for f in entry.fixes)]
    if entry.is_static:
        texts += [entry.finding, entry.finding_may]
    else:
        assert not entry.finding and not entry.finding_may, (
            f"{entry.id}: runtime entries have no findings"
        )
    for text in texts:
        assert text[:1].islower(), f"{entry.id}: {text!r} must start lowercase"
        assert not text.endswith((".", "!")), f"{entry.id}: {text!r} must not end with punctuation"
        assert "\n" not in text
    assert entry.summary.endswith("."), f"{entry.id}: summary is a sentence"


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_panic_messages_and_sources(entry: Entry) -> None:
    for message, era in entry.all_messages():
        # Whitespace is checked in test_entries.py: one burn message ends with a space.
        assert message.strip() and "\n" not in message
        assert re.search(r"\{[^}]", message) is None, (
            f"{entry.id}: placeholders are written as {{}}"
        )
        assert era in ("context", "checkpointing", "any")
    assert entry.source.repo == "tracel-ai/burn" and entry.source.path.startswith("crates/")
    assert set(entry.eras) <= {"context", "checkpointing"} and entry.eras
    for related in entry.related:
        assert related in {e.id for e in ENTRIES}, f"{entry.id}: unknown related code {related}"


@pytest.mark.parametrize("entry", STATIC, ids=_ids(STATIC))
def test_example_fires_and_use_instead_is_clean(entry: Entry) -> None:
    example = _block(entry, "Example")
    fixed = _block(entry, "Use instead")
    assert _analyze(entry, fixed) == [], f"{entry.id}: `Use instead` must be clean"
    if entry.id in NOT_YET_DETECTED:
        pytest.skip(f"{entry.id}: detector not implemented yet ({NOT_YET_DETECTED[entry.id]})")
    assert entry.id in _analyze(entry, example), f"{entry.id}: `Example` must fire {entry.id}"


@pytest.mark.parametrize("entry", STATIC, ids=_ids(STATIC))
def test_every_code_has_firing_and_clean_fixtures(entry: Entry) -> None:
    firing: list[Path] = []
    clean: list[Path] = []
    folder = CORPUS / entry.id
    for source in sorted(folder.glob("*.rs")):
        (clean if "//@ clean" in source.read_text(encoding="utf-8") else firing).append(source)
    # Crate fixtures count for every code they annotate, with their clean files as look-alikes.
    for crate in sorted((CORPUS / "crates").glob("*/")):
        texts = {p: p.read_text(encoding="utf-8") for p in crate.rglob("*.rs")}
        if any(re.search(rf"//~\S*\s+(?:WARN\s+)?{entry.id}\b", t) for t in texts.values()):
            firing.extend(p for p, t in texts.items() if "//@ clean" not in t)
            clean.extend(p for p, t in texts.items() if "//@ clean" in t)
    if entry.id in NOT_YET_DETECTED:
        assert not firing, f"{entry.id} has firing fixtures now: drop it from NOT_YET_DETECTED"
        return
    assert firing and clean, f"{entry.id} needs firing and clean fixtures"
    if entry.fixes:
        assert any(folder.glob("*.fixed")), (
            f"{entry.id} offers fixes but no fixture has a .fixed file"
        )


def test_no_orphan_corpus_folders() -> None:
    codes = {e.id for e in STATIC}
    for folder in CORPUS.iterdir():
        # `crates/` holds crate fixtures, `names/` name-resolution fixtures across codes (issue 13).
        if (
            folder.is_dir()
            and not folder.name.startswith(("_", "."))
            and folder.name not in ("crates", "names")
        ):
            assert folder.name in codes, f"tests/corpus/{folder.name} names no KB entry"


def test_every_fixed_file_has_its_source() -> None:
    for fixed in CORPUS.rglob("*.fixed"):
        assert fixed.with_suffix(".rs").exists(), f"{fixed} has no .rs"


def test_readme_codes_table_matches_the_kb() -> None:
    readme = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (BD\d{3}) \| ([a-z0-9-]+) \| (.+?) \| (.+?) \|$", readme, re.MULTILINE)
    assert [(code, slug, title) for code, slug, title, _ in rows] == [
        (e.id, e.slug, e.title) for e in STATIC
    ]
    for code, _, _, detected in rows:
        assert (detected == "yes") == (code not in NOT_YET_DETECTED), code


def test_readme_lists_every_runtime_entry() -> None:
    # README's table of runtime entries: | code | slug | panic explained | detection | detected by |
    readme = README.read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| (BDR\d{3}) \| ([a-z0-9-]+) \| (.+?) \| (.+?) \| (.+?) \|$", readme, re.MULTILINE
    )
    expected = [
        (e.id, e.slug, e.title, e.detection, ", ".join(e.detected_by) or "—")
        for e in ENTRIES
        if not e.is_static
    ]
    missing = [row[0] for row in expected if row not in rows]
    assert rows == expected, (
        f"README's runtime-entry table is out of date (missing or changed: {missing})"
    )
