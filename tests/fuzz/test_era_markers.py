"""The era markers searched from a literal (`burnlint.eras`) count exactly what the plain
patterns they replace count: on every corpus file, and on texts made of the pieces where the
two could part (word boundaries, look-arounds, `::` against `:`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burnlint import eras

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

# The patterns as they were written before (one alternation each, tried at every byte).
PLAIN_CONTEXT = re.compile(
    rb"DispatchAutodiffContext|\bwithout_autodiff\b"
    rb"|\bautodiff\s*:(?!:)(?!\s*(?:bool|true|false)\b)"
)
PLAIN_CHECKPOINTING = re.compile(
    rb"\bcheckpointing\s*:|\.checkpointing\b|\bCheckpointingStrategy::None\b|\.no_grad\(\)"
)
PLAIN_GENERIC = re.compile(rb"\bTensor\s*<\s*[A-Za-z_][\w:]*\s*,\s*\d+\s*[,>]")

PIECES = [
    b"autodiff",
    b"Autodiff",
    b"without_",
    b"Dispatch",
    b"Context",
    b"my_",
    b"x",
    b"checkpointing",
    b"Checkpointing",
    b"Strategy::None",
    b".",
    b":",
    b"::",
    b" ",
    b"\n",
    b"bool",
    b"true",
    b"false",
    b".no_grad()",
    b"Tensor",
    b"My",
    b"<",
    b">",
    b",",
    b"B",
    b"2",
    b"Int",
    b"_",
]


def _counts(data: bytes) -> tuple[int, int, list[bytes]]:
    return (
        len(eras._CONTEXT_MARKERS.findall(data)),  # pyright: ignore[reportPrivateUsage]
        len(eras._CHECKPOINTING_MARKERS.findall(data))  # pyright: ignore[reportPrivateUsage]
        + data.count(b".no_grad()"),
        [m.group() for m in eras._GENERIC_TENSOR.finditer(data)],  # pyright: ignore[reportPrivateUsage]
    )


def _plain(data: bytes) -> tuple[int, int, list[bytes]]:
    return (
        len(PLAIN_CONTEXT.findall(data)),
        len(PLAIN_CHECKPOINTING.findall(data)),
        [m.group() for m in PLAIN_GENERIC.finditer(data)],
    )


@pytest.mark.parametrize(
    "path", sorted(CORPUS.rglob("*.rs")), ids=lambda p: p.relative_to(CORPUS).as_posix()
)
def test_corpus_files(path: Path) -> None:
    data = path.read_bytes()
    assert _counts(data) == _plain(data)


EDGES = [
    b"autodiff::x",
    b"autodiff: bool",
    b"autodiff:bool",
    b"autodiff :true",
    b"autodiff:\nfalse",
    b"my_autodiff: X",
    b"autodiff: X",
    b"without_autodiffx",
    b"xwithout_autodiff",
    b"without_autodiff",
    b"DispatchAutodiffContextual",
    b"ADispatchAutodiffContext",
    b"a.checkpointing_x",
    b"checkpointing :",
    b"checkpointing::",
    b"xcheckpointing:",
    b"xCheckpointingStrategy::None",
    b"CheckpointingStrategy::Nonex",
    b"CheckpointingStrategy::None",
    b"x.no_grad()",
    b"MyTensor<B, 2>",
    b"_Tensor<B, 2>",
    b"Tensor < B , 2 , Int >",
    b"Tensor<2, Int>",
    b"Tensor<B,2>",
    b"Tensor<a::B, 22>",
]


@pytest.mark.parametrize("data", EDGES)
def test_edge_cases(data: bytes) -> None:
    for text in (data, b" " + data + b" ", data + data):
        assert _counts(text) == _plain(text), text


@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join))
def test_texts_made_of_the_pieces(data: bytes) -> None:
    assert _counts(data) == _plain(data)


def test_the_pieces_make_each_marker() -> None:
    """The strategy can build every kind of marker (so the property compares something)."""
    built = b"x.checkpointing: DispatchAutodiffContext without_autodiff autodiff : Tensor<B, 2>"
    assert _plain(built) == (3, 1, [b"Tensor<B, 2>"])
