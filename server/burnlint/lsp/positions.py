"""Positions in one document's text, the way LSP counts them.

LSP lines end at `\\n`, `\\r\\n` or a lone `\\r` (not at the other breaks `str.splitlines` knows), and
a column counts code units of the negotiated encoding: UTF-8 bytes, UTF-16 units or Unicode
scalars. The analyzer reports UTF-8 byte offsets. `LineIndex` converts between the three.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]
ENCODINGS: tuple[Encoding, ...] = ("utf-8", "utf-16", "utf-32")
_BREAK = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: Encoding) -> int:
    """How many code units `text` takes in `encoding`."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def _prefix_chars(line: str, count: int, encoding: Encoding) -> int:
    """How many characters of `line` fit in `count` code units (never splitting one)."""
    if count <= 0:
        return 0
    if encoding == "utf-32" or line.isascii():
        return min(count, len(line))
    codec = "utf-8" if encoding == "utf-8" else "utf-16-le"
    width = 1 if encoding == "utf-8" else 2
    # A position inside a character (between the halves of a surrogate pair, or inside a UTF-8
    # sequence) is dropped to the character's start by decoding only whole characters.
    return len(line.encode(codec)[: count * width].decode(codec, errors="ignore"))


class LineIndex:
    """Line starts of one text, in characters and in UTF-8 bytes, for fast conversions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        if "\r" not in text:
            # Only `\n` breaks lines: the starts are summed in C, not found match by match (a
            # request right after a keystroke in a large file waits for this index).
            lengths = map(len, text.split("\n"))
            starts = list(itertools.accumulate(map((1).__add__, lengths), initial=0))
            starts.pop()
            ends = [start - 1 for start in starts[1:]]
        else:
            starts: list[int] = [0]
            ends: list[int] = []
            for match in _BREAK.finditer(text):
                ends.append(match.start())
                starts.append(match.end())
        ends.append(len(text))
        self._starts = starts
        self._ends = ends
        if self.ascii:
            self._byte_starts = starts
        else:
            sizes = (len(text[a:b].encode("utf-8")) for a, b in itertools.pairwise(starts))
            self._byte_starts = list(itertools.accumulate(sizes, initial=0))

    def replaced(self, start: int, end: int, new_text: str) -> LineIndex:
        """The index of this text with characters `start`..`end` replaced by `new_text`, made
        from this one: the lines before the change are kept and those after it moved (a
        keystroke in a large file does not index it all again)."""
        text = self.text[:start] + new_text + self.text[end:]
        if "\r" in text:
            return LineIndex(text)
        first = bisect.bisect_right(self._starts, start) - 1
        last = bisect.bisect_right(self._starts, end) - 1
        delta = len(new_text) - (end - start)
        inserted = [start + at + 1 for at, char in enumerate(new_text) if char == "\n"]
        index = LineIndex.__new__(LineIndex)
        index.text = text
        index.ascii = self.ascii and new_text.isascii()
        if delta == 0 and inserted == self._starts[first + 1 : last + 1]:
            # The lines stayed where they were (a character replaced inside a line): the
            # lists are shared, never changed in place.
            index._starts, index._ends = self._starts, self._ends
        else:
            tail = self._starts[last + 1 :]
            starts = [*self._starts[: first + 1], *inserted, *[s + delta for s in tail]]
            index._starts = starts
            index._ends = [s - 1 for s in starts[1:]]
            index._ends.append(len(text))
        starts = index._starts
        if index.ascii:
            index._byte_starts = starts
        else:
            # Bytes: the kept lines' starts, the changed lines' measured, the rest moved.
            changed = first + 1 + len(inserted)
            bytes_delta = len(new_text.encode("utf-8")) - len(self.text[start:end].encode("utf-8"))
            head = self._byte_starts[: first + 1]
            for a, b in itertools.pairwise(starts[first:changed]):
                head.append(head[-1] + len(text[a:b].encode("utf-8")))
            moved = [s + bytes_delta for s in self._byte_starts[last + 1 :]]
            index._byte_starts = [*head, *moved]
        return index

    def same_places(self, other: LineIndex) -> bool:
        """Whether every byte offset inside both texts has the same position (in any encoding)
        in each: both ASCII, with the same line starts (an edit that kept the lines where they
        were)."""
        return (
            self.ascii
            and other.ascii
            and (self._starts is other._starts or self._starts == other._starts)
        )

    @property
    def line_count(self) -> int:
        """Number of lines; text ending in a line break has an empty last line."""
        return len(self._starts)

    def line_text(self, line: int) -> str:
        """The text of `line` without its line break."""
        return self.text[self._starts[line] : self._ends[line]]

    def line_break(self, line: int) -> str:
        """The break ending `line` ("" for the last line)."""
        return (
            self.text[self._ends[line] : self._starts[line + 1]]
            if line + 1 < len(self._starts)
            else ""
        )

    def newline(self) -> str:
        """The file's newline style: its first line break, or `\\n` for a one-line file."""
        return self.line_break(0) or "\n"

    def char_offset_of_byte(self, offset: int) -> int:
        """The character offset of UTF-8 byte `offset` (clamped to the text)."""
        if self.ascii:
            return max(0, min(offset, len(self.text)))
        line = max(0, bisect.bisect_right(self._byte_starts, offset) - 1)
        start = self._starts[line]
        rest = max(0, offset - self._byte_starts[line])
        chunk = self.text[start : self._starts[line + 1] if line + 1 < len(self._starts) else None]
        return start + len(chunk.encode("utf-8")[:rest].decode("utf-8", errors="ignore"))

    def byte_of_char_offset(self, offset: int) -> int:
        """The UTF-8 byte offset of character `offset`."""
        if self.ascii:
            return offset
        line = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return self._byte_starts[line] + len(self.text[self._starts[line] : offset].encode("utf-8"))

    def position_of_char(self, offset: int, encoding: Encoding) -> tuple[int, int]:
        """The (line, column in `encoding` units) of character `offset`."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._starts, offset) - 1
        # An offset inside a line break (between `\r` and `\n`) is the end of the line.
        end = min(offset, self._ends[line])
        return line, units(self.text[self._starts[line] : end], encoding)

    def position(self, byte_offset: int, encoding: Encoding) -> tuple[int, int]:
        """The (line, column in `encoding` units) of UTF-8 byte `byte_offset`."""
        if self.ascii:
            # Bytes, characters and code units are the same: no slice to measure (a thousand
            # inlay hints are placed per request).
            offset = max(0, min(byte_offset, len(self.text)))
            line = bisect.bisect_right(self._starts, offset) - 1
            return line, min(offset, self._ends[line]) - self._starts[line]
        return self.position_of_char(self.char_offset_of_byte(byte_offset), encoding)

    def char_offset(self, line: int, character: int, encoding: Encoding) -> int:
        """The character offset of an LSP position; columns past the line end mean its end."""
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        return self._starts[line] + _prefix_chars(self.line_text(line), character, encoding)

    def byte_offset(self, line: int, character: int, encoding: Encoding) -> int:
        """The UTF-8 byte offset of an LSP position."""
        return self.byte_of_char_offset(self.char_offset(line, character, encoding))


def apply_change(
    text: str,
    span: tuple[tuple[int, int], tuple[int, int]] | None,
    new_text: str,
    encoding: Encoding,
) -> str:
    """`text` with the LSP range `span` ((line, col), (line, col)) replaced; no span: all of it."""
    if span is None:
        return new_text
    (start_line, start_col), (end_line, end_col) = span
    if "\r" in text:
        index = LineIndex(text)
        start = index.char_offset(start_line, start_col, encoding)
        end = max(start, index.char_offset(end_line, end_col, encoding))
    else:
        # Only `\n` breaks lines: find the two lines without indexing the whole text (a
        # keystroke in a large file).
        start = _char_offset(text, start_line, start_col, encoding)
        end = max(start, _char_offset(text, end_line, end_col, encoding))
    return text[:start] + new_text + text[end:]


def _char_offset(text: str, line: int, character: int, encoding: Encoding) -> int:
    """`LineIndex.char_offset` for a text whose only line break is `\n`."""
    if line < 0:
        return 0
    begin = 0
    find = text.find
    for _ in range(line):
        begin = find("\n", begin) + 1
        if begin == 0:
            return len(text)
    stop = find("\n", begin)
    line_text = text[begin:] if stop < 0 else text[begin:stop]
    return begin + _prefix_chars(line_text, character, encoding)
