"""The edit between two versions of a file (what incremental parsing and the kept findings
rely on) is the smallest one: the longest common prefix, then the longest common suffix of the
rest, however long the text and wherever the change."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from burnlint.analysis.syntax.source import text_edit


def _reference(old: bytes, new: bytes) -> tuple[int, int, int]:
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    limit = min(len(old), len(new)) - start
    kept = 0
    while kept < limit and old[-1 - kept] == new[-1 - kept]:
        kept += 1
    return start, len(old) - kept, len(new) - kept


# Few distinct bytes, so that prefixes and suffixes overlap in every way; lengths past the
# first blocks compared at once.
_TEXT = st.binary(max_size=3000).map(lambda b: bytes(c % 3 + 97 for c in b))


@given(_TEXT, st.data())
def test_the_edit_is_the_smallest(old: bytes, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    inserted = data.draw(_TEXT.map(lambda b: b[:8]))
    new = old[:start] + inserted + old[end:]
    assert text_edit(old, new) == _reference(old, new)


def test_a_long_common_run() -> None:
    old = b"x" * 100_000 + b"a" + b"y" * 70_000
    new = b"x" * 100_000 + b"bb" + b"y" * 70_000
    assert text_edit(old, new) == (100_000, 100_001, 100_002)
