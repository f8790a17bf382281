"""The trigger-word prefilter (`ApiModel.may_fire`) skips only code no rule can fire on.

It is derived from the knowledge base's sinks and API rules, so these tests iterate the knowledge
base: every entry whose bug a rule detects must not skip its `## Example`, nor any corpus fixture
that expects a finding (tests/corpus/<code>/, and crates under tests/corpus/crates/). A new rule
or entry is covered without touching this file, and a rule added to the knowledge base extends the
prefilter by itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_consistency import _block  # pyright: ignore[reportPrivateUsage]

from burnlint.analysis.engine import Analyzer
from burnlint.analysis.interp.effects import EFFECTS
from burnlint.analysis.semantics.api import build_model
from burnlint.kb.load import load_kb
from burnlint.kb.model import Entry

ENTRIES = load_kb()
API = Analyzer(ENTRIES).api
DETECTED = tuple(e for e in ENTRIES if e.detected_by)
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
EXPECTS = re.compile(r"//~")


def _fixtures() -> list[Path]:
    """Every single-file corpus fixture that expects a finding, for every static code."""
    found: list[Path] = []
    for entry in ENTRIES:
        folder = CORPUS / entry.id
        if entry.is_static and folder.is_dir():
            found += [p for p in sorted(folder.rglob("*.rs")) if EXPECTS.search(_read(p))]
    return found


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


FIXTURES = _fixtures()
CRATES = sorted(
    manifest.parent
    for manifest in (CORPUS / "crates").glob("*/Cargo.toml")
    if any(EXPECTS.search(_read(p)) for p in manifest.parent.rglob("*.rs"))
)


def test_there_is_something_to_check() -> None:
    assert DETECTED and len(FIXTURES) > 20 and CRATES


@pytest.mark.parametrize("entry", DETECTED, ids=[e.id for e in DETECTED])
def test_no_detected_entry_example_is_skipped(entry: Entry) -> None:
    example = _block(entry, "Example")
    assert API.may_fire(example.encode("utf-8")), f"{entry.id}: the prefilter skips `## Example`"


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURES])
def test_no_firing_fixture_is_skipped(path: Path) -> None:
    assert API.may_fire(path.read_bytes()), f"{path}: the prefilter skips a fixture with findings"


@pytest.mark.parametrize("crate", CRATES, ids=[c.name for c in CRATES])
def test_no_firing_crate_is_skipped(crate: Path) -> None:
    # A crate is analyzed when any of its files may fire.
    assert any(API.may_fire(p.read_bytes()) for p in crate.rglob("*.rs")), crate


def test_a_new_rule_extends_the_prefilter() -> None:
    code = b"pub fn f(t: Tensor<2>) -> Tensor<2> { t.rewrap_tracked() }\n"
    assert not API.may_fire(code)
    specs = [(entry.id, entry.detect) for entry in ENTRIES]
    # A hypothetical entry: a new Tensor method that lifts its receiver into autodiff again,
    # reaching BD005's lift sink.
    new_rule = {"api": [{"methods": ["rewrap_tracked"], "effect": "tensor-lift"}]}
    extended = build_model([*specs, ("BD999", new_rule)], EFFECTS)
    assert extended.may_fire(code)
    # A new sink of its own extends it too.
    sink = {
        "sinks": [
            {
                "site": "call",
                "calls": ["fuse_tracked"],
                "tensors": [0],
                "when": {"tensor": "autodiff"},
            }
        ]
    }
    assert build_model([*specs, ("BD998", sink)], EFFECTS).may_fire(b"let y = fuse_tracked(x);")
