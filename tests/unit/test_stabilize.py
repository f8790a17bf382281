"""`Program.stabilize` checks only the unsettled analyses (those that may have seen a field or a
summary that changed since); a check of every analysis must find no other stale one, in every
round, on every corpus fixture and across edits of the example crate. And the indexes that
make it cheap do not grow while a file is edited."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.interp.program import Program
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb
from burnlint.loading import load_crate

ANALYZER = Analyzer(load_kb())
ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
EXAMPLE = ROOT / "examples" / "dispatch-demo"
_ERA = re.compile(r"^\s*//@\s*era:\s*(\w+)", re.MULTILINE)


@pytest.fixture(autouse=True)
def checked_stale(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every question `stabilize` asks is answered with all analyses too; the answers must be
    the same. Yields how many rounds asked (so a test can tell it exercised something)."""
    asked: list[int] = []
    original = Program.stale

    def stale(self: Program, among: set[int] | None = None) -> list[int]:
        found = original(self, among)
        if among is not None:
            assert original(self, None) == found
            asked.append(len(found))
        return found

    monkeypatch.setattr(Program, "stale", stale)
    yield asked


@pytest.mark.parametrize(
    "path",
    sorted(p for p in CORPUS.rglob("*.rs") if "crates" not in p.relative_to(CORPUS).parts),
    ids=lambda p: p.relative_to(CORPUS).as_posix(),
)
def test_single_file_fixtures(path: Path, checked_stale: list[int]) -> None:
    text = path.read_text(encoding="utf-8")
    era = _ERA.search(text)
    options = Options(era=era.group(1) if era else None)
    session = CrateSession(ANALYZER, [CrateFile(SourceFile(path.as_posix(), text))], options)
    session.results()
    # A file no rule can fire in (another era, no sink word) is never analyzed.
    assert checked_stale or session.program is None


@pytest.mark.parametrize("crate", sorted((CORPUS / "crates").iterdir()), ids=lambda p: p.name)
def test_crate_fixtures(crate: Path, checked_stale: list[int]) -> None:
    manifest = next(crate.rglob("Cargo.toml"))
    sources = sorted(manifest.parent.rglob("*.rs"))
    loaded = load_crate(sources[0], {}, everything=True)
    session = CrateSession(ANALYZER, list(loaded.files), Options(), loaded.crate)
    session.results()
    assert checked_stale or session.program is None


_SWAPS = {b"0.125f32": b"0.250f32", b"0.250f32": b"0.125f32", b"Disabled": b"Detached"}
_SWAPS[b"Detached"] = b"Disabled"
_WORDS = re.compile(b"|".join(re.escape(word) for word in _SWAPS))


def _index_sizes(program: Program) -> tuple[int, int, int]:
    return (
        sum(map(len, program._users.values())),  # pyright: ignore[reportPrivateUsage]
        sum(map(len, program._readers.values())),  # pyright: ignore[reportPrivateUsage]
        len(program._unsettled),  # pyright: ignore[reportPrivateUsage]
    )


def test_edits_of_the_example_crate(checked_stale: list[int]) -> None:
    """Body edits swap a literal or a context variant (same length, so the items stay) in
    every file of the example crate, one keystroke-sized version at a time; every second
    cycle restores the text. The indexes of who used and read what are the same size after
    each cycle that restores it."""
    loaded = load_crate(EXAMPLE / "src" / "lib.rs", {}, everything=True)
    session = CrateSession(ANALYZER, list(loaded.files), Options(states=True), loaded.crate)
    session.results()
    sizes: list[tuple[int, int, int]] = []
    edits = 0
    for _cycle in range(4):
        for index in range(len(session.files)):
            count = len(_WORDS.findall(session.files[index].source.data))
            for nth in range(count):
                before = session.files[index].source
                match = list(_WORDS.finditer(before.data))[nth]
                data = (
                    before.data[: match.start()]
                    + _SWAPS[match.group()]
                    + before.data[match.end() :]
                )
                session.update(index, SourceFile(before.path, data.decode(), previous=before))
                session.results()
                edits += 1
        program = session.program
        assert program is not None
        sizes.append(_index_sizes(program))
    assert edits > 20
    assert sizes[1] == sizes[3], sizes
    assert len(checked_stale) > edits
