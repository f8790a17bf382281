"""A text fires only if its words (`\\w+` runs) include one of its era's trigger words, so
reachability may skip the trigger search for a function that names none (`_ReachMemo`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burnlint.analysis.engine import Analyzer
from burnlint.eras import ERAS
from burnlint.kb.load import load_kb

API = Analyzer(load_kb()).api
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
WORD = re.compile(rb"\w+")
PIECES = [
    *sorted(API.words_of(None)),
    b".",
    b"::",
    b" ",
    b"\n",
    b"(",
    b")",
    b",",
    b"{",
    b":",
    b"=",
    b"==",
    b"<",
    b"fn ",
    b"_x",
    b"x",
    b"2",
]


def _consistent(data: bytes) -> None:
    words = set(WORD.findall(data))
    for era in (*ERAS, None):
        if API.may_fire(data, era):
            assert words & API.words_of(era), (era, data)


@pytest.mark.parametrize(
    "path", sorted(CORPUS.rglob("*.rs")), ids=lambda p: p.relative_to(CORPUS).as_posix()
)
def test_corpus_files_fire_only_with_a_trigger_word(path: Path) -> None:
    data = path.read_bytes()
    _consistent(data)
    # Each function's text too (what reachability reads), cut at `fn` keywords.
    for piece in re.split(rb"(?=\bfn\s)", data):
        _consistent(piece)


@given(st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join))
def test_texts_made_of_the_pieces(data: bytes) -> None:
    _consistent(data)


def test_the_pieces_can_fire() -> None:
    """The strategy builds firing texts (so the property checks something)."""
    assert API.may_fire(b"x.inner()", "checkpointing")
    assert not API.may_fire(b"x.inner_x()", "checkpointing")
