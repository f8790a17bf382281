"""A parsed Rust file: text, tree-sitter tree, and offset/position conversions.

This module and `parse_fragment` in `syntax.py` are the only users of tree_sitter's parser.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from functools import cache

import tree_sitter
import tree_sitter_rust

from burnlint.analysis.findings import Position

_SURROGATE = re.compile("[\ud800-\udfff]")


@cache
def rust_language() -> tree_sitter.Language:
    """The tree-sitter Rust grammar, loaded once per process."""
    return tree_sitter.Language(tree_sitter_rust.language())


def parse_bytes(data: bytes) -> tree_sitter.Tree:
    """Parse Rust source bytes into a tree-sitter tree."""
    return tree_sitter.Parser(rust_language()).parse(data)


def common_prefix(a: bytes, b: bytes) -> int:
    """How many leading bytes `a` and `b` share."""
    # Compared a block at a time (memcmp in C, on blocks that double in size: an edit near the
    # start costs little), then bisected inside the first block that differs.
    size = min(len(a), len(b))
    start, block = 0, 256
    while start < size:
        end = min(size, start + block)
        if a[start:end] != b[start:end]:
            return start + _first_difference(a[start:end], b[start:end])
        start, block = end, block * 2
    return size


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """How many trailing bytes `a` and `b` share, at most `limit`."""
    size = min(len(a), len(b), limit)
    done, block = 0, 256
    while done < size:
        end = min(size, done + block)
        tail_a = a[len(a) - end : len(a) - done]
        tail_b = b[len(b) - end : len(b) - done]
        if tail_a != tail_b:
            return done + _first_difference(tail_a[::-1], tail_b[::-1])
        done, block = end, block * 2
    return size


def text_edit(old: bytes, new: bytes) -> tuple[int, int, int]:
    """The smallest edit turning `old` into `new`: bytes `start`..`old_end` of `old` became
    `start`..`new_end` of `new` (the common prefix and suffix kept)."""
    start = common_prefix(old, new)
    suffix = common_suffix(old, new, min(len(old), len(new)) - start)
    return start, len(old) - suffix, len(new) - suffix


def _first_difference(a: bytes, b: bytes) -> int:
    """The length of the common prefix of two blocks of the same length that differ."""
    low, high = 0, len(a)
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def reparse(
    previous: SourceFile, current: SourceFile, edit: tuple[int, int, int]
) -> tuple[tree_sitter.Tree, list[tuple[int, int]]]:
    """Parse `current` reusing `previous`'s tree: `edit` (from `previous`'s text to `current`'s,
    see `text_edit`) is described to tree-sitter, so unchanged subtrees are not parsed again.
    Also returns the byte ranges of `current` whose syntax differs from `previous`'s
    (tree-sitter's changed ranges: outside them, the trees are the same, moved by the edit)."""
    start, old_end, new_end = edit
    tree = previous.tree.copy()
    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=previous.point(start),
        old_end_point=previous.point(old_end),
        new_end_point=current.point(new_end),
    )
    new = tree_sitter.Parser(rust_language()).parse(current.data, tree)
    changed = [(r.start_byte, r.end_byte) for r in tree.changed_ranges(new)]
    # The edit itself changed the text there, whatever tree-sitter says about its syntax.
    changed.append((start, new_end))
    return new, changed


def line_starts(data: bytes) -> list[int]:
    """The byte offset of each line's start."""
    # Each line starts one byte after the previous one ends (summed in C, not a loop).
    lengths = map(len, data.split(b"\n"))
    starts = list(itertools.accumulate(map((1).__add__, lengths), initial=0))
    starts.pop()
    return starts


def edited_line_starts(old_starts: list[int], data: bytes, edit: tuple[int, int, int]) -> list[int]:
    """`line_starts(data)`, from the line starts of the text `edit` turned into `data`: kept
    before the edit, found inside it, moved after it (a keystroke in a 5,000-line file costs
    a few list copies instead of splitting 200 KB)."""
    start, old_end, new_end = edit
    # A line starting at `s` follows the newline at `s - 1`: those before the edit stay, those
    # in it are gone, those after it move with the text.
    kept = bisect.bisect_right(old_starts, start)
    after = bisect.bisect_right(old_starts, old_end)
    found: list[int] = []
    offset = data.find(b"\n", start, new_end)
    while offset != -1:
        found.append(offset + 1)
        offset = data.find(b"\n", offset + 1, new_end)
    delta = new_end - old_end
    moved = old_starts[after:] if delta == 0 else [s + delta for s in old_starts[after:]]
    return [*old_starts[:kept], *found, *moved]


@dataclass(slots=True)
class SourceFile:
    """One Rust file's text with its parse tree and a line index over its UTF-8 bytes."""

    path: str
    text: str
    previous: SourceFile | None = field(default=None, repr=False, compare=False)
    """An earlier version of the same file: its tree is edited and reused (incremental parse)."""
    data: bytes = field(init=False)
    _tree: tree_sitter.Tree | None = field(init=False, default=None, repr=False, compare=False)
    changed: list[tuple[int, int]] | None = field(init=False, default=None, compare=False)
    """Once parsed from `previous`: the byte ranges whose syntax differs from its (see
    `reparse`); None when parsed from scratch."""
    edit: tuple[int, int, int] | None = field(init=False, default=None, compare=False)
    """When made from `previous`: the edit from its text (see `text_edit`), worked out once
    for the line index, the re-parse and the analysis."""
    _base: bytes | None = field(init=False, default=None, repr=False, compare=False)
    """The text `edit` applies to (`previous.data`, kept after `previous` is let go)."""
    _line_starts: list[int] = field(init=False)

    @property
    def tree(self) -> tree_sitter.Tree:
        """The parse tree, parsed on first use: most files of a large workspace never need
        one (no burn dispatch vocabulary in their crate)."""
        tree = self._tree
        if tree is None:
            previous = self.previous
            self.previous = None  # keep no chain of old versions alive
            if previous is not None:
                edit = self.edit if self.edit is not None else text_edit(previous.data, self.data)
                tree, self.changed = reparse(previous, self, edit)
                if tree.root_node.has_error:
                    # tree-sitter may recover from a syntax error differently when it reuses
                    # the old tree than when it parses the text afresh: broken code is parsed
                    # afresh, so what is analyzed does not depend on the versions before it.
                    tree, self.changed = parse_bytes(self.data), None
            else:
                tree = parse_bytes(self.data)
            self._tree = tree
        return tree

    def __post_init__(self) -> None:
        try:
            self.data = self.text.encode("utf-8")
        except UnicodeEncodeError:
            # Lone surrogates (a JSON `\ud800` escape from an editor, a `surrogateescape`
            # decode) have no UTF-8 form: read each as U+FFFD, one character for one, so
            # columns still count the same.
            self.text = _SURROGATE.sub("\ufffd", self.text)
            self.data = self.text.encode("utf-8")
        previous = self.previous
        if previous is not None and previous._tree is None:
            # An older version that was never parsed has no tree to reuse.
            self.previous = previous = None
        if previous is None:
            self._line_starts = line_starts(self.data)
            return
        self.edit = text_edit(previous.data, self.data)
        self._base = previous.data
        self._line_starts = edited_line_starts(previous._line_starts, self.data, self.edit)

    def edit_from(self, before: SourceFile) -> tuple[int, int, int]:
        """The smallest edit turning `before`'s text into this one's (see `text_edit`)."""
        if self.edit is not None and self._base is before.data:
            return self.edit
        return text_edit(before.data, self.data)

    @property
    def line_count(self) -> int:
        """Number of lines (a trailing newline starts an empty last line)."""
        return len(self._line_starts)

    def point(self, offset: int) -> tuple[int, int]:
        """tree-sitter's (row, byte column) of byte `offset`."""
        row = self.line_of(offset)
        return row, offset - self._line_starts[row]

    def line_of(self, offset: int) -> int:
        """0-based line containing byte `offset`."""
        return bisect.bisect_right(self._line_starts, offset) - 1

    def line_bytes(self, line: int) -> bytes:
        """The bytes of 0-based `line` without its line terminator."""
        start = self._line_starts[line]
        end = (
            self._line_starts[line + 1] - 1 if line + 1 < len(self._line_starts) else len(self.data)
        )
        chunk = self.data[start:end]
        return chunk[:-1] if chunk.endswith(b"\r") else chunk

    def line_text(self, line: int) -> str:
        """The text of 0-based `line` without its line terminator."""
        return self.line_bytes(line).decode("utf-8", errors="replace")

    def position(self, offset: int) -> Position:
        """Convert a byte offset to a (line, Unicode-scalar column) position."""
        offset = max(0, min(offset, len(self.data)))
        line = self.line_of(offset)
        start = self._line_starts[line]
        column = len(self.data[start:offset].decode("utf-8", errors="replace"))
        return Position(line, column)

    def offset(self, position: Position) -> int:
        """Convert a (line, Unicode-scalar column) position back to a byte offset."""
        line = max(0, min(position.line, len(self._line_starts) - 1))
        text = self.line_text(line)
        prefix = text[: max(0, position.character)]
        return self._line_starts[line] + len(prefix.encode("utf-8"))

    def slice(self, start: int, end: int) -> str:
        """The source text between two byte offsets."""
        return self.data[start:end].decode("utf-8", errors="replace")
