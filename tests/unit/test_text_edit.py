"""The edit between two versions of a file (what incremental parsing and the kept findings
rely on) is the smallest one: the longest common prefix, then the longest common suffix of the
rest, however long the text and wherever the change."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from burnlint.analysis.syntax.source import SourceFile, text_edit


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


# Lines of a few characters, so that edits join, split, add and remove lines.
_LINES = st.text(alphabet="ab\n", max_size=400)


@given(_LINES, st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), _LINES.map(lambda t: t[:6]))))
def test_a_version_made_from_the_last_has_the_same_line_index(
    first: str, edits: list[tuple[float, float, str]]
) -> None:
    """Each version's line starts are worked out from the last version's and the edit: the
    same as a fresh file's, after any sequence of edits."""
    version = SourceFile("a.rs", first)
    assert version.tree is not None  # parsed: the next version is made from it
    for left, right, inserted in edits:
        text = version.text
        start = int(left * len(text))
        end = start + int(right * (len(text) - start))
        after = SourceFile("a.rs", text[:start] + inserted + text[end:], previous=version)
        fresh = SourceFile("a.rs", after.text)
        assert after.line_count == fresh.line_count
        lines = range(fresh.line_count)
        assert [after.line_bytes(i) for i in lines] == [fresh.line_bytes(i) for i in lines]
        offsets = range(len(fresh.data) + 1)
        assert [after.line_of(o) for o in offsets] == [fresh.line_of(o) for o in offsets]
        # tree-sitter's points: the newlines before the offset, the bytes since the last one.
        data = fresh.data
        assert [after.point(o) for o in offsets] == [
            (data.count(b"\n", 0, o), o - (data.rfind(b"\n", 0, o) + 1)) for o in offsets
        ]
        assert after.edit_from(version) == text_edit(version.data, after.data)
        assert after.edit_from(fresh) == text_edit(fresh.data, after.data)
        assert after.tree.root_node.end_byte == len(after.data)
        version = after
